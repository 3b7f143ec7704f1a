//! The search over a fit's values: each point of values evaluated once
//! over every game (a cache, points of one scan in parallel), and the
//! coordinate descent from the text's values.

use crate::findings::codes;
use std::collections::BTreeMap;

use rayon::prelude::*;

use super::partial::Partial;

mod classes;
mod evaluate;
mod pairs;
pub(super) mod scoring;
mod blocks;

use scoring::{clock_rules, counter_rules};

use super::{Agreement, Blocks, FitError, Game};
use crate::base::value::Value;
use crate::rules::analysis::{FitSource, FitTarget, Ruleset};
use crate::rules::eval::{Detectors, Overrides, Prepared, Program, run_prepared};
use crate::rules::judge::termination_findings;
use crate::timeline::{Data, MoveField, Timeline};

/// Each game's `let` columns at one point, kept for the points around it.
pub(super) struct BaseLets {
    /// The point's key, and its values.
    key: String,
    point: Vec<Value>,
    lets: Vec<crate::rules::eval::LetColumns>,
}

/// What a search tells of its progress: the points evaluated so far.
pub type Tick<'a> = &'a (dyn Fn(usize) + Sync);

/// A game's computed end: the rule, the ply and the result.
pub(super) type End = Option<(String, u32, String)>;

/// What one point of values gives over the games.
#[derive(Debug, Clone)]
pub(super) struct Point {
    pub(super) agreement: Agreement,
    /// Each game's computed end (`rule, ply, result`), and whether its
    /// termination agrees with the record.
    pub(super) ends: Vec<(End, bool)>,
    /// Each game's end is decidable at these values (no adjudication left
    /// undecided before the game's end).
    decidable: Vec<bool>,
    /// What each game gives, for the points one value away.
    games: Vec<GameScore>,
    /// Its games' disagreements summed, what the descent reads of them.
    pub(super) summary: Summary,
}

/// What the games give at one point, summed: what the descent decides on
/// beside the agreement. Blocks of games evaluated apart add up to the
/// whole group's.
#[derive(Debug, Clone, Default)]
pub(super) struct Summary {
    /// Findings of each counter rule and each clock rule, summed.
    pub(super) counter_wrong: Vec<u64>,
    pub(super) clock_wrong: Vec<u64>,
    /// The scored games that do not agree, by the adjudications they blame.
    pub(super) blamed: BTreeMap<Vec<String>, u64>,
}

impl Summary {
    /// Add `other`'s sums to these.
    pub(super) fn add(&mut self, other: &Summary) {
        let sum = |a: &mut Vec<u64>, b: &[u64]| {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        };
        sum(&mut self.counter_wrong, &other.counter_wrong);
        sum(&mut self.clock_wrong, &other.clock_wrong);
        for (k, n) in &other.blamed {
            *self.blamed.entry(k.clone()).or_default() += n;
        }
    }
}

impl Point {
    /// The point held by its agreement only: a point of a scan is read
    /// for its score, and each game's score is kept only where a scan
    /// starts from the point (the current one), so that the cache grows
    /// with the points, not with the points times the games. A point read
    /// again for its games is evaluated again (`Search::evaluate_all`), to
    /// the same scores.
    pub(super) fn strip(&mut self) {
        self.games = Vec::new();
        self.ends = Vec::new();
        self.decidable = Vec::new();
    }
}

/// What one game gives at one point of values.
#[derive(Debug, Clone, Default)]
struct GameScore {
    /// Findings of each counter rule and each clock rule (the search's
    /// order): readings that disagree.
    counter_wrong: Vec<u64>,
    clock_wrong: Vec<u64>,
    /// Whether its TimeControl tag states the rules' control (none: no tag).
    tag: Option<bool>,
    end: End,
    /// Replayed to its end, and no adjudication left undecided before it.
    decidable: bool,
    /// Decidable, and its termination is the one the record claims.
    agrees: bool,
    /// Where it is decidable and does not agree: the adjudications its
    /// end's findings name (the one that ends it wrongly, or the ones the
    /// record claims and none computed).
    blamed: Vec<String>,
}

