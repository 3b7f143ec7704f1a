//! `--color`: severities, evidence arrows and the verdict in colour on a
//! terminal (or when asked), nothing else changed; never in JSON, never
//! into a pipe unless asked, never under NO_COLOR.

use std::process::Command;

fn audit(color: Option<&str>, envs: &[(&str, &str)], json: bool) -> String {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    c.envs(envs.iter().copied());
    if let Some(color) = color {
        c.args(["--color", color]);
    }
    c.args(["audit", "samples/", "--rules", "rulesets/tcec-s15.rules"]);
    if json {
        c.args(["--format", "json"]);
    }
    let o = c.output().expect("arbiter runs");
    String::from_utf8(o.stdout).expect("UTF-8")
}

/// The text with its ANSI styles (`ESC [ … m`) taken out.
fn unstyled(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('\x1b') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let end = tail.find('m').expect("a style ends with m");
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn colour_only_where_asked_and_only_styles() {
    let plain = audit(None, &[], false);
    assert!(!plain.contains('\x1b'), "a pipe gets no colour");
    assert!(plain.contains("  error["), "the samples have errors");
    let always = audit(Some("always"), &[], false);
    assert!(always.contains("\x1b[1m\x1b[31merror\x1b[0m["), "{always}");
    assert!(always.contains("-->\x1b[0m"), "the arrows are dimmed");
    assert_eq!(
        unstyled(&always),
        plain,
        "colour changes nothing but the styles"
    );
    // the conventions of auto
    assert!(audit(None, &[("CLICOLOR_FORCE", "1")], false).contains('\x1b'));
    assert!(!audit(None, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], false).contains('\x1b'));
    assert!(!audit(Some("never"), &[("CLICOLOR_FORCE", "1")], false).contains('\x1b'));
    // JSON is data: never styled
    assert!(!audit(Some("always"), &[], true).contains('\x1b'));
}
