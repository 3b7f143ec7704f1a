//! Judging a game with a ruleset: evaluate it, compare the adjudication it
//! computes with the one the record claims, and say where a switch (a
//! documented divergence between the software and the rule text) changed
//! the outcome.

use super::analysis::{Check, Ruleset};
use super::eval::{Computed, Detectors, Outcome, Program, rule_finding, run_switched};
use crate::findings::codes;
use crate::findings::{Evidence, Finding, Severity};
use crate::timeline::Timeline;

/// The verdict of a ruleset on one game.
#[derive(Debug, Clone)]
pub struct Judgement {
    pub variant: Option<String>,
    pub computed: Option<Computed>,
    pub findings: Vec<Finding>,
    pub trace: Vec<(u32, Vec<crate::base::value::Value>)>,
}

fn tc_name(p: &Program<'_>) -> String {
    p.variant.clone().unwrap_or_else(|| "base".into())
}

/// Evaluate `rs` on a game and compare with the record.
pub fn judge(
    rs: &Ruleset,
    forced_variant: Option<&str>,
    fitted: Option<&super::eval::Overrides>,
    tl: &Timeline<'_>,
    detectors: &Detectors,
    path: &str,
    trace: bool,
) -> Result<Judgement, super::eval::UnknownVariant> {
    let prog =
        Program::for_game_with(rs, forced_variant, tl, &fitted.cloned().unwrap_or_default())?;
    // the game, and beside it in the same pass the adjudication each switch
    // flipped would compute
    let every: Vec<usize> = (0..rs.switches.len()).collect();
    let (outcome, flipped) = run_switched(&prog, tl, detectors, path, trace, &every);
    let mut findings = outcome.findings.clone();
    compare(&prog, tl, &outcome, path, &mut findings);
    for ind in &outcome.indeterminate {
        if ind.reason.starts_with(super::eval::UNAVAILABLE) {
            continue; // listed once in the summary
        }
        let rule = rs
            .rules
            .iter()
            .find(|r| r.id == ind.rule)
            .expect("rule exists");
        findings.push(rule_finding(
            rule,
            format!("rule {} could not be decided: {}", rule.id, ind.reason),
            Evidence {
                path: path.to_string(),
                span: None,
                ply: ind.ply,
                timestamp: None,
                note: "first event where the rule could not be decided".into(),
            },
            &rs.path,
        ));
        let f = findings.last_mut().expect("just pushed");
        f.code = codes::RULE_UNDECIDED.id.into();
        f.severity = Severity::Info;
    }
    // Each switch flipped: does the outcome change?
    for ((si, sw), other) in rs.switches.iter().enumerate().zip(&flipped) {
        if *other != outcome.computed {
            let show = |c: &Option<Computed>| match c {
                Some(c) => format!("{} at ply {} ({})", c.result, c.ply, c.rule),
                None => "no adjudication".into(),
            };
            findings.push(Finding {
                code: codes::SWITCH_CHANGED_OUTCOME.id.into(),
                severity: Severity::Info,
                title: format!("Switch `{}` changes this game's outcome", sw.name),
                message: format!(
                    "with {} = {} (in force): {}; with {} = {}: {}. {}",
                    sw.name,
                    prog.switches[si],
                    show(&outcome.computed),
                    sw.name,
                    !prog.switches[si],
                    show(other),
                    sw.doc
                ),
                rule: String::new(),
                clause: String::new(),
                sanction: String::new(),
                evidence: vec![Evidence::at_line(
                    sw.written_in.as_deref().unwrap_or(&rs.path),
                    sw.line as u64,
                    1,
                    0,
                    format!("switch {} (variant {})", sw.name, tc_name(&prog)),
                )],
                more: 0,
            });
        }
    }
    Ok(Judgement {
        variant: prog.variant.clone(),
        computed: outcome.computed,
        findings,
        trace: outcome.trace,
    })
}

/// What the record and the rules say of the game's end: the findings of
/// [`compare`] (none where the computed adjudication is the recorded one).
pub fn termination_findings(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    outcome: &Outcome,
    path: &str,
) -> Vec<Finding> {
    let mut out = Vec::new();
    compare(prog, tl, outcome, path, &mut out);
    out
}

