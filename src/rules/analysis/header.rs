//! The `ruleset` header's scoring and tiebreaks, checked against the
//! names arbiter knows.

use super::analyzer::Analyzer;
use super::constants::const_value;
use crate::base::suggest::suggest;
use crate::rules::syntax::ast;
use crate::rules::syntax::error::RuleError;

impl Analyzer<'_> {
    /// The points of each result the header's `scoring` names.
    pub(super) fn scoring(&mut self, meta: &ast::Meta) -> Result<Vec<(String, f64)>, RuleError> {
        let mut scoring = Vec::new();
        for (k, e) in &meta.scoring {
            if !["win", "draw", "loss", "bye", "forfeit"].contains(&k.text.as_str()) {
                let help = suggest(&k.text, ["win", "draw", "loss", "bye", "forfeit"])
                    .unwrap_or_else(|| "scoring names win, draw, loss, bye and forfeit".into());
                return Err(
                    RuleError::new(k.pos, format!("unknown scoring entry `{}`", k.text)).help(help),
                );
            }
            let c = self.constant(e)?;
            let v = const_value(&c, &self.const_values, self.fold)
                .ok_or_else(|| RuleError::new(e.pos, "expected a number of points"))?;
            scoring.push((k.text.clone(), v));
        }
        Ok(scoring)
    }

    /// Whether every tiebreak the header names is one arbiter knows.
    pub(super) fn check_tiebreaks(meta: &ast::Meta) -> Result<(), RuleError> {
        const TIEBREAKS: &[&str] = &[
            "crash",
            "direct-encounter",
            "wins",
            "black-wins",
            "sonneborn-berger",
            "buchholz",
            "opponents-scores",
            "opponents-opponents-scores",
            "cumulative-score",
            "match-score",
            "organizer-decision",
            "playoff",
        ];
        for t in &meta.tiebreaks {
            if !TIEBREAKS.contains(&t.text.as_str()) {
                let help = suggest(&t.text, TIEBREAKS.iter().copied())
                    .unwrap_or_else(|| format!("known tiebreaks: {}", TIEBREAKS.join(", ")));
                return Err(
                    RuleError::new(t.pos, format!("unknown tiebreak `{}`", t.text)).help(help),
                );
            }
        }
        Ok(())
    }
}
