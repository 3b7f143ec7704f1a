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
    /// The unreadable lines and backward timestamps past
    /// [`MAX_LOG_ERRORS`] each, counted, with the first one's span.
    more_errors: Option<(Span, u64)>,
    more_backwards: Option<(Span, u64)>,
    /// fastchess's times of day: the day's start added (ms) and the last
    /// time read, so that a log running past midnight goes on forward.
    day: i64,
    last_of_day: Option<i64>,
}

/// A time of day this much earlier than the one before it is taken as the
/// next day's (fastchess writes the time of day only).
const NEXT_DAY_BACK: i64 = 12 * 3_600_000;

/// The unreadable lines of a log, and its timestamps going backwards,
/// reported one by one (each kind); the rest are counted in one more error,
/// so that a log of garbage is read in bounded memory. The notes (lines
/// that are not traffic) are kept up to the same number.
pub const MAX_LOG_ERRORS: usize = 1_000;

/// Count one more past the cap: the first one's span and how many.
fn count_more(more: &mut Option<(Span, u64)>, span: Span) {
    match more {
        Some((_, n)) => *n += 1,
        None => *more = Some((span, 1)),
    }
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
            Ok(Some(mut l)) => {
                if l.of_day {
                    l.time += self.day;
                    if let Some(last) = self.last_of_day
                        && l.time < last - NEXT_DAY_BACK
                    {
                        self.day += 86_400_000;
                        l.time += 86_400_000;
                    }
                    self.last_of_day = Some(l.time);
                }
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
                    if self.log.backwards.len() < MAX_LOG_ERRORS {
                        self.log.backwards.push(Backwards {
                            span,
                            earlier_ms: prev - l.time,
                        });
                    } else {
                        count_more(&mut self.more_backwards, span);
                    }
                }
                track.last_time = Some(l.time);
                self.log.last_line = Some((l.time, span));
                match numbers {
                    Some(info) => track.info(&info, l.text),
                    None => track.take(l.into_line(span)),
                }
            }
            Ok(None) if self.log.notes.len() < MAX_LOG_ERRORS => {
                self.log.notes.push((span, t.to_string()));
            }
            Ok(None) => {}
            Err(e) => self.error(span, || e.to_string()),
        }
    }

    /// Where the times of day are: the day's start added and the last one
    /// read.
    pub fn clock(&self) -> (i64, Option<i64>) {
        (self.day, self.last_of_day)
    }

    /// A reader whose times of day go on from `clock` ([`Reader::clock`]).
    pub fn with_clock(clock: (i64, Option<i64>)) -> Reader {
        Reader {
            day: clock.0,
            last_of_day: clock.1,
            ..Reader::default()
        }
    }

    /// An unreadable line: an error, or counted past the cap.
    fn error(&mut self, span: Span, message: impl FnOnce() -> String) {
        if self.log.errors.len() < MAX_LOG_ERRORS {
            self.log.errors.push(LogError {
                span,
                message: message(),
            });
        } else {
            count_more(&mut self.more_errors, span);
        }
    }

    /// A line of `len` bytes, over the `cap` a line may have: skipped
    /// unread, an error at its span.
    pub fn long_line(&mut self, span: Span, len: u64, cap: usize) {
        self.error(span, || {
            format!(
                "a line of {len} bytes, over the {cap} a log line may have: expected a line of engine traffic (`<time> <direction> <line>`); the line was skipped"
            )
        });
    }

    /// The log read so far, each engine's last search closed.
    pub fn finish(mut self) -> EngineLog {
        if let Some((span, n)) = self.more_errors {
            self.log.errors.push(LogError {
                span,
                message: format!(
                    "{n} more unreadable lines from this one on (the first {MAX_LOG_ERRORS} are reported one by one)"
                ),
            });
        }
        if let Some((span, n)) = self.more_backwards {
            self.log.errors.push(LogError {
                span,
                message: format!(
                    "{n} more timestamps going backwards from this line on (the first {MAX_LOG_ERRORS} are reported one by one)"
                ),
            });
        }
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
