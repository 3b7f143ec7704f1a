//! The evaluator: runs a compiled ruleset over one game's timeline in a
//! single pass. Every `let` and rule is evaluated at most once per event, and
//! every stateful call advances exactly once per event of its kind (before
//! the expression that contains it is evaluated, so `and`/`or`/`if` cannot
//! skip it). Cost: linear in events × size of the ruleset.

use std::collections::BTreeMap;

use shakmaty::Position;
use shakmaty_syzygy::{AmbiguousWdl, SyzygyError, Tablebase};

use super::analyzer::{
    Builtin, CExpr, CTemplatePart, Check, Detector, RuleDef, Ruleset, Stateful, StatefulFn,
    TimeControlDef,
};
use super::ast::{BinOp, UnOp};
use crate::findings::{Evidence, Finding};
use crate::timeline::{ClockField, Data, Kind, MoveField, Timeline, Value};

/// The reason given when a rule calls a detector this version lacks; such
/// rules are listed once per run (see [`Ruleset::unavailable`]), not per game.
pub const UNAVAILABLE: &str = "this version of arbiter has no detector";

/// Evaluate constants in order, applying `overrides` (index, expression).
pub fn const_values(consts: &[(String, CExpr)], overrides: &[(usize, CExpr)]) -> Vec<Value> {
    let mut vals: Vec<Value> = Vec::with_capacity(consts.len());
    for (i, (_, e)) in consts.iter().enumerate() {
        let e = overrides
            .iter()
            .rev()
            .find(|(j, _)| *j == i)
            .map_or(e, |(_, o)| o);
        let v = eval_const(e, &vals);
        vals.push(v);
    }
    vals
}

/// Evaluate an expression that depends on nothing but constants.
pub fn eval_const(e: &CExpr, consts: &[Value]) -> Value {
    eval_stateless(None, 0, consts, &[], e)
}

/// Evaluate an expression that keeps no state and calls no detector:
/// constants, variant conditions, labels.
fn eval_stateless(
    tl: Option<&Timeline<'_>>,
    i: usize,
    consts: &[Value],
    switches: &[bool],
    e: &CExpr,
) -> Value {
    let run = Run {
        tl,
        scope: None,
        consts,
        detectors: &Detectors::default(),
        clock: &[],
        time_control: None,
        cache: &DetectorCache::default(),
        game: &[],
    };
    let mut ctx = Ctx {
        run: &run,
        i,
        switches,
        lets: &[],
        overlay: None,
        slots: &mut [],
        notes: &mut Vec::new(),
        evidence: &mut Vec::new(),
        facts: None,
    };
    ctx.eval(e)
}

/// External oracles the rules may call.
#[derive(Default)]
pub struct Detectors {
    pub tablebase: Option<Tablebase<shakmaty::Chess>>,
    /// A report of `arbiter similarity` (active or passive).
    pub similarity: Option<crate::similarity::Loaded>,
}

impl std::fmt::Debug for Detectors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Detectors")
            .field(
                "tablebase",
                &self.tablebase.as_ref().map(|t| t.max_pieces()),
            )
            .finish()
    }
}

impl Detectors {
    /// Load Syzygy tables from a directory.
    pub fn with_syzygy(dir: &std::path::Path) -> std::io::Result<Detectors> {
        let mut tb = Tablebase::new();
        tb.add_directory(dir)?;
        Ok(Detectors {
            tablebase: Some(tb),
            similarity: None,
        })
    }
}

/// A ruleset instantiated for one variant: constants and switches resolved.
#[derive(Debug, Clone)]
pub struct Program<'r> {
    pub ruleset: &'r Ruleset,
    pub variant: Option<String>,
    pub consts: Vec<Value>,
    pub switches: Vec<bool>,
    pub time_control: Option<&'r TimeControlDef>,
}

/// Values given to constants and switches over the ruleset's and its
/// variant's (what `arbiter rules fit` tries): `(index, value)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    pub consts: Vec<(usize, Value)>,
    pub switches: Vec<(usize, bool)>,
}

impl<'r> Program<'r> {
    /// The base ruleset, or one variant of it (with its ancestors).
    pub fn new(rs: &'r Ruleset, variant: Option<&str>) -> Result<Program<'r>, String> {
        Program::with(rs, variant, &Overrides::default())
    }

    /// [`Program::new`], then `over` over the variant's values (a constant
    /// given a value there also changes the constants computed from it).
    pub fn with(
        rs: &'r Ruleset,
        variant: Option<&str>,
        over: &Overrides,
    ) -> Result<Program<'r>, String> {
        let mut overrides = Vec::new();
        let mut switches: Vec<bool> = rs.switches.iter().map(|s| s.default).collect();
        let mut tc = rs.time_control.clone();
        if let Some(name) = variant {
            let Some(vi) = rs.variants.iter().position(|v| v.name == name) else {
                let known: Vec<&str> = rs.variants.iter().map(|v| v.name.as_str()).collect();
                return Err(format!(
                    "ruleset {} has no variant `{name}`; its variants: {}",
                    rs.id,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            };
            let v = &rs.variants[vi];
            for &a in v.ancestors.iter().chain(std::iter::once(&vi)) {
                let av = &rs.variants[a];
                overrides.extend(av.consts.iter().cloned());
                for &(s, b) in &av.switches {
                    switches[s] = b;
                }
                if av.time_control.is_some() {
                    tc = av.time_control.clone();
                }
            }
        }
        for (i, v) in &over.consts {
            overrides.push((*i, CExpr::Lit(v.clone())));
        }
        for &(s, b) in &over.switches {
            if let Some(at) = switches.get_mut(s) {
                *at = b;
            }
        }
        Ok(Program {
            ruleset: rs,
            variant: variant.map(str::to_string),
            consts: const_values(&rs.consts, &overrides),
            switches,
            time_control: tc.and_then(|n| rs.time_controls.iter().find(|t| t.name == n)),
        })
    }

    /// The variant that applies to a game: the forced one, else the first
    /// whose `applies when` holds, else the base ruleset.
    pub fn for_game(
        rs: &'r Ruleset,
        forced: Option<&str>,
        tl: &Timeline<'_>,
    ) -> Result<Program<'r>, String> {
        Program::for_game_with(rs, forced, tl, &Overrides::default())
    }

    /// [`Program::for_game`] with `over` (the variant is chosen by the
    /// ruleset's own values).
    pub fn for_game_with(
        rs: &'r Ruleset,
        forced: Option<&str>,
        tl: &Timeline<'_>,
        over: &Overrides,
    ) -> Result<Program<'r>, String> {
        if forced.is_some() {
            return Program::with(rs, forced, over);
        }
        let base = Program::new(rs, None)?;
        for v in &rs.variants {
            if let Some(a) = &v.applies
                && eval_stateless(Some(tl), 0, &base.consts, &base.switches, a) == Value::Bool(true)
            {
                return Program::with(rs, Some(&v.name), over);
            }
        }
        if *over == Overrides::default() {
            return Ok(base);
        }
        Program::with(rs, None, over)
    }
}

/// What the rules computed for the end of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    pub rule: String,
    pub ply: u32,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The termination text the software would record, when the rule says.
    pub records: Option<String>,
    /// The rule's message, evaluated where it fired.
    pub message: Option<String>,
}

/// A rule that could not be decided at some event, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Indeterminate {
    pub rule: String,
    pub ply: Option<u32>,
    pub reason: String,
}

/// The outcome of evaluating a ruleset on one game.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub computed: Option<Computed>,
    pub findings: Vec<Finding>,
    pub indeterminate: Vec<Indeterminate>,
    /// For each move event (in order), the value of every `let`.
    pub trace: Vec<(u32, Vec<Value>)>,
    /// The first ply at which an adjudication could not be decided; no
    /// adjudication is computed from there on.
    pub undecided_from: Option<u32>,
    /// For event-level rules: the item each finding is about.
    pub finding_items: Vec<usize>,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct Slot {
    value: Value,
    keyed: BTreeMap<String, Value>,
    /// The value this slot returns for the current event.
    current: Value,
}

