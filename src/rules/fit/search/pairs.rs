//! Pairs of fits scanned together: where one rule reads two fitted values
//! (a win rule's window and its band), one value at a time can stop short
//! of the best pair (at the text's band, a shorter window fits best; at
//! that window, a higher band). After the fits one at a time settle, each
//! such pair is scanned on its joint grid around the current point, and a
//! pair that scores strictly better is taken.

use super::{Point, Search};
use crate::base::value::Value;
use crate::rules::fit::FitError;
use crate::rules::fit::partial::{Partial, partial};

/// Which fits the points of an evaluation change from the current point:
/// one fit, or the fits a partial evaluation was made for.
#[derive(Clone, Copy)]
pub(super) enum Around<'p> {
    Fit(usize),
    Given(&'p Partial),
}

/// The most points a pair's joint grid may have to be scanned.
const PAIR_MAX: usize = 250;

/// The disagreements a pair's rules must show at the point reached for
/// the pair to be scanned.
const PAIR_EVIDENCE: u64 = 2;

impl Search<'_> {
    /// The values fit `k` tries with no other fit's values in the way: its
    /// grid and the text's value (none for values the archive gives).
    fn plain_grid(&self, k: usize) -> Vec<Value> {
        if self.rs.fits[k].source.is_some() {
            return Vec::new();
        }
        let mut v = self.grids[k].clone();
        if !v.contains(&self.text[k]) {
            v.push(self.text[k].clone());
        }
        v
    }

    /// The pairs of fits some rule reads both of itself, each with a joint
    /// grid of at most [`PAIR_MAX`] points, in the fits' order.
    fn coupled(&self) -> Vec<(usize, usize)> {
        let n = self.rs.fits.len();
        let mut out = Vec::new();
        for j in 0..n {
            for k in j + 1..n {
                let (gj, gk) = (self.plain_grid(j), self.plain_grid(k));
                let size = gj.len() * gk.len();
                let shared = self.reading[j].iter().any(|r| self.reading[k].contains(r));
                if shared && size > 1 && size <= PAIR_MAX && gj.len() > 1 && gk.len() > 1 {
                    out.push((j, k));
                }
            }
        }
        out
    }

    /// The first coupled pair whose best joint values score strictly more
    /// than `cur`, and those values; none where no pair does.
    pub(super) fn pair_step(
        &mut self,
        cur: &[Value],
    ) -> Result<Option<Vec<(usize, Value)>>, FitError> {
        self.evaluate_all(&[cur.to_vec()])?;
        let now = self.point(cur).agreement.score();
        // the pairs with evidence enough, the most evidence first (a pair
        // that gains ends the step, and the descent starts again from it)
        let mut pairs: Vec<(u64, (usize, usize))> = (self.coupled().into_iter())
            .map(|(j, k)| (self.evidence(cur, j, k), (j, k)))
            .filter(|(e, _)| *e >= PAIR_EVIDENCE)
            .collect();
        pairs.sort_by_key(|(e, _)| std::cmp::Reverse(*e));
        for (_, (j, k)) in pairs {
            let (rs, targets) = (
                self.scoring,
                [self.rs.fits[j].target, self.rs.fits[k].target],
            );
            let counters: Vec<String> = self.counters.iter().map(|(id, _)| id.clone()).collect();
            let joint = partial(rs, &targets, &counters, &self.clock_rules);
            let mut points: Vec<Vec<Value>> = Vec::new();
            for vj in self.plain_grid(j) {
                for vk in self.plain_grid(k) {
                    let mut p = cur.to_vec();
                    p[j] = vj.clone();
                    p[k] = vk;
                    points.push(p);
                }
            }
            self.evaluate_with(cur, &points, Around::Given(&joint))?;
            let mut best: Option<(u64, &Vec<Value>)> = None;
            for p in &points {
                let s = self.point(p).agreement.score();
                if s > now && best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, p));
                }
            }
            if let Some((_, p)) = best {
                return Ok(Some(vec![(j, p[j].clone()), (k, p[k].clone())]));
            }
        }
        Ok(None)
    }

    /// The evidence that fits `j` and `k` are worth scanning together at
    /// `cur`: the readings that disagree, of the counter and clock rules
    /// that read both, and the scored games whose end disagrees by an
    /// adjudication that reads both (the one that ends the game wrongly,
    /// or one the record claims). A rule that reads one of them only is
    /// scanned with that fit alone already. A pair is scanned from
    /// [`PAIR_EVIDENCE`] on: where all agree the pair's rules are at their
    /// most already; one disagreement alone is a game's, not a
    /// convention's.
    fn evidence(&self, cur: &[Value], j: usize, k: usize) -> u64 {
        let reads = |id: &String| self.reading[j].contains(id) && self.reading[k].contains(id);
        let p = &self.point(cur).summary;
        let wrong = |list: &[u64], idx: usize| list.get(idx).copied().unwrap_or(0);
        let counters: u64 = (self.counters.iter().enumerate())
            .filter(|(_, (id, _))| reads(id))
            .map(|(i, _)| wrong(&p.counter_wrong, i))
            .sum();
        let clocks: u64 = (self.clock_rules.iter().enumerate())
            .filter(|(_, id)| reads(id))
            .map(|(i, _)| wrong(&p.clock_wrong, i))
            .sum();
        // a scored game whose end disagrees counts where its findings name
        // a rule that reads the pair: the adjudication that ends it wrongly,
        // or one the record claims and none computed
        let ends: u64 = (p.blamed.iter())
            .filter(|(blamed, _)| blamed.iter().any(reads))
            .map(|(_, n)| n)
            .sum();
        counters + clocks + ends
    }

    /// Evaluate the points not yet in the cache, each of which differs from
    /// `cur` (evaluated) only in the fits `around` names (in parallel).
    pub(super) fn evaluate_with(
        &mut self,
        cur: &[Value],
        points: &[Vec<Value>],
        around: Around<'_>,
    ) -> Result<(), FitError> {
        let todo: Vec<&Vec<Value>> = points
            .iter()
            .filter(|p| !self.cache.contains_key(&Self::key(p)))
            .collect();
        if todo.is_empty() {
            return self.evaluate_all(&[cur.to_vec()]);
        }
        if self.blocks.is_some() {
            return self.pass_with(cur, &todo, around);
        }
        self.keep_lets_at(cur)?;
        let this = &*self;
        let base: &Point = this.point(cur);
        let lets = this.base_lets.as_ref().map(|b| &b.lets[..]);
        let joint = match around {
            Around::Fit(k) => &this.partials[k],
            Around::Given(p) => p,
        };
        let done = this.evaluate_scan(base, cur, &todo, joint, lets)?;
        let keys: Vec<String> = todo.iter().map(|p| Self::key(p)).collect();
        for (key, mut p) in keys.into_iter().zip(done) {
            p.strip();
            self.cache.insert(key, p);
        }
        (self.tick)(self.cache.len());
        Ok(())
    }
}
