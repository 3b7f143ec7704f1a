//! Reproducible verdicts: a report records the arbiter version, the
//! SHA-256 of every input, log and ruleset and the invocation, and
//! `arbiter verify` reruns it: byte-identical output and unchanged inputs
//! (exit 0), or what changed (exit 1).

use std::path::Path;

use super::{arbiter, arbiter_in, stdout};

const JUNIOR: &str = "samples/kasparov-deep-junior-2003/clean";

fn audit_json(extra: &[&str]) -> Vec<u8> {
    let mut a = vec![
        "audit",
        "--format",
        "json",
        "--rules",
        "rulesets/kasparov-deep-junior-2003.rules",
    ];
    a.extend_from_slice(extra);
    let o = arbiter(&a);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

#[test]
fn a_report_records_what_reproduces_it_and_verify_reruns_it() {
    let dir = tempfile::tempdir().unwrap();
    let (op, eng, game) = (
        format!("{JUNIOR}/operator.log"),
        format!("{JUNIOR}/engine.log"),
        format!("{JUNIOR}/game.pgn"),
    );
    let args = [
        "--operator-log",
        op.as_str(),
        "--engine-log",
        eng.as_str(),
        game.as_str(),
        "samples/tcec-style.pgn",
    ];
    let report = audit_json(&args);
    // the same audit twice: the same bytes
    assert_eq!(report, audit_json(&args));
    let text = String::from_utf8(report.clone()).unwrap();
    let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(summary["arbiter_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(summary["invocation"]["paths"][0], game.as_str());
    assert_eq!(summary["invocation"]["operator_logs"][0], op.as_str());
    let kinds: Vec<&str> = summary["logs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["operator-log", "engine-log", "ruleset"]);
    for l in summary["logs"].as_array().unwrap() {
        assert_eq!(l["sha256"].as_str().unwrap().len(), 64);
    }
    let path = dir.path().join("report.jsonl");
    std::fs::write(&path, &report).unwrap();
    let o = arbiter(&["verify", path.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("inputs: 5 file(s), all unchanged"), "{out}");
    assert!(out.contains("rerun: byte-identical") && out.contains("verdict: reproduced"));

    // a tampered verdict: a finding removed from the report
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let k = lines
        .iter()
        .position(|l| l["type"] == "game" && !l["findings"].as_array().unwrap().is_empty())
        .expect("a game with findings");
    let removed = lines[k]["findings"].as_array_mut().unwrap().remove(0);
    let tampered: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, tampered).unwrap();
    let o = arbiter(&["verify", path.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains(&format!("line {} differs", k + 1)), "{out}");
    assert!(out.contains(removed["code"].as_str().unwrap()), "{out}");
    assert!(out.contains("verdict: NOT reproduced"));
}

#[test]
fn a_changed_input_is_named() {
    // the audit runs in a folder of its own, with paths relative to it
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path();
    std::fs::copy("samples/tcec-style.pgn", base.join("games.pgn")).unwrap();
    std::fs::copy("rulesets/tcec-s15.rules", base.join("t.rules")).unwrap();
    let o = arbiter_in(
        base,
        &[
            "audit",
            "--format",
            "json",
            "--rules",
            "t.rules",
            "games.pgn",
        ],
    );
    let report = base.join("report.jsonl");
    std::fs::write(&report, &o.stdout).unwrap();
    // from elsewhere, with --base
    let o = arbiter(&[
        "verify",
        report.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // one move changed in the input
    let text = std::fs::read_to_string(base.join("games.pgn")).unwrap();
    std::fs::write(base.join("games.pgn"), text.replacen("1. ", "1.  ", 1)).unwrap();
    let o = arbiter(&[
        "verify",
        report.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("CHANGED  input games.pgn: sha256"), "{out}");
    // a missing ruleset
    std::fs::remove_file(base.join("t.rules")).unwrap();
    let o = arbiter(&[
        "verify",
        report.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("t.rules"));
}

#[test]
fn a_dossier_folder_is_rerun_file_by_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dossier");
    let o = arbiter(&[
        "audit",
        "--rules",
        "rulesets/tcec-s15.rules",
        "--out",
        out.to_str().unwrap(),
        "samples/tcec-style.pgn",
    ]);
    assert_ne!(o.status.code(), Some(2));
    let o = arbiter(&["verify", out.to_str().unwrap()]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("audit.jsonl")
            && text.contains("dossier.html")
            && text.contains("dossier.md")
    );
    // the HTML edited by hand
    let html = std::fs::read_to_string(out.join("dossier.html")).unwrap();
    std::fs::write(
        out.join("dossier.html"),
        html.replacen("</title>", " (edited)</title>", 1),
    )
    .unwrap();
    let o = arbiter(&["verify", out.to_str().unwrap()]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("dossier.html: line"), "{text}");
}

#[test]
fn what_is_not_a_report_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.jsonl");
    for (content, expect) in [
        ("not json\n", "x.jsonl:1: not a JSON line"),
        ("{\"type\":\"game\"}\n", "no summary line"),
        (
            "{\"type\":\"summary\",\"arbiter_version\":\"0.0.1\"}\n",
            "records no invocation",
        ),
    ] {
        std::fs::write(&p, content).unwrap();
        let o = arbiter(&["verify", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expect), "{err}");
    }
    let o = arbiter(&["verify", Path::new("no/such/report").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}

/// `arbiter batch` writes the same game lines as `audit --format json`,
/// one line per event and a summary that hashes every file judged with (a
/// case folder's engine log too); one thread and two give the same bytes;
/// `verify` reruns the batch and names a changed log.
#[test]
fn a_batch_report_hashes_every_file_and_verify_reruns_the_batch() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path();
    std::fs::copy("samples/tcec-style.pgn", base.join("games.pgn")).unwrap();
    std::fs::copy("rulesets/tcec-s15.rules", base.join("t.rules")).unwrap();
    let case = base.join("case");
    std::fs::create_dir(&case).unwrap();
    for f in ["game.pgn", "debug.log"] {
        std::fs::copy(format!("samples/tcec-s15/clean/{f}"), case.join(f)).unwrap();
    }
    // a case folder's files are inside it
    std::fs::copy("rulesets/tcec-s15.rules", case.join("t.rules")).unwrap();
    std::fs::write(
        case.join("case.json"),
        r#"{"ruleset": "t.rules", "engine_logs": ["debug.log"]}"#,
    )
    .unwrap();
    let inputs = ["games.pgn", "case", "--rules", "t.rules"];
    for (out, threads) in [("one", "1"), ("two", "2")] {
        let mut a = vec!["batch"];
        a.extend(inputs);
        a.extend(["--out", out, "--threads", threads]);
        let o = arbiter_in(base, &a);
        assert_ne!(
            o.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let files = arbiter::commands::verify::report_files(&base.join("one"));
    assert!(files.iter().any(|f| f == Path::new("audit.jsonl")));
    assert_eq!(
        files,
        arbiter::commands::verify::report_files(&base.join("two"))
    );
    for f in &files {
        assert_eq!(
            std::fs::read(base.join("one").join(f)).unwrap(),
            std::fs::read(base.join("two").join(f)).unwrap(),
            "{}: one thread and two give the same bytes",
            f.display()
        );
    }
    let jsonl = std::fs::read_to_string(base.join("one/audit.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // the game lines are audit's, byte for byte
    let mut a = vec!["audit", "--format", "json"];
    a.extend(inputs);
    let audited = String::from_utf8(arbiter_in(base, &a).stdout).unwrap();
    let games = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("{\"type\":\"game\""))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(games(&jsonl), games(&audited));
    assert_eq!(games(&jsonl).len(), 3);
    // the event's line: the two games of games.pgn, and what its
    // event-level rules found, each naming what it is about
    let event = lines.iter().find(|l| l["type"] == "event").unwrap();
    assert_eq!(event["games"], 2, "{event}");
    assert!(event["skipped"].is_null(), "{event}");
    let findings = event["findings"].as_array().unwrap();
    assert!(!findings.is_empty(), "{event}");
    assert!(
        findings
            .iter()
            .all(|f| f["about"].is_string() && f["rule"].is_string())
    );
    // the summary: event findings counted with the games', and every file
    // judged with hashed, the case folder's log included
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["games"], 3);
    assert_eq!(
        summary["invocation"]["batch"]["shard"],
        serde_json::Value::Null
    );
    let counted: u64 = ["error", "warning", "info", "manual-review"]
        .iter()
        .map(|s| summary["findings"][s].as_u64().unwrap())
        .sum();
    let listed = lines
        .iter()
        .map(|l| l["findings"].as_array().map_or(0, Vec::len) as u64)
        .sum::<u64>();
    assert_eq!(counted, listed);
    let log = summary["logs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kind"] == "engine-log")
        .expect("the case folder's engine log is hashed");
    assert_eq!(log["path"], "case/debug.log");
    let hash = log["sha256"].as_str().unwrap();
    assert_eq!(hash.len(), 64);
    let md = std::fs::read_to_string(base.join("one/summary.md")).unwrap();
    assert!(
        md.contains(&format!("| engine-log | case/debug.log | `{hash}` |")),
        "{md}"
    );

    // verify, from elsewhere: every file again, byte for byte
    let verify = |report: &str| {
        arbiter(&[
            "verify",
            base.join(report).to_str().unwrap(),
            "--base",
            base.to_str().unwrap(),
        ])
    };
    let o = verify("one");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("same     engine-log case/debug.log"), "{out}");
    assert!(
        out.contains(&format!("rerun: byte-identical ({} files", files.len())),
        "{out}"
    );
    // the JSON lines alone
    let o = verify("one/audit.jsonl");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // a table edited by hand
    let csv = base.join("two/games.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, text + "x\n").unwrap();
    let o = verify("two");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("games.csv: line"), "{out}");
    // the case folder's log changed
    let log = case.join("debug.log");
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, text + "\n").unwrap();
    let o = verify("one");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("CHANGED  engine-log case/debug.log"), "{out}");
    assert!(out.contains("verdict: NOT reproduced"), "{out}");
}
