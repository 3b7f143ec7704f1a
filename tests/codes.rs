//! The registry of finding codes (`src/findings/codes.rs`) is the one place
//! a built-in code is spelt: the code tables of `docs/findings-schema.md`
//! are made from it, `rules explain` explains every code in it, and no
//! other source file writes a code as a string.

use std::path::Path;

use arbiter::findings::codes::{CODES, Section, table};

use super::arbiter;

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The tables of the schema page, by the heading each follows.
const SECTIONS: [(&str, Section); 3] = [
    ("## 8. Finding codes", Section::Record),
    ("### 8.1 With a ruleset", Section::Ruleset),
    ("### 8.2 With logs", Section::Logs),
];

/// `page` with the first table after each heading replaced by the
/// registry's.
fn with_tables(page: &str) -> String {
    let mut lines: Vec<String> = page.lines().map(str::to_string).collect();
    for (heading, section) in SECTIONS {
        let h = lines
            .iter()
            .position(|l| l.starts_with(heading))
            .unwrap_or_else(|| panic!("no heading {heading:?} in findings-schema.md"));
        let start = (h..lines.len())
            .find(|&i| lines[i].starts_with("| Code |"))
            .unwrap_or_else(|| panic!("no table after {heading:?}"));
        let end = (start..lines.len())
            .find(|&i| !lines[i].starts_with('|'))
            .unwrap_or(lines.len());
        let new: Vec<String> = table(section).lines().map(str::to_string).collect();
        lines.splice(start..end, new);
    }
    lines.join("\n") + "\n"
}

#[test]
fn the_schema_page_shows_the_registry_codes() {
    let path = here().join("docs/findings-schema.md");
    let page = std::fs::read_to_string(&path).unwrap();
    let made = with_tables(&page);
    if std::env::var_os("ARBITER_BLESS").is_some() {
        std::fs::write(&path, &made).unwrap();
        return;
    }
    assert!(
        page == made,
        "docs/findings-schema.md's code tables are not the registry's: run `ARBITER_BLESS=1 cargo test --test cli codes` and commit the page"
    );
}

#[test]
fn every_code_is_explained() {
    assert!(CODES.len() >= 40, "{}", CODES.len());
    for c in CODES {
        assert!(!c.paragraph().is_empty(), "{}: no documentation", c.id);
        let o = arbiter(&["rules", "explain", c.id]);
        assert_eq!(o.status.code(), Some(0), "rules explain {}", c.id);
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(
            text.starts_with(&format!("{} (built-in, {})", c.id, c.severity_text()))
                && text.contains(&c.paragraph()),
            "{text}"
        );
    }
    // a code nobody declared is not explained
    let o = arbiter(&["rules", "explain", "no-such-code"]);
    assert_ne!(o.status.code(), Some(0));
}

/// The places in `text` that spell a code: a registered code as a string
/// literal, or any literal given as a finding's code.
fn spelt(text: &str) -> Vec<String> {
    let made = regex::Regex::new(
        r#"(Finding::(builtin|of)\(\s*"|code:\s*"[a-z]|\.code\s*[=!]=\s*"|code\s*=\s*"[a-z])"#,
    )
    .unwrap();
    let mut found: Vec<String> = made
        .find_iter(text)
        .map(|m| m.as_str().to_string())
        .collect();
    for c in CODES {
        if text.contains(&format!("\"{}\"", c.id)) {
            found.push(format!("\"{}\"", c.id));
        }
    }
    found
}

#[test]
fn no_source_file_but_the_registry_spells_a_code() {
    // the equivalent command: grep -rnE '"(pgn-syntax|…)"' src | grep -v src/findings/codes.rs
    let mut files = Vec::new();
    super::layers::rust_files(&here().join("src"), &mut files);
    files.sort();
    let mut bad = Vec::new();
    for f in &files {
        if f.ends_with("findings/codes.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for s in spelt(&text) {
            bad.push(format!(
                "{}: {s}",
                f.strip_prefix(here()).unwrap().display()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "codes spelt outside the registry:\n{}",
        bad.join("\n")
    );
    // the check itself finds each form
    for form in [
        "Finding::builtin(\"new-code\", Severity::Error, \"t\", m)",
        "Finding { code: \"new-code\".into() }",
        "if f.code == \"new-code\" {}",
        "f.code = \"new-code\".into();",
        "let c = \"plycount-mismatch\";",
    ] {
        assert!(!spelt(form).is_empty(), "{form}");
    }
    assert!(spelt("Finding::of(&codes::PGN_SYNTAX, t, m)").is_empty());
}

/// An installed binary run anywhere explains the shipped rulesets' rules:
/// from a folder with no `rulesets/`, they are found built in.
#[test]
fn a_shipped_rule_is_explained_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let o = super::arbiter_in(dir.path(), &["rules", "explain", "tcec.draw-rule"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.starts_with(
            "tcec.draw-rule — TCEC draw rule\nruleset: tcec-s15 (tcec-s15.rules (built in):"
        ),
        "{text}"
    );
    let o = super::arbiter_in(dir.path(), &["rules", "explain", "no.such-rule"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("managers.rules (built in)"));
}
