//! [`MoveComments`]: the comments after one move, each form found once, and
//! the move's values read from them by what they mean (depth, nodes, the
//! engine's reported times, book, PV), whatever program wrote them.

use super::cutechess::CutechessMove;
use super::gui::GuiMove;
use super::tcec::TcecMove;
use super::{Annotations, Comment, MoveForm};

/// The comments after one move (before the next), with the first comment
/// of each move-comment form found in one pass. A move's values are read
/// from it through its methods (and the typed values' in `typed`): the
/// first comment that gives a value gives it, each method's doc says from
/// which forms. It is cheap to copy: the rules read many fields of a move.
#[derive(Debug, Clone, Copy)]
pub struct MoveComments<'a> {
    comments: &'a [Comment],
    pub(super) tcec: Option<&'a TcecMove>,
    pub(super) cutechess: Option<&'a CutechessMove>,
    pub(super) gui: Option<&'a GuiMove>,
}

impl<'a> MoveComments<'a> {
    /// A move's comments, each form found once.
    #[inline]
    pub fn of(comments: &'a [Comment]) -> MoveComments<'a> {
        let mut m = MoveComments {
            comments,
            tcec: None,
            cutechess: None,
            gui: None,
        };
        for c in comments {
            match &c.annotations.form {
                Some(MoveForm::Tcec(t)) => {
                    m.tcec.get_or_insert(t);
                }
                Some(MoveForm::Cutechess(cc)) => {
                    m.cutechess.get_or_insert(cc);
                }
                Some(MoveForm::Gui(g)) => {
                    m.gui.get_or_insert(g);
                }
                None => {}
            }
        }
        m
    }

    /// The termination a match manager appended to the move's comment
    /// (`-10.54/9 0.080s, Black wins by adjudication`): the text after the
    /// values in cutechess-cli's, fastchess's and cutechess-ob's forms.
    #[inline]
    pub fn ending(&self) -> Option<&'a str> {
        self.cutechess
            .and_then(|c| c.note.as_deref())
            .or_else(|| {
                self.gui
                    .filter(|g| matches!(g.form, "fastchess" | "cutechess-ob"))
                    .and_then(|g| g.note.as_deref())
            })
            .map(str::trim)
            .filter(|t| !t.is_empty())
    }

    /// Each comment's annotations, in order.
    #[inline]
    pub(super) fn annotations(&self) -> impl Iterator<Item = &'a Annotations> + use<'a> {
        self.comments.iter().map(|c| &c.annotations)
    }

    /// The mover's clock after the move as a `[%clk]` command gives it, ms.
    #[inline]
    pub fn clock_command_ms(&self) -> Option<i64> {
        self.annotations().find_map(|a| a.clk)
    }

    /// The time the move took as an `[%emt]` command gives it, ms.
    #[inline]
    pub fn elapsed_command_ms(&self) -> Option<i64> {
        self.annotations().find_map(|a| a.emt)
    }

    /// The selective depth the engine reports: TCEC `sd`, else fastchess
    /// `sd`.
    #[inline]
    pub fn seldepth(&self) -> Option<u32> {
        self.tcec
            .and_then(|t| t.sd)
            .or_else(|| self.gui.and_then(|g| g.seldepth))
    }

    /// The nodes the engine searched: TCEC `n`, else fastchess `n`.
    #[inline]
    pub fn nodes(&self) -> Option<u64> {
        self.tcec
            .and_then(|t| t.n)
            .or_else(|| self.gui.and_then(|g| g.nodes))
    }

    /// The engine's speed, nodes per second: TCEC `s`, else fastchess
    /// `nps`.
    #[inline]
    pub fn nodes_per_second(&self) -> Option<u64> {
        self.tcec
            .and_then(|t| t.s)
            .or_else(|| self.gui.and_then(|g| g.nps))
    }

    /// The tablebase hits the engine reports: TCEC `tb` (none where it
    /// wrote `null`), else fastchess `tbhits`.
    #[inline]
    pub fn tablebase_hits(&self) -> Option<u64> {
        self.tcec
            .and_then(|t| t.tb.flatten())
            .or_else(|| self.gui.and_then(|g| g.tbhits))
    }

    /// The time the engine reports for its search, ms, as its move comment
    /// gives it: TCEC `mt`, else a cutechess or other GUI comment's time.
    /// An `[%emt]` command is not read (the typed move time is).
    #[inline]
    pub fn reported_search_time_ms(&self) -> Option<i64> {
        self.tcec
            .and_then(|t| t.mt)
            .or_else(|| self.cutechess.and_then(|c| c.reported.time_ms))
            .or_else(|| self.gui.and_then(|g| g.reported.time_ms))
    }

    /// The mover's time left after the move as its move comment reports
    /// it, ms: TCEC `tl`, else fastchess `tl`. A `[%clk]` command is not
    /// read (the typed clock is).
    #[inline]
    pub fn reported_time_left_ms(&self) -> Option<i64> {
        self.tcec
            .and_then(|t| t.tl)
            .or_else(|| self.gui.and_then(|g| g.time_left_ms))
    }

