//! `--rules DIR`: a folder of rulesets, each PGN file judged under the one
//! whose `applies when` claims its first game (one with none claims the
//! rest), the choice and its reason in the report, a file none claims
//! reported.

use std::path::Path;

use super::{arbiter, codes, json_lines, stdout};

/// A ruleset `id` that claims the events whose name contains `claim` (every
/// file where `claim` is `None`), with one rule that fires past ply `ply`.
fn ruleset(id: &str, claim: Option<&str>, ply: u32) -> String {
    let applies = claim.map_or(String::new(), |c| {
        format!("  applies when contains(game.event, \"{c}\")\n")
    });
    format!(
        "ruleset {id} \"{id}\" {{\n  regulation \"test\"\n{applies}}}\nrule {id}.long \"Long\" {{\n  cite \"1\" \"No game goes past ply {ply}.\"\n  forbid on move when move.ply > {ply}\n}}\n"
    )
}

fn game(event: &str) -> String {
    format!(
        "[Event \"{event}\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
    )
}

/// Two rulesets and a fallback, two files each claimed by one, a third by
/// the fallback.
fn setup(dir: &Path, fallback: bool) {
    let rules = dir.join("rules");
    std::fs::create_dir(&rules).unwrap();
    std::fs::write(
        rules.join("alpha.rules"),
        ruleset("alpha", Some("Alpha"), 1),
    )
    .unwrap();
    std::fs::write(rules.join("beta.rules"), ruleset("beta", Some("Beta"), 2)).unwrap();
    if fallback {
        std::fs::write(rules.join("zeta.rules"), ruleset("zeta", None, 3)).unwrap();
    }
    std::fs::write(dir.join("a.pgn"), game("Alpha Cup")).unwrap();
    std::fs::write(dir.join("b.pgn"), game("Beta Cup")).unwrap();
    std::fs::write(dir.join("c.pgn"), game("Gamma Cup")).unwrap();
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Each file is judged under the ruleset that claims it: its rule's
/// findings, the chosen ruleset and why in the summary, every ruleset of
/// the folder hashed.
#[test]
fn each_file_is_judged_under_the_ruleset_that_claims_it() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), true);
    let d = dir.path();
    let o = arbiter(&[
        "audit",
        s(&d.join("a.pgn")),
        s(&d.join("b.pgn")),
        s(&d.join("c.pgn")),
        "--rules",
        s(&d.join("rules")),
        "--format",
        "json",
    ]);
    let lines = json_lines(&o);
    let games: Vec<_> = lines.iter().filter(|l| l["type"] == "game").collect();
    assert_eq!(games.len(), 3, "{}", stdout(&o));
    // alpha fires past ply 1 (plies 2, 3, 4), beta past 2, zeta past 3
    let fired = |g: &serde_json::Value, id: &str| {
        codes(g)
            .iter()
            .filter(|c| *c == &format!("{id}.long"))
            .count()
    };
    assert_eq!(fired(games[0], "alpha"), 3);
    assert_eq!(fired(games[1], "beta"), 2);
    assert_eq!(fired(games[2], "zeta"), 1);
    // and no other ruleset's rule fires in a file
    for (g, own) in games.iter().zip(["alpha", "beta", "zeta"]) {
        let others: Vec<String> = codes(g)
            .into_iter()
            .filter(|c| c.ends_with(".long") && !c.starts_with(own))
            .collect();
        assert!(others.is_empty(), "{own}: {others:?}");
    }
    let summary = lines.last().unwrap();
    let chosen: Vec<&str> = summary["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["ruleset"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(chosen, ["alpha", "beta", "zeta"]);
    let why = summary["inputs"][0]["ruleset"]["why"].as_str().unwrap();
    assert!(
        why.contains("alpha.rules:3") && why.contains("Alpha Cup"),
        "{why}"
    );
    let why = summary["inputs"][2]["ruleset"]["why"].as_str().unwrap();
    assert!(why.contains("has none"), "{why}");
    let hashed: Vec<&str> = summary["logs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["kind"] == "ruleset")
        .map(|l| l["path"].as_str().unwrap())
        .collect();
    assert_eq!(hashed.len(), 3, "{hashed:?}");
    assert_eq!(summary["rulesets"]["rulesets"].as_array().unwrap().len(), 3);
    assert!(summary["unreadable"].as_array().unwrap().is_empty());
    // the text report says the choice of each file
    let o = arbiter(&["audit", s(&d.join("a.pgn")), "--rules", s(&d.join("rules"))]);
    assert!(
        stdout(&o).contains("a.pgn: judged under alpha ("),
        "{}",
        stdout(&o)
    );
}

/// A file judged under a folder's ruleset gets the game lines it gets
/// under that ruleset's file.
#[test]
fn a_chosen_ruleset_judges_as_its_file_does() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), false);
    let d = dir.path();
    let lines = |rules: &Path| {
        let o = arbiter(&[
            "audit",
            s(&d.join("b.pgn")),
            "--rules",
            s(rules),
            "--format",
            "json",
        ]);
        let games: Vec<String> = stdout(&o)
            .lines()
            .filter(|l| l.contains("\"type\":\"game\""))
            .map(str::to_string)
            .collect();
        assert_eq!(games.len(), 1);
        games
    };
    assert_eq!(
        lines(&d.join("rules")),
        lines(&d.join("rules").join("beta.rules"))
    );
}

