//! An event's case file: what the rules that span several games read.
//!
//! A game's timeline is one game; an event (a division, a Swiss, a match)
//! is the games that share an `Event` tag. From their headers this module
//! builds the items event-level rules are evaluated on, each with the
//! fields of `timeline::VOCABULARY` for its kind:
//!
//! - the event itself (once);
//! - each game, in the event's order (round, then input order);
//! - each entrant: an engine, whatever version it played under;
//! - each pair of entrants, including pairs that never met.
//!
//! Every item keeps where it came from: the file and line of the game (or
//! of the first game of the entrant or pair) that the evidence names.

use std::collections::{BTreeMap, BTreeSet};

use crate::facts::standings::is_bye;

mod accelerated;
mod case;
mod entrants;
mod event_games;
mod game;
mod games;
mod item;
mod matching;
mod pairs;
#[cfg(test)]
mod tests;

pub use accelerated::PairingError;
pub use case::EventCase;
pub use game::{EVENT_TAGS, GameInfo, HeaderError, engine_of, entrant_names, round_number};
pub use item::{Fields, Item};

use case::case;

/// Games grouped into events by their Event tag, each event's in the order
/// they were added: a batch adds each game as it is done, so that the games
/// are never held twice (all of them, then again by event).
#[derive(Debug, Default, Clone)]
pub struct Grouped(BTreeMap<String, Vec<GameInfo>>);

impl Grouped {
    /// Every game, in the order of [`GameInfo::order`].
    pub fn into_games(self) -> Vec<GameInfo> {
        let mut all: Vec<GameInfo> = self.0.into_values().flatten().collect();
        all.sort_by_key(|g| g.order);
        all
    }

    pub fn add(&mut self, g: GameInfo) {
        match self.0.get_mut(g.tag("Event")) {
            Some(games) => games.push(g),
            None => {
                self.0.insert(g.tag("Event").to_string(), vec![g]);
            }
        }
    }
}

/// An event's scoring (points per result) and tiebreaks, given its first
/// game.
pub type ScoringOf<'a> = dyn Fn(&GameInfo) -> (&'a [(String, f64)], &'a [String]) + 'a;

/// Build each event's case file from its games, one event at a time as the
/// iterator is read, so that only one event's items are in memory at once.
/// Events are ordered by their earliest Date tag, then by input order.
/// `scoring` gives an event's scoring and tiebreaks from its games (the
/// ruleset its first file was judged under).
pub fn build<'a>(
    Grouped(by_event): Grouped,
    scoring: &'a ScoringOf<'a>,
) -> impl Iterator<Item = EventCase> + 'a {
    let mut events: Vec<(String, Vec<GameInfo>)> = by_event.into_iter().collect();
    let first_date = |gs: &[GameInfo]| {
        gs.iter()
            .map(|g| g.tag("Date"))
            .filter(|d| !d.is_empty() && !d.contains('?'))
            .min()
            .unwrap_or_default()
            .to_string()
    };
    // each event's place found once, not at every compare
    events.sort_by_cached_key(|(_, gs)| {
        (
            first_date(gs),
            gs.iter().map(|g| g.order).min().unwrap_or(0),
        )
    });
    // the engines of each event, for `next_event`: each name's engine
    // found once (a name is in many games)
    let engines: Vec<BTreeSet<String>> = events
        .iter()
        .map(|(_, gs)| {
            let names: BTreeSet<&str> = gs
                .iter()
                .flat_map(|g| [g.tag("White"), g.tag("Black")])
                .filter(|n| !is_bye(n))
                .collect();
            names
                .into_iter()
                .map(|n| engine_of(n).to_lowercase())
                .collect()
        })
        .collect();
    let names: Vec<String> = events.iter().map(|(n, _)| n.clone()).collect();
    events
        .into_iter()
        .enumerate()
        .map(move |(k, (name, mut gs))| {
            gs.sort_by(|a, b| {
                let ra = round_number(a.tag("Round"));
                let rb = round_number(b.tag("Round"));
                ra.partial_cmp(&rb)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then_with(|| natural(a.tag("Round")).cmp(&natural(b.tag("Round"))))
                    .then(a.order.cmp(&b.order))
            });
            let later: Vec<(String, &BTreeSet<String>)> = names[k + 1..]
                .iter()
                .cloned()
                .zip(&engines[k + 1..])
                .collect();
            // the event's first game in input order chooses
            let first = gs
                .iter()
                .min_by_key(|g| g.order)
                .expect("an event has a game");
            let (points, tiebreaks) = scoring(first);
            case(name, gs, &later, points, tiebreaks)
        })
}

/// "3.10" after "3.9".
fn natural(s: &str) -> Vec<u64> {
    s.split('.')
        .map(|p| p.trim().parse::<u64>().unwrap_or(u64::MAX))
        .collect()
}