/// The search over one group's games: what it reads, and each point of
/// values evaluated.
pub(super) struct Search<'a> {
    rs: &'a Ruleset,
    /// The ruleset with only the rules a point is scored on (see
    /// [`scoring_ruleset`]).
    scoring: &'a Ruleset,
    games: &'a [&'a Game],
    pub(super) timelines: Vec<Timeline<'a>>,
    /// Each game's moves' facts and clocks, kept between points.
    prepared: Vec<Prepared<'a>>,
    forced: Option<&'a str>,
    /// The variants the games are evaluated under (none: the base
    /// ruleset), each once, and each game's place among them: a game's
    /// variant is chosen by the ruleset's own values, whatever a point's.
    variants: Vec<Option<String>>,
    variant_of: Vec<usize>,
    detectors: &'a Detectors,
    counters: Vec<(String, MoveField)>,
    clock_rules: Vec<String>,
    /// Each game's clock readings (engine moves on the clock with a
    /// recorded time left).
    clock_readings: Vec<u64>,
    /// For each fit, how a point that changes it alone is evaluated.
    partials: Vec<Partial>,
    /// For each fit, the rules that read it themselves.
    reading: Vec<Vec<String>>,
    /// Each game's counter readings (moves where the recorded field is
    /// given), per counter rule, summed.
    readings: Vec<u64>,
    /// The text's value of each fit.
    pub(super) text: Vec<Value>,
    /// The values each fit tries: its clause's, or what the games hold
    /// (`fit from …`).
    pub(super) grids: Vec<Vec<Value>>,
    pub(super) cache: BTreeMap<String, Point>,
    /// The order the fits are scanned in each round: first the ones that
    /// say whether something runs (a switch, a constant that is `true` or
    /// `false`), then the values that tune what runs, each in the
    /// ruleset's order. A rule found off is then not tuned first, nor a
    /// convention scanned again for every window tried.
    order: Vec<usize>,
    /// Each game's `let` columns at one point (by its key): the current
    /// one of the scan under way.
    base_lets: Option<BaseLets>,
    /// The comparisons of each fit read as a threshold only: a scan
    /// evaluates a game once per class of its values.
    classes: classes::Classes<'a>,
    /// Told the number of points evaluated as it grows (a progress bar).
    tick: Tick<'a>,
    /// Whether every fit is scanned for the values that score as well as
    /// its fitted one (the report's FLAT). Without, a fit at the text's
    /// value whose rules all agree is not scanned: no value can score more
    /// (see [`Search::at_most`]).
    ties: bool,
    /// The games whose terminations are scored: those decidable at the
    /// text's values (empty until the text's point is evaluated). A value
    /// that would make a game decidable only by not asking what cannot be
    /// answered here (a tablebase position with no table given) gains
    /// nothing by it.
    scored: Vec<bool>,
    /// How many games are scored, of the whole group (the blocks' sum
    /// where the group is read a block at a time).
    scored_count: u64,
    /// The group read a block at a time, at every pass (its games are then
    /// none of the search's own: each pass makes a search of each block).
    blocks: Option<&'a dyn Blocks>,
    /// Read a block at a time: which of the group's games are scored, in
    /// its order (found at the first pass, at the text's values).
    all_scored: Vec<bool>,
}

/// What a search starts from: the rulesets, the text's values and the
/// values each fit tries (a group's [`super::survey::Surveyed`]), and how
/// it reports.
#[derive(Clone)]
pub(super) struct Setup<'a> {
    pub(super) rs: &'a Ruleset,
    /// The ruleset a point is scored on (see [`scoring::scoring_ruleset`]).
    pub(super) scoring: &'a Ruleset,
    pub(super) forced: Option<&'a str>,
    pub(super) detectors: &'a Detectors,
    pub(super) tick: Tick<'a>,
    pub(super) ties: bool,
    pub(super) text: Vec<Value>,
    pub(super) grids: Vec<Vec<Value>>,
    /// Which of the games are scored, where known already (a block's, of
    /// a group read a block at a time): the text's point is then not
    /// evaluated to find them.
    pub(super) scored: Option<&'a [bool]>,
}