/// Compare the computed adjudication with the recorded termination.
fn compare(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    outcome: &Outcome,
    path: &str,
    out: &mut Vec<Finding>,
) {
    let rs = prog.ruleset;
    if tl.replay.stop.is_some() {
        return; // the record is broken; integrity findings say so
    }
    // a game of no move ends at its start position, where the ruleset
    // judges it there
    let starts = super::eval::judges_start(prog);
    let start_ply = match starts {
        true => tl.replay.first_ply.saturating_sub(1),
        false => 0,
    };
    let last_ply = tl.replay.plies.last().map_or(start_ply, |p| p.ply);
    let last_span = (tl.replay.plies.last()).and_then(|p| tl.game.moves[p.move_index].span);
    let ending = tl.game.recorded_ending();
    let details = ending.map_or("", |e| e.text).to_string();
    let result = tl.game.tag("Result").unwrap_or("*").trim().to_string();
    let details_span = ending.and_then(|e| e.span);
    let details_note = || match ending {
        Some(e) if e.in_comment => "the termination written after the last move".to_string(),
        _ => "the TerminationDetails tag".to_string(),
    };
    let ev = |span, ply: u32, note: String| Evidence {
        path: path.to_string(),
        span,
        ply: Some(ply),
        timestamp: None,
        note,
    };
    match &outcome.computed {
        Some(c) => {
            let rule = rs
                .rules
                .iter()
                .find(|r| r.id == c.rule)
                .expect("rule exists");
            let at = tl.replay.ply(c.ply);
            let fires = || match at {
                Some(p) => ev(
                    tl.game.moves[p.move_index].span,
                    c.ply,
                    "where the rule fires".into(),
                ),
                None => start_evidence(tl, path, c.ply),
            };
            if c.ply < last_ply {
                let mut f = rule_finding(
                    rule,
                    format!(
                        "rule {} ends the game at ply {} with {}{}, but the game went on to ply {} (recorded: {}{})",
                        rule.id,
                        c.ply,
                        c.result,
                        c.records
                            .as_ref()
                            .map_or(String::new(), |r| format!(" ({r})")),
                        last_ply,
                        result,
                        if details.is_empty() {
                            String::new()
                        } else {
                            format!(", {details}")
                        }
                    ),
                    fires(),
                    &rs.path,
                );
                f.code = codes::ADJUDICATION_MISSED.id.into();
                f.evidence
                    .push(ev(last_span, last_ply, "where the record ends".into()));
                out.push(f);
                return;
            }
            if c.result != result {
                let mut f = rule_finding(
                    rule,
                    format!(
                        "rule {} ends the game at ply {} with {}, but the result recorded is {result}",
                        rule.id, c.ply, c.result
                    ) + &c
                        .message
                        .as_ref()
                        .map_or(String::new(), |m| format!(": {m}")),
                    fires(),
                    &rs.path,
                );
                f.code = codes::ADJUDICATION_WRONG_RESULT.id.into();
                out.push(f);
            }
            if let Some(rec) = &c.records
                && !details.is_empty()
                && rec != &details
            {
                let mut f = rule_finding(
                    rule,
                    format!(
                        "the game ends at ply {} by rule {} ({rec}), but the record says {details:?}",
                        c.ply, rule.id
                    ),
                    ev(details_span, c.ply, details_note()),
                    &rs.path,
                );
                f.code = codes::ADJUDICATION_MISLABELLED.id.into();
                f.severity = Severity::Warning;
                out.push(f);
            }
        }
        None if outcome.undecided_from.is_some_and(|p| p <= last_ply) => {
            // An adjudication could not be decided (reported as undecided):
            // the game may have ended there, so nothing later is judged.
        }
        None => {
            let claim = Claim {
                details: &details,
                result: &result,
                last_ply,
                finding_at: ev(details_span, last_ply, details_note()),
                final_move: match last_span {
                    None if starts && tl.replay.plies.is_empty() => {
                        result_evidence(tl, path, last_ply)
                    }
                    _ => ev(last_span, last_ply, "the final move".into()),
                },
            };
            let before = out.len();
            unsupported(prog, tl, outcome, &claim, out);
            if starts && out.len() == before && tl.replay.plies.is_empty() && result != "*" {
                out.push(start_unsupported(tl, path, &result, &details, last_ply));
            }
        }
    }
}

/// What a record claims of its end where no rule computed one: its
/// termination text and result, and the evidence of each.
struct Claim<'a> {
    details: &'a str,
    result: &'a str,
    last_ply: u32,
    finding_at: Evidence,
    final_move: Evidence,
}

