//! A `rule` block: its citations, severity, sanction, documentation, what
//! it checks, and its message template with `{expr}` holes.

use super::Parser;
use super::positions::{hole_end, lex_from, pos_after};
use crate::rules::syntax::ast::{Cite, Rule, RuleKind, Template, TemplatePart};
use crate::rules::syntax::error::{Pos, RuleError};
use crate::rules::syntax::lexer::Tok;

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
    pub(super) fn rule(&mut self) -> Result<Rule, RuleError> {
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
        // the place of the last hole, from which the next is counted on
        let mut known = pos;
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
                    known = pos_after(self.src, known, base + i + 1, 0);
                    let mut sub = Parser {
                        src: sub_src,
                        t: lex_from(self.src, known, base + i + 1, base + close)?,
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
}
