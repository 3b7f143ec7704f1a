//! `arbiter rules fit`: the values of a ruleset's `fit` constants and
//! switches that best reproduce what an archive recorded, beside the values
//! its text gives.
//!
//! What the archive recorded, and what a set of values is scored on:
//! - every counter a `forbid on move when move.recorded_X != none and
//!   move.recorded_X != …` rule compares (TCEC's `R50`, `Rd`, `Rr`): a
//!   reading agrees where the rule does not fire;
//! - every game's termination: it agrees where the adjudication the rules
//!   compute is the one the record claims (rule, ply, result and the
//!   `TerminationDetails` text), as `audit` judges it.
//!
//! The search changes one `fit` at a time over its values, the others held,
//! and goes round until no value changes (coordinate descent: the rules'
//! constants are mostly independent, and a round costs the sum of the
//! grids, not their product). Each game is read and replayed once; each
//! point is one evaluation of the rules over the replayed games, points of
//! one scan in parallel, every point evaluated once (a cache). Where several
//! values score the same, all of them are reported: the value kept is the
//! text's where it is among them, else the current one, else the one nearest
//! the text's, and the report says that the data cannot decide.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Serialize;

use super::analysis::{CExpr, Check, FitTarget, Ruleset};
use super::eval::{Detectors, Overrides, Program, run};
use super::judge::termination_findings;
use crate::base::value::Value;
use crate::findings::{Evidence, Finding, Severity};
use crate::ingest::pgn::PgnGame;
use crate::replay::Replay;
use crate::timeline::{Data, MoveField, Timeline};

/// One game, read and replayed once.
#[derive(Debug)]
pub struct Game {
    pub path: String,
    pub pgn: PgnGame,
    pub replay: Replay,
}

/// How far one set of values reproduces the record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Agreement {
    /// Counter readings the rules reproduce, of `counters_of`.
    pub counters: u64,
    pub counters_of: u64,
    /// Games whose termination the rules reproduce, of `terminations_of`
    /// (the games replayed to their end).
    pub terminations: u64,
    pub terminations_of: u64,
}

impl Agreement {
    fn score(&self) -> u64 {
        self.counters + self.terminations
    }
}

/// One `fit` constant or switch: the text's value, the fitted one, and every
/// value that scores as well.
#[derive(Debug, Clone, Serialize)]
pub struct Fitted {
    /// `const` or `switch`.
    pub kind: &'static str,
    pub name: String,
    /// Where the `fit` clause is, in the ruleset.
    pub line: usize,
    pub column: usize,
    pub text: String,
    pub fitted: String,
    /// The values tried.
    pub tried: usize,
    /// The values that score as well as the fitted one (itself included):
    /// more than one means the data cannot decide between them.
    pub equally_good: Vec<String>,
}

/// A game whose computed end differs between the text's values and the
/// fitted ones.
#[derive(Debug, Clone, Serialize)]
pub struct Decided {
    pub path: String,
    pub round: String,
    pub white: String,
    pub black: String,
    pub result: String,
    pub termination: String,
    /// The record's last ply.
    pub plies: u32,
    pub under_text: String,
    pub under_fit: String,
    pub text_agrees: bool,
    pub fit_agrees: bool,
}

/// The fit of one group of games (a file, or an event).
#[derive(Debug, Clone, Serialize)]
pub struct GroupFit {
    /// The file, or the event's name.
    pub group: String,
    pub games: usize,
    /// The variant the text gives the group's first game.
    pub variant: Option<String>,
    pub fits: Vec<Fitted>,
    pub under_text: Agreement,
    pub under_fit: Agreement,
    pub decided: Vec<Decided>,
    /// A variant that sets the fitted values, ready to paste into the
    /// ruleset (`None` where the fit is the text).
    pub variant_block: Option<String>,
    /// Points of values evaluated (each once over every game).
    pub evaluations: usize,
    /// The games whose replay stopped before the end of their movetext:
    /// their counters are scored up to the stop, their terminations not.
    pub unreplayed: Vec<Unreplayed>,
    /// The fitted values where they depart from the text's, for a program.
    #[serde(skip)]
    pub overrides: Overrides,
}

impl GroupFit {
    /// Whether any fitted value departs from the text's.
    pub fn departs(&self) -> bool {
        self.fits.iter().any(|f| f.fitted != f.text)
    }
}

/// A game the fit could not replay to its end, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Unreplayed {
    pub path: String,
    /// The game's number in its file, from 1.
    pub game: usize,
    /// The line of the move that stopped the replay (else the game's first
    /// line).
    pub line: u64,
    pub ply: u32,
    pub reason: String,
}