/// The record claims an adjudication that no rule computed: one
/// `adjudication-unsupported` finding, at the first rule that records its
/// text, naming the others that record the same (a manager writes "Draw by
/// adjudication" for its draw rule and its move limit alike).
fn unsupported(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    outcome: &Outcome,
    claim: &Claim<'_>,
    out: &mut Vec<Finding>,
) {
    let rs = prog.ruleset;
    if claim.details.is_empty() {
        return;
    }
    let claiming: Vec<_> = rs
        .rules
        .iter()
        .filter(|rule| {
            matches!(
                &rule.check,
                Check::Adjudicate {
                    records: Some(_),
                    ..
                }
            ) && claimed_by(prog, rule, tl, claim.details)
        })
        .collect();
    if claiming
        .iter()
        .any(|rule| outcome.indeterminate.iter().any(|i| i.rule == rule.id))
    {
        return; // reported as undecided, with the reason
    }
    if let Some((rule, others)) = claiming.split_first() {
        let also = match others {
            [] => String::new(),
            _ => format!(
                " (nor {}, which record the same)",
                others
                    .iter()
                    .map(|r| r.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let mut f = rule_finding(
            rule,
            format!(
                "the record says the game ended by {:?} at ply {} ({}), but rule {} never fires in this game{also}",
                claim.details, claim.last_ply, claim.result, rule.id
            ),
            claim.finding_at.clone(),
            &rs.path,
        );
        f.code = codes::ADJUDICATION_UNSUPPORTED.id.into();
        f.evidence.push(claim.final_move.clone());
        out.push(f);
    }
}

/// Whether the record's termination text, `details`
/// ([`crate::ingest::pgn::PgnGame::recorded_ending`]), names what this rule
/// records. The rule's `records` expression is evaluated at the final move.
fn claimed_by(
    prog: &Program<'_>,
    rule: &super::analysis::RuleDef,
    tl: &Timeline<'_>,
    details: &str,
) -> bool {
    let Check::Adjudicate {
        records: Some(rec), ..
    } = &rule.check
    else {
        return false;
    };
    // the final move, wherever log events after it put it in the timeline
    let v = match tl
        .events
        .iter()
        .rposition(|e| e.kind == crate::timeline::Kind::Move)
    {
        Some(last) => super::eval::eval_at(prog, tl, last, rec),
        // a game of no move: its start position, where the ruleset judges it
        None if super::eval::judges_start(prog) => {
            super::eval::eval_at(prog, &tl.start_position(), 0, rec)
        }
        None => return false,
    };
    v.display() == details
}

/// Where a rule fires at the start position: the `FEN` tag (else the
/// `Result` tag), as there is no move.
fn start_evidence(tl: &Timeline<'_>, path: &str, ply: u32) -> Evidence {
    match tl.game.tag_entry("FEN") {
        Some(t) => Evidence {
            path: path.to_string(),
            span: Some(t.span),
            ply: Some(ply),
            timestamp: None,
            note: "the start position, where the rule fires".into(),
        },
        None => result_evidence(tl, path, ply),
    }
}

/// The `Result` tag of a game of no move.
fn result_evidence(tl: &Timeline<'_>, path: &str, ply: u32) -> Evidence {
    Evidence {
        path: path.to_string(),
        span: tl.game.tag_entry("Result").map(|t| t.span),
        ply: Some(ply),
        timestamp: None,
        note: "the Result tag (the game has no move)".into(),
    }
}

/// A game of no move with a result that no rule computes at its start
/// position: `adjudication-start-unsupported`, at its `Result` tag and
/// its start position.
fn start_unsupported(
    tl: &Timeline<'_>,
    path: &str,
    result: &str,
    details: &str,
    ply: u32,
) -> Finding {
    let termination = tl.game.tag("Termination").unwrap_or("");
    let said = match (termination, details) {
        ("", "") => String::new(),
        (t, "") => format!(" (Termination {t:?})"),
        ("", d) => format!(" ({d:?})"),
        (t, d) => format!(" (Termination {t:?}, {d:?})"),
    };
    let mut f = Finding::of(
        &codes::ADJUDICATION_START_UNSUPPORTED,
        "A game of no move has a result no rule computes",
        format!(
            "the game ends before any move with {result}{said}, but no rule of the ruleset ends it at its start position"
        ),
    );
    f.evidence.push(result_evidence(tl, path, ply));
    if let Some(t) = tl.game.tag_entry("FEN") {
        f.evidence.push(Evidence {
            path: path.to_string(),
            span: Some(t.span),
            ply: Some(ply),
            timestamp: None,
            note: "the start position".into(),
        });
    }
    f
}
