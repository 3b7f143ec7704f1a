//! cutechess-cli's move comment, `+0.35/24 1.2s` (the score from the
//! mover's view, the depth, the time) or `book`, optionally followed by
//! `, <termination>`: also the form CCRL publishes.

use serde::Serialize;

use super::clock::parse_clock;
use super::lex::{split_byte, trim};
use super::score::Reported;

/// A cutechess-cli move comment: `+0.35/24 1.2s`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CutechessMove {
    pub book: bool,
    #[serde(flatten)]
    pub reported: Reported,
    /// Text after the comma, e.g. `White mates`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `+0.35/24 1.2s`, `-M5/30 0.05s, Black mates`, `book`.
pub(super) fn parse_cutechess(s: &str) -> Option<CutechessMove> {
    // the note is copied only once the text is known to be of this form
    let (main, note) = match split_byte(s, b',') {
        Some((m, n)) => (trim(m), Some(trim(n))),
        None => (trim(s), None),
    };
    if main == "book" {
        return Some(CutechessMove {
            book: true,
            reported: Reported::default(),
            note: note.map(str::to_string),
        });
    }
    let (score_depth, time) = split_byte(main, b' ')?;
    let (score, depth) = super::score::score_depth(score_depth)?;
    let secs = trim(time).strip_suffix('s')?;
    let time_ms = parse_clock(secs)?;
    Some(CutechessMove {
        book: false,
        reported: Reported::of(score, depth, time_ms),
        note: note.map(str::to_string),
    })
}