/// What stays the same for a whole run over a game or an event: where its
/// events come from, the program's constants, the detectors, the clocks
/// and the game's fields.
struct Run<'c, 't> {
    tl: Option<&'c Timeline<'t>>,
    /// The event's case file, for event-level rules (then a context's `i`
    /// is an item).
    scope: Option<&'c crate::event::EventCase>,
    consts: &'c [Value],
    detectors: &'c Detectors,
    /// Both clocks along the game, under the program's time control.
    clock: &'c [crate::clock::ClockPly],
    /// The time control the clocks were reconstructed under.
    time_control: Option<&'c crate::rules::analyzer::TimeControlDef>,
    /// Whole-game analyses of the detectors, computed once per game.
    cache: &'c DetectorCache,
    /// The game's fields (its tags), read once per game; empty where the
    /// run has none ready (then they are read from the timeline).
    game: &'c [(&'static str, Value)],
}

/// One evaluation's context: the run, the event, and the state it reads
/// and advances (the real pass's, or a switch's shadow's).
struct Ctx<'c, 't> {
    run: &'c Run<'c, 't>,
    i: usize,
    switches: &'c [bool],
    lets: &'c [Value],
    /// In a switch's shadow: the real pass's `let`s and which of the
    /// shadow's differ from them. A `let` that does not differ is read from
    /// the real pass (the shadow's own copy of it is not kept up to date).
    overlay: Option<(&'c [Value], &'c [bool])>,
    slots: &'c mut [Slot],
    /// Reasons a detector could not decide, for this event.
    notes: &'c mut Vec<String>,
    /// What a detector found, for the finding's message.
    evidence: &'c mut Vec<(String, Option<Evidence>)>,
    /// The current move's facts, found once per event.
    facts: Option<crate::timeline::MoveFacts<'c>>,
}

/// Whole-game detector results, by their parameters.
#[derive(Default)]
struct DetectorCache {
    hidden_book: std::cell::RefCell<
        Vec<(
            crate::detect::hidden_book::Params,
            std::rc::Rc<Vec<crate::detect::hidden_book::Assessment>>,
        )>,
    >,
}

/// The item of `ply` in a list made one per ply, in order, from ply
/// `first`: found at its place, else (were the list to have a gap) by a
/// search.
fn at_ply<T>(items: &[T], first: u32, ply: u32, ply_of: impl Fn(&T) -> u32) -> Option<&T> {
    match ply.checked_sub(first).and_then(|i| items.get(i as usize)) {
        Some(x) if ply_of(x) == ply => Some(x),
        _ => items.iter().find(|x| ply_of(x) == ply),
    }
}

/// The clock row of a ply (the reconstruction makes one per ply).
fn clock_row(clock: &[crate::clock::ClockPly], ply: u32) -> Option<&crate::clock::ClockPly> {
    at_ply(clock, clock.first()?.ply, ply, |c| c.ply)
}

/// The stateful calls inside `e`, in the order they advance (the order of
/// the expression, left to right; a stateful call's own arguments hold
/// none, as the analyzer forbids nesting them).
fn stateful_calls<'e>(e: &'e CExpr, out: &mut Vec<&'e Stateful>) {
    match e {
        CExpr::Stateful(s) => out.push(s),
        _ => e.each_child(&mut |x| stateful_calls(x, out)),
    }
}

/// What the evaluator reads of a ruleset's structure, found the first time
/// the ruleset runs and kept with it (not found again for every game): the
/// stateful calls each `let` and rule advances, what each reads, what reads
/// each switch, and the `let`s and rules each kind of event triggers.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Every stateful call, at its slot.
    statefuls: Vec<Option<Stateful>>,
    /// The slots of the stateful calls each `let` advances on its events:
    /// those of its expression, in order.
    let_calls: Vec<Vec<usize>>,
    /// The same for each rule: those of the expressions it evaluates
    /// ([`RuleDef::evaluated`]), in order.
    rule_calls: Vec<Vec<usize>>,
    /// What each `let` reads directly.
    let_inputs: Vec<Inputs>,
    /// What each adjudication evaluates (empty for the other rules).
    rule_inputs: Vec<Inputs>,
    /// For each switch, the `let`s and adjudications that read it.
    depends: Vec<Depends>,
    /// The `let`s and rules each kind of event triggers, in the ruleset's
    /// order: a `let` on that kind, a `forbid` or `require` on it, and every
    /// adjudication on a move. A kind not listed triggers none.
    by_kind: Vec<(Kind, Vec<usize>, Vec<usize>)>,
}

impl Plan {
    /// The plan of a ruleset, found once and kept with it.
    fn of(rs: &Ruleset) -> &Plan {
        rs.plan.get_or_init(|| Plan::find(rs))
    }

    fn find(rs: &Ruleset) -> Plan {
        let mut statefuls: Vec<Option<Stateful>> = vec![None; rs.slots];
        let mut slots_of = |exprs: &mut dyn Iterator<Item = &CExpr>| {
            let mut found = Vec::new();
            for e in exprs {
                stateful_calls(e, &mut found);
            }
            found
                .into_iter()
                .map(|s| {
                    if let Some(at) = statefuls.get_mut(s.slot) {
                        *at = Some(s.clone());
                    }
                    s.slot
                })
                .collect::<Vec<usize>>()
        };
        let let_calls = rs
            .lets
            .iter()
            .map(|l| slots_of(&mut std::iter::once(&l.expr)))
            .collect();
        let rule_calls = rs
            .rules
            .iter()
            .map(|rule| slots_of(&mut rule.evaluated()))
            .collect();
        let let_inputs: Vec<Inputs> = rs.lets.iter().map(|l| Inputs::of([&l.expr])).collect();
        let rule_inputs: Vec<Inputs> = rs.rules.iter().map(adjudication_inputs).collect();
        let depends = (0..rs.switches.len())
            .map(|s| Depends::on(&let_inputs, &rule_inputs, s))
            .collect();
        let mut kinds: Vec<Kind> = vec![Kind::Move];
        for k in rs
            .lets
            .iter()
            .map(|l| l.on)
            .chain(rs.rules.iter().filter_map(|r| match &r.check {
                Check::Forbid { on, .. } | Check::Require { on, .. } => Some(*on),
                _ => None,
            }))
        {
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
        let by_kind = kinds
            .into_iter()
            .map(|kind| {
                let lets = (0..rs.lets.len())
                    .filter(|&j| rs.lets[j].on == kind)
                    .collect();
                let rules = (0..rs.rules.len())
                    .filter(|&r| match &rs.rules[r].check {
                        Check::Manual(_) => false,
                        Check::Adjudicate { .. } => kind == Kind::Move,
                        Check::Forbid { on, .. } | Check::Require { on, .. } => *on == kind,
                    })
                    .collect();
                (kind, lets, rules)
            })
            .collect();
        Plan {
            statefuls,
            let_calls,
            rule_calls,
            let_inputs,
            rule_inputs,
            depends,
            by_kind,
        }
    }

    /// The indices of the `let`s and of the rules that events of `kind`
    /// trigger.
    fn triggered(&self, kind: Kind) -> (&[usize], &[usize]) {
        match self.by_kind.iter().find(|(k, ..)| *k == kind) {
            Some((_, lets, rules)) => (lets, rules),
            None => (&[], &[]),
        }
    }
}

fn truthy(v: &Value) -> bool {
    *v == Value::Bool(true)
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Num(n) => Some(*n),
        _ => None,
    }
}

impl Ctx<'_, '_> {
    /// The kind of the current event or item.
    fn kind(&self) -> Option<Kind> {
        match (self.run.tl, self.run.scope) {
            (Some(t), _) => t.events.get(self.i).map(|e| e.kind),
            (None, Some(c)) => c.items.get(self.i).map(|it| Kind::Scope(it.kind)),
            (None, None) => None,
        }
    }

    /// The value of `let` number `i` at the current event (in a shadow, the
    /// real pass's where the shadow's does not differ from it).
    #[inline]
    fn let_at(&self, i: usize) -> Option<&Value> {
        match self.overlay {
            Some((real, differs)) if !differs.get(i).copied().unwrap_or(false) => real.get(i),
            _ => self.lets.get(i),
        }
    }

    /// Advance stateful calls (a `let`'s or a rule's, by their slots in [`Plan`]) for the
    /// current event, in order.
    fn advance(&mut self, plan: &Plan, calls: &[usize]) {
        for &slot in calls {
            if let Some(Some(s)) = plan.statefuls.get(slot) {
                self.advance_one(s);
            }
        }
    }

