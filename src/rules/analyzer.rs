//! The analyzer: syntax tree → a validated [`Ruleset`]. Resolves every name
//! (constants, `let`s, switches, event fields, functions), checks types
//! where they are known, requires a citation on every rule, resolves variant
//! inheritance (rejecting cycles) and allots a state slot to every stateful
//! call, so that evaluation is one linear pass.

use std::collections::{BTreeMap, HashMap};

use super::syntax::ast::{self, BinOp, ExprKind, Item, RuleKind, UnOp};
use super::syntax::error::{Pos, RuleError};
use super::syntax::parser::parse;
use crate::base::suggest::suggest;
use crate::base::value::{Type, Value};
use crate::facts::clock::{PeriodDef, TimeControlDef};
use crate::findings::Severity;
use crate::timeline::{self, Kind};

/// A compiled expression.
#[derive(Debug, Clone)]
pub enum CExpr {
    Lit(Value),
    Const(usize),
    Let(usize),
    Switch(usize),
    Field(Kind, &'static str),
    /// A field of the current `move`, resolved once (its name kept for
    /// messages and types).
    Move(timeline::MoveField, &'static str),
    Unary(UnOp, Box<CExpr>),
    Binary(BinOp, Box<CExpr>, Box<CExpr>),
    /// An `and` or `or` whose right side calls no detector: the right side
    /// is evaluated only when the left does not decide (`false and …`,
    /// `true or …`). Skipping it changes nothing but the time: without a
    /// detector an expression has no effect but its value.
    Short(BinOp, Box<CExpr>, Box<CExpr>),
    If(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    List(Vec<CExpr>),
    Call(Builtin, Vec<CExpr>),
    Stateful(Box<Stateful>),
    Detector(Detector, Vec<(String, CExpr)>),
}

impl CExpr {
    /// Call `f` on each expression directly inside this one, in order (a
    /// stateful call's argument, then `over`, `reset` and `per`). Every walk
    /// over compiled expressions goes through here.
    pub fn each_child<'e>(&'e self, f: &mut impl FnMut(&'e CExpr)) {
        match self {
            CExpr::Unary(_, a) => f(a),
            CExpr::Binary(_, a, b) | CExpr::Short(_, a, b) => {
                f(a);
                f(b);
            }
            CExpr::If(a, b, c) => {
                f(a);
                f(b);
                f(c);
            }
            CExpr::List(l) | CExpr::Call(_, l) => l.iter().for_each(f),
            CExpr::Detector(_, params) => params.iter().for_each(|(_, x)| f(x)),
            CExpr::Stateful(s) => {
                f(&s.arg);
                [&s.over, &s.reset, &s.per]
                    .into_iter()
                    .flatten()
                    .for_each(f);
            }
            CExpr::Lit(_)
            | CExpr::Const(_)
            | CExpr::Let(_)
            | CExpr::Switch(_)
            | CExpr::Field(..)
            | CExpr::Move(..) => {}
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    Abs,
    Min,
    Max,
    Floor,
    Ceil,
    Round,
    Lower,
    Contains,
    StartsWith,
    Tag,
    Coalesce,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatefulFn {
    /// Consecutive in-scope events where the condition held.
    Streak,
    /// In-scope events where the condition held.
    Count,
    /// Running sum of a number over in-scope events.
    Sum,
    /// Whether the condition has held at this or any earlier in-scope event.
    Since,
    /// The value at the previous in-scope event.
    Previous,
    /// The value at the latest in-scope event, this one included.
    Last,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detector {
    /// Syzygy WDL of the position after the move, with the fifty-move rule.
    Tablebase,
    /// Hidden opening-book use: the move is one of a run of unexplained
    /// moves without search (src/detect/hidden_book.rs).
    HiddenBook,
    /// Move similarity between engines (a later stage brings the detector).
    Similarity,
    /// An accelerated Swiss pairing that the rules forbade and the round
    /// could have avoided (src/event.rs).
    AcceleratedPairing,
}

impl Detector {
    pub fn name(self) -> &'static str {
        match self {
            Detector::Tablebase => "tablebase",
            Detector::HiddenBook => "hidden_book",
            Detector::Similarity => "similarity",
            Detector::AcceleratedPairing => "accelerated_pairing",
        }
    }

    fn params(self) -> &'static [&'static str] {
        match self {
            Detector::Tablebase => &["fifty_move_rule"],
            Detector::HiddenBook => &["min_run", "max_nodes", "max_depth", "max_time", "tb_pieces"],
            Detector::Similarity => &[
                "signal",
                "threshold",
                "false_positive_rate",
                "min_positions",
                "against",
            ],
            Detector::AcceleratedPairing => &["until_round", "high_score"],
        }
    }
}

#[derive(Debug, Clone)]
pub struct Stateful {
    pub slot: usize,
    pub func: StatefulFn,
    pub arg: CExpr,
    pub over: Option<CExpr>,
    pub reset: Option<CExpr>,
    pub per: Option<CExpr>,
    /// The event kind whose events drive it.
    pub on: Kind,
}

#[derive(Debug, Clone)]
pub struct Let {
    pub name: String,
    pub on: Kind,
    pub expr: CExpr,
}

#[derive(Debug, Clone)]
pub struct Switch {
    pub name: String,
    pub default: bool,
    pub doc: String,
    pub line: usize,
}

#[derive(Debug, Clone)]
pub struct VariantDef {
    pub name: String,
    /// The chain of ancestors, nearest last (the variant itself excluded).
    pub ancestors: Vec<usize>,
    pub applies: Option<CExpr>,
    pub consts: Vec<(usize, CExpr)>,
    pub switches: Vec<(usize, bool)>,
    pub time_control: Option<String>,
    pub line: usize,
}

#[derive(Debug, Clone)]
pub struct CiteDef {
    pub clause: String,
    pub quote: String,
    pub line: usize,
    pub column: usize,
}

#[derive(Debug, Clone)]
pub enum CTemplatePart {
    Text(String),
    Expr(CExpr),
}

#[derive(Debug, Clone)]
pub enum Check {
    Manual(String),
    Adjudicate {
        result: CExpr,
        records: Option<CExpr>,
        when: CExpr,
    },
    Forbid {
        on: Kind,
        when: Option<CExpr>,
    },
    Require {
        on: Kind,
        when: CExpr,
    },
}

#[derive(Debug, Clone)]
pub struct RuleDef {
    pub id: String,
    pub title: String,
    pub cites: Vec<CiteDef>,
    pub severity: Severity,
    pub sanction: String,
    pub doc: String,
    pub message: Option<Vec<CTemplatePart>>,
    pub check: Check,
    pub line: usize,
    /// The rule's source text, for `rules explain`.
    pub source: String,
}

impl RuleDef {
    /// The kind of event or item the rule is evaluated on (adjudications:
    /// moves; manual rules: none).
    pub fn on(&self) -> Option<Kind> {
        match &self.check {
            Check::Forbid { on, .. } | Check::Require { on, .. } => Some(*on),
            Check::Adjudicate { .. } => Some(Kind::Move),
            Check::Manual(_) => None,
        }
    }

    /// The expressions the rule evaluates on each of its events, in order:
    /// an adjudication's condition, then its result; a `forbid`'s or
    /// `require`'s condition.
    pub fn evaluated(&self) -> impl Iterator<Item = &CExpr> {
        let (first, then) = match &self.check {
            Check::Adjudicate { result, when, .. } => (Some(when), Some(result)),
            Check::Forbid { when: Some(w), .. } | Check::Require { when: w, .. } => (Some(w), None),
            Check::Forbid { when: None, .. } | Check::Manual(_) => (None, None),
        };
        first.into_iter().chain(then)
    }

    /// Every expression the rule holds: what it evaluates
    /// ([`RuleDef::evaluated`]), then an adjudication's record and the
    /// message's parts.
    pub fn expressions(&self) -> impl Iterator<Item = &CExpr> {
        let records = match &self.check {
            Check::Adjudicate { records, .. } => records.as_ref(),
            _ => None,
        };
        self.evaluated()
            .chain(records)
            .chain(self.message.iter().flatten().filter_map(|p| match p {
                CTemplatePart::Expr(e) => Some(e),
                CTemplatePart::Text(_) => None,
            }))
    }

    /// Whether it spans several games (evaluated by `arbiter batch`).
    pub fn is_event_level(&self) -> bool {
        self.on().is_some_and(Kind::is_event_level)
    }
}

/// A validated ruleset.
#[derive(Debug, Clone)]
pub struct Ruleset {
    pub path: String,
    pub sha256: String,
    pub id: String,
    pub title: String,
    pub regulation: String,
    pub format: String,
    pub scoring: Vec<(String, f64)>,
    pub tiebreaks: Vec<String>,
    pub time_control: Option<String>,
    pub consts: Vec<(String, CExpr)>,
    pub switches: Vec<Switch>,
    pub lets: Vec<Let>,
    pub time_controls: Vec<TimeControlDef>,
    pub variants: Vec<VariantDef>,
    pub rules: Vec<RuleDef>,
    pub slots: usize,
    /// The constants and switches marked `fit`, in the file's order.
    pub fits: Vec<FitDef>,
    /// What the evaluator keeps of this ruleset, found the first time it
    /// runs: its plan and the constants' values. The evaluator owns its
    /// type (`crate::rules::eval`); the analysis only keeps the place.
    pub(crate) evaluator: std::sync::OnceLock<Kept>,
}

/// The evaluator's own data kept with a ruleset (see [`Ruleset`]).
pub(crate) type Kept = std::sync::Arc<dyn std::any::Any + Send + Sync>;

/// Evaluates an expression that reads nothing but constants, given the
/// values of the constants before it: the evaluator's, which
/// `crate::rules::compile` gives the analysis (it folds a `fit` clause's
/// values and the numbers a time control or a scoring names).
pub type Fold = fn(&CExpr, &[Value]) -> Value;

/// The constants' values in order, each evaluated by `fold` from those
/// before it, with `overrides` (index, expression) applied.
pub fn const_values(
    consts: &[(String, CExpr)],
    overrides: &[(usize, CExpr)],
    fold: Fold,
) -> Vec<Value> {
    let mut vals: Vec<Value> = Vec::with_capacity(consts.len());
    for (i, (_, e)) in consts.iter().enumerate() {
        let e = overrides
            .iter()
            .rev()
            .find(|(j, _)| *j == i)
            .map_or(e, |(_, o)| o);
        let v = fold(e, &vals);
        vals.push(v);
    }
    vals
}

impl Ruleset {
    /// Rules that call a detector this version of arbiter does not have:
    /// `(rule id, detector)`.
    pub fn unavailable(&self) -> Vec<(String, &'static str)> {
        self.unavailable_given(false)
    }

    /// As [`Ruleset::unavailable`], knowing whether a similarity report
    /// was given (the `similarity` detector reads one).
    pub fn unavailable_given(&self, similarity_report: bool) -> Vec<(String, &'static str)> {
        fn walk(e: &CExpr, out: &mut Vec<&'static str>) {
            if let CExpr::Detector(d @ Detector::Similarity, _) = e {
                out.push(d.name());
            }
            e.each_child(&mut |x| walk(x, out));
        }
        let mut out = Vec::new();
        for r in &self.rules {
            let mut found = Vec::new();
            for e in r.evaluated() {
                walk(e, &mut found);
            }
            found.dedup();
            if similarity_report {
                found.retain(|d| *d != Detector::Similarity.name());
            }
            out.extend(found.into_iter().map(|d| (r.id.clone(), d)));
        }
        out
    }
}

/// Read, parse and analyze a ruleset, folding its constants with `fold`
/// (`crate::rules::compile` gives the evaluator's).
pub fn compile_with(path: &str, src: &str, fold: Fold) -> Result<Ruleset, RuleError> {
    let items = parse(src)?;
    Analyzer::new(path, src, fold).run(items)
}

const BUILTIN_NAMES: &[&str] = &["white", "black", "draw"];
const FUNCTIONS: &[&str] = &[
    "abs",
    "min",
    "max",
    "floor",
    "ceil",
    "round",
    "lower",
    "contains",
    "starts_with",
    "tag",
    "coalesce",
    "streak",
    "count",
    "sum",
    "since",
    "previous",
    "last",
    "tablebase",
    "hidden_book",
    "similarity",
    "accelerated_pairing",
];

struct Analyzer<'a> {
    path: &'a str,
    src: &'a str,
    fold: Fold,
    consts: Vec<(String, CExpr)>,
    const_index: HashMap<String, usize>,
    switches: Vec<Switch>,
    switch_index: HashMap<String, usize>,
    lets: Vec<Let>,
    let_index: HashMap<String, usize>,
    slots: usize,
    /// The event kind in scope while compiling an expression (None: constant).
    scope: Option<Kind>,
    /// Whether stateful calls are allowed here.
    stateful_ok: bool,
    fits: Vec<FitDef>,
}

/// The most values a `fit` clause may give one constant.
pub const FIT_MAX_VALUES: usize = 1000;

/// What `arbiter rules fit` may change: a constant or a switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FitTarget {
    Const(usize),
    Switch(usize),
}

/// A constant or switch marked `fit`, with the values the fit tries (a
/// switch: both), in order.
#[derive(Debug, Clone)]
pub struct FitDef {
    pub target: FitTarget,
    pub grid: Vec<Value>,
    pub line: usize,
    pub column: usize,
}

fn names(map: &HashMap<String, usize>) -> Vec<&str> {
    let mut v: Vec<&str> = map.keys().map(String::as_str).collect();
    v.sort();
    v
}

impl<'a> Analyzer<'a> {
    fn new(path: &'a str, src: &'a str, fold: Fold) -> Self {
        Analyzer {
            path,
            src,
            fold,
            consts: Vec::new(),
            const_index: HashMap::new(),
            switches: Vec::new(),
            switch_index: HashMap::new(),
            lets: Vec::new(),
            let_index: HashMap::new(),
            slots: 0,
            scope: None,
            stateful_ok: false,
            fits: Vec::new(),
        }
    }

    fn taken(&self, name: &ast::Name) -> Result<(), RuleError> {
        let clash = self.const_index.contains_key(&name.text)
            || self.switch_index.contains_key(&name.text)
            || self.let_index.contains_key(&name.text);
        if clash {
            return Err(
                RuleError::new(name.pos, format!("`{}` is already defined", name.text))
                    .help("each constant, switch and let needs its own name"),
            );
        }
        if BUILTIN_NAMES.contains(&name.text.as_str()) || FUNCTIONS.contains(&name.text.as_str()) {
            return Err(RuleError::new(
                name.pos,
                format!("`{}` is a built-in name", name.text),
            ));
        }
        Ok(())
    }

    fn kind(&self, name: &ast::Name) -> Result<Kind, RuleError> {
        Kind::from_name(&name.text).ok_or_else(|| {
            let help = suggest(&name.text, Kind::all().map(|k| k.name())).unwrap_or_else(|| {
                format!(
                    "the event kinds are {}",
                    Kind::all().map(|k| k.name()).collect::<Vec<_>>().join(", ")
                )
            });
            RuleError::new(name.pos, format!("unknown event kind `{}`", name.text)).help(help)
        })
    }

    fn run(mut self, items: Vec<Item>) -> Result<Ruleset, RuleError> {
        let mut meta: Option<ast::Meta> = None;
        let mut tcs: Vec<TimeControlDef> = Vec::new();
        let mut variants_ast: Vec<ast::Variant> = Vec::new();
        let mut rules: Vec<RuleDef> = Vec::new();
        let mut rule_ids: HashMap<String, Pos> = HashMap::new();
        for item in items {
            match item {
                Item::Ruleset(m) => {
                    if meta.is_some() {
                        return Err(RuleError::new(
                            m.id.pos,
                            "a file holds one `ruleset` header",
                        ));
                    }
                    meta = Some(m);
                }
                Item::Const(name, e, fit) => {
                    self.taken(&name)?;
                    let c = self.constant(&e)?;
                    let index = self.consts.len();
                    self.const_index.insert(name.text.clone(), index);
                    self.consts.push((name.text, c));
                    if let Some((pos, grid)) = fit {
                        let grid = self.fit_grid(index, &e, pos, &grid)?;
                        self.fits.push(FitDef {
                            target: FitTarget::Const(index),
                            grid,
                            line: pos.line,
                            column: pos.column,
                        });
                    }
                }
                Item::Switch {
                    name,
                    default,
                    doc,
                    fit,
                } => {
                    self.taken(&name)?;
                    if let Some(pos) = fit {
                        self.fits.push(FitDef {
                            target: FitTarget::Switch(self.switches.len()),
                            grid: vec![Value::Bool(default), Value::Bool(!default)],
                            line: pos.line,
                            column: pos.column,
                        });
                    }
                    self.switch_index
                        .insert(name.text.clone(), self.switches.len());
                    self.switches.push(Switch {
                        name: name.text,
                        default,
                        doc,
                        line: name.pos.line,
                    });
                }
                Item::Let { name, on, expr } => {
                    self.taken(&name)?;
                    let kind = self.kind(&on)?;
                    self.scope = Some(kind);
                    self.stateful_ok = true;
                    let c = self.expr(&expr)?;
                    self.stateful_ok = false;
                    self.scope = None;
                    self.let_index.insert(name.text.clone(), self.lets.len());
                    self.lets.push(Let {
                        name: name.text,
                        on: kind,
                        expr: c,
                    });
                }
                Item::TimeControl(tc) => {
                    if tcs.iter().any(|t| t.name == tc.name.text) {
                        return Err(RuleError::new(
                            tc.name.pos,
                            format!("time control `{}` is already defined", tc.name.text),
                        ));
                    }
                    tcs.push(self.time_control(&tc)?);
                }
                Item::Variant(v) => {
                    if variants_ast.iter().any(|x| x.name.text == v.name.text) {
                        return Err(RuleError::new(
                            v.name.pos,
                            format!("variant `{}` is already defined", v.name.text),
                        ));
                    }
                    variants_ast.push(v);
                }
                Item::Rule(r) => {
                    if let Some(prev) = rule_ids.get(&r.id.text) {
                        return Err(RuleError::new(
                            r.id.pos,
                            format!(
                                "rule `{}` is already defined on line {}",
                                r.id.text, prev.line
                            ),
                        )
                        .help("rule ids must be unique"));
                    }
                    rule_ids.insert(r.id.text.clone(), r.id.pos);
                    rules.push(self.rule(&r)?);
                }
            }
        }
        let Some(meta) = meta else {
            return Err(RuleError::new(
                Pos {
                    offset: 0,
                    len: 1,
                    line: 1,
                    column: 1,
                },
                "the file has no `ruleset` header",
            )
            .help("start with `ruleset <id> \"<title>\" { regulation \"…\" }`"));
        };
        let tc_names: Vec<&str> = tcs.iter().map(|t| t.name.as_str()).collect();
        let check_tc = |n: &ast::Name| -> Result<(), RuleError> {
            if tc_names.contains(&n.text.as_str()) {
                Ok(())
            } else {
                let help = suggest(&n.text, tc_names.iter().copied())
                    .unwrap_or_else(|| "declare it with `time-control NAME { … }`".into());
                Err(RuleError::new(n.pos, format!("unknown time control `{}`", n.text)).help(help))
            }
        };
        if let Some(tc) = &meta.time_control {
            check_tc(tc)?;
        }
        let mut scoring = Vec::new();
        for (k, e) in &meta.scoring {
            if !["win", "draw", "loss", "bye", "forfeit"].contains(&k.text.as_str()) {
                let help = suggest(&k.text, ["win", "draw", "loss", "bye", "forfeit"])
                    .unwrap_or_else(|| "scoring names win, draw, loss, bye and forfeit".into());
                return Err(
                    RuleError::new(k.pos, format!("unknown scoring entry `{}`", k.text)).help(help),
                );
            }
            let c = self.constant(e)?;
            let v = const_value(&c, &self.consts, self.fold)
                .ok_or_else(|| RuleError::new(e.pos, "expected a number of points"))?;
            scoring.push((k.text.clone(), v));
        }
        const TIEBREAKS: &[&str] = &[
            "crash",
            "direct-encounter",
            "wins",
            "black-wins",
            "sonneborn-berger",
            "buchholz",
            "opponents-scores",
            "opponents-opponents-scores",
            "cumulative-score",
            "match-score",
            "organizer-decision",
            "playoff",
        ];
        for t in &meta.tiebreaks {
            if !TIEBREAKS.contains(&t.text.as_str()) {
                let help = suggest(&t.text, TIEBREAKS.iter().copied())
                    .unwrap_or_else(|| format!("known tiebreaks: {}", TIEBREAKS.join(", ")));
                return Err(
                    RuleError::new(t.pos, format!("unknown tiebreak `{}`", t.text)).help(help),
                );
            }
        }
        // variants: resolve parents and reject cycles
        let vnames: Vec<String> = variants_ast.iter().map(|v| v.name.text.clone()).collect();
        let mut variants = Vec::new();
        for v in &variants_ast {
            let mut ancestors = Vec::new();
            let mut cur = v;
            let mut seen = vec![v.name.text.as_str()];
            while let Some(parent) = &cur.extends {
                let Some(pi) = vnames.iter().position(|n| *n == parent.text) else {
                    let help = suggest(&parent.text, vnames.iter().map(String::as_str))
                        .unwrap_or_else(|| "declare the parent variant too".into());
                    return Err(RuleError::new(
                        parent.pos,
                        format!("unknown variant `{}`", parent.text),
                    )
                    .help(help));
                };
                if seen.contains(&parent.text.as_str()) {
                    return Err(RuleError::new(
                        parent.pos,
                        format!(
                            "variant inheritance cycle: {} → {}",
                            seen.join(" → "),
                            parent.text
                        ),
                    ));
                }
                seen.push(&variants_ast[pi].name.text);
                ancestors.push(pi);
                cur = &variants_ast[pi];
            }
            ancestors.reverse();
            let mut def = VariantDef {
                name: v.name.text.clone(),
                ancestors,
                applies: None,
                consts: Vec::new(),
                switches: Vec::new(),
                time_control: None,
                line: v.name.pos.line,
            };
            if let Some(a) = &v.applies {
                self.scope = Some(Kind::Game);
                let c = self.expr(a)?;
                self.scope = None;
                def.applies = Some(c);
            }
            for it in &v.items {
                match it {
                    ast::VariantItem::Const(n, e) => {
                        let Some(&idx) = self.const_index.get(&n.text) else {
                            let help =
                                suggest(&n.text, names(&self.const_index)).unwrap_or_else(|| {
                                    "a variant can only change constants declared with `const`"
                                        .into()
                                });
                            return Err(RuleError::new(
                                n.pos,
                                format!("unknown constant `{}`", n.text),
                            )
                            .help(help));
                        };
                        let c = self.constant(e)?;
                        def.consts.push((idx, c));
                    }
                    ast::VariantItem::Switch(n, b, _) => {
                        let Some(&idx) = self.switch_index.get(&n.text) else {
                            let help =
                                suggest(&n.text, names(&self.switch_index)).unwrap_or_else(|| {
                                    "declare it with `switch NAME = true \"…\"`".into()
                                });
                            return Err(RuleError::new(
                                n.pos,
                                format!("unknown switch `{}`", n.text),
                            )
                            .help(help));
                        };
                        def.switches.push((idx, *b));
                    }
                    ast::VariantItem::TimeControl(n) => {
                        check_tc(n)?;
                        def.time_control = Some(n.text.clone());
                    }
                }
            }
            variants.push(def);
        }
        let sha256 = crate::base::digest::sha256_hex(self.src.as_bytes());
        Ok(Ruleset {
            path: self.path.to_string(),
            sha256,
            id: meta.id.text,
            title: meta.title,
            regulation: meta.regulation.unwrap_or_default(),
            format: meta.format.unwrap_or_default(),
            scoring,
            tiebreaks: meta.tiebreaks.into_iter().map(|t| t.text).collect(),
            time_control: meta.time_control.map(|t| t.text),
            consts: self.consts,
            switches: self.switches,
            lets: self.lets,
            time_controls: tcs,
            variants,
            rules,
            slots: self.slots,
            fits: self.fits,
            evaluator: std::sync::OnceLock::new(),
        })
    }

    /// The values of a constant's `fit` clause: constants of the same type
    /// as the constant's own value, at most [`FIT_MAX_VALUES`], each once.
    fn fit_grid(
        &mut self,
        index: usize,
        value: &ast::Expr,
        at: Pos,
        grid: &ast::FitGrid,
    ) -> Result<Vec<Value>, RuleError> {
        let values = const_values(&self.consts, &[], self.fold);
        let own = values.get(index).cloned().unwrap_or_default();
        let eval = |this: &mut Self, e: &ast::Expr| -> Result<Value, RuleError> {
            let c = this.constant(e)?;
            Ok((this.fold)(&c, &values))
        };
        let out: Vec<Value> = match grid {
            ast::FitGrid::List(items) => {
                let mut out = Vec::new();
                for e in items {
                    let v = eval(self, e)?;
                    if v.type_name() != own.type_name() {
                        return Err(RuleError::new(
                            e.pos,
                            format!(
                                "a fit value must be a {} like the constant's own value, not a {}",
                                own.type_name(),
                                v.type_name()
                            ),
                        ));
                    }
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
                out
            }
            ast::FitGrid::Range { from, to, step } => {
                let num = |this: &mut Self, e: &ast::Expr, what: &str| match eval(this, e)? {
                    Value::Num(n) => Ok(n),
                    v => Err(RuleError::new(
                        e.pos,
                        format!("the fit's {what} must be a number, not a {}", v.type_name()),
                    )),
                };
                let (a, b, s) = (
                    num(self, from, "start")?,
                    num(self, to, "end")?,
                    num(self, step, "step")?,
                );
                if !matches!(own, Value::Num(_)) {
                    return Err(RuleError::new(
                        value.pos,
                        format!(
                            "a range `fit … to … step …` needs a number; this constant is a {} (give a list: `fit [\"a\", \"b\"]`)",
                            own.type_name()
                        ),
                    ));
                }
                if s <= 0.0 || b < a {
                    return Err(RuleError::new(
                        step.pos,
                        "a fit's step must be above 0, and its end at or after its start",
                    ));
                }
                let count = ((b - a) / s + 1e-9).floor() + 1.0;
                if count > FIT_MAX_VALUES as f64 {
                    return Err(RuleError::new(
                        step.pos,
                        format!(
                            "this fit gives {count} values; at most {FIT_MAX_VALUES} (a larger step)"
                        ),
                    ));
                }
                // each value rounded to 9 decimals, so that 0 to 0.2 step
                // 0.01 gives 0.07 and not 0.07000000000000001
                (0..count as usize)
                    .map(|k| Value::Num(((a + k as f64 * s) * 1e9).round() / 1e9))
                    .collect()
            }
        };
        if out.is_empty() {
            return Err(RuleError::new(at, "a fit needs at least one value"));
        }
        if out.len() > FIT_MAX_VALUES {
            return Err(RuleError::new(
                at,
                format!("a fit may give at most {FIT_MAX_VALUES} values"),
            ));
        }
        Ok(out)
    }

    fn constant(&mut self, e: &ast::Expr) -> Result<CExpr, RuleError> {
        let (scope, st) = (self.scope.take(), self.stateful_ok);
        self.stateful_ok = false;
        let r = self.expr(e);
        self.scope = scope;
        self.stateful_ok = st;
        let c = r?;
        if !is_constant(&c) {
            return Err(
                RuleError::new(e.pos, "a constant must not depend on the game")
                    .help("use `let NAME on move = …` for values that change during a game"),
            );
        }
        Ok(c)
    }

    fn time_control(&mut self, tc: &ast::TimeControl) -> Result<TimeControlDef, RuleError> {
        let mut periods = Vec::new();
        if tc.periods.is_empty() {
            return Err(RuleError::new(
                tc.name.pos,
                "a time control needs at least one `period`",
            ));
        }
        for (i, p) in tc.periods.iter().enumerate() {
            let dur = |this: &mut Self, e: &ast::Expr| -> Result<f64, RuleError> {
                let c = this.constant(e)?;
                match const_value(&c, &this.consts, this.fold) {
                    Some(v) if v >= 0.0 => Ok(v),
                    _ => Err(RuleError::new(
                        e.pos,
                        "expected a duration such as `2h` or `30m`",
                    )),
                }
            };
            let time_ms = dur(self, &p.time)?;
            let increment_ms = match &p.increment {
                Some(e) => dur(self, e)?,
                None => 0.0,
            };
            let moves = match p.moves {
                Some((n, pos)) => {
                    if n < 1.0 || n.fract() != 0.0 || n > 10_000.0 {
                        return Err(RuleError::new(
                            pos,
                            "expected a whole number of moves from 1 to 10000",
                        ));
                    }
                    Some(n as u32)
                }
                None => {
                    if i + 1 != tc.periods.len() {
                        return Err(RuleError::new(
                            p.pos,
                            "only the last period can cover the rest of the game",
                        ));
                    }
                    None
                }
            };
            periods.push(PeriodDef {
                moves,
                time_ms,
                increment_ms,
                at_least: p.at_least,
            });
        }
        Ok(TimeControlDef {
            name: tc.name.text.clone(),
            periods,
            carry_over: tc.carry_over,
            settings_show_used: tc.settings_show_used,
        })
    }

    fn rule(&mut self, r: &ast::Rule) -> Result<RuleDef, RuleError> {
        if r.cites.is_empty() {
            return Err(RuleError::new(r.id.pos, format!("rule `{}` cites no clause", r.id.text))
                .help("add `cite \"<clause>\" \"<the clause's words>\"`: every rule must trace to its regulation"));
        }
        for c in &r.cites {
            if c.clause.trim().is_empty() || c.quote.trim().is_empty() {
                return Err(RuleError::new(
                    c.pos,
                    "a citation needs the clause and its words",
                ));
            }
        }
        let Some((kind, _)) = &r.kind else {
            return Err(RuleError::new(r.id.pos, format!("rule `{}` does not say what it checks", r.id.text))
                .help("add one of `manual \"…\"`, `adjudicate … when …`, `forbid on KIND when …` or `require on KIND when …`"));
        };
        let severity = match &r.severity {
            None => match kind {
                RuleKind::Manual(_) => Severity::ManualReview,
                _ => Severity::Error,
            },
            Some(s) => match s.text.as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "info" => Severity::Info,
                other => {
                    let help = suggest(other, ["error", "warning", "info"])
                        .unwrap_or_else(|| "expected error, warning or info".into());
                    return Err(
                        RuleError::new(s.pos, format!("unknown severity `{other}`")).help(help)
                    );
                }
            },
        };
        let scope = match kind {
            RuleKind::Manual(_) => None,
            RuleKind::Adjudicate { .. } => Some(Kind::Move),
            RuleKind::Forbid { on, .. } | RuleKind::Require { on, .. } => Some(self.kind(on)?),
        };
        self.scope = scope;
        self.stateful_ok = true;
        let check = match kind {
            RuleKind::Manual(what) => Check::Manual(what.clone()),
            RuleKind::Adjudicate {
                result,
                records,
                when,
            } => {
                let res = self.expr(result)?;
                let w = self.condition(when)?;
                let rec = records.as_ref().map(|r| self.expr(r)).transpose()?;
                Check::Adjudicate {
                    result: res,
                    records: rec,
                    when: w,
                }
            }
            RuleKind::Forbid { when, .. } => Check::Forbid {
                on: scope.expect("forbid has a scope"),
                when: when.as_ref().map(|w| self.condition(w)).transpose()?,
            },
            RuleKind::Require { when, .. } => Check::Require {
                on: scope.expect("require has a scope"),
                when: self.condition(when)?,
            },
        };
        let message = match &r.message {
            Some(t) => {
                if scope.is_none() {
                    return Err(
                        RuleError::new(t.pos, "a manual rule has no message template")
                            .help("say what to check in `manual \"…\"`"),
                    );
                }
                let mut parts = Vec::new();
                // A message is evaluated only when the rule fires, so state
                // cannot advance there: use a `let`.
                self.stateful_ok = false;
                for p in &t.parts {
                    parts.push(match p {
                        ast::TemplatePart::Text(s) => CTemplatePart::Text(s.clone()),
                        ast::TemplatePart::Expr(e) => CTemplatePart::Expr(self.expr(e)?),
                    });
                }
                Some(parts)
            }
            None => None,
        };
        self.scope = None;
        self.stateful_ok = false;
        let start = self.src[..r.id.pos.offset]
            .rfind("rule")
            .unwrap_or(r.id.pos.offset);
        Ok(RuleDef {
            id: r.id.text.clone(),
            title: r.title.clone(),
            cites: r
                .cites
                .iter()
                .map(|c| CiteDef {
                    clause: c.clause.clone(),
                    quote: c.quote.clone(),
                    line: c.pos.line,
                    column: c.pos.column,
                })
                .collect(),
            severity,
            sanction: r.sanction.clone().unwrap_or_default(),
            doc: r.doc.clone().unwrap_or_default(),
            message,
            check,
            line: r.id.pos.line,
            source: self.src[start..r.end.max(start)].to_string(),
        })
    }

    fn condition(&mut self, e: &ast::Expr) -> Result<CExpr, RuleError> {
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

    fn type_of(&self, c: &CExpr) -> Type {
        match c {
            CExpr::Lit(Value::Num(_)) => Type::Num,
            CExpr::Lit(Value::Bool(_)) => Type::Bool,
            CExpr::Lit(Value::Str(_)) => Type::Str,
            CExpr::Lit(_) => Type::Any,
            CExpr::Const(i) => self.type_of(&self.consts[*i].1),
            CExpr::Let(i) => self.type_of(&self.lets[*i].expr),
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
            CExpr::Call(b, _) => match b {
                Builtin::Lower | Builtin::Tag => Type::Str,
                Builtin::Contains | Builtin::StartsWith => Type::Bool,
                Builtin::Coalesce => Type::Any,
                _ => Type::Num,
            },
            CExpr::Stateful(s) => match s.func {
                StatefulFn::Since => Type::Bool,
                StatefulFn::Previous | StatefulFn::Last => Type::Any,
                _ => Type::Num,
            },
            CExpr::Detector(..) => Type::Any,
        }
    }

    fn expect_type(&self, c: &CExpr, want: Type, pos: Pos, what: &str) -> Result<(), RuleError> {
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

    fn expr(&mut self, e: &ast::Expr) -> Result<CExpr, RuleError> {
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
            ExprKind::Name(n) => {
                if let Some(&i) = self.let_index.get(n) {
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
                } else if BUILTIN_NAMES.contains(&n.as_str()) {
                    CExpr::Lit(Value::Str(n.as_str().into()))
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
                }
            }
            ExprKind::Field(kind_name, field) => {
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
                        return Err(RuleError::new(kind_name.pos, format!(
                            "`{}` fields are not available here: this is evaluated on `{}` events",
                            kind_name.text,
                            s.name()
                        ))
                        .help(format!("use `{}.…`, or `game.…` for the game's tags", s.name())));
                    }
                    _ => {}
                }
                let Some(name) = timeline::fields_of(kind).find(|f| *f == field.text) else {
                    let help =
                        suggest(&field.text, timeline::fields_of(kind)).unwrap_or_else(|| {
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
                match timeline::MoveField::from_name(name) {
                    Some(f) if kind == Kind::Move => CExpr::Move(f, name),
                    _ => CExpr::Field(kind, name),
                }
            }
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
            ExprKind::Binary(op, a, b) => {
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
                if matches!(op, BinOp::And | BinOp::Or) && !calls_detector(&cb) {
                    CExpr::Short(*op, Box::new(ca), Box::new(cb))
                } else {
                    CExpr::Binary(*op, Box::new(ca), Box::new(cb))
                }
            }
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

    fn call(
        &mut self,
        e: &ast::Expr,
        name: &ast::Name,
        args: &[ast::Expr],
        named: &[(ast::Name, ast::Expr)],
    ) -> Result<CExpr, RuleError> {
        let arity = |want: usize| -> Result<(), RuleError> {
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
        };
        let no_named = || -> Result<(), RuleError> {
            match named.first() {
                Some((k, _)) => Err(RuleError::new(
                    k.pos,
                    format!("`{}` takes no named arguments", name.text),
                )),
                None => Ok(()),
            }
        };
        let builtin = match name.text.as_str() {
            "abs" => Some((Builtin::Abs, 1)),
            "floor" => Some((Builtin::Floor, 1)),
            "ceil" => Some((Builtin::Ceil, 1)),
            "round" => Some((Builtin::Round, 1)),
            "min" => Some((Builtin::Min, 2)),
            "max" => Some((Builtin::Max, 2)),
            "lower" => Some((Builtin::Lower, 1)),
            "contains" => Some((Builtin::Contains, 2)),
            "starts_with" => Some((Builtin::StartsWith, 2)),
            "tag" => Some((Builtin::Tag, 1)),
            "coalesce" => Some((Builtin::Coalesce, 2)),
            _ => None,
        };
        if let Some((b, n)) = builtin {
            arity(n)?;
            no_named()?;
            let cargs: Vec<CExpr> = args
                .iter()
                .map(|a| self.expr(a))
                .collect::<Result<_, _>>()?;
            if matches!(
                b,
                Builtin::Abs
                    | Builtin::Floor
                    | Builtin::Ceil
                    | Builtin::Round
                    | Builtin::Min
                    | Builtin::Max
            ) {
                for (a, c) in args.iter().zip(&cargs) {
                    self.expect_type(c, Type::Num, a.pos, &format!("`{}`", name.text))?;
                }
            }
            return Ok(CExpr::Call(b, cargs));
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
            arity(1)?;
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
            return Ok(CExpr::Stateful(Box::new(Stateful {
                slot,
                func,
                arg,
                over,
                reset,
                per,
                on,
            })));
        }
        let detector = match name.text.as_str() {
            "tablebase" => Some(Detector::Tablebase),
            "hidden_book" => Some(Detector::HiddenBook),
            "similarity" => Some(Detector::Similarity),
            "accelerated_pairing" => Some(Detector::AcceleratedPairing),
            _ => None,
        };
        if let Some(d) = detector {
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
            return Ok(CExpr::Detector(d, params));
        }
        let help = suggest(&name.text, FUNCTIONS.iter().copied())
            .unwrap_or_else(|| format!("the functions are {}", FUNCTIONS.join(", ")));
        Err(RuleError::new(name.pos, format!("unknown function `{}`", name.text)).help(help))
    }
}

impl Analyzer<'_> {
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

fn type_name(t: Type) -> &'static str {
    match t {
        Type::Num => "number",
        Type::Bool => "condition",
        Type::Str => "string",
        Type::Any => "value",
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

fn is_constant(c: &CExpr) -> bool {
    match c {
        CExpr::Lit(_) | CExpr::Const(_) => true,
        CExpr::Unary(_, a) => is_constant(a),
        CExpr::Binary(_, a, b) | CExpr::Short(_, a, b) => is_constant(a) && is_constant(b),
        CExpr::If(a, b, c) => is_constant(a) && is_constant(b) && is_constant(c),
        CExpr::List(l) => l.iter().all(is_constant),
        _ => false,
    }
}

/// Evaluate a constant number (no variants applied).
fn const_value(c: &CExpr, consts: &[(String, CExpr)], fold: Fold) -> Option<f64> {
    let vals: Vec<Value> = const_values(consts, &[], fold);
    match fold(c, &vals) {
        Value::Num(n) => Some(n),
        _ => None,
    }
}

/// A clause and the rules citing it: `(clause, [(rule id, manual?)])`.
pub type ClauseRules = (String, Vec<(String, bool)>);

/// Rules grouped by clause, clauses in natural order (`4(c)` before
/// `4(d)`, `9` before `10`): `rules list`.
pub fn clauses(rs: &Ruleset) -> Vec<ClauseRules> {
    let mut by: BTreeMap<Vec<NaturalPart>, ClauseRules> = BTreeMap::new();
    for r in &rs.rules {
        for c in &r.cites {
            let entry = by
                .entry(natural_key(&c.clause))
                .or_insert_with(|| (c.clause.clone(), Vec::new()));
            let item = (r.id.clone(), matches!(r.check, Check::Manual(_)));
            if !entry.1.contains(&item) {
                entry.1.push(item);
            }
        }
    }
    by.into_values().collect()
}

/// A piece of a clause id for natural ordering: numbers compare as numbers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum NaturalPart {
    Num(u64),
    Text(String),
}

fn natural_key(s: &str) -> Vec<NaturalPart> {
    let mut out = Vec::new();
    let mut num = String::new();
    let mut text = String::new();
    for ch in s.chars() {
        if ch.is_ascii_digit() {
            if !text.is_empty() {
                out.push(NaturalPart::Text(std::mem::take(&mut text)));
            }
            num.push(ch);
        } else {
            if !num.is_empty() {
                out.push(NaturalPart::Num(num.parse().unwrap_or(u64::MAX)));
                num.clear();
            }
            text.push(ch.to_ascii_lowercase());
        }
    }
    if !num.is_empty() {
        out.push(NaturalPart::Num(num.parse().unwrap_or(u64::MAX)));
    }
    if !text.is_empty() {
        out.push(NaturalPart::Text(text));
    }
    out
}
