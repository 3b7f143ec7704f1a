//! The items of an event's entrants: each engine, whatever version it
//! played under, with its standing, rating, seed and next event.

use std::collections::{BTreeMap, BTreeSet};

use super::event_games::EventGames;
use super::game::engine_of;
use super::item::{Fields, Item, num, text};
use crate::base::value::Value;
use crate::facts::standings;
use crate::timeline::ScopeKind;

/// The item of each entrant of `list` (in order), pushed onto `items`;
/// `placed` gives each game's sides as places in `list`, `table` the
/// standings, `later` the events after this one, with their engines.
pub(super) fn entrant_items(
    event: &EventGames,
    list: &[&String],
    placed: &[(Option<usize>, Option<usize>)],
    table: &[standings::Row],
    later: &[(String, &BTreeSet<String>)],
    items: &mut Vec<Item>,
) {
    let (name, games, sides) = (event.name, event.games, event.sides);
    let mut ratings: BTreeMap<&String, f64> = BTreeMap::new();
    for (g, (w, b)) in games.iter().zip(sides) {
        for (who, elo) in [(w, "WhiteElo"), (b, "BlackElo")] {
            if let Some(r) = g.rating(elo) {
                let e = ratings.entry(who).or_insert(r);
                *e = e.max(r);
            }
        }
    }
    let mut by_rating: Vec<(&String, f64)> = ratings.iter().map(|(k, v)| (*k, *v)).collect();
    by_rating.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    // each entrant's names as played, with the first game of each (1 =
    // the first), and its first game (from 0)
    let mut played_as: Vec<Vec<(String, usize)>> = vec![Vec::new(); list.len()];
    let mut first_game: Vec<Option<usize>> = vec![None; list.len()];
    for (i, (g, &(pw, pb))) in games.iter().zip(placed).enumerate() {
        for (n, at) in [(g.tag("White"), pw), (g.tag("Black"), pb)] {
            let Some(at) = at else { continue };
            first_game[at].get_or_insert(i);
            let v = &mut played_as[at];
            if !v.iter().any(|(x, _)| x == n) {
                v.push((n.to_string(), i + 1));
            }
        }
    }
    for (e, who) in list.iter().enumerate() {
        let row = table.iter().find(|r| &r.player == *who);
        let played_as = std::mem::take(&mut played_as[e]);
        let engine = engine_of(&played_as.first().map(|p| p.0.clone()).unwrap_or_default());
        let key = engine.to_lowercase();
        let next = later
            .iter()
            .find(|(_, es)| es.contains(&key))
            .map(|(n, _)| n);
        let first = first_game[e];
        let mut f = Fields::default();
        f.insert("name", text(who));
        f.insert("engine", text(&engine));
        f.insert("versions", num(played_as.len() as f64));
        f.insert(
            "version_list",
            text(
                &played_as
                    .iter()
                    .map(|(n, at)| format!("{n} (from game {at})"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        );
        f.insert("rank", row.map_or(Value::None, |r| num(r.rank as f64)));
        f.insert("tied", row.map_or(Value::None, |r| Value::Bool(r.tied)));
        f.insert("points", num(row.map_or(0.0, |r| r.points)));
        f.insert("games", num(row.map_or(0, |r| r.games) as f64));
        f.insert("wins", num(row.map_or(0, |r| r.wins) as f64));
        f.insert("crashes", num(row.map_or(0, |r| r.crashes) as f64));
        f.insert("rating", ratings.get(*who).map_or(Value::None, |r| num(*r)));
        f.insert(
            "seed",
            by_rating
                .iter()
                .position(|(n, _)| n == who)
                .map_or(Value::None, |p| num((p + 1) as f64)),
        );
        f.insert("next_event", next.map_or(Value::None, |n| text(n)));
        let mut evidence = Vec::new();
        if let Some(i) = first {
            evidence.push(games[i].evidence(format!("the first game of {who} in {name}")));
        }
        for (n, at) in played_as.iter().skip(1) {
            evidence.push(games[at - 1].evidence(format!("the first game played as {n}")));
        }
        items.push(Item {
            kind: ScopeKind::Entrant,
            fields: f.done(),
            evidence,
            game: None,
        });
    }
}
