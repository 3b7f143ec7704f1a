//! A pass's step at each event: its `let`s, the real pass's and each
//! shadow's (only where a shadow's value can differ).

use super::{Here, Pass};
use crate::rules::eval::ctx::Ctx;
use crate::rules::eval::typed::identical;

impl Pass<'_, '_> {
    /// The `let`s of the event (`on_lets`), the real pass's and each
    /// shadow's.
    #[inline(always)]
    pub(super) fn lets_at(&mut self, here: Here<'_>, on_lets: &[usize]) {
        let r = here.r;
        let plan = self.plan;
        for &j in on_lets {
            // a column: its value at this move, the real pass's and each
            // shadow's (a shadow's differs only where it has a column)
            if let Some(gc) = self.cols
                && let Some(c) = gc.let_col(j)
            {
                if self.readers[j] != 0 {
                    // (a shadow none of whose `let`s differs anywhere in
                    // the game has nothing to set)
                    for (sh, own) in self
                        .shadows
                        .iter_mut()
                        .zip(&gc.shadows)
                        .filter(|(_, o)| o.any)
                    {
                        let d = match &own.lets[j] {
                            Some(o) if sh.open() => {
                                let v = o.value_at(r);
                                let differs = !identical(&v, &c.value_at(r));
                                sh.lets[j] = v;
                                differs
                            }
                            _ => false,
                        };
                        sh.set_differs(j, d);
                    }
                }
                continue;
            }
            fill!(self, here.at, &plan.let_inputs[j].lets);
            // A shadow evaluates the `let` only where its value can differ
            // from the real pass's: it reads the flipped switch, or a `let`
            // whose shadow value differs now, or its state is the shadow's
            // own. Otherwise it has the real value, and its state (left
            // as it was) is copied from the real pass's, before this
            // event advances it, once the shadow needs it.
            let shadowed = self.readers[j] != 0;
            for (k, sh) in self.shadows.iter_mut().enumerate().filter(|_| shadowed) {
                // a shadow whose outcome is decided has nothing left to
                // find: nothing of it is read again
                let must = sh.open()
                    && plan.depends[sh.flipped].lets[j]
                    && (sh.own[j] || plan.let_inputs[j].differ(sh));
                self.evaluate[k] = must;
                if must && !sh.own[j] {
                    for &c in &plan.let_calls[j] {
                        sh.slots[c].clone_from(&self.slots[c]);
                    }
                }
            }
            let mut ctx = ctx!(self, here);
            ctx.advance(plan, &plan.let_calls[j]);
            let v = (plan.code.lets[j])(&mut ctx);
            self.lets[j] = v;
            for (k, sh) in self.shadows.iter_mut().enumerate().filter(|_| shadowed) {
                if self.evaluate[k] {
                    let mut c = ctx!(shadow self, sh, here);
                    c.advance(plan, &plan.let_calls[j]);
                    let v = (plan.code.lets[j])(&mut c);
                    let d = !identical(&v, &self.lets[j]);
                    sh.set_differs(j, d);
                    sh.lets[j] = v;
                    // its state is its own while it differs from the real
                    // pass's
                    sh.own[j] = plan.let_calls[j]
                        .iter()
                        .any(|&c| sh.slots[c] != self.slots[c]);
                } else {
                    sh.set_differs(j, false);
                }
            }
        }
    }
}
