//! The rule language: [`lexer`] → [`parser`] → [`analyzer`] → [`eval`].
//! A ruleset is untrusted input: it does no I/O, has no loops, and is
//! evaluated in one pass over a game's timeline. See
//! `docs/rules-language.md`.

pub mod analyzer;
pub mod ast;
pub mod error;
pub mod eval;
pub mod fit;
pub mod judge;
pub mod lexer;
pub mod parser;
