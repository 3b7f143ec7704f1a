//! The pass over one game's events: each event's `let`s, then its rules,
//! then (at a move) each shadow's adjudications. What runs once per game
//! (the clocks, the game's fields, the columns, the shadows) is set up
//! before it; each event's steps (`lets`, `rules`, `shadows`) are inlined
//! into the loop.

use std::collections::BTreeMap;

use crate::base::value::Value;
use crate::findings::Evidence;
use crate::rules::analysis::Ruleset;
use crate::rules::eval::columns::Prepared;
use crate::rules::eval::ctx::{DetectorCache, Note, Run, Slot};
use crate::rules::eval::plan::Plan;
use crate::rules::eval::program::Program;
use crate::rules::eval::switched::Shadow;
use crate::rules::eval::typed::Truth;
use crate::rules::eval::{
    Computed, Detectors, Indeterminate, LetColumns, Outcome, Tallied, columns, memo,
};
use crate::timeline::{Data, Event, Kind, MoveFacts, Timeline};

/// Evaluate a program on one game and, in the same pass, the adjudication
/// it would compute with each switch of `flipped` flipped (in that order).
pub fn run_switched(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    detectors: &Detectors,
    path: &str,
    trace: bool,
    flipped: &[usize],
) -> (Outcome, Vec<Option<Computed>>) {
    let keep = if trace { Keep::Trace } else { Keep::Findings };
    run_with(prog, tl, None, detectors, path, keep, flipped)
}

/// Evaluate a program on one game whose moves' facts and clocks
/// `prepared` keeps, for a search that evaluates one game at many points
/// of values (each clock reconstructed once per time control).
pub fn run_prepared(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    prepared: &Prepared<'_>,
    detectors: &Detectors,
    path: &str,
) -> Outcome {
    run_kept(prog, tl, prepared, detectors, path, Keep::Findings)
}

/// The same, counting each `forbid` and `require` rule's violations in
/// [`Outcome::tally`] (by the rule's place in the ruleset) instead of
/// making their findings: for a search that scores many points of values
/// by how many readings disagree, and reads no finding's text. `lets`
/// says which `let` columns it takes from another run, and whether it
/// keeps its own.
pub fn run_tallied(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    prepared: &Prepared<'_>,
    detectors: &Detectors,
    path: &str,
    lets: Tallied<'_>,
) -> Outcome {
    run_kept(prog, tl, prepared, detectors, path, Keep::Tally(lets))
}

/// A run of a game `prepared` keeps, with no switch flipped.
fn run_kept(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    prepared: &Prepared<'_>,
    detectors: &Detectors,
    path: &str,
    keep: Keep<'_>,
) -> Outcome {
    run_with(prog, tl, Some(prepared), detectors, path, keep, &[]).0
}

/// What a run keeps besides its adjudication: its findings; its findings
/// and every `let` at each move; or each rule's count of violations in
/// place of their findings.
#[derive(Clone, Copy)]
enum Keep<'a> {
    Findings,
    Trace,
    Tally(Tallied<'a>),
}

