//! Cross-check against an independent implementation: python-chess must
//! find the same number of plies and the same final FEN for every game of
//! the TCEC S15 archive and of the shipped samples
//! (`scripts/crosscheck_python_chess.py`).

use super::{arbiter, tcec_s15};
use std::process::Command;

#[test]
fn python_chess_agrees_on_plies_and_final_fen() {
    let Some(dir) = tcec_s15() else { return };
    let have_chess = Command::new("python3")
        .args(["-c", "import chess"])
        .status()
        .is_ok_and(|s| s.success());
    if !have_chess {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install python-chess (.ci/run does: pip install chess)"
        );
        eprintln!("skipping: python-chess is not installed (pip install chess)");
        return;
    }
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().to_str().unwrap().to_string())
        .filter(|p| p.ends_with(".pgn"))
        .collect();
    files.sort();
    for s in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/samples")).unwrap() {
        let p = s.unwrap().path();
        if p.extension().is_some_and(|e| e == "pgn") {
            files.push(p.to_str().unwrap().to_string());
        }
    }
    let mut args = vec!["audit", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let o = arbiter(&args);
    assert_ne!(o.status.code(), Some(2));
    let jsonl = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(jsonl.path(), &o.stdout).unwrap();
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/crosscheck_python_chess.py"
        ))
        .arg(jsonl.path())
        .args(&files)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}");
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = super::json_lines(&o)
        .iter()
        .filter(|l| l["type"] == "game")
        .count();
    assert!(games >= 428 + 5, "the archive and one game per sample file");
    let last = text.lines().last().unwrap();
    let passed: usize = last
        .strip_prefix("crosscheck: ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("unexpected last line {last:?}"));
    assert_eq!(passed, games, "{last}");
    assert!(last.ends_with(" 0 failed"), "{last}");
}
