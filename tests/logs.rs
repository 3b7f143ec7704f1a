//! Engine logs: real captured traffic of real engines, and malformed logs
//! (truncated lines, timestamps going backwards, unknown commands, two
//! engines interleaved, a log for another game): clear findings, never a
//! panic.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{arbiter, codes, json_lines};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs")
        .join(name)
}

/// Audit a game with engine logs; the game line.
fn audit(pgn: &Path, logs: &[&Path]) -> Value {
    audit_lines(pgn, logs).into_iter().next().unwrap()
}

/// Audit a game with engine logs; every JSON line (the game's, then the
/// summary).
fn audit_lines(pgn: &Path, logs: &[&Path]) -> Vec<Value> {
    let mut args: Vec<String> = vec![
        "audit".into(),
        "--format".into(),
        "json".into(),
        pgn.display().to_string(),
    ];
    for l in logs {
        args.push("--engine-log".into());
        args.push(l.display().to_string());
    }
    let o = arbiter(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    json_lines(&o)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A real game between Stockfish 15.1 and Glaurung 2.2 recorded by
/// `arbiter record` (both engines' transcripts): every search is aligned,
/// nothing disagrees.
#[test]
fn real_transcripts_align_with_their_game() {
    let dir = fixture("stockfish-vs-glaurung");
    let (pgn, a, b) = (
        dir.join("game.pgn"),
        dir.join("engine.log"),
        dir.join("opponent.log"),
    );
    let g = audit(&pgn, &[&a, &b]);
    assert_eq!(codes(&g), Vec::<String>::new());
    let text = std::fs::read_to_string(&a).unwrap();
    let log = arbiter::ingest::engine::parse(&text);
    assert!(log.errors.is_empty(), "{:?}", log.errors);
    let acts = arbiter::ingest::engine::activities(&log, "");
    let searches = acts
        .iter()
        .filter(|a| matches!(a, arbiter::ingest::engine::Activity::Search(_)))
        .count();
    assert_eq!(searches, 20, "one search per Stockfish move");
    for a in acts {
        if let arbiter::ingest::engine::Activity::Search(s) = a {
            assert!(s.bestmove.is_some() && !s.infos.is_empty() && s.go.clock[0].is_some());
        }
    }
}

#[test]
fn truncated_line_is_reported_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(fixture("stockfish-vs-glaurung/engine.log")).unwrap();
    let mut lines: Vec<&str> = src.lines().collect();
    let n = lines.iter().position(|l| l.contains("> go ")).unwrap();
    let cut = &lines[n][..14];
    lines[n] = cut;
    let log = write(dir.path(), "engine.log", &(lines.join("\n") + "\n"));
    let g = audit(&fixture("stockfish-vs-glaurung/game.pgn"), &[&log]);
    let f = g["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "engine-log-syntax")
        .expect("syntax finding");
    assert_eq!(f["evidence"][0]["span"]["line"], n as u64 + 1);
    // the first search lost its `go`: its bestmove joins no search, so the
    // engine's first move is reported missing, and nothing else breaks
    assert!(
        codes(&g)
            .iter()
            .all(|c| ["engine-log-syntax", "engine-log-gap"].contains(&c.as_str())),
        "{:?}",
        codes(&g)
    );
}

#[test]
fn timestamps_going_backwards() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(fixture("stockfish-vs-glaurung/engine.log")).unwrap();
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    let n = lines.iter().position(|l| l.contains("< bestmove")).unwrap();
    lines[n] = lines[n].replacen("2026-", "2025-", 1);
    let log = write(dir.path(), "engine.log", &(lines.join("\n") + "\n"));
    let g = audit(&fixture("stockfish-vs-glaurung/game.pgn"), &[&log]);
    let f = g["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "engine-time-backwards")
        .expect("backwards");
    assert_eq!(f["evidence"][0]["span"]["line"], n as u64 + 1);
}

#[test]
fn unknown_commands_are_read_not_errors() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(fixture("stockfish-vs-glaurung/engine.log")).unwrap();
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    let ts = lines[8].split(' ').next().unwrap().to_string();
    lines.insert(8, format!("{ts} > frobnicate the widget"));
    lines.insert(9, format!("{ts} < info string hello from the engine"));
    let text = lines.join("\n") + "\n";
    let log = arbiter::ingest::engine::parse(&text);
    assert!(log.errors.is_empty());
    assert!(
        arbiter::ingest::engine::traffic(&text)
            .any(|l| l.text == "frobnicate the widget"
                && l.msg == arbiter::ingest::engine::Msg::Other)
    );
    let p = write(dir.path(), "engine.log", &text);
    let g = audit(&fixture("stockfish-vs-glaurung/game.pgn"), &[&p]);
    assert_eq!(codes(&g), Vec::<String>::new());
}

/// Both engines' real traffic rewritten as one cutechess-style debug file
/// (`<ms> >Name(n): …`), interleaved by time: each engine is followed by
/// its name and aligned with its own side.
#[test]
fn two_engines_interleaved_in_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut all: Vec<(i64, String)> = Vec::new();
    for (file, name) in [
        ("engine.log", "Stockfish(1)"),
        ("opponent.log", "Glaurung(0)"),
    ] {
        let text =
            std::fs::read_to_string(fixture(&format!("stockfish-vs-glaurung/{file}"))).unwrap();
        for l in arbiter::ingest::engine::traffic(&text) {
            let d = match l.dir {
                arbiter::ingest::engine::Dir::ToEngine => '>',
                arbiter::ingest::engine::Dir::FromEngine => '<',
                arbiter::ingest::engine::Dir::Harness => continue,
            };
            all.push((l.time, format!("{d}{name}: {}", l.text)));
        }
    }
    all.sort_by_key(|(t, _)| *t);
    let t0 = all[0].0;
    let text: String = all
        .iter()
        .map(|(t, l)| format!("{} {l}\n", t - t0))
        .collect();
    let p = write(dir.path(), "cutechess.log", &text);
    let parsed = arbiter::ingest::engine::parse(&text);
    let mut engines = parsed.engines();
    engines.sort();
    assert_eq!(
        engines,
        vec!["Glaurung(0)".to_string(), "Stockfish(1)".to_string()]
    );
    let g = audit(&fixture("stockfish-vs-glaurung/game.pgn"), &[&p]);
    assert_eq!(codes(&g), Vec::<String>::new());
    // and with one bestmove changed, the right engine and line are named
    let line = text
        .lines()
        .position(|l| l.contains("<Stockfish(1): bestmove"))
        .unwrap();
    let changed: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == line {
                l.replacen("bestmove ", "bestmove a7a6 xx ", 1)
                    .replacen(" xx", "", 1)
            } else {
                l.to_string()
            }
        })
        .collect();
    let p2 = write(dir.path(), "cutechess2.log", &(changed.join("\n") + "\n"));
    let g = audit(&fixture("stockfish-vs-glaurung/game.pgn"), &[&p2]);
    let f = &g["findings"][0];
    assert!(
        ["bestmove-differs", "engine-log-inconsistent"].contains(&f["code"].as_str().unwrap()),
        "{f}"
    );
    assert!(f["message"].as_str().unwrap().contains("Stockfish(1)"));
    assert_eq!(f["evidence"][0]["span"]["line"], line as u64 + 1);
}

