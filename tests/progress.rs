//! Long runs draw a progress bar on a terminal and nothing when piped:
//! each command is run once under a pseudo-terminal (`script`, from
//! util-linux) and once with its output piped, as the other tests run it.

use std::process::Command;

use super::arbiter;

/// The glyphs of a drawn bar (indicatif's filled and empty cells).
fn has_bar(s: &str) -> bool {
    s.contains('\u{2588}') || s.contains('\u{2591}')
}

/// What `args` print on a pseudo-terminal (standard output and error
/// together), or `None` where `script` is not installed.
fn on_terminal(args: &[&str]) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_arbiter");
    let line = std::iter::once(bin)
        .chain(args.iter().copied())
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let o = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn a_bar_on_a_terminal_and_none_when_piped() {
    let out = tempfile::tempdir().unwrap();
    let batch_out = out.path().join("batch");
    let batch_out = batch_out.to_str().unwrap();
    let runs: [(&str, Vec<&str>); 3] = [
        (
            "rules fit",
            vec![
                "rules",
                "fit",
                "tests/fixtures/fit/conventions.pgn",
                "--rules",
                "rulesets/tcec-s15.rules",
            ],
        ),
        ("batch", vec!["batch", "samples/", "--out", batch_out]),
        ("audit of many files", vec!["audit", "samples/"]),
    ];
    for (what, args) in &runs {
        let piped = arbiter(args);
        assert!(
            matches!(piped.status.code(), Some(0 | 1)),
            "{what}: {}",
            String::from_utf8_lossy(&piped.stderr)
        );
        let (o, e) = (
            String::from_utf8_lossy(&piped.stdout),
            String::from_utf8_lossy(&piped.stderr),
        );
        assert!(!has_bar(&o) && !has_bar(&e), "{what}: a bar when piped");
        assert!(
            !e.contains("\u{1b}["),
            "{what}: terminal codes when piped: {e}"
        );
        let Some(shown) = on_terminal(args) else {
            println!("skipped the terminal half: `script` (util-linux) is not installed");
            return;
        };
        assert!(has_bar(&shown), "{what}: no bar on a terminal: {shown}");
    }
}
