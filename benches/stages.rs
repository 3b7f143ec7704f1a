//! Where the time of the audit without a ruleset goes, stage by stage, on
//! one thread: two floors (the SHA-256 every report records of its inputs,
//! and pgn-reader's tokenising with a visitor that keeps nothing), splitting
//! the file into games, reading each game (the PGN
//! reader, the spans, and typing every comment), typing the comments alone,
//! replaying, the built-in checks, and the game's JSON line; then the
//! same audit with `rulesets/tcec-s15.rules`, for the rules' own time.
//! Beside them, what pgn-reader's `validate` example does (tokenise and
//! play the moves), and at the end issue 15's target as a budget of CPU
//! time a ply, set against the floors and what everything else takes now.
//!
//! ```sh
//! cargo bench --bench stages                 # S15 under ARBITER_CORPUS, else the samples
//! cargo bench --bench stages -- FILE.pgn…    # other games
//! cargo bench --bench stages -- --only=replay # the stages whose name holds "replay"
//! cargo bench --bench stages -- --rules=FILE  # another ruleset for the last row
//! ```
//!
//! Each stage runs over every game of the inputs, already in memory, five
//! times; the best run is printed, in MB/s of the input's bytes and in ns
//! per ply. The figures are the issue-15 budget: without a ruleset the
//! whole audit should read 300 MB/s on one thread.

mod common;

use std::io::BufReader;
use std::time::Instant;

use arbiter::ingest::comments::parse_comment;
use arbiter::ingest::pgn::{GameChunk, GameSplitter, parse_game};
use arbiter::pipeline::{Config, audit_game};

/// The comments of a chunk (the text between `{` and `}`), in order.
fn comments(chunk: &GameChunk) -> Vec<String> {
    let text = String::from_utf8_lossy(&chunk.bytes);
    let mut out = Vec::new();
    let mut rest = &*text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push(rest[open + 1..open + close].to_string());
        rest = &rest[open + close + 1..];
    }
    out
}

/// A visitor that takes every token pgn-reader offers and keeps nothing:
/// the reader's own tokenising, the floor of any reading of PGN with it.
struct Nothing;

impl pgn_reader::Visitor for Nothing {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> std::ops::ControlFlow<(), ()> {
        std::ops::ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> std::ops::ControlFlow<(), ()> {
        std::ops::ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {}
}

/// What pgn-reader's `validate` example does, written here for the same
/// run: each game's moves played from its start (the `FEN` tag's position,
/// read as Chess960 castling, where there is one), stopping at a move that
/// is not legal. The target of issue 15 is measured against it.
struct Validate;

impl pgn_reader::Visitor for Validate {
    type Tags = Option<shakmaty::Chess>;
    type Movetext = shakmaty::Chess;
    type Output = bool;

    fn begin_tags(&mut self) -> std::ops::ControlFlow<bool, Self::Tags> {
        std::ops::ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        start: &mut Self::Tags,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> std::ops::ControlFlow<bool> {
        if name != b"FEN" {
            return std::ops::ControlFlow::Continue(());
        }
        match shakmaty::fen::Fen::from_ascii(value.as_bytes())
            .ok()
            .and_then(|f| f.into_position(shakmaty::CastlingMode::Chess960).ok())
        {
            Some(pos) => {
                *start = Some(pos);
                std::ops::ControlFlow::Continue(())
            }
            None => std::ops::ControlFlow::Break(false),
        }
    }

    fn begin_movetext(
        &mut self,
        start: Self::Tags,
    ) -> std::ops::ControlFlow<bool, shakmaty::Chess> {
        std::ops::ControlFlow::Continue(start.unwrap_or_default())
    }

    fn san(
        &mut self,
        pos: &mut shakmaty::Chess,
        san: pgn_reader::SanPlus,
    ) -> std::ops::ControlFlow<bool> {
        use shakmaty::Position as _;
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                std::ops::ControlFlow::Continue(())
            }
            Err(_) => std::ops::ControlFlow::Break(false),
        }
    }

