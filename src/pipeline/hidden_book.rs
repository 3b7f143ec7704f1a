//! The hidden-book screening of `arbiter hidden-book`: every game of the
//! inputs with the engine logs aligned into its timeline, each engine's
//! moves without search evidence tallied, the flagged moves kept.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::json;

use super::config::{Config, machine_threads};
use super::file::audit_file;
use super::game::{GameAudit, engine_logs_of};
use super::inputs::{Input, expand_inputs};
use crate::facts::hidden_book::{EngineTally, Params, assess, tally};

/// What the screening found: per engine its tally, and every flagged move
/// (`game`, `engine`, `ply`, `evidence`); `failed` when an input could not
/// be read (said on standard error).
#[derive(Debug, Default)]
pub struct Screening {
    pub tallies: BTreeMap<String, EngineTally>,
    pub flagged: Vec<serde_json::Value>,
    pub failed: bool,
}

/// Screen every game of `paths`, with the search evidence of `engine_logs`.
pub fn screen(
    paths: &[PathBuf],
    engine_logs: &[PathBuf],
    params: &Params,
) -> Result<Screening, crate::ingest::logs::LogFileError> {
    let logs = crate::ingest::logs::read_engine_logs(engine_logs, machine_threads())?;
    let cfg = Config::default();
    let mut s = Screening::default();
    let mut seen = Default::default();
    for input in expand_inputs(paths) {
        let path = match input {
            Ok(Input::Pgn(p)) => p,
            // the case's game, inside its folder
            Ok(Input::Case(dir)) => match super::inputs::Case::read(&dir) {
                Ok(c) => c.game,
                Err(e) => {
                    notice!("{}", e.said());
                    s.failed = true;
                    continue;
                }
            },
            Err((p, e)) => {
                notice!("arbiter: {}: {e}", p.display());
                s.failed = true;
                continue;
            }
        };
        let shown = path.display().to_string();
        let r = audit_file(&path, &cfg, |g: GameAudit| {
            let mine = engine_logs_of(&g.game, &logs);
            let (events, _) = crate::timeline::align::align(&g.game, &g.replay, &mine);
            let tl = crate::timeline::Timeline::with_logs(&g.game, &g.replay, &[], &events);
            let found = assess(&tl, params);
            let name = |k: &str| g.game.tag(k).unwrap_or("?").to_string();
            let label = format!(
                "{shown} game {} (round {})",
                g.game.index + 1,
                name("Round")
            );
            tally(
                &mut s.tallies,
                &mut seen,
                &label,
                &name("White"),
                &name("Black"),
                &tl,
                &found,
            );
            for a in found.iter().filter(|a| a.flagged) {
                let san = tl
                    .replay
                    .ply(a.ply)
                    .map(|p| p.san_text())
                    .unwrap_or_default();
                s.flagged.push(json!({
                    "game": label,
                    "engine": name(if a.white { "White" } else { "Black" }),
                    "ply": a.ply,
                    "evidence": a.evidence(&san),
                }));
            }
            Ok(())
        });
        if let Err(e) = r {
            notice!("arbiter: {shown}: {e}");
            s.failed = true;
        }
    }
    Ok(s)
}
