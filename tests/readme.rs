//! The README's examples, run as written, and the links of the README and
//! of `docs/`.
//!
//! Every line of a ` ```console ` block of `README.md` that starts with `$ `
//! is a command, run from the repository's root in the order of the README
//! (a later command may read what an earlier one wrote, as `verify` does).
//!
//! - `arbiter ARGS` runs the binary cargo built for the tests with `ARGS`.
//! - `cargo run --release -- ARGS` runs the same binary with `ARGS`: the
//!   tests are already built from the same sources, and a second cargo
//!   inside `cargo test` would wait on the build lock.
//! - Any other command must be in [`SKIPPED`], with the reason it cannot run
//!   inside `cargo test`; a command that is neither fails the test.
//!
//! A command that runs must end with `# exit N`, the status the README
//! promises, and must return it. The lines after a command, up to the next
//! command or the end of its block, are its output as the README shows it:
//! when there are any, the command's standard output must be exactly them.
//! The README's commands use only `samples/` and `rulesets/`, so they run
//! on a fresh clone without `ARBITER_CORPUS`.

use std::path::Path;
use std::process::Command;

/// The README's commands that cannot run inside `cargo test`, each with why.
const SKIPPED: &[(&str, &str)] = &[(
    "ARBITER_CORPUS=../shared/corpora ARBITER_SYZYGY=../shared/syzygy cargo test",
    "the test command itself: this test is one of the tests it runs",
)];

/// One `$ ` line of a console block, with what the README says of it.
#[derive(Debug)]
struct Example {
    /// Its line in the README, from 1.
    line: usize,
    command: String,
    /// The status after `# exit`, when given.
    exit: Option<i32>,
    /// The lines shown after it.
    output: Vec<String>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `$ ` lines of the README's console blocks, in order.
fn examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (i, line) in readme.lines().enumerate() {
        if let Some(fence) = line.strip_prefix("```") {
            in_console = !in_console && fence.trim() == "console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(text) = line.strip_prefix("$ ") {
            let (command, exit) = match text.split_once("# exit ") {
                Some((c, n)) => {
                    let n = n.trim().parse().unwrap_or_else(|e| {
                        panic!("README.md:{}: `# exit {n}` is not a status: {e}", i + 1)
                    });
                    (c.trim().to_string(), Some(n))
                }
                None => (text.trim().to_string(), None),
            };
            out.push(Example {
                line: i + 1,
                command,
                exit,
                output: Vec::new(),
            });
        } else if let Some(last) = out.last_mut() {
            last.output.push(line.to_string());
        } else {
            panic!(
                "README.md:{}: a console block starts with output, not a command",
                i + 1
            );
        }
    }
    out
}

/// The arguments to give the built binary, or `None` for another program.
fn arbiter_args(command: &str) -> Option<Vec<&str>> {
    let rest = command
        .strip_prefix("arbiter ")
        .or_else(|| command.strip_prefix("cargo run --release -- "))?;
    Some(rest.split_whitespace().collect())
}

/// What the binary prints, line by line.
fn shown(stdout: &str) -> Vec<String> {
    stdout.lines().map(str::to_string).collect()
}

#[test]
fn every_readme_command_runs_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let examples = examples(&readme);
    assert!(
        examples.iter().any(|e| !e.output.is_empty()),
        "the README's worked example (a console block with its output) was not found"
    );
    let mut ran = 0;
    for e in &examples {
        if let Some((_, why)) = SKIPPED.iter().find(|(c, _)| *c == e.command) {
            eprintln!("README.md:{}: skipped `{}`: {why}", e.line, e.command);
            continue;
        }
        let args = arbiter_args(&e.command).unwrap_or_else(|| {
            panic!(
                "README.md:{}: `{}` is neither arbiter nor listed in SKIPPED with a reason",
                e.line, e.command
            )
        });
        assert!(
            !e.command.contains(['"', '\'', '|', '>', '<', '*', '$']),
            "README.md:{}: `{}`: this test splits commands on spaces only",
            e.line,
            e.command
        );
        let want = e.exit.unwrap_or_else(|| {
            panic!(
                "README.md:{}: `{}` does not say its exit status (`# exit N`)",
                e.line, e.command
            )
        });
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(&args)
            .current_dir(root())
            .output()
            .expect("arbiter runs");
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(want),
            "README.md:{}: `{}` exited {:?}, the README says {want}\nstderr:\n{}",
            e.line,
            e.command,
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
        );
        if !e.output.is_empty() {
            let got = shown(&stdout);
            assert_eq!(
                got, e.output,
                "README.md:{}: `{}` prints other lines than the README shows: update the README's block",
                e.line, e.command
            );
        }
        ran += 1;
    }
    eprintln!("README.md: {ran} commands run");
    // The first set-up command runs here; a README without it is wrong.
    assert!(
        examples
            .iter()
            .any(|e| e.command == "cargo run --release -- audit samples/ --out reports/samples"),
        "the README's first set-up command is missing"
    );
}

/// GitHub's anchor for a heading: lower case, spaces to hyphens, only
/// letters, digits, hyphens and underscores kept.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of `[text](target)` links in a Markdown text.
fn links(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(i, _)| {
            let rest = &text[i + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

#[test]
fn the_readme_and_docs_link_to_files_and_headings_that_exist() {
    let mut pages = vec![root().join("README.md")];
    pages.extend(super::files_with(&root().join("docs"), "md"));
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        let name = page.strip_prefix(root()).unwrap_or(page).display();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
            let path = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            if !path.exists() {
                broken.push(format!("{name}: {target}: no such file"));
                continue;
            }
            if !fragment.is_empty() && path.extension().is_some_and(|x| x == "md") {
                let heads = anchors(&std::fs::read_to_string(&path).unwrap());
                if !heads.iter().any(|h| h == fragment) {
                    broken.push(format!("{name}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
