//! What each `let` and adjudication reads, found once per ruleset for
//! the plan, the columns and the memo: its stateful calls, the `let`s and
//! switches it reads directly, and what reads each switch through them.

use crate::rules::analysis::{CExpr, Check, RuleDef, Stateful};

/// The stateful calls inside `e`, in the order they advance (the order of
/// the expression, left to right; a stateful call's own arguments hold
/// none, as the analyzer forbids nesting them).
pub(super) fn stateful_calls<'e>(e: &'e CExpr, out: &mut Vec<&'e Stateful>) {
    match e {
        CExpr::Stateful(s) => out.push(s),
        _ => e.each_child(&mut |x| stateful_calls(x, out)),
    }
}

/// What the switches read: for each `let` and each adjudication, whether
/// its value can change when one switch is flipped, directly or through the
/// `let`s it reads (a `let` reads only `let`s defined before it). A shadow
/// computes only adjudications, so a `let` that no adjudication reads,
/// directly or through other `let`s, is not counted as reading the switch:
/// no shadow evaluates it again.
#[derive(Debug, Clone)]
pub(super) struct Depends {
    pub(super) lets: Vec<bool>,
    pub(super) rules: Vec<bool>,
}

impl Depends {
    /// From what each `let` and adjudication reads directly (`lets`,
    /// `rules`: [`Inputs`]), which of them read `switch`, directly or
    /// through earlier `let`s.
    pub(super) fn on(lets: &[Inputs], rules: &[Inputs], switch: usize) -> Depends {
        // the `let`s an adjudication reads, directly or through later
        // `let`s (each reads only earlier ones: one pass backwards)
        let mut read = vec![false; lets.len()];
        let mark = |i: &Inputs, read: &mut [bool]| {
            for &l in &i.lets {
                if let Some(r) = read.get_mut(l) {
                    *r = true;
                }
            }
        };
        for r in rules {
            mark(r, &mut read);
        }
        for j in (0..lets.len()).rev() {
            if read[j] {
                mark(&lets[j], &mut read);
            }
        }
        let mut depends = vec![false; lets.len()];
        let reads = |i: &Inputs, depends: &[bool]| {
            i.switches.contains(&switch)
                || i.lets
                    .iter()
                    .any(|&l| depends.get(l).copied().unwrap_or(false))
        };
        for j in 0..lets.len() {
            depends[j] = read[j] && reads(&lets[j], &depends);
        }
        let rules = rules.iter().map(|r| reads(r, &depends)).collect();
        Depends {
            lets: depends,
            rules,
        }
    }
}

/// What a `let` or an adjudication reads directly: the `let`s and the
/// switches.
#[derive(Debug, Clone)]
pub(super) struct Inputs {
    pub(super) lets: Vec<usize>,
    pub(super) switches: Vec<usize>,
}

impl Inputs {
    pub(super) fn of<'e>(exprs: impl IntoIterator<Item = &'e CExpr>) -> Inputs {
        fn walk(e: &CExpr, out: &mut Inputs) {
            match e {
                CExpr::Let(l) => out.lets.push(*l),
                CExpr::Switch(s) => out.switches.push(*s),
                _ => e.each_child(&mut |x| walk(x, out)),
            }
        }
        let mut out = Inputs {
            lets: Vec::new(),
            switches: Vec::new(),
        };
        for e in exprs {
            walk(e, &mut out);
        }
        out.lets.sort_unstable();
        out.lets.dedup();
        out
    }
}

/// What an adjudication evaluates: its condition, result, record and
/// message.
pub(super) fn adjudication_inputs(rule: &RuleDef) -> Inputs {
    match &rule.check {
        Check::Adjudicate { .. } => Inputs::of(rule.expressions()),
        _ => Inputs::of([]),
    }
}
