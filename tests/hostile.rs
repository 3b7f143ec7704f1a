//! Issue 60's data-loss and crash cases, each on its minimal reproduction
//! (bench/adversarial.sh measures the same cases at full size).

use super::{arbiter, stdout};
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

const TAGS: &str = "[Event \"E\"]\n[Site \"?\"]\n[Date \"2019.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n";

/// Movetext after a blank line is the same game: the mate and the result
/// are read (7 plies, 1-0), and nothing is said to be truncated.
#[test]
fn movetext_after_a_blank_line_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        format!("{TAGS}[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6\n\n3. Bc4 Nf6 4. Qxf7# 1-0\n");
    let p = write(dir.path(), "g.pgn", &text);
    let o = arbiter(&["audit", &p]);
    let out = stdout(&o);
    assert!(out.contains("A - B 1-0 (7 plies)"), "{out}");
    assert!(
        out.contains("1 games in 1 files, 7 plies: 0 errors, 0 warnings"),
        "{out}"
    );
    assert!(!out.contains("truncated"), "{out}");
    assert_eq!(o.status.code(), Some(0), "{out}");
}

/// A game with no tags between two games is a game, and its missing
/// Result tag is a finding.
#[test]
fn a_tagless_game_is_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{TAGS}[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n1. d4 d5 0-1\n\n{TAGS}[Result \"1/2-1/2\"]\n\n1. c4 c5 1/2-1/2\n"
    );
    let p = write(dir.path(), "g.pgn", &text);
    let o = arbiter(&["audit", &p]);
    let out = stdout(&o);
    assert!(out.contains("3 games in 1 files, 6 plies"), "{out}");
    assert!(out.contains("warning[result-tag-missing]"), "{out}");
    assert_eq!(o.status.code(), Some(1), "{out}");
}

/// One finding per stray token is not held: the first of a code are kept,
/// the rest counted, and the totals count every one.
#[test]
fn stray_tokens_are_kept_to_a_cap_and_all_counted() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{TAGS}[Result \"*\"]\n\n1. e4 {}*\n", "} ".repeat(300));
    let p = write(dir.path(), "g.pgn", &text);
    let o = arbiter(&["audit", &p]);
    let out = stdout(&o);
    assert_eq!(out.matches("error[unparsable-token]").count(), 100, "{out}");
    assert!(
        out.contains("… and 200 more `unparsable-token` (not kept; counted in the totals)"),
        "{out}"
    );
    assert!(
        out.contains(" errors,") && !out.contains(": 100 errors,"),
        "{out}"
    );
}

/// A flat chain of binary operators, of every kind, is refused at the
/// operator that passes the height limit: a diagnostic, never a crash.
#[test]
fn long_operator_chains_are_refused_at_their_place() {
    let dir = tempfile::tempdir().unwrap();
    for (op, operand) in [
        ("-", "1"),
        ("+", "1"),
        ("*", "1"),
        ("and", "move.ply > 1"),
        ("or", "move.ply > 1"),
    ] {
        let chain = vec![operand; 10_000].join(&format!(" {op} "));
        let cond = if operand == "1" {
            format!("{chain} < move.ply")
        } else {
            chain
        };
        let text = format!(
            "ruleset t \"T\" {{ regulation \"r\" }}\nrule r.x \"x\" {{\n  cite \"1\" \"q\"\n  forbid on move when {cond}\n}}\n"
        );
        let p = write(dir.path(), "t.rules", &text);
        let o = arbiter(&["rules", "check", &p]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{op}: {err}");
        assert!(
            err.contains("error: expression more than 128 operators deep"),
            "{op}: {err}"
        );
        assert!(err.contains("t.rules:4:"), "{op}: {err}");
    }
}