    /// fastchess's `latency`: ms between the engine's `bestmove` and the
    /// manager's reading of it, as fastchess measures it.
    #[inline]
    pub fn latency_ms(&self) -> Option<i64> {
        self.gui.and_then(|g| g.latency_ms)
    }

    /// How full the engine's hash was, percent: TCEC `h`, else fastchess
    /// `hashfull` (per mille, as UCI's `info hashfull`) divided by ten.
    #[inline]
    pub fn hash_full_percent(&self) -> Option<f64> {
        self.tcec
            .and_then(|t| t.h)
            .or_else(|| self.gui.and_then(|g| g.hashfull).map(|h| h as f64 / 10.0))
    }

    /// The engine's ponder hit rate, percent (TCEC `ph`).
    #[inline]
    pub fn ponder_hit_percent(&self) -> Option<f64> {
        self.tcec.and_then(|t| t.ph)
    }

    /// The moves left under the fifty-move rule as the record counts them
    /// (TCEC `R50`), verbatim.
    #[inline]
    pub fn fifty_move_counter(&self) -> Option<i32> {
        self.tcec.and_then(|t| t.r50)
    }

    /// The draw-adjudication counter as the record counts it (TCEC `Rd`),
    /// verbatim.
    #[inline]
    pub fn draw_rule_counter(&self) -> Option<i32> {
        self.tcec.and_then(|t| t.rd)
    }

    /// The win-adjudication counter as the record counts it (TCEC `Rr`),
    /// verbatim.
    #[inline]
    pub fn win_rule_counter(&self) -> Option<i32> {
        self.tcec.and_then(|t| t.rr)
    }

    /// The move is a book move as its first comment of each book-aware form
    /// says (see `comment_values`). [`Annotations::is_book`] asks each
    /// comment.
    #[inline]
    pub fn book(&self) -> bool {
        self.tcec.is_some_and(|t| t.book) || self.cutechess.is_some_and(|c| c.book)
    }

    /// Some comment is a book-aware form's move comment, book or not.
    #[inline]
    pub fn has_book_aware_comment(&self) -> bool {
        self.tcec.is_some() || self.cutechess.is_some() || self.fastchess().is_some()
    }

