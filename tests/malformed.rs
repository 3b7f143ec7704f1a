//! Malformed and lying records: each gets a finding or a clear error at the
//! right place, never a panic, and the games after it are still read.

use std::io::Write;

use serde_json::Value;

use super::{arbiter, finding, json_lines};

const AFTER: &str = "[Event \"after\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 *\n";

/// Audit `text` as a file; returns the game lines and the exit code.
fn audit(text: &[u8]) -> (Vec<Value>, i32) {
    let mut f = tempfile::Builder::new().suffix(".pgn").tempfile().unwrap();
    f.write_all(text).unwrap();
    let path = f.path().to_str().unwrap().to_string();
    let o = arbiter(&["audit", "--format", "json", &path]);
    let code = o.status.code().expect("no signal: arbiter did not crash");
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("panicked"),
        "panic: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut lines = json_lines(&o);
    let summary = lines.pop().unwrap();
    assert_eq!(summary["type"], "summary");
    (lines, code)
}

fn with_after(bad: &str) -> Vec<u8> {
    format!("{bad}\n\n{AFTER}").into_bytes()
}

fn at(f: &Value) -> (u64, u64) {
    let span = &f["evidence"][0]["span"];
    (
        span["line"].as_u64().unwrap(),
        span["column"].as_u64().unwrap(),
    )
}

fn assert_after_game_intact(games: &[Value]) {
    let last = games.last().unwrap();
    assert_eq!(
        last["tags"]["Event"], "after",
        "the following game was lost: {last}"
    );
    assert_eq!(last["plies"], 4);
    assert_eq!(last["findings"].as_array().unwrap().len(), 0, "{last}");
}

#[test]
fn truncated_game_mid_file() {
    let (games, code) = audit(&with_after(
        "[Event \"cut\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf",
    ));
    assert_eq!(code, 1);
    assert_eq!(games.len(), 2);
    let f = finding(&games[0], "unparsable-token");
    assert_eq!(at(f), (4, 13));
    assert_eq!(games[0]["plies"], 2);
    assert_eq!(games[0]["complete"], false);
    assert_after_game_intact(&games);
}

#[test]
fn truncated_file_inside_a_comment() {
    let (games, code) = audit(b"[Event \"cut\"]\n\n1. e4 {d=3, mt=");
    assert_eq!(code, 1);
    assert_eq!(games.len(), 1);
    let f = finding(&games[0], "pgn-syntax");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("unterminated comment")
    );
    assert_eq!(games[0]["plies"], 1);
}

#[test]
fn unknown_piece_letter() {
    let (games, code) = audit(&with_after("[Event \"z\"]\n\n1. e4 e5 2. Zf3 Nc6 *"));
    assert_eq!(code, 1);
    let f = finding(&games[0], "unparsable-move");
    assert_eq!(at(f), (3, 13));
    assert!(f["message"].as_str().unwrap().contains("\"Zf3\""));
    assert_eq!(f["evidence"][0]["ply"], 3);
    assert_eq!(games[0]["plies"], 2);
    assert_after_game_intact(&games);
}

#[test]
fn illegal_move() {
    let (games, code) = audit(&with_after("[Event \"k\"]\n\n1. e4 e5\n2. Ke3 Nc6 *"));
    assert_eq!(code, 1);
    let f = finding(&games[0], "illegal-move");
    assert_eq!(at(f), (4, 4));
    assert_eq!(f["evidence"][0]["ply"], 3);
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("2 of 4 recorded moves were not replayed")
    );
    assert_after_game_intact(&games);
}

#[test]
fn ambiguous_move() {
    let (games, _) = audit(
        b"[Event \"a\"]\n[FEN \"4k3/8/8/8/8/8/4K3/R6R w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Rd1 *\n",
    );
    let f = finding(&games[0], "illegal-move");
    assert!(f["message"].as_str().unwrap().contains("ambiguous"), "{f}");
}

#[test]
fn unterminated_comment_keeps_the_next_game() {
    let (games, code) = audit(&with_after(
        "[Event \"u\"]\n\n1. e4 {this never closes e5 2. Nf3 *",
    ));
    assert_eq!(code, 1);
    assert_eq!(games.len(), 2);
    let f = finding(&games[0], "pgn-syntax");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("unterminated comment")
    );
    assert_after_game_intact(&games);
}

#[test]
fn megabyte_tag_value() {
    let big = "x".repeat(1 << 20);
    let (games, code) = audit(&with_after(&format!(
        "[Event \"big\"]\n[Result \"*\"]\n[Annotator \"{big}\"]\n\n1. e4 *"
    )));
    assert_eq!(code, 0);
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0]["tags"]["Annotator"].as_str().unwrap().len(),
        1 << 20
    );
    assert_eq!(games[0]["plies"], 1);
    assert_after_game_intact(&games);
}

#[test]
fn nul_byte_in_movetext() {
    let (games, code) = audit(&with_after("[Event \"nul\"]\n\n1. e4 \0 e5 *"));
    assert_eq!(code, 1);
    let f = finding(&games[0], "unparsable-token");
    assert_eq!(at(f), (3, 7));
    assert_after_game_intact(&games);
}

