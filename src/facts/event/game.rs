//! A game as the event level keeps it (the tags it reads and where the
//! game is), and the names of its players: the engine a name stands for,
//! an entrant's every version under one name.

use std::collections::BTreeMap;

use crate::findings::Evidence;
use crate::ingest::pgn::PgnGame;

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
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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

/// A game's header that could not be read again from its file (which
/// may have changed since), at the game's first line.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}: {source}")]
pub struct HeaderError {
    pub file: String,
    pub line: u64,
    pub source: std::io::Error,
}

impl GameInfo {
    pub fn from_game(file: &str, order: usize, g: &PgnGame) -> GameInfo {
        let mut book: Vec<String> = Vec::new();
        for (i, m) in g.moves.iter().enumerate() {
            let is_book = g.comments_of(m).iter().any(|c| c.annotations.is_book());
            if !is_book {
                break;
            }
            book.push(g.written_of(i).to_string());
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
    pub fn header(&self) -> Result<PgnGame, HeaderError> {
        let tags = crate::ingest::pgn::read_tags_at(
            std::path::Path::new(&self.file),
            self.offset,
            self.line,
        )
        .map_err(|source| HeaderError {
            file: self.file.to_string(),
            line: self.line,
            source,
        })?;
        Ok(PgnGame {
            index: self.game.saturating_sub(1),
            offset: 0,
            line: self.line,
            tags,
            preamble: Vec::new(),
            moves: Vec::new(),
            comments: Vec::new(),
            written: Vec::new(),
            nags: Vec::new(),
            nag_moves: Vec::new(),
            outcome: None,
            variations: 0,
            problems: Vec::new(),
            unread: Default::default(),
        })
    }

    pub(super) fn evidence(&self, note: String) -> Evidence {
        Evidence::at_line(&self.file, self.line, 1, 0, note)
    }

    /// The rating its tag `elo` (`WhiteElo` or `BlackElo`) gives, where it
    /// is a positive number.
    pub(super) fn rating(&self, elo: &str) -> Option<f64> {
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
