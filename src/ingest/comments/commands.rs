//! The PGN commands `[%clk 1:59:58]`, `[%emt 0:00:05]` and `[%eval 0.35]`
//! (also `[%eval #-5]` and `[%eval 0.35,20]`), as lichess exports them:
//! typed into their fields, other commands kept verbatim, and the text
//! around them given back.

use std::borrow::Cow;

use serde::Serialize;

use super::Annotations;
use super::clock::parse_clock;
use super::lex::{split_white, trim};
use super::score::Score;

/// `[%eval …]`: a score from White's point of view, with optional depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EvalCommand {
    pub score: Score,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

/// Whether a comment holds a `[%`, which opens a command. A comment
/// shorter than memchr's vector (cutechess-cli's `+0.27/30 90.906s`) is
/// looked at a byte at a time: memchr's own loop for it costs more.
#[inline]
pub(super) fn has_command(b: &[u8]) -> bool {
    if b.len() < 32 {
        command_start(b).is_some()
    } else {
        memchr::memchr_iter(b'[', b).any(|i| b.get(i + 1) == Some(&b'%'))
    }
}

/// Type the `[%cmd args]` groups of `raw`, the ones arbiter knows into
/// their fields and the others verbatim, and return the text around them
/// (to be trimmed). Where at most one piece of that text is more than white
/// space, the one piece is the text once trimmed, and it is borrowed; only
/// a comment with text on both sides of a command has its pieces joined
/// into a new text.
pub(super) fn extract_commands<'a>(raw: &'a str, ann: &mut Annotations) -> Cow<'a, str> {
    let mut text: Option<&str> = None;
    let mut several = false;
    for piece in command_pieces(raw) {
        match piece {
            // more than white space (`trim` reads ASCII a byte at a time)
            Piece::Text(t) if !trim(t).is_empty() => {
                several |= text.is_some();
                text = Some(t);
            }
            Piece::Text(_) => {}
            Piece::Command(inner) => type_command(inner, ann),
        }
    }
    if several {
        let mut out = String::with_capacity(raw.len());
        for piece in command_pieces(raw) {
            if let Piece::Text(t) = piece {
                out.push_str(t);
            }
        }
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text.unwrap_or(""))
    }
}

