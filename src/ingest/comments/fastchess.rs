//! fastchess's move comment, every key typed:
//! `+1.04/16 0.230s, tl=3.850s, latency=-0.001s, n=202216, sd=21,
//! nps=875393, hashfull=90, tbhits=0, pv="g4h5 e6e5 …"`, and on the last
//! move the reason the game ended, `…, White wins by adjudication`.
//!
//! From fastchess's `-pgnout` (its `notation`, `nodes`, `seldepth`, `nps`,
//! `hashfull`, `tbhits`, `pv`, `timeleft` and `latency` switches, each an
//! item of its own after the first), as the matches of
//! `corpora/peers/` show it: the score from the mover's view (`+M9`/`-M9`
//! a mate in moves), the depth, the move's time in seconds; `tl` the
//! mover's time left after the move and `latency` fastchess's measure of
//! the engine's delay, in seconds with `s`; the PV in UCI coordinates,
//! quoted. With none of the switches the comment is cutechess-cli's
//! `+1.04/16 0.230s`, and read as such.
//!
//! An older layout wrote a comma after the depth, `+0.35/24, 1.234s, n=…`:
//! it is read too.

use super::MoveForm;
use super::clock::parse_clock;
use super::gui::GuiMove;
use super::lex::{items, key_value, split_white};
use super::number::int;
use super::pv::{CommentSource, PvText};
use super::score::{Reported, score_depth};

/// fastchess's comment, typed where it is stored: into `form`, which must
/// be empty, so the move is not copied on its way. `false` (`form` left
/// empty) when the text is not of that form; a value of a known key that
/// does not parse is reported in `problems`. With `src`, the PV is kept as
/// a span of the game's bytes.
pub fn fastchess_into(
    s: &str,
    problems: &mut Vec<String>,
    form: &mut Option<MoveForm>,
    src: Option<&CommentSource<'_>>,
) -> bool {
    // `str::split(',')` with each item trimmed, a `memchr` for each comma
    let mut items = items(s);
    let Some(first) = items.next() else {
        return false;
    };
    let head = match split_white(first) {
        // `+1.04/16 0.230s`
        Some((score_depth_text, time)) => {
            score_depth(score_depth_text).zip(seconds_with_unit(time.trim()).filter(|&ms| ms >= 0))
        }
        // `+0.35/24`, `1.234s` (the older layout)
        None => score_depth(first).zip(
            items
                .next()
                .and_then(seconds_with_unit)
                .filter(|&ms| ms >= 0),
        ),
    };
    let Some(((score, depth), time_ms)) = head else {
        return false;
    };
    if let MoveForm::Gui(m) = form.insert(MoveForm::Gui(GuiMove {
        form: "fastchess",
        reported: Reported::of(score, depth, time_ms),
        ..GuiMove::default()
    })) {
        fastchess_items(items, m, problems, src);
    }
    true
}

/// `3.850s`, `-0.001s` → ms (a sign allowed, the `s` required).
fn seconds_with_unit(s: &str) -> Option<i64> {
    let body = s.strip_suffix('s')?;
    match body.strip_prefix('-') {
        Some(abs) => parse_clock(abs).map(|ms| -ms),
        None => parse_clock(body),
    }
}

/// A move in UCI coordinates: `e2e4`, `e7e8q`, or the null move `0000`.
fn is_uci_move(m: &str) -> bool {
    let b = m.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b {
        [a, b1, c, d] => (square(*a, *b1) && square(*c, *d)) || m == "0000",
        [a, b1, c, d, p] => square(*a, *b1) && square(*c, *d) && b"qrbn".contains(p),
        _ => false,
    }
}

/// The items after fastchess's time, into `m`.
fn fastchess_items<'a>(
    items: impl Iterator<Item = &'a str>,
    m: &mut GuiMove,
    problems: &mut Vec<String>,
    src: Option<&CommentSource<'_>>,
) {
    let mut notes: Vec<&str> = Vec::new();
    for item in items {
        let Some((key, value)) = key_value(item) else {
            if !item.is_empty() {
                notes.push(item);
            }
            continue;
        };
        let integer = |what: &str, problems: &mut Vec<String>| -> Option<u64> {
            let v = int(value).ok();
            if v.is_none() {
                problems.push(format!("{key}={value}: expected {what}"));
            }
            v
        };
        let seconds = |problems: &mut Vec<String>| -> Option<i64> {
            let v = seconds_with_unit(value);
            if v.is_none() {
                problems.push(format!(
                    "{key}={value}: expected seconds with `s` (`3.850s`)"
                ));
            }
            v
        };
        match key {
            "tl" => m.time_left_ms = seconds(problems),
            "latency" => m.latency_ms = seconds(problems),
            "n" => m.nodes = integer("a node count (integer)", problems),
            "sd" => {
                m.seldepth = integer("a selective depth (integer)", problems)
                    .and_then(|v| u32::try_from(v).ok())
            }
            "nps" => m.nps = integer("nodes per second (integer)", problems),
            "hashfull" => m.hashfull = integer("a hash use (integer)", problems),
            "tbhits" => m.tbhits = integer("a tablebase hit count (integer)", problems),
            "pv" => {
                let moves = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .unwrap_or(value);
                match moves.split_whitespace().find(|mv| !is_uci_move(mv)) {
                    Some(bad) => problems.push(format!(
                        "pv={value}: expected moves in UCI coordinates (`e2e4`), found {bad:?}"
                    )),
                    None => m.pv_uci = Some(PvText::new(src, moves)),
                }
            }
            _ => m.extra.push((key.to_string(), value.to_string())),
        }
    }
    if !notes.is_empty() {
        m.note = Some(notes.join(", "));
    }
}

