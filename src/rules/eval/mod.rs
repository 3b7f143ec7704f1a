//! The evaluator: runs a compiled ruleset over one game's timeline in a
//! single pass. Every `let` and rule is evaluated at most once per event, and
//! every stateful call advances exactly once per event of its kind (before
//! the expression that contains it is evaluated, so `and`/`or`/`if` cannot
//! skip it). Cost: linear in events × size of the ruleset.
//!
//! This file holds what the rest of arbiter calls: the [`Program`] (a
//! ruleset with its variant chosen), [`run`], [`run_switched`] and
//! [`run_event`], and their [`Outcome`]. The parts, in the order a rule
//! meets them:
//!
//! - `plan`: what a ruleset's structure says, found once per ruleset,
//!   with `compiled`'s closures: each `let`, rule condition and stateful
//!   call compiled once, which a game's run calls;
//! - `columns`: the `let`s and conditions on moves whose parts a column
//!   can hold, evaluated over all of a game's moves at once before the
//!   per-event pass, which reads them (and their switches' shadows);
//! - `ctx`: the walk of an expression at one event (`Ctx`), with
//!   `typed`'s unboxed numbers and truths (for the event level, the
//!   constants, and the shapes the closures hand back);
//! - `detectors`: the builtin functions and the detectors rules call;
//! - `memo`: a side's engine options already judged, not walked again;
//! - `switched`: the one-pass shadows that show what each switch changes;
//! - `verdicts`: a rule's verdict and the finding it makes.

use std::collections::BTreeMap;

use shakmaty::Position;
use shakmaty_syzygy::{AmbiguousWdl, SyzygyError, Tablebase};

use super::analysis::{
    Builtin, CExpr, CTemplatePart, Check, Detector, RuleDef, Ruleset, Stateful, StatefulFn,
};
use super::syntax::ast::{BinOp, UnOp};
use crate::base::value::Value;
use crate::facts::clock::TimeControlDef;
use crate::findings::{Evidence, Finding};
use crate::timeline::{ClockField, Data, Kind, MoveField, Timeline};

/// The reason given when a rule calls a detector this version lacks; such
/// rules are listed once per run (see [`Ruleset::unavailable`]), not per game.
pub const UNAVAILABLE: &str = "this version of arbiter has no detector";

mod columns;
mod compiled;
mod ctx;
mod detectors;
mod memo;
mod plan;
mod switched;
mod typed;
mod verdicts;

// the parts' own items, shared with each other through this module
use compiled::{Arg, Code, StatefulCode};
use ctx::*;
pub(crate) use plan::Plan;
pub use switched::run_switched;
use switched::*;
use typed::*;
use verdicts::*;
pub use verdicts::{clause_text, rule_evidence, rule_finding};

/// Evaluate constants in order, applying `overrides` (index, expression).
pub fn const_values(consts: &[(String, CExpr)], overrides: &[(usize, CExpr)]) -> Vec<Value> {
    super::analysis::const_values(consts, overrides, eval_const)
}

/// What the evaluator keeps with a ruleset, found the first time it runs:
/// the plan, and the constants' values of the base ruleset (first) and of
/// each variant (in `variants`' order), each found the first time a game
/// needs it (they depend on nothing but the ruleset).
#[derive(Default)]
pub(crate) struct Kept {
    plan: std::sync::OnceLock<Plan>,
    consts: std::sync::OnceLock<Vec<std::sync::OnceLock<std::sync::Arc<[Value]>>>>,
}

impl Kept {
    /// The evaluator's data kept with `rs`, made the first time.
    pub(crate) fn of(rs: &Ruleset) -> &Kept {
        let kept = rs
            .evaluator
            .get_or_init(|| std::sync::Arc::new(Kept::default()));
        match kept.downcast_ref::<Kept>() {
            Some(k) => k,
            // only this function fills the place, always with a `Kept`
            None => unreachable!("a ruleset's evaluator data is the evaluator's own"),
        }
    }
}

/// Evaluate an expression that depends on nothing but constants.
pub fn eval_const(e: &CExpr, consts: &[Value]) -> Value {
    eval_stateless(None, 0, consts, &[], e)
}

