//! An expression: literals, names, fields of the events in scope, and
//! operators, each checked for the types it needs; calls are `calls`'.

use super::analyzer::{Analyzer, BUILTIN_NAMES, names};
use super::cexpr::CExpr;
use super::types::type_name;
use crate::base::suggest::suggest;
use crate::base::value::{Type, Value};
use crate::rules::syntax::ast::{self, BinOp, ExprKind, UnOp};
use crate::rules::syntax::error::RuleError;
use crate::timeline::{self, Kind};

impl Analyzer<'_> {
    pub(super) fn expr(&mut self, e: &ast::Expr) -> Result<CExpr, RuleError> {
        Ok(match &e.kind {
            ExprKind::Num(n) | ExprKind::Duration(n) => CExpr::Lit(Value::Num(*n)),
            ExprKind::Str(s) => CExpr::Lit(Value::Str(s.as_str().into())),
            ExprKind::Bool(b) => CExpr::Lit(Value::Bool(*b)),
            ExprKind::None => CExpr::Lit(Value::None),
            ExprKind::List(items) => CExpr::List(
                items
                    .iter()
                    .map(|i| self.expr(i))
                    .collect::<Result<_, _>>()?,
            ),
            ExprKind::Name(n) => self.name(e, n)?,
            ExprKind::Field(kind_name, field) => self.field(e, kind_name, field)?,
            ExprKind::Unary(op, inner) => {
                let c = self.expr(inner)?;
                let want = if *op == UnOp::Not {
                    Type::Bool
                } else {
                    Type::Num
                };
                self.expect_type(
                    &c,
                    want,
                    inner.pos,
                    if *op == UnOp::Not { "`not`" } else { "`-`" },
                )?;
                CExpr::Unary(*op, Box::new(c))
            }
            ExprKind::Binary(op, a, b) => self.binary(e, op, a, b)?,
            ExprKind::If(c, a, b) => {
                let cc = self.condition(c)?;
                CExpr::If(
                    Box::new(cc),
                    Box::new(self.expr(a)?),
                    Box::new(self.expr(b)?),
                )
            }
            ExprKind::Call(name, args, named) => self.call(e, name, args, named)?,
        })
    }

    /// A name: a `let` (where the game is in scope), a constant, a switch,
    /// or a built-in name (a side, a draw).
    fn name(&mut self, e: &ast::Expr, n: &str) -> Result<CExpr, RuleError> {
        Ok(if let Some(&i) = self.let_index.get(n) {
            if self.scope.is_none() {
                return Err(RuleError::new(
                    e.pos,
                    format!("`{n}` changes during the game; it cannot be used here"),
                ));
            }
            CExpr::Let(i)
        } else if let Some(&i) = self.const_index.get(n) {
            CExpr::Const(i)
        } else if let Some(&i) = self.switch_index.get(n) {
            CExpr::Switch(i)
        } else if BUILTIN_NAMES.contains(&n) {
            CExpr::Lit(Value::Str(n.into()))
        } else {
            let mut all: Vec<&str> = names(&self.const_index);
            all.extend(names(&self.let_index));
            all.extend(names(&self.switch_index));
            all.extend(BUILTIN_NAMES);
            let mut err = RuleError::new(e.pos, format!("unknown name `{n}`"));
            if let Some(h) = suggest(n, all.iter().copied()) {
                err = err.help(h);
            } else if Kind::from_name(n).is_some() {
                err = err.help(format!(
                    "name a field, e.g. `{n}.{}`",
                    timeline::fields_of(Kind::from_name(n).unwrap())
                        .next()
                        .unwrap_or("?")
                ));
            } else {
                err = err.help("define it with `const`, `let` or `switch` before use");
            }
            return Err(err);
        })
    }

    /// A field of an event kind (`kind_name.field`), where the scope can
    /// read it: the move's resolved once.
    fn field(
        &mut self,
        e: &ast::Expr,
        kind_name: &ast::Name,
        field: &ast::Name,
    ) -> Result<CExpr, RuleError> {
        let kind = self.kind(kind_name)?;
        match (kind, self.scope) {
            (Kind::Game, Some(s)) if s.is_event_level() => {
                return Err(RuleError::new(kind_name.pos, format!(
                    "`game` fields are one game's tags; this is evaluated on `{}` items, which span the event",
                    s.name()
                ))
                .help("use `event_game.…` for each game of the event, or `event.…`"));
            }
            (Kind::Game, _) => {}
            (Kind::Scope(timeline::ScopeKind::Event), Some(s)) if s.is_event_level() => {}
            (_, None) => {
                return Err(RuleError::new(
                    e.pos,
                    format!(
                        "`{}.{}` changes during the game; it cannot be used in a constant",
                        kind_name.text, field.text
                    ),
                ));
            }
            (k, Some(s)) if k != s => {
                return Err(RuleError::new(
                    kind_name.pos,
                    format!(
                        "`{}` fields are not available here: this is evaluated on `{}` events",
                        kind_name.text,
                        s.name()
                    ),
                )
                .help(format!(
                    "use `{}.…`, or `game.…` for the game's tags",
                    s.name()
                )));
            }
            _ => {}
        }
        let Some(name) = timeline::fields_of(kind).find(|f| *f == field.text) else {
            let help = suggest(&field.text, timeline::fields_of(kind)).unwrap_or_else(|| {
                format!(
                    "`{}` has: {}",
                    kind.name(),
                    timeline::fields_of(kind).collect::<Vec<_>>().join(", ")
                )
            });
            return Err(RuleError::new(
                field.pos,
                format!("`{}` has no field `{}`", kind.name(), field.text),
            )
            .help(help));
        };
        Ok(match timeline::MoveField::from_name(name) {
            Some(f) if kind == Kind::Move => CExpr::Move(f, name),
            _ => CExpr::Field(kind, name),
        })
    }

    /// `a op b`, each side of the type the operator needs; an `and` or `or`
    /// whose right side calls no detector is short-cut.
    fn binary(
        &mut self,
        e: &ast::Expr,
        op: &BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
    ) -> Result<CExpr, RuleError> {
        let ca = self.expr(a)?;
        let cb = self.expr(b)?;
        match op {
            BinOp::And | BinOp::Or => {
                self.expect_type(&ca, Type::Bool, a.pos, &format!("`{}`", op.symbol()))?;
                self.expect_type(&cb, Type::Bool, b.pos, &format!("`{}`", op.symbol()))?;
            }
            BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Div
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge => {
                self.expect_type(&ca, Type::Num, a.pos, &format!("`{}`", op.symbol()))?;
                self.expect_type(&cb, Type::Num, b.pos, &format!("`{}`", op.symbol()))?;
            }
            BinOp::Eq | BinOp::Ne => {
                let (ta, tb) = (self.type_of(&ca), self.type_of(&cb));
                if ta != Type::Any && tb != Type::Any && ta != tb {
                    return Err(RuleError::new(
                        e.pos,
                        format!(
                            "cannot compare a {} with a {}",
                            type_name(ta),
                            type_name(tb)
                        ),
                    ));
                }
            }
            BinOp::In => {
                if !matches!(cb, CExpr::List(_) | CExpr::Const(_)) {
                    return Err(RuleError::new(
                        b.pos,
                        "`in` needs a list such as `[\"a\", \"b\"]`",
                    ));
                }
            }
        }
        Ok(
            if matches!(op, BinOp::And | BinOp::Or) && !calls_detector(&cb) {
                CExpr::Short(*op, Box::new(ca), Box::new(cb))
            } else {
                CExpr::Binary(*op, Box::new(ca), Box::new(cb))
            },
        )
    }
}

/// Whether a detector is called anywhere inside `e`.
fn calls_detector(e: &CExpr) -> bool {
    if matches!(e, CExpr::Detector(..)) {
        return true;
    }
    let mut any = false;
    e.each_child(&mut |x| any = any || calls_detector(x));
    any
}
