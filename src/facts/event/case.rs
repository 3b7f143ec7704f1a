//! An event's case file: its games, the items built from them (the event,
//! each game, each entrant, each pair of entrants) and its standings, and
//! what an item is about and where.

use std::collections::BTreeSet;

use super::entrants::entrant_items;
use super::event_games::EventGames;
use super::game::{GameInfo, entrant_names, round_number};
use super::games::game_items;
use super::item::{Fields, Item, num, text};
use super::pairs::pair_items;
use crate::base::value::Value;
use crate::facts::standings::{self, is_bye};
use crate::findings::Evidence;
use crate::timeline::ScopeKind;

/// One event's games and the items built from them.
#[derive(Debug, Clone)]
pub struct EventCase {
    pub name: String,
    /// The games, in the event's order.
    pub games: Vec<GameInfo>,
    /// Entrant name (display) of each game's White and Black.
    pub sides: Vec<(String, String)>,
    /// The event first, then the games, the entrants, the pairs.
    pub items: Vec<Item>,
    pub standings: Vec<standings::Row>,
}

/// The case file of event `name` from its games, in the event's order;
/// `later` names the events after it, with their engines.
pub(super) fn case(
    name: String,
    games: Vec<GameInfo>,
    later: &[(String, &BTreeSet<String>)],
    scoring: &[(String, f64)],
    tiebreaks: &[String],
) -> EventCase {
    let shown = entrant_names(
        games
            .iter()
            .flat_map(|g| [g.tag("White"), g.tag("Black")])
            .filter(|n| !is_bye(n)),
    );
    let entrant = |n: &str| {
        shown
            .get(n.trim())
            .cloned()
            .unwrap_or_else(|| n.trim().to_string())
    };
    let sides: Vec<(String, String)> = games
        .iter()
        .map(|g| (entrant(g.tag("White")), entrant(g.tag("Black"))))
        .collect();
    let results: Vec<standings::Game> = games
        .iter()
        .zip(&sides)
        .map(|(g, (w, b))| {
            let mut s = standings::Game::from_tags(|k| g.tag(k));
            s.white = w.clone();
            s.black = b.clone();
            s
        })
        .collect();
    let table = standings::standings(&results, scoring, tiebreaks);
    let (win, draw, loss, bye) = standings::points(scoring);
    let event = EventGames {
        name: &name,
        games: &games,
        sides: &sides,
        win,
        draw,
        loss,
        bye,
    };
    let mut items = Vec::new();
    let played = results
        .iter()
        .filter(|g| event.points_of(&g.result).is_some())
        .count();
    // the results' own texts (five a game) are not read again: freed
    // before the items are made, the event level's largest allocation
    drop(results);
    let entrants: BTreeSet<&String> = shown.values().collect();
    items.push(event_item(&event, played, entrants.len(), later));
    game_items(&event, &mut items);
    // the entrants in order, and each game's sides as their places there
    // (`None`: a bye or a name no entrant has), found once: the entrants'
    // and the pairs' items below read the games through them in one pass
    // each, not once per entrant or pair
    let list: Vec<&String> = entrants.iter().copied().collect();
    let place = |who: &String| list.binary_search(&who).ok();
    let placed: Vec<(Option<usize>, Option<usize>)> =
        sides.iter().map(|(w, b)| (place(w), place(b))).collect();
    entrant_items(&event, &list, &placed, &table, later, &mut items);
    pair_items(&event, &list, &placed, &mut items);
    EventCase {
        name,
        games,
        sides,
        items,
        standings: table,
    }
}

/// The event's own item: its name, games, entrants, rounds, first date and
/// the events after it.
fn event_item(
    event: &EventGames,
    played: usize,
    entrants: usize,
    later: &[(String, &BTreeSet<String>)],
) -> Item {
    let (name, games) = (event.name, event.games);
    let rounds: BTreeSet<u64> = games
        .iter()
        .filter_map(|g| round_number(g.tag("Round")))
        .map(|r| r as u64)
        .collect();
    let first_date = games
        .iter()
        .map(|g| g.tag("Date"))
        .filter(|d| !d.is_empty() && !d.contains('?'))
        .min()
        .unwrap_or("");
    let mut f = Fields::default();
    f.insert("name", text(name));
    f.insert("games", num(games.len() as f64));
    f.insert("played", num(played as f64));
    f.insert("entrants", num(entrants as f64));
    f.insert("rounds", num(rounds.len() as f64));
    f.insert(
        "first_date",
        if first_date.is_empty() {
            Value::None
        } else {
            text(first_date)
        },
    );
    f.insert(
        "later_events",
        Value::List(later.iter().map(|(n, _)| text(n)).collect()),
    );
    Item {
        kind: ScopeKind::Event,
        fields: f.done(),
        evidence: games
            .first()
            .map(|g| g.evidence(format!("the first game of {name}")))
            .into_iter()
            .collect(),
        game: None,
    }
}

impl EventCase {
    /// Who item `i` is about: an entrant, a pair, a game's two players.
    pub fn about(&self, i: usize) -> String {
        let Some(it) = self.items.get(i) else {
            return String::new();
        };
        let f = |k: &str| it.fields.get(k).map(Value::display).unwrap_or_default();
        match it.kind {
            ScopeKind::Event => String::new(),
            ScopeKind::Entrant => f("name"),
            ScopeKind::Pairing => format!("{} / {}", f("first"), f("second")),
            ScopeKind::EventGame => format!("{} / {}", f("white"), f("black")),
        }
    }

    /// Where item `i` is, the place a finding points at first. A game
    /// item's place is made here, when a finding needs it: an event's
    /// thousands of game items do not each keep one.
    pub fn places(&self, i: usize) -> Vec<Evidence> {
        let Some(it) = self.items.get(i) else {
            return Vec::new();
        };
        match (it.kind, it.game) {
            (ScopeKind::EventGame, Some(gi)) => {
                let (Some(g), Some((w, b))) = (self.games.get(gi), self.sides.get(gi)) else {
                    return Vec::new();
                };
                vec![g.evidence(format!(
                    "game {} of {}: {w} - {b}, round {}",
                    gi + 1,
                    self.name,
                    g.tag("Round")
                ))]
            }
            _ => it.evidence.clone(),
        }
    }

    /// The value of `kind.name` at item `i` (event fields from anywhere).
    pub fn field(&self, i: usize, kind: ScopeKind, name: &str) -> Value {
        let item = if kind == ScopeKind::Event {
            self.items.first()
        } else {
            self.items.get(i).filter(|it| it.kind == kind)
        };
        item.and_then(|it| it.fields.get(name).cloned())
            .unwrap_or(Value::None)
    }
}
