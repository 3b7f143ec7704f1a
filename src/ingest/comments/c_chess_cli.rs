//! c-chess-cli's move comment, `{35/24 1234ms}`: the score in centipawns
//! from the mover's view, the depth and the time in milliseconds, typed
//! into the same fields as the other GUIs' forms.
//!
//! From c-chess-cli's own description and source (github.com/lucasart/
//! c-chess-cli): its `-pgn FILE [VERBOSITY]` option writes, at verbosity 3
//! (the default), "comments of the form `{score/depth time}`" (README.md),
//! which `game_export_pgn` in `src/game.c` prints as `{%i/%i %Ims}`: the
//! engine's last `score cp` as an integer, or `M%i` / `-M%i` for a `score
//! mate` of that many moves (negative when the mover is being mated), its
//! last `depth`, and the time from `go` to `bestmove` in ms. Verbosity 2
//! writes `{score/depth}` alone, which is not read (a bare `1/2` is as
//! likely a remark).

use super::clock::MAX_TIME_MS;
use super::gui::GuiMove;
use super::lex::split_white;
use super::score::{Reported, Score};

/// Digits only (no sign), as `%i` prints a number that is not negative, at
/// most 18 of them.
fn digits(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > 18 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `35`, `-20`, `M5`, `-M3`: centipawns, or a mate in moves.
fn centipawns_or_mate(s: &str) -> Option<Score> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let (mate, n) = match body.strip_prefix('M') {
        Some(n) => (true, n),
        None => (false, body),
    };
    let n = i32::try_from(digits(n)?).ok()?;
    let n = if neg { -n } else { n };
    Some(if mate { Score::Mate(n) } else { Score::Cp(n) })
}

/// `35/24 1234ms`, `M5/30 120ms`, `-M3/22 98ms` (the whole comment,
/// trimmed). `None` when the text is not of that form.
pub(super) fn parse_c_chess_cli(s: &str) -> Option<GuiMove> {
    let (score_depth, time) = split_white(s)?;
    let (score, depth) = score_depth.split_once('/')?;
    let time_ms = digits(time.strip_suffix("ms")?).filter(|&ms| ms <= MAX_TIME_MS)?;
    Some(GuiMove {
        form: "c-chess-cli",
        reported: Reported::of(
            centipawns_or_mate(score)?,
            u32::try_from(digits(depth)?).ok()?,
            time_ms,
        ),
        ..GuiMove::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::{MoveForm, parse_comment};

    #[test]
    fn score_depth_and_milliseconds() {
        let m = parse_c_chess_cli("35/24 1234ms").unwrap();
        assert_eq!(m.form, "c-chess-cli");
        assert_eq!(
            (m.reported.score, m.reported.depth, m.reported.time_ms),
            (Some(Score::Cp(35)), Some(24), Some(1234))
        );
        let m = parse_c_chess_cli("-120/18 0ms").unwrap();
        assert_eq!(
            (m.reported.score, m.reported.time_ms),
            (Some(Score::Cp(-120)), Some(0))
        );
        assert_eq!(
            parse_c_chess_cli("M5/30 120ms").unwrap().reported.score,
            Some(Score::Mate(5))
        );
        assert_eq!(
            parse_c_chess_cli("-M3/22 98ms").unwrap().reported.score,
            Some(Score::Mate(-3))
        );
    }

    #[test]
    fn other_texts_are_not_of_the_form() {
        for text in [
            "35/24",
            "35/24 1234",
            "35/24 1.2s",
            "+35/24 1234ms",
            "0.35/24 1234ms",
            "35/-24 1234ms",
            "35/24 -5ms",
            "35/24 12.5ms",
            "35/24 1234ms extra",
            "M/24 1234ms",
            "35 24 1234ms",
            "35/24 1000000000001ms",
            "99999999999/24 1ms",
        ] {
            assert!(parse_c_chess_cli(text).is_none(), "{text:?}");
        }
    }

    /// The form is read in the whole comment's dispatch, as a GUI's move:
    /// the forms read before it do not take it.
    #[test]
    fn a_comment_of_the_form_is_a_gui_move() {
        let a = parse_comment(" 35/24 1234ms ");
        match &a.form {
            Some(MoveForm::Gui(m)) => assert_eq!(m.form, "c-chess-cli"),
            other => panic!("{other:?}"),
        }
        assert!(a.text.is_empty() && a.problems.is_empty());
        let a = parse_comment("[%clk 0:01:00] -M2/9 15ms");
        assert_eq!(a.gui().unwrap().reported.score, Some(Score::Mate(-2)));
        assert_eq!(a.clk, Some(60_000));
    }
}
