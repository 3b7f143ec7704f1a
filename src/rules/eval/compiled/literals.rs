//! Literals as the compiled code holds them: texts made `'static` once,
//! and lists of literals made once, when compiled.

use crate::base::value::{Text, Value};
use crate::rules::analysis::CExpr;

/// A literal as the compiled code holds it: a text made `'static`
/// ([`interned`]), so that giving it out at every event copies two words
/// instead of counting a reference that every worker thread shares.
fn literal(v: &Value) -> Value {
    match v {
        Value::Str(Text::Shared(t)) => Value::Str(Text::Static(interned(t))),
        Value::List(items) => Value::List(items.iter().map(literal).collect()),
        other => other.clone(),
    }
}

/// One `'static` copy of each distinct text the compiled rulesets of this
/// run hold (their literals: a few dozen short texts, kept once each
/// however many times a ruleset is compiled).
pub(super) fn interned(t: &str) -> &'static str {
    static TEXTS: std::sync::Mutex<std::collections::BTreeSet<&'static str>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let mut texts = TEXTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match texts.get(t) {
        Some(s) => s,
        None => {
            let s: &'static str = Box::leak(t.into());
            texts.insert(s);
            s
        }
    }
}

/// A list whose items are all literals (at any depth), as the one value
/// [`Ctx::eval`] makes of it at every event: made once, when compiled.
pub(super) fn literal_list(e: &CExpr) -> Option<Value> {
    match e {
        CExpr::Lit(v) => Some(literal(v)),
        CExpr::List(items) => items
            .iter()
            .map(literal_list)
            .collect::<Option<Vec<Value>>>()
            .map(Value::List),
        _ => None,
    }
}
