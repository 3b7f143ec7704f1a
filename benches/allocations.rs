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
//!
//! Across games, the slope also picks up what each game allocates once
//! where it goes with the game's length (a longer game's engines may have
//! logged more options, each read by the rules; it may have more
//! findings). The last figure holds the game fixed: each game of 20 plies
//! or more is cut after a fifth, two, three and four fifths of its plies
//! (its text up to the end of that move and its comments, then its
//! result), each prefix read and audited, and the slope is taken within
//! each game's prefixes (pooled over the games: each game's counts and
//! plies less their own mean). Its tags, options and engines are the same
//! in every prefix, and every prefix is cut short alike (the whole game is
//! not among them: where it ends, by mate or adjudication, the audit
//! differs from a prefix's, and that is not a ply's cost), so what is left
//! is what one more ply of the same game costs: the steady state. A
//! finding in the plies a longer prefix adds is counted in it, so the
//! figure is given for the games whose whole audit has none as well.
//!
//! Under `ARBITER_CORPUS` (no files named), S15 is counted again with its
//! comments rewritten into the forms of cutechess-cli, fastchess and
//! lichess (`tests/gui_forms.rs`): each form's comments are typed by a path
//! of their own, and most archives outside TCEC are in one of them.

mod common;
#[path = "../tests/gui_forms.rs"]
#[allow(dead_code)]
mod gui_forms;

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbiter::ingest::pgn::{GameSplitter, parse_game};
use arbiter::pipeline::{Config, audit_game};
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

/// The sums of (x − mean x)(y − mean y) and of (x − mean x)² over the
/// points: the slope of y against x is the first over the second.
fn moments(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let cov: f64 = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let var: f64 = points.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    (cov, var)
}

/// The least-squares slope of y against x.
fn slope(points: &[(f64, f64)]) -> f64 {
    let (cov, var) = moments(points);
    if var > 0.0 { cov / var } else { f64::NAN }
}

/// Where a game's text ends after its first `k` plies: the end of the
/// `k`th move or of its last comment, whichever is later, as an offset in
/// the game's text; `None` if a span is missing.
fn end_after(game: &arbiter::ingest::pgn::PgnGame, k: usize) -> Option<usize> {
    let m = game.moves.get(k.checked_sub(1)?)?;
    let end = |s: &arbiter::base::span::Span| s.offset + s.len;
    let last = game
        .comments_of(m)
        .iter()
        .map(|c| end(&c.span))
        .chain(m.span.as_ref().map(end))
        .max()?;
    usize::try_from(last.checked_sub(game.offset)?).ok()
}

/// The slope of allocations against plies within each game's prefixes
/// (pooled: each game's points less their own means), over every game
/// and over those whose whole audit has no finding.
fn prefix_slopes(files: &[PathBuf], config: &Config) -> (f64, f64, usize) {
    let region = Region::new(GLOBAL);
    let count = || {
        let s = region.change();
        (s.allocations + s.reallocations) as f64
    };
    let (mut cov, mut var, mut clean_cov, mut clean_var, mut games) = (0.0, 0.0, 0.0, 0.0, 0);
    for f in files {
        let shown = f.display().to_string();
        let file = std::fs::File::open(f).unwrap_or_else(|e| panic!("{shown}: {e}"));
        let mut splitter = GameSplitter::new(BufReader::with_capacity(1 << 16, file));
        while let Some(chunk) = splitter
            .next_chunk()
            .unwrap_or_else(|e| panic!("{shown}: {e}"))
        {
            let whole = parse_game(&chunk);
            let n = whole.moves.len();
            if n < 20 {
                continue;
            }
            let result = whole
                .outcome
                .as_ref()
                .map_or("*".to_string(), |(r, _)| r.clone());
            let ends: Option<Vec<(usize, usize)>> = [n / 5, 2 * n / 5, 3 * n / 5, 4 * n / 5]
                .into_iter()
                .map(|k| end_after(&whole, k).map(|e| (k, e)))
                .collect();
            let Some(ends) = ends else { continue };
            let clean = audit_game(&shown, whole, config).findings.is_empty();
            let mut points = Vec::with_capacity(ends.len());
            for (k, e) in ends {
                let Some(text) = chunk.bytes.get(..e) else {
                    continue;
                };
                let mut text = text.to_vec();
                text.extend_from_slice(format!(" {result}\n").as_bytes());
                let prefix = arbiter::ingest::pgn::GameChunk::of_text(
                    chunk.index,
                    chunk.offset,
                    chunk.line,
                    text,
                );
                let before = count();
                let g = audit_game(&shown, parse_game(&prefix), config);
                assert_eq!(g.replay.plies.len(), k, "{shown}: a prefix of {k} plies");
                drop(g);
                points.push((k as f64, count() - before));
            }
            let (c, v) = moments(&points);
            cov += c;
            var += v;
            if clean {
                clean_cov += c;
                clean_var += v;
                games += 1;
            }
        }
    }
    (cov / var, clean_cov / clean_var, games)
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
    let (within, within_clean, n) = prefix_slopes(files, config);
    println!(
        "{:<28} per further ply of the same game (its prefixes): {within:.4} ({within_clean:.4} over the {n} games without findings)",
        ""
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
    if common::named().is_empty() && std::env::var_os("ARBITER_CORPUS").is_some() {
        // the same games in the comment forms of other GUIs
        let dir = tempfile::tempdir().unwrap();
        for form in gui_forms::Form::ALL {
            let mut rewritten = Vec::new();
            for f in &files {
                let text = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                let p = dir.path().join(format!(
                    "{}-{}",
                    form.name(),
                    f.file_name().unwrap().display()
                ));
                std::fs::write(&p, gui_forms::rewrite(&text, form)).unwrap();
                rewritten.push(p);
            }
            println!("in {}'s comment form (tests/gui_forms.rs):", form.name());
            count("audit, no ruleset", &rewritten, &bare);
            count("audit, tcec-s15.rules", &rewritten, &full);
        }
    }
}
