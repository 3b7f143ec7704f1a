//! The items of an event's games, in the event's order: each game's
//! players, round, scores as its round began and opening.

use std::collections::BTreeMap;

use super::event_games::EventGames;
use super::game::round_number;
use super::item::{Fields, GAME_FIELDS, Item, num};
use crate::base::value::{Text, Value};
use crate::facts::standings::is_bye;
use crate::timeline::ScopeKind;

/// Each entrant's score as each round began: by round, the points of every
/// entrant that had scored before it.
fn scores_at_round_start(event: &EventGames) -> BTreeMap<u64, BTreeMap<String, f64>> {
    let (games, sides, bye) = (event.games, event.sides, event.bye);
    let mut score: BTreeMap<String, f64> = BTreeMap::new();
    let mut round_start: BTreeMap<u64, BTreeMap<String, f64>> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        let r = round_number(g.tag("Round")).map(|r| r as u64);
        if let Some(r) = r {
            round_start.entry(r).or_insert_with(|| score.clone());
        }
        if let Some((sw, sb)) = event.points_of(g.tag("Result")) {
            let (w, b) = &sides[i];
            let (wb, bb) = (is_bye(w), is_bye(b));
            // (a name is copied only the first time it scores; its first
            // points added to 0, as the map's default entry had them)
            let mut add = |who: &String, points: f64| match score.get_mut(who) {
                Some(s) => *s += points,
                None => {
                    score.insert(who.clone(), 0.0 + points);
                }
            };
            if !wb {
                add(w, if bb { bye } else { sw });
            }
            if !bb {
                add(b, if wb { bye } else { sb });
            }
        }
    }
    round_start
}

/// The item of each game, pushed onto `items` in the event's order.
pub(super) fn game_items(event: &EventGames, items: &mut Vec<Item>) {
    let (games, sides) = (event.games, event.sides);
    let round_start = scores_at_round_start(event);
    // each opening's games, and its place among the event's openings in
    // the order they first come (1 = the first)
    let mut by_opening: BTreeMap<&str, (usize, Vec<usize>)> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        if let Some(o) = &g.opening {
            let next = by_opening.len() + 1;
            by_opening.entry(o).or_insert((next, Vec::new())).1.push(i);
        }
    }
    let mut in_round: BTreeMap<(u64, &String), usize> = BTreeMap::new();
    for (g, (w, b)) in games.iter().zip(sides) {
        if let Some(r) = round_number(g.tag("Round")) {
            for who in [w, b] {
                *in_round.entry((r as u64, who)).or_default() += 1;
            }
        }
    }
    // the game items' texts: one copy of each name, result and opening
    let mut interner = crate::base::interner::Interner::default();
    let mut shared = |s: &str| Value::Str(Text::Shared(interner.get(s)));
    for (i, g) in games.iter().enumerate() {
        let (w, b) = &sides[i];
        let round = round_number(g.tag("Round"));
        let games_in_round = |who: &String| {
            round.map_or(Value::None, |r| {
                num(in_round.get(&(r as u64, who)).copied().unwrap_or(0) as f64)
            })
        };
        // the scores as the game's round began (read, not copied)
        let before = round.and_then(|r| round_start.get(&(r as u64)));
        let score_before =
            |who: &String| num(before.and_then(|s| s.get(who)).copied().unwrap_or(0.0));
        let prev = i.checked_sub(1).map(|p| &sides[p]);
        // the opening, its place among the event's, its games, the other
        // game on it when there are two, and whether that one has the
        // colours swapped
        let [opening, index, on_it, partner, swapped] = match &g.opening {
            Some(o) => {
                let (place, same) = &by_opening[o.as_str()];
                let partner = (same.len() == 2).then(|| same[if same[0] == i { 1 } else { 0 }]);
                [
                    shared(o),
                    num(*place as f64),
                    num(same.len() as f64),
                    partner.map_or(Value::None, |p| num((p + 1) as f64)),
                    partner.map_or(Value::None, |p| {
                        Value::Bool(sides[p].0 == *b && sides[p].1 == *w)
                    }),
                ]
            }
            None => std::array::from_fn(|_| Value::None),
        };
        // given in the names' order, so that `done` has nothing to sort
        let mut f = Fields::with_capacity(GAME_FIELDS);
        f.insert("black", shared(b));
        f.insert("black_games_in_round", games_in_round(b));
        f.insert("black_score_before", score_before(b));
        f.insert("number", num((i + 1) as f64));
        f.insert("opening", opening);
        f.insert("opening_games", on_it);
        f.insert("opening_index", index);
        f.insert("opening_partner", partner);
        f.insert("opening_swapped", swapped);
        f.insert("previous_black", prev.map_or(Value::None, |p| shared(&p.1)));
        f.insert("previous_white", prev.map_or(Value::None, |p| shared(&p.0)));
        f.insert("result", shared(g.tag("Result")));
        f.insert("round", round.map_or(Value::None, Value::Num));
        f.insert("white", shared(w));
        f.insert("white_games_in_round", games_in_round(w));
        f.insert("white_score_before", score_before(w));
        items.push(Item {
            kind: ScopeKind::EventGame,
            fields: f.done(),
            // made when a finding asks for it (`EventCase::places`)
            evidence: Vec::new(),
            game: Some(i),
        });
    }
}
