//! The stateful calls over the moves: `streak`, `count` and `sum` counted
//! on numbers, one loop for each function; the others stepped as the walk
//! steps them.

use std::borrow::Cow;

use super::col::{Col, DICT_MOST, typed};
use super::cols::Cols;
use super::column::{Buf, Column, settled};
use crate::base::value::{Text, Value};
use crate::rules::analysis::{Stateful, StatefulFn};
use crate::rules::eval::ctx::Slot;
use crate::rules::eval::typed::{Num, Truth};

/// A move's three truths of a stateful call, as bits of one byte: its
/// `reset` holds, its `over` holds (or it has none), its argument holds.
const RESET: u8 = 1;
const OVER: u8 = 2;
const YES: u8 = 4;

/// The column of a `streak`, `count` or `sum` over the moves of `mask`
/// (each move's [`RESET`], [`OVER`] and [`YES`]): each move's value is `0`
/// where it resets, else `step` of the move, its bits and the value before
/// it for the move's key (`per`: each move's key and how many keys there
/// are; a single count without it), which starts at `0`.
#[inline(always)]
fn count_up(
    mask: &[u8],
    per: Option<(&[usize], usize)>,
    step: impl Fn(usize, u8, f64) -> f64,
) -> Column<Num> {
    let mut out: Buf<Num> = Buf::with_capacity(mask.len());
    match per {
        None => {
            let mut v = 0.0;
            out.extend(mask.iter().enumerate().map(|(r, &m)| {
                v = if m & RESET != 0 { 0.0 } else { step(r, m, v) };
                Num::Is(v)
            }));
        }
        Some((keys, states)) => {
            debug_assert_eq!(keys.len(), mask.len());
            let mut state = vec![0.0f64; states];
            out.extend(keys.iter().zip(mask).enumerate().map(|(r, (&k, &m))| {
                let before = state.get(k).copied().unwrap_or(0.0);
                let v = if m & RESET != 0 {
                    0.0
                } else {
                    step(r, m, before)
                };
                if let Some(s) = state.get_mut(k) {
                    *s = v;
                }
                Num::Is(v)
            }));
        }
    }
    // a count that stays the same throughout (no flag fell, no streak
    // began) is one value
    settled(out)
}

