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

/// [`compile`] for a ruleset that may `extend` another file: `read` reads
/// the file an `extends` names (given the path of the file that names it,
/// and the name as written). Never inlined, for `bench/instructions.sh`.
#[inline(never)]
pub fn compile_chain(
    path: &str,
    src: &str,
    read: &mut dyn FnMut(&str, &str) -> Result<analysis::Source, String>,
) -> Result<analysis::Ruleset, analysis::Located> {
    analysis::compile_chain(path, src, eval::eval_const, read)
}
