//! The evaluator: runs a compiled ruleset over one game's timeline in a
//! single pass. Every `let` and rule is evaluated at most once per event, and
//! every stateful call advances exactly once per event of its kind (before
//! the expression that contains it is evaluated, so `and`/`or`/`if` cannot
//! skip it). Cost: linear in events × size of the ruleset.
//!
//! This file holds what the rest of arbiter calls: [`run`],
//! [`run_switched`] and [`run_event`], and their [`Outcome`]; `program`
//! holds the [`Program`] they run (a ruleset with its variant chosen). The
//! parts, in the order a rule meets them:
//!
//! - `plan`: what a ruleset's structure says, found once per ruleset:
//!   `reads` (what each `let` and rule reads), `columnar` (which of them
//!   a column can hold) and `compiled`'s closures (each `let`, rule
//!   condition and stateful call compiled once, which a game's run calls);
//! - `columns`: the `let`s and conditions on moves whose parts a column
//!   can hold, evaluated over all of a game's moves at once before the
//!   per-event pass, which reads them (and their switches' shadows), and
//!   a game's moves kept between runs ([`Prepared`]);
//! - `ctx`: the walk of an expression at one event (`Ctx`), with
//!   `typed`'s unboxed numbers and truths (for the event level, the
//!   constants, and the shapes the closures hand back);
//! - `detectors`: the builtin functions and the detectors rules call;
//! - `memo`: a side's engine options already judged, not walked again;
//! - `switched`: the one-pass shadows that show what each switch changes;
//! - `verdicts`: a rule's verdict, the finding it makes and the
//!   adjudication it computes.
//!
//! The parts import each other's items from the module that defines them,
//! lower parts first (`typed`, `reads`, `ctx`, then what walks and
//! compiles, then the plan, the columns and the pass), with no loop;
//! `tests/layers.rs` holds them to it.

use std::collections::BTreeMap;

use shakmaty_syzygy::{AmbiguousWdl, Metric, ProbeError, SyzygyError, Tablebase};

use super::analysis::{CExpr, Check, Ruleset};
use crate::base::value::Value;
use crate::findings::{Evidence, Finding};
use crate::timeline::{Kind, Timeline};

pub use super::analysis::UNAVAILABLE;

mod at_moves;
mod columnar;
mod columns;
mod compiled;
mod ctx;
mod detectors;
mod memo;
mod plan;
mod program;
mod reads;
mod start;
mod switched;
mod typed;
mod verdicts;

// the parts' own items, shared with each other through this module
pub use at_moves::values_at_moves;
pub use columns::Prepared;
use ctx::{Ctx, DetectorCache, Note, Run, Slot};
pub(crate) use plan::Plan;
pub use program::{Overrides, Program, UnknownVariant, claims};
pub use switched::{run_prepared, run_switched, run_tallied};
use verdicts::{Verdict, message, note_unknown, verdict};
pub use verdicts::{rule_evidence, rule_finding};

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
    /// Each position's probe, by its FEN, once per run: a fit evaluates
    /// the same positions at every point of its search.
    pub(crate) probes: std::sync::Mutex<std::collections::HashMap<String, Probe>>,
    /// The tables' folder as given (`--syzygy DIR`).
    pub syzygy_dir: Option<String>,
    /// The tables of the folder left out as they were listed (a size no
    /// table has: truncated), by file name, and why.
    pub skipped_tables: std::collections::BTreeMap<String, &'static str>,
}

/// What the tables say of one position (see [`Detectors::probe`]).
#[derive(Debug, Clone)]
pub(crate) enum Probe {
    Wdl(AmbiguousWdl),
    TooManyPieces,
    Castling,
    MissingTable(String),
    /// A table that could not be read: its file name and why, in plain
    /// words (the same on every machine: no backtrace, no build path).
    Unreadable {
        table: String,
        why: &'static str,
    },
}

/// The file name of the table of `metric` for `material` (`KQvK.rtbw`).
fn table_file(metric: Metric, material: &shakmaty_syzygy::Material) -> String {
    let ext = match metric {
        Metric::Wdl => "rtbw",
        Metric::Dtz => "rtbz",
    };
    format!("{material}.{ext}")
}

/// Why a table could not be read, in plain words. A corrupted table's
/// error carries a backtrace of the build; it is left out, so that a
/// report is the same whatever `RUST_BACKTRACE` and the threads.
fn probe_error_kind(e: &ProbeError) -> &'static str {
    match e {
        ProbeError::Read { error } if error.kind() == std::io::ErrorKind::UnexpectedEof => {
            "truncated"
        }
        ProbeError::Read { .. } => "unreadable (a read error)",
        ProbeError::Magic { .. } => "not a Syzygy table (its first bytes are wrong)",
        ProbeError::CorruptedTable { .. } => "corrupted",
    }
}

