//! The passive test's tally, in two passes over the games, so that its
//! memory does not hold every choice: the first ([`Census`]) keeps 16
//! bytes a choice (a hash of its position and its engine) and learns which
//! positions two engines or more chose in; the second ([`Tally`]) keeps
//! what the report needs of those positions only, in small sorted lists.
//! The positions one engine alone chose in (most of an event's) are only
//! counted. The report is the one a table of every choice gave.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};

use compact_str::CompactString;

use super::passive::Choice;
use super::signature::{Said, Settings};

/// A position's key (its EPD) as a 64-bit hash: the first pass tells
/// positions apart by it (two positions of an event sharing one is
/// unlikely below a billion positions; it would count one position less
/// and keep a position for the second pass that it then finds to be one
/// engine's). The second pass reads the keys themselves.
fn key_hash(key: &str) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

/// The first pass: the engines, and in which positions each chose.
#[derive(Debug, Default)]
pub struct Census {
    names: Vec<String>,
    ids: HashMap<String, u32>,
    /// Whether each engine played a move (not only PV moves).
    played: Vec<bool>,
    /// (key hash, engine) of every choice, sorted and deduplicated
    /// whenever the list is full, before it grows.
    seen: Vec<(u64, u32)>,
    choices: usize,
}

impl Census {
    pub fn new() -> Census {
        Census::default()
    }

    fn id(&mut self, engine: &str) -> u32 {
        if let Some(&id) = self.ids.get(engine) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(engine.to_string());
        self.ids.insert(engine.to_string(), id);
        self.played.push(false);
        id
    }

    /// Count one game's choices.
    pub fn add(&mut self, choices: &[Choice]) {
        for c in choices {
            let id = self.id(&c.engine);
            self.played[id as usize] |= c.played;
            if self.seen.len() == self.seen.capacity() {
                // a choice seen before (the same engine in the same
                // position) needs no room; grow only when most are new
                self.seen.sort_unstable();
                self.seen.dedup();
                if self.seen.len() * 4 > self.seen.capacity() * 3 {
                    self.seen.reserve(self.seen.capacity());
                }
            }
            self.seen.push((key_hash(&c.key), id));
            self.choices += 1;
        }
    }

    /// The choices counted.
    pub fn choices(&self) -> usize {
        self.choices
    }

    /// What the second pass needs: the engines, the positions counted and
    /// the positions two engines or more chose in.
    pub fn finish(mut self) -> Tally {
        self.seen.sort_unstable();
        self.seen.dedup();
        let mut positions = 0;
        let mut shared = Vec::new();
        for run in self.seen.chunk_by(|a, b| a.0 == b.0) {
            positions += 1;
            if run.len() >= 2 {
                shared.push(run[0].0);
            }
        }
        let rank = |keep: &dyn Fn(usize) -> bool| {
            let mut order: Vec<usize> = (0..self.names.len()).filter(|&i| keep(i)).collect();
            order.sort_by(|&a, &b| self.names[a].cmp(&self.names[b]));
            let mut rank = vec![None; self.names.len()];
            for (r, &i) in order.iter().enumerate() {
                rank[i] = Some(r);
            }
            let names = order.iter().map(|&i| self.names[i].clone()).collect();
            (names, rank)
        };
        let (engines, rank_all) = rank(&|_| true);
        let (players, rank_played) = rank(&|i| self.played[i]);
        Tally {
            ids: self.ids,
            engines,
            rank_all: rank_all.into_iter().map(|r| r.unwrap_or(0)).collect(),
            players,
            rank_played,
            positions,
            choices: self.choices,
            shared,
            table: BTreeMap::new(),
        }
    }
}

/// How often each move was chosen, in UCI order: a position has a few.
type Moves = Vec<(CompactString, u32)>;

/// One more choice of move `m`.
fn bump(moves: &mut Moves, m: &str) {
    match moves.binary_search_by(|(k, _)| k.as_str().cmp(m)) {
        Ok(i) => moves[i].1 += 1,
        Err(i) => moves.insert(i, (m.into(), 1)),
    }
}

/// The move chosen most often; of equals, the first in UCI order.
fn most_chosen(moves: &Moves) -> Option<String> {
    moves
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(m, _)| m.to_string())
}

