//! Standings and tiebreaks, as a ruleset's `scoring` and `tiebreak` lines
//! define them, from the games' results.
//!
//! Tiebreaks are applied in the ruleset's order, each only among the
//! players still tied on everything before it (so a direct encounter is
//! scored among exactly the tied players). `organizer-decision` and
//! `playoff` cannot be computed: players still tied when they are reached
//! are reported as tied.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

/// One game's result, as the standings need it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Game {
    pub event: String,
    pub round: String,
    pub white: String,
    pub black: String,
    /// "1-0", "0-1", "1/2-1/2", or anything else (unfinished: not scored).
    pub result: String,
    /// The side whose engine crashed, stalled or lost the connection.
    pub crashed: Option<String>,
}

impl Game {
    /// From a game record: tags, and TerminationDetails for crashes.
    pub fn from_pgn(g: &crate::ingest::pgn::PgnGame) -> Game {
        Game::from_tags(|k| g.tag(k).unwrap_or(""))
    }

    /// From a lookup of the game's tags (empty when absent).
    pub fn from_tags<S: AsRef<str>>(tag_of: impl Fn(&str) -> S) -> Game {
        let tag = |k: &str| {
            let v = tag_of(k);
            let v = v.as_ref().trim();
            if v.is_empty() {
                "?".to_string()
            } else {
                v.to_string()
            }
        };
        let details = tag_of("TerminationDetails").as_ref().to_lowercase();
        let crashed = [
            "disconnect",
            "stall",
            "infinite loop",
            "crash",
            "illegal move",
        ]
        .iter()
        .any(|w| details.contains(w))
        .then(|| {
            if details.starts_with("white") {
                "white".to_string()
            } else if details.starts_with("black") {
                "black".to_string()
            } else {
                "unknown".to_string()
            }
        });
        Game {
            event: tag("Event"),
            round: tag("Round"),
            white: tag("White"),
            black: tag("Black"),
            result: tag("Result"),
            crashed,
        }
    }
}

/// A player's line in the standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub rank: usize,
    /// Players that no computed tiebreak separates share a rank.
    pub tied: bool,
    pub player: String,
    pub games: usize,
    pub points: f64,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub black_wins: usize,
    pub crashes: usize,
    /// The tiebreak values that were computed, in the ruleset's order.
    pub tiebreaks: Vec<(String, f64)>,
}

fn points_of(scoring: &[(String, f64)], what: &str, default: f64) -> f64 {
    scoring
        .iter()
        .find(|(k, _)| k == what)
        .map_or(default, |(_, v)| *v)
}

/// A bye's name: `bye` in any case, `-`, or nothing.
pub(crate) fn is_bye(name: &str) -> bool {
    // no character outside ASCII lowercases to `b`, `y` or `e`
    let n = name.trim();
    n.eq_ignore_ascii_case("bye") || n == "-" || n.is_empty()
}

/// The points of a win, a draw, a loss and a bye under a `scoring` line
/// (1, 1/2, 0 and 1 where it is silent).
pub fn points(scoring: &[(String, f64)]) -> (f64, f64, f64, f64) {
    (
        points_of(scoring, "win", 1.0),
        points_of(scoring, "draw", 0.5),
        points_of(scoring, "loss", 0.0),
        points_of(scoring, "bye", 1.0),
    )
}

/// The standings of one event's games.
pub fn standings(games: &[Game], scoring: &[(String, f64)], tiebreaks: &[String]) -> Vec<Row> {
    let acc = tallies(games, points(scoring));
    let tallied = Tallies {
        acc: &acc,
        pts: acc.iter().map(|(k, a)| (k.as_str(), a.points)).collect(),
    };
    let pts = &tallied.pts;
    let value = |tb: &str, p: &str, group: &BTreeSet<&str>| tallied.value(tb, p, group);
    // rank: points, then each tiebreak within the groups still tied
    let mut groups: Vec<Vec<&str>> = {
        let mut players: Vec<&str> = acc.keys().map(String::as_str).collect();
        players.sort_by(|x, y| pts[y].total_cmp(&pts[x]).then(x.cmp(y)));
        let mut out: Vec<Vec<&str>> = Vec::new();
        for p in players {
            match out.last_mut() {
                Some(g) if pts[g[0]] == pts[p] => g.push(p),
                _ => out.push(vec![p]),
            }
        }
        out
    };
    let mut computed: BTreeMap<&str, Vec<(String, f64)>> = BTreeMap::new();
    for tb in tiebreaks {
        let mut next = Vec::new();
        for g in groups {
            if g.len() == 1 {
                next.push(g);
                continue;
            }
            let set: BTreeSet<&str> = g.iter().copied().collect();
            let vals: Vec<(&str, Option<f64>)> =
                g.iter().map(|p| (*p, value(tb, p, &set))).collect();
            if vals.iter().any(|v| v.1.is_none()) {
                // not computable (organizer decision, playoff): stays tied
                next.push(g);
                continue;
            }
            let mut vals: Vec<(&str, f64)> = vals
                .into_iter()
                .map(|(p, v)| (p, v.unwrap_or(0.0)))
                .collect();
            for (p, v) in &vals {
                computed.entry(p).or_default().push((tb.clone(), *v));
            }
            vals.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(y.0)));
            let mut cur: Vec<&str> = Vec::new();
            let mut last: Option<f64> = None;
            for (p, v) in vals {
                if last.is_some_and(|l| l != v) {
                    next.push(std::mem::take(&mut cur));
                }
                cur.push(p);
                last = Some(v);
            }
            next.push(cur);
        }
        groups = next;
    }
    let mut rows = Vec::new();
    let mut rank = 1;
    for g in groups {
        let tied = g.len() > 1;
        for p in &g {
            let a = &acc[*p];
            rows.push(Row {
                rank,
                tied,
                player: p.to_string(),
                games: a.games,
                points: a.points,
                wins: a.wins,
                draws: a.draws,
                losses: a.losses,
                black_wins: a.black_wins,
                crashes: a.crashes,
                tiebreaks: computed.remove(p).unwrap_or_default(),
            });
        }
        rank += g.len();
    }
    rows
}