impl<'a> Search<'a> {
    /// The search over `games`, each read into its timeline once, from the
    /// text's values; or, with `blocks`, over the group `blocks` reads a
    /// block at a time at every pass (`games` then empty).
    pub(super) fn new(
        setup: Setup<'a>,
        games: &'a [&'a Game],
        blocks: Option<&'a dyn Blocks>,
    ) -> Result<Search<'a>, FitError> {
        let Setup {
            rs,
            scoring,
            forced,
            detectors,
            tick,
            ties,
            text,
            grids,
            scored: known,
        } = setup;
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
        let clock_readings = timelines
            .iter()
            .map(|tl| {
                let inp = crate::facts::clock::inputs(tl);
                inp.readings
                    .iter()
                    .zip(inp.off_clock.iter().chain(std::iter::repeat(&false)))
                    .filter(|(r, off)| r.is_some() && !**off)
                    .count() as u64
            })
            .collect();
        let mut variants: Vec<Option<String>> = Vec::new();
        let mut variant_of = Vec::with_capacity(timelines.len());
        for tl in &timelines {
            let v = Program::for_game(rs, forced, tl)?.variant;
            variant_of.push(variants.iter().position(|x| *x == v).unwrap_or_else(|| {
                variants.push(v);
                variants.len() - 1
            }));
        }
        let classes = classes::Classes::of(rs, scoring);
        let flag = |g: &Vec<Value>| !g.is_empty() && g.iter().all(|v| matches!(v, Value::Bool(_)));
        let (flags, values): (Vec<usize>, Vec<usize>) =
            (0..rs.fits.len()).partition(|&k| flag(&grids[k]));
        let mut s = Search {
            order: flags.into_iter().chain(values).collect(),
            rs,
            prepared: timelines.iter().map(Prepared::new).collect(),
            scoring,
            grids,
            scored: Vec::new(),
            scored_count: 0,
            blocks,
            all_scored: Vec::new(),
            games,
            timelines,
            forced,
            variants,
            variant_of,
            detectors,
            counters,
            clock_rules: clock_rules(rs),
            partials: {
                let counters: Vec<String> =
                    counter_rules(rs).into_iter().map(|(id, _)| id).collect();
                let clocks = clock_rules(rs);
                rs.fits
                    .iter()
                    .map(|f| super::partial::partial(scoring, &[f.target], &counters, &clocks))
                    .collect()
            },
            clock_readings,
            reading: rs
                .fits
                .iter()
                .map(|f| super::partial::reading(scoring, f.target))
                .collect(),
            readings,
            text,
            cache: BTreeMap::new(),
            base_lets: None,
            classes,
            tick,
            ties,
        };
        let text = s.text.clone();
        if s.blocks.is_some() {
            s.pass_text()?;
            s.scored_count = s.point(&text).agreement.terminations_of;
            return Ok(s);
        }
        if let Some(known) = known {
            s.scored = known.to_vec();
            s.scored_count = known.iter().filter(|x| **x).count() as u64;
            return Ok(s);
        }
        let at_text = s.evaluate(&text)?;
        s.scored = at_text.decidable;
        // the same games' scores summed again with the scored games known
        // (a game's score does not depend on them; the cache then holds one
        // consistent score per point)
        let point = s.aggregate(at_text.games);
        s.scored_count = point.agreement.terminations_of;
        s.cache.insert(Self::key(&text), point);
        (s.tick)(s.cache.len());
        Ok(s)
    }

    /// The fitted values from the text's, and for each fit the values that
    /// score as well as its fitted one.
    pub(super) fn descend(&mut self) -> Result<(Vec<Value>, Vec<Vec<Value>>), FitError> {
        let (rs, text) = (self.rs, self.text.clone());
        let mut cur = text.clone();
        let mut equally: Vec<Vec<Value>> = vec![Vec::new(); rs.fits.len()];
        // each round scans every fit whose best values may have changed
        // since its last scan, the others held; the search ends when none
        // may have. A fit's score differs between its values only by the
        // rules that read it, so a change of a fit that shares none of
        // them leaves its best values as they were (the score is a sum
        // over rules; every adjudication is one rule for this, as which
        // one ends a game depends on all)
        let mut dirty = vec![true; rs.fits.len()];
        // after the fits one at a time, pairs of fits one rule reads
        // together (a win rule's window and band): a pair that scores
        // better moved together starts the descent again
        for _restart in 0..4 {
            self.coordinates(&mut cur, &mut equally, &mut dirty)?;
            match self.pair_step(&cur)? {
                Some(moves) => {
                    // the fits moved, and those sharing a rule with one:
                    // the others' best values are as they were
                    dirty = (0..rs.fits.len())
                        .map(|j| {
                            moves.iter().any(|(k, _)| {
                                j == *k || self.partials[j].shares_rules(&self.partials[*k])
                            })
                        })
                        .collect();
                    for (k, v) in moves {
                        cur[k] = v;
                    }
                }
                None => break,
            }
        }
        Ok((cur, equally))
    }

    /// Fits one at a time, each scanned while it is `dirty`, until none is.
    fn coordinates(
        &mut self,
        cur: &mut [Value],
        equally: &mut [Vec<Value>],
        dirty: &mut [bool],
    ) -> Result<(), FitError> {
        let text = self.text.clone();
        for _round in 0..16 {
            let mut changed = false;
            for k in self.order.clone() {
                if !dirty[k] {
                    continue;
                }
                dirty[k] = false;
                // at the text's value, with every rule that reads it in
                // agreement: it stays, and only its ties are unknown
                if !self.ties && cur[k] == text[k] && self.at_most(k, cur)? {
                    continue;
                }
                let ties = self.ties(k, cur)?;
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
                    for (j, d) in dirty.iter_mut().enumerate() {
                        if j != k && self.partials[j].shares_rules(&self.partials[k]) {
                            *d = true;
                        }
                    }
                }
                equally[k] = ties;
            }
            if !changed {
                break;
            }
        }
        Ok(())
    }

    /// The values of fit `k` (`fit`, and the text's) that score best, the
    /// others held at `cur`.
    fn ties(&mut self, k: usize, cur: &[Value]) -> Result<Vec<Value>, FitError> {
        let text = self.text[k].clone();
        let mut values = self.grids[k].clone();
        // a text another adjudication records now is not a candidate: two
        // rules recording one text would let a game's claim go unchecked
        if self.rs.fits[k].source == Some(FitSource::Terminations) {
            values.retain(|v| {
                !self.rs.fits.iter().enumerate().any(|(j, f)| {
                    j != k && f.source == Some(FitSource::Terminations) && cur[j] == *v
                })
            });
        }
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
        self.evaluate_around(cur, k, &points)?;
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

    /// Whether no value of fit `k` can score more than `cur` does: every
    /// rule that reads it agrees at `cur` wherever it is read (its counter
    /// and clock readings; the TimeControl tags, where `k` is the time
    /// control; and every scored game's end, where an adjudication reads
    /// it). A point's score differs from `cur`'s only by those rules.
    fn at_most(&mut self, k: usize, cur: &[Value]) -> Result<bool, FitError> {
        self.evaluate_all(&[cur.to_vec()])?;
        let Partial::Rules {
            counters,
            clocks,
            adjudications,
            tags,
            ..
        } = &self.partials[k]
        else {
            return Ok(false);
        };
        let p = self.point(cur);
        let none_wrong = |mask: &[bool], wrong: &[u64]| {
            (mask.iter().enumerate())
                .filter(|(_, m)| **m)
                .all(|(i, _)| wrong.get(i).is_none_or(|w| *w == 0))
        };
        Ok(none_wrong(counters, &p.summary.counter_wrong)
            && none_wrong(clocks, &p.summary.clock_wrong)
            && (!tags || p.agreement.tags == p.agreement.tags_of)
            && (!adjudications || p.agreement.terminations == self.scored_count))
    }

    /// The games this search holds (none where it reads blocks).
    pub(super) fn games(&self) -> &[&'a Game] {
        self.games
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
                (FitTarget::TimeControl, Value::Str(s)) => {
                    o.time_control = crate::facts::clock::parse_tag_form(s).map(|mut t| {
                        t.name = format!("fitted {s}");
                        t.fitted = true;
                        t
                    });
                }
                (FitTarget::Switch(_) | FitTarget::TimeControl, _) => {}
            }
        }
        o
    }
}