    /// Advance one stateful call for the current event.
    fn advance_one(&mut self, s: &Stateful) {
        if self.kind() != Some(s.on) {
            return;
        }
        let reset = s.reset.as_ref().is_some_and(|r| truthy(&self.eval(r)));
        let over = s.over.as_ref().is_none_or(|o| truthy(&self.eval(o)));
        let arg = self.eval(&s.arg);
        let key = s.per.as_ref().map(|p| self.eval(p));
        let slot = &mut self.slots[s.slot];
        let state = match &key {
            // a text key (a side, a name) is looked up as it is;
            // a new key is stored once
            Some(Value::Str(t)) => {
                if !slot.keyed.contains_key(t.as_str()) {
                    slot.keyed.insert(t.to_string(), Value::None);
                }
                slot.keyed.get_mut(t.as_str()).expect("just ensured")
            }
            Some(k) => slot.keyed.entry(k.display()).or_default(),
            None => &mut slot.value,
        };
        let n = num(state).unwrap_or(0.0);
        let (next, current) = match s.func {
            StatefulFn::Streak => {
                let v = if reset {
                    0.0
                } else if !over {
                    n
                } else if truthy(&arg) {
                    n + 1.0
                } else {
                    0.0
                };
                (Value::Num(v), Value::Num(v))
            }
            StatefulFn::Count => {
                let v = if reset {
                    0.0
                } else if over && truthy(&arg) {
                    n + 1.0
                } else {
                    n
                };
                (Value::Num(v), Value::Num(v))
            }
            StatefulFn::Sum => {
                let v = if reset {
                    0.0
                } else if over {
                    n + num(&arg).unwrap_or(0.0)
                } else {
                    n
                };
                (Value::Num(v), Value::Num(v))
            }
            StatefulFn::Since => {
                let b = !reset && (truthy(state) || (over && truthy(&arg)));
                (Value::Bool(b), Value::Bool(b))
            }
            StatefulFn::Last => {
                let v = if reset {
                    Value::None
                } else if over {
                    arg
                } else {
                    state.clone()
                };
                (v.clone(), v)
            }
            StatefulFn::Previous => {
                let before = if reset { Value::None } else { state.clone() };
                if over {
                    (arg, before)
                } else {
                    (state.clone(), before)
                }
            }
        };
        *state = next;
        slot.current = current;
    }