/// A player's tallies over the event's games.
#[derive(Default, Clone)]
struct Acc {
    games: usize,
    points: f64,
    wins: usize,
    draws: usize,
    losses: usize,
    black_wins: usize,
    crashes: usize,
    /// (opponent, points scored, round)
    against: Vec<(String, f64, String)>,
}

/// Each player's tallies over `games` (a bye is no player), under the
/// points of a win, a draw, a loss and a bye.
fn tallies(games: &[Game], (win, draw, loss, bye): (f64, f64, f64, f64)) -> BTreeMap<String, Acc> {
    let mut acc: BTreeMap<String, Acc> = BTreeMap::new();
    for g in games {
        let (sw, sb) = match g.result.as_str() {
            "1-0" => (win, loss),
            "0-1" => (loss, win),
            "1/2-1/2" => (draw, draw),
            _ => continue,
        };
        for (me, them, s, black) in [
            (&g.white, &g.black, sw, false),
            (&g.black, &g.white, sb, true),
        ] {
            if is_bye(me) {
                continue;
            }
            let a = acc.entry(me.clone()).or_default();
            if is_bye(them) {
                a.points += bye;
                continue;
            }
            a.games += 1;
            a.points += s;
            if s == win {
                a.wins += 1;
                if black {
                    a.black_wins += 1;
                }
            } else if s == draw {
                a.draws += 1;
            } else {
                a.losses += 1;
            }
            let side = if black { "black" } else { "white" };
            if g.crashed.as_deref() == Some(side) {
                a.crashes += 1;
            }
            a.against.push((them.clone(), s, g.round.clone()));
        }
    }
    acc
}

/// The players' tallies and their points by name: what the tiebreaks read.
struct Tallies<'a> {
    acc: &'a BTreeMap<String, Acc>,
    pts: BTreeMap<&'a str, f64>,
}

impl Tallies<'_> {
    /// The points of the opponents player `p` met, once a game.
    fn opp_scores(&self, p: &str) -> f64 {
        let (acc, pts) = (self.acc, &self.pts);
        acc[p]
            .against
            .iter()
            .map(|(o, _, _)| pts.get(o.as_str()).copied().unwrap_or(0.0))
            .sum()
    }

    /// A tiebreak's value for a player, among `group` (for direct
    /// encounter); `None` for a tiebreak that cannot be computed.
    fn value(&self, tb: &str, p: &str, group: &BTreeSet<&str>) -> Option<f64> {
        let (acc, pts) = (self.acc, &self.pts);
        let opp_scores = |p: &str| self.opp_scores(p);
        let a = &acc[p];
        Some(match tb {
            // fewer crashes rank higher (and zero is 0, not -0)
            "crash" => 0.0 - a.crashes as f64 + 0.0,
            "wins" => a.wins as f64,
            "black-wins" => a.black_wins as f64,
            "sonneborn-berger" => a
                .against
                .iter()
                .map(|(o, s, _)| s * pts.get(o.as_str()).copied().unwrap_or(0.0))
                .sum(),
            "buchholz" | "opponents-scores" => opp_scores(p),
            "opponents-opponents-scores" => a
                .against
                .iter()
                .map(|(o, _, _)| {
                    if acc.contains_key(o) {
                        opp_scores(o)
                    } else {
                        0.0
                    }
                })
                .sum(),
            "direct-encounter" => a
                .against
                .iter()
                .filter(|(o, _, _)| group.contains(o.as_str()))
                .map(|(_, s, _)| s)
                .sum(),
            "cumulative-score" => {
                let mut games: Vec<&(String, f64, String)> = a.against.iter().collect();
                games.sort_by_key(|g| round_key(&g.2));
                let mut run = 0.0;
                let mut sum = 0.0;
                for g in games {
                    run += g.1;
                    sum += run;
                }
                sum
            }
            "match-score" => a.points,
            _ => return None,
        })
    }
}

/// A round's parts as numbers, for its order ("3.10" after "3.9").
fn round_key(r: &str) -> Vec<u64> {
    r.split('.')
        .map(|x| x.trim().parse().unwrap_or(u64::MAX))
        .collect()
}

