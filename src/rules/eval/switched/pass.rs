//! The pass over one game's events: each event's `let`s, then its rules,
//! then (at a move) each shadow's adjudications. What runs once per game
//! (the clocks, the game's fields, the columns, the shadows) is set up
//! before it; each event's steps are inlined into the loop.

use super::*;
use crate::timeline::{Event, MoveFacts};

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
    let rs = prog.ruleset;
    let clock = match prog.time_control {
        Some(tc) => crate::facts::clock::reconstruct(tc, tl),
        None => Vec::new(),
    };
    let cache = DetectorCache::default();
    let plan = Plan::of(rs);
    let game: Vec<(&'static str, Value)> = crate::timeline::fields_of(Kind::Game)
        .map(|f| (f, tl.field(0, Kind::Game, f)))
        .collect();
    let run = Run {
        tl: Some(tl),
        scope: None,
        consts: &prog.consts,
        detectors,
        clock: &clock,
        time_control: prog.time_control,
        cache: &cache,
        game: &game,
    };
    // the `let`s and conditions evaluated a column at a time, over the
    // moves (`rows`, each move's facts), before the pass below reads them
    let rows = columns::rows(plan, tl);
    let cols = rows
        .as_ref()
        .map(|moves| columns::evaluate(plan, rs, &run, moves, &prog.switches, flipped));
    // the moves the pass below must visit (where it visits every move:
    // none)
    let busy = match (&cols, trace) {
        (Some(gc), false) => gc.busy(
            plan,
            rs,
            flipped,
            rows.as_ref().map_or(0, |m| m.facts.len()),
        ),
        _ => None,
    };
    let mut pass = Pass::new(prog, &run, path, rows.as_ref(), cols.as_ref(), flipped);
    pass.events(tl, trace, busy.as_deref());
    pass.finish()
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
    cols: Option<&'p columns::GameColumns>,
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
                if let Some(c) = &gc.lets[l]
                    && $p.filled[l] != at
                {
                    $p.lets[l] = c.value_at(at);
                    $p.filled[l] = at;
                }
            }
        }
    };
}

impl<'p, 't> Pass<'p, 't> {
    /// The pass before the game's first event, over the game's moves and
    /// columns where the ruleset has some, its shadows those of the
    /// switches of `flipped`.
    fn new(
        prog: &'p Program<'p>,
        run: &'p Run<'p, 't>,
        path: &'p str,
        rows: Option<&'p columns::Moves<'p>>,
        cols: Option<&'p columns::GameColumns>,
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

    /// The `let`s of the event (`on_lets`), the real pass's and each
    /// shadow's.
    #[inline(always)]
    fn lets_at(&mut self, here: Here<'_>, on_lets: &[usize]) {
        let r = here.r;
        let plan = self.plan;
        for &j in on_lets {
            // a column: its value at this move, the real pass's and each
            // shadow's (a shadow's differs only where it has a column)
            if let Some(gc) = self.cols
                && let Some(c) = &gc.lets[j]
            {
                if self.readers[j] != 0 {
                    // (a shadow none of whose `let`s differs anywhere in
                    // the game has nothing to set)
                    for (sh, own) in self
                        .shadows
                        .iter_mut()
                        .zip(&gc.shadows)
                        .filter(|(_, o)| o.any)
                    {
                        let d = match &own.lets[j] {
                            Some(o) if sh.open() => {
                                let v = o.value_at(r);
                                let differs = !identical(&v, &c.value_at(r));
                                sh.lets[j] = v;
                                differs
                            }
                            _ => false,
                        };
                        sh.set_differs(j, d);
                    }
                }
                continue;
            }
            fill!(self, here.at, &plan.let_inputs[j].lets);
            // A shadow evaluates the `let` only where its value can differ
            // from the real pass's: it reads the flipped switch, or a `let`
            // whose shadow value differs now, or its state is the shadow's
            // own. Otherwise it has the real value, and its state (left
            // as it was) is copied from the real pass's, before this
            // event advances it, once the shadow needs it.
            let shadowed = self.readers[j] != 0;
            for (k, sh) in self.shadows.iter_mut().enumerate().filter(|_| shadowed) {
                // a shadow whose outcome is decided has nothing left to
                // find: nothing of it is read again
                let must = sh.open()
                    && plan.depends[sh.flipped].lets[j]
                    && (sh.own[j] || plan.let_inputs[j].differ(sh));
                self.evaluate[k] = must;
                if must && !sh.own[j] {
                    for &c in &plan.let_calls[j] {
                        sh.slots[c].clone_from(&self.slots[c]);
                    }
                }
            }
            let mut ctx = ctx!(self, here);
            ctx.advance(plan, &plan.let_calls[j]);
            let v = (plan.code.lets[j])(&mut ctx);
            self.lets[j] = v;
            for (k, sh) in self.shadows.iter_mut().enumerate().filter(|_| shadowed) {
                if self.evaluate[k] {
                    let mut c = ctx!(shadow self, sh, here);
                    c.advance(plan, &plan.let_calls[j]);
                    let v = (plan.code.lets[j])(&mut c);
                    let d = !identical(&v, &self.lets[j]);
                    sh.set_differs(j, d);
                    sh.lets[j] = v;
                    // its state is its own while it differs from the real
                    // pass's
                    sh.own[j] = plan.let_calls[j]
                        .iter()
                        .any(|&c| sh.slots[c] != self.slots[c]);
                } else {
                    sh.set_differs(j, false);
                }
            }
        }
    }

    /// The rules of the event (`on_rules`), the real pass's: whether an
    /// adjudication fired, or could not be decided, there (a shadow reads
    /// that verdict).
    #[inline(always)]
    fn rules_at(&mut self, here: Here<'_>, on_rules: &[usize]) -> bool {
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
                        Verdict::Violation => {
                            let f = violation(rule, &mut ctx, ev, self.path, &rs.path);
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

    /// Each shadow's adjudications at a move's event, in the rules' order,
    /// until its outcome is decided; `decisive`: whether the real pass's
    /// decided something there.
    #[inline(always)]
    fn shadows_at(&mut self, here: Here<'_>, decisive: bool) {
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

/// The adjudication computed at a move where `rule` fired, evaluated in
/// `ctx`; `Err` with the value when the result is not a side or a draw.
fn computed_at(
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
