//! One pass with switches: the real program and, for each switch, a
//! shadow that evaluates only what the flipped switch can change and reads
//! the real pass's values for the rest.
//!
//! This file holds what a shadow is and what it reads; `pass` is the pass
//! over a game's events ([`run_switched`]).

use crate::base::value::Value;
use crate::rules::eval::Computed;
use crate::rules::eval::ctx::Slot;
use crate::rules::eval::reads::Inputs;

mod pass;

pub use pass::{run_prepared, run_switched, run_tallied};

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

// what a `let` or an adjudication reads, in a shadow (`Inputs` is
// `reads`', which knows no shadow)
impl Inputs {
    /// Whether an expression with these inputs can give `sh` another value
    /// than the real pass at the current event, its state aside.
    pub(super) fn differ(&self, sh: &Shadow) -> bool {
        self.switches.contains(&sh.flipped) || self.lets.iter().any(|&r| sh.differs[r])
    }
}
