//! A rule: its citations, severity, what it checks (on which events) and
//! its message template.

use super::analyzer::Analyzer;
use super::ruleset::{CTemplatePart, Check, CiteDef, RuleDef};
use crate::base::suggest::suggest;
use crate::findings::Severity;
use crate::rules::syntax::ast::{self, RuleKind};
use crate::rules::syntax::error::RuleError;
use crate::timeline::Kind;

impl Analyzer<'_> {
    pub(super) fn rule(&mut self, r: &ast::Rule) -> Result<RuleDef, RuleError> {
        if r.cites.is_empty() {
            return Err(RuleError::new(r.id.pos, format!("rule `{}` cites no clause", r.id.text))
                .help("add `cite \"<clause>\" \"<the clause's words>\"`: every rule must trace to its regulation"));
        }
        for c in &r.cites {
            if c.clause.trim().is_empty() || c.quote.trim().is_empty() {
                return Err(RuleError::new(
                    c.pos,
                    "a citation needs the clause and its words",
                ));
            }
        }
        let Some((kind, _)) = &r.kind else {
            return Err(RuleError::new(r.id.pos, format!("rule `{}` does not say what it checks", r.id.text))
                .help("add one of `manual \"…\"`, `adjudicate … when …`, `forbid on KIND when …` or `require on KIND when …`"));
        };
        let severity = match &r.severity {
            None => match kind {
                RuleKind::Manual(_) => Severity::ManualReview,
                _ => Severity::Error,
            },
            Some(s) => match s.text.as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "info" => Severity::Info,
                other => {
                    let help = suggest(other, ["error", "warning", "info"])
                        .unwrap_or_else(|| "expected error, warning or info".into());
                    return Err(
                        RuleError::new(s.pos, format!("unknown severity `{other}`")).help(help)
                    );
                }
            },
        };
        let scope = match kind {
            RuleKind::Manual(_) => None,
            RuleKind::Adjudicate { .. } => Some(Kind::Move),
            RuleKind::Forbid { on, .. } | RuleKind::Require { on, .. } => Some(self.kind(on)?),
        };
        self.scope = scope;
        self.stateful_ok = true;
        let check = match kind {
            RuleKind::Manual(what) => Check::Manual(what.clone()),
            RuleKind::Adjudicate {
                result,
                records,
                when,
            } => {
                let res = self.expr(result)?;
                let w = self.condition(when)?;
                let rec = records.as_ref().map(|r| self.expr(r)).transpose()?;
                Check::Adjudicate {
                    result: res,
                    records: rec,
                    when: w,
                }
            }
            RuleKind::Forbid { when, .. } => Check::Forbid {
                on: scope.expect("forbid has a scope"),
                when: when.as_ref().map(|w| self.condition(w)).transpose()?,
            },
            RuleKind::Require { when, .. } => Check::Require {
                on: scope.expect("require has a scope"),
                when: self.condition(when)?,
            },
        };
        let message = match &r.message {
            Some(t) => {
                if scope.is_none() {
                    return Err(
                        RuleError::new(t.pos, "a manual rule has no message template")
                            .help("say what to check in `manual \"…\"`"),
                    );
                }
                let mut parts = Vec::new();
                // A message is evaluated only when the rule fires, so state
                // cannot advance there: use a `let`.
                self.stateful_ok = false;
                for p in &t.parts {
                    parts.push(match p {
                        ast::TemplatePart::Text(s) => CTemplatePart::Text(s.clone()),
                        ast::TemplatePart::Expr(e) => CTemplatePart::Expr(self.expr(e)?),
                    });
                }
                Some(parts)
            }
            None => None,
        };
        self.scope = None;
        self.stateful_ok = false;
        let start = self.src[..r.id.pos.offset]
            .rfind("rule")
            .unwrap_or(r.id.pos.offset);
        Ok(RuleDef {
            written_in: self.written_in(),
            id: r.id.text.clone(),
            title: r.title.clone(),
            cites: r
                .cites
                .iter()
                .map(|c| CiteDef {
                    clause: c.clause.clone(),
                    quote: c.quote.clone(),
                    line: c.pos.line,
                    column: c.pos.column,
                })
                .collect(),
            severity,
            sanction: r.sanction.clone().unwrap_or_default(),
            doc: r.doc.clone().unwrap_or_default(),
            message,
            check,
            line: r.id.pos.line,
            source: self.src[start..r.end.max(start)].to_string(),
        })
    }
}
