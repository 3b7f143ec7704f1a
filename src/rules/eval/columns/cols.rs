//! A view of a game's columns ([`Cols`]) for evaluating one expression,
//! and its leaves: `let`s, stateful calls, constants, the move's fields,
//! and the expressions walked at each move.

use std::borrow::Cow;

use super::col::{Col, typed};
use super::column::Column;
use super::fields::field_column;
use crate::base::value::Value;
use crate::rules::analysis::{CExpr, Detector, Stateful};
use crate::rules::eval::columnar::scalar;
use crate::rules::eval::ctx::{Ctx, Run, at_ply};
use crate::rules::eval::detectors::hidden_book_value;
use crate::timeline::{MoveFacts, MoveField};

/// A view of a game's columns for evaluating one expression: the moves,
/// the switches, the `let`s' columns (a shadow's over the real pass's), and
/// the columns of the stateful calls of the expression.
#[derive(Clone, Copy)]
pub(super) struct Cols<'c, 'r, 't> {
    pub(super) run: &'c Run<'c, 't>,
    pub(super) rows: &'c [MoveFacts<'r>],
    /// Each move's event in the timeline.
    pub(super) events: &'c [usize],
    pub(super) switches: &'c [bool],
    pub(super) lets: &'c [Option<Col>],
    /// A shadow's `let`s where they differ from the real pass's.
    pub(super) overlay: &'c [Option<Col>],
    pub(super) states: &'c [(usize, Col)],
    /// The move's fields the columns read, made once per game (or once
    /// per search).
    pub(super) fields: &'c [(MoveField, std::sync::Arc<Col>)],
    /// Another run's `let` columns, read where `lets` has none and the
    /// mask says so ([`GameColumns::let_col`]).
    pub(super) given: Option<(&'c [Option<Col>], &'c [bool])>,
    /// Whether the `let` or condition being evaluated calls a detector
    /// anywhere ([`Cols::unless`] looks for one only then).
    pub(super) detectors: bool,
}

/// What a column that cannot be read gives (a `let` or slot the ruleset
/// does not have, which the analyzer and [`Columnar`] rule out).
static NONE: Col = Col::V(Column::K(Value::None));

impl Cols<'_, '_, '_> {
    pub(super) fn n(&self) -> usize {
        self.rows.len()
    }

    /// A `let`'s column: its stateful calls' columns first, in order, then
    /// its expression over them.
    pub(super) fn let_column(&self, e: &CExpr, calls: &[Stateful]) -> Col {
        let mut states: smallvec::SmallVec<[(usize, Col); 4]> =
            calls.iter().map(|s| (s.slot, self.stateful(s))).collect();
        // a `let` that is one stateful call is its column
        if let CExpr::Stateful(s) = e
            && let Some(at) = states.iter().position(|(slot, _)| *slot == s.slot)
        {
            return states.swap_remove(at).1;
        }
        let with = Cols {
            states: &states,
            ..*self
        };
        with.value(e).into_owned()
    }

    pub(super) fn let_col(&self, l: usize) -> &Col {
        self.overlay
            .get(l)
            .and_then(Option::as_ref)
            .or_else(|| self.lets.get(l).and_then(Option::as_ref))
            .or_else(|| {
                let (cols, take) = self.given?;
                if *take.get(l)? {
                    cols.get(l)?.as_ref()
                } else {
                    None
                }
            })
            .unwrap_or(&NONE)
    }

    pub(super) fn state(&self, slot: usize) -> &Col {
        self.states
            .iter()
            .find(|(s, _)| *s == slot)
            .map_or(&NONE, |(_, c)| c)
    }

    /// A node that is the same at every move (a literal, a constant, a
    /// switch, a field of the game, a list of literals), as the walk gives
    /// it.
    pub(super) fn scalar(&self, e: &CExpr) -> Value {
        let (mut notes, mut evidence) = (Vec::new(), Vec::new());
        Ctx::stateless(self.run, self.switches, 0, None, &mut notes, &mut evidence).eval(e)
    }

    /// An expression that reads no `let` and no stateful call, walked at
    /// each move ([`Ctx::eval`] at the move's event). A detector whose
    /// parameters are the same at every move is given them found once.
    /// What a detector notes or finds is not kept: the per-move pass
    /// evaluates a condition that calls one again where it decides.
    pub(super) fn walk(&self, e: &CExpr) -> Col {
        let given: Option<(Detector, Vec<(&str, Value)>)> = match e {
            CExpr::Detector(d, params) if params.iter().all(|(_, p)| scalar(p)) => Some((
                *d,
                params
                    .iter()
                    .map(|(k, p)| (k.as_str(), self.scalar(p)))
                    .collect(),
            )),
            _ => None,
        };
        let (mut notes, mut evidence) = (Vec::new(), Vec::new());
        // the hidden book: in a game where no move can be flagged, each move
        // `false` where the sources say whether it was searched and none
        // elsewhere (what `hidden_book_value` gives an unflagged
        // assessment); else the game's assessment found once, then read at
        // each move (as the detector reads it)
        if let (Some((Detector::HiddenBook, given)), Some(tl)) = (&given, self.run.tl) {
            let first = tl.replay.first_ply;
            let params = crate::facts::hidden_book::params(given);
            if let Some(known) = crate::facts::hidden_book::unflagged(tl, &params) {
                return typed(self.rows.iter().map(|m| {
                    match at_ply(&known, first, m.ply.ply, |k| k.0) {
                        Some((_, true)) => Value::Bool(false),
                        _ => Value::None,
                    }
                }));
            }
            let ctx = Ctx::stateless(self.run, self.switches, 0, None, &mut notes, &mut evidence);
            let found = ctx.hidden_book(tl, given);
            return typed(
                self.rows
                    .iter()
                    .map(|m| hidden_book_value(at_ply(&found, first, m.ply.ply, |a| a.ply))),
            );
        }
        typed((0..self.n()).map(|r| {
            let i = self.events.get(r).copied().unwrap_or(0);
            let mut ctx = Ctx::stateless(
                self.run,
                self.switches,
                i,
                self.rows.get(r),
                &mut notes,
                &mut evidence,
            );
            let v = match &given {
                Some((d, given)) => ctx.detect(*d, given),
                None => ctx.eval(e),
            };
            notes.clear();
            evidence.clear();
            v
        }))
    }

    /// A field of the move, as a column: the game's, made once.
    pub(super) fn field(&self, f: MoveField) -> Cow<'_, Col> {
        match self.fields.iter().find(|(g, _)| *g == f) {
            Some((_, c)) => Cow::Borrowed(&**c),
            None => Cow::Owned(field_column(self.run, self.rows, f)),
        }
    }
}