/// A value as the rule language writes it.
pub fn literal(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("{:?}", s.as_str()),
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
        other => other.display(),
    }
}

/// The counter rules: `(rule id, the recorded field it compares)`.
fn counter_rules(rs: &Ruleset) -> Vec<(String, MoveField)> {
    fn recorded(e: &CExpr, out: &mut Option<MoveField>) {
        match e {
            CExpr::Move(
                f @ (MoveField::RecordedR50
                | MoveField::RecordedRd
                | MoveField::RecordedRr
                | MoveField::RecordedLeft),
                _,
            ) => *out = Some(*f),
            _ => e.each_child(&mut |x| recorded(x, out)),
        }
    }
    rs.rules
        .iter()
        .filter_map(|r| match &r.check {
            Check::Forbid { when: Some(w), .. } => {
                let mut f = None;
                recorded(w, &mut f);
                f.map(|f| (r.id.clone(), f))
            }
            _ => None,
        })
        .collect()
}

/// A game's computed end: the rule, the ply and the result.
type End = Option<(String, u32, String)>;

/// What one point of values gives over the games.
#[derive(Debug, Clone)]
struct Point {
    agreement: Agreement,
    /// Each game's computed end (`rule, ply, result`), and whether its
    /// termination agrees with the record.
    ends: Vec<(End, bool)>,
}

struct Search<'a> {
    rs: &'a Ruleset,
    games: &'a [&'a Game],
    timelines: Vec<Timeline<'a>>,
    forced: Option<&'a str>,
    detectors: &'a Detectors,
    counters: Vec<(String, MoveField)>,
    /// Each game's counter readings (moves where the recorded field is
    /// given), per counter rule, summed.
    readings: Vec<u64>,
    /// The text's value of each fit.
    text: Vec<Value>,
    cache: BTreeMap<String, Point>,
}

impl<'a> Search<'a> {
    fn overrides(&self, point: &[Value]) -> Overrides {
        let mut o = Overrides::default();
        for ((fit, v), text) in self.rs.fits.iter().zip(point).zip(&self.text) {
            if v == text {
                continue;
            }
            match (fit.target, v) {
                (FitTarget::Const(i), v) => o.consts.push((i, v.clone())),
                (FitTarget::Switch(s), Value::Bool(b)) => o.switches.push((s, *b)),
                (FitTarget::Switch(_), _) => {}
            }
        }
        o
    }

    fn key(point: &[Value]) -> String {
        point.iter().map(literal).collect::<Vec<_>>().join("\u{1f}")
    }

    fn evaluate(&self, point: &[Value]) -> Result<Point, String> {
        let over = self.overrides(point);
        let mut p = Point {
            agreement: Agreement::default(),
            ends: Vec::with_capacity(self.games.len()),
        };
        for ((g, tl), readings) in self.games.iter().zip(&self.timelines).zip(&self.readings) {
            let prog = Program::for_game_with(self.rs, self.forced, tl, &over)?;
            let out = run(&prog, tl, self.detectors, &g.path, false);
            let wrong = out
                .findings
                .iter()
                .filter(|f| self.counters.iter().any(|(id, _)| *id == f.rule))
                .count() as u64;
            p.agreement.counters_of += readings;
            p.agreement.counters += readings.saturating_sub(wrong);
            let agrees = tl.replay.stop.is_none()
                && termination_findings(&prog, tl, &out, &g.path).is_empty();
            if tl.replay.stop.is_none() {
                p.agreement.terminations_of += 1;
                p.agreement.terminations += u64::from(agrees);
            }
            p.ends
                .push((out.computed.map(|c| (c.rule, c.ply, c.result)), agrees));
        }
        Ok(p)
    }

    /// Evaluate the points not yet in the cache (in parallel).
    fn evaluate_all(&mut self, points: &[Vec<Value>]) -> Result<(), String> {
        let todo: Vec<&Vec<Value>> = points
            .iter()
            .filter(|p| !self.cache.contains_key(&Self::key(p)))
            .collect();
        let this = &*self;
        let done: Vec<Result<(String, Point), String>> = todo
            .par_iter()
            .map(|p| this.evaluate(p).map(|r| (Self::key(p), r)))
            .collect();
        for d in done {
            let (k, p) = d?;
            self.cache.insert(k, p);
        }
        Ok(())
    }

    fn point(&self, point: &[Value]) -> &Point {
        self.cache
            .get(&Self::key(point))
            .expect("every point is evaluated before it is read")
    }
}

