//! The parser: tokens → syntax tree. Recursive descent; `expect_*` methods
//! report "expected X, found Y" at the offending token. Expression nesting is
//! bounded by [`RECURSION_LIMIT`] so a hostile ruleset cannot overflow the
//! stack. The grammar is in `docs/rules-language.md`.

use super::ast::*;
use super::error::{Pos, RuleError};
use super::lexer::{Tok, Token, lex};

pub const RECURSION_LIMIT: usize = 32;

pub fn parse(src: &str) -> Result<Vec<Item>, RuleError> {
    let tokens = lex(src)?;
    let mut p = Parser {
        src,
        t: tokens,
        i: 0,
        depth: 0,
    };
    let mut items = Vec::new();
    while !p.at_eof() {
        items.push(p.item()?);
    }
    Ok(items)
}

struct Parser<'a> {
    src: &'a str,
    t: Vec<Token>,
    i: usize,
    depth: usize,
}

const TOP_LEVEL: &[&str] = &[
    "ruleset",
    "const",
    "switch",
    "let",
    "time-control",
    "variant",
    "rule",
];
const RULE_ITEMS: &[&str] = &[
    "cite",
    "severity",
    "sanction",
    "doc",
    "message",
    "manual",
    "adjudicate",
    "forbid",
    "require",
];

