//! What is derived from one game or from an event's games, for the rules to
//! judge: both clocks under a time control, an event's case file and its
//! standings, moves that show no search (hidden books), and the similarity
//! of engines.

pub mod clock;
pub mod event;
pub mod hidden_book;
pub mod similarity;
pub mod standings;
