//! The rule language, by stage: [`syntax`] (lexer and parser) →
//! [`analysis`] → [`eval`].
//! A ruleset is untrusted input: it does no I/O, has no loops, and is
//! evaluated in one pass over a game's timeline. See
//! `docs/rules-language.md`.

pub mod analysis;
pub mod eval;
pub mod fit;
pub mod judge;
pub mod shelf;
pub mod syntax;

/// Read, parse and analyze a ruleset: its errors name the line and column,
/// with a caret under the span ([`syntax::error::RuleError::render`]).
/// Never inlined: `bench/instructions.sh` counts the compiling of a ruleset
/// by this function's name (it runs once).
#[inline(never)]
pub fn compile(path: &str, src: &str) -> Result<analysis::Ruleset, syntax::error::RuleError> {
    analysis::compile_with(path, src, eval::eval_const)
}
