//! Expressions, lowest precedence first: `if`, `or`, `and`, `not`,
//! comparisons, `+ -`, `* /`, unary `-`, then literals, names, fields,
//! calls, lists and parentheses.
//!
//! Each expression is parsed with its height (a name or a literal is 1, an
//! operator, a call, a list or an `if` one more than its highest part): a
//! tree higher than [`HEIGHT_LIMIT`] is refused where it passes the limit,
//! so that every pass over the tree after the parser (analysis, folding,
//! compiling, evaluating, dropping) recurses a bounded number of levels.

use super::positions::span;
use super::{HEIGHT_LIMIT, Parser, RECURSION_LIMIT};
use crate::rules::syntax::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::rules::syntax::error::{Pos, RuleError};
use crate::rules::syntax::lexer::Tok;

/// An expression and its height.
type Tall = (Expr, usize);

/// A name or a field, of height 1.
fn simple_at(kind: ExprKind, pos: Pos) -> Result<Tall, RuleError> {
    Ok((Expr { kind, pos }, 1))
}

/// `kind` at `pos`, of height `height`: refused at `at` (the operator, the
/// bracket or the word that makes it) past [`HEIGHT_LIMIT`].
fn node(kind: ExprKind, pos: Pos, height: usize, at: Pos) -> Result<Tall, RuleError> {
    if height > HEIGHT_LIMIT {
        return Err(RuleError::new(
            at,
            format!("expression more than {HEIGHT_LIMIT} operators deep"),
        )
        .help("each operator, call, list and `if` counts; split it into `let` definitions"));
    }
    Ok((Expr { kind, pos }, height))
}

impl Parser<'_> {
    pub fn expr(&mut self) -> Result<Expr, RuleError> {
        self.tall().map(|(e, _)| e)
    }

    /// An expression and its height.
    fn tall(&mut self) -> Result<Tall, RuleError> {
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

    fn if_expr(&mut self) -> Result<Tall, RuleError> {
        if self.is_ident("if") {
            let start = self.bump();
            let (c, hc) = self.tall()?;
            self.expect_word("then")?;
            let (a, ha) = self.tall()?;
            self.expect_word("else")?;
            let (b, hb) = self.tall()?;
            let pos = span(start, b.pos);
            let kind = ExprKind::If(Box::new(c), Box::new(a), Box::new(b));
            return node(kind, pos, 1 + hc.max(ha).max(hb), start);
        }
        self.or_expr()
    }

    /// Operands `next` parses, joined left to right by the operators `op`
    /// reads from a token (without a copy of the token).
    fn binary_chain(
        &mut self,
        next: fn(&mut Self) -> Result<Tall, RuleError>,
        op: fn(&Tok) -> Option<BinOp>,
    ) -> Result<Tall, RuleError> {
        let (mut lhs, mut height) = next(self)?;
        loop {
            let Some(op) = op(&self.peek().tok) else {
                return Ok((lhs, height));
            };
            let at = self.bump();
            let (rhs, h) = next(self)?;
            let pos = span(lhs.pos, rhs.pos);
            let kind = ExprKind::Binary(op, Box::new(lhs), Box::new(rhs));
            (lhs, height) = node(kind, pos, 1 + height.max(h), at)?;
        }
    }

    fn or_expr(&mut self) -> Result<Tall, RuleError> {
        self.binary_chain(Self::and_expr, |t| {
            matches!(t, Tok::Ident(w) if w == "or").then_some(BinOp::Or)
        })
    }

    fn and_expr(&mut self) -> Result<Tall, RuleError> {
        self.binary_chain(Self::not_expr, |t| {
            matches!(t, Tok::Ident(w) if w == "and").then_some(BinOp::And)
        })
    }

    fn not_expr(&mut self) -> Result<Tall, RuleError> {
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
        operand: fn(&mut Self) -> Result<Tall, RuleError>,
    ) -> Result<Tall, RuleError> {
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
        let (e, h) = e?;
        let pos = span(start, e.pos);
        node(ExprKind::Unary(op, Box::new(e)), pos, 1 + h, start)
    }

    fn cmp_expr(&mut self) -> Result<Tall, RuleError> {
        let (lhs, hl) = self.add_expr()?;
        let op = match &self.peek().tok {
            Tok::Eq => BinOp::Eq,
            Tok::Ne => BinOp::Ne,
            Tok::Lt => BinOp::Lt,
            Tok::Le => BinOp::Le,
            Tok::Gt => BinOp::Gt,
            Tok::Ge => BinOp::Ge,
            Tok::Ident(s) if s == "in" => BinOp::In,
            _ => return Ok((lhs, hl)),
        };
        let at = self.bump();
        let (rhs, hr) = self.add_expr()?;
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
        let kind = ExprKind::Binary(op, Box::new(lhs), Box::new(rhs));
        node(kind, pos, 1 + hl.max(hr), at)
    }

    fn add_expr(&mut self) -> Result<Tall, RuleError> {
        self.binary_chain(Self::mul_expr, |t| match t {
            Tok::Plus => Some(BinOp::Add),
            Tok::Minus => Some(BinOp::Sub),
            _ => None,
        })
    }

    fn mul_expr(&mut self) -> Result<Tall, RuleError> {
        self.binary_chain(Self::unary_expr, |t| match t {
            Tok::Star => Some(BinOp::Mul),
            Tok::Slash => Some(BinOp::Div),
            _ => None,
        })
    }

    fn unary_expr(&mut self) -> Result<Tall, RuleError> {
        if self.peek().tok == Tok::Minus {
            return self.prefix(UnOp::Neg, Self::unary_expr);
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Tall, RuleError> {
        // the token is read where it lies: only a text it holds is copied
        let pos = self.peek().pos;
        let simple = |kind| Ok((Expr { kind, pos }, 1));
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
                let e = self.tall()?;
                self.expect(Tok::RParen)?;
                Ok(e)
            }
            Tok::LBracket => {
                self.bump();
                let mut items = Vec::new();
                let mut height = 0;
                while self.peek().tok != Tok::RBracket {
                    let (e, h) = self.tall()?;
                    items.push(e);
                    height = height.max(h);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                let end = self.expect(Tok::RBracket)?;
                node(ExprKind::List(items), span(pos, end), 1 + height, pos)
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
                    return simple_at(ExprKind::Field(name, field), pos);
                }
                if self.peek().tok == Tok::LParen {
                    self.bump();
                    let mut args = Vec::new();
                    let mut named = Vec::new();
                    let mut height = 0;
                    while self.peek().tok != Tok::RParen {
                        let is_named = matches!(self.peek().tok, Tok::Ident(_))
                            && self.t.get(self.i + 1).is_some_and(|n| n.tok == Tok::Colon);
                        if is_named {
                            let k = self.expect_ident("an argument name")?;
                            self.bump();
                            let (e, h) = self.tall()?;
                            named.push((k, e));
                            height = height.max(h);
                        } else {
                            if !named.is_empty() {
                                return Err(RuleError::new(
                                    self.peek().pos,
                                    "a positional argument cannot follow a named one",
                                ));
                            }
                            let (e, h) = self.tall()?;
                            args.push(e);
                            height = height.max(h);
                        }
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                    let end = self.expect(Tok::RParen)?;
                    let (at, pos) = (name.pos, span(name.pos, end));
                    return node(ExprKind::Call(name, args, named), pos, 1 + height, at);
                }
                simple_at(ExprKind::Name(name.text), name.pos)
            }
            _ => Err(self.unexpected("an expression")),
        }
    }
}
