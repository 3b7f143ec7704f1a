//! A node's column as a value ([`Ctx::eval`]) and as a number
//! ([`Ctx::num`]).

use std::borrow::Cow;

use super::col::{Col, Dict, coded, cow_nums, retyped, same_value, typed_one};
use super::cols::Cols;
use super::column::{Buf, Column, Pooled, settled};
use crate::base::value::Value;
use crate::rules::analysis::{Builtin, CExpr};
use crate::rules::eval::columnar::{literal, numeric};
use crate::rules::eval::compiled;
use crate::rules::eval::typed::{Num, Truth};
use crate::rules::syntax::ast::{BinOp, UnOp};
use crate::timeline::Kind;

/// `if k then a else b`, move by move.
pub(super) fn choose<T: Clone + Pooled>(
    k: &Column<Truth>,
    a: &Column<T>,
    b: &Column<T>,
    unknown: T,
    n: usize,
) -> Column<T> {
    let one = |k: Truth, a: &T, b: &T| match k {
        Truth::True => a.clone(),
        Truth::Unknown => unknown.clone(),
        _ => b.clone(),
    };
    // each shape its own loop (which branch is one value is not asked
    // again at every move)
    settled(match (k, a, b) {
        (Column::K(k), Column::K(a), Column::K(b)) => return Column::K(one(*k, a, b)),
        (Column::C(k), Column::C(a), Column::C(b)) => k
            .iter()
            .zip(a.iter().zip(b.iter()))
            .map(|(k, (a, b))| one(*k, a, b))
            .collect(),
        (Column::C(k), Column::K(a), Column::C(b)) => {
            k.iter().zip(b.iter()).map(|(k, b)| one(*k, a, b)).collect()
        }
        (Column::C(k), Column::C(a), Column::K(b)) => {
            k.iter().zip(a.iter()).map(|(k, a)| one(*k, a, b)).collect()
        }
        (Column::C(k), Column::K(a), Column::K(b)) => k.iter().map(|k| one(*k, a, b)).collect(),
        _ => (0..n).map(|r| one(*k.at(r), a.at(r), b.at(r))).collect(),
    })
}

