//! The rule language as written: [`lexer`] (source → tokens), [`parser`]
//! (tokens → the syntax tree of [`ast`]), and [`error`], the diagnostics
//! every later stage reports with.

pub mod ast;
pub mod error;
pub mod lexer;
pub mod parser;