#[test]
fn a_log_of_another_game_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let other = write(
        dir.path(),
        "other.pgn",
        "[Event \"x\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"3\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
    );
    let g = audit(&other, &[&fixture("stockfish-vs-glaurung/engine.log")]);
    assert!(
        codes(&g).contains(&"engine-log-other-game".to_string()),
        "{:?}",
        codes(&g)
    );
}

#[test]
fn garbage_logs_never_panic() {
    let src = std::fs::read_to_string(fixture("stockfish-vs-glaurung/engine.log")).unwrap();
    let bytes = src.as_bytes();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..300 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut m = bytes[..(x as usize % bytes.len())].to_vec();
        let at = (x >> 20) as usize % m.len().max(1);
        if !m.is_empty() {
            m[at] = b" ><!:#0-9aZ\n"[(x >> 40) as usize % 12];
        }
        let text = String::from_utf8_lossy(&m);
        let log = arbiter::ingest::engine::parse(&text);
        for e in log.engines() {
            let _ = arbiter::ingest::engine::activities(&log, &e);
        }
    }
}

/// Real output of cutechess-cli 1.4 (`-debug all`, Stockfish 15.1 against
/// Glaurung 2.2, `tc=10+0.1`): its debug log and its PGN, whose comments
/// are cutechess's `{+0.29/19 0.92s}`.
#[test]
fn real_cutechess_debug_output_and_pgn() {
    let dir = fixture("cutechess");
    let text = std::fs::read_to_string(dir.join("debug.log")).unwrap();
    let log = arbiter::ingest::engine::parse(&text);
    assert!(log.errors.is_empty(), "{:?}", log.errors);
    assert!(
        log.notes
            .iter()
            .any(|(_, n)| n.starts_with("Started game 1 of 1"))
    );
    let mut engines = log.engines();
    engines.sort();
    assert_eq!(
        engines,
        vec!["Glaurung(1)".to_string(), "Stockfish(0)".to_string()]
    );
    for e in &engines {
        let searches = arbiter::ingest::engine::activities(&log, e)
            .iter()
            .filter(|a| matches!(a, arbiter::ingest::engine::Activity::Search(s) if s.bestmove.is_some()))
            .count();
        assert_eq!(searches, 30, "{e}");
    }
    let g = audit(&dir.join("game.pgn"), &[&dir.join("debug.log")]);
    assert_eq!(codes(&g), Vec::<String>::new());
    // every move's cutechess comment is typed
    let o = arbiter(&["replay", "--json", dir.join("game.pgn").to_str().unwrap()]);
    let plies = json_lines(&o);
    assert_eq!(plies.len(), 60);
    for p in &plies {
        let c = &p["recorded"]["cutechess"];
        assert!(
            c["depth"].is_u64() && c["time_ms"].is_i64() && c["score"].is_object(),
            "{p}"
        );
    }
    // one bestmove changed: named with its engine and line
    let n = text
        .lines()
        .position(|l| l.contains("<Glaurung(1): bestmove"))
        .unwrap();
    let changed: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == n {
                let mut w: Vec<&str> = l.split(' ').collect();
                let k = w.iter().position(|x| *x == "bestmove").unwrap();
                w[k + 1] = "a7a6";
                format!("{}\n", w.join(" "))
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let p = write(tmp.path(), "debug.log", &changed);
    let g = audit(&dir.join("game.pgn"), &[&p]);
    let f = &g["findings"][0];
    assert_eq!(f["code"], "bestmove-differs", "{f}");
    assert!(f["message"].as_str().unwrap().contains("Glaurung(1)"));
    assert_eq!(f["evidence"][0]["span"]["line"], n as u64 + 1);
}

/// A log file is read as it streams by, line by line; what it gives is
/// what reading the whole text gives: the same spans, activities, notes
/// and errors, the byte-order mark dropped, CRLF and LF alike, a byte that
/// is not UTF-8 replaced, a last line with no line ending read.
#[test]
fn streamed_engine_log_is_the_whole_text_read() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read(fixture("cutechess/debug.log")).unwrap();
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    for (i, line) in src.split_inclusive(|&b| b == b'\n').enumerate() {
        match i % 3 {
            0 => bytes.extend_from_slice(line),
            1 => {
                bytes.extend_from_slice(line.strip_suffix(b"\n").unwrap_or(line));
                bytes.extend_from_slice(b"\r\n");
            }
            _ => {
                bytes.extend_from_slice(b"Latin-1 \xe9t\xe9 note\n");
                bytes.extend_from_slice(line);
            }
        }
    }
    bytes.extend_from_slice(b"12 <Stockfish(0): info depth 1\xff score cp 3");
    let p = dir.path().join("engine.log");
    std::fs::write(&p, &bytes).unwrap();
    let streamed = arbiter::ingest::logs::read_engine_log(&p).unwrap();
    let whole = arbiter::ingest::engine::parse(&String::from_utf8_lossy(&bytes[3..]));
    assert_eq!(streamed.log, whole);
    assert_eq!(streamed.sha256, arbiter::base::digest::sha256_hex(&bytes));
    assert_eq!(whole.engines().len(), 2);
    assert!(
        whole
            .notes
            .iter()
            .any(|(_, n)| n == "Latin-1 \u{fffd}t\u{fffd} note")
    );
    // a log in UTF-16 is refused with its name and the way to convert it
    std::fs::write(&p, b"\xff\xfe1\x00 \x00>\x00").unwrap();
    let e = arbiter::ingest::logs::read_engine_log(&p)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("engine.log: line 1: the file is UTF-16LE") && e.contains("iconv"),
        "{e}"
    );
}