/// A file no ruleset claims is audited without one and reported: exit 2,
/// its reason names the folder and the rulesets tried.
#[test]
fn a_file_no_ruleset_claims_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), false);
    let d = dir.path();
    let o = arbiter(&[
        "audit",
        s(&d.join("c.pgn")),
        "--rules",
        s(&d.join("rules")),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no ruleset of") && err.contains("alpha.rules") && err.contains("Gamma Cup"),
        "{err}"
    );
    let lines = json_lines(&o);
    let summary = lines.last().unwrap();
    assert_eq!(summary["unreadable"].as_array().unwrap().len(), 1);
    assert!(summary["inputs"][0].get("ruleset").is_none());
    assert!(
        codes(&lines[0]).iter().all(|c| !c.ends_with(".long")),
        "{:?}",
        codes(&lines[0])
    );
}

/// A batch judges each event under its files' ruleset and says how many
/// files each ruleset judged.
#[test]
fn a_batch_chooses_per_file() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), true);
    let d = dir.path();
    let out = d.join("out");
    let o = arbiter(&[
        "batch",
        s(&d.join("a.pgn")),
        s(&d.join("b.pgn")),
        s(&d.join("c.pgn")),
        "--rules",
        s(&d.join("rules")),
        "--out",
        s(&out),
        "-q",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        md.contains("files judged under each: alpha: 1, beta: 1, zeta: 1"),
        "{md}"
    );
    let jsonl = std::fs::read_to_string(out.join("audit.jsonl")).unwrap();
    let events: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|l: &serde_json::Value| l["type"] == "event")
        .collect();
    assert_eq!(events.len(), 3);
    assert!(events.iter().all(|e| e["skipped"].is_null()), "{events:?}");
}

/// What a folder of rulesets cannot be given with, and a folder with no
/// ruleset or a broken one, are refused clearly.
#[test]
fn a_folder_of_rulesets_is_refused_where_it_cannot_serve() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), false);
    let d = dir.path();
    let rules = d.join("rules");
    let o = arbiter(&[
        "audit",
        s(&d.join("a.pgn")),
        "--rules",
        s(&rules),
        "--variant",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--variant needs one ruleset file"), "{err}");
    // a rule of a folder's ruleset may be selected
    let o = arbiter(&[
        "audit",
        s(&d.join("a.pgn")),
        "--rules",
        s(&rules),
        "--select",
        "alpha.long",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = arbiter(&["audit", s(&d.join("a.pgn")), "--rules", s(&empty)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds no .rules file"));
    std::fs::write(
        rules.join("broken.rules"),
        "ruleset broken \"B\" {\n  regulation \"r\"\n  applies when game.nope\n}\n",
    )
    .unwrap();
    let o = arbiter(&["audit", s(&d.join("a.pgn")), "--rules", s(&rules)]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("broken.rules:3"), "{err}");
}