/// What one engine chose in one shared position.
#[derive(Debug)]
struct Seen {
    played: Moves,
    from_pv: Moves,
    /// The played moves' scores, summed in order, and how many.
    score_sum: f64,
    scores: u32,
    /// The PV of its first played move there.
    pv: Option<Box<[String]>>,
}

/// A shared position: the weight of its first choice, and each engine's
/// choices (by the first pass's engine number).
#[derive(Debug)]
struct Entry {
    weight: f64,
    per: Vec<(u32, Seen)>,
}

/// The second pass: the choices in the shared positions.
#[derive(Debug)]
pub struct Tally {
    ids: HashMap<String, u32>,
    /// Every engine, by name; and each engine's place among them.
    engines: Vec<String>,
    rank_all: Vec<usize>,
    /// The engines that played a move, by name; and each engine's place
    /// among them.
    players: Vec<String>,
    rank_played: Vec<Option<usize>>,
    positions: usize,
    choices: usize,
    /// The key hashes of the positions two engines or more chose in.
    shared: Vec<u64>,
    table: BTreeMap<Box<str>, Entry>,
}

impl Tally {
    /// The choices counted by the first pass.
    pub fn choices(&self) -> usize {
        self.choices
    }

    /// Tally one game's choices (the same games as the first pass's, in
    /// the same order).
    pub fn add(&mut self, choices: Vec<Choice>) {
        for c in choices {
            if self.shared.binary_search(&key_hash(&c.key)).is_err() {
                continue;
            }
            let Some(&e) = self.ids.get(&c.engine) else {
                continue;
            };
            if !self.table.contains_key(c.key.as_str()) {
                let first = Entry {
                    weight: c.weight,
                    per: Vec::new(),
                };
                self.table.insert(c.key.clone().into_boxed_str(), first);
            }
            let Some(entry) = self.table.get_mut(c.key.as_str()) else {
                continue;
            };
            let i = match entry.per.binary_search_by_key(&e, |(k, _)| *k) {
                Ok(i) => i,
                Err(i) => {
                    let seen = Seen {
                        played: Vec::new(),
                        from_pv: Vec::new(),
                        score_sum: std::iter::empty::<f64>().sum(),
                        scores: 0,
                        pv: None,
                    };
                    entry.per.insert(i, (e, seen));
                    i
                }
            };
            let seen = &mut entry.per[i].1;
            if c.played {
                bump(&mut seen.played, &c.uci);
                if let Some(s) = c.score {
                    seen.score_sum += s;
                    seen.scores += 1;
                }
                if seen.pv.is_none() {
                    seen.pv = Some(c.pv.into_boxed_slice());
                }
            } else {
                bump(&mut seen.from_pv, &c.uci);
            }
        }
    }

    /// Pairwise weighted agreement in shared positions. An engine's choice
    /// in a position is the move it played there most often, else the
    /// move its PVs gave most often. Pairs with fewer than
    /// `min_positions` shared positions get no match and stay out of the
    /// field.
    pub fn analyze(self, min_positions: usize, settings: &Settings) -> super::Report {
        let n = self.engines.len();
        let mut same = vec![vec![0f64; n]; n];
        let mut total = vec![vec![0f64; n]; n];
        let mut common = vec![vec![0usize; n]; n];
        for entry in self.table.values() {
            let w = entry.weight;
            if w <= 0.0 || entry.per.len() < 2 {
                continue;
            }
            let chosen: Vec<(usize, String)> = (entry.per.iter())
                .filter_map(|(e, s)| {
                    let moves = if s.played.is_empty() {
                        &s.from_pv
                    } else {
                        &s.played
                    };
                    most_chosen(moves).map(|m| (self.rank_all[*e as usize], m))
                })
                .collect();
            for (a, ma) in &chosen {
                for (b, mb) in &chosen {
                    if a == b {
                        continue;
                    }
                    common[*a][*b] += 1;
                    total[*a][*b] += w;
                    if ma == mb {
                        same[*a][*b] += w;
                    }
                }
            }
        }
        let mut matches = vec![vec![None; n]; n];
        for i in 0..n {
            for j in 0..n {
                if i != j && common[i][j] >= min_positions.max(1) && total[i][j] > 0.0 {
                    matches[i][j] = Some(same[i][j] / total[i][j]);
                }
            }
        }
        drop((same, total));
        let z = super::z_scores(&matches);
        // the table let go of before the signatures are analysed
        let field = self.field();
        let Tally {
            engines,
            players,
            positions,
            table,
            ..
        } = self;
        drop(table);
        super::Report {
            engines,
            positions,
            matches,
            common,
            z,
            self_match: vec![None; n],
            failures: BTreeMap::new(),
            signature: Some(signature(&players, &field, settings)),
        }
    }