/// Engine logs are read each on a thread of its own. Where several cannot
/// be read, arbiter says so for the first of them in the order given,
/// whichever thread finished first, and exits 2.
#[test]
fn of_two_unreadable_logs_the_first_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let game = fixture("stockfish-vs-glaurung").join("game.pgn");
    let wide = dir.path().join("wide.log");
    // UTF-16 (a byte-order mark), refused with its own message
    std::fs::write(&wide, [0xFF, 0xFE, b'1', 0, b' ', 0]).unwrap();
    let missing = dir.path().join("missing.log");
    let big = fixture("stockfish-vs-glaurung").join("engine.log");
    for (order, first) in [
        ([&big, &wide, &missing], "wide.log"),
        ([&big, &missing, &wide], "missing.log"),
    ] {
        let mut args: Vec<String> = vec!["audit".into(), game.display().to_string()];
        for l in order {
            args.push("--engine-log".into());
            args.push(l.display().to_string());
        }
        let o = arbiter(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.lines().next().is_some_and(|l| l.contains(first)),
            "{first}: {err}"
        );
    }
}

/// Logs read side by side come back in the order given: the summary lists
/// them so, each with its hash, and the game's findings are the same
/// whichever is named first (the two transcripts of one recorded game).
#[test]
fn logs_read_side_by_side_keep_their_order() {
    let dir = fixture("stockfish-vs-glaurung");
    let game = dir.join("game.pgn");
    let run = |first: &str, second: &str| {
        let lines = audit_lines(&game, &[&dir.join(first), &dir.join(second)]);
        let logs: Vec<String> = lines.last().unwrap()["logs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                assert_eq!(l["sha256"].as_str().map(str::len), Some(64), "{l}");
                l["path"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        (codes(&lines[0]), logs)
    };
    let (a, a_logs) = run("engine.log", "opponent.log");
    let (b, b_logs) = run("opponent.log", "engine.log");
    assert_eq!(a_logs, ["engine.log", "opponent.log"]);
    assert_eq!(b_logs, ["opponent.log", "engine.log"]);
    assert_eq!(a, b);
}
