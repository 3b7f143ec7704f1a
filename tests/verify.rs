//! Reproducible verdicts: a report records the arbiter version, the
//! SHA-256 of every input, log and ruleset and the invocation, and
//! `arbiter verify` reruns it: byte-identical output and unchanged inputs
//! (exit 0), or what changed (exit 1).

use std::path::Path;

use super::{arbiter, stdout};

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
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "audit",
            "--format",
            "json",
            "--rules",
            "t.rules",
            "games.pgn",
        ])
        .current_dir(base)
        .output()
        .unwrap();
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
