//! The items of every pair of an event's entrants, including pairs that
//! never met: their games, colours and points.

use std::collections::BTreeMap;

use super::event_games::EventGames;
use super::item::{Fields, Item, num, text};
use crate::timeline::ScopeKind;

/// The item of each pair of entrants of `list` (each pair once, in
/// order), pushed onto `items`; `placed` gives each game's sides as places
/// in `list`.
pub(super) fn pair_items(
    event: &EventGames,
    list: &[&String],
    placed: &[(Option<usize>, Option<usize>)],
    items: &mut Vec<Item>,
) {
    let (name, games) = (event.name, event.games);
    // the pairs, every one, met or not: each game is counted for its pair
    // in one pass over the games (in order, so each pair's sums are added
    // in the games' order)
    #[derive(Clone, Copy, Default)]
    struct Met {
        games: usize,
        first_white: usize,
        second_white: usize,
        first_points: f64,
        second_points: f64,
        first_game: Option<usize>,
    }
    // by the pair's places (the lower first): only the pairs that met
    let mut met: BTreeMap<(usize, usize), Met> = BTreeMap::new();
    for (i, &(pw, pb)) in placed.iter().enumerate() {
        let (Some(w), Some(b)) = (pw, pb) else {
            continue;
        };
        if w == b {
            continue;
        }
        // whether the pair's first (the lower place) had White
        let first_white = w < b;
        let m = met.entry((w.min(b), w.max(b))).or_default();
        m.games += 1;
        m.first_game.get_or_insert(i);
        if first_white {
            m.first_white += 1;
        } else {
            m.second_white += 1;
        }
        if let Some((sw, sb)) = event.points_of(games[i].tag("Result")) {
            let (fp, sp) = if first_white { (sw, sb) } else { (sb, sw) };
            m.first_points += fp;
            m.second_points += sp;
        }
    }
    for (a_i, a) in list.iter().enumerate() {
        for (b_i, b) in list.iter().enumerate().skip(a_i + 1) {
            let Met {
                games: n,
                first_white: aw,
                second_white: bw,
                first_points: ap,
                second_points: bp,
                first_game,
            } = met.get(&(a_i, b_i)).copied().unwrap_or_default();
            let mut evidence = Vec::new();
            if let Some(i) = first_game {
                evidence.push(games[i].evidence(format!("the first game of {a} and {b}")));
            }
            if evidence.is_empty()
                && let Some(g) = games.first()
            {
                evidence.push(g.evidence(format!("{a} and {b} have no game in {name}")));
            }
            let mut f = Fields::default();
            f.insert("first", text(a));
            f.insert("second", text(b));
            f.insert("games", num(n as f64));
            f.insert("first_white", num(aw as f64));
            f.insert("second_white", num(bw as f64));
            f.insert("first_points", num(ap));
            f.insert("second_points", num(bp));
            items.push(Item {
                kind: ScopeKind::Pairing,
                fields: f.done(),
                evidence,
                game: None,
            });
        }
    }
}
