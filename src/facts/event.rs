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

use crate::base::value::{Text, Value};
use crate::facts::standings::{self, is_bye};
use crate::findings::Evidence;
use crate::ingest::pgn::PgnGame;
use crate::timeline::ScopeKind;

/// The tags the event level reads of each game (the standings' among
/// them). A game's other tags are read again from its file when they are
/// needed (`GameInfo::header`), so that an archive's event does not keep
/// every header in memory.
pub const EVENT_TAGS: [&str; 9] = [
    "Event",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteElo",
    "BlackElo",
    "TerminationDetails",
];

/// What the event level keeps of one game: the tags it reads and where the
/// game is.
#[derive(Debug, Clone)]
pub struct GameInfo {
    pub file: String,
    /// Where the game starts in its file: byte offset and 1-based line.
    pub offset: u64,
    pub line: u64,
    /// The game's number in its file (1-based).
    pub game: usize,
    /// Its place in the whole input, for ordering.
    pub order: usize,
    /// The values of [`EVENT_TAGS`] (trimmed; empty when absent), one after
    /// the other, and where each ends.
    values: Box<str>,
    ends: [u32; EVENT_TAGS.len()],
    /// The FEN tag and the moves recorded as book, when there are any.
    pub opening: Option<String>,
}

impl GameInfo {
    pub fn from_game(file: &str, order: usize, g: &PgnGame) -> GameInfo {
        let mut book: Vec<String> = Vec::new();
        for m in &g.moves {
            let is_book = g.comments_of(m).iter().any(|c| {
                c.annotations.tcec().is_some_and(|t| t.book)
                    || c.annotations.cutechess().is_some_and(|t| t.book)
            });
            if !is_book {
                break;
            }
            book.push(m.written.to_string());
        }
        let fen = g.tag("FEN").map(str::trim).filter(|f| !f.is_empty());
        let opening = match (fen, book.is_empty()) {
            (None, true) => None,
            (fen, _) => Some(
                fen.map(|f| format!("[{f}] "))
                    .into_iter()
                    .chain(std::iter::once(book.join(" ")))
                    .collect::<String>()
                    .trim()
                    .to_string(),
            ),
        };
        let mut values = String::new();
        let mut ends = [0u32; EVENT_TAGS.len()];
        for (end, name) in ends.iter_mut().zip(EVENT_TAGS) {
            values.push_str(g.tag(name).map_or("", str::trim));
            *end = u32::try_from(values.len()).unwrap_or(u32::MAX);
        }
        GameInfo {
            file: file.to_string(),
            offset: g.offset,
            line: g.line,
            game: g.index + 1,
            order,
            values: values.into_boxed_str(),
            ends,
            opening,
        }
    }

    /// The value of one of [`EVENT_TAGS`], trimmed; empty when the game has
    /// no such tag. The other tags are not kept: asking for one is a
    /// mistake in arbiter, which a test guards against.
    pub fn tag(&self, name: &str) -> &str {
        // (a match finds the name by its length and bytes, not by comparing
        // it with each name in turn: the event level asks for tags some ten
        // times a game)
        let i = match name {
            "Event" => 0,
            "Date" => 1,
            "Round" => 2,
            "White" => 3,
            "Black" => 4,
            "Result" => 5,
            "WhiteElo" => 6,
            "BlackElo" => 7,
            "TerminationDetails" => 8,
            _ => {
                debug_assert!(false, "{name} is not one of the event tags");
                return "";
            }
        };
        debug_assert_eq!(EVENT_TAGS[i], name, "the match follows EVENT_TAGS");
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        self.values.get(start..self.ends[i] as usize).unwrap_or("")
    }

