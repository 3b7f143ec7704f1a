//! One pass with switches: the real program and, for each switch, a
//! shadow that evaluates only what the flipped switch can change and reads
//! the real pass's values for the rest.
//!
//! This file holds what a shadow is and what it reads; `pass` is the pass
//! over a game's events ([`run_switched`]).

use crate::base::value::Value;
use crate::rules::analysis::{CExpr, Check, RuleDef};
use crate::rules::eval::Computed;
use crate::rules::eval::ctx::Slot;

mod pass;

pub(super) use pass::computed_at;
pub use pass::{run_prepared, run_switched, run_tallied};

/// What the switches read: for each `let` and each adjudication, whether
/// its value can change when one switch is flipped, directly or through the
/// `let`s it reads (a `let` reads only `let`s defined before it).
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
        let mut depends = vec![false; lets.len()];
        let reads = |i: &Inputs, depends: &[bool]| {
            i.switches.contains(&switch)
                || i.lets
                    .iter()
                    .any(|&l| depends.get(l).copied().unwrap_or(false))
        };
        for j in 0..lets.len() {
            depends[j] = reads(&lets[j], &depends);
        }
        let rules = rules.iter().map(|r| reads(r, &depends)).collect();
        Depends {
            lets: depends,
            rules,
        }
    }
}

/// The game evaluated as if one switch were flipped, kept beside the real
/// evaluation in the same pass: only the `let`s and adjudications that read
/// the switch are evaluated again, with their own state; every other value
/// is the real evaluation's.
pub(super) struct Shadow {
    /// The switch it flips.
    pub(super) flipped: usize,
    pub(super) switches: Vec<bool>,
    /// Its value of each `let` that differs from the real pass's (see
    /// `differs`); the others are stale, and read from the real pass.
    pub(super) lets: Vec<Value>,
    /// Whether its value of each `let` differs from the real pass's at the
    /// current event.
    pub(super) differs: Vec<bool>,
    /// How many of `differs` are true.
    pub(super) differing: usize,
    pub(super) slots: Vec<Slot>,
    /// The `let`s whose stateful calls' state is the shadow's own (it
    /// differs from the real pass's); the state of the others has followed
    /// the real pass's, and is copied from it when the shadow needs it.
    pub(super) own: Vec<bool>,
    pub(super) computed: Option<Computed>,
    pub(super) undecided_from: Option<u32>,
}

impl Shadow {
    /// Mark whether its value of `let` `j` differs from the real pass's
    /// at the current event.
    #[inline]
    pub(super) fn set_differs(&mut self, j: usize, d: bool) {
        if self.differs[j] != d {
            self.differs[j] = d;
            if d {
                self.differing += 1;
            } else {
                self.differing -= 1;
            }
        }
    }

    /// Whether its outcome is still open: no adjudication has fired in it,
    /// and none was undecided.
    pub(super) fn open(&self) -> bool {
        self.computed.is_none() && self.undecided_from.is_none()
    }
}

/// Whether two values are the same to every reader: equal, and a number
/// with the same bits (`-0` is not `0` to a message).
pub(super) fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
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

    /// Whether an expression with these inputs can give `sh` another value
    /// than the real pass at the current event, its state aside.
    pub(super) fn differ(&self, sh: &Shadow) -> bool {
        self.switches.contains(&sh.flipped) || self.lets.iter().any(|&r| sh.differs[r])
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
