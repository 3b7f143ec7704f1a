//! The search over a fit's values: each point of values evaluated once
//! over every game (a cache, points of one scan in parallel), and the
//! coordinate descent from the text's values.

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::{Agreement, Game, literal};
use crate::base::value::Value;
use crate::rules::analysis::{CExpr, Check, FitDef, FitTarget, Ruleset};
use crate::rules::eval::{Detectors, Overrides, Program, run};
use crate::rules::judge::termination_findings;
use crate::timeline::{Data, MoveField, Timeline};

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
pub(super) type End = Option<(String, u32, String)>;

/// What one point of values gives over the games.
#[derive(Debug, Clone)]
pub(super) struct Point {
    pub(super) agreement: Agreement,
    /// Each game's computed end (`rule, ply, result`), and whether its
    /// termination agrees with the record.
    pub(super) ends: Vec<(End, bool)>,
}

/// The search over one group's games: what it reads, and each point of
/// values evaluated.
pub(super) struct Search<'a> {
    rs: &'a Ruleset,
    games: &'a [&'a Game],
    pub(super) timelines: Vec<Timeline<'a>>,
    forced: Option<&'a str>,
    detectors: &'a Detectors,
    counters: Vec<(String, MoveField)>,
    /// Each game's counter readings (moves where the recorded field is
    /// given), per counter rule, summed.
    readings: Vec<u64>,
    /// The text's value of each fit.
    pub(super) text: Vec<Value>,
    pub(super) cache: BTreeMap<String, Point>,
}

impl<'a> Search<'a> {
    /// The search over `games`, each read into its timeline once, from the
    /// values the text gives (with the program of the group's first game).
    pub(super) fn new(
        rs: &'a Ruleset,
        games: &'a [&'a Game],
        forced: Option<&'a str>,
        detectors: &'a Detectors,
    ) -> Result<(Search<'a>, Program<'a>), String> {
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
        let s = Search {
            rs,
            games,
            timelines,
            forced,
            detectors,
            counters,
            readings,
            text,
            cache: BTreeMap::new(),
        };
        Ok((s, base))
    }

    /// The fitted values from the text's, and for each fit the values that
    /// score as well as its fitted one.
    pub(super) fn descend(&mut self) -> Result<(Vec<Value>, Vec<Vec<Value>>), String> {
        let (rs, text) = (self.rs, self.text.clone());
        let mut cur = text.clone();
        let mut equally: Vec<Vec<Value>> = vec![Vec::new(); rs.fits.len()];
        // each round scans every fit with the others held; a round that changes
        // nothing has scanned them all at the final point
        for _round in 0..16 {
            let mut changed = false;
            for (k, fit) in rs.fits.iter().enumerate() {
                let ties = self.ties(k, fit, &cur)?;
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
        Ok((cur, equally))
    }

    /// The values of fit `k` (`fit`, and the text's) that score best, the
    /// others held at `cur`.
    fn ties(&mut self, k: usize, fit: &FitDef, cur: &[Value]) -> Result<Vec<Value>, String> {
        let text = self.text[k].clone();
        let mut values = fit.grid.clone();
        if !values.contains(&text) {
            values.push(text.clone());
        }
        let points: Vec<Vec<Value>> = values
            .iter()
            .map(|v| {
                let mut p = cur.to_vec();
                p[k] = v.clone();
                p
            })
            .collect();
        self.evaluate_all(&points)?;
        let best = points
            .iter()
            .map(|p| self.point(p).agreement.score())
            .max()
            .unwrap_or(0);
        let ties: Vec<Value> = values
            .iter()
            .zip(&points)
            .filter(|(_, p)| self.point(p).agreement.score() == best)
            .map(|(v, _)| v.clone())
            .collect();
        Ok(ties)
    }

    pub(super) fn overrides(&self, point: &[Value]) -> Overrides {
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
    pub(super) fn evaluate_all(&mut self, points: &[Vec<Value>]) -> Result<(), String> {
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

    pub(super) fn point(&self, point: &[Value]) -> &Point {
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
