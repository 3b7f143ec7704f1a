//! The values every form is typed into, whichever program wrote the record
//! (eval from White's view, depth, move time, clock left), and the time a
//! move used with the statement of the record that gave it.

use shakmaty::Color;

use super::commands::EvalCommand;
use super::move_comments::MoveComments;
use super::score::Score;

/// The values every comment form is typed into, whichever program wrote
/// the record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TypedValues {
    /// The evaluation from White's point of view: TCEC `wv`, else
    /// `[%eval]`, else a GUI's score (the mover's view, turned).
    pub white_eval: Option<Score>,
    /// The search depth: TCEC `d`, else a GUI's depth, else `[%eval …,D]`.
    pub depth: Option<u32>,
    /// ms the move used: TCEC `mt`, else `[%emt]`, else a GUI's time.
    pub move_time_ms: Option<i64>,
    /// ms the mover had left after the move: TCEC `tl`, else `[%clk]`.
    pub clock_left_ms: Option<i64>,
}

/// Which statement of the record gave the time a move used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// TCEC's `mt`.
    Tcec,
    /// `[%emt]`.
    Emt,
    /// cutechess's `+0.35/24 1.2s`.
    Cutechess,
    /// Another GUI's move comment (fastchess, Arena, Banksia,
    /// c-chess-cli).
    Gui,
}

impl Source {
    /// The statement's name, as the clock's `used_source` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Source::Tcec => "tcec mt",
            Source::Emt => "emt",
            Source::Cutechess => "cutechess",
            Source::Gui => "gui comment",
        }
    }
}

/// A value and the statement of the record that gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sourced<T> {
    pub value: T,
    pub source: Source,
}

impl<'a> MoveComments<'a> {
    /// The first `[%eval]` of the move's comments.
    #[inline]
    fn eval_command(&self) -> Option<EvalCommand> {
        self.annotations().find_map(|a| a.eval)
    }

    /// The evaluation from White's point of view (`mover` made the move):
    /// TCEC `wv`, else `[%eval]`, else a cutechess or other GUI score
    /// (written from the mover's view, turned).
    #[inline]
    pub fn white_eval(&self, mover: Color) -> Option<Score> {
        let white = |s: Score| if mover == Color::White { s } else { s.negate() };
        self.tcec
            .and_then(|t| t.wv)
            .or_else(|| self.eval_command().map(|e| e.score))
            .or_else(|| self.cutechess.and_then(|c| c.reported.score).map(white))
            .or_else(|| self.gui.and_then(|g| g.reported.score).map(white))
    }

    /// The search depth: TCEC `d`, else a cutechess or other GUI depth,
    /// else `[%eval score,depth]`'s.
    #[inline]
    pub fn depth(&self) -> Option<u32> {
        self.tcec
            .and_then(|t| t.d)
            .or_else(|| self.cutechess.and_then(|c| c.reported.depth))
            .or_else(|| self.gui.and_then(|g| g.reported.depth))
            .or_else(|| self.eval_command().and_then(|e| e.depth))
    }

    /// ms the move used: TCEC `mt`, else `[%emt]`, else a cutechess or
    /// other GUI time.
    #[inline]
    pub fn move_time_ms(&self) -> Option<i64> {
        self.tcec
            .and_then(|t| t.mt)
            .or_else(|| self.elapsed_command_ms())
            .or_else(|| self.cutechess.and_then(|c| c.reported.time_ms))
            .or_else(|| self.gui.and_then(|g| g.reported.time_ms))
    }

    /// ms the mover had left after the move: TCEC `tl`, else `[%clk]`.
    #[inline]
    pub fn clock_left_ms(&self) -> Option<i64> {
        self.reported_time_left_ms()
            .or_else(|| self.clock_command_ms())
    }

    /// The four typed values of the move (`mover` made it).
    pub fn typed(&self, mover: Color) -> TypedValues {
        TypedValues {
            white_eval: self.white_eval(mover),
            depth: self.depth(),
            move_time_ms: self.move_time_ms(),
            clock_left_ms: self.clock_left_ms(),
        }
    }

    /// The time the move used as the record states it, ms, with the
    /// statement that gave it: TCEC `mt`, else `[%emt]`, else the first
    /// cutechess comment that gives a time, else the first other GUI
    /// comment that does. Unlike [`MoveComments::move_time_ms`], which
    /// reads the first comment of each form, a form's later comments are
    /// read where its first gives no time.
    #[inline]
    pub fn time_used(&self) -> Option<Sourced<i64>> {
        let sourced = |source| move |value| Sourced { value, source };
        self.tcec
            .and_then(|t| t.mt)
            .map(sourced(Source::Tcec))
            .or_else(|| self.elapsed_command_ms().map(sourced(Source::Emt)))
            .or_else(|| {
                self.annotations()
                    .find_map(|a| a.cutechess().and_then(|c| c.reported.time_ms))
                    .map(sourced(Source::Cutechess))
            })
            .or_else(|| {
                self.annotations()
                    .find_map(|a| a.gui().and_then(|e| e.reported.time_ms))
                    .map(sourced(Source::Gui))
            })
    }
}