    /// The game's header (every tag, no moves), read again from its file,
    /// to choose the ruleset's variant as the game's own audit does.
    pub fn header(&self) -> Result<PgnGame, String> {
        let tags = crate::ingest::pgn::read_tags_at(
            std::path::Path::new(&self.file),
            self.offset,
            self.line,
        )
        .map_err(|e| format!("{}:{}: {e}", self.file, self.line))?;
        Ok(PgnGame {
            index: self.game.saturating_sub(1),
            offset: 0,
            line: self.line,
            tags,
            preamble: Vec::new(),
            moves: Vec::new(),
            comments: Vec::new(),
            outcome: None,
            variations: 0,
            problems: Vec::new(),
        })
    }

    fn evidence(&self, note: String) -> Evidence {
        Evidence::at_line(&self.file, self.line, 1, 0, note)
    }

    /// The rating its tag `elo` (`WhiteElo` or `BlackElo`) gives, where it
    /// is a positive number.
    fn rating(&self, elo: &str) -> Option<f64> {
        self.tag(elo).parse::<f64>().ok().filter(|r| *r > 0.0)
    }
}

/// The engine a player name stands for: the name without its trailing
/// version words (a word with a digit in it). "AllieStein v0.3dev-n4" and
/// "AllieStein v0.2-n4" are both "AllieStein"; "Rodent III 0.276" is
/// "Rodent III". A name that is all version words stays whole.
pub fn engine_of(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let keep = words
        .iter()
        .rposition(|w| !w.chars().any(|c| c.is_ascii_digit()))
        .map_or(words.len(), |i| i + 1);
    words[..keep.max(1).min(words.len())].join(" ")
}

/// The round's number: the Round tag before any dot ("3.1" is round 3).
pub fn round_number(round: &str) -> Option<f64> {
    round
        .split('.')
        .next()
        .and_then(|r| r.trim().parse::<f64>().ok())
}

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

/// The entrant names of one event's games: every version of an engine
/// under one name ("AllieStein v0.2-n4 / AllieStein v0.3dev-n4" when the
/// name changed within the event, else the name as played).
pub fn entrant_names<'a>(names: impl Iterator<Item = &'a str>) -> BTreeMap<String, String> {
    let mut by_engine: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // each name's engine, found once per name (a name is in many games)
    let mut engine: BTreeMap<String, String> = BTreeMap::new();
    for n in names {
        let n = n.trim();
        if engine.contains_key(n) {
            continue;
        }
        let e = engine_of(n).to_lowercase();
        by_engine.entry(e.clone()).or_default().push(n.to_string());
        engine.insert(n.to_string(), e);
    }
    engine
        .into_iter()
        .map(|(n, e)| {
            let shown = by_engine[&e].join(" / ");
            (n, shown)
        })
        .collect()
}

/// Games grouped into events by their Event tag, each event's in the order
/// they were added: a batch adds each game as it is done, so that the games
/// are never held twice (all of them, then again by event).
#[derive(Debug, Default)]
pub struct Grouped(BTreeMap<String, Vec<GameInfo>>);

impl Grouped {
    pub fn add(&mut self, g: GameInfo) {
        match self.0.get_mut(g.tag("Event")) {
            Some(games) => games.push(g),
            None => {
                self.0.insert(g.tag("Event").to_string(), vec![g]);
            }
        }
    }
}

/// Build each event's case file from its games, one event at a time as the
/// iterator is read, so that only one event's items are in memory at once.
/// Events are ordered by their earliest Date tag, then by input order.
pub fn build<'a>(
    Grouped(by_event): Grouped,
    scoring: &'a [(String, f64)],
    tiebreaks: &'a [String],
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
            case(name, gs, &later, scoring, tiebreaks)
        })
}

/// "3.10" after "3.9".
fn natural(s: &str) -> Vec<u64> {
    s.split('.')
        .map(|p| p.trim().parse::<u64>().unwrap_or(u64::MAX))
        .collect()
}

