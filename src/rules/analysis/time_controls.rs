//! A `time-control` declaration: its periods, each a duration, a move
//! count and an increment; and the check that a name is one declared.

use std::collections::HashSet;

use super::analyzer::Analyzer;
use super::constants::const_value;
use crate::base::suggest::suggest;
use crate::facts::clock::{PeriodDef, TimeControlDef};
use crate::rules::syntax::ast;
use crate::rules::syntax::error::RuleError;

impl Analyzer<'_> {
    pub(super) fn time_control(
        &mut self,
        tc: &ast::TimeControl,
    ) -> Result<TimeControlDef, RuleError> {
        let mut periods = Vec::new();
        if tc.periods.is_empty() {
            return Err(RuleError::new(
                tc.name.pos,
                "a time control needs at least one `period`",
            ));
        }
        for (i, p) in tc.periods.iter().enumerate() {
            let dur = |this: &mut Self, e: &ast::Expr| -> Result<f64, RuleError> {
                let c = this.constant(e)?;
                match const_value(&c, &this.const_values, this.fold) {
                    Some(v) if v >= 0.0 => Ok(v),
                    _ => Err(RuleError::new(
                        e.pos,
                        "expected a duration such as `2h` or `30m`",
                    )),
                }
            };
            let time_ms = dur(self, &p.time)?;
            let increment_ms = match &p.increment {
                Some(e) => dur(self, e)?,
                None => 0.0,
            };
            let moves = match p.moves {
                Some((n, pos)) => {
                    if n < 1.0 || n.fract() != 0.0 || n > 10_000.0 {
                        return Err(RuleError::new(
                            pos,
                            "expected a whole number of moves from 1 to 10000",
                        ));
                    }
                    Some(n as u32)
                }
                None => {
                    if i + 1 != tc.periods.len() {
                        return Err(RuleError::new(
                            p.pos,
                            "only the last period can cover the rest of the game",
                        ));
                    }
                    None
                }
            };
            periods.push(PeriodDef {
                moves,
                time_ms,
                increment_ms,
                at_least: p.at_least,
            });
        }
        let start_credit_ms = match &tc.start_credit {
            Some(e) => {
                let c = self.constant(e)?;
                match const_value(&c, &self.const_values, self.fold) {
                    Some(v) if v.is_finite() => v,
                    _ => {
                        return Err(RuleError::new(
                            e.pos,
                            "expected a duration such as `30s` or `-30s`",
                        ));
                    }
                }
            }
            None => 0.0,
        };
        Ok(TimeControlDef {
            name: tc.name.text.clone(),
            periods,
            carry_over: tc.carry_over,
            settings_show_used: tc.settings_show_used,
            start_credit_ms,
            fitted: false,
        })
    }

    /// Whether `n` names one of the time controls declared (`tcs`, whose
    /// names are `known`: one look, however many there are).
    pub(super) fn known_time_control(
        tcs: &[TimeControlDef],
        known: &HashSet<&str>,
        n: &ast::Name,
    ) -> Result<(), RuleError> {
        if known.contains(n.text.as_str()) {
            Ok(())
        } else {
            let help = suggest(&n.text, tcs.iter().map(|t| t.name.as_str()))
                .unwrap_or_else(|| "declare it with `time-control NAME { … }`".into());
            Err(RuleError::new(n.pos, format!("unknown time control `{}`", n.text)).help(help))
        }
    }

    /// The names of the time controls declared, for [`Self::known_time_control`].
    pub(super) fn time_control_names(tcs: &[TimeControlDef]) -> HashSet<&str> {
        tcs.iter().map(|t| t.name.as_str()).collect()
    }
}
