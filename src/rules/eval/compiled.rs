//! Compiled expressions: every `let`, rule condition and stateful call's
//! parts lowered once per ruleset to nested closures, each made for its
//! node's shape. A closure reads its literals, `let`s and fields in place
//! (no visit to a leaf), and does its own operator's work with no `match`
//! on the operator: the tree walk's central dispatch, which every node went
//! through, is gone.
//!
//! Each closure gives what [`Ctx::eval`], [`Ctx::num`] or [`Ctx::truth`]
//! gives on the same expression, and a shape it does not know is handed to
//! them (fields other than the move's, lists, the builtins of text,
//! detectors). `tests` below holds the three to the walk on 5,000
//! generated expressions of every kind of node and value, at each move of
//! a TCEC game and with no move; on whole archives, `tests/identical.rs`
//! holds the outputs of S15 and of `samples/`, and `tests/switches.rs` the
//! switches' shadows.
//!
//! The walk stays: constants, labels, the event level and the shapes
//! above use it. The closures cost 0.88x the time of the whole audit of
//! S15 x2 with `tcec-s15.rules` on one thread (median of 7 pairs).

use super::*;
use crate::base::value::Text;

pub(super) type TruthFn = Box<dyn Fn(&mut Ctx<'_, '_>) -> Truth + Send + Sync>;
pub(super) type NumFn = Box<dyn Fn(&mut Ctx<'_, '_>) -> Num + Send + Sync>;
pub(super) type ValFn = Box<dyn Fn(&mut Ctx<'_, '_>) -> Value + Send + Sync>;

/// A stateful call, compiled: the call itself (its slot, function and the
/// kind of event that drives it) and its parts, its argument read as the
/// function reads it (a truth for `streak`, `count` and `since`, a number
/// for `sum`, the value for `last` and `previous`).
pub(super) struct StatefulCode {
    pub(super) slot: usize,
    pub(super) func: StatefulFn,
    pub(super) on: Kind,
    pub(super) reset: Option<TruthFn>,
    pub(super) over: Option<TruthFn>,
    pub(super) arg: Arg,
    pub(super) per: Option<ValFn>,
}

pub(super) enum Arg {
    Truth(TruthFn),
    Num(NumFn),
    Value(ValFn),
}

/// A ruleset's compiled expressions, by the index of their `let`, rule and
/// stateful slot.
#[derive(Default)]
pub(super) struct Code {
    pub(super) lets: Vec<ValFn>,
    /// Each rule's condition (`None`: a `forbid` with none, or a manual
    /// rule).
    pub(super) when: Vec<Option<TruthFn>>,
    pub(super) statefuls: Vec<Option<StatefulCode>>,
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Code {{ {} lets, {} rules, {} stateful slots }}",
            self.lets.len(),
            self.when.len(),
            self.statefuls.len()
        )
    }
}

impl Code {
    /// Rule `ri`'s condition at the context's event: `true` for a `forbid`
    /// with none (and for a manual rule, which is never asked).
    #[inline]
    pub(super) fn condition(&self, ri: usize, c: &mut Ctx<'_, '_>) -> Truth {
        match self.when.get(ri) {
            Some(Some(w)) => w(c),
            _ => Truth::True,
        }
    }

    pub(super) fn of(rs: &Ruleset, statefuls: &[Option<&Stateful>]) -> Code {
        Code {
            lets: rs.lets.iter().map(|l| value(&l.expr)).collect(),
            when: rs
                .rules
                .iter()
                .map(|r| match &r.check {
                    Check::Adjudicate { when, .. } | Check::Require { when, .. } => {
                        Some(truth(when))
                    }
                    Check::Forbid { when, .. } => when.as_ref().map(truth),
                    Check::Manual(_) => None,
                })
                .collect(),
            statefuls: statefuls
                .iter()
                .map(|s| {
                    s.map(|s| StatefulCode {
                        slot: s.slot,
                        func: s.func,
                        on: s.on,
                        reset: s.reset.as_ref().map(truth),
                        over: s.over.as_ref().map(truth),
                        arg: match s.func {
                            StatefulFn::Streak | StatefulFn::Count | StatefulFn::Since => {
                                Arg::Truth(truth(&s.arg))
                            }
                            StatefulFn::Sum => Arg::Num(num(&s.arg)),
                            StatefulFn::Last | StatefulFn::Previous => Arg::Value(value(&s.arg)),
                        },
                        per: s.per.as_ref().map(value),
                    })
                })
                .collect(),
        }
    }
}

