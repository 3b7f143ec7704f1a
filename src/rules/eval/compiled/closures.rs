//! The closures: each node compiled for its shape, as a value, a number
//! or a truth, its operands read in place where they are leaves (a
//! literal, a constant, a `let`, a switch, a field of the move).

use super::literals::{interned, literal_list};
use super::{NumFn, TruthFn, ValFn};
use crate::base::value::{Text, Value};
use crate::rules::analysis::{Builtin, CExpr};
use crate::rules::eval::ctx::Ctx;
use crate::rules::eval::typed::{Num, Truth};
use crate::rules::syntax::ast::{BinOp, UnOp};
use crate::timeline::{Kind, MoveField};

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
pub(in crate::rules::eval) fn num_handles(e: &CExpr) -> bool {
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
