//! A column: one value per move, or one for every move, and the vectors
//! of this thread's pool that hold its values.

use crate::base::value::Value;
use crate::rules::eval::typed::{Num, Truth};

/// One value per move, or one value for every move.
#[derive(Debug, Clone)]
pub(in crate::rules::eval) enum Column<T: Pooled> {
    /// The same at every move.
    K(T),
    /// One per move, in order.
    C(Buf<T>),
}

impl<T: Pooled> Column<T> {
    #[inline]
    pub(in crate::rules::eval) fn at(&self, r: usize) -> &T {
        match self {
            Column::K(x) => x,
            Column::C(v) => &v[r],
        }
    }

    pub(super) fn map<U: Pooled + Clone>(&self, f: impl Fn(&T) -> U) -> Column<U> {
        match self {
            Column::K(x) => Column::K(f(x)),
            Column::C(v) => settled(v.iter().map(f).collect()),
        }
    }

    pub(super) fn zip<S: Pooled, U: Pooled + Clone>(
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
pub(in crate::rules::eval) struct Buf<T: Pooled>(Vec<T>);

/// The element types of columns, each with its thread's pool of vectors.
pub(in crate::rules::eval) trait Pooled: Sized + 'static {
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
    #[inline]
    pub(super) fn with_capacity(n: usize) -> Buf<T> {
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
    #[inline]
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

/// Whether two numbers of columns are the same value as [`identical`]
/// tells values apart (a number by its bits).
#[inline]
pub(super) fn same_num(x: &Num, y: &Num) -> bool {
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
#[inline]
pub(super) fn settled<T: Pooled + Clone>(v: Buf<T>) -> Column<T> {
    match v.first() {
        Some(first) if v.iter().all(|x| T::same(x, first)) => Column::K(first.clone()),
        _ => Column::C(v),
    }
}
