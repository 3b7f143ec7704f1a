//! A constant's `fit` clause: the values `arbiter rules fit` tries, each a
//! constant of the constant's own type.

use super::analyzer::Analyzer;
use super::ruleset::{FIT_MAX_VALUES, FitSource};
use crate::base::value::Value;
use crate::rules::syntax::ast;
use crate::rules::syntax::error::{Pos, RuleError};

impl Analyzer<'_> {
    /// The values of a constant's `fit` clause: constants of the same type
    /// as the constant's own value, at most [`FIT_MAX_VALUES`], each once;
    /// or, for `fit from SOURCE`, none yet and the source.
    pub(super) fn fit_grid(
        &mut self,
        index: usize,
        value: &ast::Expr,
        at: Pos,
        grid: &ast::FitGrid,
    ) -> Result<(Vec<Value>, Option<FitSource>), RuleError> {
        // the constants' values, each folded once when it was declared
        let own = self.const_values.get(index).cloned().unwrap_or_default();
        let eval = |this: &mut Self, e: &ast::Expr| -> Result<Value, RuleError> {
            let c = this.constant(e)?;
            Ok((this.fold)(&c, &this.const_values))
        };
        let out: Vec<Value> = match grid {
            ast::FitGrid::List(items) => {
                let mut out = Vec::new();
                for e in items {
                    let v = eval(self, e)?;
                    if v.type_name() != own.type_name() {
                        return Err(RuleError::new(
                            e.pos,
                            format!(
                                "a fit value must be a {} like the constant's own value, not a {}",
                                own.type_name(),
                                v.type_name()
                            ),
                        ));
                    }
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
                out
            }
            ast::FitGrid::From(source) => return Self::fit_source(value, source, &own),
            ast::FitGrid::Range { from, to, step } => {
                let num = |this: &mut Self, e: &ast::Expr, what: &str| match eval(this, e)? {
                    Value::Num(n) => Ok(n),
                    v => Err(RuleError::new(
                        e.pos,
                        format!("the fit's {what} must be a number, not a {}", v.type_name()),
                    )),
                };
                let (a, b, s) = (
                    num(self, from, "start")?,
                    num(self, to, "end")?,
                    num(self, step, "step")?,
                );
                if !matches!(own, Value::Num(_)) {
                    return Err(RuleError::new(
                        value.pos,
                        format!(
                            "a range `fit … to … step …` needs a number; this constant is a {} (give a list: `fit [\"a\", \"b\"]`)",
                            own.type_name()
                        ),
                    ));
                }
                if s <= 0.0 || b < a {
                    return Err(RuleError::new(
                        step.pos,
                        "a fit's step must be above 0, and its end at or after its start",
                    ));
                }
                let count = ((b - a) / s + 1e-9).floor() + 1.0;
                if count > FIT_MAX_VALUES as f64 {
                    return Err(RuleError::new(
                        step.pos,
                        format!(
                            "this fit gives {count} values; at most {FIT_MAX_VALUES} (a larger step)"
                        ),
                    ));
                }
                // each value rounded to 9 decimals, so that 0 to 0.2 step
                // 0.01 gives 0.07 and not 0.07000000000000001
                (0..count as usize)
                    .map(|k| Value::Num(((a + k as f64 * s) * 1e9).round() / 1e9))
                    .collect()
            }
        };
        if out.is_empty() {
            return Err(RuleError::new(at, "a fit needs at least one value"));
        }
        if out.len() > FIT_MAX_VALUES {
            return Err(RuleError::new(
                at,
                format!("a fit may give at most {FIT_MAX_VALUES} values"),
            ));
        }
        Ok((out, None))
    }

    /// A `fit from SOURCE` clause: the source, checked against the
    /// constant's type; its values come when the fit reads the games.
    fn fit_source(
        value: &ast::Expr,
        source: &ast::Name,
        own: &Value,
    ) -> Result<(Vec<Value>, Option<FitSource>), RuleError> {
        let found = match source.text.as_str() {
            "terminations" => FitSource::Terminations,
            other => {
                let help = crate::base::suggest::suggest(other, FitSource::NAMES)
                    .unwrap_or_else(|| format!("the sources: {}", FitSource::NAMES.join(", ")));
                return Err(RuleError::new(
                    source.pos,
                    format!("unknown source of fit values `{other}`"),
                )
                .help(help));
            }
        };
        if !matches!(own, Value::Str(_)) {
            return Err(RuleError::new(
                value.pos,
                format!(
                    "`fit from {}` gives texts; this constant is a {}",
                    found.name(),
                    own.type_name()
                ),
            ));
        }
        Ok((Vec::new(), Some(found)))
    }
}
