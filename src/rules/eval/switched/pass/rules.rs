//! A pass's step at each event: its rules, the real pass's (a condition
//! a column holds read there; an adjudication, a `forbid` or a `require`).

use super::{Here, Pass};
use crate::rules::analysis::Check;
use crate::rules::eval::Indeterminate;
use crate::rules::eval::ctx::{Ctx, Note};
use crate::rules::eval::typed::Truth;
use crate::rules::eval::verdicts::computed_at;
use crate::rules::eval::verdicts::{Verdict, note_unknown, verdict_with, violation};

impl Pass<'_, '_> {
    /// The rules of the event (`on_rules`), the real pass's: whether an
    /// adjudication fired, or could not be decided, there (a shadow reads
    /// that verdict).
    #[inline(always)]
    pub(super) fn rules_at(&mut self, here: Here<'_>, on_rules: &[usize]) -> bool {
        let (ev, r) = (here.ev, here.r);
        let (rs, plan) = (self.rs, self.plan);
        let mut decisive = false;
        for &ri in on_rules {
            let rule = &rs.rules[ri];
            // a condition a column holds, read there: nothing else of the
            // rule is evaluated unless it fires
            let column = self
                .cols
                .and_then(|c| c.rules[ri].as_ref())
                .map(|c| *c.at(r));
            if let Some(t) = column {
                let decides = match &rule.check {
                    Check::Adjudicate { .. } => {
                        self.fired_at[ri] = t;
                        let d = matches!(t, Truth::True | Truth::Unknown);
                        decisive |= d;
                        d && self.out.computed.is_none() && self.undecided_from.is_none()
                    }
                    check => !matches!(verdict_with(check, t), Verdict::Holds),
                };
                if !decides {
                    continue;
                }
                // a violation counted, not made: nothing else to evaluate
                if !self.out.tally.is_empty()
                    && matches!(verdict_with(&rule.check, t), Verdict::Violation)
                {
                    self.out.tally[ri] += 1;
                    continue;
                }
            }
            // where it decides, a condition that calls a detector is
            // evaluated again, for what the detector notes and finds
            let column = column.filter(|_| !plan.columns.effects[ri]);
            fill!(self, here.at, &plan.columns.rule_reads[ri]);
            let mut ctx = ctx!(self, here);
            match &rule.check {
                Check::Manual(_) => {}
                Check::Adjudicate {
                    result, records, ..
                } => {
                    ctx.advance(plan, &plan.rule_calls[ri]);
                    // a condition fires when it is `true` (the truth of a
                    // value is `true` for that value alone)
                    let fired = column.unwrap_or_else(|| plan.code.condition(ri, &mut ctx));
                    let open = self.out.computed.is_none() && self.undecided_from.is_none();
                    match fired {
                        Truth::True if open => {
                            match computed_at(
                                rule,
                                result,
                                records.as_ref(),
                                &mut ctx,
                                ev.ply.unwrap_or(0),
                            ) {
                                Ok(c) => self.out.computed = Some(c),
                                Err(r) => {
                                    self.indeterminate.entry(rule.id.clone()).or_insert(Indeterminate {
                                        rule: rule.id.clone(),
                                        ply: ev.ply,
                                        reason: format!("the result expression gave {}, not white, black or draw", r.display()),
                                    });
                                }
                            }
                        }
                        Truth::Unknown if open => {
                            self.undecided_from = ev.ply;
                            let reason = ctx
                                .notes
                                .first()
                                .map(Note::to_string)
                                .unwrap_or_else(|| "a value was unknown".into());
                            self.indeterminate
                                .entry(rule.id.clone())
                                .or_insert(Indeterminate {
                                    rule: rule.id.clone(),
                                    ply: ev.ply,
                                    reason,
                                });
                        }
                        _ => {}
                    }
                    self.fired_at[ri] = fired;
                    decisive |= matches!(fired, Truth::True | Truth::Unknown);
                }
                Check::Forbid { .. } | Check::Require { .. } => {
                    ctx.advance(plan, &plan.rule_calls[ri]);
                    let v = column.unwrap_or_else(|| plan.code.condition(ri, &mut ctx));
                    let verdict = verdict_with(&rule.check, v);
                    if let Some((_, held)) = &mut self.walking
                        && !matches!(verdict, Verdict::Holds)
                    {
                        *held = false;
                    }
                    match verdict {
                        Verdict::Violation if !self.out.tally.is_empty() => {
                            self.out.tally[ri] += 1;
                        }
                        Verdict::Violation => {
                            let f = violation(rule, &mut ctx, ev, self.path, rs);
                            self.out.findings.push(f);
                        }
                        Verdict::Unknown => {
                            note_unknown(&mut self.indeterminate, rule, ev.ply, &ctx)
                        }
                        Verdict::Holds => {}
                    }
                }
            }
            self.notes.clear();
            self.evidence.clear();
        }
        decisive
    }
}
