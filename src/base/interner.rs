//! One shared copy of each text.
/// One shared copy of each text: the batch's records and an event's items
/// repeat their files, events, players and results from game to game. `T`
/// is the shared text (an `Arc<str>`, or the batch's one-pointer text).
#[derive(Debug)]
pub struct Interner<T = std::sync::Arc<str>>(std::collections::HashSet<T>);

impl<T> Default for Interner<T> {
    fn default() -> Self {
        Interner(std::collections::HashSet::new())
    }
}

impl<T> Interner<T>
where
    T: Clone + Eq + std::hash::Hash + std::borrow::Borrow<str> + for<'s> From<&'s str>,
{
    pub fn get(&mut self, s: &str) -> T {
        self.get_within(s, usize::MAX).unwrap_or_else(|| T::from(s))
    }

    /// [`Interner::get`] while it keeps fewer than `most` texts; past them,
    /// the copy it keeps of `s`, or `None` where it keeps none.
    pub fn get_within(&mut self, s: &str, most: usize) -> Option<T> {
        if let Some(a) = self.0.get(s) {
            return Some(a.clone());
        }
        (self.0.len() < most).then(|| {
            let a = T::from(s);
            self.0.insert(a.clone());
            a
        })
    }
}
