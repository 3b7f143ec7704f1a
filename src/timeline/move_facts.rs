//! A move's typed values: what its comments say, whichever program wrote
//! them, and its [`MoveFacts`], every `move` field a rule reads, without
//! making a value where it can.

use shakmaty::Color;

use crate::base::value::{Text, Value};
use crate::ingest::comments::Score;
use crate::ingest::pgn::PgnGame;
use crate::replay::Ply;
use crate::timeline::move_field::MoveField;

fn opt_num<T: Into<f64>>(v: Option<T>) -> Value {
    v.map_or(Value::None, |x| Value::Num(x.into()))
}

pub(crate) fn side_str(c: Color) -> Value {
    Value::Str(Text::from_static(if c == Color::White {
        "white"
    } else {
        "black"
    }))
}

/// Pawns for a score; a mate counts as ±1000 pawns.
pub fn score_pawns(s: Score) -> f64 {
    match s {
        Score::Cp(cp) => f64::from(cp) / 100.0,
        Score::Mate(m) if m < 0 => -1000.0,
        Score::Mate(_) => 1000.0,
    }
}

/// The values every comment form is typed into, whichever program wrote
/// the record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TypedValues {
    /// The evaluation from White's point of view: TCEC `wv`, else
    /// `[%eval]`, else a GUI's score (the mover's view, turned).
    pub eval: Option<Score>,
    /// The search depth: TCEC `d`, else a GUI's depth, else `[%eval …,D]`.
    pub depth: Option<u32>,
    /// ms the move used: TCEC `mt`, else `[%emt]`, else a GUI's time.
    pub move_time_ms: Option<i64>,
    /// ms the mover had left after the move: TCEC `tl`, else `[%clk]`.
    pub clock_ms: Option<i64>,
}

/// The typed values of one move's comments (`side` moved). The first
/// comment that gives a value gives it.
pub fn typed_values(comments: &[crate::ingest::pgn::Comment], side: Color) -> TypedValues {
    let ann = || comments.iter().map(|c| &c.annotations);
    typed_from(
        comments,
        side,
        ann().find_map(|a| a.tcec()),
        || ann().find_map(|a| a.cutechess()),
        || ann().find_map(|a| a.gui()),
    )
}

/// [`typed_values`] from the move's first TCEC comment, and its first
/// cutechess and GUI comments as `cc` and `gui` find them: each other form
/// is looked for only where the ones before it give nothing (a TCEC
/// comment gives all four values).
#[inline]
pub(super) fn typed_from<'m>(
    comments: &'m [crate::ingest::pgn::Comment],
    side: Color,
    tcec: Option<&'m crate::ingest::comments::TcecMove>,
    cc: impl Fn() -> Option<&'m crate::ingest::comments::CutechessMove>,
    gui: impl Fn() -> Option<&'m crate::ingest::comments::GuiMove>,
) -> TypedValues {
    let ann = || comments.iter().map(|c| &c.annotations);
    let eval_cmd = || ann().find_map(|a| a.eval);
    let white = |s: Score| if side == Color::White { s } else { s.negate() };
    TypedValues {
        eval: tcec
            .and_then(|t| t.wv)
            .or_else(|| eval_cmd().map(|e| e.score))
            .or_else(|| cc().and_then(|c| c.score).map(white))
            .or_else(|| gui().and_then(|g| g.score).map(white)),
        depth: tcec
            .and_then(|t| t.d)
            .or_else(|| cc().and_then(|c| c.depth))
            .or_else(|| gui().and_then(|g| g.depth))
            .or_else(|| eval_cmd().and_then(|e| e.depth)),
        move_time_ms: tcec
            .and_then(|t| t.mt)
            .or_else(|| ann().find_map(|a| a.emt))
            .or_else(|| cc().and_then(|c| c.time_ms))
            .or_else(|| gui().and_then(|g| g.time_ms)),
        clock_ms: tcec
            .and_then(|t| t.tl)
            .or_else(|| ann().find_map(|a| a.clk)),
    }
}

/// One move's facts: its replayed ply and the annotations of its comments,
/// found once (a rule reads many fields of the same move).
#[derive(Debug, Clone, Copy)]
pub struct MoveFacts<'a> {
    pub(super) game: &'a PgnGame,
    pub ply: &'a Ply,
    pub(super) mv: &'a crate::ingest::pgn::PgnMove,
    pub(super) tcec: Option<&'a crate::ingest::comments::TcecMove>,
    pub(super) cc: Option<&'a crate::ingest::comments::CutechessMove>,
    pub(super) gui: Option<&'a crate::ingest::comments::GuiMove>,
    pub(super) white_score: Option<Score>,
    pub(super) depth: Option<u32>,
}

/// A tag's value, or `none` when the game has no such tag.
pub(super) fn tag_value(game: &PgnGame, name: &str) -> Value {
    game.tag(name).map_or(Value::None, |v| Value::Str(v.into()))
}