/// A piece of a comment: text, or the inside of a `[%…]` group.
enum Piece<'a> {
    Text(&'a str),
    Command(&'a str),
}

/// The pieces of `raw` in order: the text before each `[%…]` group, the
/// group's inside, and the text after the last one (an unclosed `[%` and
/// all after it are text).
fn command_pieces(raw: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = Some(raw);
    let mut inner: Option<&str> = None;
    std::iter::from_fn(move || {
        if let Some(c) = inner.take() {
            return Some(Piece::Command(c));
        }
        let r = rest?;
        match command_group(r.as_bytes()) {
            Some((start, len)) => {
                inner = Some(&r[start + 2..start + len]);
                rest = Some(&r[start + len + 1..]);
                Some(Piece::Text(&r[..start]))
            }
            None => {
                rest = None;
                Some(Piece::Text(r))
            }
        }
    })
}

/// Where the first `[%` of `b` starts, and how far from there its group's
/// `]` is: `r.find("[%")`, then the first `]` after it; `None` when there is
/// no `[%`, or no `]` after the first. A byte at a time: the texts around
/// and inside a group are a few bytes each (`{ [%eval 0.27] [%clk 0:58:34]
/// }`), too short for a search's set-up to pay.
#[inline]
fn command_group(b: &[u8]) -> Option<(usize, usize)> {
    let start = command_start(b)?;
    let len = b[start + 2..].iter().position(|&c| c == b']')?;
    Some((start, len + 2))
}

/// Where the first `[%` of `b` starts, a byte at a time.
#[inline]
fn command_start(b: &[u8]) -> Option<usize> {
    b.windows(2).position(|w| w == b"[%")
}

/// Type one `[%cmd args]` group's inside.
fn type_command(inner: &str, ann: &mut Annotations) {
    let (name, args) = match split_white(inner) {
        Some((n, a)) => (n, trim(a)),
        None => (inner, ""),
    };
    match name {
        "clk" => match parse_clock(args) {
            Some(ms) => ann.clk = Some(ms),
            None => ann
                .problems
                .push(format!("[%clk {args}]: expected H:MM:SS[.f]")),
        },
        "emt" => match parse_clock(args) {
            Some(ms) => ann.emt = Some(ms),
            None => ann
                .problems
                .push(format!("[%emt {args}]: expected H:MM:SS[.f]")),
        },
        "eval" => {
            let (score, depth) = match args.split_once(',') {
                Some((s, d)) => (s, Some(d.trim())),
                None => (args, None),
            };
            match (Score::parse_pawns(score), depth.map(|d| d.parse::<u32>())) {
                (Ok(score), None) => ann.eval = Some(EvalCommand { score, depth: None }),
                (Ok(score), Some(Ok(d))) => {
                    ann.eval = Some(EvalCommand {
                        score,
                        depth: Some(d),
                    })
                }
                (Err(e), _) => ann.problems.push(format!("[%eval {args}]: {e}")),
                (_, Some(Err(_))) => ann
                    .problems
                    .push(format!("[%eval {args}]: expected a depth after the comma")),
            }
        }
        _ => ann.commands.push((name.to_string(), args.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::test_texts::generated;

    /// A comment's look for `[%` answers as memchr's does, at every length
    /// on both sides of the short comments' loop and with the `[` and the
    /// `%` at every place (and apart, and the `[` last).
    #[test]
    fn the_short_command_look_is_memchrs() {
        let reference =
            |b: &[u8]| memchr::memchr_iter(b'[', b).any(|i| b.get(i + 1) == Some(&b'%'));
        for len in 0..80 {
            let base = vec![b'x'; len];
            let mut cases = vec![base.clone()];
            for at in 0..len {
                let mut one = base.clone();
                one[at] = b'[';
                cases.push(one.clone());
                if at + 1 < len {
                    one[at + 1] = b'%';
                    cases.push(one.clone());
                    one[at] = b'%';
                    one[at + 1] = b'[';
                    cases.push(one);
                }
            }
            for c in cases {
                assert_eq!(
                    has_command(&c),
                    reference(&c),
                    "{:?}",
                    String::from_utf8_lossy(&c)
                );
            }
        }
    }

    /// `command_group` finds what `memchr` found before it: the first `[%`,
    /// then the first `]` after it, on texts of brackets, percent signs and
    /// letters in every order.
    #[test]
    fn a_command_group_is_found_as_memchr_found_it() {
        let memchr_found = |b: &[u8]| {
            memchr::memchr_iter(b'[', b)
                .find(|&i| b.get(i + 1) == Some(&b'%'))
                .and_then(|start| memchr::memchr(b']', &b[start..]).map(|len| (start, len)))
        };
        let mut found = 0;
        for text in generated("[%][%] c0", 16, 100_000) {
            let text = text.as_bytes();
            assert_eq!(command_group(text), memchr_found(text), "{text:?}");
            found += usize::from(command_group(text).is_some());
        }
        assert!(found > 10_000, "{found}");
    }

    /// The text and commands `extract_commands` gives are those of joining
    /// every piece around the commands and trimming (as it did before it
    /// borrowed a lone piece), on texts made of the commands' own
    /// characters.
    #[test]
    fn a_comments_text_around_its_commands_is_the_joined_pieces() {
        let mut texts = generated("[%]clk ev0:1x \t\u{a0}é", 24, 100_000);
        texts.extend(
            [
                " [%eval 0.27] [%clk 0:58:34] ",
                "good [%clk 0:01:00] move",
                "[%clk 0:01:00]move",
                "\u{a0}[%clk 0:01:00] x \u{2003}",
                "[%clk 0:01:00",
                "a [%x] b [%y] c",
            ]
            .map(String::from),
        );
        let mut joined_texts = 0;
        for t in &texts {
            let mut got = Annotations::default();
            let text = trim(&extract_commands(t, &mut got)).to_string();
            // the reference: every text piece joined, every group typed in turn
            let mut want = Annotations::default();
            let mut joined = String::new();
            let mut rest = t.as_str();
            while let Some(start) = rest.find("[%") {
                let Some(len) = rest[start..].find(']') else {
                    break;
                };
                joined.push_str(&rest[..start]);
                type_command(&rest[start + 2..start + len], &mut want);
                rest = &rest[start + len + 1..];
            }
            joined.push_str(rest);
            assert_eq!(text, joined.trim(), "{t:?}");
            assert_eq!(got, want, "{t:?}");
            joined_texts += usize::from(matches!(extract_commands(t, &mut got), Cow::Owned(_)));
        }
        assert!(joined_texts > 500, "{joined_texts}");
    }

    /// A comment of a GUI's form allocates nothing that it does not keep: a
    /// lichess comment's text around its commands is borrowed.
    #[test]
    fn a_lichess_comment_borrows_its_text() {
        let mut a = Annotations::default();
        assert!(matches!(
            extract_commands(" [%eval 0.27] [%clk 0:58:34] ", &mut a),
            Cow::Borrowed("")
        ));
        assert_eq!(a.clk, Some(3_514_000));
        assert!(matches!(
            extract_commands("good [%clk 0:01:00] ", &mut a),
            Cow::Borrowed("good ")
        ));
        assert!(matches!(
            extract_commands("good [%clk 0:01:00] move", &mut a),
            Cow::Owned(t) if t == "good  move"
        ));
    }
}