/// Evaluate an expression that keeps no state and calls no detector:
/// constants, variant conditions, labels.
fn eval_stateless(
    tl: Option<&Timeline<'_>>,
    i: usize,
    consts: &[Value],
    switches: &[bool],
    e: &CExpr,
) -> Value {
    let run = Run {
        tl,
        scope: None,
        consts,
        detectors: &Detectors::default(),
        clock: &[],
        time_control: None,
        cache: &DetectorCache::default(),
        game: &[],
    };
    let (mut notes, mut evidence) = (Vec::new(), Vec::new());
    Ctx::stateless(&run, switches, i, None, &mut notes, &mut evidence).eval(e)
}

/// External oracles the rules may call.
#[derive(Default)]
pub struct Detectors {
    pub tablebase: Option<Tablebase<shakmaty::Chess>>,
    /// A report of `arbiter similarity` (active or passive).
    pub similarity: Option<crate::facts::similarity::Loaded>,
}

impl std::fmt::Debug for Detectors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Detectors")
            .field(
                "tablebase",
                &self.tablebase.as_ref().map(|t| t.max_pieces()),
            )
            .finish()
    }
}

impl Detectors {
    /// Load Syzygy tables from a directory.
    pub fn with_syzygy(dir: &std::path::Path) -> std::io::Result<Detectors> {
        let mut tb = Tablebase::new();
        tb.add_directory(dir)?;
        Ok(Detectors {
            tablebase: Some(tb),
            similarity: None,
        })
    }
}

/// A ruleset instantiated for one variant: constants and switches resolved.
#[derive(Debug, Clone)]
pub struct Program<'r> {
    pub ruleset: &'r Ruleset,
    pub variant: Option<String>,
    /// The constants' values: shared with every program of the same
    /// variant when nothing overrides them.
    pub consts: std::sync::Arc<[Value]>,
    pub switches: Vec<bool>,
    pub time_control: Option<&'r TimeControlDef>,
}

/// Values given to constants and switches over the ruleset's and its
/// variant's (what `arbiter rules fit` tries): `(index, value)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    pub consts: Vec<(usize, Value)>,
    pub switches: Vec<(usize, bool)>,
}

impl<'r> Program<'r> {
    /// The base ruleset, or one variant of it (with its ancestors).
    pub fn new(rs: &'r Ruleset, variant: Option<&str>) -> Result<Program<'r>, String> {
        Program::with(rs, variant, &Overrides::default())
    }

    /// [`Program::new`], then `over` over the variant's values (a constant
    /// given a value there also changes the constants computed from it).
    pub fn with(
        rs: &'r Ruleset,
        variant: Option<&str>,
        over: &Overrides,
    ) -> Result<Program<'r>, String> {
        let vi = match variant {
            Some(name) => Some(rs.variants.iter().position(|v| v.name == name).ok_or_else(
                || {
                    let known: Vec<&str> = rs.variants.iter().map(|v| v.name.as_str()).collect();
                    format!(
                        "ruleset {} has no variant `{name}`; its variants: {}",
                        rs.id,
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    )
                },
            )?),
            None => None,
        };
        // the variant's ancestors, then the variant itself
        let lineage = || {
            vi.into_iter()
                .flat_map(|vi| rs.variants[vi].ancestors.iter().copied().chain([vi]))
                .map(|a| &rs.variants[a])
        };
        let mut switches: Vec<bool> = rs.switches.iter().map(|s| s.default).collect();
        let mut tc = rs.time_control.clone();
        for av in lineage() {
            for &(s, b) in &av.switches {
                switches[s] = b;
            }
            if av.time_control.is_some() {
                tc = av.time_control.clone();
            }
        }
        for &(s, b) in &over.switches {
            if let Some(at) = switches.get_mut(s) {
                *at = b;
            }
        }
        // the constants the variant and its ancestors give values to
        let overrides = || -> Vec<(usize, CExpr)> {
            lineage().flat_map(|av| av.consts.iter().cloned()).collect()
        };
        let consts = if over.consts.is_empty() {
            // with nothing over them, the variant's constants are found once
            // per ruleset (they read nothing but each other)
            let all = Kept::of(rs).consts.get_or_init(|| {
                (0..=rs.variants.len())
                    .map(|_| Default::default())
                    .collect()
            });
            all[vi.map_or(0, |v| v + 1)]
                .get_or_init(|| const_values(&rs.consts, &overrides()).into())
                .clone()
        } else {
            let mut overrides = overrides();
            overrides.extend(over.consts.iter().map(|(i, v)| (*i, CExpr::Lit(v.clone()))));
            const_values(&rs.consts, &overrides).into()
        };
        Ok(Program {
            ruleset: rs,
            variant: variant.map(str::to_string),
            consts,
            switches,
            time_control: tc.and_then(|n| rs.time_controls.iter().find(|t| t.name == n)),
        })
    }

