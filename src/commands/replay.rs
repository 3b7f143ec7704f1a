//! `arbiter replay`: step through one game, ply by ply.

use std::io::Write;
use std::path::Path;

use super::{CLEAN, FAILURE, ReplayRunError, VIOLATIONS};
use crate::pipeline::Config;
use crate::pipeline::run::nth_game;
use crate::report::replay::{ply_json, ply_text};
use crate::report::text;

/// Game `game` (1 = the first) of `file`, every ply or only `ply`, as text
/// or JSON Lines, under `cfg` (a ruleset with `trace` shows its values).
pub fn run(
    file: &Path,
    game: usize,
    ply: Option<u32>,
    as_json: bool,
    cfg: &Config,
    out: &mut dyn Write,
) -> Result<i32, ReplayRunError> {
    if game == 0 {
        return Err(ReplayRunError::GameZero);
    }
    let g = nth_game(file, game, cfg).map_err(ReplayRunError::Game)?;
    let plies: Vec<_> = g
        .replay
        .plies
        .iter()
        .filter(|p| ply.is_none_or(|n| p.ply == n))
        .collect();
    if let Some(n) = ply
        && plies.is_empty()
    {
        return Err(ReplayRunError::NoPly {
            game,
            first: g.replay.first_ply,
            last: g.replay.first_ply + g.replay.plies.len() as u32 - 1,
            ply: n,
        });
    }
    let mut w = Ok(());
    if !as_json && ply.is_none() {
        w = w.and(writeln!(out, "{}", text::game(&g)));
        w = w.and(writeln!(
            out,
            "start position:\n{}\n",
            text::board(&g.replay.start)
        ));
    }
    for p in plies {
        if as_json {
            w = w.and(writeln!(out, "{}", ply_json(&g, game, p, cfg)));
        } else {
            w = w.and(out.write_all(ply_text(&g, p, cfg).as_bytes()));
        }
    }
    // a closed output: nothing more can be said
    if w.is_err() {
        return Ok(FAILURE);
    }
    Ok(if g.findings.iter().any(|f| f.severity.is_violation()) {
        VIOLATIONS
    } else {
        CLEAN
    })
}
