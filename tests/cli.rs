//! arbiter's integration tests: one binary (see ripgrep's layout).
//!
//! Tests that need the real TCEC archive read its location from
//! `ARBITER_CORPUS` (the folder holding `tcec-s15/`) and skip, saying so, when
//! it is unset. `.ci/run` sets it, so CI always runs them.

mod adversarial;
mod batch;
mod bounds;
mod codes;
mod colour;
mod corpus;
mod crash;
mod crosscheck;
mod diagnostics;
mod dossier;
mod events;
mod filter;
mod fit;
mod forms;
mod golden;
mod help;
mod hostile;
mod layers;
mod gui_forms;
mod identical;
mod injection;
mod inputs;
mod logs;
mod match_logs;
mod merge;
mod malformed;
mod manager_clocks;
mod manager_go_clocks;
mod manager_start;
mod manager_stdout;
mod manager_time_control;
mod managers;
mod outputs;
mod process_groups;
mod processes;
mod progress;
mod properties;
mod readme;
mod rules_bounds;
mod rules_extend;
mod rules_folder;
mod rules_lang;
mod run;
mod sandbox;
mod scenarios;
mod similarity;
mod switches;
mod tables;
mod tcec_eras;
mod verify;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Run the arbiter binary in the project's folder.
pub fn arbiter(args: &[&str]) -> Output {
    arbiter_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// Run the arbiter binary in `dir`.
pub fn arbiter_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("arbiter runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// The rules an audit summary lists as not evaluated, in its order.
pub fn not_evaluated(summary: &serde_json::Value) -> Vec<&str> {
    summary["ruleset"]["not_evaluated"]
        .as_array()
        .expect("the summary lists the rules not evaluated")
        .iter()
        .map(|r| r["rule"].as_str().expect("each names its rule"))
        .collect()
}

/// The files of a folder whose name ends in `.EXT`, sorted by path.
pub fn files_with(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

/// JSON Lines → values.
pub fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l:?}: {e}")))
        .collect()
}

/// The codes of a game's findings, in order.
pub fn codes(game: &serde_json::Value) -> Vec<String> {
    game["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

/// A game's first finding with `code` (the test fails without one).
pub fn finding<'a>(game: &'a serde_json::Value, code: &str) -> &'a serde_json::Value {
    game["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {}", game["findings"]))
}

/// The folder of other TCEC seasons' files (`tcec-other/`), or `None`
/// (with the reason printed) when the corpus is not available.
pub fn tcec_other() -> Option<PathBuf> {
    corpus("tcec-other")
}

/// The TCEC S15 folder, or `None` (with the reason printed) when the
/// corpus is not available.
pub fn tcec_s15() -> Option<PathBuf> {
    corpus("tcec-s15")
}

/// The folder `name` of the corpus `ARBITER_CORPUS` names, or `None` (with
/// the reason printed) where the variable is not set.
fn corpus(name: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("ARBITER_CORPUS") else {
        eprintln!("skipping: ARBITER_CORPUS is not set (set it to the folder holding {name}/)");
        return None;
    };
    let p = Path::new(&dir).join(name);
    assert!(
        p.is_dir(),
        "ARBITER_CORPUS is set but {} is not a folder",
        p.display()
    );
    Some(p)
}