    fn eval(&mut self, e: &CExpr) -> Value {
        match e {
            CExpr::Lit(v) => v.clone(),
            CExpr::Const(i) => self.run.consts.get(*i).cloned().unwrap_or(Value::None),
            CExpr::Let(i) => self.let_at(*i).cloned().unwrap_or(Value::None),
            CExpr::Switch(i) => Value::Bool(self.switches.get(*i).copied().unwrap_or(false)),
            CExpr::Move(f, name) => self.move_field(*f, name),
            CExpr::Field(Kind::Engine(crate::align::EngKind::Search), "game_clock") => {
                self.game_clock()
            }
            CExpr::Field(Kind::Game, f) if !self.run.game.is_empty() => {
                // the field's name is nearly always the same text as the
                // list's, found by its address; else by its letters
                let game = self.run.game;
                match game
                    .iter()
                    .find(|(n, _)| std::ptr::eq(*n, *f))
                    .or_else(|| game.iter().find(|(n, _)| n == f))
                {
                    Some((_, v)) => v.clone(),
                    None => Value::None,
                }
            }
            CExpr::Field(Kind::Scope(k), f) => match self.run.scope {
                Some(c) => c.field(self.i, *k, f),
                None => Value::None,
            },
            CExpr::Field(k, f) => match self.run.tl {
                Some(tl) => tl.field(self.i, *k, f),
                None => Value::None,
            },
            // every operator goes through `num` or `truth`, which make no
            // `Value` on the way (each handles every operator sent to it)
            CExpr::Unary(UnOp::Neg, _)
            | CExpr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, ..) => {
                self.num(e).value()
            }
            CExpr::Unary(UnOp::Not, _)
            | CExpr::Binary(
                BinOp::And
                | BinOp::Or
                | BinOp::Eq
                | BinOp::Ne
                | BinOp::In
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge,
                ..,
            )
            | CExpr::Short(..) => self.truth(e).value(),
            CExpr::If(c, a, b) => match self.truth(c) {
                Truth::True => self.eval(a),
                Truth::Unknown => Value::Unknown,
                _ => self.eval(b),
            },
            CExpr::List(l) => Value::List(l.iter().map(|x| self.eval(x)).collect()),
            CExpr::Call(f, args) => {
                // every builtin takes one or two arguments (the analyzer
                // checks): no list is allocated for them
                let mut vals = [Value::None, Value::None];
                for (k, a) in args.iter().enumerate() {
                    let v = self.eval(a);
                    if let Some(slot) = vals.get_mut(k) {
                        *slot = v;
                    }
                }
                self.builtin(*f, vals)
            }
            CExpr::Stateful(s) => self
                .slots
                .get(s.slot)
                .map_or(Value::None, |sl| sl.current.clone()),
            CExpr::Detector(d, params) => {
                // a detector takes at most five parameters (the analyzer
                // checks their names): they are evaluated on the stack
                let mut given: [(&str, Value); 5] = Default::default();
                if params.len() <= given.len() {
                    for (slot, (k, v)) in given.iter_mut().zip(params) {
                        *slot = (k.as_str(), self.eval(v));
                    }
                    self.detect(*d, &given[..params.len()])
                } else {
                    let all: Vec<(&str, Value)> = params
                        .iter()
                        .map(|(k, v)| (k.as_str(), self.eval(v)))
                        .collect();
                    self.detect(*d, &all)
                }
            }
        }
    }

    /// An expression as arithmetic and comparisons read it: the same as
    /// `eval` followed by [`Num::of`], without making a `Value` for the
    /// arithmetic inside it.
    fn num(&mut self, e: &CExpr) -> Num {
        match e {
            CExpr::Lit(v) => Num::of(v),
            CExpr::Const(i) => self.run.consts.get(*i).map_or(Num::Other, Num::of),
            CExpr::Let(i) => self.let_at(*i).map_or(Num::Other, Num::of),
            CExpr::Stateful(s) => self
                .slots
                .get(s.slot)
                .map_or(Num::Other, |sl| Num::of(&sl.current)),
            // the move's fields read here rather than through `move_field`:
            // the same values, and 1.05x the time through it (measured)
            CExpr::Move(MoveField::Clock(f), _) => Num::of(&self.clock_field(*f)),
            CExpr::Move(f, _) if self.facts.is_some() => self
                .facts
                .as_ref()
                .map_or(Num::Other, |m| Num::of(&m.get(*f))),
            CExpr::Unary(UnOp::Neg, a) => self.num(a).neg(),
            CExpr::If(c, a, b) => match self.truth(c) {
                Truth::True => self.num(a),
                Truth::Unknown => Num::Unknown,
                _ => self.num(b),
            },
            CExpr::Call(
                f @ (Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Round),
                args,
            ) if args.len() == 1 => self.num(&args[0]).call1(*f),
            CExpr::Call(f @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => {
                let x = self.num(&args[0]);
                x.call2(*f, self.num(&args[1]))
            }
            CExpr::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
                let x = self.num(a);
                x.arith(*op, self.num(b))
            }
            _ => Num::of(&self.eval(e)),
        }
    }

    /// An expression as logic reads it: the same as `eval` followed by
    /// [`Truth::of`], without making a `Value` for the comparisons and
    /// logic inside it.
    fn truth(&mut self, e: &CExpr) -> Truth {
        match e {
            CExpr::Lit(v) => Truth::of(v),
            CExpr::Let(i) => self.let_at(*i).map_or(Truth::Other, Truth::of),
            CExpr::Switch(i) => Truth::from(self.switches.get(*i).copied().unwrap_or(false)),
            // read here, as in `num`
            CExpr::Move(MoveField::Clock(f), _) => Truth::of(&self.clock_field(*f)),
            CExpr::Move(f, _) if self.facts.is_some() => self
                .facts
                .as_ref()
                .map_or(Truth::Other, |m| Truth::of(&m.get(*f))),
            CExpr::Unary(UnOp::Not, a) => self.truth(a).not(),
            CExpr::If(c, a, b) => match self.truth(c) {
                Truth::True => self.truth(a),
                Truth::Unknown => Truth::Unknown,
                _ => self.truth(b),
            },
            CExpr::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                let x = self.num(a);
                x.compare(*op, self.num(b))
            }
            CExpr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let same = match (&**a, &**b, &self.facts) {
                    // the side to move against a text (`move.side == white`)
                    (CExpr::Move(MoveField::Side, _), CExpr::Lit(Value::Str(t)), Some(m))
                    | (CExpr::Lit(Value::Str(t)), CExpr::Move(MoveField::Side, _), Some(m)) => {
                        m.side_is(t)
                    }
                    // a field of the move against a literal
                    // (`move.clock_flag == true`): compared in place
                    (CExpr::Move(f, name), CExpr::Lit(l), _)
                    | (CExpr::Lit(l), CExpr::Move(f, name), _) => {
                        let v = self.move_field(*f, name);
                        if matches!(v, Value::Unknown) || matches!(l, Value::Unknown) {
                            return Truth::Unknown;
                        }
                        v == *l
                    }
                    _ => {
                        let x = self.eval(a);
                        let y = self.eval(b);
                        if matches!(x, Value::Unknown) || matches!(y, Value::Unknown) {
                            return Truth::Unknown;
                        }
                        x == y
                    }
                };
                Truth::from(same == (*op == BinOp::Eq))
            }
            CExpr::Binary(BinOp::In, a, b) => {
                let x = self.eval(a);
                // a constant or literal list is read where it is, not copied
                let held = match &**b {
                    CExpr::Const(i) => self.run.consts.get(*i),
                    CExpr::Lit(v) => Some(v),
                    _ => None,
                };
                let made;
                let list = match held {
                    Some(l) => l,
                    None => {
                        made = self.eval(b);
                        &made
                    }
                };
                match (x, list) {
                    (Value::Unknown, _) | (_, Value::Unknown) => Truth::Unknown,
                    (x, Value::List(items)) => Truth::from(items.contains(&x)),
                    _ => Truth::False,
                }
            }
            CExpr::Binary(BinOp::And, a, b) => {
                let x = self.truth(a);
                x.and(self.truth(b))
            }
            CExpr::Binary(BinOp::Or, a, b) => {
                let x = self.truth(a);
                x.or(self.truth(b))
            }
            CExpr::Short(op, a, b) => match (op, self.truth(a)) {
                (BinOp::And, Truth::False) => Truth::False,
                (BinOp::Or, Truth::True) => Truth::True,
                (BinOp::And, x) => x.and(self.truth(b)),
                (_, x) => x.or(self.truth(b)),
            },
            _ => Truth::of(&self.eval(e)),
        }
    }

    /// A field of the current move: a clock field from the reconstructed
    /// clocks, the others from the move's facts (or, without them, from
    /// the timeline).
    fn move_field(&self, f: MoveField, name: &str) -> Value {
        match (f, &self.facts, self.run.tl) {
            (MoveField::Clock(c), ..) => self.clock_field(c),
            (_, Some(m), _) => m.get(f),
            (_, None, Some(tl)) => tl.field(self.i, Kind::Move, name),
            (_, None, None) => Value::None,
        }
    }

    /// A clock field of the current move, from the reconstructed clocks.
    fn clock_field(&self, f: ClockField) -> Value {
        let Some(tl) = self.run.tl else {
            return Value::None;
        };
        let Data::Move(p) = &tl.events[self.i].data else {
            return Value::None;
        };
        let Some(c) = clock_row(self.run.clock, p.ply) else {
            return Value::None;
        };
        let ms = |v: Option<i64>| v.map_or(Value::None, |u| Value::Num(u as f64));
        let text = |v: Option<&str>| v.map_or(Value::None, |s| Value::Str(s.into()));
        match (f, &c.tick) {
            (ClockField::Used, _) => ms(c.used),
            (ClockField::UsedSource, _) => text(c.source.map(|s| s.name())),
            (ClockField::TimedUsed, _) => ms(c.timed),
            (ClockField::TimedSource, _) => text(c.timed_source.map(|s| s.name())),
            (ClockField::ClockJump, _) => ms(c.jump),
            (ClockField::ClockExpected, _) => ms(c.expected),
            (ClockField::ClockStopped, _) => Value::Num(c.stopped as f64),
            (ClockField::ClockRequirement, Some(t)) => match self.run.time_control {
                Some(tc) => text(crate::clock::period_text(tc, t.period).as_deref()),
                None => Value::None,
            },
            (ClockField::ClockLeft, Some(t)) => Value::Num(t.left as f64),
            (ClockField::ClockFlag, Some(t)) => Value::Bool(t.flag),
            (ClockField::ClockAtMove, Some(t)) => Value::Num(t.left_at_move as f64),
            (ClockField::ClockPeriod, Some(t)) => Value::Num(f64::from(t.period)),
            _ => Value::None,
        }
    }

    /// The reconstructed game clock of a searching engine's side before the
    /// move it searched for.
    fn game_clock(&self) -> Value {
        let Some(tl) = self.run.tl else {
            return Value::None;
        };
        let Value::Num(ply) = tl.field(self.i, tl.events[self.i].kind, "for_ply") else {
            return Value::None;
        };
        let row = if ply >= 0.0 && ply.fract() == 0.0 && ply <= f64::from(u32::MAX) {
            clock_row(self.run.clock, ply as u32)
        } else {
            None
        };
        match row {
            Some(crate::clock::ClockPly {
                used: Some(u),
                tick: Some(t),
                ..
            }) => Value::Num((t.left_at_move + u) as f64),
            _ => Value::None,
        }
    }

    fn builtin(&mut self, f: Builtin, v: [Value; 2]) -> Value {
        if f == Builtin::Coalesce {
            let mut it = v.into_iter();
            let a = it.next().unwrap_or_default();
            return if a == Value::None {
                it.next().unwrap_or_default()
            } else {
                a
            };
        }
        if v.contains(&Value::Unknown) {
            return Value::Unknown;
        }
        let s = |i: usize| match &v[i] {
            Value::Str(s) => Some(s.as_str()),
            _ => None,
        };
        match f {
            Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Round => {
                Num::of(&v[0]).call1(f).value()
            }
            Builtin::Min | Builtin::Max => Num::of(&v[0]).call2(f, Num::of(&v[1])).value(),
            Builtin::Lower => s(0).map_or(Value::None, |x| Value::Str(x.to_lowercase().into())),
            Builtin::Contains => match (&v[0], s(1)) {
                (Value::Str(a), Some(b)) => Value::Bool(a.contains(b)),
                // a list contains the text when one of its items does
                (Value::List(items), Some(b)) => Value::Bool(
                    items
                        .iter()
                        .any(|x| matches!(x, Value::Str(a) if a.contains(b))),
                ),
                _ => Value::Bool(false),
            },
            Builtin::StartsWith => match (s(0), s(1)) {
                (Some(a), Some(b)) => Value::Bool(a.starts_with(b)),
                _ => Value::Bool(false),
            },
            Builtin::Coalesce => Value::None,
            Builtin::Tag => match (s(0), self.run.tl) {
                (Some(name), Some(tl)) => tl
                    .game
                    .tag(name)
                    .map_or(Value::None, |t| Value::Str(t.into())),
                _ => Value::None,
            },
        }
    }

    fn detect(&mut self, d: Detector, params: &[(&str, Value)]) -> Value {
        match d {
            Detector::Tablebase => {
                let Some(tl) = self.run.tl else {
                    return Value::None;
                };
                let Data::Move(p) = &tl.events[self.i].data else {
                    return Value::None;
                };
                let n = p.position.board().occupied().count();
                if n > 7 || !p.position.castles().castling_rights().is_empty() {
                    return Value::None; // no Syzygy table exists for it
                }
                let Some(tb) = &self.run.detectors.tablebase else {
                    self.notes.push(format!(
                        "no Syzygy tables were given (--syzygy DIR) to probe the {n}-piece position at ply {}",
                        p.ply
                    ));
                    return Value::Unknown;
                };
                let fifty = params
                    .iter()
                    .find(|(k, _)| *k == "fifty_move_rule")
                    .is_none_or(|(_, v)| truthy(v));
                let pos = &p.position;
                let stm = pos.turn();
                let side = |c: shakmaty::Color| {
                    Value::Str(
                        if c == shakmaty::Color::White {
                            "white"
                        } else {
                            "black"
                        }
                        .into(),
                    )
                };
                match tb.probe_wdl(pos) {
                    Ok(w) => match w {
                        AmbiguousWdl::Win => side(stm),
                        AmbiguousWdl::Loss => side(!stm),
                        AmbiguousWdl::Draw => Value::Str("draw".into()),
                        AmbiguousWdl::CursedWin => {
                            if fifty {
                                Value::Str("draw".into())
                            } else {
                                side(stm)
                            }
                        }
                        AmbiguousWdl::BlessedLoss => {
                            if fifty {
                                Value::Str("draw".into())
                            } else {
                                side(!stm)
                            }
                        }
                        AmbiguousWdl::MaybeWin | AmbiguousWdl::MaybeLoss => {
                            self.notes.push(format!(
                                "the tablebase value at ply {} is ambiguous (DTZ rounding near the fifty-move limit)",
                                p.ply
                            ));
                            Value::Unknown
                        }
                    },
                    Err(SyzygyError::TooManyPieces) => {
                        let n = pos.board().occupied().count();
                        if n > 7 {
                            Value::None // no Syzygy table exists for this many pieces
                        } else {
                            self.notes.push(format!(
                                "no table for {n} pieces: the tables given cover at most {} (ply {})",
                                tb.max_pieces(),
                                p.ply
                            ));
                            Value::Unknown
                        }
                    }
                    Err(SyzygyError::Castling) => Value::None,
                    Err(SyzygyError::MissingTable { metric, material }) => {
                        self.notes.push(format!(
                            "the {}-piece position at ply {} could not be probed: no {metric:?} table for {material}",
                            pos.board().occupied().count(),
                            p.ply
                        ));
                        Value::Unknown
                    }
                    Err(e) => {
                        self.notes
                            .push(format!("tablebase probe failed at ply {}: {e}", p.ply));
                        Value::Unknown
                    }
                }
            }
            Detector::HiddenBook => {
                let Some(tl) = self.run.tl else {
                    return Value::None;
                };
                let Data::Move(p) = &tl.events[self.i].data else {
                    return Value::None;
                };
                let params = crate::detect::hidden_book::params(params);
                let found = {
                    let mut c = self.run.cache.hidden_book.borrow_mut();
                    match c.iter().find(|(k, _)| *k == params) {
                        Some((_, v)) => v.clone(),
                        None => {
                            let v =
                                std::rc::Rc::new(crate::detect::hidden_book::assess(tl, &params));
                            c.push((params, v.clone()));
                            v
                        }
                    }
                };
                // one assessment per replayed ply, in order
                match at_ply(&found, tl.replay.first_ply, p.ply, |a| a.ply) {
                    Some(a) if a.flagged => {
                        let place = a.search.as_ref().and_then(|s| s.place.clone()).map(
                            |(path, span, timestamp)| Evidence {
                                path,
                                span,
                                ply: Some(a.ply),
                                timestamp,
                                note: "the engine's search for this move (`go`)".into(),
                            },
                        );
                        self.evidence.push((a.evidence(&p.san), place));
                        Value::Bool(true)
                    }
                    Some(a) if a.searchless.is_some() => Value::Bool(false),
                    _ => Value::None,
                }
            }
            Detector::Similarity => {
                let Some(tl) = self.run.tl else {
                    return Value::None;
                };
                let Some(sim) = &self.run.detectors.similarity else {
                    return Value::None;
                };
                let num = |k: &str| {
                    params
                        .iter()
                        .find(|(n, _)| *n == k)
                        .and_then(|(_, v)| match v {
                            Value::Num(x) => Some(*x),
                            _ => None,
                        })
                };
                let threshold = num("threshold").unwrap_or(5.0);
                let min_positions = num("min_positions").unwrap_or(0.0);
                let string = |k: &str| {
                    params.iter().find_map(|(n, v)| match v {
                        Value::Str(s) if *n == k => Some(s.clone()),
                        _ => None,
                    })
                };
                let against = string("against");
                let signal = string("signal").unwrap_or_else(|| "moves".into());
                let players: Vec<String> = ["White", "Black"]
                    .iter()
                    .filter_map(|t| tl.game.tag(t).map(str::to_string))
                    .collect();
                let plays = |name: &str| {
                    players
                        .iter()
                        .any(|p| crate::similarity::names_engine(name, p))
                };
                let other = |name: &str| {
                    against
                        .as_deref()
                        .is_none_or(|a| crate::similarity::names_engine(a, name) || a == name)
                };
                let r = &sim.report;
                let short = &sim.sha256[..12.min(sim.sha256.len())];
                let mut hit = false;
                if signal == "evaluation" {
                    // the evaluation-signature verdict, at the rule's
                    // false-positive rate (default: the report's)
                    let Some(sig) = &r.signature else {
                        return Value::None;
                    };
                    let set = sig.settings.clone().unwrap_or_default();
                    let alpha = num("false_positive_rate").unwrap_or(set.false_positive_rate);
                    for p in &sig.pairs {
                        let (mine, theirs) = if plays(&p.a) {
                            (&p.a, &p.b)
                        } else if plays(&p.b) {
                            (&p.b, &p.a)
                        } else {
                            continue;
                        };
                        if !other(theirs) || (p.moves.positions as f64) < min_positions {
                            continue;
                        }
                        let (Some(pv), Some(mz), Some(rv), Some(ci)) =
                            (p.p_value, p.moves.z, p.residual.value, p.residual.ci)
                        else {
                            continue;
                        };
                        if pv <= alpha && mz >= set.moves_floor {
                            hit = true;
                            self.evidence.push((format!(
                                "{mine} and {theirs} are wrong in the same positions: residual score correlation r = {rv:.2} (95% interval {:.2} to {:.2}) over {} positions, p = {pv:.1e} against the field's other pairs resampled (false-positive rate {alpha}); move match {:.1}% (z {mz:.1}) ({}, sha256 {short})",
                                ci[0],
                                ci[1],
                                p.residual.positions,
                                100.0 * p.moves.value.unwrap_or(0.0),
                                sim.path,
                            ), None));
                        }
                    }
                    return Value::Bool(hit);
                }
                // otherwise "moves" (the analyzer admits no other signal)
                for i in 0..r.engines.len() {
                    if !plays(&r.engines[i]) {
                        continue;
                    }
                    for j in 0..r.engines.len() {
                        if i == j || !other(&r.engines[j]) {
                            continue;
                        }
                        let (Some(z), Some(m)) = (r.z[i][j], r.matches[i][j]) else {
                            continue;
                        };
                        if z >= threshold && r.common[i][j] as f64 >= min_positions {
                            hit = true;
                            self.evidence.push((format!(
                                "{} and {} chose the same move in {:.1}% of {} positions, z = {:.2} against the other pairs ({}, sha256 {short})",
                                r.engines[i],
                                r.engines[j],
                                100.0 * m,
                                r.common[i][j],
                                z,
                                sim.path,
                            ), None));
                        }
                    }
                }
                Value::Bool(hit)
            }
            Detector::AcceleratedPairing => {
                let Some(case) = self.run.scope else {
                    return Value::None;
                };
                let Some(gi) = case.items.get(self.i).and_then(|it| it.game) else {
                    return Value::None;
                };
                let num = |k: &str, d: f64| {
                    params
                        .iter()
                        .find(|(n, _)| *n == k)
                        .and_then(|(_, v)| match v {
                            Value::Num(x) => Some(*x),
                            _ => None,
                        })
                        .unwrap_or(d)
                };
                match case.accelerated_pairing(gi, num("until_round", 3.0), num("high_score", 0.5))
                {
                    Ok(Some(why)) => {
                        self.evidence.push((why, None));
                        Value::Bool(true)
                    }
                    Ok(None) => Value::Bool(false),
                    Err(why) => {
                        self.notes.push(why);
                        Value::Unknown
                    }
                }
            }
        }
    }
}

