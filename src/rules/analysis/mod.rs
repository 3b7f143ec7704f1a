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
mod extend;
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

pub use extend::MAX_CHAIN;

/// A file of a ruleset's chain of `extends`, read: its path as shown and
/// its text.
#[derive(Debug, Clone)]
pub struct Source {
    pub path: String,
    pub text: String,
}

/// An error in one file of a chain of `extends`: the file, its text (to
/// render the error against) and the error.
#[derive(Debug)]
pub struct Located {
    pub path: String,
    pub text: String,
    pub error: Box<RuleError>,
}

impl Located {
    /// The diagnostic, with the file's name, line, column and caret.
    pub fn render(&self) -> String {
        self.error.render(&self.path, &self.text)
    }
}

/// [`compile_with`] for a ruleset that may `extend` another: `read` is
/// given the path of the file that extends and the file it names, as
/// written, and reads it (or says why not). Each file of the chain must
/// compile on its own; then the chain is merged (`extend`) and analyzed
/// as one ruleset, each declaration keeping the file it is written in.
pub fn compile_chain(
    path: &str,
    text: &str,
    fold: Fold,
    read: &mut dyn FnMut(&str, &str) -> Result<Source, String>,
) -> Result<Ruleset, Located> {
    let mut files = vec![Source {
        path: path.to_string(),
        text: text.to_string(),
    }];
    let mut parsed = Vec::new();
    loop {
        let k = files.len() - 1;
        let at = |error| Located {
            path: files[k].path.clone(),
            text: files[k].text.clone(),
            error: Box::new(error),
        };
        let items = parse(&files[k].text).map_err(at)?;
        let extends = items.iter().find_map(|i| match i {
            super::syntax::ast::Item::Ruleset(m) => m.extends.clone(),
            _ => None,
        });
        parsed.push(items);
        let Some((written, pos)) = extends else {
            break;
        };
        if files.len() == MAX_CHAIN {
            return Err(at(extend::too_long(pos)));
        }
        let next = read(&files[k].path, &written).map_err(|why| at(RuleError::new(pos, why)))?;
        if let Some(first) = files.iter().position(|f| f.path == next.path) {
            return Err(at(RuleError::new(
                pos,
                format!(
                    "`extends` makes a cycle: {} is already in the chain",
                    files[first].path
                ),
            )));
        }
        files.push(next);
    }
    let n = files.len();
    if n == 1 {
        let items = parsed.pop().unwrap_or_default();
        return Analyzer::new(path, text, fold)
            .run(items)
            .map_err(|error| Located {
                path: path.to_string(),
                text: text.to_string(),
                error: Box::new(error),
            });
    }
    // each file it extends, on its own first: an error there is that
    // file's, at its place
    let mut extends = Vec::new();
    for k in 1..n {
        let rest = &files[k..];
        compile_files(rest, parsed[k..].to_vec(), fold)?;
        extends.push((
            files[k].path.clone(),
            crate::base::digest::sha256_hex(files[k].text.as_bytes()),
        ));
    }
    let mut rs = compile_files(&files, parsed, fold)?;
    rs.extends = extends;
    Ok(rs)
}

/// The chain `files` (parsed into `parsed`, one list per file), merged and
/// analyzed as one ruleset.
fn compile_files(
    files: &[Source],
    mut parsed: Vec<Vec<super::syntax::ast::Item>>,
    fold: Fold,
) -> Result<Ruleset, Located> {
    let at = |(k, error): (usize, RuleError)| Located {
        path: files[k].path.clone(),
        text: files[k].text.clone(),
        error: Box::new(error),
    };
    let n = parsed.len();
    let deepest = parsed.pop().unwrap_or_default();
    let mut merged: Vec<extend::Tagged> = deepest.into_iter().map(|i| (n - 1, i)).collect();
    for k in (0..n - 1).rev() {
        let items = parsed.pop().unwrap_or_default();
        merged = extend::merge(merged, items, k).map_err(at)?;
    }
    if n == 1 {
        // a lone file keeps its own order
        return Analyzer::new(&files[0].path, &files[0].text, fold)
            .run_tagged(merged)
            .map_err(at);
    }
    let shown = files
        .iter()
        .map(|f| (std::sync::Arc::from(f.path.as_str()), f.text.as_str()))
        .collect();
    Analyzer::new(&files[0].path, &files[0].text, fold)
        .with_files(shown)
        .run_tagged(extend::ordered(merged))
        .map_err(at)
}
