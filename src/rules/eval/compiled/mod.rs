//! Compiled expressions: every `let`, rule condition and stateful call's
//! parts lowered once per ruleset to nested closures, each made for its
//! node's shape. A closure reads its literals, `let`s and fields in place
//! (no visit to a leaf), and does its own operator's work with no `match`
//! on the operator: the tree walk's central dispatch, which every node went
//! through, is gone.
//!
//! Each closure gives what [`Ctx::eval`], [`Ctx::num`] or [`Ctx::truth`]
//! gives on the same expression, and a shape it does not know is handed to
//! them (fields other than the move's, lists, the builtins of text,
//! detectors). `tests` holds the three to the walk on 5,000
//! generated expressions of every kind of node and value, at each move of
//! a TCEC game and with no move; on whole archives, `tests/identical.rs`
//! holds the outputs of S15 and of `samples/`, and `tests/switches.rs` the
//! switches' shadows.
//!
//! The walk stays: constants, labels, the event level and the shapes
//! above use it. The closures cost 0.88x the time of the whole audit of
//! S15 x2 with `tcec-s15.rules` on one thread (median of 7 pairs).
//!
//! This file holds a ruleset's compiled code ([`Code`]); `closures` makes
//! each node's closure, reading its operands in place where they are
//! leaves, and `literals` holds the literals as the closures give them.

use crate::base::value::Value;
use crate::rules::analysis::{Check, Ruleset, Stateful, StatefulFn};
use crate::rules::eval::ctx::Ctx;
use crate::rules::eval::typed::{Num, Truth};
use crate::timeline::Kind;

mod closures;
mod literals;
#[cfg(test)]
pub(in crate::rules::eval) mod tests;

// what the columns read, and the closures the code is made of
pub(super) use closures::num_handles;
use closures::{num, truth, value};

pub(super) type TruthFn = Box<dyn Fn(&mut Ctx<'_, '_>) -> Truth + Send + Sync>;
pub(super) type NumFn = Box<dyn Fn(&mut Ctx<'_, '_>) -> Num + Send + Sync>;
pub(super) type ValFn = Box<dyn Fn(&mut Ctx<'_, '_>) -> Value + Send + Sync>;

/// A stateful call, compiled: the call itself (its slot, function and the
/// kind of event that drives it) and its parts, its argument read as the
/// function reads it (a truth for `streak`, `count` and `since`, a number
/// for `sum`, the value for `last` and `previous`).
pub(super) struct StatefulCode {
    pub(super) slot: usize,
    pub(super) func: StatefulFn,
    pub(super) on: Kind,
    pub(super) reset: Option<TruthFn>,
    pub(super) over: Option<TruthFn>,
    pub(super) arg: Arg,
    pub(super) per: Option<ValFn>,
}

pub(super) enum Arg {
    Truth(TruthFn),
    Num(NumFn),
    Value(ValFn),
}

/// A ruleset's compiled expressions, by the index of their `let`, rule and
/// stateful slot.
#[derive(Default)]
pub(super) struct Code {
    pub(super) lets: Vec<ValFn>,
    /// Each rule's condition (`None`: a `forbid` with none, or a manual
    /// rule).
    pub(super) when: Vec<Option<TruthFn>>,
    pub(super) statefuls: Vec<Option<StatefulCode>>,
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Code {{ {} lets, {} rules, {} stateful slots }}",
            self.lets.len(),
            self.when.len(),
            self.statefuls.len()
        )
    }
}

impl Code {
    /// Rule `ri`'s condition at the context's event: `true` for a `forbid`
    /// with none (and for a manual rule, which is never asked).
    #[inline]
    pub(super) fn condition(&self, ri: usize, c: &mut Ctx<'_, '_>) -> Truth {
        match self.when.get(ri) {
            Some(Some(w)) => w(c),
            _ => Truth::True,
        }
    }

    pub(super) fn of(rs: &Ruleset, statefuls: &[Option<&Stateful>]) -> Code {
        Code {
            lets: rs.lets.iter().map(|l| value(&l.expr)).collect(),
            when: rs
                .rules
                .iter()
                .map(|r| match &r.check {
                    Check::Adjudicate { when, .. } | Check::Require { when, .. } => {
                        Some(truth(when))
                    }
                    Check::Forbid { when, .. } => when.as_ref().map(truth),
                    Check::Manual(_) => None,
                })
                .collect(),
            statefuls: statefuls
                .iter()
                .map(|s| {
                    s.map(|s| StatefulCode {
                        slot: s.slot,
                        func: s.func,
                        on: s.on,
                        reset: s.reset.as_ref().map(truth),
                        over: s.over.as_ref().map(truth),
                        arg: match s.func {
                            StatefulFn::Streak | StatefulFn::Count | StatefulFn::Since => {
                                Arg::Truth(truth(&s.arg))
                            }
                            StatefulFn::Sum => Arg::Num(num(&s.arg)),
                            StatefulFn::Last | StatefulFn::Previous => Arg::Value(value(&s.arg)),
                        },
                        per: s.per.as_ref().map(value),
                    })
                })
                .collect(),
        }
    }
}

// the walk's step of one compiled stateful call: here, so that the walk
// (`ctx`) does not depend on the code it runs
impl Ctx<'_, '_> {
    /// Advance one stateful call for the current event.
    pub(super) fn advance_one(&mut self, s: &StatefulCode) {
        if self.kind() != Some(s.on) {
            return;
        }
        let reset = s.reset.as_ref().is_some_and(|r| r(self) == Truth::True);
        let over = s.over.as_ref().is_none_or(|o| o(self) == Truth::True);
        // the argument as the function reads it: a truth, a number, or the
        // value itself
        let arg = match &s.arg {
            Arg::Truth(t) => Value::Bool(t(self) == Truth::True),
            Arg::Num(n) => n(self).value(),
            Arg::Value(v) => v(self),
        };
        let key = s.per.as_ref().map(|p| p(self));
        self.slots[s.slot].step(s.func, reset, over, arg, key.as_ref());
    }
}