/// A value as arithmetic and comparisons see it: a number, `unknown` (a
/// detector could not decide), or anything else (none, text, a boolean, a
/// list), which makes arithmetic `none` and a comparison false.
#[derive(Debug, Clone, Copy)]
enum Num {
    Is(f64),
    Unknown,
    Other,
}

impl Num {
    fn of(v: &Value) -> Num {
        match v {
            Value::Num(n) => Num::Is(*n),
            Value::Unknown => Num::Unknown,
            _ => Num::Other,
        }
    }

    fn neg(self) -> Num {
        match self {
            Num::Is(n) => Num::Is(-n),
            other => other,
        }
    }

    /// `+ - * /`: `unknown` if either side is, a finite number, or none
    /// (not numbers, a division by zero, an overflow).
    fn arith(self, op: BinOp, y: Num) -> Num {
        match (self, y) {
            (Num::Unknown, _) | (_, Num::Unknown) => Num::Unknown,
            (Num::Is(a), Num::Is(b)) => {
                let r = match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a * b,
                    _ if b == 0.0 => return Num::Other,
                    _ => a / b,
                };
                if r.is_finite() {
                    Num::Is(r)
                } else {
                    Num::Other
                }
            }
            _ => Num::Other,
        }
    }

    /// `abs`, `floor`, `ceil`, `round` (the others give none).
    fn call1(self, f: Builtin) -> Num {
        match self {
            Num::Is(x) => match f {
                Builtin::Abs => Num::Is(x.abs()),
                Builtin::Floor => Num::Is(x.floor()),
                Builtin::Ceil => Num::Is(x.ceil()),
                Builtin::Round => Num::Is(x.round()),
                _ => Num::Other,
            },
            other => other,
        }
    }

    /// `min`, `max` (the others give none).
    fn call2(self, f: Builtin, y: Num) -> Num {
        match (self, y) {
            (Num::Unknown, _) | (_, Num::Unknown) => Num::Unknown,
            (Num::Is(a), Num::Is(b)) => match f {
                Builtin::Min => Num::Is(a.min(b)),
                Builtin::Max => Num::Is(a.max(b)),
                _ => Num::Other,
            },
            _ => Num::Other,
        }
    }

    /// `< <= > >=`: `unknown` if either side is, false unless both are
    /// numbers.
    fn compare(self, op: BinOp, y: Num) -> Truth {
        match (self, y) {
            (Num::Unknown, _) | (_, Num::Unknown) => Truth::Unknown,
            (Num::Is(a), Num::Is(b)) => Truth::from(match op {
                BinOp::Lt => a < b,
                BinOp::Le => a <= b,
                BinOp::Gt => a > b,
                _ => a >= b,
            }),
            _ => Truth::False,
        }
    }

    fn value(self) -> Value {
        match self {
            Num::Is(n) => Value::Num(n),
            Num::Unknown => Value::Unknown,
            Num::Other => Value::None,
        }
    }
}

