//! `--select`, `--ignore`, `--min-severity` and `--quiet`: the findings a
//! run reports, counted in its summary and exit status, recorded so that
//! `verify` runs the same filter again.

use std::collections::BTreeSet;

use super::{arbiter, json_lines};

const SAMPLES: &str = "samples/";

/// Every finding's code and severity of an audit's JSON lines, and its
/// summary line.
fn audit(extra: &[&str]) -> (Vec<(String, String)>, serde_json::Value, Option<i32>) {
    let mut args = vec!["audit", SAMPLES, "--format", "json"];
    args.extend_from_slice(extra);
    let o = arbiter(&args);
    let lines = json_lines(&o);
    let mut found = Vec::new();
    let mut summary = serde_json::Value::Null;
    for l in lines {
        if l["type"] == "game" {
            for f in l["findings"].as_array().unwrap() {
                found.push((
                    f["code"].as_str().unwrap().to_string(),
                    f["severity"].as_str().unwrap().to_string(),
                ));
            }
        } else if l["type"] == "summary" {
            summary = l;
        }
    }
    (found, summary, o.status.code())
}

#[test]
fn select_ignore_and_severity_choose_the_findings_and_the_status() {
    let (all, _, status) = audit(&[]);
    assert_eq!(status, Some(1));
    let engine_log = all
        .iter()
        .filter(|(c, _)| c.starts_with("engine-log"))
        .count();
    assert!(engine_log >= 5, "{all:?}");

    // a prefix at a part's end
    let (sel, _, status) = audit(&["--select", "engine-log"]);
    assert_eq!(sel.len(), engine_log);
    assert!(sel.iter().all(|(c, _)| c.starts_with("engine-log-")));
    assert_eq!(status, Some(1));

    // comma-separated, with a ruleset's rule prefix; then ignore one
    let (sel, _, _) = audit(&["--select", "engine-log,tcec", "--ignore", "engine-log-gap"]);
    let codes: BTreeSet<&str> = sel.iter().map(|(c, _)| c.as_str()).collect();
    assert!(codes.contains("tcec.hidden-book") && codes.contains("engine-log-syntax"));
    assert!(!codes.contains("engine-log-gap"), "{codes:?}");
    assert!(
        codes
            .iter()
            .all(|c| c.starts_with("engine-log") || c.starts_with("tcec."))
    );

    // errors only: every warning gone, every error kept
    let (errs, _, _) = audit(&["--min-severity", "error"]);
    assert!(errs.iter().all(|(_, s)| s == "error"));
    assert_eq!(errs.len(), all.iter().filter(|(_, s)| s == "error").count());

    // the findings filtered out are not violations: exit 0
    let (none, _, status) = audit(&["--select", "tcec.hidden-book", "--min-severity", "error"]);
    assert!(none.is_empty());
    assert_eq!(status, Some(0));
}

#[test]
fn a_pattern_that_names_nothing_is_refused() {
    let o = arbiter(&["audit", SAMPLES, "--ignore", "plycount-mismach"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--ignore plycount-mismach: no finding code or rule id"),
        "{err}"
    );
    // a part of a word is not a prefix
    let o = arbiter(&["audit", SAMPLES, "--select", "engine-lo"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn quiet_prints_only_the_games_with_findings_and_the_verdict() {
    let o = arbiter(&[
        "audit",
        "samples/icga-2008.pgn",
        "samples/tcec-style.pgn",
        "--quiet",
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    let loud = arbiter(&["audit", "samples/icga-2008.pgn", "samples/tcec-style.pgn"]);
    let loud = String::from_utf8(loud.stdout).unwrap();
    // icga-2008.pgn is clean: its game line goes
    assert!(loud.contains("samples/icga-2008.pgn:1 game 1"), "{loud}");
    assert!(!text.contains("samples/icga-2008.pgn:1 game 1"), "{text}");
    // the same verdict, last
    assert_eq!(text.lines().last(), loud.lines().last());
    assert!(text.lines().count() < loud.lines().count());
}

/// A filtered report records its filter: `verify` runs it again and
/// finds the same bytes.
#[test]
fn verify_runs_the_filter_again() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = arbiter(&[
        "audit",
        "samples/tcec-s15",
        "--select",
        "tcec",
        "--min-severity",
        "warning",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let jsonl = std::fs::read_to_string(out.join("audit.jsonl")).unwrap();
    let summary = jsonl.lines().last().unwrap();
    assert!(
        summary.contains(r#""select":["tcec"]"#) && summary.contains(r#""min_severity":"warning""#),
        "{summary}"
    );
    let v = arbiter(&["verify", out.to_str().unwrap()]);
    assert_eq!(
        v.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&v.stdout)
    );
}

/// `batch` filters its games' findings and its event-level ones alike.
#[test]
fn batch_keeps_only_the_selected_codes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b");
    let o = arbiter(&[
        "batch",
        "samples/tcec-s15",
        "--rules",
        "rulesets/tcec-s15.rules",
        "--select",
        "tcec.clock",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let jsonl = std::fs::read_to_string(out.join("audit.jsonl")).unwrap();
    let codes: Vec<&str> = jsonl
        .match_indices("\"code\":\"")
        .map(|(i, m)| {
            let rest = &jsonl[i + m.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert!(
        !codes.is_empty() && codes.iter().all(|c| *c == "tcec.clock"),
        "{codes:?}"
    );
}

/// A rule of a case folder's own ruleset may be selected; a pattern that
/// neither it nor any other ruleset knows is still refused.
#[test]
fn a_case_folders_own_rule_may_be_selected() {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("case");
    std::fs::create_dir(&case).unwrap();
    std::fs::write(
        case.join("game.pgn"),
        "[Event \"E\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n",
    )
    .unwrap();
    std::fs::write(
        case.join("own.rules"),
        "ruleset own \"Own\" {\n  regulation \"r\"\n}\nrule own.any \"Any\" {\n  cite \"1\" \"No move.\"\n  forbid on move when move.ply >= 1\n}\n",
    )
    .unwrap();
    std::fs::write(
        case.join("case.json"),
        "{\"game\": \"game.pgn\", \"ruleset\": \"own.rules\"}\n",
    )
    .unwrap();
    let path = case.to_str().unwrap();
    let o = arbiter(&["audit", path, "--select", "own.any", "--format", "json"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let game = &json_lines(&o)[0];
    let codes: BTreeSet<&str> = game["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, BTreeSet::from(["own.any"]));
    let o = arbiter(&["audit", path, "--select", "own.nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("own.nope"));
}