/// Pairs of a double round robin played a different number of times with
/// each colour, or not at all: (a, b, games a had White, games b had White).
pub fn unbalanced_pairs(games: &[Game]) -> Vec<(String, String, usize, usize)> {
    // how many games each (White, Black) pair played, byes apart, the
    // names borrowed: each pair of players is looked up twice, without a
    // copy of either name
    let mut p: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for g in games {
        if is_bye(&g.white) || is_bye(&g.black) {
            continue;
        }
        *p.entry((g.white.as_str(), g.black.as_str())).or_default() += 1;
    }
    let players: BTreeSet<&String> = games
        .iter()
        .flat_map(|g| [&g.white, &g.black])
        .filter(|n| !is_bye(n))
        .collect();
    let players: Vec<&String> = players.into_iter().collect();
    let mut out = Vec::new();
    for (i, a) in players.iter().enumerate() {
        for b in &players[i + 1..] {
            let ab = p.get(&(a.as_str(), b.as_str())).copied().unwrap_or(0);
            let ba = p.get(&(b.as_str(), a.as_str())).copied().unwrap_or(0);
            if ab != ba || ab == 0 {
                out.push(((*a).clone(), (*b).clone(), ab, ba));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(round: &str, w: &str, b: &str, r: &str) -> Game {
        Game {
            event: "e".into(),
            round: round.into(),
            white: w.into(),
            black: b.into(),
            result: r.into(),
            crashed: None,
        }
    }

    /// Games written `round white black result`, separated by `;`.
    fn games(list: &str) -> Vec<Game> {
        list.split(';')
            .map(|one| {
                let f: Vec<&str> = one.split_whitespace().collect();
                g(f[0], f[1], f[2], f[3])
            })
            .collect()
    }

    fn scoring() -> Vec<(String, f64)> {
        vec![
            ("win".into(), 1.0),
            ("draw".into(), 0.5),
            ("loss".into(), 0.0),
            ("bye".into(), 1.0),
        ]
    }

    #[test]
    fn sonneborn_berger_and_direct_encounter_break_ties() {
        // A and B tie on 2; A beat B; C scored 1 with a draw against each.
        let games =
            games("1 A B 1-0; 2 B C 1-0; 3 C A 1/2-1/2; 4 A C 1/2-1/2; 5 B A 1-0; 6 C B 0-1");
        let rows = standings(&games, &scoring(), &["direct-encounter".into()]);
        // B: 3 points (beat C twice, beat A once), A: 2, C: 1
        assert_eq!(rows[0].player, "B");
        assert_eq!(rows[0].points, 3.0);
        let rows = standings(
            &games[..4],
            &scoring(),
            &["direct-encounter".into(), "sonneborn-berger".into()],
        );
        // A 2, B 1, C 1: B and C tie; B beat C directly
        assert_eq!(rows[0].player, "A");
        assert_eq!((rows[1].player.as_str(), rows[1].rank), ("B", 2));
        assert_eq!(rows[1].tiebreaks[0], ("direct-encounter".into(), 1.0));
        assert_eq!((rows[2].player.as_str(), rows[2].rank), ("C", 3));
    }

    #[test]
    fn byes_opponents_scores_and_unresolved_ties() {
        let games = games("1 A B 1/2-1/2; 1 C BYE 1-0; 2 A C 0-1; 2 B BYE 1-0");
        let rows = standings(
            &games,
            &scoring(),
            &["opponents-scores".into(), "organizer-decision".into()],
        );
        // C: bye 1 + win 1 = 2; B: 0.5 + bye 1 = 1.5; A: 0.5
        assert_eq!(rows[0].player, "C");
        assert_eq!(rows[0].points, 2.0);
        assert_eq!(rows[0].games, 1, "a bye is no game");
        assert_eq!(rows[1].player, "B");
        let tied = standings(
            &[g("1", "X", "Y", "1/2-1/2")],
            &scoring(),
            &["organizer-decision".into()],
        );
        assert!(tied.iter().all(|r| r.tied && r.rank == 1));
    }

    #[test]
    fn a_bye_is_named_bye_in_any_case_a_dash_or_nothing() {
        for n in ["bye", " BYE ", "Bye", "-", "", "  "] {
            assert!(is_bye(n), "{n:?}");
        }
        for n in ["byes", "Bye 2", "b-ye", "\u{212a}bye", "\u{130}"] {
            assert!(!is_bye(n), "{n:?}");
        }
    }

    #[test]
    fn crashes_and_colour_balance() {
        let mut a = g("1", "A", "B", "0-1");
        a.crashed = Some("white".into());
        let games = vec![a, g("2", "B", "A", "0-1")];
        let rows = standings(&games, &scoring(), &["crash".into()]);
        assert_eq!(rows[0].player, "B", "tied on 1; A crashed once");
        assert_eq!(rows[1].crashes, 1);
        assert!(unbalanced_pairs(&games).is_empty());
        assert_eq!(
            unbalanced_pairs(&games[..1]),
            vec![("A".into(), "B".into(), 1, 0)]
        );
    }
}
