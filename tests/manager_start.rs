//! The adjudications judged at a game's start position (docs/managers.md,
//! "The start position"): a game of no move is judged by the rules that
//! end a game there, a result no rule computes there is said, and a game
//! that went on past a start position a rule ends is an adjudication
//! missed at ply 0. The planted faults are in small fixtures
//! (tests/fixtures/managers/start*.pgn); the tables' cases need
//! `ARBITER_SYZYGY`, the peers corpus `ARBITER_CORPUS`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{arbiter, codes, finding, json_lines};

const RULES: &str = "rulesets/managers.rules";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/managers")
        .join(name)
}

fn games(path: &Path, extra: &[&str]) -> Vec<Value> {
    let p = path.to_str().unwrap();
    let mut args = vec!["audit", p, "--rules", RULES, "--format", "json"];
    args.extend_from_slice(extra);
    json_lines(&arbiter(&args))
        .into_iter()
        .filter(|l| l["type"] == "game")
        .collect()
}

fn adjudication_codes(g: &Value) -> Vec<String> {
    codes(g)
        .into_iter()
        .filter(|c| c.starts_with("adjudication-"))
        .collect()
}

/// An evidence's line in the PGN (1-based), from its span.
fn line_of(e: &Value) -> u64 {
    e["span"]["line"].as_u64().unwrap_or(0)
}

/// Without tables: a game of no move that starts in checkmate or with
/// too little material is ended there by the laws of chess; a wrong
/// result is found at the FEN tag; a result no rule computes at the start
/// is `adjudication-start-unsupported`, at the Result and FEN tags.
#[test]
fn games_of_no_move_are_judged_at_their_start_position() {
    let gs = games(&fixture("start.pgn"), &[]);
    assert_eq!(gs.len(), 4);
    // 1: mate at the start, 1-0 recorded
    assert_eq!(gs[0]["termination"]["computed"]["rule"], "laws.checkmate");
    assert_eq!(gs[0]["termination"]["computed"]["result"], "1-0");
    assert!(adjudication_codes(&gs[0]).is_empty(), "{}", gs[0]);
    // 2: the same position, 0-1 recorded (planted)
    let f = finding(&gs[1], "adjudication-wrong-result");
    assert_eq!(f["rule"], "laws.checkmate");
    let ev = &f["evidence"][0];
    assert_eq!(line_of(ev), 21, "the FEN tag: {ev}");
    assert!(ev["note"].as_str().unwrap().contains("start position"));
    // 3: bare kings at the start, a draw recorded
    assert_eq!(
        gs[2]["termination"]["computed"]["rule"],
        "laws.insufficient-material"
    );
    assert!(adjudication_codes(&gs[2]).is_empty(), "{}", gs[2]);
    // 4: an opening position, 1-0 by adjudication (planted: no rule ends
    // the game there)
    assert_eq!(
        adjudication_codes(&gs[3]),
        ["adjudication-start-unsupported"],
        "{}",
        gs[3]
    );
    let f = finding(&gs[3], "adjudication-start-unsupported");
    assert_eq!(f["severity"], "warning");
    let msg = f["message"].as_str().unwrap();
    assert!(msg.contains("1-0") && msg.contains("adjudication"), "{msg}");
    let lines: Vec<u64> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(line_of)
        .collect();
    assert_eq!(lines, [45, 47], "the Result and FEN tags");
}

/// A game of moves from a standard start is not ended at ply 0 by any
/// rule: the move-only facts (a score, a capture) are `none` there.
#[test]
fn an_ordinary_game_is_not_ended_at_its_start() {
    let gs = games(
        &fixture("fastchess-rr.pgn"),
        &[
            "--manager-args",
            "-draw movenumber=0 movecount=1 score=1000 -resign movecount=1 score=1 -maxmoves 1",
        ],
    );
    for g in &gs {
        let ply = g["termination"]["computed"]["ply"].as_u64();
        assert_ne!(ply, Some(0), "{g}");
    }
}

