//! The walk: a `Ctx` is one evaluation at one event of a game or of an
//! event's case file, reading the timeline, the constants, the `let`s and the
//! stateful calls' slots, and walking an expression tree as a value, a
//! number or a truth.

use super::Detectors;
use super::typed::{Num, Truth};
use crate::base::value::Value;
use crate::findings::Evidence;
use crate::rules::analysis::{Builtin, CExpr, StatefulFn};
use crate::rules::syntax::ast::{BinOp, UnOp};
use crate::timeline::{ClockField, Data, Kind, MoveField, Timeline};

#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Slot {
    pub(super) value: Value,
    /// A `per` call's state for each key, in the keys' order (a few: the
    /// sides, or the engines).
    pub(super) keyed: Vec<(crate::base::value::Text, Value)>,
    /// The value this slot returns for the current event.
    pub(super) current: Value,
}

impl Slot {
    /// One event's step of a stateful call: its `reset`, `over`, argument
    /// (as the function reads it) and `per` key at the event. Sets the
    /// value the call gives at the event (`current`). The per-event walk
    /// and the columns (`columns`) both step through here.
    pub(super) fn step(
        &mut self,
        func: StatefulFn,
        reset: bool,
        over: bool,
        arg: Value,
        key: Option<&Value>,
    ) {
        let slot = self;
        let state = match key {
            // a text key (a side, a name) is looked up as it is;
            // a new key is stored once
            Some(Value::Str(t)) => keyed_state(&mut slot.keyed, t),
            Some(k) => keyed_state(&mut slot.keyed, &k.display().into()),
            None => &mut slot.value,
        };
        let n = num(state).unwrap_or(0.0);
        let (next, current) = match func {
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
}

/// What stays the same for a whole run over a game or an event: where its
/// events come from, the program's constants, the detectors, the clocks
/// and the game's fields.
pub(super) struct Run<'c, 't> {
    pub(super) tl: Option<&'c Timeline<'t>>,
    /// The event's case file, for event-level rules (then a context's `i`
    /// is an item).
    pub(super) scope: Option<&'c crate::facts::event::EventCase>,
    pub(super) consts: &'c [Value],
    pub(super) detectors: &'c Detectors,
    /// Both clocks along the game, under the program's time control.
    pub(super) clock: &'c [crate::facts::clock::ClockPly],
    /// The time control the clocks were reconstructed under.
    pub(super) time_control: Option<&'c crate::facts::clock::TimeControlDef>,
    /// Whole-game analyses of the detectors, computed once per game.
    pub(super) cache: &'c DetectorCache,
    /// The game's fields (its tags), read once per game; empty where the
    /// run has none ready (then they are read from the timeline).
    pub(super) game: &'c [(&'static str, Value)],
}

#[cfg(test)]
impl<'c> Run<'c, '_> {
    /// A run over no game: for tests of expressions alone.
    pub(super) fn bare(
        consts: &'c [Value],
        detectors: &'c Detectors,
        cache: &'c DetectorCache,
    ) -> Self {
        Run {
            tl: None,
            scope: None,
            consts,
            detectors,
            clock: &[],
            time_control: None,
            cache,
            game: &[],
        }
    }
}

/// One evaluation's context: the run, the event, and the state it reads
/// and advances (the real pass's, or a switch's shadow's).
pub(super) struct Ctx<'c, 't> {
    pub(super) run: &'c Run<'c, 't>,
    pub(super) i: usize,
    pub(super) switches: &'c [bool],
    pub(super) lets: &'c [Value],
    /// In a switch's shadow: the real pass's `let`s and which of the
    /// shadow's differ from them. A `let` that does not differ is read from
    /// the real pass (the shadow's own copy of it is not kept up to date).
    pub(super) overlay: Option<(&'c [Value], &'c [bool])>,
    pub(super) slots: &'c mut [Slot],
    /// Reasons a detector could not decide, for this event.
    pub(super) notes: &'c mut Vec<Note>,
    /// What a detector found, for the finding's message.
    pub(super) evidence: &'c mut Vec<(String, Option<Evidence>)>,
    /// The current move's facts, found once per event.
    pub(super) facts: Option<&'c crate::timeline::MoveFacts<'c>>,
}

