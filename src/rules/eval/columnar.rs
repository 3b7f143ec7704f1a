//! Which `let`s and rule conditions a column can hold, found once per
//! ruleset, and the shapes of expressions that tells apart.

use super::compiled;
use super::reads::{Inputs, stateful_calls};
use crate::rules::analysis::{Builtin, CExpr, Check, Ruleset, Stateful};
use crate::timeline::{Kind, MoveField};

/// Which `let`s and rule conditions are columns, found once per ruleset.
#[derive(Debug, Clone, Default)]
pub(in crate::rules::eval) struct Columnar {
    /// For each `let`: its stateful calls, in order, where it is a column.
    pub(in crate::rules::eval) lets: Vec<Option<Vec<Stateful>>>,
    /// For each rule: whether its condition is a column (a rule on moves
    /// whose condition is one, and which has no stateful call).
    pub(in crate::rules::eval) rules: Vec<bool>,
    /// The fields of the move the columns read, each made a column once
    /// per game.
    pub(super) fields: Vec<MoveField>,
    /// For each rule, the `let`s that what it evaluates reads (its
    /// condition, result, record and message): those a column holds are
    /// put in the per-move pass's `let`s only before the rule is evaluated
    /// there.
    pub(in crate::rules::eval) rule_reads: Vec<Vec<usize>>,
    /// For each rule: whether its condition calls a detector.
    pub(in crate::rules::eval) effects: Vec<bool>,
    /// For each `let`: whether its expression calls a detector.
    pub(super) let_effects: Vec<bool>,
}

impl Columnar {
    pub(in crate::rules::eval) fn of(rs: &Ruleset, rule_calls: &[Vec<usize>]) -> Columnar {
        let mut lets: Vec<Option<Vec<Stateful>>> = Vec::with_capacity(rs.lets.len());
        for l in &rs.lets {
            let column = l.on == Kind::Move && columnar(&l.expr, &lets);
            lets.push(column.then(|| {
                let mut calls = Vec::new();
                stateful_calls(&l.expr, &mut calls);
                calls.into_iter().cloned().collect()
            }));
        }
        let rules: Vec<bool> = rs
            .rules
            .iter()
            .zip(rule_calls)
            .map(|(rule, calls)| {
                let when = match &rule.check {
                    Check::Adjudicate { when, .. } => when,
                    Check::Forbid {
                        on: Kind::Move,
                        when: Some(when),
                    }
                    | Check::Require {
                        on: Kind::Move,
                        when,
                    } => when,
                    _ => return false,
                };
                calls.is_empty() && columnar(when, &lets)
            })
            .collect();
        let mut fields = Vec::new();
        let mut add = |e: &CExpr| moves_fields(e, &mut fields);
        for (l, c) in rs.lets.iter().zip(&lets) {
            if c.is_some() {
                add(&l.expr);
            }
        }
        for (rule, c) in rs.rules.iter().zip(rules.iter()) {
            match &rule.check {
                Check::Adjudicate { when, .. }
                | Check::Forbid {
                    when: Some(when), ..
                }
                | Check::Require { when, .. }
                    if *c =>
                {
                    add(when)
                }
                _ => {}
            }
        }
        let rule_reads = rs
            .rules
            .iter()
            .map(|rule| Inputs::of(rule.expressions()).lets)
            .collect();
        let effects = rs
            .rules
            .iter()
            .map(|rule| match &rule.check {
                Check::Adjudicate { when, .. }
                | Check::Forbid {
                    when: Some(when), ..
                }
                | Check::Require { when, .. } => calls_detector(when),
                _ => false,
            })
            .collect();
        let let_effects = rs.lets.iter().map(|l| calls_detector(&l.expr)).collect();
        Columnar {
            lets,
            rules,
            fields,
            rule_reads,
            effects,
            let_effects,
        }
    }