/// An operand read as a number in place: a leaf, or a closure for the rest.
enum NumLeaf {
    Is(Num),
    Const(usize),
    Let(usize),
    Field(MoveField, &'static str),
    Other(NumFn),
}

impl NumLeaf {
    fn of(e: &CExpr) -> NumLeaf {
        match e {
            CExpr::Lit(v) => NumLeaf::Is(Num::of(v)),
            CExpr::Const(i) => NumLeaf::Const(*i),
            CExpr::Let(i) => NumLeaf::Let(*i),
            CExpr::Move(f, name) if !matches!(f, MoveField::Clock(_)) => NumLeaf::Field(*f, name),
            _ => NumLeaf::Other(num(e)),
        }
    }

    #[inline(always)]
    fn get(&self, c: &mut Ctx<'_, '_>) -> Num {
        match self {
            NumLeaf::Is(n) => *n,
            NumLeaf::Const(i) => c.run.consts.get(*i).map_or(Num::Other, Num::of),
            NumLeaf::Let(i) => c.let_at(*i).map_or(Num::Other, Num::of),
            NumLeaf::Field(f, name) => match &c.facts {
                // a numeric field read as it is, without a `Value`
                Some(m) => match m.number(*f) {
                    Some(Some(x)) => Num::Is(x),
                    Some(None) => Num::Other,
                    None => Num::of(&m.get(*f)),
                },
                None => Num::of(&c.move_field(*f, name)),
            },
            NumLeaf::Other(g) => g(c),
        }
    }
}

/// An operand read as a truth in place.
enum TruthLeaf {
    Is(Truth),
    Let(usize),
    Switch(usize),
    Field(MoveField, &'static str),
    Other(TruthFn),
}

impl TruthLeaf {
    fn of(e: &CExpr) -> TruthLeaf {
        match e {
            CExpr::Lit(v) => TruthLeaf::Is(Truth::of(v)),
            CExpr::Let(i) => TruthLeaf::Let(*i),
            CExpr::Switch(i) => TruthLeaf::Switch(*i),
            CExpr::Move(f, name) if !matches!(f, MoveField::Clock(_)) => TruthLeaf::Field(*f, name),
            _ => TruthLeaf::Other(truth(e)),
        }
    }

    #[inline(always)]
    fn get(&self, c: &mut Ctx<'_, '_>) -> Truth {
        match self {
            TruthLeaf::Is(t) => *t,
            TruthLeaf::Let(i) => c.let_at(*i).map_or(Truth::Other, Truth::of),
            TruthLeaf::Switch(i) => Truth::from(c.switches.get(*i).copied().unwrap_or(false)),
            TruthLeaf::Field(f, name) => match &c.facts {
                // a boolean field read as it is
                Some(m) => match m.flag(*f) {
                    Some(b) => Truth::from(b),
                    None => Truth::of(&m.get(*f)),
                },
                None => Truth::of(&c.move_field(*f, name)),
            },
            TruthLeaf::Other(g) => g(c),
        }
    }
}

/// A literal as the compiled code holds it: a text made `'static`
/// ([`interned`]), so that giving it out at every event copies two words
/// instead of counting a reference that every worker thread shares.
fn literal(v: &Value) -> Value {
    match v {
        Value::Str(Text::Shared(t)) => Value::Str(Text::Static(interned(t))),
        Value::List(items) => Value::List(items.iter().map(literal).collect()),
        other => other.clone(),
    }
}

/// One `'static` copy of each distinct text the compiled rulesets of this
/// run hold (their literals: a few dozen short texts, kept once each
/// however many times a ruleset is compiled).
fn interned(t: &str) -> &'static str {
    static TEXTS: std::sync::Mutex<std::collections::BTreeSet<&'static str>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let mut texts = TEXTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match texts.get(t) {
        Some(s) => s,
        None => {
            let s: &'static str = Box::leak(t.into());
            texts.insert(s);
            s
        }
    }
}