impl Cols<'_, '_, '_> {
    /// A stateful call's values over the moves, stepped as
    /// [`Ctx::advance_one`] steps it (`streak`, `count` and `sum` on
    /// numbers, by [`Cols::counter`]; the others through [`Slot::step`]).
    pub(super) fn stateful(&self, s: &Stateful) -> Col {
        if matches!(
            s.func,
            StatefulFn::Streak | StatefulFn::Count | StatefulFn::Sum
        ) {
            return Col::N(self.counter(s));
        }
        // `since` reads its argument as a truth, `last` and `previous` as
        // the value
        enum Arg<'a> {
            Truth(Cow<'a, Column<Truth>>),
            Value(Cow<'a, Col>),
        }
        let reset = s.reset.as_ref().map(|e| self.truth(e));
        let over = s.over.as_ref().map(|e| self.truth(e));
        let arg = match s.func {
            StatefulFn::Since => Arg::Truth(self.truth(&s.arg)),
            _ => Arg::Value(self.value(&s.arg)),
        };
        let per = s.per.as_ref().map(|e| self.value(e));
        let mut slot = Slot::default();
        let mut values: Buf<Value> = Buf::with_capacity(self.n());
        for r in 0..self.n() {
            let reset = reset.as_ref().is_some_and(|c| *c.at(r) == Truth::True);
            let over = over.as_ref().is_none_or(|c| *c.at(r) == Truth::True);
            let arg = match &arg {
                Arg::Truth(c) => Value::Bool(*c.at(r) == Truth::True),
                Arg::Value(c) => c.value_at(r),
            };
            let key = per.as_ref().map(|c| c.value_at(r));
            slot.step(s.func, reset, over, arg, key.as_ref());
            values.push(slot.current.clone());
        }
        typed(values.drain(..))
    }

    /// `streak`, `count` and `sum` over the moves: [`Slot::step`] on
    /// numbers (its state is none, then a number, for each key; `0` when
    /// none), with each `per` key by its text, as [`Slot::step`] keys it.
    fn counter(&self, s: &Stateful) -> Column<Num> {
        let n = self.n();
        let reset = s.reset.as_ref().map(|e| self.truth(e));
        let over = s.over.as_ref().map(|e| self.truth(e));
        let (truths, nums) = match s.func {
            StatefulFn::Sum => (None, Some(self.num(&s.arg))),
            _ => (Some(self.truth(&s.arg)), None),
        };
        // A count that can never move from its start: reset at every
        // move, never `over`, (a streak or count) never its argument, or
        // (a sum) adding nothing at every move (zero, or what is not a
        // number). Each move's value is then the start, `0`, as the loops
        // below would give it at every move.
        let never = |c: &Option<Cow<'_, Column<Truth>>>| matches!(c.as_deref(), Some(Column::K(t)) if *t != Truth::True);
        let adds_nothing = matches!(
            nums.as_deref(),
            Some(Column::K(x)) if !matches!(x, Num::Is(v) if *v != 0.0)
        );
        if matches!(reset.as_deref(), Some(Column::K(Truth::True)))
            || never(&over)
            || never(&truths)
            || adds_nothing
        {
            return Column::K(Num::Is(0.0));
        }
        // each move's key, as the place of its text among the keys met
        let mut keys: Vec<Text> = Vec::new();
        let mut key = |v: &Value| {
            let display;
            let text = match v {
                Value::Str(t) => t.as_str(),
                k => {
                    display = k.display();
                    &display
                }
            };
            match keys.iter().position(|k| k.as_str() == text) {
                Some(at) => at,
                None => {
                    keys.push(match v {
                        Value::Str(t) => t.clone(),
                        _ => text.into(),
                    });
                    keys.len() - 1
                }
            }
        };
        let key_of: Option<Vec<usize>> = s.per.as_ref().map(|e| match &*self.value(e) {
            // a coded column's keys found once for each of its values
            Col::D(d) => {
                let of: smallvec::SmallVec<[usize; DICT_MOST]> =
                    d.values.iter().map(&mut key).collect();
                d.codes.iter().map(|&c| of[usize::from(c)]).collect()
            }
            per => (0..n).map(|r| key(&per.value_ref(r))).collect(),
        });
        // each move's truths as the bits of one byte, set a column at a
        // time, so that the loops below read one byte a move
        let mut mask: Buf<u8> = Buf::with_capacity(n);
        mask.resize(n, if over.is_none() { OVER } else { 0 });
        for (c, bit) in [(&reset, RESET), (&over, OVER), (&truths, YES)] {
            match c.as_deref() {
                None => {}
                Some(Column::K(Truth::True)) => mask.iter_mut().for_each(|m| *m |= bit),
                Some(Column::K(_)) => {}
                Some(Column::C(v)) => {
                    for (m, t) in mask.iter_mut().zip(v.iter()) {
                        *m |= u8::from(*t == Truth::True) * bit;
                    }
                }
            }
        }
        let num = |r: usize| match nums.as_ref().map(|c| *c.at(r)) {
            Some(Num::Is(x)) => x,
            _ => 0.0,
        };
        // one loop made for each function, as `Slot::step` steps it: the
        // value after a move that does not reset the count, from the one
        // before it
        let per = key_of.as_deref().map(|of| (of, keys.len()));
        match s.func {
            StatefulFn::Streak => count_up(&mask, per, |_, m, before| {
                if m & OVER == 0 {
                    before
                } else if m & YES != 0 {
                    before + 1.0
                } else {
                    0.0
                }
            }),
            StatefulFn::Count => count_up(&mask, per, |_, m, before| {
                if m & (OVER | YES) == OVER | YES {
                    before + 1.0
                } else {
                    before
                }
            }),
            StatefulFn::Sum => count_up(&mask, per, |r, m, before| {
                if m & OVER != 0 {
                    before + num(r)
                } else {
                    before
                }
            }),
            _ => count_up(&mask, per, |_, _, before| before),
        }
    }
}
