//! The types of compiled expressions, where they are known: what a
//! condition, an operator or a function's argument must be.

use super::analyzer::Analyzer;
use super::cexpr::{CExpr, StatefulFn};
use crate::base::value::{Type, Value};
use crate::rules::syntax::ast::{self, BinOp, UnOp};
use crate::rules::syntax::error::{Pos, RuleError};
use crate::timeline::{self, Kind};

impl Analyzer<'_> {
    pub(super) fn condition(&mut self, e: &ast::Expr) -> Result<CExpr, RuleError> {
        let c = self.expr(e)?;
        match self.type_of(&c) {
            Type::Bool | Type::Any => Ok(c),
            t => Err(RuleError::new(
                e.pos,
                format!(
                    "expected a condition (true or false), found a {}",
                    type_name(t)
                ),
            )
            .help("compare it, e.g. `x >= 10`")),
        }
    }

    /// The type of `c`: a constant's or a `let`'s is looked up, not
    /// found again (a chain of names would be retyped at every use).
    pub(super) fn type_of(&self, c: &CExpr) -> Type {
        match c {
            CExpr::Lit(Value::Num(_)) => Type::Num,
            CExpr::Lit(Value::Bool(_)) => Type::Bool,
            CExpr::Lit(Value::Str(_)) => Type::Str,
            CExpr::Lit(_) => Type::Any,
            // found once, when the constant or `let` was declared
            CExpr::Const(i) => self.const_types.get(*i).copied().unwrap_or(Type::Any),
            CExpr::Let(i) => self.let_types.get(*i).copied().unwrap_or(Type::Any),
            CExpr::Switch(_) => Type::Bool,
            CExpr::Field(k, f) => timeline::field_type(*k, f).unwrap_or(Type::Any),
            CExpr::Move(_, f) => timeline::field_type(Kind::Move, f).unwrap_or(Type::Any),
            CExpr::Unary(UnOp::Not, _) => Type::Bool,
            CExpr::Unary(UnOp::Neg, _) => Type::Num,
            CExpr::Short(..) => Type::Bool,
            CExpr::Binary(op, ..) => match op {
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => Type::Num,
                _ => Type::Bool,
            },
            CExpr::If(_, a, b) => {
                let (ta, tb) = (self.type_of(a), self.type_of(b));
                if ta == tb { ta } else { Type::Any }
            }
            CExpr::List(_) => Type::Any,
            CExpr::Call(b, _) => b.returns(),
            CExpr::Stateful(s) => match s.func {
                StatefulFn::Since => Type::Bool,
                StatefulFn::Previous | StatefulFn::Last => Type::Any,
                _ => Type::Num,
            },
            CExpr::Detector(..) => Type::Any,
        }
    }

    pub(super) fn expect_type(
        &self,
        c: &CExpr,
        want: Type,
        pos: Pos,
        what: &str,
    ) -> Result<(), RuleError> {
        let t = self.type_of(c);
        if t == want || t == Type::Any {
            Ok(())
        } else {
            Err(RuleError::new(
                pos,
                format!(
                    "{what} needs a {}, found a {}",
                    type_name(want),
                    type_name(t)
                ),
            ))
        }
    }
}

pub(super) fn type_name(t: Type) -> &'static str {
    match t {
        Type::Num => "number",
        Type::Bool => "condition",
        Type::Str => "string",
        Type::Any => "value",
    }
}
