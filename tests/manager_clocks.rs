//! The managers' clocks rebuilt move by move (`manager.clock` in
//! `rulesets/managers.rules`, docs/managers.md): fastchess's `tl` readings
//! agree with the clock rebuilt from the TimeControl tag and the move times
//! in every real game; a clock jump planted in a copy is found at its line.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{arbiter, json_lines};

const RULES: &str = "rulesets/managers.rules";

fn audit(path: &Path) -> Vec<Value> {
    json_lines(&arbiter(&[
        "audit",
        path.to_str().unwrap(),
        "--rules",
        RULES,
        "--format",
        "json",
    ]))
}

/// Each `manager.clock` finding as (line, message).
fn clock_findings(lines: &[Value]) -> Vec<(u64, String)> {
    lines
        .iter()
        .filter(|l| l["type"] == "game")
        .flat_map(|g| g["findings"].as_array().unwrap().iter())
        .filter(|f| f["rule"] == "manager.clock")
        .map(|f| {
            let line = f["evidence"][0]["span"]["line"]
                .as_u64()
                .unwrap_or_else(|| panic!("a line in {f}"));
            (line, f["message"].as_str().unwrap().to_string())
        })
        .collect()
}

/// `text` with its first `from` replaced by `to`, written to a fresh folder;
/// the line it is on.
fn plant(text: &str, from: &str, to: &str) -> (tempfile::TempDir, PathBuf, u64) {
    let at = text.find(from).expect("the reading to change is there");
    let line = text[..at].matches('\n').count() as u64 + 1;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("planted.pgn");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    (dir, path, line)
}

fn check_planted(original: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(original).unwrap();
    assert_eq!(
        clock_findings(&audit(original)),
        vec![],
        "{}",
        original.display()
    );
    let (_d, path, line) = plant(&text, from, to);
    let found = clock_findings(&audit(&path));
    // the planted reading gained 2 s; the next one of that side, compared
    // with it, lost them
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, line, "{found:?}");
    assert!(found[0].1.contains("gained 2000 ms"), "{}", found[0].1);
    assert!(found[0].1.contains("tl 5739 ms"), "{}", found[0].1);
    assert!(
        found[1].0 > line && found[1].1.contains("lost 2000 ms"),
        "{found:?}"
    );
}

#[test]
fn a_clock_jump_in_a_fixture_is_found_at_its_line() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/managers/fastchess-rr.pgn");
    check_planted(&fixture, "tl=3.739s", "tl=5.739s");
}

#[test]
fn the_first_move_increment_is_not_a_jump() {
    // fastchess credits the increment before a side's first move: with the
    // switch off, each side's first reading is 40 ms above the rebuilt clock
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/managers/fastchess-rr.pgn");
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("managers.rules");
    let text = std::fs::read_to_string(RULES).unwrap();
    let off = text.replacen(
        "switch first_move_increment = true",
        "switch first_move_increment = false",
        1,
    );
    assert_ne!(off, text);
    std::fs::write(&rules, off).unwrap();
    let lines = json_lines(&arbiter(&[
        "audit",
        fixture.to_str().unwrap(),
        "--rules",
        rules.to_str().unwrap(),
        "--format",
        "json",
    ]));
    let found = clock_findings(&lines);
    assert!(!found.is_empty());
    assert!(
        found.iter().all(|(_, m)| m.contains("gained 40 ms")),
        "{found:?}"
    );
}

#[test]
fn every_peers_clock_agrees_and_a_planted_jump_is_found() {
    let Some(corpus) = std::env::var_os("ARBITER_CORPUS") else {
        eprintln!("skipping: ARBITER_CORPUS is not set (set it to the folder holding peers/)");
        return;
    };
    let peers = Path::new(&corpus).join("peers");
    for name in [
        "fc-rr", "fc-tb", "cc-rr", "cc-tb", "diff-fc", "diff-cc", "diff2-fc", "diff2-cc",
    ] {
        let path = peers.join(format!("{name}.pgn"));
        assert_eq!(clock_findings(&audit(&path)), vec![], "{name}");
    }
    check_planted(&peers.join("fc-rr.pgn"), "tl=3.739s", "tl=5.739s");
}
