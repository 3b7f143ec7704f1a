//! What the batch keeps of each game: a compact record whose texts are
//! shared with every other record that has them.

use std::sync::Arc;

use crate::base::interner::Interner;
use crate::findings::Finding;
use crate::pipeline;

/// A text shared by every record that has it, read as a `str`. One
/// pointer wide: an `Arc<str>` is two, and a record holds ten texts, kept
/// for every game of the batch to its end.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Shared(Arc<String>);

impl serde::Serialize for Shared {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Shared {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shared, D::Error> {
        String::deserialize(d).map(|s| Shared(Arc::new(s)))
    }
}

impl std::ops::Deref for Shared {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl std::borrow::Borrow<str> for Shared {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl std::fmt::Display for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl From<&str> for Shared {
    fn from(s: &str) -> Shared {
        Shared(Arc::new(s.to_string()))
    }
}

/// What the batch keeps of one game. Its texts are shared with every
/// other record that has the same (`Interner`): an archive repeats its
/// file, event, players, results and terminations from game to game, so a
/// record costs little more than its numbers and findings.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    pub file: Shared,
    pub file_index: usize,
    pub game: usize,
    /// The tags, trimmed (empty when absent).
    pub event: Shared,
    pub round: Shared,
    pub white: Shared,
    pub black: Shared,
    pub result: Shared,
    pub plies: usize,
    /// The TerminationDetails tag.
    pub details: Shared,
    pub computed_rule: Shared,
    pub computed_result: Shared,
    pub computed_ply: Option<u32>,
    pub findings: Vec<Finding>,
    /// The replay stopped before the end of the record.
    pub incomplete: bool,
    /// The line the game starts on in its file.
    pub line: u64,
    /// Part of an event (not a case folder's game, a scenario with its own
    /// ruleset): its header went to the event-level rules.
    pub in_event: bool,
}

impl GameRecord {
    /// The game as the standings see it.
    pub fn standing(&self) -> crate::facts::standings::Game {
        crate::facts::standings::Game::from_tags(|k| match k {
            "Event" => &self.event,
            "Round" => &self.round,
            "White" => &self.white,
            "Black" => &self.black,
            "Result" => &self.result,
            "TerminationDetails" => &self.details,
            _ => "",
        })
    }
}

/// What the batch keeps of a game: its record (its texts shared through
/// `texts`), its header for the event-level rules when it is part of an
/// event, and its JSON line as `audit --format json` writes it.
pub(super) fn record(
    file: &str,
    file_index: usize,
    g: pipeline::GameAudit,
    in_event: bool,
    texts: &std::sync::Mutex<Interner<Shared>>,
    line: fn(&pipeline::GameAudit) -> String,
) -> (GameRecord, Option<crate::facts::event::GameInfo>, String) {
    let tag = |k: &str| g.game.tag(k).unwrap_or("").trim();
    let computed = g.judgement.as_ref().and_then(|j| j.computed.as_ref());
    let json = line(&g);
    let [
        file,
        event,
        round,
        white,
        black,
        result,
        details,
        computed_rule,
        computed_result,
    ] = {
        // a worker that panicked while holding the lock left it whole
        let mut t = texts.lock().unwrap_or_else(|e| e.into_inner());
        [
            file,
            tag("Event"),
            tag("Round"),
            tag("White"),
            tag("Black"),
            tag("Result"),
            tag("TerminationDetails"),
            computed.map_or("", |c| c.rule.as_str()),
            computed.map_or("", |c| c.result.as_str()),
        ]
        .map(|s| t.get(s))
    };
    let record = GameRecord {
        incomplete: g.replay.stop.is_some(),
        file,
        file_index,
        game: g.game.index + 1,
        event,
        round,
        white,
        black,
        result,
        plies: g.replay.plies.len(),
        details,
        computed_rule,
        computed_result,
        computed_ply: computed.map(|c| c.ply),
        line: g.game.line,
        in_event,
        findings: g.findings,
    };
    let info = in_event.then(|| crate::facts::event::GameInfo::from_game(&record.file, 0, &g.game));
    (record, info, json)
}
