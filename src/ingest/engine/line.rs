//! One line of an engine log: its time, engine and direction cut out of
//! cutechess-cli's debug form or a transcript's, and what it says.

use super::message::{Dir, Msg, parse_msg};
use crate::base::span::Span;

/// One line of an engine log.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// ms: since the Unix epoch when `absolute`, else since the log began.
    pub time: i64,
    /// The timestamp as written.
    pub at: String,
    pub absolute: bool,
    /// The engine's name as the log gives it (`Stockfish(0)`); empty when
    /// the log holds one engine.
    pub engine: String,
    pub dir: Dir,
    pub text: String,
    pub msg: Msg,
    pub span: Span,
}

/// Where and when a line of a log was.
#[derive(Debug, Clone, PartialEq)]
pub struct Stamp {
    /// ms: since the Unix epoch when `absolute`, else since the log began.
    pub time: i64,
    pub absolute: bool,
    /// The timestamp as written.
    pub at: String,
    pub span: Span,
}

impl Line {
    pub fn stamp(&self) -> Stamp {
        Stamp {
            time: self.time,
            absolute: self.absolute,
            at: self.at.clone(),
            span: self.span,
        }
    }
}

/// Why a line that starts like engine traffic could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// A time in milliseconds past `i64`.
    #[error("time {time:?} is too large")]
    TimeTooLarge { time: String },
    /// A time that starts like a date but is not a timestamp.
    #[error(transparent)]
    Timestamp(#[from] crate::base::time::TimestampError),
    /// A fastchess `[Engine]` line without `Name <--- line` or
    /// `Name ---> line` after its thread.
    #[error("expected `[Engine] [HH:MM:SS.µs] <thread> Name <--- line` (or `--->`)")]
    Fastchess,
    /// cutechess's `>` or `<` without `Name(id): ` after it.
    #[error("expected `{dir}Name(id): text` after the time")]
    NoEngine { dir: char },
    /// Nothing after the time.
    #[error(
        "expected a direction (`>` to the engine, `<` from it, `!` harness) and a line after the time"
    )]
    NoDirection,
    /// A word after the time that is no direction.
    #[error(
        "expected a direction (`>` to the engine, `<` from it, `!` harness) after the time, found {found:?}"
    )]
    Direction { found: String },
}

/// One line: `Ok(None)` for a line that is not engine traffic (kept as a
/// note), `Err` for a line that starts like traffic but is malformed.
pub(super) fn parse_line(t: &str, span: Span) -> Result<Option<Line>, LineError> {
    Ok(split_line(t)?.map(|raw| raw.into_line(span)))
}

/// A line of traffic cut into its parts, each a slice of the line: what
/// [`parse_line`] gives before anything is copied or read further.
pub(super) struct RawLine<'a> {
    pub(super) time: i64,
    pub(super) at: &'a str,
    pub(super) absolute: bool,
    pub(super) engine: &'a str,
    pub(super) dir: Dir,
    pub(super) text: &'a str,
    /// The time is a time of day (fastchess), ms since midnight: the
    /// reader turns it into ms since the log's first midnight.
    pub(super) of_day: bool,
}

impl RawLine<'_> {
    pub(super) fn into_line(self, span: Span) -> Line {
        Line {
            time: self.time,
            at: self.at.to_string(),
            absolute: self.absolute,
            engine: self.engine.to_string(),
            dir: self.dir,
            msg: parse_msg(self.dir, self.text),
            text: self.text.to_string(),
            span,
        }
    }
}

/// [`parse_line`]'s reading of a line's time, engine and direction.
pub(super) fn split_line(t: &str) -> Result<Option<RawLine<'_>>, LineError> {
    if t.starts_with('[') {
        return fastchess_line(t);
    }
    let (time_s, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    let rest = rest.trim_start();
    // time: ISO 8601 or milliseconds
    let b = time_s.as_bytes();
    let (time, absolute) = if b.iter().all(u8::is_ascii_digit) {
        match time_s.parse::<i64>() {
            Ok(ms) => (ms, false),
            Err(_) => {
                return Err(LineError::TimeTooLarge {
                    time: time_s.to_string(),
                });
            }
        }
    } else if b.len() >= 5 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' {
        // it starts like a date: it must be a whole timestamp
        (crate::base::time::parse_timestamp(time_s)?, true)
    } else {
        return Ok(None);
    };
    // cutechess: >Name(0): text   /   <Name(0): text
    let bytes = rest.as_bytes();
    if let Some(&d) = bytes.first()
        && (d == b'>' || d == b'<')
        && bytes.get(1).is_some_and(|b| !b.is_ascii_whitespace())
    {
        let dir = if d == b'>' {
            Dir::ToEngine
        } else {
            Dir::FromEngine
        };
        let Some(colon) = rest
            .find(": ")
            .or_else(|| rest.strip_suffix(':').map(|s| s.len()))
        else {
            return Err(LineError::NoEngine { dir: d as char });
        };
        return Ok(Some(RawLine {
            time,
            at: time_s,
            absolute,
            engine: &rest[1..colon],
            dir,
            text: rest.get(colon + 2..).unwrap_or(""),
            of_day: false,
        }));
    }
    // transcript: <dir> text
    let (dir_s, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let dir = match dir_s {
        ">" | ">>" | "->" | "to" | "send" => Dir::ToEngine,
        "<" | "<<" | "<-" | "from" | "recv" => Dir::FromEngine,
        "!" => Dir::Harness,
        "" => return Err(LineError::NoDirection),
        other => {
            return Err(LineError::Direction {
                found: other.to_string(),
            });
        }
    };
    Ok(Some(RawLine {
        time,
        at: time_s,
        absolute,
        engine: "",
        dir,
        text,
        of_day: false,
    }))
}