fn run_with(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    prepared: Option<&Prepared<'_>>,
    detectors: &Detectors,
    path: &str,
    keep: Keep<'_>,
    flipped: &[usize],
) -> (Outcome, Vec<Option<Computed>>) {
    let (rs, trace) = (prog.ruleset, matches!(keep, Keep::Trace));
    let tallied = match keep {
        Keep::Tally(t) => Some(t),
        _ => None,
    };
    // no time control of the ruleset's: the game's own TimeControl tag
    let from_tag = match (&prog.time_control, tl.field(0, Kind::Game, "time_control")) {
        (None, Value::Str(tag)) => crate::facts::clock::parse_pgn_time_control(&tag),
        _ => None,
    };
    let kept;
    let made;
    let clock: &[crate::facts::clock::ClockPly] = match (prog.time_control.as_deref(), prepared) {
        (Some(tc), Some(p)) => {
            kept = p.clock(tc, tl);
            &kept
        }
        (Some(tc), None) => {
            made = crate::facts::clock::reconstruct(tc, tl);
            &made
        }
        (None, _) => match &from_tag {
            Some(tc) => {
                made = crate::facts::clock::reconstruct(tc, tl);
                &made
            }
            None => &[],
        },
    };
    let cache = DetectorCache::default();
    let plan = Plan::of(rs);
    let tc = prog.time_control.as_deref().or(from_tag.as_ref());
    let game: Vec<(&'static str, Value)> = crate::timeline::fields_of(Kind::Game)
        .map(|f| {
            // the program's own fields: its time control
            let v = match f {
                "rules_time_control" => tc.map_or(Value::None, |t| Value::Str(t.tag().into())),
                "rules_increment" => tc
                    .and_then(|t| t.periods.first())
                    .map_or(Value::None, |p| Value::Num(p.increment_ms)),
                _ => tl.field(0, Kind::Game, f),
            };
            (f, v)
        })
        .collect();
    let run = Run {
        tl: Some(tl),
        scope: None,
        consts: &prog.consts,
        detectors,
        clock,
        time_control: tc,
        cache: &cache,
        game: &game,
    };
    // the `let`s and conditions evaluated a column at a time, over the
    // moves (`rows`, each move's facts), before the pass below reads them
    let own;
    let rows: Option<&columns::Moves<'_>> = match prepared {
        Some(p) if plan.columns.any() => p.rows.as_ref(),
        Some(_) => None,
        None => {
            own = columns::rows(plan, tl);
            own.as_ref()
        }
    };
    let cols = rows.map(|moves| {
        let given = columns::Given {
            prepared,
            lets: tallied.and_then(|t| t.given).map(|(c, m)| (&c.0[..], m)),
        };
        columns::evaluate(plan, rs, &run, moves, &prog.switches, flipped, given)
    });
    // the moves the pass below must visit (where it visits every move:
    // none)
    let busy = match (&cols, trace) {
        (Some(gc), false) => gc.busy(plan, rs, flipped, rows.map_or(0, |m| m.facts.len())),
        _ => None,
    };
    let mut pass = Pass::new(prog, &run, path, rows, cols.as_ref(), flipped);
    if tallied.is_some() {
        pass.out.tally = vec![0; rs.rules.len()];
    }
    pass.events(tl, trace, busy.as_deref());
    let (mut out, mut shadows) = pass.finish();
    super::super::start::merge(prog, &run, flipped, &mut out, &mut shadows);
    if tallied.is_some_and(|t| t.keep) {
        out.lets = Some(LetColumns(cols.map(|c| c.into_lets()).unwrap_or_default()));
    }
    (out, shadows)
}

/// One game's pass: what it reads (the program, its plan, the run, the
/// game's columns) and the state its events move on, the real pass's and
/// the shadows'.
struct Pass<'p, 't> {
    prog: &'p Program<'p>,
    rs: &'p Ruleset,
    plan: &'p Plan,
    run: &'p Run<'p, 't>,
    path: &'p str,
    /// The game's moves, where the columns hold some `let`s and conditions.
    rows: Option<&'p columns::Moves<'p>>,
    cols: Option<&'p columns::GameColumns<'p>>,
    out: Outcome,
    slots: Vec<Slot>,
    lets: Vec<Value>,
    notes: Vec<Note>,
    evidence: Vec<(String, Option<Evidence>)>,
    indeterminate: BTreeMap<String, Indeterminate>,
    /// Once an adjudication cannot be decided at some ply, no later (or
    /// lower-priority) adjudication can be trusted: the game may have ended
    /// there.
    undecided_from: Option<u32>,
    /// For each `let` a column holds: the move whose value `lets` holds. A
    /// column's value is put there only where something evaluated in this
    /// pass reads it (`fill!`).
    filled: Vec<usize>,
    shadows: Vec<Shadow>,
    /// What each adjudication gave at the current move, for the shadows.
    fired_at: Vec<Truth>,
    /// A shadow's notes and evidence are its own and are not reported.
    shadow_notes: Vec<Note>,
    shadow_evidence: Vec<(String, Option<Evidence>)>,
    /// Which shadows evaluate the current `let`.
    evaluate: Vec<bool>,
    /// For each `let`, the shadows whose flipped switch it reads (directly
    /// or through earlier `let`s), as bits (all of them past 64 shadows):
    /// a `let` that reads none is the real pass's alone.
    readers: Vec<u64>,
    /// The run of option events being walked, and whether every rule has
    /// held in it so far.
    walking: Option<(memo::OptionRun, bool)>,
}