impl MoveFacts<'_> {
    /// The first of the move's comments that gives `f`, as a number.
    fn ann(&self, f: impl Fn(&crate::ingest::comments::Annotations) -> Option<i64>) -> Option<f64> {
        self.game
            .comments_of(self.mv)
            .iter()
            .find_map(|c| f(&c.annotations))
            .map(|x| x as f64)
    }

    /// Whether `text` names the side that made the move (`move.side ==
    /// text`), compared without making the field's value (the names of
    /// `side_str`, each compared with its literal: a compare with the name
    /// chosen at run time measured 1.03x the time of the whole audit).
    pub fn side_is(&self, text: &str) -> bool {
        match self.ply.side {
            Color::White => text == "white",
            Color::Black => text == "black",
        }
    }

    /// A numeric field's value, without making a `Value`: `Some(None)`
    /// where the record has none, `None` for a field that is not a number
    /// (a text, a boolean, or a clock field, which the evaluator reads from
    /// its clock reconstruction). `get` is made from it, so that the two
    /// agree.
    #[inline(always)]
    pub fn number(&self, f: MoveField) -> Option<Option<f64>> {
        let (p, tcec) = (self.ply, self.tcec);
        Some(match f {
            MoveField::Ply => Some(f64::from(p.ply)),
            MoveField::Number => Some(f64::from(p.move_number)),
            MoveField::HalfmoveClock => Some(f64::from(p.halfmove_clock)),
            MoveField::Repetition => Some(f64::from(p.repetition)),
            MoveField::Pieces => Some(f64::from(p.pieces)),
            MoveField::Depth => self.depth.map(f64::from),
            MoveField::Seldepth => tcec
                .and_then(|t| t.sd)
                .or_else(|| self.gui.and_then(|g| g.seldepth))
                .map(f64::from),
            MoveField::Score => self.white_score.map(|s| {
                let s = if p.side == Color::White {
                    s
                } else {
                    s.negate()
                };
                score_pawns(s)
            }),
            MoveField::Wv => self.white_score.map(score_pawns),
            MoveField::Mate => match self.white_score {
                Some(Score::Mate(m)) => Some(f64::from(m)),
                _ => None,
            },
            MoveField::Nodes => tcec
                .and_then(|t| t.n)
                .or_else(|| self.gui.and_then(|g| g.nodes))
                .map(|x| x as f64),
            MoveField::Nps => tcec
                .and_then(|t| t.s)
                .or_else(|| self.gui.and_then(|g| g.nps))
                .map(|x| x as f64),
            MoveField::Mt => tcec
                .and_then(|t| t.mt)
                .or_else(|| self.cc.and_then(|c| c.time_ms))
                .or_else(|| self.gui.and_then(|g| g.time_ms))
                .map(|x| x as f64),
            MoveField::Tl => tcec.and_then(|t| t.tl).map(|x| x as f64),
            MoveField::Tbhits => tcec
                .and_then(|t| t.tb.flatten())
                .or_else(|| self.gui.and_then(|g| g.tbhits))
                .map(|x| x as f64),
            MoveField::Hashfull => tcec.and_then(|t| t.h),
            MoveField::Ponderhit => tcec.and_then(|t| t.ph),
            MoveField::RecordedLeft => tcec
                .and_then(|t| t.tl)
                .or_else(|| {
                    self.game
                        .comments_of(self.mv)
                        .iter()
                        .find_map(|c| c.annotations.clk)
                })
                .map(|x| x as f64),
            MoveField::RecordedR50 => tcec.and_then(|t| t.r50).map(f64::from),
            MoveField::RecordedRd => tcec.and_then(|t| t.rd).map(f64::from),
            MoveField::RecordedRr => tcec.and_then(|t| t.rr).map(f64::from),
            MoveField::Clk => self.ann(|a| a.clk),
            MoveField::Emt => self.ann(|a| a.emt),
            _ => return None,
        })
    }

    /// A boolean field's value, without making a `Value`; `None` for a
    /// field that is not a boolean. `get` is made from it.
    #[inline(always)]
    pub fn flag(&self, f: MoveField) -> Option<bool> {
        let (p, tcec, cc) = (self.ply, self.tcec, self.cc);
        Some(match f {
            MoveField::Capture => p.capture,
            MoveField::PawnMove => p.pawn_move,
            MoveField::Promotion => p.promotion,
            MoveField::Castling => p.castling,
            MoveField::CastlingRightsLost => p.castling_rights_changed,
            MoveField::RookCastlingLost => p.rook_castling_lost,
            MoveField::Irreversible => p.capture || p.pawn_move,
            MoveField::Check => p.check,
            MoveField::Checkmate => p.checkmate,
            MoveField::Stalemate => p.stalemate,
            MoveField::InsufficientMaterial => p.insufficient_material,
            MoveField::Book => tcec.is_some_and(|t| t.book) || cc.is_some_and(|c| c.book),
            MoveField::Commented => tcec.is_some() || cc.is_some() || self.gui.is_some(),
            _ => return None,
        })
    }

    /// The value of a field (`none` for the clock fields, which the
    /// evaluator reads from its clock reconstruction).
    pub fn get(&self, f: MoveField) -> Value {
        if let Some(n) = self.number(f) {
            return opt_num(n);
        }
        if let Some(b) = self.flag(f) {
            return Value::Bool(b);
        }
        let (p, tcec) = (self.ply, self.tcec);
        match f {
            MoveField::Side => side_str(p.side),
            MoveField::Engine => tag_value(
                self.game,
                if p.side == Color::White {
                    "White"
                } else {
                    "Black"
                },
            ),
            MoveField::San => Value::Str(p.san_text().as_str().into()),
            MoveField::Uci => Value::Str(p.uci_text().as_str().into()),
            MoveField::Pv => tcec
                .and_then(|t| t.pv.as_deref())
                .map_or(Value::None, |s| Value::Str(s.into())),
            MoveField::Ponder => tcec
                .and_then(|t| t.pd.as_deref())
                .map_or(Value::None, |s| Value::Str(s.into())),
            _ => Value::None,
        }
    }
}
