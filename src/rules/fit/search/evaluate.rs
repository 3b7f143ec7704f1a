//! Each point of values evaluated: a game's score with the whole scoring
//! ruleset or with the rules a changed value reads, the games' scores
//! summed into a point, and the cache of points.

use std::collections::HashMap;

use rayon::prelude::*;

use super::classes::At;
use super::pairs::Around;
use super::{GameScore, Point, Search};
use crate::base::value::Value;
use crate::rules::analysis::Ruleset;
use crate::rules::eval::{LetColumns, Overrides, Program, Tallied, run_tallied};
use crate::rules::fit::partial::{Partial, Reads};
use crate::rules::fit::{Agreement, FitError, literal};
use crate::rules::judge::termination_findings;

/// In a scan, a game's slot for a point it cannot tell from the current
/// one: its score there is the current point's.
const AT_BASE: usize = usize::MAX;

impl Search<'_> {
    pub(super) fn key(point: &[Value]) -> String {
        point.iter().map(literal).collect::<Vec<_>>().join("\u{1f}")
    }

    /// The program of each of the games' variants at the values `over`,
    /// with `rs` (the scoring ruleset, or a partial one): made once per
    /// point, not once per game.
    pub(super) fn programs<'r>(
        &self,
        rs: &'r Ruleset,
        over: &Overrides,
    ) -> Result<Vec<Program<'r>>, FitError> {
        (self.variants.iter())
            .map(|v| Program::with(rs, v.as_deref(), over).map_err(FitError::from))
            .collect()
    }

    /// What game `i` gives under `progs` (its variant's, of
    /// [`Search::programs`]), evaluated with their ruleset (the scoring
    /// one, or a partial one); its end only `with_ends`; and its `let`
    /// columns where `lets` keeps them.
    pub(super) fn game_score(
        &self,
        progs: &[Program<'_>],
        i: usize,
        with_ends: bool,
        lets: Tallied<'_>,
    ) -> Result<(GameScore, Option<LetColumns>), FitError> {
        let (g, tl) = (self.games[i], &self.timelines[i]);
        let prog = &progs[self.variant_of[i]];
        let rs = prog.ruleset;
        let mut out = run_tallied(prog, tl, &self.prepared[i], self.detectors, &g.path, lets);
        let kept = out.lets.take();
        // the violations of rule `id`: counted, and any finding made
        // elsewhere than at an event (none where `rs` does not hold it)
        let count = |id: &String| {
            let tallied =
                (rs.rules.iter().position(|r| r.id == *id)).map_or(0, |k| u64::from(out.tally[k]));
            tallied + out.findings.iter().filter(|f| f.rule == *id).count() as u64
        };
        let mut s = GameScore {
            counter_wrong: self.counters.iter().map(|(id, _)| count(id)).collect(),
            clock_wrong: self.clock_rules.iter().map(count).collect(),
            tag: tl.game.tag("TimeControl").map(|tag| {
                prog.time_control.as_deref().is_some_and(|t| {
                    crate::facts::clock::parse_pgn_time_control(tag)
                        .is_some_and(|r| r.tag() == t.tag())
                })
            }),
            ..GameScore::default()
        };
        if with_ends {
            // a game whose end an adjudication could not decide (a
            // tablebase position with no table) is judged neither way: a
            // value that leaves more games undecided gains nothing by it
            let last_ply = tl.replay.plies.last().map_or(0, |p| p.ply);
            let undecided =
                out.computed.is_none() && out.undecided_from.is_some_and(|p| p <= last_ply);
            s.decidable = tl.replay.stop.is_none() && !undecided;
            if s.decidable {
                let findings = termination_findings(prog, tl, &out, &g.path);
                s.agrees = findings.is_empty();
                s.blamed = findings.into_iter().map(|f| f.rule).collect();
                s.blamed.dedup();
            }
            s.end = out.computed.map(|c| (c.rule, c.ply, c.result));
        }
        Ok((s, kept))
    }

    /// A point from what each game gives there.
    pub(super) fn aggregate(&self, games: Vec<GameScore>) -> Point {
        let mut p = Point {
            agreement: Agreement::default(),
            ends: Vec::with_capacity(games.len()),
            decidable: Vec::with_capacity(games.len()),
            games: Vec::new(),
            summary: super::Summary::default(),
        };
        p.summary.counter_wrong = vec![0; self.counters.len()];
        p.summary.clock_wrong = vec![0; self.clock_rules.len()];
        for (i, s) in games.iter().enumerate() {
            let sum = |total: &mut Vec<u64>, wrong: &[u64]| {
                for (t, w) in total.iter_mut().zip(wrong) {
                    *t += w;
                }
            };
            sum(&mut p.summary.counter_wrong, &s.counter_wrong);
            sum(&mut p.summary.clock_wrong, &s.clock_wrong);
            let a = &mut p.agreement;
            let readings = self.readings[i];
            a.counters_of += readings;
            a.counters += readings.saturating_sub(s.counter_wrong.iter().sum());
            let clocked = self.clock_readings[i];
            a.clocks_of += clocked;
            a.clocks += clocked.saturating_sub(s.clock_wrong.iter().sum());
            if let Some(ok) = s.tag {
                a.tags_of += 1;
                a.tags += u64::from(ok);
            }
            // only the games decidable at the text's values are scored
            let scored = s.decidable && self.scored.get(i).is_none_or(|x| *x);
            let agrees = scored && s.agrees;
            if scored {
                a.terminations_of += 1;
                a.terminations += u64::from(agrees);
                if !s.blamed.is_empty() {
                    *p.summary.blamed.entry(s.blamed.clone()).or_default() += 1;
                }
            }
            p.decidable.push(s.decidable);
            p.ends.push((s.end.clone(), agrees));
        }
        p.games = games;
        p
    }

    /// Evaluate `point` over every game with the whole scoring ruleset.
    pub(super) fn evaluate(&self, point: &[Value]) -> Result<Point, FitError> {
        let over = self.overrides(point);
        // the games in parallel too: a point evaluated alone (the current
        // one, each time it moves) keeps both cores busy
        let progs = self.programs(self.scoring, &over)?;
        let games = (0..self.games.len())
            .into_par_iter()
            .map(|i| Ok(self.game_score(&progs, i, true, Tallied::default())?.0))
            .collect::<Result<Vec<_>, FitError>>()?;
        Ok(self.aggregate(games))
    }

    /// Make sure `cur` is evaluated, and each game's `let` columns there
    /// kept: the points around it take from them every `let` that reads
    /// none of the values they change. Where `cur` is one value away from
    /// the point whose columns are kept, only the `let`s that read that
    /// value are made again, the others taken (as a point of a scan is
    /// evaluated); else every game is evaluated whole.
    pub(super) fn keep_lets_at(&mut self, cur: &[Value]) -> Result<(), FitError> {
        let key = Self::key(cur);
        if self.base_lets.as_ref().is_some_and(|b| b.key == key) {
            return Ok(());
        }
        let (games, lets) = match self.lets_from_base(cur)? {
            Some(made) => made,
            None => {
                let over = self.overrides(cur);
                let progs = self.programs(self.scoring, &over)?;
                let keep = Tallied {
                    given: None,
                    keep: true,
                };
                (0..self.games.len())
                    .into_par_iter()
                    .map(|i| {
                        let (s, l) = self.game_score(&progs, i, true, keep)?;
                        Ok((s, l.unwrap_or_default()))
                    })
                    .collect::<Result<Vec<_>, FitError>>()?
                    .into_iter()
                    .unzip()
            }
        };
        if !self.cache.get(&key).is_some_and(|p| self.is_full(p)) {
            let point = self.aggregate(games);
            self.cache.insert(key.clone(), point);
        }
        // the point whose columns were kept is a base no more: its games'
        // scores go (its agreement stays)
        if let Some(old) = self.base_lets.take()
            && let Some(p) = self.cache.get_mut(&old.key)
        {
            p.strip();
        }
        self.base_lets = Some(super::BaseLets {
            key,
            point: cur.to_vec(),
            lets,
        });
        Ok(())
    }

    /// Each game's score and `let` columns at `cur`, where it differs in
    /// one fit from the point whose columns are kept (evaluated): the
    /// `let`s that read that fit made, the others taken; none otherwise.
    #[allow(clippy::type_complexity)]
    fn lets_from_base(
        &self,
        cur: &[Value],
    ) -> Result<Option<(Vec<GameScore>, Vec<LetColumns>)>, FitError> {
        let Some(b) = &self.base_lets else {
            return Ok(None);
        };
        if std::env::var_os("ARBITER_FIT_FULL").is_some() {
            return Ok(None);
        }
        let differ: Vec<usize> = (0..cur.len()).filter(|&f| cur[f] != b.point[f]).collect();
        let [k] = differ[..] else {
            return Ok(None);
        };
        let partial = &self.partials[k];
        let Partial::Rules { rs, .. } = partial else {
            return Ok(None);
        };
        let Some(base) = self.cache.get(&b.key) else {
            return Ok(None);
        };
        let progs = self.programs(rs, &self.overrides(cur))?;
        let made = (0..self.games.len())
            .into_par_iter()
            .map(|i| {
                let (s, lets) = self.game_from(base, &progs, i, partial, b.lets.get(i), true)?;
                Ok((s, lets.unwrap_or_default()))
            })
            .collect::<Result<Vec<_>, FitError>>()?;
        Ok(Some(made.into_iter().unzip()))
    }

    /// Game `i`'s score under `progs` (programs of `partial`'s ruleset at
    /// a point one or two values away from `base`): the rules `partial`
    /// holds evaluated, every `let` that reads none of the changed values
    /// taken from `lets` (the game's at `base`), the rest of the score as
    /// at `base`; its `let` columns too where `keep`.
    fn game_from(
        &self,
        base: &Point,
        progs: &[Program<'_>],
        i: usize,
        partial: &Partial,
        lets: Option<&LetColumns>,
        keep: bool,
    ) -> Result<(GameScore, Option<LetColumns>), FitError> {
        let (adjudications, take) = match partial {
            Partial::Rules {
                adjudications,
                take,
                ..
            } => (*adjudications, &take[..]),
            Partial::Full => (true, &[][..]),
        };
        let given = Tallied {
            given: lets.map(|l| (l, take)),
            keep,
        };
        let (part, kept) = self.game_score(progs, i, adjudications, given)?;
        Ok((combined(&base.games[i], part, partial), kept))
    }

    /// Evaluate `todo`, points that differ from `base` (evaluated) only in
    /// the fits `partial` was made for: each with the rules that read
    /// those fits, the rest as at `base`, every `let` that reads none of
    /// them taken from `lets` (each game's at `base`). A game is evaluated
    /// once for each class of points it cannot tell apart (`classes`): the
    /// points whose values of every fit they change are in the same
    /// classes for that game share its evaluation. The games and points in
    /// parallel.
    pub(super) fn evaluate_scan(
        &self,
        base: &Point,
        cur: &[Value],
        todo: &[&Vec<Value>],
        partial: &Partial,
        lets: Option<&[LetColumns]>,
    ) -> Result<Vec<Point>, FitError> {
        let Partial::Rules { rs, .. } = partial else {
            return todo.par_iter().map(|p| self.evaluate(p)).collect();
        };
        if std::env::var_os("ARBITER_FIT_FULL").is_some() {
            return todo.par_iter().map(|p| self.evaluate(p)).collect();
        }
        // the fits the points change, and the values each takes among them
        // (and the current point's, last: a game that cannot tell a point
        // from the current one gives there what it gives at the current one)
        let varying: Vec<(usize, Vec<&Value>)> = (0..cur.len())
            .filter_map(|f| {
                let mut seen: Vec<&Value> = Vec::new();
                for v in todo.iter().map(|p| &p[f]).chain([&cur[f]]) {
                    if !seen.contains(&v) {
                        seen.push(v);
                    }
                }
                (todo.iter().any(|p| p[f] != cur[f])).then_some((f, seen))
            })
            .collect();
        let progs = (todo.iter())
            .map(|p| self.programs(rs, &self.overrides(p)))
            .collect::<Result<Vec<_>, FitError>>()?;
        // what reads the values the points change
        let targets: Vec<_> = varying
            .iter()
            .map(|(f, _)| self.rs.fits[*f].target)
            .collect();
        let changed = Reads::of(self.scoring, &targets);
        // each game's evaluations: one per class of points (a point's
        // class is that of its value of each fit it changes, or the value
        // itself where the fit has no classes); a scan of two points or
        // fewer has nothing to share
        let n = self.games.len();
        let empty = LetColumns::default();
        let jobs_slots: Vec<Vec<usize>> = (0..n)
            .into_par_iter()
            .map(|i| {
                // the comparisons' other sides read none of the values
                // the points change: any point's program gives them
                let at = At {
                    prog: &progs[0][self.variant_of[i]],
                    tl: &self.timelines[i],
                    prepared: &self.prepared[i],
                    lets: lets.and_then(|l| l.get(i)).unwrap_or(&empty),
                    changed: &changed,
                };
                let classes: Vec<Option<Vec<u32>>> = (varying.iter())
                    .map(|(f, seen)| self.classes.of_game(*f, seen, &at))
                    .collect();
                let key = |p: &[Value]| -> Vec<u32> {
                    (varying.iter().zip(&classes))
                        .map(|((f, seen), c)| {
                            let place = seen.iter().position(|v| **v == p[*f]).unwrap_or(0);
                            c.as_ref().map_or(place as u32, |c| c[place])
                        })
                        .collect()
                };
                let at_cur = key(cur);
                let mut first: HashMap<Vec<u32>, usize> = HashMap::new();
                let mut of_point = Vec::with_capacity(todo.len());
                for p in todo {
                    let k = key(p);
                    if k == at_cur {
                        of_point.push(AT_BASE);
                        continue;
                    }
                    let next = first.len();
                    of_point.push(*first.entry(k).or_insert(next));
                }
                of_point
            })
            .collect();
        // the jobs, game by game: a class's job is made for its first point
        // (the classes are numbered in the order their first points come)
        let mut jobs: Vec<(usize, usize)> = Vec::new();
        let mut slot: Vec<Vec<usize>> = vec![Vec::with_capacity(n); todo.len()];
        for (i, of_point) in jobs_slots.iter().enumerate() {
            let start = jobs.len();
            for (t, &c) in of_point.iter().enumerate() {
                if c == AT_BASE {
                    slot[t].push(AT_BASE);
                    continue;
                }
                if c == jobs.len() - start {
                    jobs.push((t, i));
                }
                slot[t].push(start + c);
            }
        }
        let scores = (jobs.par_iter())
            .map(|&(t, i)| {
                let given = lets.and_then(|l| l.get(i));
                Ok(self.game_from(base, &progs[t], i, partial, given, false)?.0)
            })
            .collect::<Result<Vec<GameScore>, FitError>>()?;
        let score = |i: usize, j: usize| match j {
            AT_BASE => base.games[i].clone(),
            j => scores[j].clone(),
        };
        Ok(slot
            .into_iter()
            .map(|jobs| {
                self.aggregate(
                    jobs.into_iter()
                        .enumerate()
                        .map(|(i, j)| score(i, j))
                        .collect(),
                )
            })
            .collect())
    }

    /// Evaluate the points not yet in the cache (in parallel).
    pub(in crate::rules::fit) fn evaluate_all(
        &mut self,
        points: &[Vec<Value>],
    ) -> Result<(), FitError> {
        if self.blocks.is_some() {
            return self.pass_all(points);
        }
        // a point held by its agreement only is evaluated again: what is
        // read of it here is each game's score
        let todo: Vec<&Vec<Value>> = points
            .iter()
            .filter(|p| {
                !self
                    .cache
                    .get(&Self::key(p))
                    .is_some_and(|c| self.is_full(c))
            })
            .collect();
        let this = &*self;
        let done: Vec<Result<(String, Point), FitError>> = todo
            .par_iter()
            .map(|p| this.evaluate(p).map(|r| (Self::key(p), r)))
            .collect();
        for d in done {
            let (k, p) = d?;
            self.cache.insert(k, p);
        }
        (self.tick)(self.cache.len());
        Ok(())
    }

    /// Evaluate the points not yet in the cache, each of which differs
    /// from `cur` in fit `k` only: `cur` whole (once), then each point from
    /// it (in parallel).
    pub(super) fn evaluate_around(
        &mut self,
        cur: &[Value],
        k: usize,
        points: &[Vec<Value>],
    ) -> Result<(), FitError> {
        self.evaluate_with(cur, points, Around::Fit(k))
    }

    /// Whether `p` holds each game's score (else its agreement only).
    pub(super) fn is_full(&self, p: &Point) -> bool {
        p.games.len() == self.games.len()
    }

    pub(in crate::rules::fit) fn point(&self, point: &[Value]) -> &Point {
        self.cache
            .get(&Self::key(point))
            .expect("every point is evaluated before it is read")
    }
}

/// A game's score at a point from `part`, what the rules `partial` was
/// made for give there, and `b`, what the base point gave: each rule's
/// count from `part` where `partial` holds the rule, from `b` elsewhere.
fn combined(b: &GameScore, part: GameScore, partial: &Partial) -> GameScore {
    let Partial::Rules {
        counters,
        clocks,
        adjudications,
        tags,
        ..
    } = partial
    else {
        return part;
    };
    let pick = |mask: &[bool], now: &[u64], then: &[u64]| -> Vec<u64> {
        mask.iter()
            .zip(now.iter().zip(then))
            .map(|(m, (n, t))| if *m { *n } else { *t })
            .collect()
    };
    let mut s = GameScore {
        counter_wrong: pick(counters, &part.counter_wrong, &b.counter_wrong),
        clock_wrong: pick(clocks, &part.clock_wrong, &b.clock_wrong),
        tag: if *tags { part.tag } else { b.tag },
        ..b.clone()
    };
    if *adjudications {
        s.end = part.end;
        s.decidable = part.decidable;
        s.agrees = part.agrees;
        s.blamed = part.blamed;
    }
    s
}
