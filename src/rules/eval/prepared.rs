//! What evaluating a game at many points of values (a fit's search) reads
//! again at each one and needs only once: its moves' facts, and its clocks
//! under each time control asked.

use std::sync::{Arc, Mutex};

use super::columns;
use crate::facts::clock::{ClockPly, TimeControlDef};
use crate::timeline::{MoveField, Timeline};

/// A game's moves' facts and its clocks, kept between evaluations.
pub struct Prepared<'t> {
    pub(super) rows: Option<columns::Moves<'t>>,
    /// Each time control asked (its name aside) and the clocks under it.
    clocks: Mutex<Vec<(TimeControlDef, Arc<Vec<ClockPly>>)>>,
    /// Each field of the move asked that is not a clock's, as a column.
    fields: Mutex<Vec<(MoveField, Arc<columns::Col>)>>,
}

impl<'t> Prepared<'t> {
    pub fn new(tl: &Timeline<'t>) -> Prepared<'t> {
        Prepared {
            rows: columns::moves(tl),
            clocks: Mutex::new(Vec::new()),
            fields: Mutex::new(Vec::new()),
        }
    }

    /// The game's clocks under `tc`, reconstructed the first time it is
    /// asked.
    pub(super) fn clock(&self, tc: &TimeControlDef, tl: &Timeline<'_>) -> Arc<Vec<ClockPly>> {
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
    pub(super) fn field(
        &self,
        f: MoveField,
        make: impl FnOnce() -> columns::Col,
    ) -> Arc<columns::Col> {
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
