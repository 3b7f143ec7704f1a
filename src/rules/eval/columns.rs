//! The rules a column at a time: each `let` on moves, and each condition of
//! a rule on moves, whose every part a column can hold (literals,
//! constants, switches, the game's fields, the move's fields, the `let`s
//! that are columns themselves, operators, `if`, the builtins of numbers,
//! and the stateful calls over them) is evaluated over all of a game's
//! moves at once, node by node. What an expression costs to interpret (its
//! dispatch, its closures, its `Value`s) is paid once per node per game,
//! and each node's work is a loop over the moves; the per-move pass then
//! reads the columns.
//!
//! Each node gives, at every move, what the walk ([`Ctx::eval`],
//! [`Ctx::num`], [`Ctx::truth`]) gives on the same expression at that move:
//! the methods below follow the walk's arms one by one, with the same
//! [`Num`] and [`Truth`] operations; a stateful call steps through the
//! same [`Slot::step`]. `tests` holds them to the walk on thousands of
//! generated expressions at each move of a game; on whole archives,
//! `tests/identical.rs` holds the outputs of S15 and of `samples/`, and
//! `tests/switches.rs` the switches' shadows.
//!
//! A column whose every move has the same value (as [`identical`] tells
//! values apart) is held as that one value, as a literal is: a field the
//! same throughout the game, a count that never moves, and any node over
//! such columns is then worked out once, not at every move.
//!
//! A switch's shadow is a set of columns too: a `let` or condition that
//! reads the flipped switch, or a shadow column, is evaluated again with the
//! switch flipped; where the result is the real pass's at every move, the
//! shadow keeps none, and what reads it is not evaluated again either.

use std::borrow::Cow;

use super::detectors::hidden_book_value;
use super::*;
use crate::base::value::Text;
use crate::timeline::MoveFacts;
use shakmaty::Color;

/// One value per move, or one value for every move.
#[derive(Debug, Clone)]
pub(super) enum Column<T: Pooled> {
    /// The same at every move.
    K(T),
    /// One per move, in order.
    C(Buf<T>),
}

impl<T: Pooled> Column<T> {
    #[inline]
    pub(super) fn at(&self, r: usize) -> &T {
        match self {
            Column::K(x) => x,
            Column::C(v) => &v[r],
        }
    }

    fn map<U: Pooled + Clone>(&self, f: impl Fn(&T) -> U) -> Column<U> {
        match self {
            Column::K(x) => Column::K(f(x)),
            Column::C(v) => settled(v.iter().map(f).collect()),
        }
    }

    fn zip<S: Pooled, U: Pooled + Clone>(
        &self,
        o: &Column<S>,
        f: impl Fn(&T, &S) -> U,
    ) -> Column<U> {
        settled(match (self, o) {
            (Column::K(x), Column::K(y)) => return Column::K(f(x, y)),
            (Column::C(a), Column::C(b)) => {
                let n = a.len().min(b.len());
                let (a, b) = (&a[..n], &b[..n]);
                (0..n).map(|i| f(&a[i], &b[i])).collect()
            }
            (Column::C(a), Column::K(y)) => a.iter().map(|x| f(x, y)).collect(),
            (Column::K(x), Column::C(b)) => b.iter().map(|y| f(x, y)).collect(),
        })
    }
}

/// A column's values: a vector taken from this thread's pool and given
/// back to it when dropped, so that once the pool holds what a game's
/// columns need, evaluating them allocates nothing, whatever the game (a
/// switch that changes something in one game and not in another makes
/// more columns there, not more allocations).
pub(super) struct Buf<T: Pooled>(Vec<T>);

/// The element types of columns, each with its thread's pool of vectors.
pub(super) trait Pooled: Sized + 'static {
    fn pool() -> &'static std::thread::LocalKey<std::cell::RefCell<Vec<Vec<Self>>>>;
    /// Whether two values of a column are the same to every reader (as
    /// [`identical`] tells them apart), for [`settled`]; values of
    /// [`Value`] are not compared (`false`).
    fn same(a: &Self, b: &Self) -> bool;
}

macro_rules! pooled {
    ($t:ty, $pool:ident, $same:expr) => {
        thread_local! {
            static $pool: std::cell::RefCell<Vec<Vec<$t>>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        impl Pooled for $t {
            fn pool() -> &'static std::thread::LocalKey<std::cell::RefCell<Vec<Vec<$t>>>> {
                &$pool
            }
            #[inline(always)]
            fn same(a: &Self, b: &Self) -> bool {
                $same(a, b)
            }
        }
    };
}
pooled!(Num, NUMS, same_num);
pooled!(Truth, TRUTHS, |a: &Truth, b: &Truth| a == b);
pooled!(Value, VALUES, |_: &Value, _: &Value| false);
pooled!(u8, CODES, |a: &u8, b: &u8| a == b);

/// The most vectors a thread's pool keeps of each type (a game's columns
/// and their shadows need about a hundred), and the largest it keeps (in
/// values): a game of many thousand plies does not leave its columns'
/// memory behind.
const POOL_BUFFERS: usize = 128;
const POOL_LARGEST: usize = 1 << 12;

impl<T: Pooled> Buf<T> {
    /// An empty vector with room for `n` values, from the pool where it
    /// has one.
    fn with_capacity(n: usize) -> Buf<T> {
        let mut v = T::pool()
            .try_with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.pop()))
            .ok()
            .flatten()
            .unwrap_or_default();
        v.reserve(n);
        Buf(v)
    }
}

impl<T: Pooled> Drop for Buf<T> {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.0);
        if v.capacity() == 0 || v.capacity() > POOL_LARGEST {
            return;
        }
        v.clear();
        let _ = T::pool().try_with(|p| {
            if let Ok(mut p) = p.try_borrow_mut()
                && p.len() < POOL_BUFFERS
            {
                p.push(v);
            }
        });
    }
}

impl<T: Pooled> FromIterator<T> for Buf<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut b = Buf::with_capacity(iter.size_hint().0);
        b.0.extend(iter);
        b
    }
}

impl<T: Pooled> std::ops::Deref for Buf<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: Pooled> std::ops::DerefMut for Buf<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<T: Pooled + Clone> Clone for Buf<T> {
    fn clone(&self) -> Self {
        self.iter().cloned().collect()
    }
}

impl<T: Pooled + std::fmt::Debug> std::fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

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

/// `if k then a else b`, move by move.
fn choose<T: Clone + Pooled>(
    k: &Column<Truth>,
    a: &Column<T>,
    b: &Column<T>,
    unknown: T,
    n: usize,
) -> Column<T> {
    let one = |k: Truth, a: &T, b: &T| match k {
        Truth::True => a.clone(),
        Truth::Unknown => unknown.clone(),
        _ => b.clone(),
    };
    // each shape its own loop (which branch is one value is not asked
    // again at every move)
    settled(match (k, a, b) {
        (Column::K(k), Column::K(a), Column::K(b)) => return Column::K(one(*k, a, b)),
        (Column::C(k), Column::C(a), Column::C(b)) => k
            .iter()
            .zip(a.iter().zip(b.iter()))
            .map(|(k, (a, b))| one(*k, a, b))
            .collect(),
        (Column::C(k), Column::K(a), Column::C(b)) => {
            k.iter().zip(b.iter()).map(|(k, b)| one(*k, a, b)).collect()
        }
        (Column::C(k), Column::C(a), Column::K(b)) => {
            k.iter().zip(a.iter()).map(|(k, a)| one(*k, a, b)).collect()
        }
        (Column::C(k), Column::K(a), Column::K(b)) => k.iter().map(|k| one(*k, a, b)).collect(),
        _ => (0..n).map(|r| one(*k.at(r), a.at(r), b.at(r))).collect(),
    })
}

/// A `let`'s or a node's values over the moves, in the form that holds them
/// exactly: numbers (a move's value is [`Num::value`]), truths (its value is
/// [`Truth::value`]; never `Other`), a few values coded ([`Dict`]), or
/// values.
#[derive(Debug, Clone)]
pub(super) enum Col {
    N(Column<Num>),
    T(Column<Truth>),
    D(Dict),
    V(Column<Value>),
}

/// The most values a [`Dict`] holds: a column with more is held as values.
const DICT_MOST: usize = 16;