impl Detectors {
    /// Probe the tables' WDL value of `pos`, each position once.
    pub(crate) fn probe(&self, tb: &Tablebase<shakmaty::Chess>, pos: &shakmaty::Chess) -> Probe {
        let key =
            shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string();
        if let Ok(memo) = self.probes.lock()
            && let Some(p) = memo.get(&key)
        {
            return p.clone();
        }
        let found = match tb.probe_wdl(pos) {
            Ok(w) => Probe::Wdl(w),
            Err(SyzygyError::TooManyPieces) => Probe::TooManyPieces,
            Err(SyzygyError::Castling) => Probe::Castling,
            Err(SyzygyError::MissingTable { metric, material }) => {
                let table = table_file(metric, &material);
                match self.skipped_tables.get(&table) {
                    Some(why) => Probe::Unreadable { table, why },
                    None => Probe::MissingTable(format!("no {metric:?} table for {material}")),
                }
            }
            Err(SyzygyError::ProbeFailed {
                metric,
                material,
                error,
            }) => Probe::Unreadable {
                table: table_file(metric, &material),
                why: probe_error_kind(&error),
            },
        };
        if let Ok(mut memo) = self.probes.lock() {
            memo.insert(key, found.clone());
        }
        found
    }
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
    /// Load Syzygy tables from a directory, in the order of their names. A
    /// table whose size no table has (truncated) is left out and recorded
    /// ([`Detectors::unreadable_tables`]); files that are not tables are
    /// passed over.
    pub fn with_syzygy(dir: &std::path::Path) -> std::io::Result<Detectors> {
        use std::io::ErrorKind;
        let mut tb = Tablebase::new();
        let mut files = std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<Vec<_>>>()?;
        files.sort();
        let mut skipped = std::collections::BTreeMap::new();
        for f in files {
            match tb.add_file(&f) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::InvalidInput => {} // not a table
                Err(e) => {
                    let why = if e.kind() == ErrorKind::InvalidData {
                        "truncated (its size is not a table's)"
                    } else {
                        "unreadable (a read error)"
                    };
                    let name = f.file_name().unwrap_or_default().to_string_lossy();
                    skipped.insert(name.into_owned(), why);
                }
            }
        }
        Ok(Detectors {
            tablebase: Some(tb),
            syzygy_dir: Some(dir.display().to_string()),
            skipped_tables: skipped,
            ..Detectors::default()
        })
    }

    /// The tables that could not be read in this run, each once in the
    /// order of its path: (its path, why, and how many positions it left
    /// unprobed). A run-level error: the rules that needed these tables
    /// were left undecided.
    pub fn unreadable_tables(&self) -> Vec<(String, String)> {
        self.unreadable_tables_with(&[])
    }

    /// The positions this run could not probe, in the order of their FEN:
    /// `(FEN, table, why)`. A batch's shard keeps them, so that the merge
    /// of its shards counts each position once.
    pub fn unprobed(&self) -> Vec<(String, String, String)> {
        let Ok(memo) = self.probes.lock() else {
            return Vec::new();
        };
        let mut out: Vec<(String, String, String)> = (memo.iter())
            .filter_map(|(fen, p)| match p {
                Probe::Unreadable { table, why } => {
                    Some((fen.clone(), table.clone(), why.to_string()))
                }
                _ => None,
            })
            .collect();
        out.sort();
        out
    }

    /// [`Detectors::unreadable_tables`], counting also the positions
    /// `more` names ([`Detectors::unprobed`] of other runs): each position
    /// once, however many runs could not probe it.
    pub fn unreadable_tables_with(
        &self,
        more: &[(String, String, String)],
    ) -> Vec<(String, String)> {
        let mut seen: std::collections::BTreeMap<(&str, &str), usize> = self
            .skipped_tables
            .iter()
            .map(|(t, why)| ((t.as_str(), *why), 0))
            .collect();
        let Ok(memo) = self.probes.lock() else {
            return Vec::new();
        };
        let mut positions: std::collections::BTreeMap<&str, (&str, &str)> = Default::default();
        for (fen, p) in memo.iter() {
            if let Probe::Unreadable { table, why } = p {
                positions.insert(fen, (table, why));
            }
        }
        for (fen, table, why) in more {
            positions.entry(fen).or_insert((table, why));
        }
        for (table, why) in positions.into_values() {
            *seen.entry((table, why)).or_default() += 1;
        }
        let dir = self.syzygy_dir.as_deref().unwrap_or(".");
        seen.into_iter()
            .map(|((table, why), n)| {
                (
                    std::path::Path::new(dir).join(table).display().to_string(),
                    match n {
                        0 => format!("the Syzygy table is {why}: it was not read"),
                        n => format!(
                            "the Syzygy table is {why}: {n} position{} could not be probed, and the rules that needed {} were left undecided",
                            if n == 1 { "" } else { "s" },
                            if n == 1 { "it" } else { "them" }
                        ),
                    },
                )
            })
            .collect()
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
    /// Where the run counts instead of making findings
    /// ([`run_tallied`]): each rule's violations, by its place in the
    /// ruleset; its `forbid` and `require` rules then make no finding.
    /// Empty otherwise.
    pub tally: Vec<u32>,
    /// A tallied run's `let` columns, where it was asked to keep them
    /// ([`Tallied::keep`]).
    pub lets: Option<LetColumns>,
}

/// A game's `let` columns from one run, to be given to a run of the same
/// game at other values ([`Tallied::given`]); opaque outside the
/// evaluator.
#[derive(Debug, Clone, Default)]
pub struct LetColumns(Vec<Option<columns::Col>>);

/// How a tallied run ([`run_tallied`]) reads and keeps `let` columns.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tallied<'a> {
    /// Another run's columns, of the same game and a ruleset with the
    /// same `let`s, and for each `let` whether its column is taken from
    /// them: it must read none of the values that differ between the two
    /// runs (a constant, a switch, the time control), directly or
    /// through other `let`s.
    pub given: Option<(&'a LetColumns, &'a [bool])>,
    /// Keep this run's columns in [`Outcome::lets`].
    pub keep: bool,
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
        time_control: prog.time_control.as_deref(),
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

/// Whether `prog`'s ruleset judges a game's start position: one of its
/// adjudications reads `move.start`. Only then may a game end before its
/// first move.
pub fn judges_start(prog: &Program<'_>) -> bool {
    Plan::of(prog.ruleset).starts
}

/// Evaluate a state-free expression at event `i` (for labels).
pub fn eval_at(prog: &Program<'_>, tl: &Timeline<'_>, i: usize, e: &CExpr) -> Value {
    eval_stateless(Some(tl), i, &prog.consts, &prog.switches, e)
}

#[cfg(test)]
mod tests;