/// Where the pass is: the `i`th event (`ev`), its move's place `r` among
/// the columns' moves, the move `at` whose values the `let`s hold there,
/// and the move's facts.
#[derive(Clone, Copy)]
struct Here<'h> {
    i: usize,
    ev: &'h Event<'h>,
    r: usize,
    at: Option<usize>,
    facts: Option<&'h MoveFacts<'h>>,
}

/// The context of the event `here`, for a `let` or a rule, in pass `p`:
/// the real pass's, or (`shadow`) shadow `sh`'s: its switches, `let`s,
/// state, notes and evidence, reading the real pass's `let`s where its own
/// do not differ.
macro_rules! ctx {
    ($p:ident, $here:expr) => {
        ctx!(
            $p,
            $here,
            &$p.prog.switches,
            &$p.lets,
            &mut $p.slots,
            &mut $p.notes,
            None,
            &mut $p.evidence
        )
    };
    (shadow $p:ident, $sh:ident, $here:expr) => {
        ctx!(
            $p,
            $here,
            &$sh.switches,
            &$sh.lets,
            &mut $sh.slots,
            &mut $p.shadow_notes,
            Some((&$p.lets, &$sh.differs)),
            &mut $p.shadow_evidence
        )
    };
    ($p:ident, $here:expr, $switches:expr, $lets:expr, $slots:expr, $notes:expr, $overlay:expr, $evidence:expr) => {
        Ctx {
            run: $p.run,
            i: $here.i,
            switches: $switches,
            lets: $lets,
            overlay: $overlay,
            slots: $slots,
            notes: $notes,
            evidence: $evidence,
            facts: $here.facts,
        }
    };
}

/// Put in pass `p`'s `lets` the columns' values of the `let`s `needed`
/// read, at the move `at` whose values the `let`s hold.
macro_rules! fill {
    ($p:ident, $at:expr, $needed:expr) => {
        if let (Some(gc), Some(at)) = ($p.cols, $at) {
            for &l in $needed {
                if let Some(c) = gc.let_col(l)
                    && $p.filled[l] != at
                {
                    $p.lets[l] = c.value_at(at);
                    $p.filled[l] = at;
                }
            }
        }
    };
}

// each event's steps, inlined into the loop of `events` (the macros above
// are theirs too)
mod lets;
mod rules;
mod shadows;

impl<'p, 't> Pass<'p, 't> {
    /// The pass before the game's first event, over the game's moves and
    /// columns where the ruleset has some, its shadows those of the
    /// switches of `flipped`.
    fn new(
        prog: &'p Program<'p>,
        run: &'p Run<'p, 't>,
        path: &'p str,
        rows: Option<&'p columns::Moves<'p>>,
        cols: Option<&'p columns::GameColumns<'p>>,
        flipped: &[usize],
    ) -> Self {
        let rs = prog.ruleset;
        let plan = Plan::of(rs);
        let slots = vec![Slot::default(); rs.slots];
        let lets: Vec<Value> = vec![Value::None; rs.lets.len()];
        let shadows: Vec<Shadow> = flipped
            .iter()
            .map(|&s| {
                let mut switches = prog.switches.clone();
                switches[s] = !switches[s];
                Shadow {
                    flipped: s,
                    switches,
                    lets: lets.clone(),
                    differs: vec![false; rs.lets.len()],
                    differing: 0,
                    slots: slots.clone(),
                    own: vec![false; rs.lets.len()],
                    computed: None,
                    undecided_from: None,
                }
            })
            .collect();
        let readers: Vec<u64> = (0..rs.lets.len())
            .map(|j| {
                if shadows.len() > 64 {
                    return u64::MAX;
                }
                shadows
                    .iter()
                    .enumerate()
                    .filter(|(_, sh)| plan.depends[sh.flipped].lets[j])
                    .fold(0, |m, (k, _)| m | 1 << k)
            })
            .collect();
        Pass {
            prog,
            rs,
            plan,
            run,
            path,
            rows,
            cols,
            out: Outcome::default(),
            slots,
            lets,
            notes: Vec::new(),
            evidence: Vec::new(),
            indeterminate: BTreeMap::new(),
            undecided_from: None,
            filled: vec![usize::MAX; rs.lets.len()],
            evaluate: vec![false; shadows.len()],
            shadows,
            fired_at: vec![Truth::Other; rs.rules.len()],
            shadow_notes: Vec::new(),
            shadow_evidence: Vec::new(),
            readers,
            walking: None,
        }
    }

