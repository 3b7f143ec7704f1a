//! Scenario folders under `samples/<event>/<scenario>/`: a game, the
//! machine's engine log, the operator log, the event's ruleset (named in
//! `case.json`) and `expected.json`. The audit must produce exactly the
//! expected findings: the same (code, file, line) of each finding's first
//! evidence, no more and no fewer. (`scripts/check_scenarios.py` is the same
//! check for use without cargo.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{arbiter, json_lines};

fn scenario_dirs() -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.join("case.json").is_file() && p.join("expected.json").is_file() {
                    out.push(p);
                } else {
                    walk(&p, out);
                }
            }
        }
    }
    let mut v = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"),
        &mut v,
    );
    v.sort();
    v
}

type Key = (String, String, Option<u64>);

fn count(keys: impl Iterator<Item = Key>) -> BTreeMap<Key, usize> {
    let mut m = BTreeMap::new();
    for k in keys {
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

#[test]
fn every_scenario_gives_exactly_its_expected_findings() {
    let dirs = scenario_dirs();
    let needs_tables = std::env::var("ARBITER_SYZYGY").ok();
    let mut failures = Vec::new();
    for d in &dirs {
        let ds = d.to_str().unwrap();
        let mut args = vec!["audit", "--format", "json"];
        if let Some(t) = &needs_tables {
            args.extend(["--syzygy", t.as_str()]);
        }
        args.push(ds);
        let o = arbiter(&args);
        assert_ne!(
            o.status.code(),
            Some(2),
            "{ds}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let got = count(
            json_lines(&o)
                .iter()
                .filter(|l| l["type"] == "game")
                .flat_map(|g| {
                    g["findings"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|f| {
                            let ev = &f["evidence"][0];
                            let file = Path::new(ev["path"].as_str().unwrap_or(""))
                                .file_name()
                                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
                            (
                                f["code"].as_str().unwrap().to_string(),
                                file,
                                ev["span"]["line"].as_u64(),
                            )
                        })
                        .collect::<Vec<_>>()
                }),
        );
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("expected.json")).unwrap())
                .unwrap();
        let want = count(expected["findings"].as_array().unwrap().iter().map(|e| {
            (
                e["code"].as_str().unwrap().to_string(),
                e["file"].as_str().unwrap_or("").to_string(),
                e["line"].as_u64(),
            )
        }));
        if got != want {
            failures.push(format!("{ds}:\n  expected {want:?}\n  found    {got:?}"));
        }
    }
    eprintln!("{} scenarios checked", dirs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `arbiter record` drives a real engine (Debian's stockfish) and its log
/// aligns with the game it wrote.
#[test]
fn record_drives_a_real_engine() {
    let engine = "/usr/games/stockfish";
    if !Path::new(engine).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install stockfish (.ci/run does)"
        );
        eprintln!("skipping: {engine} is not installed (apt-get install stockfish)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let o = arbiter(&[
        "record",
        "--engine",
        engine,
        "--opponent",
        engine,
        "--movetime",
        "20",
        "--max-plies",
        "12",
        "--out",
        out,
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let game = dir.path().join("game.pgn");
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        game.to_str().unwrap(),
        "--engine-log",
        dir.path().join("engine.log").to_str().unwrap(),
        "--engine-log",
        dir.path().join("opponent.log").to_str().unwrap(),
    ]);
    let lines = json_lines(&o);
    assert_eq!(lines[0]["plies"], 12);
    assert_eq!(
        lines[0]["findings"].as_array().unwrap().len(),
        0,
        "{}",
        lines[0]["findings"]
    );
    // replaying a recorded game asks the engine at every move of its side
    let o = arbiter(&[
        "record",
        "--engine",
        engine,
        "--pgn",
        game.to_str().unwrap(),
        "--side",
        "white",
        "--depth",
        "4",
        "--out",
        out,
        "--force",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let log = std::fs::read_to_string(dir.path().join("engine.log")).unwrap();
    assert_eq!(log.matches("< bestmove").count(), 6);
    assert!(log.contains("! exit 0"));
}
