//! Engine logs: the UCI or xboard (CECP) traffic between the arbiter's
//! software and an engine, in the forms people really have:
//!
//! * cutechess-cli's debug output: `<ms> >Name(id): <line>` for what was sent
//!   to the engine, `<ms> <Name(id): <line>` for what it answered;
//! * a plain transcript: `<time> <direction> <line>`, the time an ISO 8601
//!   timestamp or milliseconds, the direction `>` (to the engine) or `<`
//!   (from it), and `!` for what the recording harness observed (engine
//!   started, exited); `#` lines are comments, `# key: value` metadata;
//! * arbiter's own recording (`arbiter record`), which is a transcript.
//!
//! Every line keeps its span. A line that cannot be read is an error with
//! its line number and what was expected; reading goes on.

mod activity;
mod info;
mod line;
mod log;
mod message;
mod reader;
mod search;
mod split;
#[cfg(test)]
mod tests;

pub use self::activity::Activity;
pub use self::info::Info;
pub use self::line::{FastParts, Line, LineError, Stamp, fastchess_parts};
pub use self::log::{Backwards, EngineActivity, EngineLog, LogError, activities};
pub use self::message::{Dir, Go, Msg, parse_msg};
pub use self::reader::Reader;
pub use self::search::{Infos, Search};
pub use self::split::{
    LineCount, PENDING_CAP, Read, Segment, Split, Splitter, cute_finish, cute_start, paired_games,
};

use self::line::parse_line;

/// Parse a log held in memory, recognising cutechess debug output or a
/// transcript line by line.
pub fn parse(text: &str) -> EngineLog {
    read_text(Reader::default(), text)
}

/// Every line of `text` read by `reader`.
fn read_text(mut reader: Reader, text: &str) -> EngineLog {
    for (span, line) in crate::base::span::lines_with_spans(text) {
        reader.line(span, line);
    }
    reader.finish()
}

/// The traffic lines of a log, one by one (notes, metadata and unreadable
/// lines left out): for tools that rewrite a log.
pub fn traffic(text: &str) -> impl Iterator<Item = Line> + '_ {
    crate::base::span::lines_with_spans(text).filter_map(|(span, line)| {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            return None;
        }
        parse_line(t, span).ok().flatten()
    })
}
