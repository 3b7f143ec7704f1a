//! The clocks the managers told the engines, and losses on time, against
//! the clocks rebuilt from the TimeControl tag and the move times
//! (`manager.go-clock`, `manager.time-forfeit`, `manager.time-loss-clock`,
//! `manager.time-loss-unanswered` in `rulesets/managers.rules`,
//! docs/managers.md). Faults planted in
//! copies of the fixtures are found at their file and line; the real
//! matches of `peers/` give none.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{arbiter, json_lines};

const RULES: &str = "rulesets/managers.rules";
const OURS: [&str; 4] = [
    "manager.go-clock",
    "manager.time-forfeit",
    "manager.time-loss-clock",
    "manager.time-loss-unanswered",
];

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn audit(pgn: &Path, log: Option<&Path>) -> Vec<Value> {
    let mut args = vec![
        "audit",
        pgn.to_str().unwrap(),
        "--rules",
        RULES,
        "--format",
        "json",
    ];
    if let Some(l) = log {
        args.extend(["--engine-log", l.to_str().unwrap()]);
    }
    json_lines(&arbiter(&args))
}

/// A finding of a rule: its first evidence's file and line, its message.
#[derive(Debug, Clone, PartialEq)]
struct Found {
    rule: String,
    path: String,
    line: u64,
    message: String,
}

fn found(lines: &[Value], rules: &[&str]) -> Vec<Found> {
    lines
        .iter()
        .filter(|l| l["type"] == "game")
        .flat_map(|g| g["findings"].as_array().unwrap().iter())
        .filter(|f| rules.iter().any(|r| f["rule"] == *r))
        .map(|f| Found {
            rule: f["rule"].as_str().unwrap().to_string(),
            path: f["evidence"][0]["path"].as_str().unwrap_or("").to_string(),
            line: f["evidence"][0]["span"]["line"]
                .as_u64()
                .unwrap_or_else(|| panic!("a line in {f}")),
            message: f["message"].as_str().unwrap().to_string(),
        })
        .collect()
}

/// The line (1-based) of the `k`th line of `text` holding `needle`.
fn nth_line(text: &str, needle: &str, k: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .nth(k)
        .unwrap_or_else(|| panic!("{k} lines with {needle:?}"))
        .0
        + 1
}

/// `text` with line `line` (1-based) passed through `change`.
fn with_line(text: &str, line: usize, change: impl Fn(&str) -> String) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == line {
                change(l)
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect()
}

/// `line` with the number after `key ` moved by `by`.
fn shifted(line: &str, key: &str, by: i64) -> String {
    let at = line.find(&format!("{key} ")).expect("the key is there") + key.len() + 1;
    let end = line[at..].find(' ').map_or(line.len(), |e| at + e);
    let v: i64 = line[at..end].parse().unwrap();
    format!("{}{}{}", &line[..at], v + by, &line[end..])
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A go line's wtime moved by 2 s in a copy of `log`: found at that line
/// (2 s more than the rebuilt clock) and at the next go line (2 s less).
fn check_planted_go(pgn: &Path, log: &Path, k: usize) {
    assert_eq!(
        found(&audit(pgn, Some(log)), &OURS),
        vec![],
        "{}",
        log.display()
    );
    let text = std::fs::read_to_string(log).unwrap();
    let line = nth_line(&text, "go wtime ", k);
    let dir = tempfile::tempdir().unwrap();
    let planted = write(
        dir.path(),
        "planted.log",
        &with_line(&text, line, |l| shifted(l, "wtime", 2000)),
    );
    let got = found(&audit(pgn, Some(&planted)), &OURS);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        got.iter()
            .all(|f| f.rule == "manager.go-clock" && f.path == planted.display().to_string())
    );
    assert_eq!(got[0].line, line as u64, "{got:?}");
    assert_eq!(got[1].line, nth_line(&text, "go wtime ", k + 1) as u64);
    // off by the 2 s planted, give or take a printed move time's rounding
    // (cutechess-cli: two significant digits)
    for (f, by) in got.iter().zip([2000, -2000]) {
        let off = white_off(&f.message);
        assert!((off - by).abs() <= 5, "{}", f.message);
    }
}

/// The ms a `manager.go-clock` message says White's clock is off by.
fn white_off(message: &str) -> i64 {
    let at = message.find("off by ").expect("the difference") + "off by ".len();
    let end = at + message[at..].find(" ms for White").expect("White's");
    message[at..end].parse().unwrap()
}

