//! Allocations per ply of the audit, counted by a counting global allocator
//! (stats_alloc, around the system allocator).
//!
//! ```sh
//! cargo bench --bench allocations                 # S15 under ARBITER_CORPUS, else the samples
//! cargo bench --bench allocations -- FILE.pgn…    # other games
//! ```
//!
//! Each input is audited twice: without a ruleset (parse, type every
//! comment, replay, built-in checks) and with `rulesets/tcec-s15.rules`
//! (its variants, switches and every finding), game by game as `arbiter
//! audit` does it, but on one thread: each game is cut from its file
//! ([`GameSplitter`], which `audit` runs on a thread of its own), read and
//! audited ([`parse_game`], [`audit_game`]) before the next is cut, so that
//! every allocation is counted with the game it was made for (`audit`'s
//! reading thread runs ahead, so that a count taken beside it put its
//! allocations with whichever game was being audited then). The lists the reading thread
//! gathers games into (one a parcel of 256 KiB) are not counted. The
//! second pass over the same games is the one counted, so what is set up
//! once per run is not. It prints allocations and bytes per game and per
//! ply; the target (issue 15) is zero per ply in the steady state. What a
//! game allocates whatever its length (its tags, its buffers, its findings)
//! is in the per-ply average too, so the last figures are the ones for the
//! steady state: the slope of each game's allocations against its plies
//! (least squares over the games), what one more ply costs, for the whole
//! (cut, read and audited) and for the audit alone (read and audited:
//! what the worker does); then the whole over the games without a
//! finding, since a long game can make more findings.

mod common;

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbiter::audit::{Config, audit_game};
use arbiter::ingest::pgn::{GameSplitter, parse_game};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

/// One game: its plies, the allocations made to cut it from its file and
/// to read and audit it, and whether it has findings.
struct Counted {
    plies: f64,
    cut: f64,
    audit: f64,
    clean: bool,
}

/// Audit every input; returns (games, plies) and what each game counted.
fn audit_all(files: &[PathBuf], config: &Config) -> (u64, u64, Vec<Counted>) {
    let (mut games, mut plies) = (0u64, 0u64);
    let mut each = Vec::new();
    let region = Region::new(GLOBAL);
    let count = || {
        let s = region.change();
        (s.allocations + s.reallocations) as f64
    };
    for f in files {
        let shown = f.display().to_string();
        let file = std::fs::File::open(f).unwrap_or_else(|e| panic!("{shown}: {e}"));
        let mut splitter = GameSplitter::new(BufReader::with_capacity(1 << 16, file));
        loop {
            let before = count();
            let Some(chunk) = splitter
                .next_chunk()
                .unwrap_or_else(|e| panic!("{shown}: {e}"))
            else {
                break;
            };
            let cut = count();
            let game = parse_game(&chunk);
            drop(chunk);
            let g = audit_game(&shown, game, config);
            let n = g.replay.plies.len();
            let clean = g.findings.is_empty();
            drop(g);
            let done = count();
            games += 1;
            plies += n as u64;
            each.push(Counted {
                plies: n as f64,
                cut: cut - before,
                audit: done - cut,
                clean,
            });
        }
    }
    (games, plies, each)
}

/// The least-squares slope of y against x.
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let cov: f64 = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let var: f64 = points.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    if var > 0.0 { cov / var } else { f64::NAN }
}

fn count(name: &str, files: &[PathBuf], config: &Config) {
    audit_all(files, config); // the first pass warms what is made once
    let region = Region::new(GLOBAL);
    let (games, plies, each) = audit_all(files, config);
    let whole: Vec<(f64, f64)> = each.iter().map(|c| (c.plies, c.cut + c.audit)).collect();
    let audit: Vec<(f64, f64)> = each.iter().map(|c| (c.plies, c.audit)).collect();
    let clean: Vec<(f64, f64)> = each
        .iter()
        .filter(|c| c.clean)
        .map(|c| (c.plies, c.cut + c.audit))
        .collect();
    let s = region.change();
    let allocs = (s.allocations + s.reallocations) as f64;
    let cut: f64 = each.iter().map(|c| c.cut).sum();
    println!(
        "{name:<28} {games:>6} games {plies:>8} plies {:>12} allocations {:>9.1} per game ({:.1} cutting it from the file) {:>7.1} per ply {:>9.0} bytes per ply; per further ply {:.3}, the audit alone {:.3} ({:.3} over the {} games without findings)",
        s.allocations + s.reallocations,
        allocs / games.max(1) as f64,
        cut / games.max(1) as f64,
        allocs / plies.max(1) as f64,
        s.bytes_allocated as f64 / plies.max(1) as f64,
        slope(&whole),
        slope(&audit),
        slope(&clean),
        clean.len(),
    );
}

fn main() {
    let files = common::inputs("counting on");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = here.join("rulesets/tcec-s15.rules");
    let rs = Config::load_ruleset(&rules).unwrap_or_else(|e| panic!("{e}"));
    let bare = Config::default();
    let full = Config {
        ruleset: Some(Arc::new(rs)),
        ..Config::default()
    };
    count("audit, no ruleset", &files, &bare);
    count("audit, tcec-s15.rules", &files, &full);
}