impl Cols<'_, '_, '_> {
    /// As [`Ctx::eval`] gives it.
    pub(super) fn value(&self, e: &CExpr) -> Cow<'_, Col> {
        match e {
            CExpr::Lit(_) | CExpr::Const(_) | CExpr::Switch(_) | CExpr::Field(Kind::Game, _) => {
                Cow::Owned(typed_one(self.scalar(e)))
            }
            CExpr::List(_) if literal(e) => Cow::Owned(typed_one(self.scalar(e))),
            CExpr::Let(l) => Cow::Borrowed(self.let_col(*l)),
            CExpr::Move(f, _) => self.field(*f),
            CExpr::Unary(UnOp::Neg, _)
            | CExpr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, ..) => {
                Cow::Owned(Col::N(self.num(e).into_owned()))
            }
            CExpr::Call(..) if numeric(e) && compiled::num_handles(e) => {
                Cow::Owned(Col::N(self.num(e).into_owned()))
            }
            CExpr::Unary(UnOp::Not, _) | CExpr::Binary(..) | CExpr::Short(..) => {
                Cow::Owned(Col::of_truths(self.truth(e).into_owned()))
            }
            CExpr::If(k, a, b) => {
                let (k, n) = (self.truth(k), self.n());
                // a condition the same at every move: its branch alone
                if let Column::K(t) = &*k {
                    return match t {
                        Truth::True => self.value(a),
                        Truth::Unknown => Cow::Owned(typed_one(Value::Unknown)),
                        _ => self.value(b),
                    };
                }
                Cow::Owned(match (&*self.value(a), &*self.value(b)) {
                    (Col::N(a), Col::N(b)) => Col::N(choose(&k, a, b, Num::Unknown, n)),
                    (Col::T(a), Col::T(b)) => Col::T(choose(&k, a, b, Truth::Unknown, n)),
                    // two values, one for every move each: the condition
                    // codes the choice
                    (a, b) if let (Some(x), Some(y)) = (a.one(), b.one()) => match &*k {
                        Column::K(t) => typed_one(match t {
                            Truth::True => x,
                            Truth::Unknown => Value::Unknown,
                            _ => y,
                        }),
                        Column::C(k) => {
                            let mut values: Buf<Value> = Buf::with_capacity(3);
                            let mut place =
                                |v: Value| match values.iter().position(|d| same_value(d, &v)) {
                                    Some(at) => at as u8,
                                    None => {
                                        values.push(v);
                                        (values.len() - 1) as u8
                                    }
                                };
                            let (yes, no, unknown) = (place(x), place(y), place(Value::Unknown));
                            let codes = k
                                .iter()
                                .map(|t| match t {
                                    Truth::True => yes,
                                    Truth::Unknown => unknown,
                                    _ => no,
                                })
                                .collect();
                            retyped(Dict { values, codes })
                        }
                    },
                    (a, b) => coded((0..n).map(|r| match k.at(r) {
                        Truth::True => a.value_ref(r),
                        Truth::Unknown => Cow::Owned(Value::Unknown),
                        _ => b.value_ref(r),
                    })),
                })
            }
            CExpr::Stateful(s) => Cow::Borrowed(self.state(s.slot)),
            CExpr::Call(Builtin::Coalesce, args) if args.len() == 2 => {
                self.coalesce(&args[0], &args[1])
            }
            // the fields of other events, lists, the builtins of text and
            // the detectors: walked at each move
            CExpr::Field(..) | CExpr::List(_) | CExpr::Call(..) | CExpr::Detector(..) => {
                Cow::Owned(self.walk(e))
            }
        }
    }

    /// `coalesce(a, b)` as [`Ctx::builtin`] gives it: `a`, or `b` where
    /// `a` is none.
    fn coalesce(&self, a: &CExpr, b: &CExpr) -> Cow<'_, Col> {
        let (a, b) = (self.value(a), self.value(b));
        if let Some(v) = a.one() {
            return if v == Value::None { b } else { a };
        }
        let n = self.n();
        Cow::Owned(match (&*a, &*b) {
            // a column of numbers holds none as `Other`
            (Col::N(x), Col::N(y)) => {
                Col::N(x.zip(y, |x, y| if matches!(x, Num::Other) { *y } else { *x }))
            }
            // a column of truths holds no none
            (Col::T(_), _) => return a,
            (x, y) => coded((0..n).map(|r| {
                let v = x.value_ref(r);
                if *v == Value::None { y.value_ref(r) } else { v }
            })),
        })
    }

    /// As [`Ctx::num`] gives it.
    pub(super) fn num(&self, e: &CExpr) -> Cow<'_, Column<Num>> {
        let n = self.n();
        Cow::Owned(match e {
            CExpr::Lit(v) => Column::K(Num::of(v)),
            CExpr::Const(i) => Column::K(self.run.consts.get(*i).map_or(Num::Other, Num::of)),
            CExpr::Let(l) => return self.let_col(*l).nums(),
            CExpr::Stateful(s) => return self.state(s.slot).nums(),
            CExpr::Move(f, _) => return cow_nums(self.field(*f)),
            CExpr::Unary(UnOp::Neg, a) => self.num(a).map(|x| x.neg()),
            CExpr::If(k, a, b) => {
                let k = self.truth(k);
                match &*k {
                    Column::K(Truth::True) => return self.num(a),
                    Column::K(Truth::Unknown) => Column::K(Num::Unknown),
                    Column::K(_) => return self.num(b),
                    _ => choose(&k, &self.num(a), &self.num(b), Num::Unknown, n),
                }
            }
            CExpr::Call(
                f @ (Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Round),
                args,
            ) if args.len() == 1 => {
                // each function its own loop (the function is not asked
                // again at every move)
                let x = self.num(&args[0]);
                match f {
                    Builtin::Abs => x.map(|x| x.call1(Builtin::Abs)),
                    Builtin::Floor => x.map(|x| x.call1(Builtin::Floor)),
                    Builtin::Ceil => x.map(|x| x.call1(Builtin::Ceil)),
                    _ => x.map(|x| x.call1(Builtin::Round)),
                }
            }
            CExpr::Call(f @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => self
                .num(&args[0])
                .zip(&self.num(&args[1]), |x, y| x.call2(*f, *y)),
            CExpr::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
                let (x, y) = (self.num(a), self.num(b));
                match op {
                    BinOp::Add => x.zip(&y, |x, y| x.arith(BinOp::Add, *y)),
                    BinOp::Sub => x.zip(&y, |x, y| x.arith(BinOp::Sub, *y)),
                    BinOp::Mul => x.zip(&y, |x, y| x.arith(BinOp::Mul, *y)),
                    _ => x.zip(&y, |x, y| x.arith(BinOp::Div, *y)),
                }
            }
            _ => return cow_nums(self.value(e)),
        })
    }
}