/// A list whose items are all literals (at any depth), as the one value
/// [`Ctx::eval`] makes of it at every event: made once, when compiled.
fn literal_list(e: &CExpr) -> Option<Value> {
    match e {
        CExpr::Lit(v) => Some(literal(v)),
        CExpr::List(items) => items
            .iter()
            .map(literal_list)
            .collect::<Option<Vec<Value>>>()
            .map(Value::List),
        _ => None,
    }
}

/// The expression as [`Ctx::eval`] gives it.
pub(super) fn value(e: &CExpr) -> ValFn {
    // a literal, or a list of literals made once
    if let Some(v) = literal_list(e) {
        return Box::new(move |_| v.clone());
    }
    match e {
        CExpr::Const(i) => {
            let i = *i;
            Box::new(move |c| c.run.consts.get(i).cloned().unwrap_or(Value::None))
        }
        CExpr::Let(i) => {
            let i = *i;
            Box::new(move |c| c.let_at(i).cloned().unwrap_or(Value::None))
        }
        CExpr::Switch(i) => {
            let i = *i;
            Box::new(move |c| Value::Bool(c.switches.get(i).copied().unwrap_or(false)))
        }
        CExpr::Move(f, name) => {
            let (f, name) = (*f, *name);
            Box::new(move |c| c.move_field(f, name))
        }
        CExpr::Unary(UnOp::Neg, _)
        | CExpr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, ..)
        | CExpr::Call(Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Round, _)
        | CExpr::Call(Builtin::Min | Builtin::Max, _)
            if num_handles(e) =>
        {
            let n = num(e);
            Box::new(move |c| n(c).value())
        }
        CExpr::Unary(UnOp::Not, _) | CExpr::Binary(..) | CExpr::Short(..) => {
            let t = truth(e);
            Box::new(move |c| t(c).value())
        }
        CExpr::If(k, a, b) => {
            let (k, a, b) = (TruthLeaf::of(k), value(a), value(b));
            Box::new(move |c| match k.get(c) {
                Truth::True => a(c),
                Truth::Unknown => Value::Unknown,
                _ => b(c),
            })
        }
        CExpr::Stateful(s) => {
            let slot = s.slot;
            Box::new(move |c| {
                c.slots
                    .get(slot)
                    .map_or(Value::None, |sl| sl.current.clone())
            })
        }
        CExpr::Field(Kind::Game, f) => {
            // the game's fields are listed once per game in the order of
            // `fields_of`: read at their place there; any other list (none
            // at all outside a game's evaluation) is the walk's
            let f = *f;
            let at = crate::timeline::fields_of(Kind::Game).position(|n| n == f);
            let e = e.clone();
            Box::new(move |c| match at.and_then(|i| c.run.game.get(i)) {
                Some((n, v)) if *n == f => v.clone(),
                _ => c.eval(&e),
            })
        }
        _ => {
            let e = e.clone();
            Box::new(move |c| c.eval(&e))
        }
    }
}

/// Whether [`num`] computes `e` itself, with the value `eval` gives (a
/// builtin of numbers called with one argument, or two for `min` and
/// `max`, as the analyzer checks; otherwise `eval`'s own call is kept).
pub(super) fn num_handles(e: &CExpr) -> bool {
    match e {
        CExpr::Call(Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Round, args) => {
            args.len() == 1
        }
        CExpr::Call(Builtin::Min | Builtin::Max, args) => args.len() == 2,
        _ => true,
    }
}