#[test]
fn binary_garbage() {
    // a fixed pseudo-random byte stream (xorshift), no line starting with '['
    let mut x: u32 = 0x9e37_79b9;
    let mut bytes = b"[Event \"garbage\"]\n\n".to_vec();
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let b = (x & 0xff) as u8;
        bytes.push(if b == b'\n' || b == b'[' { b' ' } else { b });
    }
    bytes.extend_from_slice(b"\n\n");
    bytes.extend_from_slice(AFTER.as_bytes());
    let (games, code) = audit(&bytes);
    assert_eq!(code, 1);
    assert!(games.len() >= 2);
    assert!(
        games[0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["severity"] == "error"),
        "garbage must be reported"
    );
    assert_after_game_intact(&games);
}

#[test]
fn latin1_tags_are_read_and_noted() {
    let (games, code) = audit(b"[Event \"l\"]\n[Result \"*\"]\n[White \"M\xfcller\"]\n\n1. e4 *\n");
    assert_eq!(code, 0, "an encoding note is not a violation");
    assert_eq!(games[0]["tags"]["White"], "M\u{fc}ller");
    assert_eq!(finding(&games[0], "encoding")["severity"], "info");
}

#[test]
fn malformed_tcec_value_is_reported_with_its_comment() {
    let (games, code) =
        audit(b"[Event \"t\"]\n\n1. e4 {d=x, mt=100, tl=999, wv=0.275, R50=50,} *\n");
    assert_eq!(code, 1);
    let fs: Vec<&Value> = games[0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "annotation-malformed")
        .collect();
    assert_eq!(fs.len(), 2, "{}", games[0]["findings"]);
    assert_eq!(at(fs[0]), (3, 7));
}

#[test]
fn checkmate_recorded_as_a_draw() {
    let (games, code) =
        audit(b"[Event \"m\"]\n[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n");
    assert_eq!(code, 1);
    let f = finding(&games[0], "result-contradicts-position");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("White is checkmated")
    );
    assert_eq!(f["evidence"][1]["ply"], 4);
}

#[test]
fn stalemate_recorded_as_a_win() {
    let (games, _) = audit(
        b"[Event \"s\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\"]\n\n1. Qf7 1-0\n",
    );
    let f = finding(&games[0], "result-contradicts-position");
    assert!(f["message"].as_str().unwrap().contains("stalemated"));
}

#[test]
fn decisive_result_in_a_dead_position() {
    let (games, _) = audit(
        b"[Event \"d\"]\n[Result \"0-1\"]\n[SetUp \"1\"]\n[FEN \"k7/8/8/8/8/8/1n6/K7 w - - 0 1\"]\n\n1. Kxb2 0-1\n",
    );
    finding(&games[0], "result-contradicts-position");
}

#[test]
fn result_tag_and_marker_disagree() {
    let (games, _) = audit(b"[Event \"r\"]\n[Result \"1-0\"]\n\n1. e4 e5 0-1\n");
    let f = finding(&games[0], "result-marker-mismatch");
    assert_eq!(f["evidence"].as_array().unwrap().len(), 2);
    assert_eq!(at(f), (2, 10));
}

#[test]
fn false_repetition_claim() {
    let (games, _) = audit(
        b"[Event \"f\"]\n[Result \"1/2-1/2\"]\n[TerminationDetails \"3-Fold repetition\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 1/2-1/2\n",
    );
    let f = finding(&games[0], "termination-unsupported");
    assert!(f["message"].as_str().unwrap().contains("2 time(s)"), "{f}");
    // one more cycle makes it true
    let (games, _) = audit(
        b"[Event \"f\"]\n[Result \"1/2-1/2\"]\n[TerminationDetails \"3-Fold repetition\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n",
    );
    assert_eq!(
        games[0]["findings"].as_array().unwrap().len(),
        0,
        "{}",
        games[0]["findings"]
    );
}

#[test]
fn chess960_start_position_castles() {
    let (games, code) = audit(
        b"[Event \"960\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n[Result \"*\"]\n\n9. g3 cxd4 *\n",
    );
    // 9...cxd4 is illegal (no pawn can capture on d4), proving the replay checks
    let f = finding(&games[0], "illegal-move");
    assert_eq!(f["evidence"][0]["ply"], 18);
    assert_eq!(code, 1);
    // The king already stands on g1: Chess960 castling moves only the rook.
    let (games, code) = audit(
        b"[Event \"960\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1\"]\n[Result \"*\"]\n\n1. O-O O-O 2. Ra1 *\n",
    );
    assert_eq!(code, 0, "{}", games[0]["findings"]);
    assert_eq!(games[0]["plies"], 3);
    assert!(
        games[0]["final_fen"]
            .as_str()
            .unwrap()
            .starts_with("1r3rk1/"),
        "{}",
        games[0]["final_fen"]
    );
}

#[test]
fn unsupported_variant_is_an_error_not_a_guess() {
    let (games, code) = audit(b"[Event \"v\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n");
    assert_eq!(code, 1);
    finding(&games[0], "unsupported-variant");
}
