//! A node's values over the moves, in the form that holds them exactly
//! ([`Col`]): numbers, truths, a few values coded, or values; and how
//! values are typed into one.

use std::borrow::Cow;

use super::column::{Buf, Column, Pooled, same_num, settled};
use crate::base::value::Value;
use crate::rules::eval::typed::identical;
use crate::rules::eval::typed::{Num, Truth};

/// A `let`'s or a node's values over the moves, in the form that holds them
/// exactly: numbers (a move's value is [`Num::value`]), truths (its value is
/// [`Truth::value`]; never `Other`), a few values coded ([`Dict`]), or
/// values.
#[derive(Debug, Clone)]
pub(in crate::rules::eval) enum Col {
    N(Column<Num>),
    T(Column<Truth>),
    D(Dict),
    V(Column<Value>),
}

/// The most values a [`Dict`] holds: a column with more is held as values.
pub(super) const DICT_MOST: usize = 16;

/// A column of a few distinct values (texts, a detector's truth or none, a
/// side's name): each one once, and each move's place among them. A node
/// over such columns is worked out once for each value (or pair of
/// values), not at every move, and no value is copied move by move.
#[derive(Debug, Clone)]
pub(in crate::rules::eval) struct Dict {
    /// The distinct values, in the order met; no two [`identical`]. (A
    /// vector of the pool, not a small vector in place: every column, and
    /// every move of one from node to node, would be three times larger.)
    pub(super) values: Buf<Value>,
    /// Each move's value, as its place in `values`.
    pub(super) codes: Buf<u8>,
}

impl Dict {
    #[inline]
    pub(super) fn at(&self, r: usize) -> &Value {
        &self.values[usize::from(self.codes[r])]
    }

    /// Each move's `f` of its value, `f` found once for each value.
    pub(super) fn map<U: Pooled + Copy>(&self, f: impl Fn(&Value) -> U) -> Column<U> {
        let of: smallvec::SmallVec<[U; DICT_MOST]> = self.values.iter().map(f).collect();
        settled(self.codes.iter().map(|&c| of[usize::from(c)]).collect())
    }
}

/// Values as [`typed`] types them, from values borrowed or made move by
/// move: numbers where every one is a number, none or unknown; truths
/// where every one is a boolean or unknown; coded where there are few
/// distinct ones; else as they are.
pub(super) fn coded<'v>(values: impl Iterator<Item = Cow<'v, Value>>) -> Col {
    let mut values = values;
    let mut dict: Buf<Value> = Buf::with_capacity(4);
    let mut codes: Buf<u8> = Buf::with_capacity(values.size_hint().0);
    // the last move's value first: a value often runs over several moves
    let mut last = 0;
    while let Some(v) = values.next() {
        let found = match dict.get(last) {
            Some(d) if same_value(d, &v) => Some(last),
            _ => dict.iter().position(|d| same_value(d, &v)),
        };
        let at = match found {
            Some(at) => at,
            None if dict.len() < DICT_MOST => {
                dict.push(v.into_owned());
                dict.len() - 1
            }
            None => {
                // too many to code: every value as it is
                let all: Buf<Value> = codes
                    .iter()
                    .map(|&c| dict[usize::from(c)].clone())
                    .chain(std::iter::once(v.into_owned()))
                    .chain(values.map(Cow::into_owned))
                    .collect();
                return plain(all);
            }
        };
        codes.push(at as u8);
        last = at;
    }
    retyped(Dict {
        values: dict,
        codes,
    })
}

/// A coded column as [`typed`] types it: numbers or truths where its values
/// are all of them.
pub(super) fn retyped(dict: Dict) -> Col {
    // one value at every move
    if dict.values.len() == 1 && !dict.codes.is_empty() {
        return typed_one(dict.values[0].clone());
    }
    if dict
        .values
        .iter()
        .all(|v| matches!(v, Value::Num(_) | Value::None | Value::Unknown))
    {
        Col::N(dict.map(Num::of))
    } else if dict
        .values
        .iter()
        .all(|v| matches!(v, Value::Bool(_) | Value::Unknown))
    {
        Col::T(dict.map(Truth::of))
    } else {
        Col::D(dict)
    }
}

