//! The command line documents itself: every subcommand has a summary and,
//! where it runs something, an example; every argument and option has its
//! help text; `--help` of each prints with no empty entry; completions and
//! the man page come from the same definitions.

use clap::CommandFactory;

use super::arbiter;

/// Every subcommand of `cmd` (named by its path from `arbiter`), itself
/// first.
fn commands(cmd: &clap::Command, path: &str, out: &mut Vec<(String, clap::Command)>) {
    out.push((path.to_string(), cmd.clone()));
    for s in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        commands(s, &format!("{path} {}", s.get_name()), out);
    }
}

fn all() -> Vec<(String, clap::Command)> {
    let mut cmd = arbiter::cli::Cli::command();
    cmd.build();
    let mut out = Vec::new();
    commands(&cmd, "arbiter", &mut out);
    out
}

#[test]
fn every_argument_and_subcommand_has_help_and_every_command_an_example() {
    let mut missing = Vec::new();
    for (path, cmd) in all() {
        if path != "arbiter" && cmd.get_about().is_none() {
            missing.push(format!("{path}: no summary"));
        }
        let leaf = cmd.get_subcommands().next().is_none();
        let example = cmd
            .get_after_help()
            .is_some_and(|h| h.to_string().contains("Example"));
        if leaf && !example {
            missing.push(format!("{path}: no example"));
        }
        for a in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let id = a.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            if a.get_help().is_none_or(|h| h.to_string().trim().is_empty()) {
                missing.push(format!("{path}: {id} has no help text"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// `--help` of each command, as the binary prints it: exit 0, and no
/// option or argument line without its text.
#[test]
fn every_help_page_prints_with_no_empty_entry() {
    for (path, _) in all() {
        let mut args: Vec<&str> = path.split(' ').skip(1).collect();
        args.push("--help");
        let o = arbiter(&args);
        assert_eq!(o.status.code(), Some(0), "{path} --help");
        let text = String::from_utf8(o.stdout).unwrap();
        for line in text.lines() {
            let t = line.trim_start();
            // an entry starts within the first few columns (`  -v`,
            // `      --format`, `  <PATHS>...`); its text, and its values
            // and default, further in
            let indent = line.len() - t.len();
            let entry = (t.starts_with('-') || t.starts_with('<') || t.starts_with('['))
                && (2..=6).contains(&indent);
            // an entry's text follows it on its line, or on the next
            // (clap's long help): a line that is the entry alone is
            // followed by an indented text
            if entry && !t.contains("  ") {
                let next = text.lines().skip_while(|l| *l != line).nth(1).unwrap_or("");
                assert!(
                    next.starts_with("          ") && !next.trim().is_empty(),
                    "{path} --help: an entry with no text: {line:?}"
                );
            }
        }
    }
}

/// Completions for each shell, and the manual pages, from the same
/// definitions: every subcommand in each, and one page per subcommand.
#[test]
fn completions_and_man_pages_name_every_command() {
    let names: Vec<String> = all()
        .into_iter()
        .filter_map(|(path, _)| path.rsplit(' ').next().map(str::to_string))
        .filter(|n| n != "arbiter")
        .collect();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = arbiter(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let text = String::from_utf8(o.stdout).unwrap();
        for n in &names {
            assert!(text.contains(n.as_str()), "{shell}: no {n}");
        }
        // an option of a subcommand, not only the names
        assert!(text.contains("manager-args"), "{shell}: no --manager-args");
    }
    let o = arbiter(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid value 'tcsh'"));

    let o = arbiter(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let page = String::from_utf8(o.stdout).unwrap();
    assert!(
        page.starts_with(".ie") && page.contains(".TH arbiter 1"),
        "{page}"
    );
    let dir = tempfile::tempdir().unwrap();
    let o = arbiter(&["man", "--out", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    for (path, _) in all() {
        let file = dir.path().join(format!("{}.1", path.replace(' ', "-")));
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        assert!(text.contains(".TH"), "{file:?}");
    }
    // the audit's page carries its options' help and its examples
    let audit = std::fs::read_to_string(dir.path().join("arbiter-audit.1")).unwrap();
    assert!(
        audit.contains("manager\\-args") && audit.contains("Examples:"),
        "{audit}"
    );
}

/// One `--format` for every command that prints results; `--json`, kept
/// for the scripts that use it, prints the same bytes.
#[test]
fn every_command_that_prints_results_takes_format() {
    for (path, cmd) in all() {
        if ["audit", "replay", "hidden-book", "rules fit"]
            .iter()
            .any(|c| path == format!("arbiter {c}"))
        {
            assert!(
                cmd.get_arguments().any(|a| a.get_id() == "format"),
                "{path}: no --format"
            );
        }
    }
    for args in [
        ["replay", "samples/icga-2008.pgn", "--ply", "3"],
        ["hidden-book", "samples/icga-2008.pgn", "--min-run", "6"],
    ] {
        let run = |extra: &[&str]| {
            let mut a = args.to_vec();
            a.extend_from_slice(extra);
            let o = arbiter(&a);
            assert_eq!(o.status.code(), Some(0), "{a:?}");
            o.stdout
        };
        let new = run(&["--format", "json"]);
        assert_eq!(new, run(&["--json"]), "{args:?}");
        assert!(new.starts_with(b"{"), "{args:?}");
        assert_ne!(new, run(&[]), "{args:?}");
    }
}
