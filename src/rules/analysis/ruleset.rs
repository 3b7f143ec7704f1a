//! A validated ruleset and its parts: `let`s, switches, variants,
//! citations, rules and what they check, and the `fit` clauses.

use super::cexpr::{CExpr, Detector};
use crate::base::value::Value;
use crate::facts::clock::TimeControlDef;
use crate::findings::Severity;
use crate::timeline::Kind;

#[derive(Debug, Clone)]
pub struct Let {
    pub name: String,
    pub on: Kind,
    pub expr: CExpr,
}

#[derive(Debug, Clone)]
pub struct Switch {
    /// The file it is written in where that is not the ruleset's own (a
    /// file the ruleset `extends`); its `line` is that file's.
    pub written_in: Option<std::sync::Arc<str>>,
    pub name: String,
    pub default: bool,
    pub doc: String,
    pub line: usize,
}

#[derive(Debug, Clone)]
pub struct VariantDef {
    /// The file it is written in where that is not the ruleset's own (a
    /// file the ruleset `extends`); its `line` is that file's.
    pub written_in: Option<std::sync::Arc<str>>,
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
    /// The file it is written in where that is not the ruleset's own (a
    /// file the ruleset `extends`); its `line` is that file's.
    pub written_in: Option<std::sync::Arc<str>>,
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

/// The reason given when a rule calls a detector this version lacks; such
/// rules are listed once per run (see [`Ruleset::unavailable`]), not per game.
pub const UNAVAILABLE: &str = "this version of arbiter has no detector";

impl RuleDef {
    /// The clause the rule cites, as one line.
    pub fn clause_text(&self) -> String {
        self.cites
            .iter()
            .map(|c| format!("{}: \"{}\"", c.clause, c.quote))
            .collect::<Vec<_>>()
            .join("; ")
    }

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
    /// `applies when`: the records this ruleset is for, among a folder of
    /// rulesets, and the line it is written on.
    pub applies: Option<(CExpr, usize)>,
    /// The files it `extends`, nearest first: (path as shown, SHA-256).
    pub extends: Vec<(String, String)>,
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

impl Ruleset {
    /// The file rule `id` is written in (a file this one `extends`, or its
    /// own).
    pub fn rule_file(&self, id: &str) -> &str {
        let r = self.rules.iter().find(|r| r.id == id);
        r.and_then(|r| r.written_in.as_deref())
            .unwrap_or(&self.path)
    }

    /// The file the `fit` clause of `kind` (`const`, `switch`,
    /// `time-control`) `name` is written in.
    pub fn fit_file(&self, kind: &str, name: &str) -> &str {
        let f = self.fits.iter().find(|f| match f.target {
            FitTarget::Const(i) => kind == "const" && self.consts[i].0 == name,
            FitTarget::Switch(i) => kind == "switch" && self.switches[i].name == name,
            FitTarget::TimeControl => kind == "time-control",
        });
        f.and_then(|f| f.written_in.as_deref())
            .unwrap_or(&self.path)
    }

    /// Rules that call a detector this version of arbiter does not have:
    /// `(rule id, detector)`.
    pub fn unavailable(&self) -> Vec<(String, &'static str)> {
        self.unavailable_given(false)
    }

