//! The passive similarity test's input: what the engines of an event's games
//! chose, read from the games themselves.

use std::path::PathBuf;

use serde_json::json;

use super::config::Config;
use super::file::audit_file;
use super::game::GameAudit;
use super::inputs::{Input, expand_inputs};
use crate::facts::similarity::passive::choices;
use crate::facts::similarity::tally::{Census, Tally};

/// An input of the passive similarity that could not be read (`path`, as
/// shown).
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct InputError {
    pub path: String,
    pub source: std::io::Error,
}

/// The passive test over the games of `paths`, and each input read
/// (`path`, `sha256`) for the report; the first input that cannot be read
/// stops it. The games are read twice ([`crate::facts::similarity::tally`]):
/// an input that changed between the two readings is an error.
pub fn passive_tally(paths: &[PathBuf]) -> Result<(Tally, Vec<serde_json::Value>), InputError> {
    let files = passive_files(paths)?;
    let mut census = Census::new();
    let mut inputs = Vec::new();
    let mut digests = Vec::new();
    for path in &files {
        let summary = read_games(path, |game, replay| census.add(&choices(game, replay)))?;
        inputs.push(json!({"path": summary.path, "sha256": summary.sha256}));
        digests.push(summary.sha256);
    }
    let mut tally = census.finish();
    for (path, first) in files.iter().zip(&digests) {
        let summary = read_games(path, |game, replay| tally.add(choices(game, replay)))?;
        if summary.sha256 != *first {
            return Err(InputError {
                path: path.display().to_string(),
                source: std::io::Error::other("the file changed while it was read"),
            });
        }
    }
    Ok((tally, inputs))
}

/// The PGN files `paths` name (a case folder's game for a case).
fn passive_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let mut files = Vec::new();
    for input in expand_inputs(paths) {
        files.push(match input {
            Ok(Input::Pgn(p)) => p,
            // the case's game, inside its folder
            Ok(Input::Case(d)) => {
                super::inputs::Case::read(&d)
                    .map(|c| c.game)
                    .map_err(|e| InputError {
                        path: d.display().to_string(),
                        source: std::io::Error::other(e.to_string()),
                    })?
            }
            Err((p, source)) => {
                return Err(InputError {
                    path: p.display().to_string(),
                    source,
                });
            }
        });
    }
    Ok(files)
}

/// Every game of `path`, replayed, to `each`.
fn read_games(
    path: &std::path::Path,
    mut each: impl FnMut(&crate::ingest::pgn::PgnGame, &crate::replay::Replay),
) -> Result<super::record::InputSummary, InputError> {
    audit_file(path, &Config::default(), |g: GameAudit| {
        each(&g.game, &g.replay);
        Ok(())
    })
    .map_err(|source| InputError {
        path: path.display().to_string(),
        source,
    })
}
