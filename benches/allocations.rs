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
//! (its variants, switches and every finding), as `arbiter audit` does it,
//! game by game. The second pass over the same games is the one counted,
//! so what is set up once per run is not. It prints allocations and bytes
//! per game and per ply; the target (issue 15) is zero per ply in the
//! steady state. What a game allocates whatever its length (its tags, its
//! buffers, its findings) is in the per-ply average too, so the last figure
//! is the one for the steady state: the slope of each game's allocations
//! against its plies (least squares over the games), what one more ply
//! costs; then the same over the games without a finding, since a long
//! game can make more findings.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbiter::audit::{Config, audit_file};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

/// Audit every input; returns (games, plies) and, for each game, its
/// plies, the allocations made since the game before it was done
/// (reading, typing, replaying and judging it) and whether it has findings.
fn audit_all(files: &[PathBuf], config: &Config) -> (u64, u64, Vec<(f64, f64, bool)>) {
    let (mut games, mut plies) = (0u64, 0u64);
    let mut each = Vec::new();
    let region = Region::new(GLOBAL);
    let mut before = 0usize;
    for f in files {
        audit_file(f, config, |g| {
            games += 1;
            plies += g.replay.plies.len() as u64;
            let s = region.change();
            let now = s.allocations + s.reallocations;
            each.push((
                g.replay.plies.len() as f64,
                (now - before) as f64,
                g.findings.is_empty(),
            ));
            before = now;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
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
    let all: Vec<(f64, f64)> = each.iter().map(|&(x, y, _)| (x, y)).collect();
    let clean: Vec<(f64, f64)> = each
        .iter()
        .filter(|e| e.2)
        .map(|&(x, y, _)| (x, y))
        .collect();
    let s = region.change();
    let allocs = (s.allocations + s.reallocations) as f64;
    println!(
        "{name:<28} {games:>6} games {plies:>8} plies {:>12} allocations {:>9.1} per game {:>7.1} per ply {:>9.0} bytes per ply {:>7.2} per further ply ({:.2} over the {} games without findings)",
        s.allocations + s.reallocations,
        allocs / games.max(1) as f64,
        allocs / plies.max(1) as f64,
        s.bytes_allocated as f64 / plies.max(1) as f64,
        slope(&all),
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