/// Where one rule fires at a point of values: each game it fires in (by
/// its place in the group), the first ply there, and how many findings.
#[derive(Debug, Default)]
pub(super) struct Firing {
    pub(super) games: Vec<(usize, Option<u32>)>,
    pub(super) findings: usize,
}

impl Search<'_> {
    /// Every rule that fires at `point`, the findings of the game's end
    /// included, by rule id; and the games an adjudication left undecided.
    pub(super) fn firing(
        &self,
        point: &[Value],
    ) -> Result<(BTreeMap<String, Firing>, usize), FitError> {
        let over = self.overrides(point);
        let per_game: Vec<Result<(Vec<crate::findings::Finding>, bool), FitError>> = self
            .games
            .par_iter()
            .zip(&self.timelines)
            .zip(&self.prepared)
            .map(|((g, tl), pre)| {
                let prog = Program::for_game_with(self.rs, self.forced, tl, &over)?;
                let out = run_prepared(&prog, tl, pre, self.detectors, &g.path);
                let mut all = termination_findings(&prog, tl, &out, &g.path);
                let undecided = out.undecided_from.is_some();
                all.extend(out.findings);
                Ok((all, undecided))
            })
            .collect();
        let mut by_rule: BTreeMap<String, Firing> = BTreeMap::new();
        let mut undecided = 0;
        for (i, r) in per_game.into_iter().enumerate() {
            let (findings, und) = r?;
            undecided += usize::from(und);
            for f in findings {
                // an adjudication with no table to decide it is a missing
                // input, counted apart, not a rule the archive contradicts
                if f.rule.is_empty() || f.code == codes::RULE_UNDECIDED.id {
                    continue;
                }
                let ply = f.evidence.iter().find_map(|e| e.ply);
                let e = by_rule.entry(f.rule.clone()).or_default();
                e.findings += 1;
                match e.games.last_mut() {
                    Some((g, first)) if *g == i => {
                        *first = match (*first, ply) {
                            (Some(a), Some(b)) => Some(a.min(b)),
                            (a, b) => a.or(b),
                        };
                    }
                    _ => e.games.push((i, ply)),
                }
            }
        }
        Ok((by_rule, undecided))
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