/// The expression as [`Ctx::num`] gives it.
pub(super) fn num(e: &CExpr) -> NumFn {
    match e {
        CExpr::Lit(v) => {
            let n = Num::of(v);
            Box::new(move |_| n)
        }
        CExpr::Stateful(s) => {
            let slot = s.slot;
            Box::new(move |c| {
                c.slots
                    .get(slot)
                    .map_or(Num::Other, |sl| Num::of(&sl.current))
            })
        }
        CExpr::Move(MoveField::Clock(f), _) => {
            let f = *f;
            Box::new(move |c| Num::of(&c.clock_field(f)))
        }
        CExpr::Const(_) | CExpr::Let(_) | CExpr::Move(..) => {
            let l = NumLeaf::of(e);
            Box::new(move |c| l.get(c))
        }
        CExpr::Unary(UnOp::Neg, a) => {
            let a = NumLeaf::of(a);
            Box::new(move |c| a.get(c).neg())
        }
        CExpr::If(k, a, b) => {
            let (k, a, b) = (TruthLeaf::of(k), NumLeaf::of(a), NumLeaf::of(b));
            Box::new(move |c| match k.get(c) {
                Truth::True => a.get(c),
                Truth::Unknown => Num::Unknown,
                _ => b.get(c),
            })
        }
        CExpr::Call(f @ (Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Round), args)
            if args.len() == 1 =>
        {
            let a = NumLeaf::of(&args[0]);
            match f {
                Builtin::Abs => Box::new(move |c| a.get(c).call1(Builtin::Abs)),
                Builtin::Floor => Box::new(move |c| a.get(c).call1(Builtin::Floor)),
                Builtin::Ceil => Box::new(move |c| a.get(c).call1(Builtin::Ceil)),
                _ => Box::new(move |c| a.get(c).call1(Builtin::Round)),
            }
        }
        CExpr::Call(f @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => {
            let (f, a, b) = (*f, NumLeaf::of(&args[0]), NumLeaf::of(&args[1]));
            Box::new(move |c| {
                let x = a.get(c);
                x.call2(f, b.get(c))
            })
        }
        CExpr::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
            let (a, b) = (NumLeaf::of(a), NumLeaf::of(b));
            macro_rules! arith {
                ($op:expr) => {
                    Box::new(move |c| {
                        let x = a.get(c);
                        x.arith($op, b.get(c))
                    })
                };
            }
            match op {
                BinOp::Add => arith!(BinOp::Add),
                BinOp::Sub => arith!(BinOp::Sub),
                BinOp::Mul => arith!(BinOp::Mul),
                _ => arith!(BinOp::Div),
            }
        }
        _ => {
            let v = value(e);
            Box::new(move |c| Num::of(&v(c)))
        }
    }
}

