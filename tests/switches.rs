//! Switches are evaluated in the same pass as the game: for every game and
//! every switch, the adjudication the one pass computes with the switch
//! flipped must be the one a whole second evaluation of the flipped program
//! computes (what arbiter did before the one pass).

use std::io::BufReader;
use std::path::{Path, PathBuf};

use arbiter::ingest::pgn::{GameSplitter, parse_game};
use arbiter::pipeline::Config;
use arbiter::replay::replay;
use arbiter::rules::analysis::Ruleset;
use arbiter::rules::compile;
use arbiter::rules::eval::{Detectors, Program, run, run_switched};
use arbiter::timeline::Timeline;

/// Every game of `pgn` judged under `rs`: the flipped outcomes of the one
/// pass against reruns. Returns how many (game, switch) pairs changed the
/// outcome, so a caller can check the comparison saw some.
fn compare(rs: &Ruleset, pgn: &Path) -> (usize, usize) {
    let detectors = Detectors::default();
    let file = std::fs::File::open(pgn).unwrap();
    let mut splitter = GameSplitter::new(BufReader::new(file));
    let every: Vec<usize> = (0..rs.switches.len()).collect();
    let (mut games, mut changed) = (0, 0);
    while let Some(chunk) = splitter.next_chunk().unwrap() {
        let game = parse_game(&chunk);
        let rp = replay(&game);
        let tl = Timeline::build(&game, &rp);
        let prog = Program::for_game(rs, None, &tl).unwrap();
        let (base, flipped) = run_switched(&prog, &tl, &detectors, "x", false, &every);
        let again = run(&prog, &tl, &detectors, "x", false);
        assert_eq!(
            base.computed,
            again.computed,
            "{}: game {}",
            pgn.display(),
            game.index
        );
        for (s, one_pass) in flipped.iter().enumerate() {
            let mut p = prog.clone();
            p.switches[s] = !p.switches[s];
            let rerun = run(&p, &tl, &detectors, "x", false);
            assert_eq!(
                one_pass,
                &rerun.computed,
                "{}: game {} with switch {} flipped",
                pgn.display(),
                game.index,
                rs.switches[s].name
            );
            if rerun.computed != base.computed {
                changed += 1;
            }
        }
        games += 1;
    }
    (games, changed)
}

fn ruleset(path: &Path) -> Ruleset {
    Config::load_ruleset(path).unwrap_or_else(|e| panic!("{e}"))
}

/// A ruleset whose switch reaches an adjudication's condition, its result,
/// what it records and its message through two `let`s and a counter, and
/// an adjudication that does not read it but fires first when it is
/// flipped.
const PLANTED: &str = r#"
ruleset planted "Planted switch" { regulation "none" }
const late = 40
switch early = true "fires the first rule at ply 20 instead of 40"
let limit on move = if early then 20 else late
let captures on move = count(move.capture)
let seen on move = streak(move.ply >= limit, reset: move.ply < 3)
rule planted.first "First" {
  cite "1" "first"
  message "fired at {move.ply} after {captures} captures, limit {limit}"
  adjudicate (if early then white else black) records (if early then "Early" else "Late") when seen >= 1
}
rule planted.second "Second" {
  cite "2" "second"
  adjudicate draw records "Second" when move.ply >= 30
}
"#;

/// A planted ruleset compared on the samples, where its switch must change
/// some outcome (so that the comparison is not vacuous).
fn compare_planted(source: &str) {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let planted = compile("planted.rules", source).unwrap();
    let samples = here.join("samples/tcec-style.pgn");
    let (games, changed) = compare(&planted, &samples);
    assert!(games > 0);
    assert!(
        changed > 0,
        "the planted switch changes some outcome in {}",
        samples.display()
    );
}

#[test]
fn a_flipped_switch_computes_what_a_second_evaluation_computes() {
    compare_planted(PLANTED);
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let samples = here.join("samples/tcec-style.pgn");
    let tcec = ruleset(&here.join("rulesets/tcec-s15.rules"));
    let mut files: Vec<PathBuf> = vec![samples];
    files.extend(super::files_with(
        &here.join("tests/fixtures/rules/tcec-s15"),
        "pgn",
    ));
    for f in &files {
        compare(&tcec, f);
    }
}

/// A switch whose effect comes and goes: the counter it feeds differs from
/// the real pass's after a capture and is the same again after a pawn move
/// (the one pass evaluates the flipped counter only while it differs, and
/// takes the real pass's state when it starts to).
const COMES_AND_GOES: &str = r#"
ruleset planted "Planted switch" { regulation "none" }
switch captures_reset = true "a capture resets the count"
let zero on move = move.pawn_move or (captures_reset and move.capture)
let quiet on move = streak(true, reset: zero)
let quiet_per_side on move = count(not zero, per: move.side, reset: zero)
rule planted.quiet "Quiet" {
  cite "1" "quiet"
  message "quiet for {quiet} plies"
  adjudicate draw records "Quiet" when quiet >= 9 and quiet_per_side >= 4
}
"#;

#[test]
fn a_switch_whose_effect_comes_and_goes_computes_what_a_second_evaluation_computes() {
    compare_planted(COMES_AND_GOES);
}

#[test]
fn on_s15_every_flipped_switch_matches_a_second_evaluation() {
    let Some(dir) = super::tcec_s15() else {
        return;
    };
    let tcec = ruleset(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/tcec-s15.rules"));
    let files = super::files_with(&dir, "pgn");
    let (mut games, mut changed) = (0, 0);
    for f in &files {
        let (g, c) = compare(&tcec, f);
        games += g;
        changed += c;
    }
    assert_eq!(games, 428, "the S15 archive's games");
    // D2 13.4 is decided by searchless_resets (docs/s15-archive.md)
    assert!(changed >= 1, "some S15 game's outcome depends on a switch");
}
