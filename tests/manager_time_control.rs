//! The TimeControl tag against the control the match was told
//! (`manager.time-control`, `-rounding` and `-scaled` in
//! `rulesets/managers.rules`, docs/managers.md): the same control says
//! nothing, a control scaled by one factor is a note that gives it,
//! fastchess's 1 ms rounding is named as such, and any other control is a
//! warning; fishtest's task PGN, told its run's tc by its task JSON, is
//! explained game by game and its adjudications still reproduced.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{arbiter, json_lines};

const RULES: &str = "rulesets/managers.rules";
const RULE_IDS: [&str; 3] = [
    "manager.time-control",
    "manager.time-control-rounding",
    "manager.time-control-scaled",
];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/managers/time-control.pgn")
}

fn audit(path: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["audit", path.to_str().unwrap(), "--rules", RULES];
    args.extend(["--format", "json"]);
    args.extend_from_slice(extra);
    json_lines(&arbiter(&args))
}

/// A finding as (rule, severity, message).
type Said = (String, String, String);

/// Each game's line in its file and its time-control findings.
fn judged(lines: &[Value]) -> Vec<(u64, Vec<Said>)> {
    lines
        .iter()
        .filter(|l| l["type"] == "game")
        .map(|g| {
            let found = g["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| RULE_IDS.contains(&f["rule"].as_str().unwrap_or("")))
                .map(|f| {
                    let s = |k: &str| f[k].as_str().unwrap().to_string();
                    (s("rule"), s("severity"), s("message"))
                })
                .collect();
            (g["source"]["line"].as_u64().unwrap(), found)
        })
        .collect()
}

#[test]
fn each_tag_is_judged_against_the_control_told() {
    let lines = audit(&fixture(), &["--manager-args", "-each tc=60+0.6"]);
    let games = judged(&lines);
    let lines_of: Vec<u64> = games.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines_of, [1, 18, 35, 52, 69, 86]);
    let one = |i: usize| {
        let (_, f) = &games[i];
        assert_eq!(f.len(), 1, "game at line {}: {f:?}", games[i].0);
        f[0].clone()
    };
    // 60+0.6 as told, and 60+0.60: the same numbers
    assert!(games[0].1.is_empty(), "{:?}", games[0]);
    assert!(games[5].1.is_empty(), "{:?}", games[5]);
    // fishtest's scaling: a note that gives the factor
    let (rule, sev, msg) = one(1);
    assert_eq!(
        (rule.as_str(), sev.as_str()),
        ("manager.time-control-scaled", "info")
    );
    assert!(
        msg.starts_with("TimeControl 53.596+0.536 is scaled by 0.893 from the match's tc=60+0.6"),
        "{msg}"
    );
    // fastchess's 1 ms: named as its rounding
    let (rule, sev, msg) = one(2);
    assert_eq!(
        (rule.as_str(), sev.as_str()),
        ("manager.time-control-rounding", "warning")
    );
    assert!(msg.contains("fastchess's rounding"), "{msg}");
    assert!(msg.contains("600 ms as 599 ms"), "{msg}");
    // another control
    let (rule, sev, msg) = one(3);
    assert_eq!(
        (rule.as_str(), sev.as_str()),
        ("manager.time-control", "warning")
    );
    assert_eq!(msg, "TimeControl 60+1, but the match was told tc=60+0.6");
    // the same tag from cutechess-cli, which has no such rounding
    let (rule, _, _) = one(4);
    assert_eq!(rule, "manager.time-control");
}

/// A finding on a game's TimeControl points at the tag's line, not at
/// the game: the rules' conditions read the tag (as any rule on a game
/// that reads a tag does).
#[test]
fn each_finding_points_at_the_tags_line() {
    let lines = audit(&fixture(), &["--manager-args", "-each tc=60+0.6"]);
    let text = std::fs::read_to_string(fixture()).unwrap();
    let tag_lines: Vec<u64> = (text.lines().enumerate())
        .filter(|(_, l)| l.starts_with("[TimeControl "))
        .map(|(i, _)| i as u64 + 1)
        .collect();
    let mut pointed = Vec::new();
    for (k, g) in lines.iter().filter(|l| l["type"] == "game").enumerate() {
        for f in g["findings"].as_array().unwrap() {
            if !RULE_IDS.contains(&f["rule"].as_str().unwrap_or("")) {
                continue;
            }
            let ev = &f["evidence"][0];
            assert_eq!(ev["note"], "the TimeControl tag", "{f}");
            assert_eq!(ev["span"]["line"].as_u64(), Some(tag_lines[k]), "{f}");
            pointed.push(k);
        }
    }
    assert_eq!(pointed, [1, 2, 3, 4]);
}