/// A value as logic sees it: true, false, `unknown`, or anything else
/// (which `and` and `or` read as false, and `not` makes true).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Truth {
    True,
    False,
    Unknown,
    Other,
}

impl Truth {
    fn of(v: &Value) -> Truth {
        match v {
            Value::Bool(b) => Truth::from(*b),
            Value::Unknown => Truth::Unknown,
            _ => Truth::Other,
        }
    }

    fn not(self) -> Truth {
        match self {
            Truth::Unknown => Truth::Unknown,
            Truth::True => Truth::False,
            _ => Truth::True,
        }
    }

    fn and(self, y: Truth) -> Truth {
        match (self, y) {
            (Truth::False, _) | (_, Truth::False) => Truth::False,
            (Truth::Unknown, _) | (_, Truth::Unknown) => Truth::Unknown,
            (Truth::True, Truth::True) => Truth::True,
            _ => Truth::False,
        }
    }

    fn or(self, y: Truth) -> Truth {
        match (self, y) {
            (Truth::True, _) | (_, Truth::True) => Truth::True,
            (Truth::Unknown, _) | (_, Truth::Unknown) => Truth::Unknown,
            _ => Truth::False,
        }
    }

    /// The value `and`, `or`, `not` and the comparisons make: a boolean
    /// or `unknown` (`Other` is never their result).
    fn value(self) -> Value {
        match self {
            Truth::True => Value::Bool(true),
            Truth::Unknown => Value::Unknown,
            Truth::False | Truth::Other => Value::Bool(false),
        }
    }
}

impl From<bool> for Truth {
    fn from(b: bool) -> Truth {
        if b { Truth::True } else { Truth::False }
    }
}

fn result_of(v: &Value) -> Option<&'static str> {
    match v {
        Value::Str(s) if s == "white" => Some("1-0"),
        Value::Str(s) if s == "black" => Some("0-1"),
        Value::Str(s) if s == "draw" => Some("1/2-1/2"),
        _ => None,
    }
}

/// Evaluate a program on one game. `path` names the game's source in the
/// evidence; `trace` keeps every `let` value per move (for `replay --rules`).
pub fn run(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    detectors: &Detectors,
    path: &str,
    trace: bool,
) -> Outcome {
    run_switched(prog, tl, detectors, path, trace, &[]).0
}

/// What the switches read: for each `let` and each adjudication, whether
/// its value can change when one switch is flipped, directly or through the
/// `let`s it reads (a `let` reads only `let`s defined before it).
#[derive(Debug, Clone)]
struct Depends {
    lets: Vec<bool>,
    rules: Vec<bool>,
}