#[test]
fn a_wrong_wtime_in_a_go_line_is_found_at_its_line() {
    // fastchess -log (fc-rr games 7 and 8) and cutechess-cli -debug
    // (cc-rr game 1)
    check_planted_go(
        &fixture("tests/fixtures/logs/match/fastchess.pgn"),
        &fixture("tests/fixtures/logs/match/fastchess.log"),
        10,
    );
    check_planted_go(
        &fixture("tests/fixtures/logs/match/cutechess-rr.pgn"),
        &fixture("tests/fixtures/logs/match/cutechess-rr.log"),
        10,
    );
}

/// The `tl=` readings of `text` in order, ms.
fn readings(text: &str) -> Vec<i64> {
    text.split("tl=")
        .skip(1)
        .map(|r| {
            let s = &r[..r.find('s').unwrap()];
            (s.parse::<f64>().unwrap() * 1000.0).round() as i64
        })
        .collect()
}

#[test]
fn a_time_forfeit_the_clock_does_not_show_is_found_at_its_move() {
    let original = fixture("tests/fixtures/managers/fastchess-rr.pgn");
    let text = std::fs::read_to_string(&original).unwrap();
    assert_eq!(found(&audit(&original, None), &OURS), vec![]);
    // game 1 ends with Black's 34th move, adjudicated; the record made a
    // loss on time of it, where Black had more than a second left
    let first = &text[..text[1..].find("[Event ").unwrap() + 1];
    let rest = &text[first.len()..];
    let forfeit = first
        .replacen(
            "[Termination \"adjudication\"]",
            "[Termination \"time forfeit\"]",
            1,
        )
        .replacen("White wins by adjudication", "Black loses on time", 1);
    assert_ne!(forfeit, first);
    let line = nth_line(&forfeit, "Black loses on time", 0);
    let dir = tempfile::tempdir().unwrap();
    let planted = write(dir.path(), "forfeit.pgn", &(forfeit.clone() + rest));
    let got = found(&audit(&planted, None), &OURS);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (got[0].rule.as_str(), got[0].line),
        ("manager.time-forfeit", line as u64)
    );
    assert!(
        got[0].message.contains("ms left after it"),
        "{}",
        got[0].message
    );
    // a real loss on time, as fastchess writes it: the move that lost used
    // 200 ms more than Black's clock held, its tl below zero, and no
    // increment after it
    let tl = readings(first);
    let before = tl[tl.len() - 3];
    let last = tl[tl.len() - 1];
    let old = format!("0.074s, tl={:.3}s", last as f64 / 1000.0);
    assert!(forfeit.contains(&old), "{old}");
    let real = forfeit.replacen(
        &old,
        &format!("{:.3}s, tl=-0.200s", (before + 200) as f64 / 1000.0),
        1,
    );
    let genuine = write(dir.path(), "genuine.pgn", &(real + rest));
    let lines = audit(&genuine, None);
    assert_eq!(found(&lines, &OURS), vec![]);
    assert_eq!(found(&lines, &["manager.clock"]), vec![]);
}