/// The expression as [`Ctx::truth`] gives it.
pub(super) fn truth(e: &CExpr) -> TruthFn {
    match e {
        CExpr::Lit(v) => {
            let t = Truth::of(v);
            Box::new(move |_| t)
        }
        CExpr::Const(i) => {
            let i = *i;
            Box::new(move |c| c.run.consts.get(i).map_or(Truth::Other, Truth::of))
        }
        CExpr::Stateful(s) => {
            let slot = s.slot;
            Box::new(move |c| {
                c.slots
                    .get(slot)
                    .map_or(Truth::Other, |sl| Truth::of(&sl.current))
            })
        }
        CExpr::Move(MoveField::Clock(f), _) => {
            let f = *f;
            Box::new(move |c| Truth::of(&c.clock_field(f)))
        }
        CExpr::Let(_) | CExpr::Switch(_) | CExpr::Move(..) => {
            let l = TruthLeaf::of(e);
            Box::new(move |c| l.get(c))
        }
        CExpr::Unary(UnOp::Not, a) => {
            let a = TruthLeaf::of(a);
            Box::new(move |c| a.get(c).not())
        }
        CExpr::If(k, a, b) => {
            let (k, a, b) = (TruthLeaf::of(k), TruthLeaf::of(a), TruthLeaf::of(b));
            Box::new(move |c| match k.get(c) {
                Truth::True => a.get(c),
                Truth::Unknown => Truth::Unknown,
                _ => b.get(c),
            })
        }
        CExpr::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
            let (a, b) = (NumLeaf::of(a), NumLeaf::of(b));
            macro_rules! cmp {
                ($op:expr) => {
                    Box::new(move |c| {
                        let x = a.get(c);
                        x.compare($op, b.get(c))
                    })
                };
            }
            match op {
                BinOp::Lt => cmp!(BinOp::Lt),
                BinOp::Le => cmp!(BinOp::Le),
                BinOp::Gt => cmp!(BinOp::Gt),
                _ => cmp!(BinOp::Ge),
            }
        }
        CExpr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => equality(*op == BinOp::Eq, a, b),
        CExpr::Binary(BinOp::In, a, b) => {
            let x = value(a);
            // a literal list, or a list of literals made once
            if let Some(l) = literal_list(b) {
                return Box::new(move |c| member(x(c), Some(&l)));
            }
            match &**b {
                CExpr::Const(i) => {
                    let i = *i;
                    Box::new(move |c| {
                        let x = x(c);
                        let consts = c.run.consts;
                        member(x, consts.get(i))
                    })
                }
                _ => {
                    let list = value(b);
                    Box::new(move |c| {
                        let x = x(c);
                        let l = list(c);
                        member(x, Some(&l))
                    })
                }
            }
        }
        CExpr::Binary(BinOp::And, a, b) => {
            let (a, b) = (TruthLeaf::of(a), TruthLeaf::of(b));
            Box::new(move |c| {
                let x = a.get(c);
                x.and(b.get(c))
            })
        }
        CExpr::Binary(BinOp::Or, a, b) => {
            let (a, b) = (TruthLeaf::of(a), TruthLeaf::of(b));
            Box::new(move |c| {
                let x = a.get(c);
                x.or(b.get(c))
            })
        }
        CExpr::Short(BinOp::And, a, b) => {
            let (a, b) = (TruthLeaf::of(a), TruthLeaf::of(b));
            Box::new(move |c| match a.get(c) {
                Truth::False => Truth::False,
                x => x.and(b.get(c)),
            })
        }
        CExpr::Short(_, a, b) => {
            let (a, b) = (TruthLeaf::of(a), TruthLeaf::of(b));
            Box::new(move |c| match a.get(c) {
                Truth::True => Truth::True,
                x => x.or(b.get(c)),
            })
        }
        _ => {
            let v = value(e);
            Box::new(move |c| Truth::of(&v(c)))
        }
    }
}

/// `x in list`, as [`Ctx::truth`] reads it.
fn member(x: Value, list: Option<&Value>) -> Truth {
    match (x, list.unwrap_or(&Value::None)) {
        (Value::Unknown, _) | (_, Value::Unknown) => Truth::Unknown,
        (x, Value::List(items)) => Truth::from(items.contains(&x)),
        _ => Truth::False,
    }
}