/// [`identical`], each kind compared in place (a text by its address
/// first); values of two kinds are never the same.
#[inline]
pub(super) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::None, Value::None) | (Value::Unknown, Value::Unknown) => true,
        (Value::Num(x), Value::Num(y)) => x.to_bits() == y.to_bits(),
        (Value::Str(x), Value::Str(y)) => {
            let (x, y) = (x.as_str(), y.as_str());
            std::ptr::eq(x, y) || x == y
        }
        (Value::List(_), Value::List(_)) => identical(a, b),
        _ => false,
    }
}

impl Col {
    /// The value at move `r`.
    #[inline]
    pub(in crate::rules::eval) fn value_at(&self, r: usize) -> Value {
        match self {
            Col::N(c) => c.at(r).value(),
            Col::T(c) => c.at(r).value(),
            Col::D(d) => d.at(r).clone(),
            Col::V(c) => c.at(r).clone(),
        }
    }

    /// The value of a column that has one for every move.
    pub(super) fn one(&self) -> Option<Value> {
        match self {
            Col::N(Column::K(x)) => Some(x.value()),
            Col::T(Column::K(t)) => Some(t.value()),
            Col::V(Column::K(v)) => Some(v.clone()),
            _ => None,
        }
    }

    /// As [`Num::of`] reads each value.
    pub(super) fn nums(&self) -> Cow<'_, Column<Num>> {
        match self {
            Col::N(c) => Cow::Borrowed(c),
            Col::T(c) => Cow::Owned(c.map(|t| match t {
                Truth::Unknown => Num::Unknown,
                _ => Num::Other,
            })),
            Col::D(d) => Cow::Owned(d.map(Num::of)),
            Col::V(c) => Cow::Owned(c.map(Num::of)),
        }
    }

    /// As [`Truth::of`] reads each value.
    pub(super) fn truths(&self) -> Cow<'_, Column<Truth>> {
        match self {
            Col::N(c) => Cow::Owned(c.map(|n| match n {
                Num::Unknown => Truth::Unknown,
                _ => Truth::Other,
            })),
            Col::T(c) => Cow::Borrowed(c),
            Col::D(d) => Cow::Owned(d.map(Truth::of)),
            Col::V(c) => Cow::Owned(c.map(Truth::of)),
        }
    }

    /// A truth column as a value's: `Other` is `false`.
    pub(super) fn of_truths(c: Column<Truth>) -> Col {
        let norm = |t: Truth| if t == Truth::Other { Truth::False } else { t };
        Col::T(match c {
            Column::K(t) => Column::K(norm(t)),
            Column::C(mut v) => {
                v.iter_mut().for_each(|t| *t = norm(*t));
                Column::C(v)
            }
        })
    }

    /// A truth from the two columns' values at each move.
    pub(super) fn zip_values(
        &self,
        o: &Col,
        n: usize,
        f: impl Fn(&Value, &Value) -> Truth,
    ) -> Column<Truth> {
        match (self, o) {
            (Col::V(Column::K(x)), Col::V(Column::K(y))) => Column::K(f(x, y)),
            // coded against coded or one value: `f` of each pair of
            // values, once
            (Col::D(x), y) if let Some(y) = y.one() => x.map(|x| f(x, &y)),
            (x, Col::D(y)) if let Some(x) = x.one() => y.map(|y| f(&x, y)),
            (Col::D(x), Col::D(y)) => {
                let ny = y.values.len();
                let of: Vec<Truth> = x
                    .values
                    .iter()
                    .flat_map(|a| y.values.iter().map(move |b| (a, b)))
                    .map(|(a, b)| f(a, b))
                    .collect();
                settled(
                    x.codes
                        .iter()
                        .zip(y.codes.iter())
                        .map(|(&a, &b)| of[usize::from(a) * ny + usize::from(b)])
                        .collect(),
                )
            }
            _ => settled(
                (0..n)
                    .map(|r| f(&self.value_ref(r), &o.value_ref(r)))
                    .collect(),
            ),
        }
    }

    /// The value at move `r`, borrowed where the column holds values.
    #[inline]
    pub(super) fn value_ref(&self, r: usize) -> Cow<'_, Value> {
        match self {
            Col::V(c) => Cow::Borrowed(c.at(r)),
            Col::D(d) => Cow::Borrowed(d.at(r)),
            _ => Cow::Owned(self.value_at(r)),
        }
    }

    /// Whether the two hold the same values at every one of `n` moves, to
    /// every reader ([`identical`]).
    #[inline]
    pub(super) fn same(&self, o: &Col, n: usize) -> bool {
        match (self, o) {
            (Col::N(a), Col::N(b)) => (0..n).all(|r| same_num(a.at(r), b.at(r))),
            (Col::T(a), Col::T(b)) => (0..n).all(|r| a.at(r) == b.at(r)),
            _ => (0..n).all(|r| identical(&self.value_ref(r), &o.value_ref(r))),
        }
    }

    /// The moves (of `n`) at which the two columns differ, as [`identical`]
    /// tells their values apart: `at` is called with each, in order.
    #[inline]
    pub(super) fn differences(&self, o: &Col, n: usize, mut at: impl FnMut(usize)) {
        match (self, o) {
            (Col::N(a), Col::N(b)) => (0..n).filter(|&r| !same_num(a.at(r), b.at(r))).for_each(at),
            (Col::T(a), Col::T(b)) => (0..n).filter(|&r| a.at(r) != b.at(r)).for_each(at),
            _ => {
                for r in 0..n {
                    if !identical(&self.value_ref(r), &o.value_ref(r)) {
                        at(r);
                    }
                }
            }
        }
    }
}