#[test]
fn a_time_loss_within_the_rebuilt_clock_is_found_at_its_go_line() {
    // cc-rr game 1 without its last move: the record says White lost on
    // time there, and the log has Glaurung's answer for that ply
    let pgn =
        std::fs::read_to_string(fixture("tests/fixtures/logs/match/cutechess-rr.pgn")).unwrap();
    let log_path = fixture("tests/fixtures/logs/match/cutechess-rr.log");
    let log = std::fs::read_to_string(&log_path).unwrap();
    let last = "h3 {+12.78/8 0.042s} 45. Bg3 {-10.54/9 0.080s, Black wins by adjudication} 0-1";
    assert!(pgn.contains(last));
    let cut = pgn
        .replacen(last, "h3 {+12.78/8 0.042s, White loses on time} 0-1", 1)
        .replacen("[PlyCount \"89\"]", "[PlyCount \"88\"]", 1)
        .replacen(
            "[Termination \"adjudication\"]",
            "[Termination \"time forfeit\"]",
            1,
        );
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "cut.pgn", &cut);
    // the answer came within the go line's clock: manager.time-loss
    let go = log.lines().filter(|l| l.contains("go wtime ")).count() - 1;
    let line = nth_line(&log, "go wtime ", go);
    let got = found(
        &audit(&pgn, Some(&log_path)),
        &["manager.time-loss", OURS[0], OURS[1], OURS[2]],
    );
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (got[0].rule.as_str(), got[0].line),
        ("manager.time-loss", line as u64)
    );
    // the go line told Glaurung 30 ms, less than its answer took, where
    // the previous go line and the move times give it 976 ms
    let told = write(
        dir.path(),
        "told.log",
        &with_line(&log, line, |l| {
            l.replacen("go wtime 976 ", "go wtime 30 ", 1)
        }),
    );
    let got = found(
        &audit(&pgn, Some(&told)),
        &["manager.time-loss", OURS[0], OURS[1], OURS[2]],
    );
    let mut rules: Vec<(&str, u64)> = got.iter().map(|f| (f.rule.as_str(), f.line)).collect();
    rules.sort_unstable();
    assert_eq!(
        rules,
        [
            ("manager.go-clock", line as u64),
            ("manager.time-loss-clock", line as u64)
        ],
        "{got:?}"
    );
    let clock = got
        .iter()
        .find(|f| f.rule == "manager.time-loss-clock")
        .unwrap();
    assert!(
        clock
            .message
            .contains("held 976 ms (its go line said 30 ms"),
        "{}",
        clock.message
    );
}

#[test]
fn the_peers_matches_have_no_such_finding_and_a_planted_go_is_found() {
    let Some(corpus) = std::env::var_os("ARBITER_CORPUS") else {
        eprintln!("skipping: ARBITER_CORPUS is not set (set it to the folder holding peers/)");
        return;
    };
    let peers = Path::new(&corpus).join("peers");
    for (pgn, log) in [
        ("fc-rr.pgn", "fc-rr.log"),
        ("fc-tb.pgn", "fc-tb.log"),
        ("cc-rr.pgn", "cc-rr.debug.log"),
        ("cc-tb.pgn", "cc-tb.debug.log"),
    ] {
        let lines = audit(&peers.join(pgn), Some(&peers.join(log)));
        let games = lines.iter().filter(|l| l["type"] == "game").count();
        assert!(games >= 10, "{pgn}: {games} games");
        assert_eq!(found(&lines, &OURS), vec![], "{pgn}");
    }
    for pgn in [
        "diff-fc.pgn",
        "diff-cc.pgn",
        "diff2-fc.pgn",
        "diff2-cc.pgn",
        "fishtest-65a3aca1-0.pgn.gz",
    ] {
        assert_eq!(
            found(&audit(&peers.join(pgn), None), &OURS),
            vec![],
            "{pgn}"
        );
    }
    check_planted_go(&peers.join("fc-rr.pgn"), &peers.join("fc-rr.log"), 100);
    check_planted_go(
        &peers.join("cc-rr.pgn"),
        &peers.join("cc-rr.debug.log"),
        100,
    );
}

/// `text` without its lines for which `drop` holds, and each other line
/// passed through `change`.
fn edited(text: &str, drop: impl Fn(&str) -> bool, change: impl Fn(&str) -> String) -> String {
    (text.lines())
        .filter(|l| !drop(l))
        .map(|l| change(l) + "\n")
        .collect()
}

const UNANSWERED: &str = OURS[3];

