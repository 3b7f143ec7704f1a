//! A rule's verdict at one event, and the finding it makes: its message,
//! the clause it cites, and its evidence.

use std::collections::BTreeMap;

use super::ctx::{Ctx, Note};
use super::typed::Truth;
use super::{Computed, Indeterminate, result_of};
use crate::base::value::Value;
use crate::findings::{Evidence, Finding};
use crate::rules::analysis::{CExpr, CTemplatePart, Check, RuleDef, Ruleset};
use crate::timeline::{Data, Kind, Timeline};

pub(super) enum Verdict {
    Violation,
    Unknown,
    Holds,
}

/// A `forbid` or `require` rule at the current event or item, its
/// stateful calls advanced.
pub(super) fn verdict(check: &Check, ctx: &mut Ctx<'_, '_>) -> Verdict {
    // a condition holds when it is `true` (the truth of a value is `true`
    // for that value alone), and is undecided when it is `unknown`
    let (v, forbid) = match check {
        Check::Forbid { when, .. } => (
            match when {
                Some(w) => ctx.truth(w),
                None => Truth::True,
            },
            true,
        ),
        Check::Require { when, .. } => (ctx.truth(when), false),
        _ => return Verdict::Holds,
    };
    judged(v, forbid)
}

/// The same, from its condition's truth as the compiled code gives it
/// ([`Code::condition`]).
pub(super) fn verdict_with(check: &Check, v: Truth) -> Verdict {
    match check {
        Check::Forbid { .. } => judged(v, true),
        Check::Require { .. } => judged(v, false),
        _ => Verdict::Holds,
    }
}

/// A verdict from its condition's truth, for a `forbid` or a `require`.
fn judged(v: Truth, forbid: bool) -> Verdict {
    match (v, forbid) {
        (Truth::Unknown, _) => Verdict::Unknown,
        (Truth::True, true) => Verdict::Violation,
        (_, true) | (Truth::True, false) => Verdict::Holds,
        (_, false) => Verdict::Violation,
    }
}

pub(super) fn note_unknown(
    map: &mut BTreeMap<String, Indeterminate>,
    rule: &RuleDef,
    ply: Option<u32>,
    ctx: &Ctx<'_, '_>,
) {
    // the first event it was not decided at is kept: a later one makes
    // nothing, not even the key
    if map.contains_key(&rule.id) {
        return;
    }
    map.insert(
        rule.id.clone(),
        Indeterminate {
            rule: rule.id.clone(),
            ply,
            reason: ctx
                .notes
                .first()
                .map(Note::to_string)
                .unwrap_or_else(|| "a value was unknown".into()),
        },
    );
}

/// Evidence pointing at the rule's citation in the ruleset file.
pub fn rule_evidence(rule: &RuleDef, ruleset_path: &str) -> Evidence {
    let c = &rule.cites[0];
    Evidence::at_line(
        rule.written_in.as_deref().unwrap_or(ruleset_path),
        c.line as u64,
        c.column as u64,
        0,
        format!("rule {} cites clause {}", rule.id, c.clause),
    )
}

/// A finding from a rule.
pub fn rule_finding(
    rule: &RuleDef,
    message: String,
    evidence: Evidence,
    ruleset_path: &str,
) -> Finding {
    Finding {
        code: rule.id.clone(),
        severity: rule.severity,
        title: rule.title.clone(),
        message,
        rule: rule.id.clone(),
        clause: rule.clause_text(),
        sanction: rule.sanction.clone(),
        evidence: vec![evidence, rule_evidence(rule, ruleset_path)],
        more: 0,
    }
}

/// A violation's message: the rule's own, rendered where it fired, and the
/// evidence its detectors found.
pub(super) fn message(rule: &RuleDef, ctx: &mut Ctx<'_, '_>) -> String {
    let mut message = match &rule.message {
        Some(parts) => render(parts, ctx),
        None => format!("{} ({})", rule.title, rule.id),
    };
    if !ctx.evidence.is_empty() {
        let texts: Vec<&str> = ctx.evidence.iter().map(|(t, _)| t.as_str()).collect();
        message.push_str(&format!(". Evidence: {}", texts.join("; ")));
    }
    message
}