    fn end_game(&mut self, _: shakmaty::Chess) -> bool {
        true
    }
}

/// The best of five runs of `f`, in seconds.
fn best(f: &mut dyn FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let files = common::inputs("timing");
    let mut bytes = Vec::new();
    for f in &files {
        bytes.extend(std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())));
        bytes.push(b'\n');
    }
    let split = || {
        let mut s = GameSplitter::new(BufReader::new(&bytes[..]));
        let mut v = Vec::new();
        while let Some(c) = s.next_chunk().expect("in memory") {
            v.push(c);
        }
        v
    };
    let chunks = split();
    let texts: Vec<String> = chunks.iter().flat_map(comments).collect();
    let games: Vec<_> = chunks.iter().map(parse_game).collect();
    let config = Config::default();
    let plies: usize = games
        .iter()
        .map(|g| arbiter::replay::replay(g).plies.len())
        .sum();
    let mb = bytes.len() as f64 / 1e6;
    println!(
        "{} files, {} games, {plies} plies, {} comments, {mb:.1} MB; best of 5 runs, one thread",
        files.len(),
        chunks.len(),
        texts.len()
    );
    let only: Option<String> =
        std::env::args().find_map(|a| a.strip_prefix("--only=").map(str::to_string));
    let wanted = |name: &str| only.as_ref().is_none_or(|o| name.contains(o.as_str()));
    // each row's time, for the bound printed at the end
    let times = std::cell::RefCell::new(std::collections::BTreeMap::<&str, f64>::new());
    let row = |name: &'static str, f: &mut dyn FnMut()| {
        if !wanted(name) {
            return;
        }
        let secs = best(f);
        times.borrow_mut().insert(name, secs);
        println!(
            "{name:<40} {:>8.1} ms {:>8.1} MB/s {:>8.0} ns/ply",
            secs * 1e3,
            mb / secs,
            secs * 1e9 / plies as f64
        )
    };
    // the floors: what any audit of the file does at least, beside what
    // pgn-reader's `validate` does (it tokenises and plays the moves)
    row(SHA, &mut || {
        use sha2::Digest as _;
        std::hint::black_box(sha2::Sha256::digest(&bytes));
    });
    row("pgn-reader tokenising, keeping nothing", &mut || {
        let mut reader = pgn_reader::Reader::new(&bytes[..]);
        while let Ok(Some(())) = reader.read_game(&mut Nothing) {}
    });
    row(VALIDATE, &mut || {
        let mut reader = pgn_reader::Reader::new(&bytes[..]);
        while let Ok(Some(ok)) = reader.read_game(&mut Validate) {
            std::hint::black_box(ok);
        }
    });
    row(SPLIT, &mut || {
        std::hint::black_box(split());
    });
    row(READ, &mut || {
        for c in &chunks {
            std::hint::black_box(parse_game(c));
        }
    });
    row(TYPE, &mut || {
        for t in &texts {
            std::hint::black_box(parse_comment(t));
        }
    });
    row("replay", &mut || {
        for g in &games {
            std::hint::black_box(arbiter::replay::replay(g));
        }
    });
    row("replay and built-in checks (audit_game)", &mut || {
        for g in &games {
            std::hint::black_box(audit_game("bench", g.clone(), &config));
        }
    });
    // the rules: the same audit with `tcec-s15.rules` (its variants,
    // switches and every finding); less the row above, the rules' own time
    let rules = std::env::args()
        .find_map(|a| a.strip_prefix("--rules=").map(std::path::PathBuf::from))
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/tcec-s15.rules")
        });
    let ruled = Config {
        ruleset: Some(std::sync::Arc::new(
            Config::load_ruleset(&rules).unwrap_or_else(|e| panic!("{e}")),
        )),
        ..Config::default()
    };
    row(RULED, &mut || {
        for g in &games {
            std::hint::black_box(audit_game("bench", g.clone(), &ruled));
        }
    });
    let audits: Vec<_> = games
        .iter()
        .map(|g| audit_game("bench", g.clone(), &config))
        .collect();
    row(JSON, &mut || {
        for a in &audits {
            std::hint::black_box(arbiter::report::json::game_line(a).to_string());
        }
    });
    row(CLONE, &mut || {
        for g in &games {
            std::hint::black_box(g.clone());
        }
    });
    bound(&times.borrow(), plies);
}

const SHA: &str = "SHA-256 of the bytes (every report's)";
const VALIDATE: &str = "validate (tokenise and play the moves)";
const SPLIT: &str = "split into games";
const READ: &str = "read games (reader, spans, comments)";
const TYPE: &str = "type comments alone";
const RULED: &str = "audit_game with tcec-s15.rules";
const JSON: &str = "JSON line";
const CLONE: &str = "clone a read game (subtract from audit_game)";

/// Issue 15's target as a budget, from this run's rows: the full audit on
/// two threads in at most twice `validate`'s time is at most four times
/// its CPU time over both cores (if the two scaled perfectly). Of that,
/// the floors (the SHA-256 every report records, tokenising and playing
/// the moves as `validate` does, typing every comment) are spent before
/// anything else; what is left is the budget of everything else (cutting
/// the file, spans, the per-ply facts, the checks, the rules, the
/// outputs), set beside what it takes now, one thread: cutting, reading,
/// the audit with the ruleset net of the bench's copy, and the JSON line.
fn bound(t: &std::collections::BTreeMap<&str, f64>, plies: usize) {
    let need = [SHA, VALIDATE, SPLIT, READ, TYPE, RULED, JSON, CLONE];
    if let Some(missing) = need.iter().find(|n| !t.contains_key(*n)) {
        println!("(no bound: the row \"{missing}\" was not run)");
        return;
    }
    let ns = |secs: f64| secs * 1e9 / plies as f64;
    let budget = 4.0 * t[VALIDATE];
    let floors = t[SHA] + t[VALIDATE] + t[TYPE];
    let now = t[SHA] + t[SPLIT] + t[READ] + (t[RULED] - t[CLONE]) + t[JSON];
    println!();
    println!(
        "issue 15's budget (2 threads, half validate's speed): {:.0} ns of CPU a ply",
        ns(budget)
    );
    println!(
        "  the floors (SHA-256, validate, typing the comments): {:.0} ns a ply",
        ns(floors)
    );
    println!(
        "  left for everything else: {:.0} ns a ply; it takes {:.0} now ({:.1}x the room)",
        ns(budget - floors),
        ns(now - floors),
        (now - floors) / (budget - floors)
    );
    println!(
        "  the best ratio to validate if everything else cost nothing: {:.2}; with it as now: {:.2}",
        2.0 * t[VALIDATE] / floors,
        2.0 * t[VALIDATE] / now
    );
    // the typing is arbiter's own code, not a floor of the machine's: the
    // bound again with it counted among the rest, not among the floors
    let hard = t[SHA] + t[VALIDATE];
    println!(
        "  with the typing not a floor: {:.0} ns a ply left; the rest, the typing in it, takes {:.0} now ({:.1}x the room)",
        ns(budget - hard),
        ns(now - hard),
        (now - hard) / (budget - hard)
    );
}