/// With the tables: the start position's probe reproduces a game of no
/// move; a wrong result is found; a game that went on from a start
/// position the tables adjudicate is `adjudication-missed` at ply 0; and
/// from the same position with a halfmove clock of 5 fastchess does not
/// probe, so nothing fires there.
#[test]
fn the_tables_are_probed_at_the_start_position() {
    let Some(tb) = std::env::var_os("ARBITER_SYZYGY") else {
        eprintln!("skipping: ARBITER_SYZYGY is not set");
        return;
    };
    let tb = tb.to_str().unwrap().to_string();
    let flags = ["--syzygy", &tb, "--manager-args", "-tb x -tbpieces 5"];
    let gs = games(&fixture("start-tb.pgn"), &flags);
    assert_eq!(gs.len(), 4);
    assert_eq!(
        gs[0]["termination"]["computed"]["rule"],
        "manager.tablebase"
    );
    assert_eq!(gs[0]["termination"]["computed"]["ply"], 0);
    assert!(adjudication_codes(&gs[0]).is_empty(), "{}", gs[0]);
    let f = finding(&gs[1], "adjudication-wrong-result");
    assert_eq!(line_of(&f["evidence"][0]), 21, "the FEN tag");
    assert_eq!(adjudication_codes(&gs[2]), ["adjudication-missed"]);
    let f = finding(&gs[2], "adjudication-missed");
    assert_eq!(f["evidence"][0]["ply"], 0);
    assert!(f["message"].as_str().unwrap().contains("at ply 0"));
    assert!(adjudication_codes(&gs[3]).is_empty(), "{}", gs[3]);
    // told no -tb, the game of no move is unsupported, never silent
    let gs = games(&fixture("start-tb.pgn"), &["--syzygy", &tb]);
    assert_eq!(
        adjudication_codes(&gs[0]),
        ["adjudication-start-unsupported"]
    );
}

/// The peers corpus: fastchess's four games of no move in fc-tb.pgn are
/// each reproduced by the start position's probe.
#[test]
fn fastchess_games_of_no_move_are_reproduced() {
    let (Some(corpus), Some(tb)) = (
        std::env::var_os("ARBITER_CORPUS"),
        std::env::var_os("ARBITER_SYZYGY"),
    ) else {
        eprintln!("skipping: ARBITER_CORPUS or ARBITER_SYZYGY is not set");
        return;
    };
    let path = Path::new(&corpus).join("peers/fc-tb.pgn");
    let tb = tb.to_str().unwrap();
    let flags = [
        "--syzygy",
        tb,
        "--manager-args",
        "-tb x -tbpieces 5 -tbadjudicate BOTH",
    ];
    let gs = games(&path, &flags);
    let at_start: Vec<&Value> = gs
        .iter()
        .filter(|g| g["termination"]["computed"]["rule"] == "manager.tablebase")
        .filter(|g| {
            g["termination"]["computed"]["ply"]
                .as_u64()
                .is_some_and(|p| p <= 1)
        })
        .collect();
    assert_eq!(at_start.len(), 4, "the four games of no move");
    for g in &gs {
        assert!(adjudication_codes(g).is_empty(), "{g}");
    }
}

/// A ruleset none of whose adjudications reads `move.start` is not judged
/// at the start position: its games begin with their first move. The same
/// fixture under `managers.rules` with `tb_probed` not reading it: the mate
/// at the start is no longer computed, and no game of no move is
/// `adjudication-start-unsupported`.
#[test]
fn a_ruleset_that_never_reads_move_start_is_not_judged_there() {
    let text = std::fs::read_to_string(RULES).unwrap();
    let from = "else not move.start)";
    assert!(
        text.contains(from),
        "managers.rules reads move.start in tb_probed"
    );
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("no-start.rules");
    std::fs::write(&rules, text.replace(from, "else true)")).unwrap();
    let p = fixture("start.pgn");
    let out = arbiter(&[
        "audit",
        p.to_str().unwrap(),
        "--rules",
        rules.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let gs: Vec<Value> = json_lines(&out)
        .into_iter()
        .filter(|l| l["type"] == "game")
        .collect();
    assert_eq!(gs.len(), 4);
    assert!(gs[0]["termination"]["computed"].is_null(), "{}", gs[0]);
    for g in &gs {
        let c = adjudication_codes(g);
        assert!(
            !c.contains(&"adjudication-start-unsupported".to_string()),
            "{g}"
        );
        assert!(!c.contains(&"adjudication-wrong-result".to_string()), "{g}");
    }
    // the shipped file, which reads it, judges the same game there
    let shipped = games(&p, &[]);
    assert_eq!(
        shipped[0]["termination"]["computed"]["rule"],
        "laws.checkmate"
    );
}
