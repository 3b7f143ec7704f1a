//! Hostile and broken inputs: each gets a clear error or a finding, never
//! a panic, and nothing it holds is lost. How time and memory grow with
//! the size of such inputs is measured by bench/adversarial.sh (a timing
//! belongs in a benchmark, not in a test); the crashes the fuzzers found
//! (fuzz/) are regression tests here too.

use std::path::Path;

use super::{arbiter, codes, finding, json_lines};

const HEADER: &str = "[Event \"E\"]\n[Site \"?\"]\n[Date \"2019.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n";

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

/// `audit --format json` on one file: (exit code, the game lines, stderr).
fn audit(args: &[&str]) -> (i32, Vec<serde_json::Value>, String) {
    let mut a = vec!["audit", "--format", "json"];
    a.extend_from_slice(args);
    let o = arbiter(&a);
    let code = o
        .status
        .code()
        .expect("arbiter exits, it is not killed by a signal");
    assert_ne!(code, 101, "panic: {}", String::from_utf8_lossy(&o.stderr));
    let games = json_lines(&o)
        .into_iter()
        .filter(|l| l["type"] == "game")
        .collect();
    (code, games, String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn deeply_nested_variations() {
    let dir = tempfile::tempdir().unwrap();
    let n = 100_000;
    let closed = format!(
        "{HEADER}1. e4 {}1. d4{} e5 *\n",
        "(".repeat(n),
        ")".repeat(n)
    );
    let p = write(dir.path(), "nested.pgn", closed.as_bytes());
    let (code, g, _) = audit(&[&p]);
    assert_eq!(code, 0);
    assert_eq!(
        g[0]["plies"], 2,
        "the main line is read around the variations"
    );
    assert_eq!(g[0]["variations_skipped"], n);
    // never closed: the variation swallows the rest, and says so where it opens
    let open = format!("{HEADER}1. e4 {}1. d4 e5 *\n", "(".repeat(n));
    let p = write(dir.path(), "unclosed.pgn", open.as_bytes());
    let (code, g, _) = audit(&[&p]);
    assert_eq!(code, 1);
    let f = finding(&g[0], "pgn-syntax");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("variation not closed: 100000 `(`"),
        "{f}"
    );
    assert_eq!(f["evidence"][0]["span"]["line"], 9);
    assert_eq!(f["evidence"][0]["span"]["column"], 7);
}

#[test]
fn a_million_characters_in_a_comment_and_a_tag() {
    let dir = tempfile::tempdir().unwrap();
    let big = "x".repeat(1_000_000);
    let text = format!(
        "{}1. e4 {{{big}}} e5 *\n",
        HEADER.replace("[Event \"E\"]", &format!("[Event \"{big}\"]"))
    );
    let p = write(dir.path(), "big.pgn", text.as_bytes());
    let (code, g, _) = audit(&[&p]);
    assert_eq!(code, 0);
    assert_eq!(g[0]["plies"], 2);
    // nothing lost: the tag comes back whole
    assert_eq!(g[0]["tags"]["Event"].as_str().unwrap().len(), 1_000_000);
    // a game of more than 8 MiB: reported with its tags, the next game read
    let huge = "y".repeat(9 << 20);
    let text = format!("{HEADER}1. e4 {{{huge}}} e5 *\n\n{HEADER}1. d4 d5 *\n");
    let p = write(dir.path(), "huge.pgn", text.as_bytes());
    let (code, g, _) = audit(&[&p]);
    assert_eq!(code, 1);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0]["tags"]["White"], "A");
    assert!(
        finding(&g[0], "pgn-syntax")["message"]
            .as_str()
            .unwrap()
            .contains("its tags were read, its moves skipped")
    );
    assert!(!codes(&g[0]).contains(&"result-tag-missing".to_string()));
    assert_eq!(g[1]["plies"], 2);
}

