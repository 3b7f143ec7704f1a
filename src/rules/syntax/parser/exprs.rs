//! Expressions, lowest precedence first: `if`, `or`, `and`, `not`,
//! comparisons, `+ -`, `* /`, unary `-`, then literals, names, fields,
//! calls, lists and parentheses.

use super::positions::span;
use super::{Parser, RECURSION_LIMIT};
use crate::rules::syntax::ast::*;
use crate::rules::syntax::error::RuleError;
use crate::rules::syntax::lexer::Tok;

impl Parser<'_> {
    pub fn expr(&mut self) -> Result<Expr, RuleError> {
        self.depth += 1;
        if self.depth > RECURSION_LIMIT {
            let pos = self.peek().pos;
            return Err(RuleError::new(
                pos,
                format!("expression nested more than {RECURSION_LIMIT} levels deep"),
            )
            .help("split it into `let` definitions"));
        }
        let r = self.if_expr();
        self.depth -= 1;
        r
    }

    fn if_expr(&mut self) -> Result<Expr, RuleError> {
        if self.is_ident("if") {
            let start = self.bump();
            let c = self.expr()?;
            self.expect_word("then")?;
            let a = self.expr()?;
            self.expect_word("else")?;
            let b = self.expr()?;
            let pos = span(start, b.pos);
            return Ok(Expr {
                kind: ExprKind::If(Box::new(c), Box::new(a), Box::new(b)),
                pos,
            });
        }
        self.or_expr()
    }

    /// Operands `next` parses, joined left to right by the operators `op`
    /// reads from a token (without a copy of the token).
    fn binary_chain(
        &mut self,
        next: fn(&mut Self) -> Result<Expr, RuleError>,
        op: fn(&Tok) -> Option<BinOp>,
    ) -> Result<Expr, RuleError> {
        let mut lhs = next(self)?;
        loop {
            let Some(op) = op(&self.peek().tok) else {
                return Ok(lhs);
            };
            self.bump();
            let rhs = next(self)?;
            let pos = span(lhs.pos, rhs.pos);
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                pos,
            };
        }
    }

    fn or_expr(&mut self) -> Result<Expr, RuleError> {
        self.binary_chain(Self::and_expr, |t| {
            matches!(t, Tok::Ident(w) if w == "or").then_some(BinOp::Or)
        })
    }

    fn and_expr(&mut self) -> Result<Expr, RuleError> {
        self.binary_chain(Self::not_expr, |t| {
            matches!(t, Tok::Ident(w) if w == "and").then_some(BinOp::And)
        })
    }

    fn not_expr(&mut self) -> Result<Expr, RuleError> {
        if self.is_ident("not") {
            return self.prefix(UnOp::Not, Self::not_expr);
        }
        self.cmp_expr()
    }

    /// A prefix operator (`not`, unary `-`) applied to what `operand`
    /// parses, within the nesting limit.
    fn prefix(
        &mut self,
        op: UnOp,
        operand: fn(&mut Self) -> Result<Expr, RuleError>,
    ) -> Result<Expr, RuleError> {
        let start = self.bump();
        self.depth += 1;
        if self.depth > RECURSION_LIMIT {
            return Err(RuleError::new(
                start,
                format!("expression nested more than {RECURSION_LIMIT} levels deep"),
            ));
        }
        let e = operand(self);
        self.depth -= 1;
        let e = e?;
        let pos = span(start, e.pos);
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(e)),
            pos,
        })
    }

    fn cmp_expr(&mut self) -> Result<Expr, RuleError> {
        let lhs = self.add_expr()?;
        let op = match &self.peek().tok {
            Tok::Eq => BinOp::Eq,
            Tok::Ne => BinOp::Ne,
            Tok::Lt => BinOp::Lt,
            Tok::Le => BinOp::Le,
            Tok::Gt => BinOp::Gt,
            Tok::Ge => BinOp::Ge,
            Tok::Ident(s) if s == "in" => BinOp::In,
            _ => return Ok(lhs),
        };
        self.bump();
        let rhs = self.add_expr()?;
        let pos = span(lhs.pos, rhs.pos);
        if matches!(
            self.peek().tok,
            Tok::Eq | Tok::Ne | Tok::Lt | Tok::Le | Tok::Gt | Tok::Ge
        ) {
            return Err(
                RuleError::new(self.peek().pos, "comparisons cannot be chained")
                    .help("join two comparisons with `and`"),
            );
        }
        Ok(Expr {
            kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            pos,
        })
    }

    fn add_expr(&mut self) -> Result<Expr, RuleError> {
        self.binary_chain(Self::mul_expr, |t| match t {
            Tok::Plus => Some(BinOp::Add),
            Tok::Minus => Some(BinOp::Sub),
            _ => None,
        })
    }

    fn mul_expr(&mut self) -> Result<Expr, RuleError> {
        self.binary_chain(Self::unary_expr, |t| match t {
            Tok::Star => Some(BinOp::Mul),
            Tok::Slash => Some(BinOp::Div),
            _ => None,
        })
    }

    fn unary_expr(&mut self) -> Result<Expr, RuleError> {
        if self.peek().tok == Tok::Minus {
            return self.prefix(UnOp::Neg, Self::unary_expr);
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, RuleError> {
        // the token is read where it lies: only a text it holds is copied
        let pos = self.peek().pos;
        let simple = |kind| Ok(Expr { kind, pos });
        match &self.peek().tok {
            Tok::Num(n) => {
                let n = *n;
                self.bump();
                simple(ExprKind::Num(n))
            }
            Tok::Duration(ms) => {
                let ms = *ms;
                self.bump();
                simple(ExprKind::Duration(ms))
            }
            Tok::Str(s) => {
                let s = s.clone();
                self.bump();
                simple(ExprKind::Str(s))
            }
            Tok::LParen => {
                self.bump();
                let e = self.expr()?;
                self.expect(Tok::RParen)?;
                Ok(e)
            }
            Tok::LBracket => {
                self.bump();
                let mut items = Vec::new();
                while self.peek().tok != Tok::RBracket {
                    items.push(self.expr()?);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                let end = self.expect(Tok::RBracket)?;
                Ok(Expr {
                    kind: ExprKind::List(items),
                    pos: span(pos, end),
                })
            }
            Tok::Ident(word) => {
                let literal = match word.as_str() {
                    "true" => Some(ExprKind::Bool(true)),
                    "false" => Some(ExprKind::Bool(false)),
                    "none" => Some(ExprKind::None),
                    "and" | "or" | "not" | "in" | "then" | "else" | "when" => {
                        return Err(self.unexpected("an expression"));
                    }
                    _ => None,
                };
                if let Some(kind) = literal {
                    self.bump();
                    return simple(kind);
                }
                let name = self.expect_ident("a name")?;
                if self.peek().tok == Tok::Dot {
                    self.bump();
                    let field = self.expect_ident("a field name")?;
                    let pos = span(name.pos, field.pos);
                    return Ok(Expr {
                        kind: ExprKind::Field(name, field),
                        pos,
                    });
                }
                if self.peek().tok == Tok::LParen {
                    self.bump();
                    let mut args = Vec::new();
                    let mut named = Vec::new();
                    while self.peek().tok != Tok::RParen {
                        let is_named = matches!(self.peek().tok, Tok::Ident(_))
                            && self.t.get(self.i + 1).is_some_and(|n| n.tok == Tok::Colon);
                        if is_named {
                            let k = self.expect_ident("an argument name")?;
                            self.bump();
                            named.push((k, self.expr()?));
                        } else {
                            if !named.is_empty() {
                                return Err(RuleError::new(
                                    self.peek().pos,
                                    "a positional argument cannot follow a named one",
                                ));
                            }
                            args.push(self.expr()?);
                        }
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                    let end = self.expect(Tok::RParen)?;
                    let pos = span(name.pos, end);
                    return Ok(Expr {
                        kind: ExprKind::Call(name, args, named),
                        pos,
                    });
                }
                Ok(Expr {
                    pos: name.pos,
                    kind: ExprKind::Name(name.text),
                })
            }
            _ => Err(self.unexpected("an expression")),
        }
    }
}
