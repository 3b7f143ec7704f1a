//! The analysis: syntax tree → a validated [`Ruleset`]. Resolves every
//! name (constants, `let`s, switches, event fields, functions), checks
//! types where they are known, requires a citation on every rule, resolves
//! variant inheritance (rejecting cycles) and allots a state slot to every
//! stateful call, so that evaluation is one linear pass.
//!
//! The ruleset's types are in `cexpr` (compiled expressions) and `ruleset`;
//! the pass over the declarations is `analyzer`'s, served by `expressions`,
//! `calls`, `types`, `rules`, `header`, `time_controls`, `variants` and
//! `fits`; `constants` folds the constants; `clauses` groups the rules by
//! the clause they cite.

mod analyzer;
mod calls;
mod cexpr;
mod clauses;
mod constants;
mod expressions;
mod fits;
mod header;
mod rules;
mod ruleset;
mod time_controls;
mod types;
mod variants;

pub use cexpr::{Builtin, CExpr, Detector, Stateful, StatefulFn};
pub use clauses::{ClauseRules, clauses};
pub use constants::{Fold, const_values};
pub use ruleset::{
    CTemplatePart, Check, CiteDef, FIT_MAX_VALUES, FitDef, FitSource, FitTarget, Let, RuleDef,
    Ruleset, Switch, UNAVAILABLE, VariantDef,
};

use super::syntax::error::RuleError;
use super::syntax::parser::parse;
use analyzer::Analyzer;

/// Read, parse and analyze a ruleset, folding its constants with `fold`
/// (`crate::rules::compile` gives the evaluator's).
pub fn compile_with(path: &str, src: &str, fold: Fold) -> Result<Ruleset, RuleError> {
    let items = parse(src)?;
    Analyzer::new(path, src, fold).run(items)
}