#[test]
fn crlf_latin1_utf16_bom_and_nul() {
    let dir = tempfile::tempdir().unwrap();
    let lf = format!("{HEADER}1. e4 e5 2. Nf3 *\n");
    let p_lf = write(dir.path(), "lf.pgn", lf.as_bytes());
    let p_crlf = write(dir.path(), "crlf.pgn", lf.replace('\n', "\r\n").as_bytes());
    let (_, a, _) = audit(&[&p_lf]);
    let (_, b, _) = audit(&[&p_crlf]);
    assert_eq!(a[0]["plies"], 3);
    assert_eq!(
        (
            &a[0]["plies"],
            &a[0]["tags"],
            &a[0]["final_fen"],
            codes(&a[0])
        ),
        (
            &b[0]["plies"],
            &b[0]["tags"],
            &b[0]["final_fen"],
            codes(&b[0])
        ),
        "CRLF reads as LF"
    );
    // Latin-1: decoded, and said so where
    let mut latin1 = HEADER.replace("\"A\"", "\"Caf\u{e9}\"").into_bytes();
    let at = latin1.iter().position(|&b| b == 0xC3).unwrap();
    latin1.splice(at..at + 2, [0xE9]);
    latin1.extend_from_slice(b"1. e4 e5 *\n");
    let p = write(dir.path(), "latin1.pgn", &latin1);
    let (_, g, _) = audit(&[&p]);
    assert_eq!(g[0]["tags"]["White"], "Caf\u{e9}");
    let f = finding(&g[0], "encoding");
    assert_eq!(f["evidence"][0]["span"]["line"], 5);
    // a UTF-8 byte-order mark is skipped
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(lf.as_bytes());
    let p = write(dir.path(), "bom.pgn", &bom);
    let (code, g, _) = audit(&[&p]);
    assert_eq!((code, &g[0]["plies"]), (0, &serde_json::json!(3)));
    // UTF-16: a clear error naming the file, and the rest of the run goes on
    for (name, bytes) in [
        ("le.pgn", utf16(&lf, true, true)),
        ("be.pgn", utf16(&lf, false, true)),
        ("nobom.pgn", utf16(&lf, true, false)),
    ] {
        let p = write(dir.path(), name, &bytes);
        let (code, g, err) = audit(&[&p, &p_lf]);
        assert_eq!(code, 2, "{name}");
        assert!(
            err.contains(name) && err.contains("UTF-16") && err.contains("iconv"),
            "{err}"
        );
        assert_eq!(g.len(), 1, "the other file is audited");
    }
    // NUL bytes: an unparsable token at its place
    let nul = format!("{HEADER}1. e4 \0 e5 *\n");
    let p = write(dir.path(), "nul.pgn", nul.as_bytes());
    let (code, g, _) = audit(&[&p]);
    assert_eq!(code, 1);
    let f = finding(&g[0], "unparsable-token");
    assert_eq!(
        (
            &f["evidence"][0]["span"]["line"],
            &f["evidence"][0]["span"]["column"]
        ),
        (&serde_json::json!(9), &serde_json::json!(7))
    );
}

fn utf16(s: &str, le: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if bom {
        out.extend_from_slice(if le { &[0xFF, 0xFE] } else { &[0xFE, 0xFF] });
    }
    for u in s.encode_utf16() {
        out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
    }
    out
}

#[test]
fn clock_values_near_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let tc = HEADER.replace(
        "[Result \"*\"]",
        "[Result \"*\"]\n[TimeControl \"9223372036854775807+9223372036854775807\"]",
    );
    // beyond the largest time a record may give (10^12 ms): malformed,
    // each at its place
    let over = format!(
        "{tc}1. e4 {{[%clk 2562047788015:12:55]}} e5 {{[%clk 99999999999999999999:00:00]}} 2. Nf3 {{d=20, mt=9223372036854775807, tl=9223372036854775807, wv=0.10}} Nc6 {{d=20, mt=-9223372036854775808, tl=-9223372036854775808, wv=0.10}} *\n"
    );
    let p = write(dir.path(), "over.pgn", over.as_bytes());
    let (code, g, err) = audit(&["--rules", "rulesets/tcec-s15.rules", &p]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(g[0]["plies"], 4);
    let c = codes(&g[0]);
    assert_eq!(
        c.iter().filter(|c| *c == "annotation-malformed").count(),
        6,
        "{c:?}"
    );
    assert!(c.contains(&"tcec.time-control".to_string()), "{c:?}");
    // at the limit: read, and the clock arithmetic reports the jumps
    // without overflowing
    let at = format!(
        "{tc}1. e4 {{[%clk 277777:46:40]}} e5 {{[%clk 0:00:01]}} 2. Nf3 {{d=20, mt=1000000000000, tl=-1000000000000, wv=0.10}} Nc6 {{d=20, mt=-1000000000000, tl=1000000000000, wv=0.10}} *\n"
    );
    let p = write(dir.path(), "limit.pgn", at.as_bytes());
    let (code, g, err) = audit(&["--rules", "rulesets/tcec-s15.rules", &p]);
    assert_eq!(code, 1, "{err}");
    let c = codes(&g[0]);
    assert!(!c.contains(&"annotation-malformed".to_string()), "{c:?}");
    assert!(c.contains(&"tcec.clock".to_string()), "{c:?}");
}

