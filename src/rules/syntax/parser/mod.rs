//! The parser: tokens → syntax tree. Recursive descent; `expect_*` methods
//! report "expected X, found Y" at the offending token. Expression nesting is
//! bounded by [`RECURSION_LIMIT`], and the height of an expression's tree
//! (operator chains included) by [`HEIGHT_LIMIT`], so that a hostile
//! ruleset cannot overflow the stack, in the parser or after it. The grammar is in `docs/rules-language.md`.
//!
//! This file holds the parser's state and the token helpers; `items` parses
//! the top-level declarations, `rules` a rule and its message, `exprs` the
//! expressions, and `positions` finds lines and columns.

use super::error::{Pos, RuleError};
use super::lexer::{Tok, Token, lex};
use crate::rules::syntax::ast::{Item, Name};

mod exprs;
mod items;
mod positions;
mod rules;

pub use positions::pos_of;

pub const RECURSION_LIMIT: usize = 32;

/// The highest expression tree accepted: an operator, a call, a list or an
/// `if` is one level above its highest part, so a chain `1 - 1 - … - 1`
/// of n operators is n + 1 levels high (see `exprs`).
pub const HEIGHT_LIMIT: usize = 128;

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

    fn bool_literal(&mut self) -> Result<bool, RuleError> {
        if self.eat_ident("true") {
            Ok(true)
        } else if self.eat_ident("false") {
            Ok(false)
        } else {
            Err(self.unexpected("`true` or `false`"))
        }
    }

    fn pos_at(&self, offset: usize, len: usize) -> Pos {
        pos_of(self.src, offset, len)
    }
}