impl Parser<'_> {
    fn peek(&self) -> &Token {
        &self.t[self.i]
    }

    fn at_eof(&self) -> bool {
        self.peek().tok == Tok::Eof
    }

    /// Step past the current token (never past the end); its position.
    fn bump(&mut self) -> Pos {
        let pos = self.t[self.i].pos;
        if self.t[self.i].tok != Tok::Eof {
            self.i += 1;
        }
        pos
    }

    fn is_ident(&self, word: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(s) if s == word)
    }

    fn eat_ident(&mut self, word: &str) -> bool {
        if self.is_ident(word) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if &self.peek().tok == tok {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn unexpected(&self, expected: &str) -> RuleError {
        let t = self.peek();
        RuleError::new(
            t.pos,
            format!("expected {expected}, found {}", t.tok.describe()),
        )
    }

    fn expect(&mut self, tok: Tok) -> Result<Pos, RuleError> {
        if self.peek().tok == tok {
            Ok(self.bump())
        } else {
            Err(self.unexpected(&format!("`{}`", tok.symbol())))
        }
    }

    fn expect_word(&mut self, word: &str) -> Result<Pos, RuleError> {
        if self.is_ident(word) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(&format!("`{word}`")))
        }
    }

    fn expect_string(&mut self, what: &str) -> Result<(String, Pos), RuleError> {
        match &self.peek().tok {
            Tok::Str(s) => {
                let s = s.clone();
                let pos = self.bump();
                Ok((s, pos))
            }
            _ => Err(self.unexpected(what)),
        }
    }

    fn expect_ident(&mut self, what: &str) -> Result<Name, RuleError> {
        match &self.peek().tok {
            Tok::Ident(s) => {
                let text = s.clone();
                let pos = self.bump();
                Ok(Name { text, pos })
            }
            _ => Err(self.unexpected(what)),
        }
    }

    /// A name that may contain `.` and `-` between parts written without
    /// spaces, like `tcec.draw-rule` or `division-1`.
    fn dotted_name(&mut self, what: &str) -> Result<Name, RuleError> {
        let first = match &self.peek().tok {
            Tok::Ident(_) => self.bump(),
            _ => return Err(self.unexpected(what)),
        };
        let start = first;
        let mut end = start.offset + start.len;
        loop {
            let t = self.peek();
            let joins = matches!(t.tok, Tok::Dot | Tok::Minus) && t.pos.offset == end;
            let next = self.t.get(self.i + 1);
            let part_follows = next.is_some_and(|n| {
                matches!(n.tok, Tok::Ident(_) | Tok::Num(_)) && n.pos.offset == end + 1
            });
            if joins && part_follows {
                self.bump();
                let part = self.bump();
                end = part.offset + part.len;
            } else {
                break;
            }
        }
        let text = self.src[start.offset..end].to_string();
        Ok(Name {
            text,
            pos: Pos {
                len: end - start.offset,
                ..start
            },
        })
    }

    fn item(&mut self) -> Result<Item, RuleError> {
        let t = self.peek().clone();
        let word = match &t.tok {
            Tok::Ident(w) => w.clone(),
            _ => return Err(self.unexpected("a declaration (`ruleset`, `const`, `switch`, `let`, `time-control`, `variant` or `rule`)")),
        };
        // `time-control` is two tokens
        if word == "time" {
            let kw = self.dotted_name("`time-control`")?;
            if kw.text != "time-control" {
                return Err(
                    RuleError::new(kw.pos, format!("unknown declaration `{}`", kw.text))
                        .help("did you mean `time-control`?"),
                );
            }
            return self.time_control().map(Item::TimeControl);
        }
        match word.as_str() {
            "ruleset" => {
                self.bump();
                self.meta().map(Item::Ruleset)
            }
            "const" => {
                self.bump();
                let name = self.expect_ident("a constant name")?;
                self.expect(Tok::Assign)?;
                let e = self.expr()?;
                let fit = if self.is_ident("fit") {
                    let pos = self.bump();
                    Some((pos, self.fit_grid()?))
                } else {
                    None
                };
                Ok(Item::Const(name, e, fit))
            }
            "switch" => {
                self.bump();
                let name = self.expect_ident("a switch name")?;
                self.expect(Tok::Assign)?;
                let default = self.bool_literal()?;
                let fit = if self.is_ident("fit") {
                    Some(self.bump())
                } else {
                    None
                };
                let (doc, _) = self.expect_string("a string saying what the switch changes")?;
                Ok(Item::Switch {
                    name,
                    default,
                    doc,
                    fit,
                })
            }
            "let" => {
                self.bump();
                let name = self.expect_ident("a name")?;
                self.expect_word("on")?;
                let on = self.expect_ident("an event kind (`game`, `option`, `move` or `end`)")?;
                self.expect(Tok::Assign)?;
                let expr = self.expr()?;
                Ok(Item::Let { name, on, expr })
            }
            "variant" => {
                self.bump();
                self.variant().map(Item::Variant)
            }
            "rule" => {
                self.bump();
                self.rule().map(|r| Item::Rule(Box::new(r)))
            }
            _ => {
                let help = crate::base::suggest::suggest(&word, TOP_LEVEL.iter().copied())
                    .unwrap_or_else(|| "expected `ruleset`, `const`, `switch`, `let`, `time-control`, `variant` or `rule`".into());
                Err(RuleError::new(t.pos, format!("unknown declaration `{word}`")).help(help))
            }
        }
    }

    /// The values after `fit`: `FROM to TO step STEP`, or a list `[A, B, …]`.
    fn fit_grid(&mut self) -> Result<FitGrid, RuleError> {
        if self.peek().tok == Tok::LBracket {
            self.bump();
            let mut items = Vec::new();
            while self.peek().tok != Tok::RBracket {
                items.push(self.expr()?);
                if self.peek().tok != Tok::Comma {
                    break;
                }
                self.bump();
            }
            self.expect(Tok::RBracket)?;
            return Ok(FitGrid::List(items));
        }
        let from = self.expr()?;
        self.expect_word("to")?;
        let to = self.expr()?;
        self.expect_word("step")?;
        let step = self.expr()?;
        Ok(FitGrid::Range {
            from: Box::new(from),
            to: Box::new(to),
            step: Box::new(step),
        })
    }

    fn bool_literal(&mut self) -> Result<bool, RuleError> {
        if self.eat_ident("true") {
            Ok(true)
        } else if self.eat_ident("false") {
            Ok(false)
        } else {
            Err(self.unexpected("`true` or `false`"))
        }
    }

    fn meta(&mut self) -> Result<Meta, RuleError> {
        let id = self.dotted_name("the ruleset's id")?;
        let (title, _) = self.expect_string("the ruleset's title (a string)")?;
        self.expect(Tok::LBrace)?;
        let mut m = Meta {
            id,
            title,
            regulation: None,
            format: None,
            scoring: Vec::new(),
            tiebreaks: Vec::new(),
            time_control: None,
        };
        while !self.eat(&Tok::RBrace) {
            let kw = self.expect_ident(
                "`regulation`, `format`, `scoring`, `tiebreak`, `time-control` or `}`",
            )?;
            match kw.text.as_str() {
                "regulation" => m.regulation = Some(self.expect_string("a string")?.0),
                "format" => m.format = Some(self.expect_string("a string")?.0),
                "scoring" => loop {
                    let k = self.expect_ident("`win`, `draw`, `loss`, `bye` or `forfeit`")?;
                    let v = self.expr()?;
                    m.scoring.push((k, v));
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                },
                "tiebreak" => loop {
                    m.tiebreaks.push(self.dotted_name("a tiebreak name")?);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                },
                "time" => {
                    self.expect(Tok::Minus)?;
                    self.expect_word("control")?;
                    m.time_control = Some(self.dotted_name("a time-control name")?);
                }
                other => {
                    let help = crate::base::suggest::suggest(
                        other,
                        ["regulation", "format", "scoring", "tiebreak"],
                    )
                    .unwrap_or_else(|| {
                        "expected `regulation`, `format`, `scoring`, `tiebreak` or `time-control`"
                            .into()
                    });
                    return Err(
                        RuleError::new(kw.pos, format!("unknown ruleset field `{other}`"))
                            .help(help),
                    );
                }
            }
        }
        Ok(m)
    }

    fn time_control(&mut self) -> Result<TimeControl, RuleError> {
        let name = self.dotted_name("a time-control name")?;
        self.expect(Tok::LBrace)?;
        let mut tc = TimeControl {
            name,
            periods: Vec::new(),
            carry_over: true,
            settings_show_used: false,
        };
        while !self.eat(&Tok::RBrace) {
            if self.eat_ident("no_carry_over") {
                tc.carry_over = false;
                continue;
            }
            if self.eat_ident("settings_show_used") {
                tc.settings_show_used = true;
                continue;
            }
            let kw = self.expect_word("period").map_err(|_| {
                self.unexpected("`period`, `no_carry_over`, `settings_show_used` or `}`")
            })?;
            let at_least = self.eat_ident("at_least");
            let moves = if self.eat_ident("rest") || self.eat_ident("all") {
                self.eat_ident("moves");
                None
            } else {
                let t = self.peek().clone();
                match t.tok {
                    Tok::Num(n) => {
                        self.bump();
                        self.expect_word("moves")?;
                        Some((n, t.pos))
                    }
                    _ => return Err(self.unexpected("a move count, `rest` or `all`")),
                }
            };
            self.expect_word("in")?;
            let time = self.expr()?;
            let increment = if self.eat_ident("increment") {
                Some(self.expr()?)
            } else {
                None
            };
            tc.periods.push(Period {
                moves,
                time,
                increment,
                at_least,
                pos: kw,
            });
        }
        Ok(tc)
    }

    fn variant(&mut self) -> Result<Variant, RuleError> {
        let name = self.dotted_name("a variant name")?;
        let extends = if self.eat_ident("extends") {
            Some(self.dotted_name("the variant it extends")?)
        } else {
            None
        };
        self.expect(Tok::LBrace)?;
        let mut v = Variant {
            name,
            extends,
            applies: None,
            items: Vec::new(),
        };
        while !self.eat(&Tok::RBrace) {
            let kw = self.expect_ident("`applies`, `const`, `switch`, `time-control` or `}`")?;
            match kw.text.as_str() {
                "applies" => {
                    self.expect_word("when")?;
                    v.applies = Some(self.expr()?);
                }
                "const" => {
                    let n = self.expect_ident("a constant name")?;
                    self.expect(Tok::Assign)?;
                    let e = self.expr()?;
                    v.items.push(VariantItem::Const(n, e));
                }
                "switch" => {
                    let n = self.expect_ident("a switch name")?;
                    self.expect(Tok::Assign)?;
                    let pos = self.peek().pos;
                    let b = self.bool_literal()?;
                    v.items.push(VariantItem::Switch(n, b, pos));
                }
                "time" => {
                    self.expect(Tok::Minus)?;
                    self.expect_word("control")?;
                    v.items.push(VariantItem::TimeControl(
                        self.dotted_name("a time-control name")?,
                    ));
                }
                other => {
                    let help = crate::base::suggest::suggest(
                        other,
                        ["applies", "const", "switch", "time"],
                    )
                    .unwrap_or_else(|| {
                        "a variant may set `applies when`, `const`, `switch` and `time-control`"
                            .into()
                    });
                    return Err(
                        RuleError::new(kw.pos, format!("unknown variant item `{other}`"))
                            .help(help),
                    );
                }
            }
        }
        Ok(v)
    }

    fn rule(&mut self) -> Result<Rule, RuleError> {
        let id = self.dotted_name("a rule id such as `tcec.draw-rule`")?;
        let (title, _) = self.expect_string("the rule's title (a string)")?;
        self.expect(Tok::LBrace)?;
        let mut r = Rule {
            pos: id.pos,
            id,
            title,
            cites: Vec::new(),
            severity: None,
            sanction: None,
            doc: None,
            message: None,
            kind: None,
            end: 0,
        };
        loop {
            if self.peek().tok == Tok::RBrace {
                let t = self.bump();
                r.end = t.offset + 1;
                break;
            }
            let kw = self.expect_ident("a rule item (`cite`, `severity`, `sanction`, `manual`, `adjudicate`, `forbid`, `require`…) or `}`")?;
            let set_kind = |r: &mut Rule, k: RuleKind| -> Result<(), RuleError> {
                if r.kind.is_some() {
                    return Err(RuleError::new(kw.pos, format!("rule `{}` already says what it checks", r.id.text))
                        .help("a rule has exactly one of `manual`, `adjudicate`, `forbid` and `require`; split it into two rules"));
                }
                r.kind = Some((k, kw.pos));
                Ok(())
            };
            match kw.text.as_str() {
                "cite" => {
                    let (clause, pos) =
                        self.expect_string("the clause (a string such as \"6(c)\")")?;
                    let (quote, _) = self.expect_string("the clause's words (a string)")?;
                    r.cites.push(Cite { clause, quote, pos });
                }
                "severity" => r.severity = Some(self.expect_ident("`error`, `warning` or `info`")?),
                "sanction" => r.sanction = Some(self.expect_string("the sanction (a string)")?.0),
                "doc" => r.doc = Some(self.expect_string("documentation (a string)")?.0),
                "message" => {
                    let (_, pos) = self.expect_string("a message (a string with {expr} holes)")?;
                    r.message = Some(self.template(pos)?);
                }
                "manual" => {
                    let (what, _) = self.expect_string("what a human must check (a string)")?;
                    set_kind(&mut r, RuleKind::Manual(what))?;
                }
                "adjudicate" => {
                    let result = self.expr()?;
                    let records = if self.eat_ident("records") {
                        Some(Box::new(self.expr()?))
                    } else {
                        None
                    };
                    self.expect_word("when")?;
                    let when = self.expr()?;
                    set_kind(
                        &mut r,
                        RuleKind::Adjudicate {
                            result: Box::new(result),
                            records,
                            when: Box::new(when),
                        },
                    )?;
                }
                "forbid" => {
                    self.expect_word("on")?;
                    let on = self.expect_ident("an event kind")?;
                    let when = if self.eat_ident("when") {
                        Some(self.expr()?)
                    } else {
                        None
                    };
                    set_kind(&mut r, RuleKind::Forbid { on, when })?;
                }
                "require" => {
                    self.expect_word("on")?;
                    let on = self.expect_ident("an event kind")?;
                    self.expect_word("when")?;
                    let when = self.expr()?;
                    set_kind(&mut r, RuleKind::Require { on, when })?;
                }
                other => {
                    let help = crate::base::suggest::suggest(other, RULE_ITEMS.iter().copied())
                        .unwrap_or_else(|| format!("expected one of {}", RULE_ITEMS.join(", ")));
                    return Err(
                        RuleError::new(kw.pos, format!("unknown rule item `{other}`")).help(help),
                    );
                }
            }
        }
        Ok(r)
    }

    /// Split a message into text and `{expr}` holes; each hole is parsed as
    /// an expression with positions inside the string.
    fn template(&mut self, pos: Pos) -> Result<Template, RuleError> {
        let raw = &self.src[pos.offset..pos.offset + pos.len];
        let mut parts = Vec::new();
        // Work on the raw source so that positions are exact.
        let inner = &raw[1..raw.len() - 1];
        let base = pos.offset + 1;
        let mut lit = String::new();
        let mut i = 0;
        let b = inner.as_bytes();
        while i < b.len() {
            match b[i] {
                b'{' => {
                    let close = hole_end(inner, i).ok_or_else(|| {
                        RuleError::new(self.pos_at(base + i, 1), "unclosed `{` in message")
                            .help("write `{expr}`; a message cannot contain a lone `{`")
                    })?;
                    if !lit.is_empty() {
                        parts.push(TemplatePart::Text(std::mem::take(&mut lit)));
                    }
                    let sub_src = &self.src[..base + close];
                    let mut sub = Parser {
                        src: sub_src,
                        t: lex_from(self.src, pos, base + i + 1, base + close)?,
                        i: 0,
                        depth: 0,
                    };
                    let e = sub.expr()?;
                    if !sub.at_eof() {
                        return Err(sub.unexpected("`}` closing the hole"));
                    }
                    parts.push(TemplatePart::Expr(e));
                    i = close + 1;
                }
                b'\\' if i + 1 < b.len() => {
                    lit.push(match b[i + 1] {
                        b'n' => '\n',
                        c => c as char,
                    });
                    i += 2;
                }
                _ => {
                    let ch = inner[i..].chars().next().unwrap_or('?');
                    lit.push(ch);
                    i += ch.len_utf8();
                }
            }
        }
        if !lit.is_empty() {
            parts.push(TemplatePart::Text(lit));
        }
        Ok(Template { parts, pos })
    }

    fn pos_at(&self, offset: usize, len: usize) -> Pos {
        pos_of(self.src, offset, len)
    }

    // ---- expressions, lowest precedence first ----

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

