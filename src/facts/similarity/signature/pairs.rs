//! The pairs of a signature analysis, in the order the report lists them:
//! the pairs with enough shared positions for a verdict, held whole, and
//! the others ([`Rest`]), held as a few numbers each and made into a
//! [`Pair`] only when read. A field of 400 engines has 80,000 pairs, and
//! nearly all of them share a few positions or none.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::iter::Peekable;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Pair, Signal};

/// Every pair of a field: those held whole (every pair of a report read
/// back), then, merged in, those that share too few positions for a
/// verdict.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pairs {
    /// Sorted by residual z, highest first; pairs without one last, by
    /// name.
    pub held: Vec<Pair>,
    rest: Rest,
}

/// What a pair with too few shared positions shows: per signal, the
/// positions, the value and the 95% interval.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Shown {
    pub positions: [usize; 3],
    pub value: [Option<f64>; 3],
    pub ci: [Option<[f64; 2]>; 3],
}

/// The pairs with too few shared positions for a verdict.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Rest {
    pub names: Vec<String>,
    /// Each pair (engine numbers), in the order of their names.
    pub order: Vec<(u32, u32)>,
    /// The pairs of `order` that share a position.
    pub shown: BTreeMap<(u32, u32), Shown>,
    pub related: BTreeSet<(u32, u32)>,
    /// The pairs in the other pairs' null (the same for all of these).
    pub null_pairs: usize,
    pub min_positions: usize,
}

impl Rest {
    /// The pair `(a, b)` as the report lists it.
    fn pair(&self, (a, b): (u32, u32)) -> Pair {
        let shown = self.shown.get(&(a, b)).cloned().unwrap_or_default();
        let signal = |k: usize| Signal {
            value: shown.value[k],
            ci: shown.ci[k],
            z: None,
            null_share: None,
            positions: shown.positions[k],
        };
        Pair {
            a: self.names[a as usize].clone(),
            b: self.names[b as usize].clone(),
            moves: signal(0),
            residual: signal(1),
            pv: signal(2),
            null_pairs: self.null_pairs,
            declared_related: self.related.contains(&(a, b)),
            notes: vec![format!(
                "{} shared positions, fewer than {}: no verdict",
                shown.positions[0], self.min_positions
            )],
            ..Pair::default()
        }
    }

    fn names_of(&self, (a, b): (u32, u32)) -> (&str, &str) {
        (&self.names[a as usize], &self.names[b as usize])
    }
}

impl Pairs {
    pub(super) fn new(held: Vec<Pair>, rest: Rest) -> Pairs {
        Pairs { held, rest }
    }

    /// Every pair, held or not.
    pub fn len(&self) -> usize {
        self.held.len() + self.rest.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pairs not held: too few shared positions for a verdict.
    pub fn unheld(&self) -> usize {
        self.rest.order.len()
    }

    /// Every pair in the report's order: the held pairs with a residual z,
    /// then the others by name.
    pub fn iter(&self) -> impl Iterator<Item = Cow<'_, Pair>> {
        let split = (self.held.iter())
            .position(|p| p.residual.z.is_none())
            .unwrap_or(self.held.len());
        let (head, tail) = self.held.split_at(split);
        head.iter().map(Cow::Borrowed).chain(Merge {
            held: tail.iter().peekable(),
            rest: &self.rest,
            next: self.rest.order.iter().peekable(),
        })
    }
}

/// The held pairs without a residual z and the rest, by name.
struct Merge<'a> {
    held: Peekable<std::slice::Iter<'a, Pair>>,
    rest: &'a Rest,
    next: Peekable<std::slice::Iter<'a, (u32, u32)>>,
}

impl<'a> Iterator for Merge<'a> {
    type Item = Cow<'a, Pair>;

    fn next(&mut self) -> Option<Cow<'a, Pair>> {
        let held_first = match (self.held.peek(), self.next.peek()) {
            (Some(p), Some(&&q)) => (p.a.as_str(), p.b.as_str()) <= self.rest.names_of(q),
            (Some(_), None) => true,
            (None, _) => false,
        };
        if held_first {
            return self.held.next().map(Cow::Borrowed);
        }
        let &q = self.next.next()?;
        Some(Cow::Owned(self.rest.pair(q)))
    }
}

impl Serialize for Pairs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Pairs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pairs, D::Error> {
        Ok(Pairs {
            held: Vec::deserialize(d)?,
            rest: Rest::default(),
        })
    }
}
