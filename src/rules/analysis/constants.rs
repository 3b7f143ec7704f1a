//! The constants' values: folded by the evaluator's function the analysis
//! is given ([`Fold`]), and whether an expression reads constants alone.

use super::cexpr::CExpr;
use crate::base::value::Value;

/// Evaluates an expression that reads nothing but constants, given the
/// values of the constants before it: the evaluator's, which
/// `crate::rules::compile` gives the analysis (it folds a `fit` clause's
/// values and the numbers a time control or a scoring names).
pub type Fold = fn(&CExpr, &[Value]) -> Value;

/// The constants' values in order, each evaluated by `fold` from those
/// before it, with `overrides` (index, expression) applied.
pub fn const_values(
    consts: &[(String, CExpr)],
    overrides: &[(usize, CExpr)],
    fold: Fold,
) -> Vec<Value> {
    let mut vals: Vec<Value> = Vec::with_capacity(consts.len());
    for (i, (_, e)) in consts.iter().enumerate() {
        let e = overrides
            .iter()
            .rev()
            .find(|(j, _)| *j == i)
            .map_or(e, |(_, o)| o);
        let v = fold(e, &vals);
        vals.push(v);
    }
    vals
}

pub(super) fn is_constant(c: &CExpr) -> bool {
    match c {
        CExpr::Lit(_) | CExpr::Const(_) => true,
        CExpr::Unary(_, a) => is_constant(a),
        CExpr::Binary(_, a, b) | CExpr::Short(_, a, b) => is_constant(a) && is_constant(b),
        CExpr::If(a, b, c) => is_constant(a) && is_constant(b) && is_constant(c),
        CExpr::List(l) => l.iter().all(is_constant),
        _ => false,
    }
}

/// Evaluate a constant number (no variants applied), given the values of
/// the constants declared so far (`values`, each folded once).
pub(super) fn const_value(c: &CExpr, values: &[Value], fold: Fold) -> Option<f64> {
    match fold(c, values) {
        Value::Num(n) => Some(n),
        _ => None,
    }
}
