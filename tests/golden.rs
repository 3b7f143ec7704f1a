//! Golden tests per ruleset: `tests/fixtures/rules/<ruleset>/<rule-id>.pgn`
//! (with `<rule-id>.operator.log` when the rule judges operator conduct,
//! `<rule-id>.engine.log` for engine traffic, and `<rule-id>.manager-args`
//! for the match manager's flags it ran under) must trigger that rule; `clean.pgn` must trigger nothing. Every checked
//! rule of every shipped ruleset must have its fixture.

use std::path::{Path, PathBuf};

use arbiter::rules::analysis::Check;
use arbiter::rules::compile;

use super::{arbiter, json_lines};

fn fixtures_of(id: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/rules")
        .join(id);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "pgn"));
    v.sort();
    v
}

/// Audit a fixture; `None` (with the reason printed) when it needs tables
/// that are not available.
fn audit(ruleset: &Path, pgn: &Path, needs_tables: bool) -> Option<(i32, serde_json::Value)> {
    let rs = ruleset.to_str().unwrap();
    let mut args = vec![
        "audit",
        "--format",
        "json",
        "--rules",
        rs,
        pgn.to_str().unwrap(),
    ];
    let log = pgn.with_extension("operator.log");
    let log_s = log.to_str().unwrap().to_string();
    if log.exists() {
        args.extend(["--operator-log", &log_s]);
    }
    let elog = pgn.with_extension("engine.log");
    let elog_s = elog.to_str().unwrap().to_string();
    if elog.exists() {
        args.extend(["--engine-log", &elog_s]);
    }
    let margs = pgn.with_extension("manager-args");
    let margs_s = std::fs::read_to_string(&margs).unwrap_or_default();
    if margs.exists() {
        args.extend(["--manager-args", margs_s.trim()]);
    }
    let tables = std::env::var("ARBITER_SYZYGY").ok();
    match &tables {
        Some(t) => args.extend(["--syzygy", t.as_str()]),
        None if needs_tables => {
            eprintln!(
                "skipping {}: it needs Syzygy tables and ARBITER_SYZYGY is not set",
                pgn.display()
            );
            return None;
        }
        None => {}
    }
    let o = arbiter(&args);
    let code = o.status.code().expect("arbiter exits");
    assert_ne!(
        code,
        2,
        "{}: {}",
        pgn.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = json_lines(&o);
    let games: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "game").collect();
    assert_eq!(
        games.len(),
        1,
        "{}: a fixture holds one game",
        pgn.display()
    );
    Some((code, games[0].clone()))
}