/// A fastchess `-log` line cut into its level, time of day, thread and
/// text: `[LEVEL ] [HH:MM:SS.µs] <   thread> text`. `None` for a line not
/// in that form.
pub fn fastchess_parts(t: &str) -> Option<FastParts<'_>> {
    let rest = t.strip_prefix('[')?;
    let (level, rest) = rest.split_once(']')?;
    let rest = rest.trim_start().strip_prefix('[')?;
    let (at, rest) = rest.split_once(']')?;
    let ms = time_of_day(at)?;
    let rest = rest.trim_start().strip_prefix('<')?;
    let (thread, text) = rest.split_once('>')?;
    Some(FastParts {
        level: level.trim(),
        at,
        ms,
        thread: thread.trim(),
        text: text.trim(),
    })
}

/// The parts of a fastchess `-log` line ([`fastchess_parts`]).
#[derive(Debug)]
pub struct FastParts<'a> {
    pub level: &'a str,
    /// The time of day as written, and in ms since midnight.
    pub at: &'a str,
    pub ms: i64,
    /// The thread id, empty for the main thread's lines.
    pub thread: &'a str,
    pub text: &'a str,
}

/// `HH:MM:SS[.fraction]` in ms since midnight.
fn time_of_day(at: &str) -> Option<i64> {
    let b = at.as_bytes();
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return None;
    }
    let num = |s: &str| -> Option<i64> {
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())
            .flatten()
    };
    let (h, m, s) = (num(&at[..2])?, num(&at[3..5])?, num(&at[6..8])?);
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    let frac = match at.get(8..) {
        Some("") | None => 0,
        Some(f) => {
            let digits = f.strip_prefix('.')?;
            num(digits)?;
            // the first three digits are the milliseconds
            let d: String = digits.chars().chain("000".chars()).take(3).collect();
            d.parse().ok()?
        }
    };
    Some(((h * 60 + m) * 60 + s) * 1000 + frac)
}

/// A fastchess line: its engine traffic (`[Engine] … Name <--- cmd` sent
/// to the engine, `Name ---> line` from it); the manager's own lines, and
/// what an engine wrote on its standard error (`<stderr> Name ---> …`),
/// are notes.
fn fastchess_line(t: &str) -> Result<Option<RawLine<'_>>, LineError> {
    let Some(p) = fastchess_parts(t) else {
        return Ok(None);
    };
    if p.level != "Engine" || p.text.starts_with("<stderr>") {
        return Ok(None);
    }
    let to = p.text.find(" <--- ");
    let from = p.text.find(" ---> ");
    let (at, dir) = match (to, from) {
        (Some(a), Some(b)) if b < a => (b, Dir::FromEngine),
        (Some(a), _) => (a, Dir::ToEngine),
        (None, Some(b)) => (b, Dir::FromEngine),
        (None, None) => {
            // an arrow at the very end: an empty line
            match (p.text.strip_suffix(" <---"), p.text.strip_suffix(" --->")) {
                (Some(n), _) => (n.len(), Dir::ToEngine),
                (None, Some(n)) => (n.len(), Dir::FromEngine),
                (None, None) => return Err(LineError::Fastchess),
            }
        }
    };
    let engine = p.text[..at].trim();
    if engine.is_empty() {
        return Err(LineError::Fastchess);
    }
    Ok(Some(RawLine {
        time: p.ms,
        at: p.at,
        absolute: false,
        engine,
        dir,
        text: p.text.get(at + 6..).unwrap_or(""),
        of_day: true,
    }))
}
