//! A move's [`MoveFacts`]: every `move` field a rule reads, from its
//! replayed ply and what its comments say (whichever program wrote them),
//! without making a value where it can.

use shakmaty::Color;

use crate::base::value::{Text, Value};
use crate::ingest::comments::{MoveComments, Score};
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

/// One move's facts: its replayed ply and its comments, each form found
/// once (a rule reads many fields of the same move).
#[derive(Debug, Clone, Copy)]
pub struct MoveFacts<'a> {
    pub(super) game: &'a PgnGame,
    pub ply: &'a Ply,
    pub(super) comments: MoveComments<'a>,
    pub(super) white_score: Option<Score>,
    pub(super) depth: Option<u32>,
}

/// A tag's value, or `none` when the game has no such tag.
pub(super) fn tag_value(game: &PgnGame, name: &str) -> Value {
    game.tag(name).map_or(Value::None, |v| Value::Str(v.into()))
}

impl MoveFacts<'_> {
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
        let (p, c) = (self.ply, &self.comments);
        let ms = |x: i64| x as f64;
        Some(match f {
            MoveField::Ply => Some(f64::from(p.ply)),
            MoveField::Number => Some(f64::from(p.move_number)),
            MoveField::HalfmoveClock => Some(f64::from(p.halfmove_clock)),
            MoveField::Repetition => Some(f64::from(p.repetition)),
            MoveField::Pieces => Some(f64::from(p.pieces)),
            MoveField::Pawns => Some(f64::from(p.pawns)),
            MoveField::MinorsAndMajors => Some(f64::from(p.minors_and_majors)),
            MoveField::Depth => self.depth.map(f64::from),
            MoveField::Seldepth => c.seldepth().map(f64::from),
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
            MoveField::Nodes => c.nodes().map(|x| x as f64),
            MoveField::Nps => c.nodes_per_second().map(|x| x as f64),
            MoveField::Mt => c.reported_search_time_ms().map(ms),
            MoveField::Tl => c.reported_time_left_ms().map(ms),
            MoveField::Latency => c.latency_ms().map(ms),
            MoveField::Tbhits => c.tablebase_hits().map(|x| x as f64),
            MoveField::Hashfull => c.hash_full_percent(),
            MoveField::Ponderhit => c.ponder_hit_percent(),
            MoveField::RecordedLeft => c.clock_left_ms().map(ms),
            MoveField::RecordedR50 => c.fifty_move_counter().map(f64::from),
            MoveField::RecordedRd => c.draw_rule_counter().map(f64::from),
            MoveField::RecordedRr => c.win_rule_counter().map(f64::from),
            MoveField::Clk => c.clock_command_ms().map(ms),
            MoveField::Emt => c.elapsed_command_ms().map(ms),
            _ => return None,
        })
    }

    /// A boolean field's value, without making a `Value`; `None` for a
    /// field that is not a boolean. `get` is made from it.
    #[inline(always)]
    pub fn flag(&self, f: MoveField) -> Option<bool> {
        let p = self.ply;
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
            MoveField::Book => self.comments.book(),
            MoveField::Commented => self.comments.has_move_comment(),
            MoveField::Start => false,
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
        let p = self.ply;
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
            MoveField::Pv => self
                .comments
                .pv()
                .map_or(Value::None, |s| Value::Str(s.into())),
            MoveField::PvUci => self
                .comments
                .pv_uci()
                .map_or(Value::None, |s| Value::Str(s.into())),
            MoveField::Ponder => self
                .comments
                .ponder_move()
                .map_or(Value::None, |s| Value::Str(s.into())),
            _ => Value::None,
        }
    }
}
