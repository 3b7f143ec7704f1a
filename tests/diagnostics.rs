//! Diagnostics as the user sees them, rendered by `annotate-snippets`: a
//! rule-language error and an input error, each compared whole with its
//! snapshot in `tests/snapshots/` (review changes with `cargo insta
//! review`). The README shows these two outputs.

use super::arbiter;

/// `(exit status, standard error, standard output)` of a run.
fn run(args: &[&str]) -> (i32, String, String) {
    let o = arbiter(args);
    (
        o.status.code().expect("arbiter exits"),
        String::from_utf8(o.stderr).expect("stderr is UTF-8"),
        String::from_utf8(o.stdout).expect("stdout is UTF-8"),
    )
}

/// A misspelt field: file, line and column, the line with a caret under
/// the name, and the field it is close to.
#[test]
fn rule_language_error() {
    let (code, err, out) = run(&["rules", "check", "tests/fixtures/diagnostics/typo.rules"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(out, "");
    insta::assert_snapshot!("rule_language_error", err);
}

/// An operator log saved as Latin-1: refused at the byte that is not
/// UTF-8, shown on its line (as U+FFFD) with a caret under it.
#[test]
fn input_error() {
    let (code, err, out) = run(&[
        "audit",
        "--operator-log",
        "tests/fixtures/diagnostics/latin1.operator.log",
        "samples/kasparov-deep-junior-2003/clean/game.pgn",
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(out, "");
    insta::assert_snapshot!("input_error", err);
}
