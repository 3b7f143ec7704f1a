//! Replay: play a game's moves with shakmaty and record the facts of every
//! ply. An illegal, ambiguous or unparsable move is recorded as a fact (the
//! replay stops there); nothing here panics on bad input. This stage knows
//! chess, not rules.

use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode};

mod illegal;
mod play;
mod record;
mod san;
mod setup;
#[cfg(test)]
pub(crate) mod tests;

pub use play::replay;
pub use record::{Ply, Replay, SetupNote, Stop};
pub use setup::{SetupError, VariantError, castling_mode};

/// FEN of a position (en passant square only when a capture is legal).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}
