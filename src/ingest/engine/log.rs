//! A parsed engine log: each engine's activities, the log's errors,
//! metadata and notes, and the timestamps that ran backwards.

use std::collections::BTreeMap;

use super::activity::Activity;
use crate::base::span::Span;

/// A problem in an engine log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogError {
    pub span: Span,
    pub message: String,
}

/// A parsed engine log, folded as it was read: each engine's activities
/// (its searches with their `info` lines summed up, option settings,
/// starts, exits), not its lines, so that memory grows with the searches
/// and not with the length of the log.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineLog {
    /// Each engine in the log, in order of its first line.
    pub engines: Vec<EngineActivity>,
    pub errors: Vec<LogError>,
    /// `# key: value` metadata (transcripts).
    pub meta: BTreeMap<String, String>,
    /// Lines of the log that are not engine traffic (cutechess's own
    /// messages), kept verbatim.
    pub notes: Vec<(Span, String)>,
    /// Lines whose timestamp is earlier than the same engine's line before
    /// them, in the order of the log.
    pub backwards: Vec<Backwards>,
    /// The last line of traffic read (any engine's): its time and place.
    /// For one game of a match log it is the game's end as the log shows
    /// it (cutechess-cli writes no time on its `Finished game` line; what
    /// it sends the engines as the game ends carries one).
    pub last_line: Option<(i64, Span)>,
}

/// One engine's activities.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineActivity {
    /// The engine's name as the log gives it (`Stockfish(0)`); empty when
    /// the log holds one engine.
    pub name: String,
    pub activities: Vec<Activity>,
}

/// A timestamp earlier than the one before it (same engine).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backwards {
    /// The line with the earlier timestamp.
    pub span: Span,
    /// How much earlier, ms.
    pub earlier_ms: i64,
}

impl EngineLog {
    /// A `#` line's text (after the `#`): a `key: value` is kept as
    /// metadata, anything else is a comment and left.
    pub(super) fn comment(&mut self, c: &str) {
        if let Some((k, v)) = c.split_once(':') {
            let k = k.trim();
            if !k.is_empty() && k.len() < 40 && !k.contains(char::is_whitespace) {
                self.meta
                    .insert(k.to_ascii_lowercase(), v.trim().to_string());
            }
        }
    }

    /// The distinct engines in the log, in order of appearance.
    pub fn engines(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }
}

/// One engine's activities, in order (`engine` = the name in the log, `""`
/// for a transcript); none for an engine not in the log.
pub fn activities<'a>(log: &'a EngineLog, engine: &str) -> &'a [Activity] {
    log.engines
        .iter()
        .find(|e| e.name == engine)
        .map_or(&[], |e| e.activities.as_slice())
}