#[test]
fn told_nothing_no_tag_is_judged() {
    let games = judged(&audit(&fixture(), &[]));
    assert_eq!(games.len(), 6);
    assert!(games.iter().all(|(_, f)| f.is_empty()), "{games:?}");
}

#[test]
fn no_clock_is_no_clock_however_written() {
    // fastchess writes `-` for tc=inf, cutechess-cli `inf`
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture()).unwrap();
    let text = text
        .replace("[TimeControl \"60+0.6\"]", "[TimeControl \"-\"]")
        .replace("[TimeControl \"60+0.60\"]", "[TimeControl \"inf\"]");
    let path = dir.path().join("inf.pgn");
    std::fs::write(&path, text).unwrap();
    let games = judged(&audit(&path, &["--manager-args", "-each tc=inf"]));
    assert!(games[0].1.is_empty(), "{:?}", games[0]);
    assert!(games[5].1.is_empty(), "{:?}", games[5]);
    assert!(games[1].1.iter().all(|(r, ..)| r == "manager.time-control"));
}

/// fishtest's task PGN, as fishtest stores it, told its run's tc by the
/// task JSON: every game's scaled TimeControl explained with its factor,
/// nothing else said of it, and its 7 adjudications still reproduced.
#[test]
fn the_fishtest_task_is_explained_by_its_runs_tc() {
    let Some(corpus) = std::env::var_os("ARBITER_CORPUS") else {
        eprintln!("skipping: ARBITER_CORPUS is not set (set it to the folder holding peers/)");
        return;
    };
    let peers = Path::new(&corpus).join("peers");
    let pgn = peers.join("fishtest-65a3aca1-0.pgn.gz");
    let task = peers.join("fishtest-65a3aca1.json");
    let out = arbiter(&[
        "audit",
        pgn.to_str().unwrap(),
        "--rules",
        RULES,
        "--manager-config",
        task.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", super::stdout(&out));
    let lines = json_lines(&out);
    let games = judged(&lines);
    assert_eq!(games.len(), 12);
    for (line, found) in &games {
        assert_eq!(found.len(), 1, "game at line {line}: {found:?}");
        let (rule, sev, msg) = &found[0];
        assert_eq!(
            (rule.as_str(), sev.as_str()),
            ("manager.time-control-scaled", "info")
        );
        assert!(
            msg.starts_with(
                "TimeControl 53.596+0.536 is scaled by 0.893 from the match's tc=60+0.6"
            ),
            "{msg}"
        );
    }
    // the game lines, read with the test's own pattern
    let text = {
        use std::io::Read;
        let mut s = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&pgn).unwrap())
            .read_to_string(&mut s)
            .unwrap();
        s
    };
    let starts: Vec<u64> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("[Event "))
        .map(|(i, _)| i as u64 + 1)
        .collect();
    assert_eq!(games.iter().map(|(l, _)| *l).collect::<Vec<_>>(), starts);
    let adjudicated = lines
        .iter()
        .filter(|l| l["type"] == "game")
        .filter(|g| {
            g["termination"]["computed"]["rule"]
                .as_str()
                .is_some_and(|r| r.starts_with("manager."))
        })
        .count();
    assert_eq!(
        adjudicated, 7,
        "the task's adjudications, under fishtest's settings"
    );
    let variants: Vec<&Value> = lines
        .iter()
        .filter(|l| l["type"] == "game")
        .map(|g| &g["variant"])
        .collect();
    assert!(variants.iter().all(|v| *v == "fishtest"), "{variants:?}");
}
