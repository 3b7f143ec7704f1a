//! One engine of a log: the name its findings give it, its own searches,
//! the side it played, and whether the log belongs to this game at all.

use crate::findings::codes;
use shakmaty::Color;

use super::{Record, evidence};
use crate::base::span::Span;
use crate::findings::{Evidence, Finding};
use crate::ingest::engine::{Activity, EngineActivity, Search};
use crate::ingest::logs::LoadedEngineLog;

/// One engine of a log, with what every step of its alignment reads.
pub(super) struct Engine<'a> {
    pub log: &'a LoadedEngineLog,
    /// Its name as the findings give it.
    pub shown: String,
    /// The side it played.
    pub side: Color,
    pub acts: &'a [Activity],
    /// Its own searches (not those on the opponent's time).
    pub searches: Vec<&'a Search>,
}

impl<'a> Engine<'a> {
    /// The engine of `activity` in log `l`.
    pub fn read(
        record: &Record,
        l: &'a LoadedEngineLog,
        activity: &'a EngineActivity,
    ) -> Engine<'a> {
        let (game, first) = (record.game, record.first);
        let EngineActivity {
            name: engine,
            activities: acts,
        } = activity;
        let shown = if engine.is_empty() {
            l.log
                .meta
                .get("engine")
                .cloned()
                .unwrap_or_else(|| "the engine".into())
        } else {
            engine.clone()
        };
        // Which side it played: the side to move in its own searches.
        let searches: Vec<&Search> = acts
            .iter()
            .filter_map(|a| match a {
                Activity::Search(s) if !s.go.ponder => Some(s.as_ref()),
                _ => None,
            })
            .collect();
        let mut white = 0;
        let mut black = 0;
        for s in &searches {
            let base = if s.fen.is_some() {
                first.saturating_sub(1) as usize
            } else {
                0
            };
            if (base + s.moves.len()) % 2 == 0 {
                white += 1
            } else {
                black += 1
            }
        }
        let side = match l.log.meta.get("side").map(|s| s.to_ascii_lowercase()) {
            Some(s) if s == "white" => Color::White,
            Some(s) if s == "black" => Color::Black,
            _ if white + black > 0 => {
                if white >= black {
                    Color::White
                } else {
                    Color::Black
                }
            }
            _ => {
                let name = engine.split('(').next().unwrap_or("").to_lowercase();
                let b = game.tag("Black").unwrap_or("").to_lowercase();
                if !name.is_empty() && b.starts_with(&name) {
                    Color::Black
                } else {
                    Color::White
                }
            }
        };
        Engine {
            log: l,
            shown,
            side,
            acts,
            searches,
        }
    }

    /// Evidence at `span` of the engine's log.
    pub fn ev(&self, span: Span, ply: Option<u32>, at: Option<String>, note: &str) -> Evidence {
        evidence(self.log, span, ply, at, note)
    }

    /// Whether the log belongs to this game; when it does not, the finding
    /// `engine-log-other-game` says so, and when one position it was given
    /// differs from the record, `engine-position-differs`.
    pub fn belongs(&self, record: &Record, findings: &mut Vec<Finding>) -> bool {
        let (l, shown, searches) = (self.log, &self.shown, &self.searches);
        let (moves, start_fen, first) = (&record.moves, &record.start_fen, record.first);
        // Does the log belong to this game? Every position it was given
        // must be a prefix of the game (same start).
        let mut matched = 0;
        let mut other_game: Option<&Search> = None;
        let mut differs: Option<(&Search, usize)> = None;
        for s in searches {
            let same_start = s.fen.as_deref().map(|f| f.trim().to_string()) == *start_fen
                || (s.fen.is_none() && start_fen.is_none());
            if !same_start {
                other_game.get_or_insert(s);
                return false;
            }
            match s
                .moves
                .iter()
                .zip(moves)
                .position(|(a, b)| !a.eq_ignore_ascii_case(b))
            {
                Some(i) if differs.is_none() => differs = Some((s, i)),
                Some(_) => {}
                None if s.moves.len() <= moves.len()
                    && (!s.moves.is_empty() || searches.len() == 1) =>
                {
                    matched += 1
                }
                None => {}
            }
        }
        if matched == 0 && (other_game.is_some() || differs.is_some()) {
            let s = other_game.or(differs.map(|d| d.0)).expect("one of them");
            findings.push(
                Finding::of(
                    &codes::ENGINE_LOG_OTHER_GAME,
                    "Engine log belongs to another game",
                    format!(
                        "{shown} in {} was never given a position of this game (its first search was from {} with moves {})",
                        l.path,
                        s.fen.as_deref().unwrap_or("the standard start"),
                        if s.moves.is_empty() { "none".into() } else { s.moves.iter().take(6).cloned().collect::<Vec<_>>().join(" ") }
                    ),
                )
                .with_evidence(self.ev(s.started.span, None, Some(s.started.at.clone()), "the first search")),
            );
            return false;
        }
        if let Some((s, i)) = differs {
            let ply = first + i as u32;
            findings.push(
                Finding::of(
                    &codes::ENGINE_POSITION_DIFFERS,
                    "The engine was given a move the record does not have",
                    format!(
                        "at ply {ply} the engine was told {} but the record has {}",
                        s.moves[i],
                        moves.get(i).map_or("no move", |m| m.as_str())
                    ),
                )
                .with_evidence(self.ev(
                    s.started.span,
                    Some(ply),
                    Some(s.started.at.clone()),
                    "the search given that position",
                )),
            );
        }
        true
    }
}
