//! OpenBench's move comment, as its fork of cutechess-cli (cutechess-ob)
//! writes it: `+1.31 14/40 159 377044`, the score in pawns from the
//! mover's view (`+M1` a mate in moves), the depth and selective depth,
//! the move's time in ms and the nodes searched; on the last move the
//! termination after a comma (`+M1 96/2 0 2516, White mates`).
//!
//! From OpenBench's own reader of these records (`Client/pgn_util.py`,
//! `REGEX_COMMENT_VERBOSE`: `[+-]?M?\d+(?:\.\d+)? \d+/\d+ \d+ \d+`) and the
//! examples of its unit tests (`corpora/peers/openbench-example*.pgn`). A
//! comment made of such numbers that lacks one of them (`+4.23 12/14 75`,
//! `12/17 41 40000`) is not read as one: which number is missing cannot
//! be told. It is reported ([`engine_numbers_malformed`]), its text kept.

use super::clock::MAX_TIME_MS;
use super::gui::GuiMove;
use super::lex::{split_byte, trim};
use super::score::{Reported, Score};

/// Digits only, at most 18 of them.
fn digits(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 18 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `+1.31`, `-0.5`, `0.00`, `436`, `+M1`, `-M3`: a sign, an optional `M`,
/// digits and optionally a point and digits (at most two, as pawns are
/// read).
fn score(s: &str) -> Option<Score> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let body = body.strip_prefix('M').unwrap_or(body);
    let (whole, frac) = split_byte(body, b'.').unwrap_or((body, "0"));
    digits(whole)?;
    digits(frac)?;
    Score::read_pawns(s)
}

/// `+1.31 14/40 159 377044` (the whole comment, trimmed), with its
/// termination after a comma. `None` when the text is not of that form.
pub(super) fn parse_cutechess_ob(s: &str) -> Option<GuiMove> {
    let (main, note) = match split_byte(s, b',') {
        Some((m, n)) => (trim(m), Some(trim(n)).filter(|n| !n.is_empty())),
        None => (s, None),
    };
    let mut words = main.split_ascii_whitespace();
    let (sc, depths, ms, nodes) = (words.next()?, words.next()?, words.next()?, words.next()?);
    if words.next().is_some() {
        return None;
    }
    let (depth, seldepth) = split_byte(depths, b'/')?;
    let time_ms = i64::try_from(digits(ms)?)
        .ok()
        .filter(|&t| t <= MAX_TIME_MS)?;
    Some(GuiMove {
        form: "cutechess-ob",
        reported: Reported::of(score(sc)?, u32::try_from(digits(depth)?).ok()?, time_ms),
        seldepth: Some(u32::try_from(digits(seldepth)?).ok()?),
        nodes: Some(digits(nodes)?),
        note: note.map(str::to_string),
        ..GuiMove::default()
    })
}

/// A comment that no form read, made of an engine's numbers only (before
/// any comma: at least three words, each of digits with `+`, `-`, `.`,
/// `/` or `M`), as cutechess-ob's form with one of them missing: the
/// problem to report, naming the comment. `None` for any other text.
pub(super) fn engine_numbers_malformed(s: &str) -> Option<String> {
    let main = split_byte(s, b',').map_or(s, |(m, _)| m);
    let words: Vec<&str> = main.split_ascii_whitespace().collect();
    let numeric = |w: &&str| {
        w.bytes().any(|b| b.is_ascii_digit())
            && w.bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'/' | b'M'))
    };
    (words.len() >= 3 && words.iter().all(numeric)).then(|| {
        format!(
            "comment {{{s}}}: expected cutechess-ob's \"score depth/seldepth ms nodes\" \
             (as \"+1.31 14/40 159 377044\"); its values are not read"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::parse_comment;

    #[test]
    fn score_depths_time_and_nodes() {
        let m = parse_cutechess_ob("+1.31 14/40 159 377044").unwrap();
        assert_eq!(m.form, "cutechess-ob");
        assert_eq!(
            (m.reported.score, m.reported.depth, m.reported.time_ms),
            (Some(Score::Cp(131)), Some(14), Some(159))
        );
        assert_eq!(
            (m.seldepth, m.nodes, m.note),
            (Some(40), Some(377_044), None)
        );
        let m = parse_cutechess_ob("+M1 96/2 0 2516, White mates").unwrap();
        assert_eq!(m.reported.score, Some(Score::Mate(1)));
        assert_eq!(m.note.as_deref(), Some("White mates"));
        assert_eq!(
            parse_cutechess_ob("0.00 23/7 79 17807")
                .unwrap()
                .reported
                .score,
            Some(Score::Cp(0))
        );
        assert_eq!(
            parse_cutechess_ob("-M3 9/9 1 2").unwrap().reported.score,
            Some(Score::Mate(-3))
        );
        assert_eq!(
            parse_cutechess_ob("+4 13/18 42 40000")
                .unwrap()
                .reported
                .score,
            Some(Score::Cp(400))
        );
    }

    #[test]
    fn a_comment_missing_a_number_is_reported_not_read() {
        for text in [
            "+4.23 12/14 75",
            "+3.70 12/17 40000",
            "+4.18 14 40 40000",
            "+4.28 41 40000",
            "12/17 41 40000",
            "0/1 8 40000",
        ] {
            assert!(parse_cutechess_ob(text).is_none(), "{text}");
            let a = parse_comment(text);
            assert_eq!(a.form, None, "{text}");
            assert_eq!(a.text, text);
            assert_eq!(a.problems.len(), 1, "{text}");
            assert!(a.problems[0].contains(&format!("{{{text}}}")), "{a:?}");
        }
        for text in ["book", "1/2", "White mates", "+0.35/24 1.2s", "12 34"] {
            assert!(parse_comment(text).problems.is_empty(), "{text}");
        }
        let a = parse_comment("+1.31 14/40 159 377044");
        assert_eq!(a.gui().map(|g| g.form), Some("cutechess-ob"));
        assert!(a.text.is_empty() && a.problems.is_empty());
    }
}
