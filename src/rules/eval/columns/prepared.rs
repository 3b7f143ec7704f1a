//! A game's moves, and what evaluating a game at many points of values (a
//! fit's search) reads again at each one and needs only once: its moves'
//! facts, its clocks under each time control asked, and its fields'
//! columns.

use std::sync::{Arc, Mutex};

use super::col::Col;
use crate::facts::clock::{ClockPly, TimeControlDef};
use crate::timeline::{Data, Kind, MoveFacts, MoveField, Timeline};

/// A game's moves, in order: each one's facts and its event's index.
pub(in crate::rules::eval) struct Moves<'t> {
    pub(in crate::rules::eval) facts: Vec<MoveFacts<'t>>,
    pub(in crate::rules::eval) events: Vec<usize>,
}

/// The game's moves, whatever the plan (`None` where a move event is not
/// a move).
pub(in crate::rules::eval) fn moves<'t>(tl: &Timeline<'t>) -> Option<Moves<'t>> {
    // made at their size: a vector grown move by move would allocate
    // again as the game goes on
    let n = tl.events.iter().filter(|e| e.kind == Kind::Move).count();
    let mut moves = Moves {
        facts: Vec::with_capacity(n),
        events: Vec::with_capacity(n),
    };
    for (i, e) in tl.events.iter().enumerate() {
        if e.kind != Kind::Move {
            continue;
        }
        let Data::Move(p) = &e.data else {
            return None;
        };
        moves.facts.push(tl.move_facts(p));
        moves.events.push(i);
    }
    Some(moves)
}

/// A game's moves' facts and its clocks, kept between evaluations.
pub struct Prepared<'t> {
    pub(in crate::rules::eval) rows: Option<Moves<'t>>,
    /// Each time control asked (its name aside) and the clocks under it.
    clocks: Mutex<Vec<(TimeControlDef, Arc<Vec<ClockPly>>)>>,
    /// Each field of the move asked that is not a clock's, as a column.
    fields: Mutex<Vec<(MoveField, Arc<Col>)>>,
}

impl<'t> Prepared<'t> {
    pub fn new(tl: &Timeline<'t>) -> Prepared<'t> {
        Prepared {
            rows: moves(tl),
            clocks: Mutex::new(Vec::new()),
            fields: Mutex::new(Vec::new()),
        }
    }

    /// The game's clocks under `tc`, reconstructed the first time it is
    /// asked.
    pub(in crate::rules::eval) fn clock(
        &self,
        tc: &TimeControlDef,
        tl: &Timeline<'_>,
    ) -> Arc<Vec<ClockPly>> {
        let same = |a: &TimeControlDef| {
            TimeControlDef {
                name: String::new(),
                ..a.clone()
            } == TimeControlDef {
                name: String::new(),
                ..tc.clone()
            }
        };
        if let Ok(kept) = self.clocks.lock()
            && let Some((_, c)) = kept.iter().find(|(t, _)| same(t))
        {
            return c.clone();
        }
        let made = Arc::new(crate::facts::clock::reconstruct(tc, tl));
        if let Ok(mut kept) = self.clocks.lock() {
            kept.push((tc.clone(), made.clone()));
        }
        made
    }
}

impl Prepared<'_> {
    /// The column of field `f` (not a clock's: it does not depend on the
    /// time control), made by `make` the first time it is asked.
    pub(in crate::rules::eval) fn field(
        &self,
        f: MoveField,
        make: impl FnOnce() -> Col,
    ) -> Arc<Col> {
        if let Ok(kept) = self.fields.lock()
            && let Some((_, c)) = kept.iter().find(|(g, _)| *g == f)
        {
            return c.clone();
        }
        let made = Arc::new(make());
        if let Ok(mut kept) = self.fields.lock() {
            kept.push((f, made.clone()));
        }
        made
    }
}

impl std::fmt::Debug for Prepared<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("moves", &self.rows.as_ref().map(|m| m.facts.len()))
            .finish()
    }
}
