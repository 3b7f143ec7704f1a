//! One thing an event-level rule is evaluated on, and its fields by name.

use crate::base::value::Value;
use crate::findings::Evidence;
use crate::timeline::ScopeKind;

/// One thing an event-level rule is evaluated on.
#[derive(Debug, Clone)]
pub struct Item {
    pub kind: ScopeKind,
    pub fields: Fields,
    /// Where it is: the first names the game the finding points at.
    pub evidence: Vec<Evidence>,
    /// For a game item, its index in `EventCase::games`.
    pub game: Option<usize>,
}

/// An item's fields by name, in the names' order: a sorted list, which
/// holds an event's thousands of game items in about half the memory of a
/// map.
#[derive(Debug, Clone, Default)]
pub struct Fields(pub(super) Vec<(&'static str, Value)>);

/// The fields of an event's game item: its list made at its size once.
pub(super) const GAME_FIELDS: usize = 16;

impl Fields {
    pub(super) fn with_capacity(n: usize) -> Fields {
        Fields(Vec::with_capacity(n))
    }

    /// Set field `name` (a second value replaces the first): kept in the
    /// order given until [`Fields::done`] sorts them, which every item's
    /// fields go through before they are read.
    pub(super) fn insert(&mut self, name: &'static str, v: Value) {
        self.0.push((name, v));
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0
            .binary_search_by(|(n, _)| (*n).cmp(name))
            .ok()
            .map(|i| &self.0[i].1)
    }

    /// The fields in the names' order, the last value given for a name
    /// kept, with no room to spare.
    pub(super) fn done(mut self) -> Fields {
        // (fields given in the names' order, each once, are as they are)
        if !self.0.windows(2).all(|w| w[0].0 < w[1].0) {
            // a stable sort keeps a name's values in the order given;
            // reversed, the last of them comes first and is the one
            // `dedup` keeps
            self.0.sort_by(|a, b| a.0.cmp(b.0));
            self.0.reverse();
            self.0.dedup_by(|a, b| a.0 == b.0);
            self.0.reverse();
        }
        self.0.shrink_to_fit();
        self
    }
}

pub(super) fn num(n: impl Into<f64>) -> Value {
    Value::Num(n.into())
}

pub(super) fn text(s: &str) -> Value {
    Value::Str(s.into())
}