    /// The first other-GUI comment, where it is fastchess's (a book-aware
    /// form: fastchess writes a book move `book`).
    #[inline]
    fn fastchess(&self) -> Option<&'a GuiMove> {
        self.gui.filter(|g| g.form == "fastchess")
    }

    /// Some comment is a program's move comment (any form), book or not.
    #[inline]
    pub fn has_move_comment(&self) -> bool {
        self.has_book_aware_comment() || self.gui.is_some()
    }

    /// The engine's principal variation, SAN moves separated by spaces, as
    /// written (TCEC `pv`).
    #[inline]
    pub fn pv(&self) -> Option<&'a str> {
        self.tcec.and_then(|t| t.pv.as_deref())
    }

    /// The engine's principal variation in UCI coordinates, moves
    /// separated by spaces, as written (fastchess `pv="…"`, its quotes
    /// taken off).
    #[inline]
    pub fn pv_uci(&self) -> Option<&'a str> {
        self.gui.and_then(|g| g.pv_uci.as_deref())
    }

    /// The reply the engine expected, SAN, as written (TCEC `pd`).
    #[inline]
    pub fn ponder_move(&self) -> Option<&'a str> {
        self.tcec.and_then(|t| t.pd.as_deref())
    }

    /// The score a book-aware form writes from White's point of view
    /// (TCEC `wv`; `[%eval]` is not read).
    pub fn book_aware_score_from_white(&self) -> Option<super::Score> {
        self.tcec.and_then(|t| t.wv)
    }

    /// The score a book-aware form writes from the mover's point of view
    /// (cutechess-cli's, fastchess's); another GUI's score is not read.
    pub fn book_aware_score_from_mover(&self) -> Option<super::Score> {
        self.cutechess
            .and_then(|c| c.reported.score)
            .or_else(|| self.fastchess().and_then(|g| g.reported.score))
    }

    /// The move was played off the clock, as its first comment in TCEC's
    /// form says: `book` (a bare `book`, cutechess-cli's and fastchess's
    /// book comment, is read in that form too).
    #[inline]
    pub fn played_off_the_clock(&self) -> bool {
        self.tcec.is_some_and(|t| t.book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::span::Span;
    use crate::ingest::comments::{ReportedSearch, Score, Source, Sourced, parse_comment};
    use shakmaty::Color;

    fn comments(texts: &[&str]) -> Vec<Comment> {
        texts
            .iter()
            .map(|t| Comment {
                span: Span {
                    offset: 0,
                    len: 0,
                    line: 1,
                    column: 1,
                },
                annotations: parse_comment(t),
            })
            .collect()
    }

    #[test]
    fn every_form_gives_the_same_values() {
        let tcec = comments(&["d=30, sd=44, mt=90906, tl=3514094, n=5, s=6, wv=0.27, R50=49,"]);
        let cc = comments(&["+0.27/30 90.906s"]);
        let fastchess = comments(&["+0.27/30, 90.906s, n=5, sd=44, nps=6"]);
        for (name, c) in [
            ("tcec", &tcec),
            ("cutechess", &cc),
            ("fastchess", &fastchess),
        ] {
            let m = MoveComments::of(c);
            assert_eq!(m.white_eval(Color::White), Some(Score::Cp(27)), "{name}");
            // TCEC writes White's view, the GUIs the mover's
            let black = if name == "tcec" { 27 } else { -27 };
            assert_eq!(m.white_eval(Color::Black), Some(Score::Cp(black)), "{name}");
            assert_eq!(m.depth(), Some(30), "{name}");
            assert_eq!(m.move_time_ms(), Some(90_906), "{name}");
            assert_eq!(m.reported_search_time_ms(), Some(90_906), "{name}");
            assert!(m.has_move_comment() && !m.book(), "{name}");
        }
        for c in [&tcec, &fastchess] {
            let m = MoveComments::of(c);
            assert_eq!(
                (m.seldepth(), m.nodes(), m.nodes_per_second()),
                (Some(44), Some(5), Some(6))
            );
        }
        let m = MoveComments::of(&tcec);
        assert_eq!(m.clock_left_ms(), Some(3_514_094));
        assert_eq!(m.reported_time_left_ms(), Some(3_514_094));
        assert_eq!(m.fifty_move_counter(), Some(49));
        assert_eq!(
            m.time_used(),
            Some(Sourced {
                value: 90_906,
                source: Source::Tcec
            })
        );
        assert_eq!(
            MoveComments::of(&fastchess).time_used().unwrap().source,
            Source::Gui
        );
        // fastchess writes a book move `book`: its form is book-aware
        assert!(MoveComments::of(&fastchess).has_book_aware_comment());
        let arena = comments(&["+0.27/30 90.906"]);
        assert!(!MoveComments::of(&arena).has_book_aware_comment());
        let real = comments(&["+0.27/30 90.906s, tl=1.5s, latency=-0.001s, hashfull=90"]);
        let m = MoveComments::of(&real);
        assert_eq!(
            (m.clock_left_ms(), m.reported_time_left_ms()),
            (Some(1500), Some(1500))
        );
        assert_eq!(
            (m.latency_ms(), m.hash_full_percent()),
            (Some(-1), Some(9.0))
        );
    }

    #[test]
    fn commands_give_the_clock_and_the_move_time_not_the_reported_ones() {
        let c = comments(&[
            "[%eval -0.20,18] [%clk 1:59:58]",
            "[%emt 0:00:05] [%clk 0:00:01]",
        ]);
        let m = MoveComments::of(&c);
        assert!(!m.has_move_comment());
        assert_eq!(m.white_eval(Color::Black), Some(Score::Cp(-20)));
        assert_eq!(m.depth(), Some(18));
        // the first comment that gives a value gives it
        assert_eq!(m.clock_left_ms(), Some(7_198_000));
        assert_eq!(m.clock_command_ms(), Some(7_198_000));
        assert_eq!(m.move_time_ms(), Some(5_000));
        assert_eq!(m.elapsed_command_ms(), Some(5_000));
        assert_eq!(m.time_used().unwrap().source, Source::Emt);
        assert_eq!(
            (m.reported_search_time_ms(), m.reported_time_left_ms()),
            (None, None)
        );
    }

    #[test]
    fn a_book_move_and_the_search_a_comment_reports() {
        let book = comments(&["book, mb=+0+0+0+0+0,"]);
        let m = MoveComments::of(&book);
        assert!(m.book() && m.played_off_the_clock() && m.has_book_aware_comment());
        assert!(book[0].annotations.is_book());
        assert_eq!(book[0].annotations.book_aware_search(), None);
        let bare = comments(&["book"]);
        assert!(MoveComments::of(&bare).played_off_the_clock());
        let engine = comments(&[
            "d=12, n=300, mt=40, wv=0.1,",
            "+0.10/9 0.5s",
            "+0.1/9, 0.5s",
            "+0.1/9 0.5s 40000",
        ]);
        let searches: Vec<_> = engine
            .iter()
            .map(|c| c.annotations.book_aware_search())
            .collect();
        assert_eq!(
            searches,
            [
                Some(ReportedSearch {
                    depth: Some(12),
                    nodes: Some(300),
                    time_ms: Some(40)
                }),
                Some(ReportedSearch {
                    depth: Some(9),
                    nodes: None,
                    time_ms: Some(500)
                }),
                // fastchess's older layout: book-aware
                Some(ReportedSearch {
                    depth: Some(9),
                    nodes: None,
                    time_ms: Some(500)
                }),
                // not a book-aware form
                None
            ]
        );
        assert_eq!(
            engine[0].annotations.score_from_white(),
            Some(Score::Cp(10))
        );
        assert_eq!(
            engine[1].annotations.book_aware_score_from_mover(),
            Some(Score::Cp(10))
        );
        assert_eq!(
            engine[2].annotations.book_aware_score_from_mover(),
            Some(Score::Cp(10))
        );
        assert_eq!(engine[3].annotations.book_aware_score_from_mover(), None);
    }
}