#[test]
fn an_engine_log_of_a_million_info_lines() {
    // an engine that floods its log during one search: every line is read,
    // the search keeps its final report
    let dir = tempfile::tempdir().unwrap();
    let case = Path::new("samples/kasparov-deep-junior-2003/clean");
    let log = std::fs::read_to_string(case.join("engine.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    let go = lines.iter().position(|l| l.contains(" > go")).unwrap();
    let ts = lines[go].split(' ').next().unwrap();
    let mut flood = lines[..=go].join("\n");
    flood.push('\n');
    let n = 1_000_000;
    flood.push_str(&format!("{ts} < info depth 1 nodes 1\n").repeat(n));
    flood.push_str(&lines[go + 1..].join("\n"));
    let p = write(dir.path(), "flood.log", flood.as_bytes());
    let (code, g, err) = audit(&[
        "--rules",
        "rulesets/kasparov-deep-junior-2003.rules",
        "--engine-log",
        &p,
        "--operator-log",
        "samples/kasparov-deep-junior-2003/clean/operator.log",
        "samples/kasparov-deep-junior-2003/clean/game.pgn",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(g[0]["plies"], 40);
}

#[test]
fn logs_in_utf16_or_with_a_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let case = Path::new("samples/kasparov-deep-junior-2003/clean");
    let op = std::fs::read_to_string(case.join("operator.log")).unwrap();
    let p16 = write(dir.path(), "op16.log", &utf16(&op, true, true));
    let (code, _, err) = audit(&[
        "--rules",
        "rulesets/kasparov-deep-junior-2003.rules",
        "--operator-log",
        &p16,
        "samples/kasparov-deep-junior-2003/clean/game.pgn",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("op16.log") && err.contains("UTF-16"), "{err}");
    // with a UTF-8 byte-order mark the log reads as without one
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(op.as_bytes());
    let pb = write(dir.path(), "opbom.log", &bom);
    let run = |log: &str| {
        audit(&[
            "--rules",
            "rulesets/kasparov-deep-junior-2003.rules",
            "--operator-log",
            log,
            "--engine-log",
            "samples/kasparov-deep-junior-2003/clean/engine.log",
            "samples/kasparov-deep-junior-2003/clean/game.pgn",
        ])
    };
    let (c1, g1, _) = run(&pb);
    let (c2, g2, _) = run("samples/kasparov-deep-junior-2003/clean/operator.log");
    assert_eq!((c1, codes(&g1[0])), (c2, codes(&g2[0])));
    // not UTF-8: refused with the place
    let mut bad = op.clone().into_bytes();
    bad.splice(0..0, b"# \xff\n".iter().copied());
    let pbad = write(dir.path(), "opbad.log", &bad);
    let (code, _, err) = run(&pbad);
    assert_eq!(code, 2);
    assert!(
        err.contains("error: not UTF-8 text (byte 2, 0xFF)") && err.contains("opbad.log:1:3"),
        "{err}"
    );
}

/// `rules check` on a ruleset: (exit code, stderr).
fn check(dir: &Path, body: &str) -> (i32, String) {
    let p = write(
        dir,
        "t.rules",
        format!("ruleset t \"T\" {{ regulation \"r\" }}\n{body}").as_bytes(),
    );
    let o = arbiter(&["rules", "check", &p]);
    let code = o.status.code().unwrap();
    assert_ne!(code, 101, "panic: {}", String::from_utf8_lossy(&o.stderr));
    (code, String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn rulesets_with_huge_numbers_deep_nesting_and_cycles() {
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = check(dir.path(), &format!("const a = {}\n", "9".repeat(400)));
    assert_eq!(code, 2);
    assert!(
        err.contains("is too large") && err.contains("t.rules:2:11"),
        "{err}"
    );
    for deep in [
        format!("const a = {}1{}\n", "(".repeat(40_000), ")".repeat(40_000)),
        format!("const a = {}1\n", "-".repeat(40_000)),
        format!("const a = {}true\n", "not ".repeat(40_000)),
        format!("const a = {}1{}\n", "[".repeat(40_000), "]".repeat(40_000)),
    ] {
        let (code, err) = check(dir.path(), &deep);
        assert_eq!(code, 2);
        assert!(err.contains("nested more than 32 levels deep"), "{err}");
        // the diagnostic shows a window of the line, not all of it
        assert!(err.len() < 2_000, "{} bytes", err.len());
    }
    // past the token limit, the lexer refuses before any nesting is seen
    let (code, err) = check(
        dir.path(),
        &format!("const a = {}1{}\n", "(".repeat(60_000), ")".repeat(60_000)),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("more than 100000 tokens") && err.contains("t.rules:2:"),
        "{err}"
    );
    assert!(err.len() < 2_000, "{} bytes", err.len());
    let (code, err) = check(
        dir.path(),
        "variant a extends b {}\nvariant b extends c {}\nvariant c extends a {}\n",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("variant inheritance cycle: a → b → c → a"),
        "{err}"
    );
    // a million-character line: the error is at its column, shown in a window
    let (code, err) = check(
        dir.path(),
        &format!("const a = \"{}\" @\n", "x".repeat(1_000_000)),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("t.rules:2:1000014") && err.len() < 2_000,
        "{err}"
    );
    // control characters in the source are not echoed to the terminal
    let (_, err) = check(dir.path(), "const a = 3 \u{1b}[31m @\n");
    assert!(!err.contains('\u{1b}'), "{err:?}");
    // a period of too many moves is refused at its place; a huge but valid
    // time control and a huge comparison compile and run without overflow
    let (code, err) = check(
        dir.path(),
        "time-control x { period 999999999999999 moves in 1h }\n",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("expected a whole number of moves from 1 to 10000")
            && err.contains("t.rules:2:25"),
        "{err}"
    );
    let huge = "ruleset t \"T\" { regulation \"r\" time-control x }\nconst big = 999999999999999\ntime-control x { period 10000 moves in 1000000h increment 1000000h }\nrule r.x \"x\" {\n  cite \"1\" \"q\"\n  forbid on move when move.ply > big * big * big or move.clock_left > big\n}\n";
    let p = write(dir.path(), "huge.rules", huge.as_bytes());
    let (code, g, err) = audit(&["--rules", &p, "samples/tcec-style.pgn"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(g.len(), 2);
}

/// Standard error closed before arbiter writes to it (`2>&1 | head -c 0`):
/// the messages are dropped, arbiter does not panic, and its exit status
/// still says it could not run.
#[test]
fn a_closed_standard_error_does_not_panic() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["audit", "no/such/file.pgn", "also/missing.pgn"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "a panic exits 101");
}

/// Found by the `operator_log` fuzz target: a move entered at a ply beyond
/// u32 (read as u32::MAX), then a move entered with no ply, overflowed the
/// count of completed plies (a panic in a debug build, a wrong ply in a
/// release one). The audit goes on.
#[test]
fn an_operator_ply_beyond_u32_does_not_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let log = write(
        dir.path(),
        "operator.log",
        b"2026-11-22T13:19:08+01:00 ann setup machine_side=white\n\
          2026-11-22T13:19:46+01:00 ann move-entered ply=222222222222222222222222 side=white move=e3\n\
          2026-11-22T13:19:48+01:00 ann move-entered side=black move=Nf6\n",
    );
    let (code, games, err) = audit(&[
        "--rules",
        "rulesets/wccc-1992-madrid.rules",
        "--operator-log",
        &log,
        "samples/wccc-1992-madrid/interrogation/game.pgn",
    ]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    assert_eq!(games.len(), 1, "{err}");
}
