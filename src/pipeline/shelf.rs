//! Each PGN file under a folder of rulesets (`--rules DIR`,
//! [`crate::rules::shelf`]): its configuration, under the ruleset its first
//! game chooses. The report says which was chosen and why, and names a
//! file that none claims.

use std::path::Path;
use std::sync::Arc;

use super::config::Config;
pub use crate::rules::shelf::{Choice, Shelf};

/// What the choice of a ruleset for one file gives.
#[derive(Debug)]
pub enum Chosen {
    /// The file's configuration, under the ruleset that claims it.
    Claimed(Box<Config>),
    /// No ruleset claims it: why (the file is audited without one).
    Unclaimed(Box<Config>, String),
    /// The file holds no game to choose by: it is audited as it is.
    Empty,
}

impl Config {
    /// The configuration the PGN file `path` is judged under: under a
    /// folder of rulesets, the one its first game chooses ([`Shelf`]);
    /// `None` without a folder. The file's first game is read for it.
    pub fn for_file(&self, path: &Path) -> std::io::Result<Option<Chosen>> {
        let Some(shelf) = &self.shelf else {
            return Ok(None);
        };
        if path == Path::new("-") {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "standard input cannot be judged under a folder of rulesets ({}): its first game would be read twice; name a ruleset file",
                    shelf.dir
                ),
            ));
        }
        let Some(chunk) = super::file::open_pgn(path)?.next_chunk()? else {
            return Ok(Some(Chosen::Empty));
        };
        let game = crate::ingest::pgn::parse_game(&chunk);
        let mut cfg = self.clone();
        Ok(Some(match shelf.choose(&game) {
            Ok((i, why)) => {
                let rs = &shelf.rulesets[i];
                cfg.chosen = Some(Choice {
                    path: rs.path.clone(),
                    id: rs.id.clone(),
                    why,
                });
                cfg.ruleset = Some(Arc::clone(rs));
                Chosen::Claimed(Box::new(cfg))
            }
            Err(why) => Chosen::Unclaimed(Box::new(cfg), why),
        }))
    }
}

impl Config {
    /// [`Config::for_file`] for a command that reads one file (`replay`,
    /// `chart`): the configuration the file is judged under, and why no
    /// ruleset claims it where none does (it is then read without one).
    pub fn for_one_file(self, path: &Path) -> std::io::Result<(Config, Option<String>)> {
        Ok(match self.for_file(path)? {
            None | Some(Chosen::Empty) => (self, None),
            Some(Chosen::Claimed(c)) => (*c, None),
            Some(Chosen::Unclaimed(c, why)) => (*c, Some(why)),
        })
    }
}
