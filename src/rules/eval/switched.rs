//! One pass with switches: the real program and, for each switch, a
//! shadow that evaluates only what the flipped switch can change and reads
//! the real pass's values for the rest.

use super::*;

/// What the switches read: for each `let` and each adjudication, whether
/// its value can change when one switch is flipped, directly or through the
/// `let`s it reads (a `let` reads only `let`s defined before it).
#[derive(Debug, Clone)]
pub(super) struct Depends {
    pub(super) lets: Vec<bool>,
    pub(super) rules: Vec<bool>,
}

impl Depends {
    /// From what each `let` and adjudication reads directly (`lets`,
    /// `rules`: [`Inputs`]), which of them read `switch`, directly or
    /// through earlier `let`s.
    pub(super) fn on(lets: &[Inputs], rules: &[Inputs], switch: usize) -> Depends {
        let mut depends = vec![false; lets.len()];
        let reads = |i: &Inputs, depends: &[bool]| {
            i.switches.contains(&switch)
                || i.lets
                    .iter()
                    .any(|&l| depends.get(l).copied().unwrap_or(false))
        };
        for j in 0..lets.len() {
            depends[j] = reads(&lets[j], &depends);
        }
        let rules = rules.iter().map(|r| reads(r, &depends)).collect();
        Depends {
            lets: depends,
            rules,
        }
    }
}

/// The game evaluated as if one switch were flipped, kept beside the real
/// evaluation in the same pass: only the `let`s and adjudications that read
/// the switch are evaluated again, with their own state; every other value
/// is the real evaluation's.
pub(super) struct Shadow {
    /// The switch it flips.
    pub(super) flipped: usize,
    pub(super) switches: Vec<bool>,
    /// Its value of each `let` that differs from the real pass's (see
    /// `differs`); the others are stale, and read from the real pass.
    pub(super) lets: Vec<Value>,
    /// Whether its value of each `let` differs from the real pass's at the
    /// current event.
    pub(super) differs: Vec<bool>,
    /// How many of `differs` are true.
    pub(super) differing: usize,
    pub(super) slots: Vec<Slot>,
    /// The `let`s whose stateful calls' state is the shadow's own (it
    /// differs from the real pass's); the state of the others has followed
    /// the real pass's, and is copied from it when the shadow needs it.
    pub(super) own: Vec<bool>,
    pub(super) computed: Option<Computed>,
    pub(super) undecided_from: Option<u32>,
}

impl Shadow {
    /// Mark whether its value of `let` `j` differs from the real pass's
    /// at the current event.
    #[inline]
    pub(super) fn set_differs(&mut self, j: usize, d: bool) {
        if self.differs[j] != d {
            self.differs[j] = d;
            if d {
                self.differing += 1;
            } else {
                self.differing -= 1;
            }
        }
    }

    /// Whether its outcome is still open: no adjudication has fired in it,
    /// and none was undecided.
    pub(super) fn open(&self) -> bool {
        self.computed.is_none() && self.undecided_from.is_none()
    }
}

/// Whether two values are the same to every reader: equal, and a number
/// with the same bits (`-0` is not `0` to a message).
pub(super) fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// What a `let` or an adjudication reads directly: the `let`s and the
/// switches.
#[derive(Debug, Clone)]
pub(super) struct Inputs {
    pub(super) lets: Vec<usize>,
    pub(super) switches: Vec<usize>,
}

impl Inputs {
    pub(super) fn of<'e>(exprs: impl IntoIterator<Item = &'e CExpr>) -> Inputs {
        fn walk(e: &CExpr, out: &mut Inputs) {
            match e {
                CExpr::Let(l) => out.lets.push(*l),
                CExpr::Switch(s) => out.switches.push(*s),
                _ => e.each_child(&mut |x| walk(x, out)),
            }
        }
        let mut out = Inputs {
            lets: Vec::new(),
            switches: Vec::new(),
        };
        for e in exprs {
            walk(e, &mut out);
        }
        out.lets.sort_unstable();
        out.lets.dedup();
        out
    }

    /// Whether an expression with these inputs can give `sh` another value
    /// than the real pass at the current event, its state aside.
    pub(super) fn differ(&self, sh: &Shadow) -> bool {
        self.switches.contains(&sh.flipped) || self.lets.iter().any(|&r| sh.differs[r])
    }
}