/// A column of a few distinct values (texts, a detector's truth or none, a
/// side's name): each one once, and each move's place among them. A node
/// over such columns is worked out once for each value (or pair of
/// values), not at every move, and no value is copied move by move.
#[derive(Debug, Clone)]
pub(super) struct Dict {
    /// The distinct values, in the order met; no two [`identical`]. (A
    /// vector of the pool, not a small vector in place: every column, and
    /// every move of one from node to node, would be three times larger.)
    values: Buf<Value>,
    /// Each move's value, as its place in `values`.
    codes: Buf<u8>,
}

impl Dict {
    #[inline]
    fn at(&self, r: usize) -> &Value {
        &self.values[usize::from(self.codes[r])]
    }

    /// Each move's `f` of its value, `f` found once for each value.
    fn map<U: Pooled + Copy>(&self, f: impl Fn(&Value) -> U) -> Column<U> {
        let of: smallvec::SmallVec<[U; DICT_MOST]> = self.values.iter().map(f).collect();
        settled(self.codes.iter().map(|&c| of[usize::from(c)]).collect())
    }
}

/// Values as [`typed`] types them, from values borrowed or made move by
/// move: numbers where every one is a number, none or unknown; truths
/// where every one is a boolean or unknown; coded where there are few
/// distinct ones; else as they are.
fn coded<'v>(values: impl Iterator<Item = Cow<'v, Value>>) -> Col {
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
fn retyped(dict: Dict) -> Col {
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
fn same_value(a: &Value, b: &Value) -> bool {
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
    pub(super) fn value_at(&self, r: usize) -> Value {
        match self {
            Col::N(c) => c.at(r).value(),
            Col::T(c) => c.at(r).value(),
            Col::D(d) => d.at(r).clone(),
            Col::V(c) => c.at(r).clone(),
        }
    }

    /// The value of a column that has one for every move.
    fn one(&self) -> Option<Value> {
        match self {
            Col::N(Column::K(x)) => Some(x.value()),
            Col::T(Column::K(t)) => Some(t.value()),
            Col::V(Column::K(v)) => Some(v.clone()),
            _ => None,
        }
    }

    /// As [`Num::of`] reads each value.
    fn nums(&self) -> Cow<'_, Column<Num>> {
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
    fn truths(&self) -> Cow<'_, Column<Truth>> {
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
    fn of_truths(c: Column<Truth>) -> Col {
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
    fn zip_values(&self, o: &Col, n: usize, f: impl Fn(&Value, &Value) -> Truth) -> Column<Truth> {
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
    fn value_ref(&self, r: usize) -> Cow<'_, Value> {
        match self {
            Col::V(c) => Cow::Borrowed(c.at(r)),
            Col::D(d) => Cow::Borrowed(d.at(r)),
            _ => Cow::Owned(self.value_at(r)),
        }
    }

    /// Whether the two hold the same values at every one of `n` moves, to
    /// every reader ([`identical`]).
    fn same(&self, o: &Col, n: usize) -> bool {
        match (self, o) {
            (Col::N(a), Col::N(b)) => (0..n).all(|r| same_num(a.at(r), b.at(r))),
            (Col::T(a), Col::T(b)) => (0..n).all(|r| a.at(r) == b.at(r)),
            _ => (0..n).all(|r| identical(&self.value_ref(r), &o.value_ref(r))),
        }
    }

    /// The moves (of `n`) at which the two columns differ, as [`identical`]
    /// tells their values apart: `at` is called with each, in order.
    fn differences(&self, o: &Col, n: usize, mut at: impl FnMut(usize)) {
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

/// Whether two numbers of columns are the same value as [`identical`]
/// tells values apart (a number by its bits).
#[inline]
fn same_num(x: &Num, y: &Num) -> bool {
    match (x, y) {
        (Num::Is(x), Num::Is(y)) => x.to_bits() == y.to_bits(),
        (Num::Unknown, Num::Unknown) | (Num::Other, Num::Other) => true,
        _ => false,
    }
}

/// A column made move by move, held as one value where every move has the
/// same one (as [`identical`] tells values apart: `same`): a node over it
/// is then worked out once, not at every move. A game's field is often
/// the same throughout (no promotion, no mate, the engine's fields of a
/// record without comments), and what reads it stays one value too.
fn settled<T: Pooled + Clone>(v: Buf<T>) -> Column<T> {
    match v.first() {
        Some(first) if v.iter().all(|x| T::same(x, first)) => Column::K(first.clone()),
        _ => Column::C(v),
    }
}

/// A column's numbers, borrowed where it holds them.
fn cow_nums(c: Cow<'_, Col>) -> Cow<'_, Column<Num>> {
    match c {
        Cow::Borrowed(c) => c.nums(),
        Cow::Owned(Col::N(n)) => Cow::Owned(n),
        Cow::Owned(c) => Cow::Owned(c.nums().into_owned()),
    }
}

/// A column's truths, borrowed where it holds them.
fn cow_truths(c: Cow<'_, Col>) -> Cow<'_, Column<Truth>> {
    match c {
        Cow::Borrowed(c) => c.truths(),
        Cow::Owned(Col::T(t)) => Cow::Owned(t),
        Cow::Owned(c) => Cow::Owned(c.truths().into_owned()),
    }
}

/// Which `let`s and rule conditions are columns, found once per ruleset.
#[derive(Debug, Clone, Default)]
pub(super) struct Columnar {
    /// For each `let`: its stateful calls, in order, where it is a column.
    pub(super) lets: Vec<Option<Vec<Stateful>>>,
    /// For each rule: whether its condition is a column (a rule on moves
    /// whose condition is one, and which has no stateful call).
    pub(super) rules: Vec<bool>,
    /// The fields of the move the columns read, each made a column once
    /// per game.
    fields: Vec<MoveField>,
    /// For each rule, the `let`s that what it evaluates reads (its
    /// condition, result, record and message): those a column holds are
    /// put in the per-move pass's `let`s only before the rule is evaluated
    /// there.
    pub(super) rule_reads: Vec<Vec<usize>>,
    /// For each rule: whether its condition calls a detector.
    pub(super) effects: Vec<bool>,
    /// For each `let`: whether its expression calls a detector.
    let_effects: Vec<bool>,
}

impl Columnar {
    pub(super) fn of(rs: &Ruleset, rule_calls: &[Vec<usize>]) -> Columnar {
        let mut lets: Vec<Option<Vec<Stateful>>> = Vec::with_capacity(rs.lets.len());
        for l in &rs.lets {
            let column = l.on == Kind::Move && columnar(&l.expr, &lets);
            lets.push(column.then(|| {
                let mut calls = Vec::new();
                plan::stateful_calls(&l.expr, &mut calls);
                calls.into_iter().cloned().collect()
            }));
        }
        let rules: Vec<bool> = rs
            .rules
            .iter()
            .zip(rule_calls)
            .map(|(rule, calls)| {
                let when = match &rule.check {
                    Check::Adjudicate { when, .. } => when,
                    Check::Forbid {
                        on: Kind::Move,
                        when: Some(when),
                    }
                    | Check::Require {
                        on: Kind::Move,
                        when,
                    } => when,
                    _ => return false,
                };
                calls.is_empty() && columnar(when, &lets)
            })
            .collect();
        let mut fields = Vec::new();
        let mut add = |e: &CExpr| moves_fields(e, &mut fields);
        for (l, c) in rs.lets.iter().zip(&lets) {
            if c.is_some() {
                add(&l.expr);
            }
        }
        for (rule, c) in rs.rules.iter().zip(rules.iter()) {
            match &rule.check {
                Check::Adjudicate { when, .. }
                | Check::Forbid {
                    when: Some(when), ..
                }
                | Check::Require { when, .. }
                    if *c =>
                {
                    add(when)
                }
                _ => {}
            }
        }
        let rule_reads = rs
            .rules
            .iter()
            .map(|rule| Inputs::of(rule.expressions()).lets)
            .collect();
        let effects = rs
            .rules
            .iter()
            .map(|rule| match &rule.check {
                Check::Adjudicate { when, .. }
                | Check::Forbid {
                    when: Some(when), ..
                }
                | Check::Require { when, .. } => calls_detector(when),
                _ => false,
            })
            .collect();
        let let_effects = rs.lets.iter().map(|l| calls_detector(&l.expr)).collect();
        Columnar {
            lets,
            rules,
            fields,
            rule_reads,
            effects,
            let_effects,
        }
    }

    fn any(&self) -> bool {
        self.lets.iter().any(Option::is_some) || self.rules.contains(&true)
    }
}

/// Whether a column can hold `e` (on moves, given the `let`s found to be
/// columns so far): its shape is one the columns compute, from parts a
/// column can hold; or it reads no `let` and no stateful call, and is
/// walked at each move ([`Cols::walk`]: a detector, the builtins of text,
/// the fields of other events).
fn columnar(e: &CExpr, lets: &[Option<Vec<Stateful>>]) -> bool {
    let all = |es: &mut dyn Iterator<Item = &CExpr>| {
        for x in es {
            if !columnar(x, lets) {
                return false;
            }
        }
        true
    };
    let shaped = match e {
        CExpr::Lit(_) | CExpr::Const(_) | CExpr::Switch(_) | CExpr::Move(..) => true,
        CExpr::Field(k, _) => *k == Kind::Game,
        CExpr::Let(l) => lets.get(*l).is_some_and(Option::is_some),
        CExpr::List(_) => literal(e),
        CExpr::Unary(_, a) => columnar(a, lets),
        CExpr::Binary(_, a, b) | CExpr::Short(_, a, b) => {
            all(&mut [a, b].into_iter().map(|x| &**x))
        }
        CExpr::If(k, a, b) => all(&mut [k, a, b].into_iter().map(|x| &**x)),
        CExpr::Call(_, args) if compiled::num_handles(e) && numeric(e) => all(&mut args.iter()),
        CExpr::Call(..) | CExpr::Detector(..) => false,
        CExpr::Stateful(s) => {
            s.on == Kind::Move
                && all(&mut std::iter::once(&s.arg)
                    .chain([&s.over, &s.reset, &s.per].into_iter().flatten()))
        }
    };
    shaped || walked(e)
}

/// A builtin of numbers.
fn numeric(e: &CExpr) -> bool {
    matches!(
        e,
        CExpr::Call(
            Builtin::Abs
                | Builtin::Floor
                | Builtin::Ceil
                | Builtin::Round
                | Builtin::Min
                | Builtin::Max,
            _
        )
    )
}

/// Whether `e` can be walked at each move: it reads no `let` and no
/// stateful call (the walk at a move has neither).
fn walked(e: &CExpr) -> bool {
    match e {
        CExpr::Let(_) | CExpr::Stateful(_) => false,
        _ => {
            let mut ok = true;
            e.each_child(&mut |x| ok = ok && walked(x));
            ok
        }
    }
}

/// Whether `e` calls a detector (which notes why it could not decide, and
/// what it found, as it is evaluated).
pub(super) fn calls_detector(e: &CExpr) -> bool {
    match e {
        CExpr::Detector(..) => true,
        _ => {
            let mut found = false;
            e.each_child(&mut |x| found = found || calls_detector(x));
            found
        }
    }
}

/// The fields of the move `e` reads, added to `out` once each.
fn moves_fields(e: &CExpr, out: &mut Vec<MoveField>) {
    match e {
        CExpr::Move(f, _) => {
            if !out.contains(f) {
                out.push(*f);
            }
        }
        _ => e.each_child(&mut |x| moves_fields(x, out)),
    }
}

/// A node that is the same at every move ([`Cols::scalar`]).
fn scalar(e: &CExpr) -> bool {
    matches!(
        e,
        CExpr::Lit(_) | CExpr::Const(_) | CExpr::Switch(_) | CExpr::Field(Kind::Game, _)
    ) || literal(e)
}

/// A literal, or a list of literals (at any depth).
fn literal(e: &CExpr) -> bool {
    match e {
        CExpr::Lit(_) => true,
        CExpr::List(items) => items.iter().all(literal),
        _ => false,
    }
}

/// A shadow's `let`s and rule conditions where they differ from the real
/// pass's (`None` elsewhere).
pub(super) struct ShadowColumns {
    /// Whether any `let` differs anywhere in the game.
    pub(super) any: bool,
    pub(super) lets: Vec<Option<Col>>,
    pub(super) rules: Vec<Option<Column<Truth>>>,
}

/// A game's columns: the real pass's, and each shadow's where it differs.
pub(super) struct GameColumns {
    /// Each `let`'s column, where it is one.
    pub(super) lets: Vec<Option<Col>>,
    /// Each rule's condition, where it is a column, as [`Ctx::truth`] gives
    /// it.
    pub(super) rules: Vec<Option<Column<Truth>>>,
    /// For each shadow (in the order of the flipped switches): its `let`s
    /// and conditions where they differ from the real pass's.
    pub(super) shadows: Vec<ShadowColumns>,
}

impl GameColumns {
    /// The moves at which the per-move pass has something to do, when the
    /// columns hold every `let` and rule on moves (else `None`: it visits
    /// every move): where a rule's condition decides something (a finding,
    /// an adjudication, an undecided rule), and where a shadow's `let`
    /// differs from the real pass's (and the move after, where its marks
    /// are cleared). A shadow whose adjudications read its switch directly,
    /// or keep state, needs every move.
    pub(super) fn busy(
        &self,
        plan: &Plan,
        rs: &Ruleset,
        flipped: &[usize],
        n: usize,
    ) -> Option<Vec<bool>> {
        let (on_lets, on_rules) = plan.triggered(Kind::Move);
        if on_lets.iter().any(|&j| self.lets[j].is_none())
            || on_rules.iter().any(|&ri| self.rules[ri].is_none())
            || flipped.iter().any(|&s| plan.direct[s])
        {
            return None;
        }
        let mut busy = vec![false; n];
        for &ri in on_rules {
            let Some(c) = &self.rules[ri] else { continue };
            // whether each truth decides something, found once per rule
            let decides = [Truth::True, Truth::False, Truth::Unknown, Truth::Other].map(|t| {
                match &rs.rules[ri].check {
                    Check::Adjudicate { .. } => matches!(t, Truth::True | Truth::Unknown),
                    check => !matches!(verdict_with(check, t), Verdict::Holds),
                }
            });
            match c {
                Column::K(t) if decides[*t as usize] => busy.fill(true),
                Column::K(_) => {}
                Column::C(c) => {
                    for (b, t) in busy.iter_mut().zip(c.iter()) {
                        *b |= decides[*t as usize];
                    }
                }
            }
        }
        for shadow in self.shadows.iter().filter(|s| s.any) {
            for (own, real) in shadow.lets.iter().zip(&self.lets) {
                let (Some(own), Some(real)) = (own, real) else {
                    continue;
                };
                own.differences(real, n, |r| {
                    busy[r] = true;
                    if let Some(next) = busy.get_mut(r + 1) {
                        *next = true;
                    }
                });
            }
        }
        Some(busy)
    }
}

/// A game's moves, in order: each one's facts and its event's index.
pub(super) struct Moves<'t> {
    pub(super) facts: Vec<MoveFacts<'t>>,
    pub(super) events: Vec<usize>,
}

/// The game's moves, when the ruleset has columns and every move event is
/// a move (else `None`: the per-move pass evaluates everything).
pub(super) fn rows<'t>(plan: &Plan, tl: &Timeline<'t>) -> Option<Moves<'t>> {
    if !plan.columns.any() {
        return None;
    }
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

/// Evaluate the ruleset's columns over a game's moves (`rows`), and each
/// shadow's (the switches of `flipped` flipped, in turn).
pub(super) fn evaluate(
    plan: &Plan,
    rs: &Ruleset,
    run: &Run<'_, '_>,
    moves: &Moves<'_>,
    switches: &[bool],
    flipped: &[usize],
) -> GameColumns {
    let cp = &plan.columns;
    let (rows, events) = (&moves.facts[..], &moves.events[..]);
    let fields: Vec<(MoveField, Col)> = cp
        .fields
        .iter()
        .map(|&f| (f, field_column(run, rows, f)))
        .collect();
    type Game<'c, 'r, 't> = (
        &'c Run<'c, 't>,
        &'c [MoveFacts<'r>],
        &'c [usize],
        &'c [(MoveField, Col)],
    );
    fn view<'c, 'r, 't>(
        (run, rows, events, fields): Game<'c, 'r, 't>,
        switches: &'c [bool],
        lets: &'c [Option<Col>],
        overlay: &'c [Option<Col>],
        detectors: bool,
    ) -> Cols<'c, 'r, 't> {
        Cols {
            run,
            rows,
            events,
            switches,
            lets,
            overlay,
            states: &[],
            fields,
            detectors,
        }
    }
    let game = (run, rows, events, &fields[..]);
    // a rule's condition, where it has one
    fn condition(rule: &RuleDef, v: Cols<'_, '_, '_>) -> Option<Column<Truth>> {
        match &rule.check {
            Check::Adjudicate { when, .. }
            | Check::Forbid {
                when: Some(when), ..
            }
            | Check::Require { when, .. } => Some(v.truth(when).into_owned()),
            _ => None,
        }
    }
    let mut lets: Vec<Option<Col>> = vec![None; rs.lets.len()];
    for (j, calls) in cp.lets.iter().enumerate() {
        if let Some(calls) = calls {
            let c = view(game, switches, &lets, &[], cp.let_effects[j])
                .let_column(&rs.lets[j].expr, calls);
            lets[j] = Some(c);
        }
    }
    let rules: Vec<Option<Column<Truth>>> = (0..rs.rules.len())
        .map(|ri| {
            if cp.rules[ri] {
                condition(
                    &rs.rules[ri],
                    view(game, switches, &lets, &[], cp.effects[ri]),
                )
            } else {
                None
            }
        })
        .collect();
    let mut shadows = Vec::with_capacity(flipped.len());
    for &s in flipped {
        let mut sw = switches.to_vec();
        if let Some(b) = sw.get_mut(s) {
            *b = !*b;
        }
        let depends = &plan.depends[s];
        // what reads the switch, or a `let` whose shadow differs
        let reads = |i: &Inputs, own: &[Option<Col>]| {
            i.switches.contains(&s) || i.lets.iter().any(|&l| own[l].is_some())
        };
        let mut own: Vec<Option<Col>> = vec![None; rs.lets.len()];
        for (j, calls) in cp.lets.iter().enumerate() {
            let (Some(calls), Some(real)) = (calls, &lets[j]) else {
                continue;
            };
            if !depends.lets[j] || !reads(&plan.let_inputs[j], &own) {
                continue;
            }
            let c =
                view(game, &sw, &lets, &own, cp.let_effects[j]).let_column(&rs.lets[j].expr, calls);
            if !c.same(real, rows.len()) {
                own[j] = Some(c);
            }
        }
        let conditions = (0..rs.rules.len())
            .map(|ri| {
                if cp.rules[ri] && depends.rules[ri] && reads(&plan.rule_inputs[ri], &own) {
                    condition(&rs.rules[ri], view(game, &sw, &lets, &own, cp.effects[ri]))
                } else {
                    None
                }
            })
            .collect();
        shadows.push(ShadowColumns {
            any: own.iter().any(Option::is_some),
            lets: own,
            rules: conditions,
        });
    }
    GameColumns {
        lets,
        rules,
        shadows,
    }
}

/// A view of a game's columns for evaluating one expression: the moves,
/// the switches, the `let`s' columns (a shadow's over the real pass's), and
/// the columns of the stateful calls of the expression.
#[derive(Clone, Copy)]
struct Cols<'c, 'r, 't> {
    run: &'c Run<'c, 't>,
    rows: &'c [MoveFacts<'r>],
    /// Each move's event in the timeline.
    events: &'c [usize],
    switches: &'c [bool],
    lets: &'c [Option<Col>],
    /// A shadow's `let`s where they differ from the real pass's.
    overlay: &'c [Option<Col>],
    states: &'c [(usize, Col)],
    /// The move's fields the columns read, made once per game.
    fields: &'c [(MoveField, Col)],
    /// Whether the `let` or condition being evaluated calls a detector
    /// anywhere ([`Cols::unless`] looks for one only then).
    detectors: bool,
}

