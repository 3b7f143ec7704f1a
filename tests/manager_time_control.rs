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

/// The findings of the ScaleFactor rules, and of the three above, as
/// (rule, severity, message, lines of the evidence in the PGN).
fn scale_findings(lines: &[Value], pgn: &Path) -> Vec<(String, String, String, Vec<u64>)> {
    let rules = ["manager.scale-factor", "manager.scale-factor-agrees"];
    (lines.iter())
        .filter(|l| l["type"] == "game")
        .flat_map(|g| g["findings"].as_array().unwrap().clone())
        .filter(|f| {
            let r = f["rule"].as_str().unwrap_or("");
            rules.contains(&r) || RULE_IDS.contains(&r)
        })
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap().to_string();
            let at = (f["evidence"].as_array().unwrap().iter())
                .filter(|e| e["path"] == pgn.to_str().unwrap())
                .map(|e| e["span"]["line"].as_u64().unwrap())
                .collect();
            (s("rule"), s("severity"), s("message"), at)
        })
        .collect()
}

/// OpenBench's worker scales the control by the ScaleFactor it writes:
/// each part times the factor, to two decimals. A tag that is so is a
/// note, one that is not a warning, each at the TimeControl and
/// ScaleFactor tags' lines; the three rules above say nothing of it.
#[test]
fn a_scale_factor_tag_is_judged_against_the_factor() {
    let text = std::fs::read_to_string(fixture()).unwrap();
    let first = &text[..text[1..].find("[Event ").unwrap() + 1];
    let dir = tempfile::tempdir().unwrap();
    let with = |factor: &str, name: &str| {
        let game = first.replacen(
            "[TimeControl \"60+0.6\"]",
            &format!("[TimeControl \"3.51+0.04\"]\n[ScaleFactor \"{factor}\"]"),
            1,
        );
        let p = dir.path().join(name);
        std::fs::write(&p, game).unwrap();
        p
    };
    let tags = (14, 15);
    // example 3 of OpenBench's own tests: 8+0.08 at 0.4384108055671342
    let right = with("0.4384108055671342", "right.pgn");
    let got = scale_findings(
        &audit(&right, &["--manager-args", "-each tc=8+0.08"]),
        &right,
    );
    assert_eq!(got.len(), 1, "{got:?}");
    let (rule, sev, msg, at) = &got[0];
    assert_eq!(
        (rule.as_str(), sev.as_str()),
        ("manager.scale-factor-agrees", "info")
    );
    assert!(
        msg.starts_with("TimeControl 3.51+0.04 is the match's tc=8+0.08 times its ScaleFactor 0.4384108055671342"),
        "{msg}"
    );
    assert_eq!(*at, [tags.0, tags.1]);
    // a factor the control does not show: 8 s at 0.5 is 4 s
    let wrong = with("0.5", "wrong.pgn");
    let got = scale_findings(
        &audit(&wrong, &["--manager-args", "-each tc=8+0.08"]),
        &wrong,
    );
    assert_eq!(got.len(), 1, "{got:?}");
    let (rule, sev, msg, at) = &got[0];
    assert_eq!(
        (rule.as_str(), sev.as_str()),
        ("manager.scale-factor", "warning")
    );
    assert!(
        msg.starts_with(
            "TimeControl 3.51+0.04, but the match's tc=8+0.08 times its ScaleFactor 0.5 is 4+0.04 s"
        ),
        "{msg}"
    );
    assert_eq!(*at, [tags.0, tags.1]);
    // the right factor, another control told: 10+0.1 gives 4.38+0.04
    let got = scale_findings(
        &audit(&right, &["--manager-args", "-each tc=10+0.1"]),
        &right,
    );
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].2.contains(" is 4.38+0.04 s"), "{:?}", got[0]);
    // told nothing, nothing is judged
    assert_eq!(scale_findings(&audit(&right, &[]), &right), vec![]);
}

/// OpenBench's 34-game example: every game's TimeControl is 8+0.08 times
/// its ScaleFactor.
#[test]
fn openbenchs_example_agrees_with_its_scale_factor() {
    let Some(corpus) = std::env::var_os("ARBITER_CORPUS") else {
        eprintln!("skipping: ARBITER_CORPUS is not set (set it to the folder holding peers/)");
        return;
    };
    let pgn = Path::new(&corpus).join("peers/openbench-example3.pgn");
    let got = scale_findings(&audit(&pgn, &["--manager-args", "-each tc=8+0.08"]), &pgn);
    assert_eq!(got.len(), 34, "{got:?}");
    assert!(
        got.iter()
            .all(|(r, _, _, at)| r == "manager.scale-factor-agrees" && at.len() == 2),
        "{got:?}"
    );
}