/// A column's numbers, borrowed where it holds them.
pub(super) fn cow_nums(c: Cow<'_, Col>) -> Cow<'_, Column<Num>> {
    match c {
        Cow::Borrowed(c) => c.nums(),
        Cow::Owned(Col::N(n)) => Cow::Owned(n),
        Cow::Owned(c) => Cow::Owned(c.nums().into_owned()),
    }
}

/// A column's truths, borrowed where it holds them.
pub(super) fn cow_truths(c: Cow<'_, Col>) -> Cow<'_, Column<Truth>> {
    match c {
        Cow::Borrowed(c) => c.truths(),
        Cow::Owned(Col::T(t)) => Cow::Owned(t),
        Cow::Owned(c) => Cow::Owned(c.truths().into_owned()),
    }
}

/// Values held as numbers where every one is a number, none or unknown;
/// as truths where every one is a boolean or unknown; else as they are.
pub(super) fn typed(values: impl Iterator<Item = Value>) -> Col {
    // numbers while they last, then values, coded where they are few
    let mut nums: Buf<Num> = Buf::with_capacity(values.size_hint().0);
    let mut values = values.peekable();
    while let Some(v @ (Value::Num(_) | Value::None | Value::Unknown)) = values.peek() {
        nums.push(Num::of(v));
        values.next();
    }
    if values.peek().is_none() {
        return Col::N(settled(nums));
    }
    coded(
        nums.iter()
            .map(|n| Cow::Owned(n.value()))
            .chain(values.map(Cow::Owned)),
    )
}

/// Values typed as [`typed`] types them, none of them coded.
fn plain(all: Buf<Value>) -> Col {
    if all
        .iter()
        .all(|v| matches!(v, Value::Num(_) | Value::None | Value::Unknown))
    {
        Col::N(Column::C(all.iter().map(Num::of).collect()))
    } else if all
        .iter()
        .all(|v| matches!(v, Value::Bool(_) | Value::Unknown))
    {
        Col::T(Column::C(all.iter().map(Truth::of).collect()))
    } else {
        Col::V(Column::C(all))
    }
}

/// One value for every move, typed as [`typed`] types a column.
pub(super) fn typed_one(v: Value) -> Col {
    match v {
        Value::Num(_) | Value::None | Value::Unknown => Col::N(Column::K(Num::of(&v))),
        Value::Bool(b) => Col::T(Column::K(Truth::from(b))),
        v => Col::V(Column::K(v)),
    }
}
