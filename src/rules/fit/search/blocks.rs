//! A search over a group read a block at a time: each evaluation is a pass
//! over the group's blocks, each block searched by a search of its own
//! from the same values, and each point's sums added up over the blocks.
//! A game's score at a point is its own (the class sharing and the `let`
//! columns a block's search keeps give the same scores), so the sums are
//! the whole group's, and the descent decides as it would holding every
//! game: the same fit, with a block's games held at a time.

use super::pairs::Around;
use super::{Point, Search, Summary};
use crate::base::value::Value;
use crate::rules::fit::{Agreement, FitError, Game};

impl Agreement {
    /// Add `o`'s counts to these.
    pub(in crate::rules::fit) fn add(&mut self, o: &Agreement) {
        self.counters += o.counters;
        self.counters_of += o.counters_of;
        self.terminations += o.terminations;
        self.terminations_of += o.terminations_of;
        self.clocks += o.clocks;
        self.clocks_of += o.clocks_of;
        self.tags += o.tags;
        self.tags_of += o.tags_of;
    }
}

impl Point {
    /// A point of a group read in blocks: its sums only, no game's.
    fn summed(agreement: Agreement, summary: Summary) -> Point {
        Point {
            agreement,
            ends: Vec::new(),
            decidable: Vec::new(),
            games: Vec::new(),
            summary,
        }
    }
}

impl<'a> Search<'a> {
    /// The text's point, in a first pass over the blocks: which games are
    /// scored, and the point's sums.
    pub(super) fn pass_text(&mut self) -> Result<(), FitError> {
        let Some(blocks) = self.blocks else {
            return Ok(());
        };
        let text = self.text.clone();
        let (mut agreement, mut summary) = (Agreement::default(), Summary::default());
        let mut scored: Vec<bool> = Vec::new();
        let this = &*self;
        blocks.pass(&mut |games| {
            let b = this.block(games, None)?;
            let at = b.point(&text);
            agreement.add(&at.agreement);
            summary.add(&at.summary);
            scored.extend(&b.scored);
            Ok(())
        })?;
        self.all_scored = scored;
        self.cache
            .insert(Self::key(&text), Point::summed(agreement, summary));
        (self.tick)(self.cache.len());
        Ok(())
    }

    /// A search of one block of the group, from this one's values, the
    /// block's first game the group's `from`th (none: the first pass, which
    /// finds which games are scored).
    fn block<'b>(
        &'b self,
        games: &'b [&'b Game],
        from: Option<usize>,
    ) -> Result<Search<'b>, FitError> {
        let scored =
            match from {
                Some(i) => Some(self.all_scored.get(i..i + games.len()).ok_or_else(|| {
                    FitError::Reread {
                        group: String::new(),
                        message: "the games changed while they were fitted".into(),
                    }
                })?),
                None => None,
            };
        let setup = super::Setup {
            rs: self.rs,
            scoring: self.scoring,
            forced: self.forced,
            detectors: self.detectors,
            tick: &|_| {},
            ties: self.ties,
            text: self.text.clone(),
            grids: self.grids.clone(),
            scored,
        };
        Search::new(setup, games, None)
    }

    /// `points` (none in the cache) evaluated by `eval` on each block's
    /// search, in a pass over the blocks; each point's sums cached.
    fn over_blocks(
        &mut self,
        points: &[Vec<Value>],
        eval: &dyn Fn(&mut Search<'_>) -> Result<(), FitError>,
    ) -> Result<(), FitError> {
        let Some(blocks) = self.blocks else {
            return Ok(());
        };
        let mut sums: Vec<(Agreement, Summary)> = vec![Default::default(); points.len()];
        let this = &*self;
        let mut from = 0;
        blocks.pass(&mut |games| {
            let mut b = this.block(games, Some(from))?;
            from += games.len();
            eval(&mut b)?;
            for (p, (a, s)) in points.iter().zip(sums.iter_mut()) {
                let at = b.point(p);
                a.add(&at.agreement);
                s.add(&at.summary);
            }
            Ok(())
        })?;
        for (p, (agreement, summary)) in points.iter().zip(sums) {
            self.cache
                .insert(Self::key(p), Point::summed(agreement, summary));
        }
        (self.tick)(self.cache.len());
        Ok(())
    }

    /// [`Search::evaluate_all`] over the blocks.
    pub(super) fn pass_all(&mut self, points: &[Vec<Value>]) -> Result<(), FitError> {
        let mut todo: Vec<Vec<Value>> = Vec::new();
        for p in points {
            if !self.cache.contains_key(&Self::key(p)) && !todo.contains(p) {
                todo.push(p.clone());
            }
        }
        if todo.is_empty() {
            return Ok(());
        }
        let all = todo.clone();
        self.over_blocks(&todo, &move |b| b.evaluate_all(&all))
    }

    /// [`Search::evaluate_with`] over the blocks: `cur` too, where it is
    /// not in the cache.
    pub(super) fn pass_with(
        &mut self,
        cur: &[Value],
        todo: &[&Vec<Value>],
        around: Around<'_>,
    ) -> Result<(), FitError> {
        let mut points: Vec<Vec<Value>> = todo.iter().map(|p| (*p).clone()).collect();
        if !self.cache.contains_key(&Self::key(cur)) {
            points.push(cur.to_vec());
        }
        let scan: Vec<Vec<Value>> = todo.iter().map(|p| (*p).clone()).collect();
        let eval = |b: &mut Search<'_>| b.evaluate_with(cur, &scan, around);
        self.over_blocks(&points, &eval)
    }

    /// Call `each` with a search that holds its games' scores at the
    /// text's values and at `cur`: this one, or, read a block at a time,
    /// each block's in a final pass.
    pub(in crate::rules::fit) fn each_block(
        &mut self,
        cur: &[Value],
        each: &mut dyn FnMut(&Search<'_>) -> Result<(), FitError>,
    ) -> Result<(), FitError> {
        let points = [self.text.clone(), cur.to_vec()];
        match self.blocks {
            None => {
                self.evaluate_all(&points)?;
                each(self)
            }
            Some(blocks) => {
                let this = &*self;
                let mut from = 0;
                blocks.pass(&mut |games| {
                    let mut b = this.block(games, Some(from))?;
                    from += games.len();
                    b.evaluate_all(&points)?;
                    each(&b)
                })
            }
        }
    }
}