    /// The variant that applies to a game: the forced one, else the first
    /// whose `applies when` holds, else the base ruleset.
    pub fn for_game(
        rs: &'r Ruleset,
        forced: Option<&str>,
        tl: &Timeline<'_>,
    ) -> Result<Program<'r>, String> {
        Program::for_game_with(rs, forced, tl, &Overrides::default())
    }

    /// [`Program::for_game`] with `over` (the variant is chosen by the
    /// ruleset's own values).
    pub fn for_game_with(
        rs: &'r Ruleset,
        forced: Option<&str>,
        tl: &Timeline<'_>,
        over: &Overrides,
    ) -> Result<Program<'r>, String> {
        if forced.is_some() {
            return Program::with(rs, forced, over);
        }
        let base = Program::new(rs, None)?;
        for v in &rs.variants {
            if let Some(a) = &v.applies
                && eval_stateless(Some(tl), 0, &base.consts, &base.switches, a) == Value::Bool(true)
            {
                return Program::with(rs, Some(&v.name), over);
            }
        }
        if *over == Overrides::default() {
            return Ok(base);
        }
        Program::with(rs, None, over)
    }
}

/// What the rules computed for the end of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    pub rule: String,
    pub ply: u32,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The termination text the software would record, when the rule says.
    pub records: Option<String>,
    /// The rule's message, evaluated where it fired.
    pub message: Option<String>,
}

/// A rule that could not be decided at some event, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Indeterminate {
    pub rule: String,
    pub ply: Option<u32>,
    pub reason: String,
}

/// The outcome of evaluating a ruleset on one game.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub computed: Option<Computed>,
    pub findings: Vec<Finding>,
    pub indeterminate: Vec<Indeterminate>,
    /// For each move event (in order), the value of every `let`.
    pub trace: Vec<(u32, Vec<Value>)>,
    /// The first ply at which an adjudication could not be decided; no
    /// adjudication is computed from there on.
    pub undecided_from: Option<u32>,
    /// For event-level rules: the item each finding is about.
    pub finding_items: Vec<usize>,
}

fn result_of(v: &Value) -> Option<&'static str> {
    match v {
        Value::Str(s) if s == "white" => Some("1-0"),
        Value::Str(s) if s == "black" => Some("0-1"),
        Value::Str(s) if s == "draw" => Some("1/2-1/2"),
        _ => None,
    }
}

/// Evaluate a program on one game. `path` names the game's source in the
/// evidence; `trace` keeps every `let` value per move (for `replay --rules`).
pub fn run(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    detectors: &Detectors,
    path: &str,
    trace: bool,
) -> Outcome {
    run_switched(prog, tl, detectors, path, trace, &[]).0
}