impl Depends {
    /// From what each `let` and adjudication reads directly (`lets`,
    /// `rules`: [`Inputs`]), which of them read `switch`, directly or
    /// through earlier `let`s.
    fn on(lets: &[Inputs], rules: &[Inputs], switch: usize) -> Depends {
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
struct Shadow {
    /// The switch it flips.
    flipped: usize,
    switches: Vec<bool>,
    /// Its value of each `let` that differs from the real pass's (see
    /// `differs`); the others are stale, and read from the real pass.
    lets: Vec<Value>,
    /// Whether its value of each `let` differs from the real pass's at the
    /// current event.
    differs: Vec<bool>,
    slots: Vec<Slot>,
    /// The `let`s whose stateful calls' state is the shadow's own (it
    /// differs from the real pass's); the state of the others has followed
    /// the real pass's, and is copied from it when the shadow needs it.
    own: Vec<bool>,
    computed: Option<Computed>,
    undecided_from: Option<u32>,
}

/// Whether two values are the same to every reader: equal, and a number
/// with the same bits (`-0` is not `0` to a message).
fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// What a `let` or an adjudication reads directly: the `let`s and the
/// switches.
#[derive(Debug, Clone)]
struct Inputs {
    lets: Vec<usize>,
    switches: Vec<usize>,
}

impl Inputs {
    fn of<'e>(exprs: impl IntoIterator<Item = &'e CExpr>) -> Inputs {
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
    fn differ(&self, sh: &Shadow) -> bool {
        self.switches.contains(&sh.flipped) || self.lets.iter().any(|&r| sh.differs[r])
    }
}

/// What an adjudication evaluates: its condition, result, record and
/// message.
fn adjudication_inputs(rule: &RuleDef) -> Inputs {
    match &rule.check {
        Check::Adjudicate {
            result,
            records,
            when,
        } => Inputs::of([when, result].into_iter().chain(records.as_ref()).chain(
            rule.message.iter().flatten().filter_map(|p| match p {
                CTemplatePart::Expr(e) => Some(e),
                CTemplatePart::Text(_) => None,
            }),
        )),
        _ => Inputs::of([]),
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
    let mut notes: Vec<String> = Vec::new();
    let mut indeterminate: BTreeMap<String, Indeterminate> = BTreeMap::new();
    // Once an adjudication cannot be decided at some ply, no later (or
    // lower-priority) adjudication can be trusted: the game may have ended
    // there.
    let mut undecided_from: Option<u32> = None;
    let clock = match prog.time_control {
        Some(tc) => crate::clock::reconstruct(tc, tl),
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
    let mut shadow_notes: Vec<String> = Vec::new();
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
    for i in 0..tl.events.len() {
        let ev = &tl.events[i];
        let facts = match &ev.data {
            Data::Move(p) => Some(tl.move_facts(p)),
            _ => None,
        };
        let (on_lets, on_rules) = plan.triggered(ev.kind);
        for &j in on_lets {
            let l = &rs.lets[j];
            // A shadow evaluates the `let` only where its value can differ
            // from the real pass's: it reads the flipped switch, or a `let`
            // whose shadow value differs now, or its state is the shadow's
            // own. Otherwise it has the real value, and its state (left
            // as it was) is copied from the real pass's, before this
            // event advances it, once the shadow needs it.
            for (k, sh) in shadows.iter_mut().enumerate() {
                let must = plan.depends[sh.flipped].lets[j]
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
            let v = ctx.eval(&l.expr);
            lets[j] = v;
            for (k, sh) in shadows.iter_mut().enumerate() {
                if evaluate[k] {
                    let mut c = ctx!(
                        i,
                        facts,
                        &sh.switches,
                        &sh.lets,
                        &mut sh.slots,
                        &mut shadow_notes,
                        Some((&lets, &sh.differs)),
                        &mut shadow_evidence
                    );
                    c.advance(plan, &plan.let_calls[j]);
                    let v = c.eval(&l.expr);
                    sh.differs[j] = !identical(&v, &lets[j]);
                    sh.lets[j] = v;
                    // its state is its own while it differs from the real
                    // pass's
                    sh.own[j] = plan.let_calls[j].iter().any(|&c| sh.slots[c] != slots[c]);
                } else {
                    sh.differs[j] = false;
                }
            }
        }
        notes.clear();
        evidence.clear();
        for &ri in on_rules {
            let rule = &rs.rules[ri];
            let mut ctx = ctx!(i, facts);
            match &rule.check {
                Check::Manual(_) => {}
                Check::Adjudicate {
                    result,
                    records,
                    when,
                } => {
                    ctx.advance(plan, &plan.rule_calls[ri]);
                    // a condition fires when it is `true` (the truth of a
                    // value is `true` for that value alone)
                    let fired = ctx.truth(when);
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
                                .cloned()
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
                }
                Check::Forbid { .. } | Check::Require { .. } => {
                    ctx.advance(plan, &plan.rule_calls[ri]);
                    match verdict(&rule.check, &mut ctx) {
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
        if ev.kind == Kind::Move {
            // each shadow's adjudications, in the rules' order
            for sh in &mut shadows {
                for (ri, rule) in rs.rules.iter().enumerate() {
                    let Check::Adjudicate {
                        result,
                        records,
                        when,
                    } = &rule.check
                    else {
                        continue;
                    };
                    // evaluated again only where it can differ (as for
                    // the `let`s above); one with stateful calls of its own
                    // on every move, to keep their state
                    let own = plan.depends[sh.flipped].rules[ri]
                        && (!plan.rule_calls[ri].is_empty() || plan.rule_inputs[ri].differ(sh));
                    let mut c = if own {
                        ctx!(
                            i,
                            facts,
                            &sh.switches,
                            &sh.lets,
                            &mut sh.slots,
                            &mut shadow_notes,
                            Some((&lets, &sh.differs)),
                            &mut shadow_evidence
                        )
                    } else {
                        ctx!(i, facts)
                    };
                    let fired = if own {
                        c.advance(plan, &plan.rule_calls[ri]);
                        c.truth(when)
                    } else {
                        fired_at[ri]
                    };
                    let open = sh.computed.is_none() && sh.undecided_from.is_none();
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
            out.trace.push((ev.ply.unwrap_or(0), lets.clone()));
        }
    }
    out.indeterminate = indeterminate.into_values().collect();
    out.undecided_from = undecided_from;
    (out, shadows.into_iter().map(|s| s.computed).collect())
}

enum Verdict {
    Violation,
    Unknown,
    Holds,
}

/// A `forbid` or `require` rule at the current event or item, its
/// stateful calls advanced.
fn verdict(check: &Check, ctx: &mut Ctx<'_, '_>) -> Verdict {
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
    match (v, forbid) {
        (Truth::Unknown, _) => Verdict::Unknown,
        (Truth::True, true) => Verdict::Violation,
        (_, true) | (Truth::True, false) => Verdict::Holds,
        (_, false) => Verdict::Violation,
    }
}

/// Evaluate a program's event-level rules on one event's case file.
pub fn run_event(
    prog: &Program<'_>,
    case: &crate::event::EventCase,
    detectors: &Detectors,
) -> Outcome {
    let rs = prog.ruleset;
    let mut out = Outcome::default();
    let mut slots = vec![Slot::default(); rs.slots];
    let mut lets: Vec<Value> = vec![Value::None; rs.lets.len()];
    let mut notes: Vec<String> = Vec::new();
    let mut indeterminate: BTreeMap<String, Indeterminate> = BTreeMap::new();
    let cache = DetectorCache::default();
    let mut evidence: Vec<(String, Option<Evidence>)> = Vec::new();
    let run = Run {
        tl: None,
        scope: Some(case),
        consts: &prog.consts,
        detectors,
        clock: &[],
        time_control: prog.time_control,
        cache: &cache,
        game: &[],
    };
    macro_rules! ctx {
        ($i:expr) => {
            Ctx {
                run: &run,
                i: $i,
                switches: &prog.switches,
                lets: &lets,
                overlay: None,
                slots: &mut slots,
                notes: &mut notes,
                evidence: &mut evidence,
                facts: None,
            }
        };
    }
    let plan = Plan::of(rs);
    for (i, item) in case.items.iter().enumerate() {
        let kind = Kind::Scope(item.kind);
        for (j, l) in rs.lets.iter().enumerate() {
            if l.on == kind {
                let mut ctx = ctx!(i);
                ctx.advance(plan, &plan.let_calls[j]);
                lets[j] = ctx.eval(&l.expr);
            }
        }
        for (ri, rule) in rs.rules.iter().enumerate() {
            match &rule.check {
                Check::Forbid { on, .. } | Check::Require { on, .. } if *on == kind => {}
                _ => continue,
            }
            notes.clear();
            evidence.clear();
            let mut ctx = ctx!(i);
            ctx.advance(plan, &plan.rule_calls[ri]);
            match verdict(&rule.check, &mut ctx) {
                Verdict::Violation => {
                    let message = message(rule, &mut ctx);
                    let mut places = case.places(i);
                    if places.is_empty() {
                        places.push(Evidence {
                            path: String::new(),
                            span: None,
                            ply: None,
                            timestamp: None,
                            note: format!("the event {}", case.name),
                        });
                    }
                    let first = places.remove(0);
                    let mut f = rule_finding(rule, message, first, &rs.path);
                    let at = f.evidence.len() - 1;
                    f.evidence.splice(at..at, places);
                    out.findings.push(f);
                    out.finding_items.push(i);
                }
                Verdict::Unknown => note_unknown(&mut indeterminate, rule, None, &ctx),
                Verdict::Holds => {}
            }
        }
    }
    out.indeterminate = indeterminate.into_values().collect();
    out
}

fn note_unknown(
    map: &mut BTreeMap<String, Indeterminate>,
    rule: &RuleDef,
    ply: Option<u32>,
    ctx: &Ctx<'_, '_>,
) {
    map.entry(rule.id.clone()).or_insert(Indeterminate {
        rule: rule.id.clone(),
        ply,
        reason: ctx
            .notes
            .first()
            .cloned()
            .unwrap_or_else(|| "a value was unknown".into()),
    });
}

/// The clause a rule cites, as one line.
pub fn clause_text(rule: &RuleDef) -> String {
    rule.cites
        .iter()
        .map(|c| format!("{}: \"{}\"", c.clause, c.quote))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Evidence pointing at the rule's citation in the ruleset file.
pub fn rule_evidence(rule: &RuleDef, ruleset_path: &str) -> Evidence {
    let c = &rule.cites[0];
    Evidence::at_line(
        ruleset_path,
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
        clause: clause_text(rule),
        sanction: rule.sanction.clone(),
        evidence: vec![evidence, rule_evidence(rule, ruleset_path)],
    }
}

/// A violation's message: the rule's own, rendered where it fired, and the
/// evidence its detectors found.
fn message(rule: &RuleDef, ctx: &mut Ctx<'_, '_>) -> String {
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

fn violation(
    rule: &RuleDef,
    ctx: &mut Ctx<'_, '_>,
    ev: &crate::timeline::Event<'_>,
    path: &str,
    rs_path: &str,
) -> Finding {
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
    let note = what;
    let mut f = rule_finding(
        rule,
        message,
        Evidence {
            path: path.to_string(),
            span,
            ply,
            timestamp,
            note,
        },
        rs_path,
    );
    // a detector's own places (the engine-log line it read), before the
    // rules file's line, which stays last
    let extra: Vec<Evidence> = ctx.evidence.iter().filter_map(|(_, e)| e.clone()).collect();
    if !extra.is_empty() {
        let at = f.evidence.len() - 1;
        f.evidence.splice(at..at, extra);
    }
    f
}

/// Evaluate a state-free expression at event `i` (for labels).
pub fn eval_at(prog: &Program<'_>, tl: &Timeline<'_>, i: usize, e: &CExpr) -> Value {
    eval_stateless(Some(tl), i, &prog.consts, &prog.switches, e)
}

fn render(parts: &[CTemplatePart], ctx: &mut Ctx<'_, '_>) -> String {
    parts
        .iter()
        .map(|p| match p {
            CTemplatePart::Text(t) => t.clone(),
            CTemplatePart::Expr(e) => ctx.eval(e).display(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The operators as the language defines them on values: what the
    /// unboxed paths must give.
    fn binary(op: BinOp, x: Value, y: Value) -> Value {
        use Value::*;
        match op {
            BinOp::And => match (&x, &y) {
                (Bool(false), _) | (_, Bool(false)) => Bool(false),
                (Unknown, _) | (_, Unknown) => Unknown,
                (Bool(true), Bool(true)) => Bool(true),
                _ => Bool(false),
            },
            BinOp::Or => match (&x, &y) {
                (Bool(true), _) | (_, Bool(true)) => Bool(true),
                (Unknown, _) | (_, Unknown) => Unknown,
                _ => Bool(false),
            },
            _ if matches!(x, Unknown) || matches!(y, Unknown) => Unknown,
            BinOp::Eq => Bool(x == y),
            BinOp::Ne => Bool(x != y),
            BinOp::In => match y {
                List(l) => Bool(l.contains(&x)),
                _ => Bool(false),
            },
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => match (x, y) {
                (Num(a), Num(b)) => Bool(match op {
                    BinOp::Lt => a < b,
                    BinOp::Le => a <= b,
                    BinOp::Gt => a > b,
                    _ => a >= b,
                }),
                _ => Bool(false),
            },
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => match (x, y) {
                (Num(a), Num(b)) => {
                    let r = match op {
                        BinOp::Add => a + b,
                        BinOp::Sub => a - b,
                        BinOp::Mul => a * b,
                        _ if b == 0.0 => return None,
                        _ => a / b,
                    };
                    if r.is_finite() { Num(r) } else { None }
                }
                _ => None,
            },
        }
    }

    /// `abs`, `floor`, `ceil`, `round`, `min` and `max` as the language
    /// defines them on values (`unknown` if an argument is, none unless
    /// every argument is a number).
    fn builtin_on_values(f: Builtin, x: &Value, y: &Value) -> Value {
        if matches!(x, Value::Unknown) || matches!(y, Value::Unknown) {
            return Value::Unknown;
        }
        let one: fn(f64) -> f64 = match f {
            Builtin::Abs => f64::abs,
            Builtin::Floor => f64::floor,
            Builtin::Ceil => f64::ceil,
            Builtin::Round => f64::round,
            _ => {
                return match (x, y) {
                    (Value::Num(a), Value::Num(b)) => Value::Num(if f == Builtin::Min {
                        a.min(*b)
                    } else {
                        a.max(*b)
                    }),
                    _ => Value::None,
                };
            }
        };
        match x {
            Value::Num(a) => Value::Num(one(*a)),
            _ => Value::None,
        }
    }

    /// The unboxed paths, and `eval` and `builtin` through them, give what
    /// the language defines on values (`binary`, `builtin_on_values`), for
    /// every operator and numeric builtin and every kind of value on either
    /// side; `not` and `-` likewise.
    #[test]
    fn unboxed_logic_and_arithmetic_agree_with_values() {
        let values = [
            Value::Num(2.0),
            Value::Num(-3.5),
            Value::Num(0.0),
            Value::Num(f64::MAX),
            Value::Bool(true),
            Value::Bool(false),
            Value::Str("x".into()),
            Value::List(vec![Value::Num(2.0)]),
            Value::None,
            Value::Unknown,
        ];
        let detectors = Detectors::default();
        let cache = DetectorCache::default();
        let run = Run {
            tl: None,
            scope: None,
            consts: &[],
            detectors: &detectors,
            clock: &[],
            time_control: None,
            cache: &cache,
            game: &[],
        };
        let (mut notes, mut evidence) = (Vec::new(), Vec::new());
        let mut ctx = Ctx {
            run: &run,
            i: 0,
            switches: &[],
            lets: &[],
            overlay: None,
            slots: &mut [],
            notes: &mut notes,
            evidence: &mut evidence,
            facts: None,
        };
        for x in &values {
            for y in &values {
                for op in [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div] {
                    let want = binary(op, x.clone(), y.clone());
                    assert_eq!(
                        Num::of(x).arith(op, Num::of(y)).value(),
                        want,
                        "{x:?} {op:?} {y:?}"
                    );
                }
                for op in [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge] {
                    let want = binary(op, x.clone(), y.clone());
                    assert_eq!(
                        Num::of(x).compare(op, Num::of(y)).value(),
                        want,
                        "{x:?} {op:?} {y:?}"
                    );
                }
                // and the whole path, eval through num and truth
                for op in [
                    BinOp::Or,
                    BinOp::And,
                    BinOp::Eq,
                    BinOp::Ne,
                    BinOp::Lt,
                    BinOp::Le,
                    BinOp::Gt,
                    BinOp::Ge,
                    BinOp::In,
                    BinOp::Add,
                    BinOp::Sub,
                    BinOp::Mul,
                    BinOp::Div,
                ] {
                    let e = CExpr::Binary(
                        op,
                        Box::new(CExpr::Lit(x.clone())),
                        Box::new(CExpr::Lit(y.clone())),
                    );
                    let want = binary(op, x.clone(), y.clone());
                    assert_eq!(ctx.eval(&e), want, "eval {x:?} {op:?} {y:?}");
                }
                let and = binary(BinOp::And, x.clone(), y.clone());
                assert_eq!(
                    Truth::of(x).and(Truth::of(y)).value(),
                    and,
                    "{x:?} and {y:?}"
                );
                let or = binary(BinOp::Or, x.clone(), y.clone());
                assert_eq!(Truth::of(x).or(Truth::of(y)).value(), or, "{x:?} or {y:?}");
                for f in [Builtin::Min, Builtin::Max] {
                    let want = builtin_on_values(f, x, y);
                    assert_eq!(
                        Num::of(x).call2(f, Num::of(y)).value(),
                        want,
                        "{f:?}({x:?}, {y:?})"
                    );
                    let got = ctx.builtin(f, [x.clone(), y.clone()]);
                    assert_eq!(got, want, "builtin {f:?}({x:?}, {y:?})");
                }
            }
            let not = match x {
                Value::Unknown => Value::Unknown,
                Value::Bool(b) => Value::Bool(!b),
                _ => Value::Bool(true),
            };
            assert_eq!(Truth::of(x).not().value(), not, "not {x:?}");
            let neg = match x {
                Value::Unknown => Value::Unknown,
                Value::Num(n) => Value::Num(-n),
                _ => Value::None,
            };
            assert_eq!(Num::of(x).neg().value(), neg, "- {x:?}");
            for f in [Builtin::Abs, Builtin::Floor, Builtin::Ceil, Builtin::Round] {
                let want = builtin_on_values(f, x, &Value::None);
                assert_eq!(Num::of(x).call1(f).value(), want, "{f:?}({x:?})");
                let got = ctx.builtin(f, [x.clone(), Value::None]);
                assert_eq!(got, want, "builtin {f:?}({x:?})");
            }
        }
    }
}
