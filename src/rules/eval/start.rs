//! The adjudications at a game's start position: a manager may end a game
//! there, before anyone moves (fastchess probes its tables first). Once
//! per game, after the pass over its events, every `let` on the game and
//! on moves and then each adjudication, in the rules' order, is evaluated
//! at the start position ([`crate::timeline::Timeline::start_position`]).
//! A rule that reads what only a move has (a score, a capture) reads
//! `none` there and does not fire. Only a ruleset whose adjudications
//! read `move.start` is judged there: it says what its manager does at
//! the start; the others' games begin with their first move.

use super::ctx::{Ctx, Note, Run, Slot};
use super::plan::Plan;
use super::program::Program;
use super::typed::Truth;
use super::verdicts::computed_at;
use super::{Computed, Indeterminate, Outcome};
use crate::base::value::Value;
use crate::rules::analysis::Check;
use crate::timeline::Kind;

/// What the adjudications say at a game's start position: the first that
/// fires, or the first that could not be decided.
#[derive(Debug, Default)]
struct AtStart {
    computed: Option<Computed>,
    undecided: Option<Indeterminate>,
}

/// The adjudications at the start position of `run`'s game, under
/// `switches`.
fn at_start(prog: &Program<'_>, run: &Run<'_, '_>, switches: &[bool]) -> AtStart {
    let Some(tl) = run.tl else {
        return AtStart::default();
    };
    let (rs, plan) = (prog.ruleset, Plan::of(prog.ruleset));
    let start = tl.start_position();
    let ply = start.events[0].ply.unwrap_or(0);
    let run = Run {
        tl: Some(&start),
        ..*run
    };
    let mut slots = vec![Slot::default(); rs.slots];
    let mut lets = vec![Value::None; rs.lets.len()];
    let (mut notes, mut evidence) = (Vec::new(), Vec::new());
    macro_rules! ctx {
        () => {
            Ctx {
                run: &run,
                i: 0,
                switches,
                lets: &lets,
                overlay: None,
                slots: &mut slots,
                notes: &mut notes,
                evidence: &mut evidence,
                facts: None,
            }
        };
    }
    let (on_game, _) = plan.triggered(Kind::Game);
    let (on_move, _) = plan.triggered(Kind::Move);
    for &j in on_game.iter().chain(on_move) {
        let mut ctx = ctx!();
        ctx.advance(plan, &plan.let_calls[j]);
        let v = (plan.code.lets[j])(&mut ctx);
        lets[j] = v;
    }
    for &ri in &plan.adjudications {
        let rule = &rs.rules[ri];
        let Check::Adjudicate {
            result, records, ..
        } = &rule.check
        else {
            continue;
        };
        notes.clear();
        evidence.clear();
        let mut ctx = ctx!();
        ctx.advance(plan, &plan.rule_calls[ri]);
        let undecided = |reason: String| Indeterminate {
            rule: rule.id.clone(),
            ply: Some(ply),
            reason,
        };
        match plan.code.condition(ri, &mut ctx) {
            Truth::True => {
                return match computed_at(rule, result, records.as_ref(), &mut ctx, ply) {
                    Ok(c) => AtStart {
                        computed: Some(c),
                        undecided: None,
                    },
                    Err(r) => AtStart {
                        computed: None,
                        undecided: Some(undecided(format!(
                            "the result expression gave {}, not white, black or draw",
                            r.display()
                        ))),
                    },
                };
            }
            Truth::Unknown => {
                let reason = ctx.notes.first().map(Note::to_string);
                return AtStart {
                    computed: None,
                    undecided: Some(undecided(
                        reason.unwrap_or_else(|| "a value was unknown".into()),
                    )),
                };
            }
            _ => {}
        }
    }
    AtStart::default()
}

/// Put the start position's adjudication into a game's outcome `out` and
/// into the adjudications of the shadows (one for each switch of
/// `flipped`): one that fires there ends the game before its first move.
/// Where none fires, the game's moves decide; in a game of no move, an
/// adjudication that could not be decided at the start is reported as
/// undecided. A shadow's start position is evaluated only where the real
/// one's fires or the game has no move (one evaluation per game
/// otherwise).
pub(super) fn merge(
    prog: &Program<'_>,
    run: &Run<'_, '_>,
    flipped: &[usize],
    out: &mut Outcome,
    shadows: &mut [Option<Computed>],
) {
    let Some(tl) = run.tl else {
        return;
    };
    if tl.replay.stop.is_some() || !Plan::of(prog.ruleset).starts {
        // the record is broken (integrity findings say so), or the
        // ruleset's manager never ends a game at its start
        return;
    }
    let real = at_start(prog, run, &prog.switches);
    let no_moves = tl.replay.plies.is_empty();
    if real.computed.is_some() || no_moves {
        for (&s, sh) in flipped.iter().zip(shadows.iter_mut()) {
            let mut switches = prog.switches.clone();
            switches[s] = !switches[s];
            let other = at_start(prog, run, &switches);
            if other.computed.is_some() || other.undecided.is_some() {
                *sh = other.computed;
            }
        }
    }
    let rs = prog.ruleset;
    if let Some(c) = real.computed {
        // the game ended at its start: nothing after it is an adjudication
        out.indeterminate.retain(|i| {
            !rs.rules
                .iter()
                .any(|r| r.id == i.rule && matches!(r.check, Check::Adjudicate { .. }))
        });
        out.undecided_from = None;
        out.computed = Some(c);
    } else if let (Some(u), true) = (real.undecided, no_moves) {
        out.undecided_from = u.ply;
        if !out.indeterminate.iter().any(|i| i.rule == u.rule) {
            out.indeterminate.push(u);
        }
    }
}