/// Evaluate a program's event-level rules on one event's case file.
pub fn run_event(
    prog: &Program<'_>,
    case: &crate::facts::event::EventCase,
    detectors: &Detectors,
) -> Outcome {
    let rs = prog.ruleset;
    let mut out = Outcome::default();
    let mut slots = vec![Slot::default(); rs.slots];
    let mut lets: Vec<Value> = vec![Value::None; rs.lets.len()];
    let mut notes: Vec<Note> = Vec::new();
    let mut indeterminate: BTreeMap<String, Indeterminate> = BTreeMap::new();
    let cache = DetectorCache::default();
    let mut evidence: Vec<(String, Option<Evidence>)> = Vec::new();
    let run = Run {
        tl: None,
        scope: Some(case),
        consts: &prog.consts,
        detectors,
        clock: &[],
        time_control: prog.time_control,
        cache: &cache,
        game: &[],
    };
    macro_rules! ctx {
        ($i:expr) => {
            Ctx {
                run: &run,
                i: $i,
                switches: &prog.switches,
                lets: &lets,
                overlay: None,
                slots: &mut slots,
                notes: &mut notes,
                evidence: &mut evidence,
                facts: None,
            }
        };
    }
    let plan = Plan::of(rs);
    for (i, item) in case.items.iter().enumerate() {
        let kind = Kind::Scope(item.kind);
        for (j, l) in rs.lets.iter().enumerate() {
            if l.on == kind {
                let mut ctx = ctx!(i);
                ctx.advance(plan, &plan.let_calls[j]);
                lets[j] = ctx.eval(&l.expr);
            }
        }
        for (ri, rule) in rs.rules.iter().enumerate() {
            match &rule.check {
                Check::Forbid { on, .. } | Check::Require { on, .. } if *on == kind => {}
                _ => continue,
            }
            notes.clear();
            evidence.clear();
            let mut ctx = ctx!(i);
            ctx.advance(plan, &plan.rule_calls[ri]);
            match verdict(&rule.check, &mut ctx) {
                Verdict::Violation => {
                    let message = message(rule, &mut ctx);
                    let mut places = case.places(i);
                    if places.is_empty() {
                        places.push(Evidence {
                            path: String::new(),
                            span: None,
                            ply: None,
                            timestamp: None,
                            note: format!("the event {}", case.name),
                        });
                    }
                    let first = places.remove(0);
                    let mut f = rule_finding(rule, message, first, &rs.path);
                    let at = f.evidence.len() - 1;
                    f.evidence.splice(at..at, places);
                    out.findings.push(f);
                    out.finding_items.push(i);
                }
                Verdict::Unknown => note_unknown(&mut indeterminate, rule, None, &ctx),
                Verdict::Holds => {}
            }
        }
    }
    out.indeterminate = indeterminate.into_values().collect();
    out
}