pub(super) fn violation(
    rule: &RuleDef,
    ctx: &mut Ctx<'_, '_>,
    ev: &crate::timeline::Event<'_>,
    path: &str,
    rs: &Ruleset,
) -> Finding {
    let rs_path = rs.path.as_str();
    let (span, ply) = (ev.span, ev.ply);
    let (path, timestamp, what) = match &ev.data {
        Data::Op { event, .. } => (
            event.source.as_str(),
            Some(event.at.clone()),
            format!("the {} event", event.kind.log_name()),
        ),
        Data::Engine(e) => (
            e.source.as_str(),
            match e.fields.get("at") {
                Some(Value::Str(s)) => Some(s.to_string()),
                _ => None,
            },
            format!("the {} event", e.kind.rule_name()),
        ),
        _ => (path, None, format!("the {} event", ev.kind.name())),
    };
    let message = message(rule, ctx);
    // a game has no line of its own: the tags its condition reads are
    // where a committee looks
    let mut tags = match (ev.kind, ctx.run.tl) {
        (Kind::Game, Some(tl)) => tag_places(rs, rule, tl, path),
        _ => Vec::new(),
    };
    // an engine event's fields measured to another line of its log
    let measured = match &ev.data {
        Data::Engine(e) if !e.places.is_empty() => rs
            .fields_read(rule, ev.kind)
            .iter()
            .filter_map(|name| e.places.iter().find(|(f, _)| f == name))
            .map(|(f, span)| Evidence {
                path: e.source.clone(),
                span: Some(*span),
                ply,
                timestamp: None,
                note: format!("the line {}.{f} runs to", ev.kind.name()),
            })
            .collect(),
        _ => Vec::new(),
    };
    let first = if tags.is_empty() {
        Evidence {
            path: path.to_string(),
            span,
            ply,
            timestamp,
            note: what,
        }
    } else {
        tags.remove(0)
    };
    let mut f = rule_finding(rule, message, first, rs_path);
    // the other tags read, and a detector's own places (the engine-log
    // line it read), before the rules file's line, which stays last
    let extra: Vec<Evidence> = (tags.into_iter())
        .chain(measured)
        .chain(ctx.evidence.iter().filter_map(|(_, e)| e.clone()))
        .collect();
    if !extra.is_empty() {
        let at = f.evidence.len() - 1;
        f.evidence.splice(at..at, extra);
    }
    f
}

/// The tags of the game `tl` that the rule's condition reads, where the
/// record has them: each at its value's place in `path`.
fn tag_places(rs: &Ruleset, rule: &RuleDef, tl: &Timeline<'_>, path: &str) -> Vec<Evidence> {
    (rs.tags_read(rule).iter())
        .filter_map(|name| tl.game.tag_entry(name))
        .map(|t| Evidence {
            path: path.to_string(),
            span: Some(t.span),
            ply: None,
            timestamp: None,
            note: format!("the {} tag", t.name),
        })
        .collect()
}

pub(super) fn render(parts: &[CTemplatePart], ctx: &mut Ctx<'_, '_>) -> String {
    parts
        .iter()
        .map(|p| match p {
            CTemplatePart::Text(t) => t.clone(),
            CTemplatePart::Expr(e) => ctx.eval(e).display(),
        })
        .collect()
}

/// The adjudication computed at a move where `rule` fired, evaluated in
/// `ctx`; `Err` with the value when the result is not a side or a draw.
pub(super) fn computed_at(
    rule: &RuleDef,
    result: &CExpr,
    records: Option<&CExpr>,
    ctx: &mut Ctx<'_, '_>,
    ply: u32,
) -> Result<Computed, Value> {
    let r = ctx.eval(result);
    let rec = records.map(|e| ctx.eval(e).display());
    match result_of(&r) {
        Some(res) => Ok(Computed {
            rule: rule.id.clone(),
            ply,
            result: res.to_string(),
            records: rec,
            message: rule.message.as_ref().map(|parts| render(parts, ctx)),
        }),
        None => Err(r),
    }
}