/// `a == b` (`eq`) or `a != b`, as [`Ctx::truth`] reads it: the side to
/// move against a text and a field of the move against a literal compared
/// in place.
fn equality(eq: bool, a: &CExpr, b: &CExpr) -> TruthFn {
    match (a, b) {
        // `lower(option.name) == "hash"`: an ASCII text compared with a
        // literal in lower-case ASCII without making its lower-case copy
        // (for ASCII, `to_lowercase` is the ASCII lower case); any other
        // value is lowered and compared as the walk does
        (CExpr::Call(Builtin::Lower, args), CExpr::Lit(Value::Str(t)))
        | (CExpr::Lit(Value::Str(t)), CExpr::Call(Builtin::Lower, args))
            if args.len() == 1 && t.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) =>
        {
            let (x, t) = (value(&args[0]), Value::Str(Text::Static(interned(t))));
            Box::new(move |c| {
                let v = x(c);
                let same = match (&v, &t) {
                    (Value::Str(s), Value::Str(t)) if s.is_ascii() => s.eq_ignore_ascii_case(t),
                    _ => {
                        let lowered = c.builtin(Builtin::Lower, [v, Value::None]);
                        if matches!(lowered, Value::Unknown) {
                            return Truth::Unknown;
                        }
                        lowered == t
                    }
                };
                Truth::from(same == eq)
            })
        }
        (CExpr::Move(f, name), CExpr::Lit(l)) | (CExpr::Lit(l), CExpr::Move(f, name)) => {
            let (f, name, l) = (*f, *name, l.clone());
            // `move.side == white`: the side named by the text, found
            // when compiled (a text that names neither side is neither)
            let side = match (f, &l) {
                (MoveField::Side, Value::Str(t)) => Some(match t.as_str() {
                    "white" => Some(shakmaty::Color::White),
                    "black" => Some(shakmaty::Color::Black),
                    _ => None,
                }),
                _ => None,
            };
            Box::new(move |c| {
                let same = match (side, &c.facts) {
                    (Some(named), Some(m)) => named == Some(m.ply.side),
                    _ => {
                        let v = c.move_field(f, name);
                        if matches!(v, Value::Unknown) || matches!(l, Value::Unknown) {
                            return Truth::Unknown;
                        }
                        v == l
                    }
                };
                Truth::from(same == eq)
            })
        }
        _ => {
            let (a, b) = (value(a), value(b));
            Box::new(move |c| {
                let x = a(c);
                let y = b(c);
                if matches!(x, Value::Unknown) || matches!(y, Value::Unknown) {
                    return Truth::Unknown;
                }
                Truth::from((x == y) == eq)
            })
        }
    }
}

#[cfg(test)]
pub(in crate::rules::eval) mod tests {
    use super::*;

    /// A small generator of expressions, deterministic (a linear
    /// congruential sequence), over every node the compiler knows and some
    /// it hands back to the walk.
    pub(in crate::rules::eval) struct Gen(pub(in crate::rules::eval) crate::test_rng::Lcg);

    impl Gen {
        pub(in crate::rules::eval) fn next(&mut self, n: usize) -> usize {
            self.0.below(n)
        }

        fn leaf(&mut self, values: usize) -> CExpr {
            match self.next(6) {
                5 => {
                    // a field of the game, one the list has or not
                    let names: Vec<&'static str> = crate::timeline::fields_of(Kind::Game).collect();
                    match self.next(names.len() + 1) {
                        i if i < names.len() => CExpr::Field(Kind::Game, names[i]),
                        _ => CExpr::Field(Kind::Game, "no_such_field"),
                    }
                }
                0 => CExpr::Lit(sample_values()[self.next(values)].clone()),
                1 => CExpr::Const(self.next(values + 1)),
                2 => CExpr::Let(self.next(values + 1)),
                3 => CExpr::Switch(self.next(3)),
                _ => {
                    let fields = [
                        (MoveField::Side, "side"),
                        (MoveField::Capture, "capture"),
                        (MoveField::Book, "book"),
                        (MoveField::Score, "score"),
                        (MoveField::Depth, "depth"),
                        (MoveField::San, "san"),
                        (MoveField::RecordedR50, "recorded_r50"),
                    ];
                    let (f, name) = fields[self.next(fields.len())];
                    CExpr::Move(f, name)
                }
            }
        }