/// `arbiter batch` on an event fixture: its event-level findings.
fn batch_findings(ruleset: &Path, pgn: &Path) -> Vec<(String, String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let o = arbiter(&[
        "batch",
        pgn.to_str().unwrap(),
        "--rules",
        ruleset.to_str().unwrap(),
        "--out",
        dir.path().to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}: {}",
        pgn.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    super::events::event_findings(dir.path())
}

#[test]
fn every_checked_rule_has_a_fixture_that_triggers_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let rulesets = super::files_with(&dir, "rules");
    assert!(rulesets.len() >= 5, "the five seed rulesets");
    let mut checked_total = 0;
    for path in &rulesets {
        let src = std::fs::read_to_string(path).unwrap();
        let rs = compile(&path.display().to_string(), &src).unwrap();
        let fixtures = fixtures_of(&rs.id);
        let clean: Vec<&PathBuf> = fixtures
            .iter()
            .filter(|p| p.file_stem().unwrap() == "clean")
            .collect();
        assert_eq!(
            clean.len(),
            1,
            "{}: needs tests/fixtures/rules/{}/clean.pgn",
            rs.id,
            rs.id
        );
        let unavailable = rs.unavailable();
        for rule in &rs.rules {
            if matches!(rule.check, Check::Manual(_)) {
                continue;
            }
            if let Some((_, d)) = unavailable.iter().find(|(id, _)| *id == rule.id) {
                eprintln!(
                    "{}: rule {} calls the `{d}` detector, which this version lacks; listed for manual review",
                    rs.id, rule.id
                );
                continue;
            }
            checked_total += 1;
            let needs_tables = rule.source.contains("tablebase(");
            let fixture = fixtures
                .iter()
                .find(|p| p.file_stem().unwrap().to_str() == Some(rule.id.as_str()));
            let fixture = fixture.unwrap_or_else(|| {
                panic!(
                    "{}: rule {} has no fixture tests/fixtures/rules/{}/{}.pgn",
                    rs.id, rule.id, rs.id, rule.id
                )
            });
            if rule.on().is_some_and(|k| k.is_event_level()) {
                // a rule over an event: the fixture is the event's games,
                // checked by `arbiter batch`
                let found = batch_findings(path, fixture);
                assert!(
                    found.iter().any(|(code, ..)| code == &rule.id),
                    "{}: fixture {} does not trigger {}: {found:?}",
                    rs.id,
                    fixture.display(),
                    rule.id
                );
                continue;
            }
            let Some((_, game)) = audit(path, fixture, needs_tables) else {
                continue;
            };
            let fired = game["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["rule"] == rule.id.as_str())
                || game["termination"]["computed"]["rule"] == rule.id.as_str();
            assert!(
                fired,
                "{}: fixture {} does not trigger {}: {}",
                rs.id,
                fixture.display(),
                rule.id,
                game["findings"]
            );
        }
        // the clean game triggers nothing
        let needs_tables = src.contains("tablebase(");
        if let Some((code, game)) = audit(path, clean[0], needs_tables) {
            let bad: Vec<&serde_json::Value> = game["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["severity"] == "error" || f["severity"] == "warning")
                .collect();
            assert!(bad.is_empty(), "{}: clean.pgn triggers {bad:?}", rs.id);
            assert_eq!(code, 0, "{}: clean.pgn must exit 0", rs.id);
        }
        // every fixture names a rule of its ruleset (no stale fixtures)
        for f in &fixtures {
            let stem = f.file_stem().unwrap().to_str().unwrap();
            assert!(
                stem == "clean" || rs.rules.iter().any(|r| r.id == stem),
                "{}: fixture {} names no rule",
                rs.id,
                f.display()
            );
        }
    }
    assert!(checked_total > 20);
}

#[test]
fn rules_list_shows_every_cited_clause() {
    for id in [
        "tcec-s15",
        "kasparov-deep-junior-2003",
        "wccc-1992-madrid",
        "kasparov-deep-blue-1996",
        "icga-2008",
    ] {
        let path = format!("rulesets/{id}.rules");
        let o = arbiter(&["rules", "list", &path]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{id}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        let src =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)).unwrap();
        let rs = compile(&path, &src).unwrap();
        for r in &rs.rules {
            for c in &r.cites {
                assert!(
                    text.contains(&c.clause),
                    "{id}: clause {} missing from rules list",
                    c.clause
                );
            }
            assert!(
                text.contains(&r.id),
                "{id}: rule {} missing from rules list",
                r.id
            );
        }
        let manual = rs
            .rules
            .iter()
            .filter(|r| matches!(r.check, Check::Manual(_)))
            .count();
        assert!(
            text.matches("[manual]").count() >= manual,
            "{id}: manual rules are marked"
        );
    }
}

#[test]
fn rules_explain_prints_the_clause_and_the_source() {
    let o = arbiter(&["rules", "explain", "tcec.draw-rule"]);
    assert_eq!(o.status.code(), Some(0));
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(t.contains("clause Game adjudication"), "{t}");
    assert!(t.contains("adjudicate draw records draw_rule_text"), "{t}");
    let o = arbiter(&["rules", "explain", "illegal-move"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("## What it does"));
    let o = arbiter(&["rules", "explain", "no.such-rule"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A win that the fifty-move rule frustrates is a draw: the tablebase
/// detector probes with the halfmove clock.
#[test]
fn tablebase_takes_the_fifty_move_rule_into_account() {
    if std::env::var_os("ARBITER_SYZYGY").is_none() {
        eprintln!("skipping: ARBITER_SYZYGY is not set");
        return;
    }
    let game = |halfmoves: u32| {
        format!(
            "[Event \"x\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/2k5/8/KQ6 w - - {halfmoves} 1\"]\n[TerminationDetails \"SyzygyTB\"]\n\n1. Qb2+ 1-0\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    for (halfmoves, result) in [(0, "1-0"), (96, "1/2-1/2")] {
        let p = dir.path().join(format!("g{halfmoves}.pgn"));
        std::fs::write(&p, game(halfmoves)).unwrap();
        let rs = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/tcec-s15.rules");
        let (_, g) = audit(&rs, &p, true).unwrap();
        assert_eq!(
            g["termination"]["computed"]["result"], result,
            "halfmove clock {halfmoves}: {g}"
        );
    }
}