#[test]
fn a_time_loss_declared_before_the_clock_ran_out_is_found_at_its_go_line() {
    // cc-rr game 1 without its last move, lost on time by White, and the
    // log without Glaurung's answer to its last go (976 ms on its clock):
    // the game ends 81 ms after that go, with no bestmove
    let pgn =
        std::fs::read_to_string(fixture("tests/fixtures/logs/match/cutechess-rr.pgn")).unwrap();
    let log =
        std::fs::read_to_string(fixture("tests/fixtures/logs/match/cutechess-rr.log")).unwrap();
    let last = "h3 {+12.78/8 0.042s} 45. Bg3 {-10.54/9 0.080s, Black wins by adjudication} 0-1";
    assert!(pgn.contains(last));
    let cut = pgn
        .replacen(last, "h3 {+12.78/8 0.042s, White loses on time} 0-1", 1)
        .replacen("[PlyCount \"89\"]", "[PlyCount \"88\"]", 1)
        .replacen(
            "[Termination \"adjudication\"]",
            "[Termination \"time forfeit\"]",
            1,
        );
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "cut.pgn", &cut);
    let answer = "9281 <Glaurung2.2(0): bestmove f2g3";
    assert!(log.contains(answer));
    let unanswered = edited(
        &log,
        |l| l.starts_with(answer) || l.starts_with("9281 >TogaII3.0(1): position"),
        |l| l.replacen("{Black wins by adjudication}", "{White loses on time}", 1),
    );
    let early = write(dir.path(), "early.log", &unanswered);
    let go = nth_line(&unanswered, "go wtime 976 btime 1734", 0);
    let end = nth_line(&unanswered, "Finished game 1 ", 0);
    let all = ["manager.time-loss", OURS[0], OURS[1], OURS[2], OURS[3]];
    let lines = audit(&pgn, Some(&early));
    let got = found(&lines, &all);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (got[0].rule.as_str(), got[0].line, got[0].path.as_str()),
        (UNANSWERED, go as u64, early.to_str().unwrap())
    );
    assert!(
        got[0].message.contains(
            "976 ms on its clock and a margin of 0 ms, and the game ended 81 ms later with no bestmove: 895 ms before"
        ),
        "{}",
        got[0].message
    );
    // its second evidence: the manager's result line
    let f = (lines.iter())
        .flat_map(|g| g["findings"].as_array().into_iter().flatten())
        .find(|f| f["rule"] == UNANSWERED)
        .unwrap();
    assert_eq!(
        f["evidence"][1]["span"]["line"].as_u64(),
        Some(end as u64),
        "{f}"
    );
    // the same with a margin: 1 s more is a clock not yet run out either
    let got = found(
        &json_lines(&arbiter(&[
            "audit",
            pgn.to_str().unwrap(),
            "--rules",
            RULES,
            "--engine-log",
            early.to_str().unwrap(),
            "--manager-args",
            "-each timemargin=1000",
            "--format",
            "json",
        ])),
        &[UNANSWERED],
    );
    assert_eq!(got.len(), 1, "{got:?}");
    // a genuine loss: the game ends 996 ms after the go, past the clock
    let late = write(
        dir.path(),
        "late.log",
        &edited(
            &unanswered,
            |_| false,
            |l| match l.strip_prefix("9281 ") {
                Some(rest) => format!("10196 {rest}"),
                None => l.to_string(),
            },
        ),
    );
    assert_eq!(found(&audit(&pgn, Some(&late)), &all), vec![]);
}

#[test]
fn a_fastchess_time_loss_with_no_answer_is_judged_too() {
    // fc-rr game 7 without Black's last move (Qg8) and without its
    // bestmove in the log: fastchess ended the game 83 ms after Glaurung's
    // go, with 2213 ms on its clock
    let pgn = std::fs::read_to_string(fixture("tests/fixtures/logs/match/fastchess.pgn")).unwrap();
    let log = std::fs::read_to_string(fixture("tests/fixtures/logs/match/fastchess.log")).unwrap();
    let qg8 = nth_line(&pgn, "Qg8 {-15.90/11", 0);
    let cut: String = (pgn.lines().enumerate())
        .filter(|(i, _)| i + 1 != qg8)
        .map(|(i, l)| {
            if i + 2 == qg8 {
                l.replacen("\"}", "\", Black loses on time}", 1) + "\n"
            } else {
                l.to_string() + "\n"
            }
        })
        .collect::<String>()
        .replacen("[PlyCount \"40\"]", "[PlyCount \"39\"]", 1)
        .replacen(
            "[Termination \"adjudication\"]",
            "[Termination \"time forfeit\"]",
            1,
        );
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "cut.pgn", &cut);
    let answer = "Glaurung2.2 ---> bestmove d8g8 ponder g7e7";
    assert!(log.contains(answer));
    let log = write(
        dir.path(),
        "early.log",
        &edited(&log, |l| l.contains(answer), str::to_string),
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let go = nth_line(&text, "Glaurung2.2 <--- go wtime 1712 btime 2213", 0);
    let got = found(&audit(&pgn, Some(&log)), &[UNANSWERED, OURS[2]]);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!((got[0].rule.as_str(), got[0].line), (UNANSWERED, go as u64));
    assert!(
        got[0].message.contains("2213 ms on its clock"),
        "{}",
        got[0].message
    );
}