        pub(in crate::rules::eval) fn expr(&mut self, depth: u32, values: usize) -> CExpr {
            if depth == 0 {
                return self.leaf(values);
            }
            let sub = |g: &mut Gen| Box::new(g.expr(depth - 1, values));
            let ops = BinOp::ALL;
            let one = [Builtin::Abs, Builtin::Floor, Builtin::Ceil, Builtin::Round];
            match self.next(9) {
                0 => self.leaf(values),
                1 => CExpr::Unary(
                    if self.next(2) == 0 {
                        UnOp::Not
                    } else {
                        UnOp::Neg
                    },
                    sub(self),
                ),
                2 | 3 => CExpr::Binary(ops[self.next(ops.len())], sub(self), sub(self)),
                4 => CExpr::Short(
                    if self.next(2) == 0 {
                        BinOp::And
                    } else {
                        BinOp::Or
                    },
                    sub(self),
                    sub(self),
                ),
                5 => CExpr::If(sub(self), sub(self), sub(self)),
                6 => CExpr::Call(one[self.next(one.len())], vec![*sub(self)]),
                7 => CExpr::Call(
                    if self.next(2) == 0 {
                        Builtin::Min
                    } else {
                        Builtin::Max
                    },
                    vec![*sub(self), *sub(self)],
                ),
                // builtins the compiler hands to the walk
                _ => match self.next(3) {
                    0 => CExpr::Call(Builtin::Abs, vec![*sub(self), *sub(self)]),
                    1 => CExpr::Call(Builtin::Contains, vec![*sub(self), *sub(self)]),
                    _ => CExpr::List(vec![*sub(self), *sub(self)]),
                },
            }
        }
    }

    pub(in crate::rules::eval) fn sample_values() -> Vec<Value> {
        vec![
            Value::Str("black".into()),
            Value::Num(2.0),
            Value::Num(-3.5),
            Value::Num(0.0),
            Value::Num(10.0),
            Value::Bool(true),
            Value::Bool(false),
            Value::Str("white".into()),
            Value::Str("x".into()),
            Value::List(vec![Value::Num(2.0), Value::Str("white".into())]),
            Value::None,
            Value::Unknown,
        ]
    }

    /// Every compiled closure gives what the walk gives on the same
    /// expression, as a value, a number and a truth: over the operators,
    /// builtins, `if`, `not`, `-`, short cuts, `in`, literals, constants,
    /// `let`s (one past the end too), switches and fields of the move
    /// (`move.side == white` among them), every kind of value on either
    /// side, to a depth of four; at each move of a TCEC game (book moves,
    /// engine moves, both sides, a capture) and with no move at all.
    #[test]
    fn compiled_expressions_give_what_the_walk_gives() {
        let pgn = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
            1. e4 {book} d5 {book} 2. exd5 {d=20, sd=30, mt=1000, tl=60000, n=5000, pv=exd5 Qxd5, wv=0.35, R50=50, Rd=-11, Rr=-11,} \
            Qxd5 {d=1, sd=1, mt=0, tl=59000, n=0, pv=, wv=0.30, R50=50, Rd=-11, Rr=-11,} 3. Nc3 *\n";
        let chunk = crate::ingest::pgn::GameChunk::of_text(0, 0, 1, pgn.as_bytes().to_vec());
        let game = crate::ingest::pgn::parse_game(&chunk);
        let replay = crate::replay::replay(&game);
        let tl = Timeline::build(&game, &replay);
        let facts: Vec<_> = replay.plies.iter().map(|p| tl.move_facts(p)).collect();
        assert_eq!(facts.len(), 5, "every move of the game replays");
        for at in facts.iter().map(Some).chain([None]) {
            walk_and_closures_agree(at);
        }
    }