    /// What the pass found: the real pass's outcome, and the adjudication
    /// each shadow computed.
    fn finish(mut self) -> (Outcome, Vec<Option<Computed>>) {
        self.out.indeterminate = self.indeterminate.into_values().collect();
        self.out.undecided_from = self.undecided_from;
        (
            self.out,
            self.shadows.into_iter().map(|s| s.computed).collect(),
        )
    }

    /// Every event of the game in order, but the moves that are not `busy`
    /// (where it is given) and the runs of option events already judged.
    fn events(&mut self, tl: &Timeline<'_>, trace: bool, busy: Option<&[bool]>) {
        let (prog, plan) = (self.prog, self.plan);
        // the current move's place among the moves
        let mut row: usize = 0;
        // the game's runs of option events, where the ruleset lets a run
        // already judged be skipped (`memo`; not when tracing, which shows
        // every `let`)
        let option_runs = plan
            .options
            .as_ref()
            .filter(|_| !trace)
            .and_then(|_| memo::runs(tl));
        // the key of the run being walked (`walking`); the events before
        // `skip_to` are a run already judged
        let mut key: Option<memo::Key> = None;
        let mut skip_to = 0;
        for i in 0..tl.events.len() {
            if i < skip_to {
                continue;
            }
            if let (Some(memo), Some(runs)) = (&plan.options, &option_runs)
                && let Some(run) = runs.iter().flatten().find(|r| r.start == i)
            {
                let key = key.get_or_insert_with(memo::Key::take);
                if memo.held(tl, *run, &prog.consts, key) {
                    skip_to = run.end;
                    continue;
                }
                self.walking = Some((*run, true));
            }
            let ev = &tl.events[i];
            let r = row;
            // a move at which nothing is decided and no shadow differs: every
            // `let` and condition of it is a column, read where needed
            if ev.kind == Kind::Move
                && let Some(busy) = busy
                && !busy.get(r).copied().unwrap_or(true)
            {
                row += 1;
                continue;
            }
            // the move whose values the `let`s hold at this event: this one,
            // or the last before it
            let at = match (self.rows, ev.kind) {
                (Some(_), Kind::Move) => Some(r),
                _ => row.checked_sub(1),
            };
            let made;
            let facts = match (self.rows, ev.kind, &ev.data) {
                (Some(moves), Kind::Move, _) => {
                    row += 1;
                    moves.facts.get(r)
                }
                (_, _, Data::Move(p)) => {
                    made = tl.move_facts(p);
                    Some(&made)
                }
                _ => None,
            };
            let (on_lets, on_rules) = plan.triggered(ev.kind);
            let here = Here {
                i,
                ev,
                r,
                at,
                facts,
            };
            self.lets_at(here, on_lets);
            self.notes.clear();
            self.evidence.clear();
            let decisive = self.rules_at(here, on_rules);
            if let Some((run, held)) = self.walking
                && i + 1 == run.end
            {
                if let (true, Some(memo), Some(key)) = (held, &plan.options, &key) {
                    memo.keep(&prog.consts, key);
                }
                self.walking = None;
            }
            if ev.kind == Kind::Move {
                self.shadows_at(here, decisive);
            }
            if trace && ev.kind == Kind::Move {
                fill!(self, at, &(0..self.rs.lets.len()).collect::<Vec<usize>>());
                self.out
                    .trace
                    .push((ev.ply.unwrap_or(0), self.lets.clone()));
            }
        }
    }
}