    pub(in crate::rules::eval) fn any(&self) -> bool {
        self.lets.iter().any(Option::is_some) || self.rules.contains(&true)
    }
}

/// Whether a column can hold `e` (on moves, given the `let`s found to be
/// columns so far): its shape is one the columns compute, from parts a
/// column can hold; or it reads no `let` and no stateful call, and is
/// walked at each move ([`Cols::walk`]: a detector, the builtins of text,
/// the fields of other events).
pub(super) fn columnar(e: &CExpr, lets: &[Option<Vec<Stateful>>]) -> bool {
    let all = |es: &mut dyn Iterator<Item = &CExpr>| {
        for x in es {
            if !columnar(x, lets) {
                return false;
            }
        }
        true
    };
    let shaped = match e {
        CExpr::Lit(_) | CExpr::Const(_) | CExpr::Switch(_) | CExpr::Move(..) => true,
        CExpr::Field(k, _) => *k == Kind::Game,
        CExpr::Let(l) => lets.get(*l).is_some_and(Option::is_some),
        CExpr::List(_) => literal(e),
        CExpr::Unary(_, a) => columnar(a, lets),
        CExpr::Binary(_, a, b) | CExpr::Short(_, a, b) => {
            all(&mut [a, b].into_iter().map(|x| &**x))
        }
        CExpr::If(k, a, b) => all(&mut [k, a, b].into_iter().map(|x| &**x)),
        CExpr::Call(_, args) if compiled::num_handles(e) && numeric(e) => all(&mut args.iter()),
        CExpr::Call(Builtin::Coalesce, args) if args.len() == 2 => all(&mut args.iter()),
        CExpr::Call(..) | CExpr::Detector(..) => false,
        CExpr::Stateful(s) => {
            s.on == Kind::Move
                && all(&mut std::iter::once(&s.arg)
                    .chain([&s.over, &s.reset, &s.per].into_iter().flatten()))
        }
    };
    shaped || walked(e)
}

/// A builtin of numbers.
pub(super) fn numeric(e: &CExpr) -> bool {
    matches!(
        e,
        CExpr::Call(
            Builtin::Abs
                | Builtin::Floor
                | Builtin::Ceil
                | Builtin::Round
                | Builtin::Min
                | Builtin::Max,
            _
        )
    )
}

/// Whether `e` can be walked at each move: it reads no `let` and no
/// stateful call (the walk at a move has neither).
pub(super) fn walked(e: &CExpr) -> bool {
    match e {
        CExpr::Let(_) | CExpr::Stateful(_) => false,
        _ => {
            let mut ok = true;
            e.each_child(&mut |x| ok = ok && walked(x));
            ok
        }
    }
}

/// Whether `e` calls a detector (which notes why it could not decide, and
/// what it found, as it is evaluated).
pub(in crate::rules::eval) fn calls_detector(e: &CExpr) -> bool {
    match e {
        CExpr::Detector(..) => true,
        _ => {
            let mut found = false;
            e.each_child(&mut |x| found = found || calls_detector(x));
            found
        }
    }
}

/// The fields of the move `e` reads, added to `out` once each.
pub(super) fn moves_fields(e: &CExpr, out: &mut Vec<MoveField>) {
    match e {
        CExpr::Move(f, _) => {
            if !out.contains(f) {
                out.push(*f);
            }
        }
        _ => e.each_child(&mut |x| moves_fields(x, out)),
    }
}

/// A node that is the same at every move ([`Cols::scalar`]).
pub(super) fn scalar(e: &CExpr) -> bool {
    matches!(
        e,
        CExpr::Lit(_) | CExpr::Const(_) | CExpr::Switch(_) | CExpr::Field(Kind::Game, _)
    ) || literal(e)
}

/// A literal, or a list of literals (at any depth).
pub(super) fn literal(e: &CExpr) -> bool {
    match e {
        CExpr::Lit(_) => true,
        CExpr::List(items) => items.iter().all(literal),
        _ => false,
    }
}