impl<'c, 't> Ctx<'c, 't> {
    /// A walk of an expression that reads no `let` and no stateful call:
    /// event `i` (its move's `facts`, where found) under `switches`.
    pub(super) fn stateless(
        run: &'c Run<'c, 't>,
        switches: &'c [bool],
        i: usize,
        facts: Option<&'c crate::timeline::MoveFacts<'c>>,
        notes: &'c mut Vec<Note>,
        evidence: &'c mut Vec<(String, Option<Evidence>)>,
    ) -> Ctx<'c, 't> {
        Ctx {
            run,
            i,
            switches,
            lets: &[],
            overlay: None,
            slots: &mut [],
            notes,
            evidence,
            facts,
        }
    }
}

/// Whole-game detector results, by their parameters.
#[derive(Default)]
pub(super) struct DetectorCache {
    pub(super) hidden_book: std::cell::RefCell<
        Vec<(
            crate::facts::hidden_book::Params,
            std::rc::Rc<Vec<crate::facts::hidden_book::Assessment>>,
        )>,
    >,
    /// The clocks the `go` lines should have given, before each ply.
    pub(super) go: std::cell::OnceCell<Vec<crate::facts::clock::GoClocks>>,
}

/// The item of `ply` in a list made one per ply, in order, from ply
/// `first`: found at its place, else (were the list to have a gap) by a
/// search.
pub(super) fn at_ply<T>(
    items: &[T],
    first: u32,
    ply: u32,
    ply_of: impl Fn(&T) -> u32,
) -> Option<&T> {
    match ply.checked_sub(first).and_then(|i| items.get(i as usize)) {
        Some(x) if ply_of(x) == ply => Some(x),
        _ => items.iter().find(|x| ply_of(x) == ply),
    }
}

/// The clock row of a ply (the reconstruction makes one per ply).
pub(super) fn clock_row(
    clock: &[crate::facts::clock::ClockPly],
    ply: u32,
) -> Option<&crate::facts::clock::ClockPly> {
    at_ply(clock, clock.first()?.ply, ply, |c| c.ply)
}

/// A clock field of the move at `ply`, from the reconstructed clocks
/// (`none` where they have no row for it).
pub(super) fn clock_value(run: &Run<'_, '_>, ply: u32, f: ClockField) -> Value {
    let Some(c) = clock_row(run.clock, ply) else {
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
        (ClockField::ClockRequirement, Some(t)) => match run.time_control {
            Some(tc) => text(crate::facts::clock::period_text(tc, t.period).as_deref()),
            None => Value::None,
        },
        (ClockField::ClockLeft, Some(t)) => Value::Num(t.left as f64),
        (ClockField::ClockFlag, Some(t)) => Value::Bool(t.flag),
        (ClockField::ClockAtMove, Some(t)) => Value::Num(t.left_at_move as f64),
        (ClockField::ClockPeriod, Some(t)) => Value::Num(f64::from(t.period)),
        _ => Value::None,
    }
}

/// The state of `key` in a `per` call's list, sorted by key: a new key is
/// stored once, with no state yet.
fn keyed_state<'s>(
    keyed: &'s mut Vec<(crate::base::value::Text, Value)>,
    key: &crate::base::value::Text,
) -> &'s mut Value {
    let at = match keyed.binary_search_by(|(k, _)| k.as_str().cmp(key.as_str())) {
        Ok(at) => at,
        Err(at) => {
            // the key's text is shared, not copied (a side's name is static)
            keyed.insert(at, (key.clone(), Value::None));
            at
        }
    };
    &mut keyed[at].1
}

pub(super) fn truthy(v: &Value) -> bool {
    *v == Value::Bool(true)
}

pub(super) fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Num(n) => Some(*n),
        _ => None,
    }
}

impl Ctx<'_, '_> {
    /// The kind of the current event or item.
    pub(super) fn kind(&self) -> Option<Kind> {
        match (self.run.tl, self.run.scope) {
            (Some(t), _) => t.events.get(self.i).map(|e| e.kind),
            (None, Some(c)) => c.items.get(self.i).map(|it| Kind::Scope(it.kind)),
            (None, None) => None,
        }
    }

