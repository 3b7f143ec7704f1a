//! Ingest: turn input files into spanned events. No legality, no rules.

pub mod annotations;
pub mod engine;
pub mod forms;
pub mod logs;
pub mod operator;
pub mod pgn;
