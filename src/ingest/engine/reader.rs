//! [`Reader`]: an engine log read one line at a time, each line folded
//! into its engine's activities at once.

use super::activity::{Activity, Track};
use super::info::{info_numbers, thinking_numbers};
use super::line::split_line;
use super::log::{Backwards, EngineActivity, EngineLog, LogError};
use super::message::Dir;
use crate::base::span::Span;

/// Reads a log one line at a time and folds each line into its engine's
/// activities at once; nothing of a line is kept beyond what the
/// activities hold. `parse` feeds it a text in memory, and the audit feeds
/// it a file as it streams by.
#[derive(Debug, Default)]
pub struct Reader {
    log: EngineLog,
    tracks: Vec<Track>,
    /// Where each word of the `info` line being read lies (kept from line
    /// to line, so that reading one allocates nothing).
    words: Vec<(usize, usize)>,
    /// Every line is read whole, `info` lines too, as before their numbers
    /// were read in place (the tests compare the two ways).
    whole: bool,
}

impl Reader {
    /// A reader that reads every line whole.
    #[cfg(test)]
    pub(super) fn whole() -> Self {
        Reader {
            whole: true,
            ..Reader::default()
        }
    }

    /// One line of the log (without its line ending) and its span.
    pub fn line(&mut self, span: Span, line: &str) {
        let t = line.trim();
        if t.is_empty() {
            return;
        }
        if let Some(c) = t.strip_prefix('#') {
            self.log.comment(c);
            return;
        }
        match split_line(t) {
            Ok(Some(l)) => {
                let at = match self.tracks.iter().position(|k| k.name == l.engine) {
                    Some(at) => at,
                    None => {
                        self.tracks.push(Track::new(l.engine.to_string()));
                        self.tracks.len() - 1
                    }
                };
                // an engine's `info` line, the bulk of a log, has its numbers
                // read in place; any other line is read whole
                let numbers = (l.dir == Dir::FromEngine && !self.whole)
                    .then(|| {
                        info_numbers(l.text, &mut self.words).or_else(|| thinking_numbers(l.text))
                    })
                    .flatten();
                let track = &mut self.tracks[at];
                if let Some(prev) = track.last_time
                    && l.time < prev
                {
                    self.log.backwards.push(Backwards {
                        span,
                        earlier_ms: prev - l.time,
                    });
                }
                track.last_time = Some(l.time);
                match numbers {
                    Some(info) => track.info(&info, l.text),
                    None => track.take(l.into_line(span)),
                }
            }
            Ok(None) => self.log.notes.push((span, t.to_string())),
            Err(e) => self.log.errors.push(LogError {
                span,
                message: e.to_string(),
            }),
        }
    }

    /// The log read so far, each engine's last search closed.
    pub fn finish(mut self) -> EngineLog {
        for mut track in self.tracks {
            track.settle();
            if let Some(s) = track.current.take() {
                track.out.push(Activity::Search(Box::new(s)));
            }
            self.log.engines.push(EngineActivity {
                name: track.name,
                activities: track.out,
            });
        }
        self.log
    }
}
