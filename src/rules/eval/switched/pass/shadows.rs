//! A pass's step at each move: each shadow's adjudications, evaluated
//! again only where they can differ from the real pass's.

use super::{Here, Pass};
use crate::rules::analysis::Check;
use crate::rules::eval::ctx::Ctx;
use crate::rules::eval::typed::Truth;
use crate::rules::eval::verdicts::computed_at;

impl Pass<'_, '_> {
    /// Each shadow's adjudications at a move's event, in the rules' order,
    /// until its outcome is decided; `decisive`: whether the real pass's
    /// decided something there.
    #[inline(always)]
    pub(super) fn shadows_at(&mut self, here: Here<'_>, decisive: bool) {
        let (ev, r) = (here.ev, here.r);
        let (rs, plan) = (self.rs, self.plan);
        for (k, sh) in self
            .shadows
            .iter_mut()
            .enumerate()
            .filter(|(_, sh)| sh.open())
        {
            // a shadow none of whose `let`s differs now, whose switch no
            // adjudication reads directly and none keeps state of its
            // own, has the real pass's verdicts: when none of those
            // decides anything, there is nothing to evaluate
            if !decisive && !plan.direct[sh.flipped] && sh.differing == 0 {
                continue;
            }
            for &ri in &plan.adjudications {
                let rule = &rs.rules[ri];
                let Check::Adjudicate {
                    result, records, ..
                } = &rule.check
                else {
                    continue;
                };
                // evaluated again only where it can differ (as for
                // the `let`s above); one with stateful calls of its own
                // on every move, to keep their state
                let own = plan.depends[sh.flipped].rules[ri]
                    && (!plan.rule_calls[ri].is_empty() || plan.rule_inputs[ri].differ(sh));
                if !own && !matches!(self.fired_at[ri], Truth::True | Truth::Unknown) {
                    // the real pass's verdict, which decides nothing
                    continue;
                }
                let open = sh.open();
                fill!(self, here.at, &plan.columns.rule_reads[ri]);
                let mut c = if own {
                    ctx!(shadow self, sh, here)
                } else {
                    ctx!(self, here)
                };
                let fired = if own {
                    c.advance(plan, &plan.rule_calls[ri]);
                    // a column: the shadow's where it differs, else
                    // the real pass's
                    match self.cols.and_then(|c| {
                        let real = c.rules[ri].as_ref()?;
                        Some(c.shadows[k].rules[ri].as_ref().unwrap_or(real))
                    }) {
                        Some(c) => *c.at(r),
                        None => plan.code.condition(ri, &mut c),
                    }
                } else {
                    self.fired_at[ri]
                };
                match fired {
                    Truth::True if open => {
                        if let Ok(computed) =
                            computed_at(rule, result, records.as_ref(), &mut c, ev.ply.unwrap_or(0))
                        {
                            sh.computed = Some(computed);
                        }
                    }
                    Truth::Unknown if open => sh.undecided_from = ev.ply,
                    _ => {}
                }
                self.shadow_notes.clear();
                self.shadow_evidence.clear();
                self.notes.clear();
                self.evidence.clear();
            }
        }
    }
}