/// The numeric distance between two values (for choosing among equals:
/// the one nearest the text's).
fn distance(a: &Value, b: &Value) -> f64 {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => (x - y).abs(),
        _ if a == b => 0.0,
        _ => f64::INFINITY,
    }
}

/// Fit the ruleset's `fit` values to one group of games.
pub fn fit_group(
    rs: &Ruleset,
    group: &str,
    games: &[&Game],
    forced: Option<&str>,
    detectors: &Detectors,
) -> Result<GroupFit, String> {
    let first = games
        .first()
        .ok_or_else(|| format!("{group}: no game to fit"))?;
    if rs.fits.is_empty() {
        return Err(format!(
            "ruleset {} marks no constant or switch with `fit` (docs/rules-language.md, Fitting)",
            rs.id
        ));
    }
    let timelines: Vec<Timeline<'_>> = games
        .iter()
        .map(|g| Timeline::build(&g.pgn, &g.replay))
        .collect();
    let counters = counter_rules(rs);
    let readings = timelines
        .iter()
        .map(|tl| {
            tl.events
                .iter()
                .filter_map(|e| match &e.data {
                    Data::Move(p) => Some(tl.move_facts(p)),
                    _ => None,
                })
                .map(|m| {
                    counters
                        .iter()
                        .filter(|(_, f)| m.get(*f) != Value::None)
                        .count() as u64
                })
                .sum()
        })
        .collect();
    let base = Program::for_game(rs, forced, &timelines[0])?;
    let text: Vec<Value> = rs
        .fits
        .iter()
        .map(|f| match f.target {
            FitTarget::Const(i) => base.consts.get(i).cloned().unwrap_or_default(),
            FitTarget::Switch(s) => Value::Bool(base.switches.get(s).copied().unwrap_or(false)),
        })
        .collect();
    let mut s = Search {
        rs,
        games,
        timelines,
        forced,
        detectors,
        counters,
        readings,
        text: text.clone(),
        cache: BTreeMap::new(),
    };
    let mut cur = text.clone();
    let mut equally: Vec<Vec<Value>> = vec![Vec::new(); rs.fits.len()];
    // each round scans every fit with the others held; a round that changes
    // nothing has scanned them all at the final point
    for _round in 0..16 {
        let mut changed = false;
        for (k, fit) in rs.fits.iter().enumerate() {
            let mut values = fit.grid.clone();
            if !values.contains(&text[k]) {
                values.push(text[k].clone());
            }
            let points: Vec<Vec<Value>> = values
                .iter()
                .map(|v| {
                    let mut p = cur.clone();
                    p[k] = v.clone();
                    p
                })
                .collect();
            s.evaluate_all(&points)?;
            let best = points
                .iter()
                .map(|p| s.point(p).agreement.score())
                .max()
                .unwrap_or(0);
            let ties: Vec<Value> = values
                .iter()
                .zip(&points)
                .filter(|(_, p)| s.point(p).agreement.score() == best)
                .map(|(v, _)| v.clone())
                .collect();
            // among equals the text's value first, then the current one:
            // at an equal score a value only moves to the text's, so the
            // search ends, and a value the data cannot decide stays the
            // text's even where an earlier round had moved it
            let keep = if ties.contains(&text[k]) {
                text[k].clone()
            } else if ties.contains(&cur[k]) {
                cur[k].clone()
            } else {
                ties.iter()
                    .min_by(|a, b| distance(a, &text[k]).total_cmp(&distance(b, &text[k])))
                    .cloned()
                    .unwrap_or_else(|| cur[k].clone())
            };
            if keep != cur[k] {
                cur[k] = keep;
                changed = true;
            }
            equally[k] = ties;
        }
        if !changed {
            break;
        }
    }
    s.evaluate_all(&[text.clone(), cur.clone()])?;
    let (at_text, at_fit) = (s.point(&text).clone(), s.point(&cur).clone());
    let fits: Vec<Fitted> = rs
        .fits
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let (kind, name) = match f.target {
                FitTarget::Const(i) => ("const", rs.consts[i].0.clone()),
                FitTarget::Switch(i) => ("switch", rs.switches[i].name.clone()),
            };
            let mut tried = f.grid.len();
            if !f.grid.contains(&text[k]) {
                tried += 1;
            }
            Fitted {
                kind,
                name,
                line: f.line,
                column: f.column,
                text: literal(&text[k]),
                fitted: literal(&cur[k]),
                tried,
                equally_good: equally[k].iter().map(literal).collect(),
            }
        })
        .collect();
    let show = |e: &Option<(String, u32, String)>| match e {
        Some((rule, ply, result)) => format!("{result} at ply {ply} by {rule}"),
        None => "no adjudication".to_string(),
    };
    let decided = games
        .iter()
        .zip(at_text.ends.iter().zip(&at_fit.ends))
        .zip(&s.timelines)
        .filter(|((_, (a, b)), _)| a.0 != b.0 || a.1 != b.1)
        .map(|((g, (a, b)), tl)| {
            let tag = |n: &str| g.pgn.tag(n).unwrap_or("").trim().to_string();
            Decided {
                path: g.path.clone(),
                round: tag("Round"),
                white: tag("White"),
                black: tag("Black"),
                result: tag("Result"),
                termination: tag("TerminationDetails"),
                plies: tl.replay.plies.last().map_or(0, |p| p.ply),
                under_text: show(&a.0),
                under_fit: show(&b.0),
                text_agrees: a.1,
                fit_agrees: b.1,
            }
        })
        .collect();
    let mut out = GroupFit {
        group: group.to_string(),
        games: games.len(),
        variant: base.variant.clone(),
        fits,
        under_text: at_text.agreement,
        under_fit: at_fit.agreement,
        decided,
        variant_block: None,
        evaluations: s.cache.len(),
        unreplayed: games
            .iter()
            .filter_map(|g| {
                let stop = g.replay.stop.as_ref()?;
                Some(Unreplayed {
                    path: g.path.clone(),
                    game: g.pgn.index + 1,
                    line: stop.span.map_or(g.pgn.line, |sp| sp.line),
                    ply: stop.ply,
                    reason: stop.message.clone(),
                })
            })
            .collect(),
        overrides: s.overrides(&cur),
    };
    if out.departs() {
        out.variant_block = Some(variant_block(&out, group, &first.path));
    }
    Ok(out)
}