fn span(a: Pos, b: Pos) -> Pos {
    Pos {
        len: (b.offset + b.len).saturating_sub(a.offset),
        ..a
    }
}

/// Position of a byte offset in `src`.
pub fn pos_of(src: &str, offset: usize, len: usize) -> Pos {
    let start = Pos {
        offset: 0,
        len: 0,
        line: 1,
        column: 1,
    };
    pos_after(src, start, offset, len)
}

/// Position of byte `offset` of `src`, counted on from `known`, a position
/// at or before it: the source before `known` is not scanned again (each
/// hole of a message was found from the start of the file, a scan of the
/// whole ruleset per hole).
fn pos_after(src: &str, known: Pos, offset: usize, len: usize) -> Pos {
    let end = offset.min(src.len());
    let from = known.offset.min(end);
    let between = &src.as_bytes()[from..end];
    let column = match memchr::memrchr(b'\n', between) {
        Some(nl) => src[from + nl + 1..end].chars().count() + 1,
        None => known.column + src[from..end].chars().count(),
    };
    Pos {
        offset,
        len,
        line: known.line + memchr::memchr_iter(b'\n', between).count(),
        column,
    }
}

/// Lex `src[from..to]`, keeping positions relative to the whole source;
/// `known` is a position at or before `from`.
fn lex_from(src: &str, known: Pos, from: usize, to: usize) -> Result<Vec<Token>, RuleError> {
    let base = pos_after(src, known, from, 0);
    let fix = |mut p: Pos| {
        if p.line == 1 {
            p.column += base.column - 1;
        }
        p.line += base.line - 1;
        p.offset += from;
        p
    };
    match lex(&src[from..to]) {
        Ok(toks) => Ok(toks
            .into_iter()
            .map(|t| Token {
                tok: t.tok,
                pos: fix(t.pos),
            })
            .collect()),
        Err(mut e) => {
            e.pos = fix(e.pos);
            Err(e)
        }
    }
}

