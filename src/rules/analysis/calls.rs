//! A function call: a builtin (its arity and argument types), a stateful
//! call (allotted its state slot; no nesting) or a detector (its named
//! parameters, and the events it can read).

use super::analyzer::{Analyzer, FUNCTIONS};
use super::cexpr::{Builtin, CExpr, Detector, Stateful, StatefulFn};
use crate::base::suggest::suggest;
use crate::base::value::{Type, Value};
use crate::rules::syntax::ast;
use crate::rules::syntax::error::RuleError;
use crate::timeline::{self, Kind};

/// A call as written: the whole expression, the function's name, and its
/// arguments and named arguments.
#[derive(Clone, Copy)]
struct CallSite<'c> {
    e: &'c ast::Expr,
    name: &'c ast::Name,
    args: &'c [ast::Expr],
    named: &'c [(ast::Name, ast::Expr)],
}

impl Analyzer<'_> {
    pub(super) fn call(
        &mut self,
        e: &ast::Expr,
        name: &ast::Name,
        args: &[ast::Expr],
        named: &[(ast::Name, ast::Expr)],
    ) -> Result<CExpr, RuleError> {
        let site = CallSite {
            e,
            name,
            args,
            named,
        };
        let builtin = Builtin::from_name(&name.text).map(|b| (b, b.args().len()));
        if let Some((b, n)) = builtin {
            return self.builtin_call(site, b, n);
        }
        let stateful = match name.text.as_str() {
            "streak" => Some(StatefulFn::Streak),
            "count" => Some(StatefulFn::Count),
            "sum" => Some(StatefulFn::Sum),
            "since" => Some(StatefulFn::Since),
            "previous" => Some(StatefulFn::Previous),
            "last" => Some(StatefulFn::Last),
            _ => None,
        };
        if let Some(func) = stateful {
            return self.stateful_call(site, func);
        }
        let detector = match name.text.as_str() {
            "tablebase" => Some(Detector::Tablebase),
            "hidden_book" => Some(Detector::HiddenBook),
            "similarity" => Some(Detector::Similarity),
            "accelerated_pairing" => Some(Detector::AcceleratedPairing),
            _ => None,
        };
        if let Some(d) = detector {
            return self.detector_call(site, d);
        }
        let help = suggest(&name.text, FUNCTIONS.iter().copied())
            .unwrap_or_else(|| format!("the functions are {}", FUNCTIONS.join(", ")));
        Err(RuleError::new(name.pos, format!("unknown function `{}`", name.text)).help(help))
    }

    /// A call of builtin `b`, which takes `n` arguments.
    fn builtin_call(
        &mut self,
        site: CallSite<'_>,
        b: Builtin,
        n: usize,
    ) -> Result<CExpr, RuleError> {
        let CallSite {
            e,
            name,
            args,
            named,
        } = site;
        arity(e, name, args, n)?;
        no_named(name, named)?;
        let cargs: Vec<CExpr> = args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Result<_, _>>()?;
        for ((a, c), want) in args.iter().zip(&cargs).zip(b.args()) {
            if *want != Type::Any {
                self.expect_type(c, *want, a.pos, &format!("`{}`", name.text))?;
            }
        }
        Ok(CExpr::Call(b, cargs))
    }

    /// A call of stateful function `func`, allotted the next state slot.
    fn stateful_call(&mut self, site: CallSite<'_>, func: StatefulFn) -> Result<CExpr, RuleError> {
        let CallSite {
            e,
            name,
            args,
            named,
        } = site;
        let Some(on) = self.scope.filter(|_| self.stateful_ok) else {
            return Err(RuleError::new(
                e.pos,
                format!(
                    "`{}` keeps state across events; it cannot be used here",
                    name.text
                ),
            )
            .help("use it in a `let`, a rule's condition or an adjudication"));
        };
        arity(e, name, args, 1)?;
        // no nesting: state must advance exactly once per event
        self.stateful_ok = false;
        let compiled = self.stateful_args(&args[0], named);
        self.stateful_ok = true;
        let (arg, over, reset, per) = compiled?;
        if matches!(
            func,
            StatefulFn::Streak | StatefulFn::Count | StatefulFn::Since
        ) {
            self.expect_type(&arg, Type::Bool, args[0].pos, &format!("`{}`", name.text))?;
        }
        if func == StatefulFn::Sum {
            self.expect_type(&arg, Type::Num, args[0].pos, "`sum`")?;
        }
        let slot = self.slots;
        self.slots += 1;
        Ok(CExpr::Stateful(Box::new(Stateful {
            slot,
            func,
            arg,
            over,
            reset,
            per,
            on,
        })))
    }

    /// A call of detector `d`, with its named parameters.
    fn detector_call(&mut self, site: CallSite<'_>, d: Detector) -> Result<CExpr, RuleError> {
        let CallSite {
            e,
            name,
            args,
            named,
        } = site;
        if !args.is_empty() {
            return Err(RuleError::new(
                args[0].pos,
                format!("`{}` takes only named parameters", name.text),
            )
            .help(format!("its parameters: {}", d.params().join(", "))));
        }
        if d == Detector::Tablebase && self.scope != Some(Kind::Move) {
            return Err(RuleError::new(
                e.pos,
                "`tablebase` probes the position after a move; use it on `move` events",
            ));
        }
        let event_game = Kind::Scope(timeline::ScopeKind::EventGame);
        if d == Detector::AcceleratedPairing && self.scope != Some(event_game) {
            return Err(RuleError::new(
                e.pos,
                "`accelerated_pairing` judges one game's pairing; use it on `event_game` items",
            ));
        }
        if d != Detector::AcceleratedPairing && self.scope.is_some_and(|k| k.is_event_level()) {
            return Err(RuleError::new(
                e.pos,
                format!(
                    "`{}` reads one game; it cannot be used on event-level items",
                    name.text
                ),
            ));
        }
        let mut params = Vec::new();
        for (k, v) in named {
            if !d.params().contains(&k.text.as_str()) {
                let help = suggest(&k.text, d.params().iter().copied())
                    .unwrap_or_else(|| format!("its parameters: {}", d.params().join(", ")));
                return Err(RuleError::new(
                    k.pos,
                    format!("`{}` has no parameter `{}`", name.text, k.text),
                )
                .help(help));
            }
            let value = self.expr(v)?;
            if d == Detector::Similarity && k.text == "signal" {
                let known = ["moves", "evaluation"];
                match &value {
                    CExpr::Lit(Value::Str(s)) if known.contains(&s.as_str()) => {}
                    _ => {
                        return Err(RuleError::new(
                            v.pos,
                            "`signal` takes \"moves\" (move matching) or \"evaluation\" (the evaluation-signature verdict)",
                        ));
                    }
                }
            }
            params.push((k.text.clone(), value));
        }
        Ok(CExpr::Detector(d, params))
    }

    #[allow(clippy::type_complexity)]
    fn stateful_args(
        &mut self,
        arg: &ast::Expr,
        named: &[(ast::Name, ast::Expr)],
    ) -> Result<(CExpr, Option<CExpr>, Option<CExpr>, Option<CExpr>), RuleError> {
        let a = self.expr(arg)?;
        let (mut over, mut reset, mut per) = (None, None, None);
        for (k, v) in named {
            let slot = match k.text.as_str() {
                "over" => &mut over,
                "reset" => &mut reset,
                "per" => &mut per,
                other => {
                    let help = suggest(other, ["over", "reset", "per"]).unwrap_or_else(|| {
                        "stateful functions take `over:`, `reset:` and `per:`".into()
                    });
                    return Err(
                        RuleError::new(k.pos, format!("unknown argument `{other}`")).help(help)
                    );
                }
            };
            let c = self.expr(v)?;
            if k.text != "per" {
                self.expect_type(&c, Type::Bool, v.pos, &format!("`{}:`", k.text))?;
            }
            *slot = Some(c);
        }
        Ok((a, over, reset, per))
    }
}

/// Whether the call of `name` (at `e`) has the `want` arguments it takes.
fn arity(
    e: &ast::Expr,
    name: &ast::Name,
    args: &[ast::Expr],
    want: usize,
) -> Result<(), RuleError> {
    if args.len() != want {
        Err(RuleError::new(
            e.pos,
            format!(
                "`{}` takes {want} argument{}, found {}",
                name.text,
                if want == 1 { "" } else { "s" },
                args.len()
            ),
        ))
    } else {
        Ok(())
    }
}

/// Whether the call of `name` has no named arguments (`named`).
fn no_named(name: &ast::Name, named: &[(ast::Name, ast::Expr)]) -> Result<(), RuleError> {
    match named.first() {
        Some((k, _)) => Err(RuleError::new(
            k.pos,
            format!("`{}` takes no named arguments", name.text),
        )),
        None => Ok(()),
    }
}