/// Evaluate a state-free expression at event `i` (for labels).
pub fn eval_at(prog: &Program<'_>, tl: &Timeline<'_>, i: usize, e: &CExpr) -> Value {
    eval_stateless(Some(tl), i, &prog.consts, &prog.switches, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The operators as the language defines them on values: what the
    /// unboxed paths must give.
    fn binary(op: BinOp, x: Value, y: Value) -> Value {
        use Value::*;
        match op {
            BinOp::And => match (&x, &y) {
                (Bool(false), _) | (_, Bool(false)) => Bool(false),
                (Unknown, _) | (_, Unknown) => Unknown,
                (Bool(true), Bool(true)) => Bool(true),
                _ => Bool(false),
            },
            BinOp::Or => match (&x, &y) {
                (Bool(true), _) | (_, Bool(true)) => Bool(true),
                (Unknown, _) | (_, Unknown) => Unknown,
                _ => Bool(false),
            },
            _ if matches!(x, Unknown) || matches!(y, Unknown) => Unknown,
            BinOp::Eq => Bool(x == y),
            BinOp::Ne => Bool(x != y),
            BinOp::In => match y {
                List(l) => Bool(l.contains(&x)),
                _ => Bool(false),
            },
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => match (x, y) {
                (Num(a), Num(b)) => Bool(match op {
                    BinOp::Lt => a < b,
                    BinOp::Le => a <= b,
                    BinOp::Gt => a > b,
                    _ => a >= b,
                }),
                _ => Bool(false),
            },
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => match (x, y) {
                (Num(a), Num(b)) => {
                    let r = match op {
                        BinOp::Add => a + b,
                        BinOp::Sub => a - b,
                        BinOp::Mul => a * b,
                        _ if b == 0.0 => return None,
                        _ => a / b,
                    };
                    if r.is_finite() { Num(r) } else { None }
                }
                _ => None,
            },
        }
    }

    /// `abs`, `floor`, `ceil`, `round`, `min` and `max` as the language
    /// defines them on values (`unknown` if an argument is, none unless
    /// every argument is a number).
    fn builtin_on_values(f: Builtin, x: &Value, y: &Value) -> Value {
        if matches!(x, Value::Unknown) || matches!(y, Value::Unknown) {
            return Value::Unknown;
        }
        let one: fn(f64) -> f64 = match f {
            Builtin::Abs => f64::abs,
            Builtin::Floor => f64::floor,
            Builtin::Ceil => f64::ceil,
            Builtin::Round => f64::round,
            _ => {
                return match (x, y) {
                    (Value::Num(a), Value::Num(b)) => Value::Num(if f == Builtin::Min {
                        a.min(*b)
                    } else {
                        a.max(*b)
                    }),
                    _ => Value::None,
                };
            }
        };
        match x {
            Value::Num(a) => Value::Num(one(*a)),
            _ => Value::None,
        }
    }

    /// Two values the same to every reader (a NaN is the same NaN).
    macro_rules! assert_same {
        ($got:expr, $want:expr, $($what:tt)+) => {{
            let (got, want) = (&$got, &$want);
            assert!(
                switched::identical(got, want),
                "{}: {got:?}, expected {want:?}",
                format!($($what)+)
            );
        }};
    }

    /// The unboxed paths, and `eval` and `builtin` through them, give what
    /// the language defines on values (`binary`, `builtin_on_values`), for
    /// every operator and numeric builtin and every kind of value on either
    /// side; `not` and `-` likewise.
    #[test]
    fn unboxed_logic_and_arithmetic_agree_with_values() {
        let values = [
            Value::Num(2.0),
            Value::Num(-3.5),
            Value::Num(0.0),
            Value::Num(f64::MAX),
            // the edges of floats: a signed zero, a sum that overflows,
            // the infinities and NaN
            Value::Num(-0.0),
            Value::Num(1e300),
            Value::Num(f64::INFINITY),
            Value::Num(f64::NEG_INFINITY),
            Value::Num(f64::NAN),
            Value::Num(-f64::NAN),
            Value::Bool(true),
            Value::Bool(false),
            Value::Str("x".into()),
            Value::List(vec![Value::Num(2.0)]),
            Value::None,
            Value::Unknown,
        ];
        let detectors = Detectors::default();
        let cache = DetectorCache::default();
        let run = Run::bare(&[], &detectors, &cache);
        let (mut notes, mut evidence) = (Vec::new(), Vec::new());
        let mut ctx = Ctx::stateless(&run, &[], 0, None, &mut notes, &mut evidence);
        for x in &values {
            for y in &values {
                for op in [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div] {
                    let want = binary(op, x.clone(), y.clone());
                    assert_same!(
                        Num::of(x).arith(op, Num::of(y)).value(),
                        want,
                        "{x:?} {op:?} {y:?}"
                    );
                }
                for op in [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge] {
                    let want = binary(op, x.clone(), y.clone());
                    assert_same!(
                        Num::of(x).compare(op, Num::of(y)).value(),
                        want,
                        "{x:?} {op:?} {y:?}"
                    );
                }
                // and the whole path, eval through num and truth
                for op in BinOp::ALL {
                    let e = CExpr::Binary(
                        op,
                        Box::new(CExpr::Lit(x.clone())),
                        Box::new(CExpr::Lit(y.clone())),
                    );
                    let want = binary(op, x.clone(), y.clone());
                    assert_same!(ctx.eval(&e), want, "eval {x:?} {op:?} {y:?}");
                }
                let and = binary(BinOp::And, x.clone(), y.clone());
                assert_same!(
                    Truth::of(x).and(Truth::of(y)).value(),
                    and,
                    "{x:?} and {y:?}"
                );
                let or = binary(BinOp::Or, x.clone(), y.clone());
                assert_same!(Truth::of(x).or(Truth::of(y)).value(), or, "{x:?} or {y:?}");
                for f in [Builtin::Min, Builtin::Max] {
                    let want = builtin_on_values(f, x, y);
                    assert_same!(
                        Num::of(x).call2(f, Num::of(y)).value(),
                        want,
                        "{f:?}({x:?}, {y:?})"
                    );
                    let got = ctx.builtin(f, [x.clone(), y.clone()]);
                    assert_same!(got, want, "builtin {f:?}({x:?}, {y:?})");
                }
            }
            let not = match x {
                Value::Unknown => Value::Unknown,
                Value::Bool(b) => Value::Bool(!b),
                _ => Value::Bool(true),
            };
            assert_same!(Truth::of(x).not().value(), not, "not {x:?}");
            let neg = match x {
                Value::Unknown => Value::Unknown,
                Value::Num(n) => Value::Num(-n),
                _ => Value::None,
            };
            assert_same!(Num::of(x).neg().value(), neg, "- {x:?}");
            for f in [Builtin::Abs, Builtin::Floor, Builtin::Ceil, Builtin::Round] {
                let want = builtin_on_values(f, x, &Value::None);
                assert_same!(Num::of(x).call1(f).value(), want, "{f:?}({x:?})");
                let got = ctx.builtin(f, [x.clone(), Value::None]);
                assert_same!(got, want, "builtin {f:?}({x:?})");
            }
        }
    }
}
