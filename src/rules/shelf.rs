//! A folder of rulesets (`--rules DIR`): which of them claims a record.
//! A ruleset claims a file when its header's `applies when` holds for the
//! file's first game; one with no `applies when` claims the files no other
//! claims. The first in the order of their file names wins.

use std::sync::Arc;

use super::analysis::Ruleset;

/// The rulesets of a folder, in the order of their file names.
#[derive(Debug)]
pub struct Shelf {
    /// The folder, as given.
    pub dir: String,
    pub rulesets: Vec<Arc<Ruleset>>,
}

/// The ruleset chosen for a file, and why, as the report says it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Choice {
    /// The ruleset's file, as its findings name it.
    pub path: String,
    pub id: String,
    pub why: String,
}

impl Shelf {
    /// The ruleset that claims `game`, a file's first game, and why; or
    /// why none does.
    pub fn choose(&self, game: &crate::ingest::pgn::PgnGame) -> Result<(usize, String), String> {
        let replay = crate::replay::Replay::empty();
        let tl = crate::timeline::Timeline::build(game, &replay);
        let claims: Vec<Option<bool>> = (self.rulesets.iter())
            .map(|rs| crate::rules::eval::claims(rs, &tl))
            .collect();
        let event = game.tag("Event").unwrap_or("");
        let claiming: Vec<usize> = (0..claims.len())
            .filter(|&i| claims[i] == Some(true))
            .collect();
        if let Some((&first, others)) = claiming.split_first() {
            let rs = &self.rulesets[first];
            let line = rs.applies.as_ref().map_or(0, |(_, l)| *l);
            let also = match others {
                [] => String::new(),
                _ => format!(
                    "; {} also claim{} it and come{} later by name",
                    self.names(others),
                    if others.len() == 1 { "s" } else { "" },
                    if others.len() == 1 { "s" } else { "" },
                ),
            };
            return Ok((
                first,
                format!(
                    "its `applies when` ({}:{line}) holds for the first game (Event {event:?}){also}",
                    rs.path
                ),
            ));
        }
        if let Some(i) = claims.iter().position(Option::is_none) {
            return Ok((
                i,
                format!(
                    "no ruleset's `applies when` holds for the first game (Event {event:?}), and {} has none: it claims what the others do not",
                    self.rulesets[i].path
                ),
            ));
        }
        Err(format!(
            "no ruleset of {} claims it: the `applies when` of each ({}) is false for its first game (Event {event:?}); it is audited without a ruleset",
            self.dir,
            self.names(&(0..self.rulesets.len()).collect::<Vec<_>>())
        ))
    }

    fn names(&self, which: &[usize]) -> String {
        which
            .iter()
            .map(|&i| self.rulesets[i].path.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}