    /// The clauses of the ruleset a human must judge: its `manual` rules,
    /// and the rules that cannot be evaluated here (a detector's input not
    /// given, [`Ruleset::unavailable_given`]). Every report counts "for
    /// manual review" by this, beside the findings of that severity.
    pub fn manual_review_clauses(&self, similarity_report: bool) -> usize {
        let manual = (self.rules.iter())
            .filter(|r| matches!(r.check, Check::Manual(_)))
            .count();
        manual + self.unavailable_given(similarity_report).len()
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

impl Ruleset {
    /// The record's tags a rule's condition reads, in the order it first
    /// reads them: `tag("X")` with its name written out, and the fields of
    /// `game` that are one tag (`game.time_control` is TimeControl),
    /// through the `let`s it names. A finding on a game points at them.
    pub fn tags_read(&self, rule: &RuleDef) -> Vec<String> {
        self.read_by(rule, &mut |e| match e {
            CExpr::Call(super::cexpr::Builtin::Tag, args) => match args.first() {
                Some(CExpr::Lit(Value::Str(s))) => Some(s.to_string()),
                _ => None,
            },
            CExpr::Field(Kind::Game, f) => crate::timeline::game_field_tag(f).map(String::from),
            _ => None,
        })
    }

    /// The fields of `kind` a rule's condition reads, in the order it
    /// first reads them, through the `let`s it names.
    pub fn fields_read(&self, rule: &RuleDef, kind: Kind) -> Vec<String> {
        self.read_by(rule, &mut |e| match e {
            CExpr::Field(k, f) if *k == kind => Some(f.to_string()),
            _ => None,
        })
    }

    /// Whether a rule's condition reads `move.start`, through the `let`s it
    /// names: a rule its manager applies at a game's start position.
    pub fn reads_move_start(&self, rule: &RuleDef) -> bool {
        let start = crate::timeline::MoveField::Start;
        let found = self.read_by(rule, &mut |e| match e {
            CExpr::Move(f, _) if *f == start => Some(String::new()),
            _ => None,
        });
        !found.is_empty()
    }

    /// What `pick` names in a rule's condition, each once, in the order
    /// first met, the `let`s it names walked where they are named.
    fn read_by(
        &self,
        rule: &RuleDef,
        pick: &mut dyn FnMut(&CExpr) -> Option<String>,
    ) -> Vec<String> {
        struct Walk<'r, 'p> {
            rs: &'r Ruleset,
            seen: Vec<bool>,
            out: Vec<String>,
            pick: &'p mut dyn FnMut(&CExpr) -> Option<String>,
        }
        fn walk(w: &mut Walk<'_, '_>, e: &CExpr) {
            if let CExpr::Let(j) = e
                && let (Some(false), Some(l)) = (w.seen.get(*j).copied(), w.rs.lets.get(*j))
            {
                w.seen[*j] = true;
                walk(w, &l.expr);
            }
            if let Some(n) = (w.pick)(e)
                && !w.out.contains(&n)
            {
                w.out.push(n);
            }
            e.each_child(&mut |x| walk(w, x));
        }
        let mut w = Walk {
            rs: self,
            seen: vec![false; self.lets.len()],
            out: Vec::new(),
            pick,
        };
        for e in rule.evaluated() {
            walk(&mut w, e);
        }
        w.out
    }
}

/// The most values a `fit` clause may give one constant.
pub const FIT_MAX_VALUES: usize = 1000;

/// Where a `fit from …` clause takes its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FitSource {
    /// The texts of the games' `TerminationDetails` tags.
    Terminations,
    /// The time controls the games' record shows: their TimeControl tag,
    /// and what their clock readings imply (`time-control … fit from
    /// record`).
    Record,
}

impl FitSource {
    pub const NAMES: [&'static str; 1] = ["terminations"];

    pub fn name(self) -> &'static str {
        match self {
            FitSource::Terminations => "terminations",
            FitSource::Record => "record",
        }
    }
}

/// What `arbiter rules fit` may change: a constant or a switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FitTarget {
    Const(usize),
    Switch(usize),
    /// The time control the rules run the clocks under.
    TimeControl,
}

/// A constant or switch marked `fit`, with the values the fit tries (a
/// switch: both), in order.
#[derive(Debug, Clone)]
pub struct FitDef {
    /// The file it is written in where that is not the ruleset's own (a
    /// file the ruleset `extends`); its `line` is that file's.
    pub written_in: Option<std::sync::Arc<str>>,
    pub target: FitTarget,
    pub grid: Vec<Value>,
    /// Where the values come from when the archive gives them (`fit from
    /// …`); then `grid` is empty until the fit reads the games.
    pub source: Option<FitSource>,
    pub line: usize,
    pub column: usize,
}