/// An item's fields by name, in the names' order: a sorted list, which
/// holds an event's thousands of game items in about half the memory of a
/// map.
#[derive(Debug, Clone, Default)]
pub struct Fields(Vec<(&'static str, Value)>);

/// The fields of an event's game item: its list made at its size once.
const GAME_FIELDS: usize = 16;

impl Fields {
    fn with_capacity(n: usize) -> Fields {
        Fields(Vec::with_capacity(n))
    }

    /// Set field `name` (a second value replaces the first): kept in the
    /// order given until [`Fields::done`] sorts them, which every item's
    /// fields go through before they are read.
    fn insert(&mut self, name: &'static str, v: Value) {
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
    fn done(mut self) -> Fields {
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

fn num(n: impl Into<f64>) -> Value {
    Value::Num(n.into())
}

fn text(s: &str) -> Value {
    Value::Str(s.into())
}

fn case(
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
    let points_of = |result: &str| match result {
        "1-0" => Some((win, loss)),
        "0-1" => Some((loss, win)),
        "1/2-1/2" => Some((draw, draw)),
        _ => None,
    };
    let mut items = Vec::new();

    // the event
    let rounds: BTreeSet<u64> = games
        .iter()
        .filter_map(|g| round_number(g.tag("Round")))
        .map(|r| r as u64)
        .collect();
    let played = results
        .iter()
        .filter(|g| points_of(&g.result).is_some())
        .count();
    // the results' own texts (five a game) are not read again: freed
    // before the items are made, the event level's largest allocation
    drop(results);
    let entrants: BTreeSet<&String> = shown.values().collect();
    let first_date = games
        .iter()
        .map(|g| g.tag("Date"))
        .filter(|d| !d.is_empty() && !d.contains('?'))
        .min()
        .unwrap_or("");
    let mut f = Fields::default();
    f.insert("name", text(&name));
    f.insert("games", num(games.len() as f64));
    f.insert("played", num(played as f64));
    f.insert("entrants", num(entrants.len() as f64));
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
    items.push(Item {
        kind: ScopeKind::Event,
        fields: f.done(),
        evidence: games
            .first()
            .map(|g| g.evidence(format!("the first game of {name}")))
            .into_iter()
            .collect(),
        game: None,
    });

    // the games
    let mut score: BTreeMap<String, f64> = BTreeMap::new();
    let mut round_start: BTreeMap<u64, BTreeMap<String, f64>> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        let r = round_number(g.tag("Round")).map(|r| r as u64);
        if let Some(r) = r {
            round_start.entry(r).or_insert_with(|| score.clone());
        }
        if let Some((sw, sb)) = points_of(g.tag("Result")) {
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
    for (g, (w, b)) in games.iter().zip(&sides) {
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

    // the entrants
    let mut ratings: BTreeMap<&String, f64> = BTreeMap::new();
    for (g, (w, b)) in games.iter().zip(&sides) {
        for (who, elo) in [(w, "WhiteElo"), (b, "BlackElo")] {
            if let Some(r) = g.rating(elo) {
                let e = ratings.entry(who).or_insert(r);
                *e = e.max(r);
            }
        }
    }
    let mut by_rating: Vec<(&String, f64)> = ratings.iter().map(|(k, v)| (*k, *v)).collect();
    by_rating.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    // the entrants in order, and each game's sides as their places there
    // (`None`: a bye or a name no entrant has), found once: the entrants'
    // and the pairs' items below read the games through them in one pass
    // each, not once per entrant or pair
    let list: Vec<&String> = entrants.iter().copied().collect();
    let place = |who: &String| list.binary_search(&who).ok();
    let placed: Vec<(Option<usize>, Option<usize>)> =
        sides.iter().map(|(w, b)| (place(w), place(b))).collect();
    // each entrant's names as played, with the first game of each (1 =
    // the first), and its first game (from 0)
    let mut played_as: Vec<Vec<(String, usize)>> = vec![Vec::new(); list.len()];
    let mut first_game: Vec<Option<usize>> = vec![None; list.len()];
    for (i, (g, &(pw, pb))) in games.iter().zip(&placed).enumerate() {
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
        if let Some((sw, sb)) = points_of(games[i].tag("Result")) {
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
    EventCase {
        name,
        games,
        sides,
        items,
        standings: table,
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

    /// Which half of the expected ranking each entrant is in (`true`:
    /// upper), by rating; `Err` names an entrant without one.
    fn halves(&self) -> Result<BTreeMap<String, bool>, String> {
        let mut rated: Vec<(String, f64)> = Vec::new();
        for it in self.items.iter().filter(|it| it.kind == ScopeKind::Entrant) {
            let name = it
                .fields
                .get("name")
                .map(Value::display)
                .unwrap_or_default();
            match it.fields.get("rating") {
                Some(Value::Num(r)) => rated.push((name, *r)),
                _ => {
                    return Err(format!(
                        "no expected ranking: {name} has no WhiteElo/BlackElo tag in {}",
                        self.name
                    ));
                }
            }
        }
        rated.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let upper = rated.len().div_ceil(2);
        Ok(rated
            .into_iter()
            .enumerate()
            .map(|(k, (n, _))| (n, k < upper))
            .collect())
    }

    /// The accelerated Swiss check of game `gi` (the `accelerated_pairing` detector): `Some(why)` when the game pairs a lower-half program whose score before the round is at least `high_score` of the rounds played with an upper-half program, before round `until_round`, and the round could have been paired without any such game and without a rematch.
    pub fn accelerated_pairing(
        &self,
        gi: usize,
        until_round: f64,
        high_score: f64,
    ) -> Result<Option<String>, String> {
        let halves = self.halves()?;
        let g = &self.games[gi];
        let Some(round) = round_number(g.tag("Round")) else {
            return Err(format!("game {} has no round number", gi + 1));
        };
        if round >= until_round {
            return Ok(None);
        }
        let (w, b) = &self.sides[gi];
        if is_bye(w) || is_bye(b) {
            return Ok(None);
        }
        let Value::Num(sw) = self.field(gi + 1, ScopeKind::EventGame, "white_score_before") else {
            return Ok(None);
        };
        let Value::Num(sb) = self.field(gi + 1, ScopeKind::EventGame, "black_score_before") else {
            return Ok(None);
        };
        let played_before = round - 1.0;
        let high = |s: f64| s >= high_score * played_before;
        let upper = |n: &str| halves.get(n).copied();
        let crossing = |x: &str, sx: f64, y: &str| {
            upper(x) == Some(false) && high(sx) && upper(y) == Some(true)
        };
        if !(crossing(w, sw, b) || crossing(b, sb, w)) {
            return Ok(None);
        }
        // the round's players and the pairs that met before it
        let mut players: Vec<String> = Vec::new();
        let mut met: BTreeSet<(String, String)> = BTreeSet::new();
        let mut scores: BTreeMap<String, f64> = BTreeMap::new();
        for (i, h) in self.games.iter().enumerate() {
            let r = round_number(h.tag("Round"));
            let (x, y) = &self.sides[i];
            if r == Some(round) {
                if is_bye(x) || is_bye(y) {
                    continue;
                }
                players.extend([x.clone(), y.clone()]);
                let item = i + 1;
                for (who, key) in [(x, "white_score_before"), (y, "black_score_before")] {
                    if let Value::Num(s) = self.field(item, ScopeKind::EventGame, key) {
                        scores.insert(who.clone(), s);
                    }
                }
            } else if r.is_some_and(|r| r < round) {
                met.insert((x.clone().min(y.clone()), x.clone().max(y.clone())));
            }
        }
        let allowed = |x: &String, y: &String| {
            let key = (x.clone().min(y.clone()), x.clone().max(y.clone()));
            let sx = scores.get(x).copied().unwrap_or(0.0);
            let sy = scores.get(y).copied().unwrap_or(0.0);
            !met.contains(&key) && !crossing(x, sx, y) && !crossing(y, sy, x)
        };
        let mut budget: u64 = 2_000_000;
        let mut pairs = Vec::new();
        let mut used = vec![false; players.len()];
        match perfect_matching(&players, &allowed, &mut used, &mut pairs, &mut budget) {
            Some(true) => Ok(Some(format!(
                "round {round} could have been paired without such a game and without a rematch: {}",
                pairs
                    .iter()
                    .map(|(a, b): &(usize, usize)| format!("{} - {}", players[*a], players[*b]))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            Some(false) => Ok(None),
            None => Err(format!(
                "round {round}: too many pairings to search for one that avoids the meeting"
            )),
        }
    }
}

/// Backtracking search for a pairing of every player; `None` when the
/// budget ran out.
fn perfect_matching(
    players: &[String],
    allowed: &dyn Fn(&String, &String) -> bool,
    used: &mut [bool],
    pairs: &mut Vec<(usize, usize)>,
    budget: &mut u64,
) -> Option<bool> {
    let Some(a) = used.iter().position(|u| !u) else {
        return Some(true);
    };
    used[a] = true;
    for b in a + 1..players.len() {
        if used[b] || !allowed(&players[a], &players[b]) {
            continue;
        }
        if *budget == 0 {
            used[a] = false;
            return None;
        }
        *budget -= 1;
        used[b] = true;
        pairs.push((a, b));
        match perfect_matching(players, allowed, used, pairs, budget) {
            Some(true) => return Some(true),
            None => {
                used[a] = false;
                used[b] = false;
                pairs.pop();
                return None;
            }
            Some(false) => {}
        }
        pairs.pop();
        used[b] = false;
    }
    used[a] = false;
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounds in their natural order: each part a number, a longer round
    /// after its prefix, a part that is not a number after every number.
    #[test]
    fn rounds_are_ordered_part_by_part() {
        use std::cmp::Ordering::{Equal, Greater, Less};
        for (a, b, want) in [
            ("3.9", "3.10", Less),
            ("10.1", "9.2", Greater),
            ("3", "3.1", Less),
            ("3.1", "3.1", Equal),
            (" 3 . 2", "3.2", Equal),
            ("3.x", "3.99", Greater),
            ("3.x", "3.y", Equal),
            ("", "1", Greater),
        ] {
            assert_eq!(natural(a).cmp(&natural(b)), want, "{a:?} against {b:?}");
        }
    }

    #[test]
    fn engine_names_drop_version_words() {
        assert_eq!(engine_of("AllieStein v0.3dev-n4"), "AllieStein");
        assert_eq!(engine_of("Rodent III 0.276"), "Rodent III");
        assert_eq!(engine_of("The Baron 3.44.1"), "The Baron");
        assert_eq!(engine_of("Stockfish 10_dev"), "Stockfish");
        assert_eq!(engine_of("Deep Blue"), "Deep Blue");
        assert_eq!(engine_of("2.0"), "2.0");
        assert_eq!(engine_of(""), "");
    }

    #[test]
    fn versions_share_an_entrant_name() {
        let m = entrant_names(["A v1", "B 2", "A v2", " A v1 ", "a v3", "B 2"].into_iter());
        assert_eq!(m.len(), 4, "{m:?}");
        // in the order the names first came
        assert_eq!(m["A v1"], "A v1 / A v2 / a v3");
        assert_eq!(m["A v2"], "A v1 / A v2 / a v3");
        assert_eq!(m["a v3"], "A v1 / A v2 / a v3");
        assert_eq!(m["B 2"], "B 2");
    }

    /// An item's fields are read by name in the names' order, and a name
    /// given twice keeps its last value, whatever the order they came in.
    #[test]
    fn fields_are_sorted_and_a_later_value_replaces_an_earlier() {
        let mut f = Fields::default();
        for (k, v) in [
            ("white", 1.0),
            ("black", 2.0),
            ("round", 3.0),
            ("black", 4.0),
            ("a", 5.0),
            ("black", 6.0),
        ] {
            f.insert(k, num(v));
        }
        let f = f.done();
        let names: Vec<&str> = f.0.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["a", "black", "round", "white"]);
        for (k, v) in [("a", 5.0), ("black", 6.0), ("round", 3.0), ("white", 1.0)] {
            assert!(
                matches!(f.get(k), Some(Value::Num(x)) if *x == v),
                "{k}: {:?}",
                f.get(k)
            );
        }
        assert!(f.get("b").is_none());
    }

    #[test]
    fn rounds_are_numbered_before_the_dot() {
        assert_eq!(round_number("3.1"), Some(3.0));
        assert_eq!(round_number("12"), Some(12.0));
        assert_eq!(round_number("?"), None);
    }

    /// A game keeps the event tags it has (empty for those it lacks), and
    /// its whole header is read again from its file, with the same tags
    /// the first reading found.
    #[test]
    fn a_game_keeps_its_event_tags_and_reads_its_header_again() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("two.pgn");
        let text = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
                    [Event \" E \"]\n[Round \"2.1\"]\n[WhiteElo \"3400\"]\n[Variant \"x\"]\n[White \"B\"]\n\n1. d4 *\n";
        std::fs::write(&p, text).unwrap();
        let file = p.display().to_string();
        let mut splitter = crate::ingest::pgn::GameSplitter::new(std::io::BufReader::new(
            std::fs::File::open(&p).unwrap(),
        ));
        let mut infos = Vec::new();
        let mut games = Vec::new();
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            let g = crate::ingest::pgn::parse_game(&chunk);
            infos.push(GameInfo::from_game(&file, infos.len(), &g));
            games.push(g);
        }
        let [a, b] = infos.as_slice() else {
            panic!("{infos:?}")
        };
        assert_eq!(
            EVENT_TAGS.map(|t| a.tag(t)),
            ["E", "", "", "A", "B", "1-0", "", "", ""]
        );
        assert_eq!(
            EVENT_TAGS.map(|t| b.tag(t)),
            ["E", "", "2.1", "B", "", "", "3400", "", ""]
        );
        for (info, game) in infos.iter().zip(&games) {
            let h = info.header().unwrap();
            assert_eq!(h.tags, game.tags);
            assert_eq!((h.line, h.index), (game.line, game.index));
        }
        assert_eq!(b.header().unwrap().tag("Variant"), Some("x"));
        // the file changed under it: said, not a panic
        std::fs::write(&p, "").unwrap();
        let e = b.header().unwrap_err();
        assert!(
            e.contains("two.pgn") && e.contains("the file changed"),
            "{e}"
        );
    }

    /// The pairs' and the entrants' items, counted in one pass over the
    /// games, give what a direct count over every game gives for each pair
    /// and entrant: on generated events where some pairs never meet and
    /// others meet often, an engine plays under two names, a side is a bye,
    /// and some games are unfinished.
    #[test]
    fn pairs_and_entrants_are_what_every_game_gives() {
        let names = ["A 1", "A 2", "B", "C", "D", "E", "bye"];
        let results = ["1-0", "0-1", "1/2-1/2", "*"];
        let mut rng = crate::test_rng::Lcg(15);
        for round in 0..40 {
            let n = 1 + rng.below(30);
            let mut text = String::new();
            for i in 0..n {
                let w = names[rng.below(names.len())];
                let b = names[rng.below(names.len())];
                let r = results[rng.below(results.len())];
                text.push_str(&format!(
                    "[Event \"E\"]\n[Round \"{}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n{r}\n\n",
                    i / 3 + 1
                ));
            }
            let mut splitter = crate::ingest::pgn::GameSplitter::new(text.as_bytes());
            let mut games = Vec::new();
            while let Some(chunk) = splitter.next_chunk().unwrap() {
                let g = crate::ingest::pgn::parse_game(&chunk);
                games.push(GameInfo::from_game("e.pgn", games.len(), &g));
            }
            let scoring = [("win".to_string(), 1.0), ("draw".to_string(), 0.5)];
            let c = case("E".into(), games, &[], &scoring, &[]);
            let num = |it: &Item, k: &str| match it.fields.get(k) {
                Some(Value::Num(x)) => *x,
                other => panic!("{k}: {other:?}"),
            };
            let text_of = |it: &Item, k: &str| match it.fields.get(k) {
                Some(v) => v.display(),
                None => panic!("{k}"),
            };
            let points = |r: &str| match r {
                "1-0" => Some((1.0, 0.0)),
                "0-1" => Some((0.0, 1.0)),
                "1/2-1/2" => Some((0.5, 0.5)),
                _ => None,
            };
            let mut pairs = 0;
            for it in c.items.iter().filter(|i| i.kind == ScopeKind::Pairing) {
                pairs += 1;
                let (a, b) = (text_of(it, "first"), text_of(it, "second"));
                let (mut n, mut aw, mut bw, mut ap, mut bp) = (0.0, 0.0, 0.0, 0.0, 0.0);
                let mut first = None;
                for (i, (w, bl)) in c.sides.iter().enumerate() {
                    let a_white = *w == a && *bl == b;
                    if !(a_white || (*w == b && *bl == a)) {
                        continue;
                    }
                    n += 1.0;
                    first.get_or_insert(i);
                    *(if a_white { &mut aw } else { &mut bw }) += 1.0;
                    if let Some((sw, sb)) = points(c.games[i].tag("Result")) {
                        let (x, y) = if a_white { (sw, sb) } else { (sb, sw) };
                        ap += x;
                        bp += y;
                    }
                }
                let got = [
                    "games",
                    "first_white",
                    "second_white",
                    "first_points",
                    "second_points",
                ]
                .map(|k| num(it, k));
                assert_eq!(got, [n, aw, bw, ap, bp], "round {round}: {a} and {b}");
                let place = &it.evidence[0];
                match first {
                    Some(i) => assert_eq!(place.span.map(|s| s.line), Some(c.games[i].line)),
                    None => assert!(place.note.contains("have no game"), "{place:?}"),
                }
            }
            let entrants: Vec<&Item> = c
                .items
                .iter()
                .filter(|i| i.kind == ScopeKind::Entrant)
                .collect();
            assert_eq!(pairs, entrants.len() * entrants.len().saturating_sub(1) / 2);
            for it in entrants {
                let who = text_of(it, "name");
                let mut versions: Vec<(String, usize)> = Vec::new();
                let mut first = None;
                for (i, g) in c.games.iter().enumerate() {
                    for (n, s) in [
                        (g.tag("White"), &c.sides[i].0),
                        (g.tag("Black"), &c.sides[i].1),
                    ] {
                        if *s == who {
                            first.get_or_insert(i);
                            if !versions.iter().any(|(x, _)| x == n) {
                                versions.push((n.to_string(), i + 1));
                            }
                        }
                    }
                }
                assert_eq!(num(it, "versions"), versions.len() as f64, "{who}");
                let list: Vec<String> = versions
                    .iter()
                    .map(|(n, at)| format!("{n} (from game {at})"))
                    .collect();
                assert_eq!(text_of(it, "version_list"), list.join(", "), "{who}");
                let lines: Vec<Option<u64>> =
                    it.evidence.iter().map(|e| e.span.map(|s| s.line)).collect();
                let want: Vec<Option<u64>> = first
                    .into_iter()
                    .chain(versions.iter().skip(1).map(|(_, at)| at - 1))
                    .map(|i| Some(c.games[i].line))
                    .collect();
                assert_eq!(lines, want, "{who}");
            }
        }
    }
}
