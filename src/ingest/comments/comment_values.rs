//! What one comment says, whatever form its program wrote it in: whether
//! it marks a book move, its scores and the search it reports. A move's
//! values, read over all its comments, are [`super::MoveComments`]'s.
//!
//! A *book-aware* form is one that can mark a book move: TCEC's (`book,
//! mb=…,`; a bare `book`, how cutechess-cli and fastchess write a book
//! move, is read as one), cutechess-cli's and fastchess's. The other GUIs'
//! forms cannot, so that a move in one of them may be a book move or an
//! engine's: the
//! readers that must tell the two apart (the hidden-book check, the passive
//! similarity test, the dossier's chart) read the book-aware forms only.

use super::score::Score;
use super::{Annotations, MoveForm};

/// The search an engine reports for its move in the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportedSearch {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// ms the search took.
    pub time_ms: Option<i64>,
}

impl Annotations {
    /// Whether the comment marks its move a book move.
    #[inline]
    pub fn is_book(&self) -> bool {
        self.tcec().is_some_and(|t| t.book) || self.cutechess().is_some_and(|t| t.book)
    }

    /// A score the comment writes from White's point of view: TCEC's `wv`,
    /// else `[%eval]`.
    pub fn score_from_white(&self) -> Option<Score> {
        self.tcec()
            .and_then(|t| t.wv)
            .or(self.eval.as_ref().map(|e| e.score))
    }

    /// The score a book-aware form writes from the mover's point of view
    /// (cutechess-cli's `+0.35/24`, fastchess's); another GUI's score is
    /// not read.
    pub fn book_aware_score_from_mover(&self) -> Option<Score> {
        self.cutechess()
            .map(|cc| cc.reported.score)
            .or_else(|| {
                self.gui()
                    .filter(|g| g.form == "fastchess")
                    .map(|g| g.reported.score)
            })
            .flatten()
    }

    /// The search a book-aware comment reports for an engine move: TCEC's
    /// `d`, `n` and `mt`, cutechess-cli's depth and time where it gives
    /// either, or fastchess's depth, nodes and time. `None` for a book move, for a comment of another form, and
    /// for one that reports no search.
    pub fn book_aware_search(&self) -> Option<ReportedSearch> {
        match &self.form {
            Some(MoveForm::Tcec(t)) if !t.book => Some(ReportedSearch {
                depth: t.d,
                nodes: t.n,
                time_ms: t.mt,
            }),
            Some(MoveForm::Cutechess(cc))
                if !cc.book && (cc.reported.depth.is_some() || cc.reported.time_ms.is_some()) =>
            {
                Some(ReportedSearch {
                    depth: cc.reported.depth,
                    nodes: None,
                    time_ms: cc.reported.time_ms,
                })
            }
            Some(MoveForm::Gui(g)) if g.form == "fastchess" => Some(ReportedSearch {
                depth: g.reported.depth,
                nodes: g.nodes,
                time_ms: g.reported.time_ms,
            }),
            _ => None,
        }
    }
}
