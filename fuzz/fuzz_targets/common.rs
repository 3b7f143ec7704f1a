//! What the targets share: a small real game and the TCEC ruleset, so that
//! every target runs the whole pipeline (replay, timeline, rules) on what
//! its parser produced.

use std::sync::{Arc, OnceLock};

use arbiter::ingest::pgn::{GameSplitter, PgnGame, parse_game};
use arbiter::pipeline::Config;
use arbiter::rules::analysis::Ruleset;
use arbiter::rules::compile;

pub const GAME: &str = include_str!("../../samples/tcec-style.pgn");
const RULES: &str = include_str!("../../rulesets/tcec-s15.rules");

pub fn ruleset() -> Arc<Ruleset> {
    static RS: OnceLock<Arc<Ruleset>> = OnceLock::new();
    RS.get_or_init(|| {
        Arc::new(compile("tcec-s15.rules", RULES).expect("the shipped ruleset compiles"))
    })
    .clone()
}

/// The first game of the sample, parsed once.
pub fn game() -> PgnGame {
    static G: OnceLock<PgnGame> = OnceLock::new();
    G.get_or_init(|| games(GAME.as_bytes()).remove(0)).clone()
}

/// Every game of a PGN text.
pub fn games(bytes: &[u8]) -> Vec<PgnGame> {
    let mut out = Vec::new();
    let mut s = GameSplitter::new(bytes);
    while let Ok(Some(chunk)) = s.next_chunk() {
        out.push(parse_game(&chunk));
    }
    out
}

/// Audit each game under `config` (findings are discarded: the target
/// looks for panics, hangs and runaway memory).
pub fn audit(games: Vec<PgnGame>, config: &Config) {
    for g in games {
        let a = arbiter::pipeline::audit_game("fuzz.pgn", g, config);
        std::hint::black_box(a.findings.len());
    }
}
