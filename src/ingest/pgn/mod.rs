//! PGN ingest: stream games out of a file, with every token's source span.
//!
//! The file is read once, in order, through a bounded buffer: [`GameSplitter`]
//! cuts it into one chunk per game (tracking the byte offset and line of each
//! chunk), and [`parse_game`] reads a chunk with pgn-reader's visitor. Memory
//! is bounded by the largest game, never by the file.
//!
//! pgn-reader reports tokens without positions, so arbiter recovers them: tag
//! values and comments are located exactly (and verified byte for byte against
//! the chunk), and a small scanner walks the movetext in step with the
//! reader's callbacks to place each move and outcome. The scanner also finds
//! the tokens pgn-reader skips silently (an unknown piece letter, binary
//! garbage): these become [`PgnProblem`]s, never lost data.

mod callbacks;
mod cut;
mod game;
mod reader;
pub mod sniff;
mod source;
mod splitter;
#[cfg(test)]
mod tests;
mod times;
mod token_reach;
mod visitor;

pub use self::game::{Ending, PgnGame, PgnMove, PgnProblem, ProblemKind, Tag};
pub use self::reader::{parse_game, read_tags_at};
pub use self::splitter::{GameChunk, GameSplitter, MAX_GAME_BYTES};
pub use self::times::{duration_ms, manager_time_ms};
pub use crate::ingest::comments::Comment;
pub use crate::ingest::text::{GameText, decode_text, wide_encoding};
