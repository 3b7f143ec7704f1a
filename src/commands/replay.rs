//! `arbiter replay`: step through one game, ply by ply.

use std::io::Write;
use std::path::Path;

use super::{CLEAN, FAILURE, VIOLATIONS};
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
) -> i32 {
    if game == 0 {
        say!("arbiter: --game counts from 1");
        return FAILURE;
    }
    let g = match nth_game(file, game, cfg) {
        Ok(g) => g,
        Err(e) => {
            say!("arbiter: {e}");
            return FAILURE;
        }
    };
    let plies: Vec<_> = g
        .replay
        .plies
        .iter()
        .filter(|p| ply.is_none_or(|n| p.ply == n))
        .collect();
    if let Some(n) = ply
        && plies.is_empty()
    {
        say!(
            "arbiter: game {game} has plies {}..{}; there is no ply {n}",
            g.replay.first_ply,
            g.replay.first_ply + g.replay.plies.len() as u32 - 1
        );
        return FAILURE;
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
    if w.is_err() {
        return FAILURE;
    }
    if g.findings.iter().any(|f| f.severity.is_violation()) {
        VIOLATIONS
    } else {
        CLEAN
    }
}
