//! What the targets share: a small real game and the TCEC ruleset, so that
//! every target runs the whole pipeline (replay, timeline, rules) on what
//! its parser produced.

use std::sync::OnceLock;

use arbiter::audit::Config;
use arbiter::ingest::pgn::{GameSplitter, PgnGame, parse_game};
use arbiter::rules::analyzer::{Ruleset, compile};

pub const GAME: &str = include_str!("../../samples/tcec-style.pgn");
const RULES: &str = include_str!("../../rulesets/tcec-s15.rules");

pub fn ruleset() -> &'static Ruleset {
    static RS: OnceLock<Ruleset> = OnceLock::new();
    RS.get_or_init(|| compile("tcec-s15.rules", RULES).expect("the shipped ruleset compiles"))
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
        let a = arbiter::audit::audit_game("fuzz.pgn", g, config);
        std::hint::black_box(a.findings.len());
    }
}
