//! The passive similarity test's input: what the engines of an event's games
//! chose, read from the games themselves.

use std::path::PathBuf;

use serde_json::json;

use super::config::Config;
use super::file::audit_file;
use super::game::GameAudit;
use super::inputs::{Input, expand_inputs};
use crate::facts::similarity::passive::{Choice, choices};

/// An input of the passive similarity that could not be read (`path`, as
/// shown).
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct InputError {
    pub path: String,
    pub source: std::io::Error,
}

/// Every choice of every game of `paths`, and each input read (`path`,
/// `sha256`) for the report; the first input that cannot be read stops it.
pub fn passive_choices(
    paths: &[PathBuf],
) -> Result<(Vec<Choice>, Vec<serde_json::Value>), InputError> {
    let mut all = Vec::new();
    let mut inputs = Vec::new();
    for input in expand_inputs(paths) {
        let path = match input {
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
        };
        let summary = audit_file(&path, &Config::default(), |g: GameAudit| {
            all.extend(choices(&g.game, &g.replay));
            Ok(())
        })
        .map_err(|source| InputError {
            path: path.display().to_string(),
            source,
        })?;
        inputs.push(json!({"path": summary.path, "sha256": summary.sha256}));
    }
    Ok((all, inputs))
}
