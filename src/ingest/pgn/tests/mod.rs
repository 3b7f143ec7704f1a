//! The PGN reader's tests: the splitter's (its chunks, their bounds and
//! line starts, line ends) in [`splitter`], the reader's (moves, comments,
//! spans, problems) in [`reader`].

mod reader;
mod splitter;

use crate::ingest::pgn::{GameSplitter, PgnGame, parse_game};

fn games(text: &[u8]) -> Vec<PgnGame> {
    let mut sp = GameSplitter::new(text);
    let mut out = Vec::new();
    while let Some(c) = sp.next_chunk().unwrap() {
        out.push(parse_game(&c));
    }
    out
}