/// The index of the `}` closing the hole that opens at `open` (skipping
/// single-quoted strings inside it).
fn hole_end(s: &str, open: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = open + 1;
    let mut quoted = false;
    while i < b.len() {
        match b[i] {
            b'\\' if quoted => i += 1,
            b'\'' => quoted = !quoted,
            b'}' if !quoted => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod position_tests {
    use super::*;

    /// A position counted from the start of the source, or on from any
    /// position before it, is the line and column found by going through
    /// the source a character at a time.
    #[test]
    fn a_position_counted_on_is_the_position_counted_from_the_start() {
        let src = "ruleset x \"t\" {\n  let a on move = 1 # é\n\n  rule r \"ü{move.ply}\" {\r\n cite \"c\"\n}\n}";
        let stepped = |offset: usize| {
            let (mut line, mut column) = (1, 1);
            for c in src[..offset].chars() {
                if c == '\n' {
                    (line, column) = (line + 1, 1);
                } else {
                    column += 1;
                }
            }
            Pos {
                offset,
                len: 3,
                line,
                column,
            }
        };
        for known in 0..=src.len() {
            if !src.is_char_boundary(known) {
                continue;
            }
            let k = pos_of(src, known, 0);
            assert_eq!(pos_of(src, known, 3), stepped(known), "{known}");
            for offset in known..=src.len() {
                if src.is_char_boundary(offset) {
                    assert_eq!(
                        pos_after(src, k, offset, 3),
                        stepped(offset),
                        "{known} {offset}"
                    );
                }
            }
        }
    }
}