    /// What the evaluation signatures read: positions where two engines
    /// or more played a move (not book, not read from a PV), each
    /// engine's move (its most frequent there), mean score and first PV.
    fn field(&self) -> Vec<Vec<(usize, Said)>> {
        (self.table.values())
            .filter_map(|entry| {
                let mut row: Vec<(usize, Said)> = (entry.per.iter())
                    .filter(|(_, s)| !s.played.is_empty())
                    .filter_map(|(e, s)| {
                        let said = Said {
                            mv: most_chosen(&s.played),
                            score: (s.scores > 0).then(|| s.score_sum / f64::from(s.scores)),
                            pv: s.pv.as_deref().unwrap_or_default().to_vec(),
                        };
                        Some((self.rank_played[*e as usize]?, said))
                    })
                    .collect();
                row.sort_by_key(|(e, _)| *e);
                (row.len() >= 2).then_some(row)
            })
            .collect()
    }
}

/// The evaluation signatures of the engines that played a move, over
/// `field`.
fn signature(
    players: &[String],
    field: &[Vec<(usize, Said)>],
    settings: &Settings,
) -> super::signature::Signature {
    let mut sig = super::signature::analyze_field(players, field, settings);
    sig.notes.push(format!(
        "{} positions were played by two engines or more; {} by {} or more with an evaluation, which is what the residuals need",
        field.len(),
        sig.consensus_positions,
        super::signature::MIN_SCORERS
    ));
    sig
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(engine: &str, key: &str, uci: &str, played: bool) -> Choice {
        Choice {
            engine: engine.into(),
            key: key.into(),
            uci: uci.into(),
            played,
            weight: 1.0,
            score: played.then_some(10.0),
            pv: Vec::new(),
        }
    }

    /// Both passes over the same games.
    fn tally(games: &[Vec<Choice>]) -> Tally {
        let mut census = Census::new();
        for g in games {
            census.add(g);
        }
        let mut t = census.finish();
        for g in games {
            t.add(g.clone());
        }
        t
    }

    #[test]
    fn only_the_shared_positions_are_kept() {
        // 20,000 positions one engine alone chose in, 3 that two chose in
        let mut games: Vec<Vec<Choice>> = (0..20_000)
            .map(|i| vec![choice(["a", "b"][i % 2], &format!("p{i}"), "e2e4", true)])
            .collect();
        for k in 0..3 {
            games.push(vec![
                choice("a", &format!("s{k}"), "e2e4", true),
                choice(
                    "b",
                    &format!("s{k}"),
                    if k == 0 { "d2d4" } else { "e2e4" },
                    false,
                ),
            ]);
        }
        let t = tally(&games);
        assert_eq!((t.positions, t.choices, t.table.len()), (20_003, 20_006, 3));
        let r = t.analyze(1, &Settings::default());
        assert_eq!(r.engines, ["a", "b"]);
        assert_eq!(r.positions, 20_003);
        assert_eq!(r.common[0][1], 3);
        assert_eq!(r.matches[0][1], Some(2.0 / 3.0));
    }

    #[test]
    fn the_first_pass_keeps_a_repeated_choice_once() {
        // the same game a hundred thousand times: its choices, not theirs
        let game = vec![
            choice("a", "p", "e2e4", true),
            choice("b", "p", "e2e4", true),
        ];
        let mut census = Census::new();
        for _ in 0..100_000 {
            census.add(&game);
        }
        assert_eq!(census.choices(), 200_000);
        assert!(census.seen.capacity() <= 8, "{}", census.seen.capacity());
        let t = census.finish();
        assert_eq!((t.positions, t.shared.len()), (1, 1));
    }
}