/// A variant that sets the fitted values where they depart from the text.
fn variant_block(fit: &GroupFit, group: &str, path: &str) -> String {
    let stem = std::path::Path::new(if group.is_empty() { path } else { group })
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while name.contains("--") {
        name = name.replace("--", "-");
    }
    let name = format!("fitted-{}", name.trim_matches('-'));
    let mut b = format!("variant {name}");
    if let Some(v) = &fit.variant {
        b.push_str(&format!(" extends {v}"));
    }
    b.push_str(" {\n");
    for f in fit.fits.iter().filter(|f| f.fitted != f.text) {
        b.push_str(&format!("  {} {} = {}\n", f.kind, f.name, f.fitted));
    }
    b.push('}');
    b
}

/// A file's fit, for `audit --fit` and `batch --fit`: the values its games
/// are judged under, and the finding that names each departure from the
/// text (`None` where the fit is the text).
#[derive(Debug, Clone, Default)]
pub struct FileFit {
    pub overrides: Overrides,
    pub finding: Option<Finding>,
}

/// The `rules-fit` finding: each fitted value that departs from the text,
/// the agreement under both, and where the `fit` clauses are.
pub fn departure_finding(rs: &Ruleset, fit: &GroupFit) -> Finding {
    let departures: Vec<String> = fit
        .fits
        .iter()
        .filter(|f| f.fitted != f.text)
        .map(|f| {
            format!(
                "{} {} = {} (the text: {})",
                f.kind, f.name, f.fitted, f.text
            )
        })
        .collect();
    let agreement = |a: &Agreement| {
        format!(
            "counters {} of {}, terminations {} of {}",
            a.counters, a.counters_of, a.terminations, a.terminations_of
        )
    };
    let mut f = Finding::builtin(
        "rules-fit",
        Severity::Info,
        "The file is judged under fitted values, not the text's",
        format!(
            "{}: the values that best reproduce the record depart from the text: {}. Agreement under the text: {}; under the fit: {}. {} game(s) end otherwise under the fit.",
            fit.group,
            departures.join(", "),
            agreement(&fit.under_text),
            agreement(&fit.under_fit),
            fit.decided.len()
        ),
    );
    f.evidence.push(Evidence {
        path: fit.group.clone(),
        span: None,
        ply: None,
        timestamp: None,
        note: format!("the {} games fitted", fit.games),
    });
    for x in fit.fits.iter().filter(|x| x.fitted != x.text) {
        f.evidence.push(Evidence::at_line(
            &rs.path,
            x.line as u64,
            x.column as u64,
            3,
            format!("the fit clause of {} {}", x.kind, x.name),
        ));
    }
    f
}
