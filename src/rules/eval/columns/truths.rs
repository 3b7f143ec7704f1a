//! A node's column as a truth ([`Ctx::truth`]), and the `and` and `or`
//! whose detector is walked only where the other side leaves the result
//! open.

use std::borrow::Cow;

use shakmaty::Color;

use super::col::{Col, cow_truths};
use super::cols::Cols;
use super::column::Column;
use super::values::choose;
use crate::base::value::Value;
use crate::rules::analysis::CExpr;
use crate::rules::eval::columnar::{calls_detector, walked};
use crate::rules::eval::ctx::Ctx;
use crate::rules::eval::typed::{Num, Truth};
use crate::rules::syntax::ast::{BinOp, UnOp};
use crate::timeline::MoveField;

impl Cols<'_, '_, '_> {
    /// `x op b` where `b` calls a detector and is walked: `b` is walked
    /// only at the moves where `x` is not `decided` (`false` for `and`,
    /// `true` for `or`), which gives the result whatever `b` is there
    /// (`None`: `b` is not such an operand).
    fn unless(
        &self,
        x: &Column<Truth>,
        decided: Truth,
        b: &CExpr,
        op: fn(Truth, Truth) -> Truth,
    ) -> Option<Column<Truth>> {
        // the walk of `b` only where the expression calls a detector at all
        if !(self.detectors && calls_detector(b) && walked(b)) {
            return None;
        }
        let (mut notes, mut evidence) = (Vec::new(), Vec::new());
        Some(Column::C(
            (0..self.n())
                .map(|r| {
                    let x = *x.at(r);
                    if x == decided {
                        return decided;
                    }
                    let mut ctx = Ctx::stateless(
                        self.run,
                        self.switches,
                        self.events.get(r).copied().unwrap_or(0),
                        self.rows.get(r),
                        &mut notes,
                        &mut evidence,
                    );
                    let y = ctx.truth(b);
                    notes.clear();
                    evidence.clear();
                    op(x, y)
                })
                .collect(),
        ))
    }

    /// As [`Ctx::truth`] gives it.
    pub(super) fn truth(&self, e: &CExpr) -> Cow<'_, Column<Truth>> {
        let n = self.n();
        Cow::Owned(match e {
            CExpr::Lit(v) => Column::K(Truth::of(v)),
            CExpr::Let(l) => return self.let_col(*l).truths(),
            CExpr::Switch(i) => {
                Column::K(Truth::from(self.switches.get(*i).copied().unwrap_or(false)))
            }
            CExpr::Move(f, _) => return cow_truths(self.field(*f)),
            CExpr::Unary(UnOp::Not, a) => self.truth(a).map(|x| x.not()),
            CExpr::If(k, a, b) => {
                let k = self.truth(k);
                match &*k {
                    Column::K(Truth::True) => return self.truth(a),
                    Column::K(Truth::Unknown) => Column::K(Truth::Unknown),
                    Column::K(_) => return self.truth(b),
                    _ => choose(&k, &self.truth(a), &self.truth(b), Truth::Unknown, n),
                }
            }
            CExpr::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                let (x, y) = (self.num(a), self.num(b));
                match op {
                    BinOp::Lt => x.zip(&y, |x, y| x.compare(BinOp::Lt, *y)),
                    BinOp::Le => x.zip(&y, |x, y| x.compare(BinOp::Le, *y)),
                    BinOp::Gt => x.zip(&y, |x, y| x.compare(BinOp::Gt, *y)),
                    _ => x.zip(&y, |x, y| x.compare(BinOp::Ge, *y)),
                }
            }
            CExpr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let eq = *op == BinOp::Eq;
                match (&**a, &**b) {
                    // the side to move against a text: the side the text
                    // names found once (as `side_is` reads it)
                    (CExpr::Move(MoveField::Side, _), CExpr::Lit(Value::Str(t)))
                    | (CExpr::Lit(Value::Str(t)), CExpr::Move(MoveField::Side, _)) => {
                        let named = match t.as_str() {
                            "white" => Some(Color::White),
                            "black" => Some(Color::Black),
                            _ => None,
                        };
                        Column::C(
                            self.rows
                                .iter()
                                .map(|m| Truth::from((Some(m.ply.side) == named) == eq))
                                .collect(),
                        )
                    }
                    _ => {
                        let (x, y) = (self.value(a), self.value(b));
                        let differ = Truth::from(!eq);
                        // numbers (none among them) and truths compared as
                        // they are held: a number or none is never a truth
                        match (&*x, &*y) {
                            (Col::N(x), Col::N(y)) => {
                                return Cow::Owned(x.zip(y, |x, y| match (x, y) {
                                    (Num::Unknown, _) | (_, Num::Unknown) => Truth::Unknown,
                                    (Num::Is(x), Num::Is(y)) => Truth::from((x == y) == eq),
                                    (Num::Other, Num::Other) => Truth::from(eq),
                                    _ => differ,
                                }));
                            }
                            (Col::T(x), Col::T(y)) => {
                                return Cow::Owned(x.zip(y, |x, y| match (x, y) {
                                    (Truth::Unknown, _) | (_, Truth::Unknown) => Truth::Unknown,
                                    _ => Truth::from((x == y) == eq),
                                }));
                            }
                            (Col::N(x), Col::T(y)) => {
                                return Cow::Owned(x.zip(y, |x, y| match (x, y) {
                                    (Num::Unknown, _) | (_, Truth::Unknown) => Truth::Unknown,
                                    _ => differ,
                                }));
                            }
                            (Col::T(x), Col::N(y)) => {
                                return Cow::Owned(x.zip(y, |x, y| match (x, y) {
                                    (Truth::Unknown, _) | (_, Num::Unknown) => Truth::Unknown,
                                    _ => differ,
                                }));
                            }
                            _ => {}
                        }
                        x.zip_values(&y, n, |x, y| {
                            if matches!(x, Value::Unknown) || matches!(y, Value::Unknown) {
                                Truth::Unknown
                            } else {
                                Truth::from((x == y) == eq)
                            }
                        })
                    }
                }
            }
            CExpr::Binary(BinOp::In, a, b) => {
                let (x, list) = (self.value(a), self.value(b));
                x.zip_values(&list, n, |x, list| match (x, list) {
                    (Value::Unknown, _) | (_, Value::Unknown) => Truth::Unknown,
                    (x, Value::List(items)) => Truth::from(items.contains(x)),
                    _ => Truth::False,
                })
            }
            // `false` at every move on either side decides `and`, and
            // `true` decides `or`, whatever the other side is at each move
            // (the side not yet evaluated is not)
            CExpr::Binary(BinOp::And, a, b) | CExpr::Short(BinOp::And, a, b) => {
                let x = self.truth(a);
                if matches!(&*x, Column::K(Truth::False)) {
                    return x;
                }
                if let Some(c) = self.unless(&x, Truth::False, b, Truth::and) {
                    return Cow::Owned(c);
                }
                let y = self.truth(b);
                if matches!(&*y, Column::K(Truth::False)) {
                    return y;
                }
                x.zip(&y, |x, y| x.and(*y))
            }
            CExpr::Binary(BinOp::Or, a, b) | CExpr::Short(_, a, b) => {
                let x = self.truth(a);
                if matches!(&*x, Column::K(Truth::True)) {
                    return x;
                }
                if let Some(c) = self.unless(&x, Truth::True, b, Truth::or) {
                    return Cow::Owned(c);
                }
                let y = self.truth(b);
                if matches!(&*y, Column::K(Truth::True)) {
                    return y;
                }
                x.zip(&y, |x, y| x.or(*y))
            }
            _ => return cow_truths(self.value(e)),
        })
    }
}