/// A field of the move over the moves, typed where every move's value is a
/// number (or none, or unknown), or a truth (or unknown).
fn field_column(run: &Run<'_, '_>, rows: &[MoveFacts<'_>], f: MoveField) -> Col {
    // each field of numbers and truths its own loop (the field is not
    // asked again at every move): a closure of its own for each, so that
    // the loop is made for that field
    macro_rules! each {
        ($($field:ident),* $(,)?) => {
            match f {
                $(MoveField::$field => field_loop(
                    run,
                    rows,
                    f,
                    |m| m.number(MoveField::$field),
                    |m| m.flag(MoveField::$field),
                ),)*
                // the side: two names, coded by the side
                MoveField::Side => Col::D(Dict {
                    values: [Color::White, Color::Black]
                        .into_iter()
                        .map(crate::timeline::side_str)
                        .collect(),
                    codes: rows.iter().map(|m| u8::from(m.ply.side == Color::Black)).collect(),
                }),
                f => field_loop(run, rows, f, |m| m.number(f), |m| m.flag(f)),
            }
        };
    }
    each!(
        Ply,
        Number,
        HalfmoveClock,
        Repetition,
        Pieces,
        Depth,
        Seldepth,
        Score,
        Wv,
        Mate,
        Nodes,
        Nps,
        Mt,
        Tl,
        Tbhits,
        Hashfull,
        Ponderhit,
        RecordedLeft,
        RecordedR50,
        RecordedRd,
        RecordedRr,
        Capture,
        PawnMove,
        Promotion,
        Castling,
        CastlingRightsLost,
        RookCastlingLost,
        Irreversible,
        Check,
        Checkmate,
        Stalemate,
        InsufficientMaterial,
        Book,
        Commented,
    )
}

/// [`field_column`] for one field, `number` and `flag` its
/// [`MoveFacts::number`] and [`MoveFacts::flag`].
#[inline(always)]
fn field_loop<'t>(
    run: &Run<'_, '_>,
    rows: &[MoveFacts<'t>],
    f: MoveField,
    number: impl Fn(&MoveFacts<'t>) -> Option<Option<f64>>,
    flag: impl Fn(&MoveFacts<'t>) -> Option<bool>,
) -> Col {
    let first = rows.first();
    match f {
        // a clock's numbers (or none), as they are
        MoveField::Clock(
            c @ (ClockField::Used
            | ClockField::TimedUsed
            | ClockField::ClockJump
            | ClockField::ClockExpected
            | ClockField::ClockStopped
            | ClockField::ClockLeft
            | ClockField::ClockAtMove
            | ClockField::ClockPeriod),
        ) => Col::N(settled(
            rows.iter()
                .map(|m| Num::of(&clock_value(run, m.ply.ply, c)))
                .collect(),
        )),
        MoveField::Clock(c) => coded(
            rows.iter()
                .map(|m| Cow::Owned(clock_value(run, m.ply.ply, c))),
        ),
        _ if first.is_some_and(|m| number(m).is_some()) => numbers(rows, f, number),
        _ if first.is_some_and(|m| flag(m).is_some()) => flags(rows, f, flag),
        _ => typed(rows.iter().map(|m| m.get(f))),
    }
}

/// A field of numbers at every move, `number` its
/// [`MoveFacts::number`].
#[inline(always)]
fn numbers<'t>(
    rows: &[MoveFacts<'t>],
    f: MoveField,
    number: impl Fn(&MoveFacts<'t>) -> Option<Option<f64>>,
) -> Col {
    Col::N(settled(
        rows.iter()
            .map(|m| match number(m) {
                Some(Some(x)) => Num::Is(x),
                Some(None) => Num::Other,
                None => Num::of(&m.get(f)),
            })
            .collect(),
    ))
}

/// A field of truths at every move, `flag` its [`MoveFacts::flag`].
#[inline(always)]
fn flags<'t>(
    rows: &[MoveFacts<'t>],
    f: MoveField,
    flag: impl Fn(&MoveFacts<'t>) -> Option<bool>,
) -> Col {
    Col::T(settled(
        rows.iter()
            .map(|m| match flag(m) {
                Some(b) => Truth::from(b),
                None => Truth::of(&m.get(f)),
            })
            .collect(),
    ))
}

/// Values held as numbers where every one is a number, none or unknown;
/// as truths where every one is a boolean or unknown; else as they are.
fn typed(values: impl Iterator<Item = Value>) -> Col {
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
fn typed_one(v: Value) -> Col {
    match v {
        Value::Num(_) | Value::None | Value::Unknown => Col::N(Column::K(Num::of(&v))),
        Value::Bool(b) => Col::T(Column::K(Truth::from(b))),
        v => Col::V(Column::K(v)),
    }
}

/// What a column that cannot be read gives (a `let` or slot the ruleset
/// does not have, which the analyzer and [`Columnar`] rule out).
static NONE: Col = Col::V(Column::K(Value::None));

impl Cols<'_, '_, '_> {
    fn n(&self) -> usize {
        self.rows.len()
    }

    /// A `let`'s column: its stateful calls' columns first, in order, then
    /// its expression over them.
    fn let_column(&self, e: &CExpr, calls: &[Stateful]) -> Col {
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

    fn let_col(&self, l: usize) -> &Col {
        self.overlay
            .get(l)
            .and_then(Option::as_ref)
            .or_else(|| self.lets.get(l).and_then(Option::as_ref))
            .unwrap_or(&NONE)
    }

    fn state(&self, slot: usize) -> &Col {
        self.states
            .iter()
            .find(|(s, _)| *s == slot)
            .map_or(&NONE, |(_, c)| c)
    }

    /// A node that is the same at every move (a literal, a constant, a
    /// switch, a field of the game, a list of literals), as the walk gives
    /// it.
    fn scalar(&self, e: &CExpr) -> Value {
        let (mut notes, mut evidence) = (Vec::new(), Vec::new());
        Ctx::stateless(self.run, self.switches, 0, None, &mut notes, &mut evidence).eval(e)
    }

    /// An expression that reads no `let` and no stateful call, walked at
    /// each move ([`Ctx::eval`] at the move's event). A detector whose
    /// parameters are the same at every move is given them found once.
    /// What a detector notes or finds is not kept: the per-move pass
    /// evaluates a condition that calls one again where it decides.
    fn walk(&self, e: &CExpr) -> Col {
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
    fn field(&self, f: MoveField) -> Cow<'_, Col> {
        match self.fields.iter().find(|(g, _)| *g == f) {
            Some((_, c)) => Cow::Borrowed(c),
            None => Cow::Owned(field_column(self.run, self.rows, f)),
        }
    }

    /// A stateful call's values over the moves, stepped as
    /// [`Ctx::advance_one`] steps it (`streak`, `count` and `sum` on
    /// numbers, by [`Cols::counter`]; the others through [`Slot::step`]).
    fn stateful(&self, s: &Stateful) -> Col {
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

    /// As [`Ctx::eval`] gives it.
    fn value(&self, e: &CExpr) -> Cow<'_, Col> {
        match e {
            CExpr::Lit(_) | CExpr::Const(_) | CExpr::Switch(_) | CExpr::Field(Kind::Game, _) => {
                Cow::Owned(typed_one(self.scalar(e)))
            }
            CExpr::List(_) if literal(e) => Cow::Owned(typed_one(self.scalar(e))),
            CExpr::Let(l) => Cow::Borrowed(self.let_col(*l)),
            CExpr::Move(f, _) => self.field(*f),
            CExpr::Unary(UnOp::Neg, _)
            | CExpr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, ..) => {
                Cow::Owned(Col::N(self.num(e).into_owned()))
            }
            CExpr::Call(..) if numeric(e) && compiled::num_handles(e) => {
                Cow::Owned(Col::N(self.num(e).into_owned()))
            }
            CExpr::Unary(UnOp::Not, _) | CExpr::Binary(..) | CExpr::Short(..) => {
                Cow::Owned(Col::of_truths(self.truth(e).into_owned()))
            }
            CExpr::If(k, a, b) => {
                let (k, n) = (self.truth(k), self.n());
                // a condition the same at every move: its branch alone
                if let Column::K(t) = &*k {
                    return match t {
                        Truth::True => self.value(a),
                        Truth::Unknown => Cow::Owned(typed_one(Value::Unknown)),
                        _ => self.value(b),
                    };
                }
                Cow::Owned(match (&*self.value(a), &*self.value(b)) {
                    (Col::N(a), Col::N(b)) => Col::N(choose(&k, a, b, Num::Unknown, n)),
                    (Col::T(a), Col::T(b)) => Col::T(choose(&k, a, b, Truth::Unknown, n)),
                    // two values, one for every move each: the condition
                    // codes the choice
                    (a, b) if let (Some(x), Some(y)) = (a.one(), b.one()) => match &*k {
                        Column::K(t) => typed_one(match t {
                            Truth::True => x,
                            Truth::Unknown => Value::Unknown,
                            _ => y,
                        }),
                        Column::C(k) => {
                            let mut values: Buf<Value> = Buf::with_capacity(3);
                            let mut place =
                                |v: Value| match values.iter().position(|d| same_value(d, &v)) {
                                    Some(at) => at as u8,
                                    None => {
                                        values.push(v);
                                        (values.len() - 1) as u8
                                    }
                                };
                            let (yes, no, unknown) = (place(x), place(y), place(Value::Unknown));
                            let codes = k
                                .iter()
                                .map(|t| match t {
                                    Truth::True => yes,
                                    Truth::Unknown => unknown,
                                    _ => no,
                                })
                                .collect();
                            retyped(Dict { values, codes })
                        }
                    },
                    (a, b) => coded((0..n).map(|r| match k.at(r) {
                        Truth::True => a.value_ref(r),
                        Truth::Unknown => Cow::Owned(Value::Unknown),
                        _ => b.value_ref(r),
                    })),
                })
            }
            CExpr::Stateful(s) => Cow::Borrowed(self.state(s.slot)),
            // the fields of other events, lists, the builtins of text and
            // the detectors: walked at each move
            CExpr::Field(..) | CExpr::List(_) | CExpr::Call(..) | CExpr::Detector(..) => {
                Cow::Owned(self.walk(e))
            }
        }
    }

    /// As [`Ctx::num`] gives it.
    fn num(&self, e: &CExpr) -> Cow<'_, Column<Num>> {
        let n = self.n();
        Cow::Owned(match e {
            CExpr::Lit(v) => Column::K(Num::of(v)),
            CExpr::Const(i) => Column::K(self.run.consts.get(*i).map_or(Num::Other, Num::of)),
            CExpr::Let(l) => return self.let_col(*l).nums(),
            CExpr::Stateful(s) => return self.state(s.slot).nums(),
            CExpr::Move(f, _) => return cow_nums(self.field(*f)),
            CExpr::Unary(UnOp::Neg, a) => self.num(a).map(|x| x.neg()),
            CExpr::If(k, a, b) => {
                let k = self.truth(k);
                match &*k {
                    Column::K(Truth::True) => return self.num(a),
                    Column::K(Truth::Unknown) => Column::K(Num::Unknown),
                    Column::K(_) => return self.num(b),
                    _ => choose(&k, &self.num(a), &self.num(b), Num::Unknown, n),
                }
            }
            CExpr::Call(
                f @ (Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Round),
                args,
            ) if args.len() == 1 => {
                // each function its own loop (the function is not asked
                // again at every move)
                let x = self.num(&args[0]);
                match f {
                    Builtin::Abs => x.map(|x| x.call1(Builtin::Abs)),
                    Builtin::Floor => x.map(|x| x.call1(Builtin::Floor)),
                    Builtin::Ceil => x.map(|x| x.call1(Builtin::Ceil)),
                    _ => x.map(|x| x.call1(Builtin::Round)),
                }
            }
            CExpr::Call(f @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => self
                .num(&args[0])
                .zip(&self.num(&args[1]), |x, y| x.call2(*f, *y)),
            CExpr::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
                let (x, y) = (self.num(a), self.num(b));
                match op {
                    BinOp::Add => x.zip(&y, |x, y| x.arith(BinOp::Add, *y)),
                    BinOp::Sub => x.zip(&y, |x, y| x.arith(BinOp::Sub, *y)),
                    BinOp::Mul => x.zip(&y, |x, y| x.arith(BinOp::Mul, *y)),
                    _ => x.zip(&y, |x, y| x.arith(BinOp::Div, *y)),
                }
            }
            _ => return cow_nums(self.value(e)),
        })
    }

    /// `x op b` where `b` calls a detector and is walked: `b` is walked
    /// only at the moves where `x` is not `decided` (`false` for `and`,
    /// `true` for `or`), which gives the result whatever `b` is there
    /// (`None`: `b` is not such an operand).
    fn unless(
        &self,
        x: &Column<Truth>,
        decided: Truth,
        b: &CExpr,
        op: fn(Truth, Truth) -> Truth,
    ) -> Option<Column<Truth>> {
        // the walk of `b` only where the expression calls a detector at all
        if !(self.detectors && calls_detector(b) && walked(b)) {
            return None;
        }
        let (mut notes, mut evidence) = (Vec::new(), Vec::new());
        Some(Column::C(
            (0..self.n())
                .map(|r| {
                    let x = *x.at(r);
                    if x == decided {
                        return decided;
                    }
                    let mut ctx = Ctx::stateless(
                        self.run,
                        self.switches,
                        self.events.get(r).copied().unwrap_or(0),
                        self.rows.get(r),
                        &mut notes,
                        &mut evidence,
                    );
                    let y = ctx.truth(b);
                    notes.clear();
                    evidence.clear();
                    op(x, y)
                })
                .collect(),
        ))
    }

    /// As [`Ctx::truth`] gives it.
    fn truth(&self, e: &CExpr) -> Cow<'_, Column<Truth>> {
        let n = self.n();
        Cow::Owned(match e {
            CExpr::Lit(v) => Column::K(Truth::of(v)),
            CExpr::Let(l) => return self.let_col(*l).truths(),
            CExpr::Switch(i) => {
                Column::K(Truth::from(self.switches.get(*i).copied().unwrap_or(false)))
            }
            CExpr::Move(f, _) => return cow_truths(self.field(*f)),
            CExpr::Unary(UnOp::Not, a) => self.truth(a).map(|x| x.not()),
            CExpr::If(k, a, b) => {
                let k = self.truth(k);
                match &*k {
                    Column::K(Truth::True) => return self.truth(a),
                    Column::K(Truth::Unknown) => Column::K(Truth::Unknown),
                    Column::K(_) => return self.truth(b),
                    _ => choose(&k, &self.truth(a), &self.truth(b), Truth::Unknown, n),
                }
            }
            CExpr::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                let (x, y) = (self.num(a), self.num(b));
                match op {
                    BinOp::Lt => x.zip(&y, |x, y| x.compare(BinOp::Lt, *y)),
                    BinOp::Le => x.zip(&y, |x, y| x.compare(BinOp::Le, *y)),
                    BinOp::Gt => x.zip(&y, |x, y| x.compare(BinOp::Gt, *y)),
                    _ => x.zip(&y, |x, y| x.compare(BinOp::Ge, *y)),
                }
            }
            CExpr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let eq = *op == BinOp::Eq;
                match (&**a, &**b) {
                    // the side to move against a text: the side the text
                    // names found once (as `side_is` reads it)
                    (CExpr::Move(MoveField::Side, _), CExpr::Lit(Value::Str(t)))
                    | (CExpr::Lit(Value::Str(t)), CExpr::Move(MoveField::Side, _)) => {
                        let named = match t.as_str() {
                            "white" => Some(Color::White),
                            "black" => Some(Color::Black),
                            _ => None,
                        };
                        Column::C(
                            self.rows
                                .iter()
                                .map(|m| Truth::from((Some(m.ply.side) == named) == eq))
                                .collect(),
                        )
                    }
                    _ => {
                        let (x, y) = (self.value(a), self.value(b));
                        let differ = Truth::from(!eq);
                        // numbers (none among them) and truths compared as
                        // they are held: a number or none is never a truth
                        match (&*x, &*y) {
                            (Col::N(x), Col::N(y)) => {
                                return Cow::Owned(x.zip(y, |x, y| match (x, y) {
                                    (Num::Unknown, _) | (_, Num::Unknown) => Truth::Unknown,
                                    (Num::Is(x), Num::Is(y)) => Truth::from((x == y) == eq),
                                    (Num::Other, Num::Other) => Truth::from(eq),
                                    _ => differ,
                                }));
                            }
                            (Col::T(x), Col::T(y)) => {
                                return Cow::Owned(x.zip(y, |x, y| match (x, y) {
                                    (Truth::Unknown, _) | (_, Truth::Unknown) => Truth::Unknown,
                                    _ => Truth::from((x == y) == eq),
                                }));
                            }
                            (Col::N(x), Col::T(y)) => {
                                return Cow::Owned(x.zip(y, |x, y| match (x, y) {
                                    (Num::Unknown, _) | (_, Truth::Unknown) => Truth::Unknown,
                                    _ => differ,
                                }));
                            }
                            (Col::T(x), Col::N(y)) => {
                                return Cow::Owned(x.zip(y, |x, y| match (x, y) {
                                    (Truth::Unknown, _) | (_, Num::Unknown) => Truth::Unknown,
                                    _ => differ,
                                }));
                            }
                            _ => {}
                        }
                        x.zip_values(&y, n, |x, y| {
                            if matches!(x, Value::Unknown) || matches!(y, Value::Unknown) {
                                Truth::Unknown
                            } else {
                                Truth::from((x == y) == eq)
                            }
                        })
                    }
                }
            }
            CExpr::Binary(BinOp::In, a, b) => {
                let (x, list) = (self.value(a), self.value(b));
                x.zip_values(&list, n, |x, list| match (x, list) {
                    (Value::Unknown, _) | (_, Value::Unknown) => Truth::Unknown,
                    (x, Value::List(items)) => Truth::from(items.contains(x)),
                    _ => Truth::False,
                })
            }
            // `false` at every move on either side decides `and`, and
            // `true` decides `or`, whatever the other side is at each move
            // (the side not yet evaluated is not)
            CExpr::Binary(BinOp::And, a, b) | CExpr::Short(BinOp::And, a, b) => {
                let x = self.truth(a);
                if matches!(&*x, Column::K(Truth::False)) {
                    return x;
                }
                if let Some(c) = self.unless(&x, Truth::False, b, Truth::and) {
                    return Cow::Owned(c);
                }
                let y = self.truth(b);
                if matches!(&*y, Column::K(Truth::False)) {
                    return y;
                }
                x.zip(&y, |x, y| x.and(*y))
            }
            CExpr::Binary(BinOp::Or, a, b) | CExpr::Short(_, a, b) => {
                let x = self.truth(a);
                if matches!(&*x, Column::K(Truth::True)) {
                    return x;
                }
                if let Some(c) = self.unless(&x, Truth::True, b, Truth::or) {
                    return Cow::Owned(c);
                }
                let y = self.truth(b);
                if matches!(&*y, Column::K(Truth::True)) {
                    return y;
                }
                x.zip(&y, |x, y| x.or(*y))
            }
            _ => return cow_truths(self.value(e)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::compiled::tests::{Gen, sample_values};
    use super::*;

    /// A game of several moves of each kind: book moves, searched moves of
    /// both sides, moves without search (a recapture, and one no innocent
    /// cause explains), captures, an evaluation past the win rule's, and a
    /// move with no comment.
    const PGN: &str = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
        1. e4 {book} d5 {book} 2. exd5 {d=20, sd=30, mt=1000, tl=60000, n=5000, pv=exd5 Qxd5, wv=0.35, R50=50, Rd=-11, Rr=-11,} \
        Qxd5 {d=1, sd=1, mt=0, tl=59000, n=0, pv=, wv=0.30, R50=50, Rd=-11, Rr=-11,} \
        3. Nc3 {d=22, sd=31, mt=2000, tl=58000, n=9000, pv=Nc3 Qa5, wv=0.05, R50=49, Rd=-11, Rr=-11,} \
        Qa5 {d=18, sd=25, mt=1500, tl=57000, n=7000, pv=Qa5 d4, wv=-11.50, R50=48, Rd=-11, Rr=9,} \
        4. d4 {d=24, sd=33, mt=2500, tl=56500, n=11000, pv=d4 c6, wv=0.20, R50=50, Rd=-11, Rr=-11,} \
        Nf6 {d=1, sd=1, mt=0, tl=57000, n=0, pv=, wv=0.10, R50=49, Rd=-11, Rr=-11,} 5. Nf3 {d=25, sd=40, mt=3000, tl=55000, n=12000, pv=Nf3, wv=12.00, R50=47, Rd=-11, Rr=8,} e6 *\n";

    /// A coded column's values are told apart as [`identical`] tells them:
    /// every kind against every kind, `-0` against `0`, a not-a-number
    /// against itself, texts made apart and the same text shared.
    #[test]
    fn coded_values_are_told_apart_as_identical_tells_them() {
        let shared = Value::Str("white".into());
        let mut values = sample_values();
        values.extend([
            Value::Num(-0.0),
            Value::Num(f64::NAN),
            Value::List(vec![Value::Num(2.0)]),
            Value::List(vec![Value::Num(-0.0)]),
            Value::List(vec![Value::Num(0.0)]),
            shared.clone(),
            shared,
            Value::Str(Text::from_static("white")),
        ]);
        for a in &values {
            for b in &values {
                assert_eq!(same_value(a, b), identical(a, b), "{a:?} {b:?}");
            }
        }
    }

    /// A column is held as one value only where every move's value is the
    /// same to every reader: `0` and `-0`, two not-a-numbers of different
    /// bits, and none and unknown stay apart; a column of no moves stays a
    /// column.
    #[test]
    fn a_column_is_one_value_only_where_every_move_is_the_same() {
        let nums = |v: &[Num]| settled(v.iter().copied().collect::<Buf<Num>>());
        let one = |c: &Column<Num>| match c {
            Column::K(x) => Some(*x),
            Column::C(_) => None,
        };
        assert!(matches!(one(&nums(&[Num::Is(1.5); 4])), Some(Num::Is(x)) if x == 1.5));
        assert!(matches!(one(&nums(&[Num::Other; 3])), Some(Num::Other)));
        assert!(matches!(one(&nums(&[Num::Is(2.0)])), Some(Num::Is(x)) if x == 2.0));
        for apart in [
            vec![Num::Is(0.0), Num::Is(-0.0)],
            vec![Num::Is(f64::NAN), Num::Is(-f64::NAN)],
            vec![Num::Other, Num::Unknown],
            vec![Num::Is(1.0), Num::Is(1.0), Num::Other],
            vec![Num::Unknown, Num::Is(0.0)],
        ] {
            let c = nums(&apart);
            assert!(one(&c).is_none(), "{apart:?} held as one value");
            for (r, x) in apart.iter().enumerate() {
                assert!(same_num(c.at(r), x));
            }
        }
        assert!(matches!(nums(&[]), Column::C(v) if v.is_empty()));
        let truths = |v: &[Truth]| settled(v.iter().copied().collect::<Buf<Truth>>());
        assert!(matches!(
            truths(&[Truth::False; 5]),
            Column::K(Truth::False)
        ));
        assert!(matches!(
            truths(&[Truth::False, Truth::Other]),
            Column::C(_)
        ));
        // values are not compared: a column of them stays one
        let same = Value::Str("white".into());
        let values: Buf<Value> = [same.clone(), same].into_iter().collect();
        assert!(matches!(settled(values), Column::C(_)));
    }

    /// Two columns differ, for [`Col::differences`] and [`Col::same`], at
    /// exactly the moves where [`identical`] tells their values apart:
    /// columns of numbers, of truths and of other values (`-0` and `0`,
    /// none and unknown among them), each made per move or one for every
    /// move, every kind against every kind.
    #[test]
    fn columns_differ_where_identical_tells_values_apart() {
        let picks: [Vec<Value>; 3] = [
            vec![
                Value::Num(1.0),
                Value::Num(0.0),
                Value::Num(-0.0),
                Value::None,
                Value::Unknown,
            ],
            vec![Value::Bool(true), Value::Bool(false), Value::Unknown],
            vec![Value::Str("white".into()), Value::Num(2.0), Value::None],
        ];
        let mut rng = crate::test_rng::Lcg(7);
        let n = 9;
        let column = |rng: &mut crate::test_rng::Lcg| {
            let kind = &picks[rng.below(picks.len())];
            if rng.below(4) == 0 {
                typed_one(kind[rng.below(kind.len())].clone())
            } else {
                typed((0..n).map(|_| kind[rng.below(kind.len())].clone()))
            }
        };
        for _ in 0..2000 {
            let (a, b) = (column(&mut rng), column(&mut rng));
            let want: Vec<usize> = (0..n)
                .filter(|&r| !identical(&a.value_ref(r), &b.value_ref(r)))
                .collect();
            let mut got = Vec::new();
            a.differences(&b, n, |r| got.push(r));
            assert_eq!(got, want, "{a:?} against {b:?}");
            assert_eq!(a.same(&b, n), want.is_empty(), "{a:?} against {b:?}");
        }
    }

    /// Every generated expression a column can hold gives, at each move of
    /// the game, what the walk gives there, as a value, a number and a
    /// truth (to the bit: `-0` is not `0`); and every stateful call over
    /// generated arguments, `reset`, `over` and `per` gives what stepping a
    /// slot with the walk's values at each move gives.
    #[test]
    fn columns_give_what_the_walk_gives_at_every_move() {
        let chunk = crate::ingest::pgn::GameChunk::of_text(0, 0, 1, PGN.as_bytes().to_vec());
        let game = crate::ingest::pgn::parse_game(&chunk);
        let replay = crate::replay::replay(&game);
        let tl = Timeline::build(&game, &replay);
        // the moves as a game's evaluation finds them
        let moves = Moves {
            facts: Vec::new(),
            events: Vec::new(),
        };
        let plan = Plan {
            columns: Columnar {
                lets: vec![Some(Vec::new())],
                ..Default::default()
            },
            ..Default::default()
        };
        let moves = rows(&plan, &tl).unwrap_or(moves);
        let (rows, events) = (&moves.facts, &moves.events);
        assert_eq!(rows.len(), 10, "every move of the game replays");
        let values = sample_values();
        let detectors = Detectors::default();
        let cache = DetectorCache::default();
        let game_fields: Vec<(&'static str, Value)> = crate::timeline::fields_of(Kind::Game)
            .zip(values.iter().cycle())
            .map(|(n, v)| (n, v.clone()))
            .collect();
        let mut run = Run::bare(&values, &detectors, &cache);
        run.game = &game_fields;
        run.tl = Some(&tl);
        let switches = [true, false];
        // each `let` a column of one of the sample values
        let lets: Vec<Option<Col>> = values.iter().map(|v| Some(typed_one(v.clone()))).collect();
        let column_lets: Vec<Option<Vec<Stateful>>> =
            values.iter().map(|_| Some(Vec::new())).collect();
        let view = Cols {
            run: &run,
            rows,
            events,
            switches: &switches,
            lets: &lets,
            overlay: &[],
            states: &[],
            fields: &[],
            detectors: true,
        };
        let (mut notes, mut evidence) = (Vec::new(), Vec::new());
        let mut walk = |r: usize, f: &mut dyn FnMut(&mut Ctx<'_, '_>)| {
            let mut ctx = Ctx {
                run: &run,
                i: events[r],
                switches: &switches,
                lets: &values,
                overlay: None,
                slots: &mut [],
                notes: &mut notes,
                evidence: &mut evidence,
                facts: rows.get(r),
            };
            f(&mut ctx)
        };
        let mut g = Gen(crate::test_rng::Lcg(21));
        let mut kinds = std::collections::BTreeSet::new();
        let (mut tried, mut held) = (0, 0);
        // the detectors, walked at each move (the hidden book's parameters
        // found once, or at each move where one of them is a field)
        let lit = |v: Value| CExpr::Lit(v);
        let hidden = |run: CExpr| {
            CExpr::Detector(
                Detector::HiddenBook,
                vec![
                    ("min_run".to_string(), run),
                    ("max_nodes".to_string(), lit(Value::Num(1000.0))),
                    ("max_depth".to_string(), lit(Value::Num(1.0))),
                    ("max_time".to_string(), lit(Value::Num(100.0))),
                    ("tb_pieces".to_string(), CExpr::Const(1)),
                ],
            )
        };
        let choice = |f: MoveField, a: &str, b: &str| {
            CExpr::If(
                Box::new(CExpr::Move(f, "flag")),
                Box::new(lit(Value::Str(a.into()))),
                Box::new(lit(Value::Str(b.into()))),
            )
        };
        let mut fixed = vec![
            hidden(lit(Value::Num(1.0))),
            hidden(lit(Value::Num(2.0))),
            hidden(CExpr::Move(MoveField::Depth, "depth")),
            CExpr::Binary(
                BinOp::Eq,
                Box::new(hidden(CExpr::Const(1))),
                Box::new(lit(Value::Bool(true))),
            ),
            CExpr::Detector(
                Detector::Tablebase,
                vec![("fifty_move_rule".to_string(), lit(Value::Bool(true)))],
            ),
            // the side against each text it can be compared with
            CExpr::Binary(
                BinOp::Eq,
                Box::new(CExpr::Move(MoveField::Side, "side")),
                Box::new(lit(Value::Str("black".into()))),
            ),
            CExpr::Binary(
                BinOp::Ne,
                Box::new(lit(Value::Str("white".into()))),
                Box::new(CExpr::Move(MoveField::Side, "side")),
            ),
            CExpr::Binary(
                BinOp::Eq,
                Box::new(CExpr::Move(MoveField::Side, "side")),
                Box::new(lit(Value::Str("White".into()))),
            ),
            // a detector walked only where the other side of `and` or
            // `or` leaves the result open
            CExpr::Binary(
                BinOp::And,
                Box::new(CExpr::Move(MoveField::Capture, "capture")),
                Box::new(CExpr::Binary(
                    BinOp::Ne,
                    Box::new(CExpr::Detector(
                        Detector::Tablebase,
                        vec![("fifty_move_rule".to_string(), lit(Value::Bool(true)))],
                    )),
                    Box::new(lit(Value::None)),
                )),
            ),
            CExpr::Short(
                BinOp::Or,
                Box::new(CExpr::Move(MoveField::Book, "book")),
                Box::new(CExpr::Binary(
                    BinOp::Eq,
                    Box::new(hidden(lit(Value::Num(1.0)))),
                    Box::new(lit(Value::Bool(true))),
                )),
            ),
            // coded columns against each other: texts chosen by two
            // conditions, and a side's name against a choice of it
            CExpr::Binary(
                BinOp::Eq,
                Box::new(choice(MoveField::Capture, "a", "b")),
                Box::new(choice(MoveField::Book, "b", "c")),
            ),
            CExpr::Binary(
                BinOp::Ne,
                Box::new(CExpr::Move(MoveField::Side, "side")),
                Box::new(CExpr::If(
                    Box::new(CExpr::Move(MoveField::Capture, "capture")),
                    Box::new(lit(Value::Str("white".into()))),
                    Box::new(CExpr::Move(MoveField::Side, "side")),
                )),
            ),
        ];
        let (mut flagged, mut coded, mut settled) = (0, 0, 0);
        while held < 3_000 {
            tried += 1;
            let e = match fixed.pop() {
                Some(e) => e,
                None => g.expr(1 + tried % 4, values.len()),
            };
            if !columnar(&e, &column_lets) {
                continue;
            }
            held += 1;
            // as the evaluation of a `let` or condition sets it
            let view = Cols {
                detectors: calls_detector(&e),
                ..view
            };
            let (v, n, t) = (view.value(&e), view.num(&e), view.truth(&e));
            if matches!(&*v, Col::D(_)) {
                coded += 1;
            }
            // a node that reads a field of the move and is one value at
            // every move
            let mut read = Vec::new();
            moves_fields(&e, &mut read);
            if !read.is_empty() && v.one().is_some() {
                settled += 1;
            }
            for r in 0..rows.len() {
                walk(r, &mut |ctx| {
                    let want = ctx.eval(&e);
                    assert_eq!(
                        format!("{:?}", v.value_at(r)),
                        format!("{want:?}"),
                        "{e:?} at {r}"
                    );
                    assert_eq!(
                        format!("{:?}", n.at(r)),
                        format!("{:?}", ctx.num(&e)),
                        "{e:?} at {r}"
                    );
                    assert_eq!(*t.at(r), ctx.truth(&e), "{e:?} at {r}");
                    kinds.insert(want.type_name());
                    if matches!(e, CExpr::Detector(..)) && want == Value::Bool(true) {
                        flagged += 1;
                    }
                });
            }
        }
        // the sample reaches every kind of result, and most expressions
        // are columns (those that are not call the builtins of text or
        // make lists)
        assert_eq!(kinds.len(), 6, "{kinds:?}");
        assert!(held * 2 > tried, "{held} of {tried}");
        // the hidden book flags the run of searchless moves
        assert!(flagged > 0, "no move flagged");
        // some columns are coded (a few texts, or truths and none; a
        // column of one text is held as that value)
        assert!(coded > 40, "{coded} coded columns");
        // and some nodes over the moves are one value for every move (a
        // field the same at every move, what reads only such fields, and
        // the `and` and `or` that one side decides)
        assert!(settled > 500, "{settled} settled columns");
        let funcs = [
            StatefulFn::Streak,
            StatefulFn::Count,
            StatefulFn::Sum,
            StatefulFn::Since,
            StatefulFn::Last,
            StatefulFn::Previous,
        ];
        // the parts of a stateful call: a generated expression, or one of
        // the move's that change from move to move (so that streaks run,
        // are cut and reset, and keys differ)
        let field = |f, name| Box::new(CExpr::Move(f, name));
        let num = |x| Box::new(CExpr::Lit(Value::Num(x)));
        let moving = [
            CExpr::Move(MoveField::Capture, "capture"),
            CExpr::Move(MoveField::Book, "book"),
            CExpr::Move(MoveField::Score, "score"),
            CExpr::Move(MoveField::Depth, "depth"),
            CExpr::Move(MoveField::Side, "side"),
            CExpr::Binary(
                BinOp::Eq,
                field(MoveField::Side, "side"),
                Box::new(CExpr::Lit(Value::Str("white".into()))),
            ),
            CExpr::Binary(BinOp::Ge, field(MoveField::Score, "score"), num(0.1)),
            CExpr::Binary(
                BinOp::Le,
                Box::new(CExpr::Call(
                    Builtin::Abs,
                    vec![CExpr::Move(MoveField::Score, "score")],
                )),
                num(0.32),
            ),
            CExpr::Binary(BinOp::Gt, field(MoveField::Depth, "depth"), num(19.0)),
            CExpr::Unary(UnOp::Not, field(MoveField::Capture, "capture")),
            // a key that is a text at some moves and a truth at others,
            // the same text either way (`per` keys by the text)
            CExpr::If(
                field(MoveField::Capture, "capture"),
                Box::new(CExpr::Lit(Value::Str("false".into()))),
                field(MoveField::Book, "book"),
            ),
            // one value at every move: a reset that always holds, an
            // `over` or argument that never does, a sum of zeros or of
            // none (which the columns give at once) and of ones (which
            // they count)
            CExpr::Lit(Value::Bool(true)),
            CExpr::Lit(Value::Bool(false)),
            CExpr::Lit(Value::Num(0.0)),
            CExpr::Lit(Value::Num(-0.0)),
            CExpr::Lit(Value::Num(1.0)),
            CExpr::Lit(Value::None),
        ];
        let mut part = |g: &mut Gen, depth: u32| {
            if g.next(3) > 0 {
                return moving[g.next(moving.len())].clone();
            }
            loop {
                let e = g.expr(depth, values.len());
                if columnar(&e, &column_lets) {
                    return e;
                }
            }
        };
        let mut seen = std::collections::BTreeSet::new();
        for k in 0..1_200 {
            let maybe = |g: &mut Gen, p: &mut dyn FnMut(&mut Gen, u32) -> CExpr| {
                if g.next(3) == 0 {
                    return None;
                }
                let depth = 1 + g.next(3) as u32;
                Some(p(g, depth))
            };
            let s = Stateful {
                slot: 0,
                func: funcs[k % funcs.len()],
                arg: part(&mut g, 1 + (k % 3) as u32),
                over: maybe(&mut g, &mut part),
                reset: maybe(&mut g, &mut part),
                per: maybe(&mut g, &mut part),
                on: Kind::Move,
            };
            let got = view.stateful(&s);
            let mut slot = Slot::default();
            for r in 0..rows.len() {
                walk(r, &mut |ctx| {
                    let reset = s
                        .reset
                        .as_ref()
                        .is_some_and(|e| ctx.truth(e) == Truth::True);
                    let over = s.over.as_ref().is_none_or(|e| ctx.truth(e) == Truth::True);
                    let arg = match s.func {
                        StatefulFn::Streak | StatefulFn::Count | StatefulFn::Since => {
                            Value::Bool(ctx.truth(&s.arg) == Truth::True)
                        }
                        StatefulFn::Sum => ctx.num(&s.arg).value(),
                        _ => ctx.eval(&s.arg),
                    };
                    let key = s.per.as_ref().map(|e| ctx.eval(e));
                    slot.step(s.func, reset, over, arg, key.as_ref());
                });
                assert_eq!(
                    format!("{:?}", got.value_at(r)),
                    format!("{:?}", slot.current),
                    "{s:?} at {r}"
                );
                seen.insert((k % funcs.len(), slot.current.display()));
            }
        }
        // streaks, counts and sums reach several values each, and `since`,
        // `last` and `previous` both truths and values of the move
        for (f, least) in [(0, 4), (1, 4), (2, 4), (3, 2), (4, 4), (5, 4)] {
            let n = seen.iter().filter(|(g, _)| *g == f).count();
            assert!(n >= least, "{:?}: {n} values", funcs[f]);
        }
    }
}