    fn walk_and_closures_agree(facts: Option<&crate::timeline::MoveFacts<'_>>) {
        let values = sample_values();
        let detectors = Detectors::default();
        let cache = DetectorCache::default();
        // the game's fields, each with one of the sample values, listed as
        // a game's evaluation lists them; and no list at all
        let game: Vec<(&'static str, Value)> = crate::timeline::fields_of(Kind::Game)
            .zip(values.iter().cycle())
            .map(|(n, v)| (n, v.clone()))
            .collect();
        for listed in [&game[..], &[]] {
            let mut run = Run::bare(&values, &detectors, &cache);
            run.game = listed;
            agree_on(&run, &values, facts);
        }
    }

    fn agree_on(
        run: &Run<'_, '_>,
        values: &[Value],
        facts: Option<&crate::timeline::MoveFacts<'_>>,
    ) {
        let (mut notes, mut evidence) = (Vec::new(), Vec::new());
        let mut ctx = Ctx {
            run,
            i: 0,
            switches: &[true, false],
            lets: values,
            overlay: None,
            slots: &mut [],
            notes: &mut notes,
            evidence: &mut evidence,
            facts,
        };
        // the shapes compiled in place, each way round
        let field = |f, name| Box::new(CExpr::Move(f, name));
        let lit = |v: Value| Box::new(CExpr::Lit(v));
        let mut fixed = Vec::new();
        for (f, name) in [
            (MoveField::Side, "side"),
            (MoveField::Capture, "capture"),
            (MoveField::Score, "score"),
        ] {
            for v in values.iter().chain(&[Value::Num(0.35), Value::Num(-0.35)]) {
                for op in [BinOp::Eq, BinOp::Ne] {
                    fixed.push(CExpr::Binary(op, field(f, name), lit(v.clone())));
                    fixed.push(CExpr::Binary(op, lit(v.clone()), field(f, name)));
                }
            }
        }
        // `lower(x)` against a literal, each way round: texts in ASCII or
        // not, literals in lower case or not, and every sample value
        let texts = [
            "HaSh",
            "hash",
            "ÉCOLE",
            "école",
            "\u{212A}",
            "Kelvin \u{212A}",
            "x",
        ];
        let inputs: Vec<Value> = texts
            .iter()
            .map(|t| Value::Str((*t).into()))
            .chain(values.iter().cloned())
            .collect();
        for x in &inputs {
            for l in ["hash", "école", "k", "Hash", "x", ""] {
                let low = || Box::new(CExpr::Call(Builtin::Lower, vec![CExpr::Lit(x.clone())]));
                for op in [BinOp::Eq, BinOp::Ne] {
                    fixed.push(CExpr::Binary(op, low(), lit(Value::Str(l.into()))));
                    fixed.push(CExpr::Binary(op, lit(Value::Str(l.into())), low()));
                }
            }
        }
        // lists of literals (made once when compiled), nested too, as
        // values and on the right of `in`
        let listed = || {
            Box::new(CExpr::List(vec![
                CExpr::Lit(Value::Str("white".into())),
                CExpr::Lit(Value::Num(2.0)),
                CExpr::List(vec![CExpr::Lit(Value::Bool(true))]),
            ]))
        };
        for v in values {
            fixed.push(CExpr::Binary(BinOp::In, lit(v.clone()), listed()));
        }
        fixed.push(*listed());
        let mut g = Gen(crate::test_rng::Lcg(15));
        let mut kinds = std::collections::BTreeSet::new();
        for n in 0..5_000 {
            let e = match fixed.pop() {
                Some(e) => e,
                None => g.expr(1 + n % 4, values.len()),
            };
            let want = ctx.eval(&e);
            assert_eq!(value(&e)(&mut ctx), want, "{e:?}");
            assert_eq!(
                format!("{:?}", num(&e)(&mut ctx)),
                format!("{:?}", ctx.num(&e)),
                "{e:?}"
            );
            assert_eq!(truth(&e)(&mut ctx), ctx.truth(&e), "{e:?}");
            kinds.insert(want.type_name());
        }
        // the sample reaches every kind of result
        assert_eq!(kinds.len(), 6, "{kinds:?}");
    }
}
