//! A game's start position as an event: the `move` event before the first
//! move, which only the adjudications see (a manager may end a game there,
//! before anyone moves). Its fields are the position's own: the side that
//! moved into it, its ply and move number, its halfmove clock, pieces,
//! check, mate and stalemate, and `move.start`, true there alone. What
//! only a move has (its SAN, a capture, its score, its clock) is `none`
//! there.

use shakmaty::{Color, Position};

use crate::base::value::Value;
use crate::timeline::event::{Data, Event, Timeline};
use crate::timeline::kind::Kind;
use crate::timeline::move_facts::{side_str, tag_value};

impl<'a> Timeline<'a> {
    /// The timeline of the game's start position alone: one `move` event,
    /// at the ply before the first move (0 from the standard start).
    pub fn start_position(&self) -> Timeline<'a> {
        Timeline {
            game: self.game,
            replay: self.replay,
            events: vec![Event {
                kind: Kind::Move,
                ply: Some(self.replay.first_ply.saturating_sub(1)),
                span: None,
                data: Data::Start,
            }],
            option_texts: Vec::new(),
        }
    }

    /// A `move` field at the start position (see the module's doc).
    pub(super) fn start_field(&self, name: &str) -> Value {
        let pos = &self.replay.start;
        let mover = !pos.turn();
        let num = |n: u32| Value::Num(f64::from(n));
        match name {
            "start" => Value::Bool(true),
            "ply" => num(self.replay.first_ply.saturating_sub(1)),
            // the number of the move that led here: the one before the
            // first move's
            "number" => num(match pos.turn() {
                Color::White => pos.fullmoves().get().saturating_sub(1),
                Color::Black => pos.fullmoves().get(),
            }),
            "side" => side_str(mover),
            "engine" => tag_value(
                self.game,
                if mover == Color::White {
                    "White"
                } else {
                    "Black"
                },
            ),
            "halfmove_clock" => num(pos.halfmoves()),
            "repetition" => num(1),
            "pieces" => num(pos.board().occupied().count() as u32),
            "pawns" => num(pos.board().pawns().count() as u32),
            "minors_and_majors" => {
                let b = pos.board();
                num((b.occupied() ^ b.pawns() ^ b.kings()).count() as u32)
            }
            "check" => Value::Bool(pos.is_check()),
            "checkmate" => Value::Bool(pos.is_checkmate()),
            "stalemate" => Value::Bool(pos.is_stalemate()),
            "insufficient_material" => Value::Bool(pos.is_insufficient_material()),
            _ => Value::None,
        }
    }
}
