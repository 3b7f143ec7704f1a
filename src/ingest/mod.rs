//! Ingest: turn input files into spanned events. No legality, no rules.

pub mod comments;
pub mod engine;
pub mod logs;
pub mod manager;
pub mod operator;
pub mod pgn;
pub mod text;
