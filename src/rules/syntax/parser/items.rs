//! The top-level declarations: `ruleset`, `const` (and its `fit`),
//! `switch`, `let`, `time-control` and `variant`; a `rule` is `rules`'.

use super::Parser;
use crate::rules::syntax::ast::{FitGrid, Item, Meta, Period, TimeControl, Variant, VariantItem};
use crate::rules::syntax::error::RuleError;
use crate::rules::syntax::lexer::Tok;

const TOP_LEVEL: &[&str] = &[
    "ruleset",
    "const",
    "switch",
    "let",
    "time-control",
    "variant",
    "rule",
    "drop",
];

impl Parser<'_> {
    pub(super) fn item(&mut self) -> Result<Item, RuleError> {
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
            "drop" => {
                self.bump();
                self.expect_word("rule")?;
                Ok(Item::Drop(
                    self.dotted_name("the id of a rule to leave out")?,
                ))
            }
            _ => {
                let help = crate::base::suggest::suggest(&word, TOP_LEVEL.iter().copied())
                    .unwrap_or_else(|| "expected `ruleset`, `const`, `switch`, `let`, `time-control`, `variant` or `rule`".into());
                Err(RuleError::new(t.pos, format!("unknown declaration `{word}`")).help(help))
            }
        }
    }

    /// The values after `fit`: `FROM to TO step STEP`, a list `[A, B, …]`,
    /// or `from SOURCE` (values the archive holds).
    fn fit_grid(&mut self) -> Result<FitGrid, RuleError> {
        if self.eat_ident("from") {
            let source = self.dotted_name("a source of values, such as `terminations`")?;
            return Ok(FitGrid::From(source));
        }
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
    fn meta(&mut self) -> Result<Meta, RuleError> {
        let id = self.dotted_name("the ruleset's id")?;
        let (title, _) = self.expect_string("the ruleset's title (a string)")?;
        let extends = if self.is_ident("extends") {
            self.bump();
            let (file, pos) = self.expect_string("the file of the ruleset this one extends")?;
            Some((file, pos))
        } else {
            None
        };
        self.expect(Tok::LBrace)?;
        let mut m = Meta {
            id,
            title,
            regulation: None,
            format: None,
            scoring: Vec::new(),
            tiebreaks: Vec::new(),
            time_control: None,
            time_control_fit: None,
            applies: None,
            extends,
        };
        while !self.eat(&Tok::RBrace) {
            let kw = self.expect_ident(
                "`regulation`, `format`, `scoring`, `tiebreak`, `time-control`, `applies` or `}`",
            )?;
            match kw.text.as_str() {
                "applies" => {
                    self.expect_word("when")?;
                    m.applies = Some(self.expr()?);
                }
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
                    if self.is_ident("fit") {
                        let at = self.peek().pos;
                        self.i += 1;
                        self.expect_word("from")?;
                        self.expect_word("record")?;
                        m.time_control_fit = Some(at);
                    }
                }
                other => {
                    let help = crate::base::suggest::suggest(
                        other,
                        ["regulation", "format", "scoring", "tiebreak", "applies"],
                    )
                    .unwrap_or_else(|| {
                        "expected `regulation`, `format`, `scoring`, `tiebreak`, `time-control` or `applies`"
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
            start_credit: None,
        };
        while !self.eat(&Tok::RBrace) {
            if self.eat_ident("start_credit") {
                tc.start_credit = Some(self.expr()?);
                continue;
            }
            if self.eat_ident("no_carry_over") {
                tc.carry_over = false;
                continue;
            }
            if self.eat_ident("settings_show_used") {
                tc.settings_show_used = true;
                continue;
            }
            let kw = self.expect_word("period").map_err(|_| {
                self.unexpected(
                    "`period`, `no_carry_over`, `settings_show_used`, `start_credit` or `}`",
                )
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
}