    /// The value of `let` number `i` at the current event (in a shadow, the
    /// real pass's where the shadow's does not differ from it).
    #[inline]
    pub(super) fn let_at(&self, i: usize) -> Option<&Value> {
        match self.overlay {
            Some((real, differs)) if !differs.get(i).copied().unwrap_or(false) => real.get(i),
            _ => self.lets.get(i),
        }
    }

    pub(super) fn eval(&mut self, e: &CExpr) -> Value {
        match e {
            CExpr::Lit(v) => v.clone(),
            CExpr::Const(i) => self.run.consts.get(*i).cloned().unwrap_or(Value::None),
            CExpr::Let(i) => self.let_at(*i).cloned().unwrap_or(Value::None),
            CExpr::Switch(i) => Value::Bool(self.switches.get(*i).copied().unwrap_or(false)),
            CExpr::Move(f, name) => self.move_field(*f, name),
            CExpr::Field(Kind::Engine(crate::timeline::align::EngKind::Search), "game_clock") => {
                self.game_clock()
            }
            CExpr::Field(
                Kind::Engine(crate::timeline::align::EngKind::Search),
                f @ ("wtime_expected" | "btime_expected" | "clocks_from_start"),
            ) => self.go_clock(f),
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
    pub(super) fn num(&mut self, e: &CExpr) -> Num {
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
    pub(super) fn truth(&mut self, e: &CExpr) -> Truth {
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
    pub(super) fn move_field(&self, f: MoveField, name: &str) -> Value {
        match (f, &self.facts, self.run.tl) {
            (MoveField::Clock(c), ..) => self.clock_field(c),
            (_, Some(m), _) => m.get(f),
            (_, None, Some(tl)) => tl.field(self.i, Kind::Move, name),
            (_, None, None) => Value::None,
        }
    }

    /// A clock field of the current move, from the reconstructed clocks.
    pub(super) fn clock_field(&self, f: ClockField) -> Value {
        let Some(tl) = self.run.tl else {
            return Value::None;
        };
        let Data::Move(p) = &tl.events[self.i].data else {
            return Value::None;
        };
        clock_value(self.run, p.ply, f)
    }

    /// The reconstructed game clock of a searching engine's side before the
    /// move it searched for.
    pub(super) fn game_clock(&self) -> Value {
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
            Some(crate::facts::clock::ClockPly {
                used: Some(u),
                tick: Some(t),
                ..
            }) => Value::Num((t.left_at_move + u) as f64),
            _ => Value::None,
        }
    }

    /// A searching engine's clocks as its `go` line should have given them:
    /// from the game's previous `go` line and the move times since.
    pub(super) fn go_clock(&self, name: &str) -> Value {
        let (Some(tl), Some(tc)) = (self.run.tl, self.run.time_control) else {
            return Value::None;
        };
        let Value::Num(ply) = tl.field(self.i, tl.events[self.i].kind, "for_ply") else {
            return Value::None;
        };
        let first = f64::from(tl.replay.first_ply);
        if ply < first || ply.fract() != 0.0 || ply > f64::from(u32::MAX) {
            return Value::None;
        }
        let go = self
            .run
            .cache
            .go
            .get_or_init(|| crate::facts::clock::go_clocks(tc, tl, self.run.clock));
        let Some(at) = go.get((ply - first) as usize) else {
            return Value::None;
        };
        let ms = |v: Option<i64>| v.map_or(Value::None, |u| Value::Num(u as f64));
        match name {
            "wtime_expected" => ms(at.expected[0]),
            "btime_expected" => ms(at.expected[1]),
            _ => Value::Bool(at.from_start),
        }
    }
}

/// Why a value was unknown, as a detector says it: made into text only
/// when a rule that could not be decided reports it (the first of the
/// rule's notes), so that a detector that cannot decide at every ply of an
/// ending makes no text for each.
#[derive(Debug, Clone)]
pub(super) enum Note {
    Text(String),
    /// The `tablebase` detector was given no tables.
    NoTables {
        pieces: u32,
        ply: u32,
    },
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Note::Text(t) => f.write_str(t),
            Note::NoTables { pieces, ply } => write!(
                f,
                "no Syzygy tables were given (--syzygy DIR) to probe the {pieces}-piece position at ply {ply}"
            ),
        }
    }
}