/// What an adjudication evaluates: its condition, result, record and
/// message.
pub(super) fn adjudication_inputs(rule: &RuleDef) -> Inputs {
    match &rule.check {
        Check::Adjudicate { .. } => Inputs::of(rule.expressions()),
        _ => Inputs::of([]),
    }
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
    let mut out = Outcome::default();
    let mut slots = vec![Slot::default(); rs.slots];
    let mut lets: Vec<Value> = vec![Value::None; rs.lets.len()];
    let mut notes: Vec<Note> = Vec::new();
    let mut indeterminate: BTreeMap<String, Indeterminate> = BTreeMap::new();
    // Once an adjudication cannot be decided at some ply, no later (or
    // lower-priority) adjudication can be trusted: the game may have ended
    // there.
    let mut undecided_from: Option<u32> = None;
    let clock = match prog.time_control {
        Some(tc) => crate::facts::clock::reconstruct(tc, tl),
        None => Vec::new(),
    };
    let cache = DetectorCache::default();
    let mut evidence: Vec<(String, Option<Evidence>)> = Vec::new();
    let plan = Plan::of(rs);
    let mut shadows: Vec<Shadow> = flipped
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
    // what each adjudication gave at the current move, for the shadows
    let mut fired_at: Vec<Truth> = vec![Truth::Other; rs.rules.len()];
    // a shadow's notes and evidence are its own and are not reported
    let mut shadow_notes: Vec<Note> = Vec::new();
    let mut shadow_evidence: Vec<(String, Option<Evidence>)> = Vec::new();
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
    // the context of event `i`, for a `let` or a rule
    macro_rules! ctx {
        ($i:expr, $facts:expr) => {
            ctx!(
                $i,
                $facts,
                &prog.switches,
                &lets,
                &mut slots,
                &mut notes,
                None,
                &mut evidence
            )
        };
        // a shadow's: its switches, `let`s, state, notes and evidence,
        // reading the real pass's `let`s where its own do not differ
        (shadow $sh:ident, $i:expr, $facts:expr) => {
            ctx!(
                $i,
                $facts,
                &$sh.switches,
                &$sh.lets,
                &mut $sh.slots,
                &mut shadow_notes,
                Some((&lets, &$sh.differs)),
                &mut shadow_evidence
            )
        };
        ($i:expr, $facts:expr, $switches:expr, $lets:expr, $slots:expr, $notes:expr, $overlay:expr, $evidence:expr) => {
            Ctx {
                run: &run,
                i: $i,
                switches: $switches,
                lets: $lets,
                overlay: $overlay,
                slots: $slots,
                notes: $notes,
                evidence: $evidence,
                facts: $facts,
            }
        };
    }
    // which shadows evaluate the current `let`
    let mut evaluate: Vec<bool> = vec![false; shadows.len()];
    // for each `let`, the shadows whose flipped switch it reads (directly
    // or through earlier `let`s), as bits (all of them past 64 shadows):
    // a `let` that reads none is the real pass's alone
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
    // the current move's place among the moves
    let mut row: usize = 0;
    // for each `let` a column holds: the move whose value `lets` holds. A
    // column's value is put there only where something evaluated in this
    // pass reads it (`fill!`)
    let mut filled: Vec<usize> = vec![usize::MAX; rs.lets.len()];
    // the game's runs of option events, where the ruleset lets a run
    // already judged be skipped (`memo`; not when tracing, which shows
    // every `let`)
    let option_runs = plan
        .options
        .as_ref()
        .filter(|_| !trace)
        .and_then(|_| memo::runs(tl));
    // the key of the run being walked, and whether every rule has held in
    // it so far; the events before `skip_to` are a run already judged
    let mut key: Option<memo::Key> = None;
    let mut walking: Option<(memo::OptionRun, bool)> = None;
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
            walking = Some((*run, true));
        }
        let ev = &tl.events[i];
        let r = row;
        // a move at which nothing is decided and no shadow differs: every
        // `let` and condition of it is a column, read where needed
        if ev.kind == Kind::Move
            && let Some(busy) = &busy
            && !busy.get(r).copied().unwrap_or(true)
        {
            row += 1;
            continue;
        }
        // the move whose values the `let`s hold at this event: this one,
        // or the last before it
        let at = match (&rows, ev.kind) {
            (Some(_), Kind::Move) => Some(r),
            _ => row.checked_sub(1),
        };
        macro_rules! fill {
            ($needed:expr) => {
                if let (Some(gc), Some(at)) = (&cols, at) {
                    for &l in $needed {
                        if let Some(c) = &gc.lets[l]
                            && filled[l] != at
                        {
                            lets[l] = c.value_at(at);
                            filled[l] = at;
                        }
                    }
                }
            };
        }
        let made;
        let facts = match (&rows, ev.kind, &ev.data) {
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
        for &j in on_lets {
            // a column: its value at this move, the real pass's and each
            // shadow's (a shadow's differs only where it has a column)
            if let Some(gc) = &cols
                && let Some(c) = &gc.lets[j]
            {
                if readers[j] != 0 {
                    // (a shadow none of whose `let`s differs anywhere in
                    // the game has nothing to set)
                    for (sh, own) in shadows.iter_mut().zip(&gc.shadows).filter(|(_, o)| o.any) {
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
            fill!(&plan.let_inputs[j].lets);
            // A shadow evaluates the `let` only where its value can differ
            // from the real pass's: it reads the flipped switch, or a `let`
            // whose shadow value differs now, or its state is the shadow's
            // own. Otherwise it has the real value, and its state (left
            // as it was) is copied from the real pass's, before this
            // event advances it, once the shadow needs it.
            let shadowed = readers[j] != 0;
            for (k, sh) in shadows.iter_mut().enumerate().filter(|_| shadowed) {
                // a shadow whose outcome is decided has nothing left to
                // find: nothing of it is read again
                let must = sh.open()
                    && plan.depends[sh.flipped].lets[j]
                    && (sh.own[j] || plan.let_inputs[j].differ(sh));
                evaluate[k] = must;
                if must && !sh.own[j] {
                    for &c in &plan.let_calls[j] {
                        sh.slots[c].clone_from(&slots[c]);
                    }
                }
            }
            let mut ctx = ctx!(i, facts);
            ctx.advance(plan, &plan.let_calls[j]);
            let v = (plan.code.lets[j])(&mut ctx);
            lets[j] = v;
            for (k, sh) in shadows.iter_mut().enumerate().filter(|_| shadowed) {
                if evaluate[k] {
                    let mut c = ctx!(shadow sh, i, facts);
                    c.advance(plan, &plan.let_calls[j]);
                    let v = (plan.code.lets[j])(&mut c);
                    let d = !identical(&v, &lets[j]);
                    sh.set_differs(j, d);
                    sh.lets[j] = v;
                    // its state is its own while it differs from the real
                    // pass's
                    sh.own[j] = plan.let_calls[j].iter().any(|&c| sh.slots[c] != slots[c]);
                } else {
                    sh.set_differs(j, false);
                }
            }
        }
        notes.clear();
        evidence.clear();
        // whether an adjudication of the real pass fired, or could not be
        // decided, at this event: a shadow reads that verdict
        let mut decisive = false;
        for &ri in on_rules {
            let rule = &rs.rules[ri];
            // a condition a column holds, read there: nothing else of the
            // rule is evaluated unless it fires
            let column = cols
                .as_ref()
                .and_then(|c| c.rules[ri].as_ref())
                .map(|c| *c.at(r));
            if let Some(t) = column {
                let decides = match &rule.check {
                    Check::Adjudicate { .. } => {
                        fired_at[ri] = t;
                        let d = matches!(t, Truth::True | Truth::Unknown);
                        decisive |= d;
                        d && out.computed.is_none() && undecided_from.is_none()
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
            fill!(&plan.columns.rule_reads[ri]);
            let mut ctx = ctx!(i, facts);
            match &rule.check {
                Check::Manual(_) => {}
                Check::Adjudicate {
                    result, records, ..
                } => {
                    ctx.advance(plan, &plan.rule_calls[ri]);
                    // a condition fires when it is `true` (the truth of a
                    // value is `true` for that value alone)
                    let fired = column.unwrap_or_else(|| plan.code.condition(ri, &mut ctx));
                    let open = out.computed.is_none() && undecided_from.is_none();
                    match fired {
                        Truth::True if open => {
                            match computed_at(
                                rule,
                                result,
                                records.as_ref(),
                                &mut ctx,
                                ev.ply.unwrap_or(0),
                            ) {
                                Ok(c) => out.computed = Some(c),
                                Err(r) => {
                                    indeterminate.entry(rule.id.clone()).or_insert(Indeterminate {
                                        rule: rule.id.clone(),
                                        ply: ev.ply,
                                        reason: format!("the result expression gave {}, not white, black or draw", r.display()),
                                    });
                                }
                            }
                        }
                        Truth::Unknown if open => {
                            undecided_from = ev.ply;
                            let reason = ctx
                                .notes
                                .first()
                                .map(Note::to_string)
                                .unwrap_or_else(|| "a value was unknown".into());
                            indeterminate
                                .entry(rule.id.clone())
                                .or_insert(Indeterminate {
                                    rule: rule.id.clone(),
                                    ply: ev.ply,
                                    reason,
                                });
                        }
                        _ => {}
                    }
                    fired_at[ri] = fired;
                    decisive |= matches!(fired, Truth::True | Truth::Unknown);
                }
                Check::Forbid { .. } | Check::Require { .. } => {
                    ctx.advance(plan, &plan.rule_calls[ri]);
                    let v = column.unwrap_or_else(|| plan.code.condition(ri, &mut ctx));
                    let verdict = verdict_with(&rule.check, v);
                    if let Some((_, held)) = &mut walking
                        && !matches!(verdict, Verdict::Holds)
                    {
                        *held = false;
                    }
                    match verdict {
                        Verdict::Violation => {
                            let f = violation(rule, &mut ctx, ev, path, &rs.path);
                            out.findings.push(f);
                        }
                        Verdict::Unknown => note_unknown(&mut indeterminate, rule, ev.ply, &ctx),
                        Verdict::Holds => {}
                    }
                }
            }
            notes.clear();
            evidence.clear();
        }
        if let Some((run, held)) = walking
            && i + 1 == run.end
        {
            if let (true, Some(memo), Some(key)) = (held, &plan.options, &key) {
                memo.keep(&prog.consts, key);
            }
            walking = None;
        }
        if ev.kind == Kind::Move {
            // each shadow's adjudications, in the rules' order, until its
            // outcome is decided
            for (k, sh) in shadows.iter_mut().enumerate().filter(|(_, sh)| sh.open()) {
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
                    if !own && !matches!(fired_at[ri], Truth::True | Truth::Unknown) {
                        // the real pass's verdict, which decides nothing
                        continue;
                    }
                    let open = sh.open();
                    fill!(&plan.columns.rule_reads[ri]);
                    let mut c = if own {
                        ctx!(shadow sh, i, facts)
                    } else {
                        ctx!(i, facts)
                    };
                    let fired = if own {
                        c.advance(plan, &plan.rule_calls[ri]);
                        // a column: the shadow's where it differs, else
                        // the real pass's
                        match cols.as_ref().and_then(|c| {
                            let real = c.rules[ri].as_ref()?;
                            Some(c.shadows[k].rules[ri].as_ref().unwrap_or(real))
                        }) {
                            Some(c) => *c.at(r),
                            None => plan.code.condition(ri, &mut c),
                        }
                    } else {
                        fired_at[ri]
                    };
                    match fired {
                        Truth::True if open => {
                            if let Ok(computed) = computed_at(
                                rule,
                                result,
                                records.as_ref(),
                                &mut c,
                                ev.ply.unwrap_or(0),
                            ) {
                                sh.computed = Some(computed);
                            }
                        }
                        Truth::Unknown if open => sh.undecided_from = ev.ply,
                        _ => {}
                    }
                    shadow_notes.clear();
                    shadow_evidence.clear();
                    notes.clear();
                    evidence.clear();
                }
            }
        }
        if trace && ev.kind == Kind::Move {
            fill!(&(0..rs.lets.len()).collect::<Vec<usize>>());
            out.trace.push((ev.ply.unwrap_or(0), lets.clone()));
        }
    }
    out.indeterminate = indeterminate.into_values().collect();
    out.undecided_from = undecided_from;
    (out, shadows.into_iter().map(|s| s.computed).collect())
}