/// [`fastchess_into`]'s move on its own, for the tests.
#[cfg(test)]
fn parse_fastchess(s: &str, problems: &mut Vec<String>) -> Option<GuiMove> {
    let mut form = None;
    if !fastchess_into(s, problems, &mut form, None) {
        assert!(form.is_none(), "a text not of the form stores nothing");
        return None;
    }
    match form {
        Some(MoveForm::Gui(m)) => Some(m),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::{Score, parse_comment};

    #[test]
    fn every_key_of_a_real_comment() {
        let mut p = Vec::new();
        let m = parse_fastchess(
            "+1.04/16 0.230s, tl=3.850s, latency=-0.001s, n=202216, sd=21, nps=875393, \
             hashfull=90, tbhits=0, pv=\"g4h5 e6e5 d4b3 e7e8q\"",
            &mut p,
        )
        .unwrap();
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(m.form, "fastchess");
        assert_eq!(
            (m.reported.score, m.reported.depth, m.reported.time_ms),
            (Some(Score::Cp(104)), Some(16), Some(230))
        );
        assert_eq!((m.time_left_ms, m.latency_ms), (Some(3850), Some(-1)));
        assert_eq!(
            (m.nodes, m.seldepth, m.nps),
            (Some(202_216), Some(21), Some(875_393))
        );
        assert_eq!((m.hashfull, m.tbhits), (Some(90), Some(0)));
        assert_eq!(m.pv_uci.as_deref(), Some("g4h5 e6e5 d4b3 e7e8q"));
        assert_eq!((m.note.as_deref(), m.extra.len()), (None, 0));
    }

    #[test]
    fn mates_the_termination_and_the_older_layout() {
        let mut p = Vec::new();
        let m = parse_fastchess(
            "+M9/30 0.012s, tl=1.000s, White wins by adjudication",
            &mut p,
        )
        .unwrap();
        assert_eq!(m.reported.score, Some(Score::Mate(9)));
        assert_eq!(m.note.as_deref(), Some("White wins by adjudication"));
        let m = parse_fastchess("-M9/30 0.012s, n=5", &mut p).unwrap();
        assert_eq!(m.reported.score, Some(Score::Mate(-9)));
        let m = parse_fastchess(
            "-1.05/21, 0.812s, n=1234567, sd=33, nps=1520000, hashfull=88, tbhits=4, White mates",
            &mut p,
        )
        .unwrap();
        assert_eq!((m.reported.time_ms, m.nodes), (Some(812), Some(1_234_567)));
        assert_eq!(m.note.as_deref(), Some("White mates"));
        assert!(p.is_empty(), "{p:?}");
        assert!(parse_fastchess("+0.35/24", &mut p).is_none());
        assert!(parse_fastchess("+0.35/24 -1.0s, n=3", &mut p).is_none());
    }

    #[test]
    fn a_malformed_value_is_a_problem_named_by_its_key() {
        let mut p = Vec::new();
        let m = parse_fastchess(
            "+0.1/2 1.000s, tl=3.8, latency=x, n=y, pv=\"e2e4 Nf3\"",
            &mut p,
        )
        .unwrap();
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p[0].starts_with("tl=3.8: expected seconds"), "{p:?}");
        assert!(p[3].contains("found \"Nf3\""), "{p:?}");
        assert_eq!((m.time_left_ms, m.pv_uci), (None, None));
    }

    /// In the whole comment's dispatch: with a key it is fastchess's, and
    /// without one the same text stays cutechess-cli's.
    #[test]
    fn the_dispatch_tells_fastchess_from_cutechess() {
        let a = parse_comment("+0.43/9 0.20s, tl=1.5s");
        assert_eq!(a.gui().map(|g| g.form), Some("fastchess"));
        assert_eq!(a.gui().unwrap().time_left_ms, Some(1500));
        let a = parse_comment("+0.43/9 0.20s");
        assert!(a.cutechess().is_some());
        let a = parse_comment("+M1/2 0.866s, White mates");
        assert_eq!(a.cutechess().unwrap().note.as_deref(), Some("White mates"));
        assert!(parse_comment("book").is_book());
    }

    #[test]
    fn uci_moves() {
        for m in ["e2e4", "a7a8q", "h2h1n", "0000"] {
            assert!(is_uci_move(m), "{m}");
        }
        for m in ["e4", "Nf3", "e2e9", "i2i4", "e7e8k", "e2e4q5", ""] {
            assert!(!is_uci_move(m), "{m}");
        }
    }
}
