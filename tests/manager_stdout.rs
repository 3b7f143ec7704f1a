//! A match manager's standard output (`--manager-stdout`) and fastchess's
//! `config.json` (`--manager-config`). The fixtures in
//! `tests/fixtures/managers/` are whole files of the peers corpus's
//! `diff-*` runs (README there); faults are planted in copies.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{arbiter, codes, finding, json_lines};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/managers")
        .join(name)
}

fn games(lines: &[Value]) -> Vec<&Value> {
    lines.iter().filter(|v| v["type"] == "game").collect()
}

/// The manager-stdout findings of each game of the audit of `pgn` with
/// `stdout`, the exit code and standard error.
fn audit(pgn: &Path, stdout: &Path) -> (Vec<Vec<String>>, Value, Option<i32>, String) {
    let o = arbiter(&[
        "audit",
        pgn.to_str().unwrap(),
        "--manager-stdout",
        stdout.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let lines = json_lines(&o);
    let per_game = games(&lines)
        .iter()
        .map(|g| {
            codes(g)
                .into_iter()
                .filter(|c| c.starts_with("manager-stdout"))
                .collect()
        })
        .collect();
    let all = Value::Array(games(&lines).into_iter().cloned().collect());
    (
        per_game,
        all,
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A copy of fixture `name` with `from` replaced by `to` (which must be
/// there).
fn planted(name: &str, from: &str, to: &str) -> (tempfile::TempDir, PathBuf) {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    assert!(text.contains(from), "{name}: {from:?}");
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    (dir, p)
}

#[test]
fn both_managers_outputs_agree_with_their_games() {
    for name in ["diff-fc", "diff-cc"] {
        let (per_game, _, code, err) = audit(
            &fixture(&format!("{name}.pgn")),
            &fixture(&format!("{name}.stdout")),
        );
        assert_eq!(per_game.len(), 6, "{name}");
        assert!(per_game.iter().all(Vec::is_empty), "{name}: {per_game:?}");
        assert_eq!(code, Some(0), "{name}: {err}");
    }
}

#[test]
fn a_result_or_reason_the_games_do_not_have_is_found_at_its_line() {
    // game 3's result (line 6)
    let (_d, p) = planted(
        "diff-fc.stdout",
        "Finished game 3 (SF vs ETH): 1-0",
        "Finished game 3 (SF vs ETH): 0-1",
    );
    let (per_game, all, code, _) = audit(&fixture("diff-fc.pgn"), &p);
    assert_eq!(per_game[2], vec!["manager-stdout-result-differs"]);
    // and the table after the last game no longer adds up
    assert_eq!(per_game[5], vec!["manager-stdout-tally-differs"]);
    assert!(
        per_game
            .iter()
            .enumerate()
            .all(|(i, c)| i == 2 || i == 5 || c.is_empty())
    );
    let f = finding(&all[2], "manager-stdout-result-differs");
    assert_eq!(f["evidence"][0]["span"]["line"], 6);
    assert_eq!(code, Some(1));
    // game 5's reason (line 10): the record says White mates
    let (_d, p) = planted(
        "diff-cc.stdout",
        "1-0 {White mates}",
        "1-0 {White wins by adjudication}",
    );
    let (per_game, all, _, _) = audit(&fixture("diff-cc.pgn"), &p);
    assert_eq!(per_game[4], vec!["manager-stdout-result-differs"]);
    let f = finding(&all[4], "manager-stdout-result-differs");
    assert!(
        f["message"].as_str().unwrap().contains("\"White mates\""),
        "{f}"
    );
    assert_eq!(f["evidence"][0]["span"]["line"], 14);
}

#[test]
fn a_tally_that_is_not_its_games_is_found() {
    // fastchess's block after the last game
    let (_d, p) = planted(
        "diff-fc.stdout",
        "Games: 6, Wins: 6, Losses: 0, Draws: 0",
        "Games: 6, Wins: 5, Losses: 0, Draws: 1",
    );
    let (per_game, all, _, _) = audit(&fixture("diff-fc.pgn"), &p);
    assert_eq!(per_game[5], vec!["manager-stdout-tally-differs"]);
    let f = finding(&all[5], "manager-stdout-tally-differs");
    assert_eq!(f["evidence"][0]["span"]["line"], 17);
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("5 - 0 - 1 of 6 games")
            && f["message"]
                .as_str()
                .unwrap()
                .contains("6 - 0 - 0 of 6 games"),
        "{f}"
    );
    // cutechess's running score after game 2
    let (_d, p) = planted(
        "diff-cc.stdout",
        "Score of SF vs ETH: 2 - 0 - 0  [1.000] 2",
        "Score of SF vs ETH: 1 - 1 - 0  [0.500] 2",
    );
    let (per_game, _, _, _) = audit(&fixture("diff-cc.pgn"), &p);
    assert_eq!(per_game[1], vec!["manager-stdout-tally-differs"]);
    assert!(
        per_game
            .iter()
            .enumerate()
            .all(|(i, c)| i == 1 || c.is_empty())
    );
}

#[test]
fn a_line_or_game_no_one_claims_is_said_and_the_run_exits_2() {
    let (_d, p) = planted(
        "diff-fc.stdout",
        "Finished match\n",
        "Finished match\nSomething fastchess never wrote\n",
    );
    let (per_game, _, code, err) = audit(&fixture("diff-fc.pgn"), &p);
    assert!(per_game.iter().all(Vec::is_empty));
    assert_eq!(code, Some(2));
    assert!(
        err.contains(
            "1 line(s) of the manager's output that arbiter does not read, the first at line 21"
        ),
        "{err}"
    );
    // a game the PGN does not have, and a PGN game the output lacks
    let (_d, p) = planted(
        "diff-fc.stdout",
        "Started game 6 of 6 (ETH vs SF)",
        "Started game 6 of 6 (ETH vs Other)",
    );
    let (_d2, q) = planted(
        "diff-fc.stdout",
        "Finished game 6 (ETH vs SF)",
        "Finished game 6 (ETH vs Other)",
    );
    let both = std::fs::read_to_string(&p).unwrap().replace(
        "Finished game 6 (ETH vs SF)",
        "Finished game 6 (ETH vs Other)",
    );
    std::fs::write(&q, both).unwrap();
    let (per_game, _, code, err) = audit(&fixture("diff-fc.pgn"), &q);
    assert_eq!(per_game[5], vec!["manager-stdout-game-missing"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("game 6 (ETH vs Other, line 11) joined no game"),
        "{err}"
    );
}

#[test]
fn fastchess_config_json_is_the_matchs_settings() {
    let pgn = fixture("diff2-fc.pgn");
    let cfg = fixture("diff2-fc.config.json");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "audit",
            pgn.to_str().unwrap(),
            "--rules",
            "rulesets/managers.rules",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        arbiter(&args)
    };
    let judged = |o: &std::process::Output| -> Vec<Value> {
        games(&json_lines(o))
            .into_iter()
            .map(|g| serde_json::json!([g["findings"], g["termination"]]))
            .collect()
    };
    let by_file = run(&["--manager-config", cfg.to_str().unwrap()]);
    let by_flags = run(&["--manager-args", "-draw movenumber=20 movecount=2 score=30"]);
    assert_eq!(by_file.status.code(), Some(0));
    assert_eq!(judged(&by_file), judged(&by_flags));
    // a copy whose draw rule would have ended every game early: its values
    // are the ones judged with
    let (_d, early) = planted(
        "diff2-fc.config.json",
        "\"move_number\": 20,\n        \"move_count\": 2,\n        \"score\": 30,",
        "\"move_number\": 1,\n        \"move_count\": 1,\n        \"score\": 300,",
    );
    let by_early = run(&["--manager-config", early.to_str().unwrap()]);
    let by_early_flags = run(&["--manager-args", "-draw movenumber=1 movecount=1 score=300"]);
    assert_eq!(judged(&by_early), judged(&by_early_flags));
    assert_ne!(
        judged(&by_early),
        judged(&by_file),
        "the copy's draw rule is read"
    );
    // the file is recorded with its hash
    let summary = json_lines(&by_file).into_iter().last().unwrap();
    assert!(
        summary.to_string().contains("\"kind\":\"manager-config\""),
        "{summary}"
    );
    // an option given twice is refused, naming both
    let twice = run(&[
        "--manager-config",
        cfg.to_str().unwrap(),
        "--manager-args",
        "-draw movenumber=3",
    ]);
    assert_eq!(twice.status.code(), Some(2));
    let err = String::from_utf8_lossy(&twice.stderr);
    assert!(
        err.contains(
            "diff2-fc.config.json sets draw_movenumber (-draw) and --manager-args sets it too"
        ),
        "{err}"
    );
    // options that do not meet are taken together
    let both = run(&[
        "--manager-config",
        cfg.to_str().unwrap(),
        "--manager-args",
        "-resign movecount=3 score=500",
    ]);
    assert_ne!(
        both.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&both.stderr)
    );
    // what is not a config is refused at once
    let bad = run(&["--manager-config", pgn.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("not JSON") && err.contains("diff2-fc.pgn"),
        "{err}"
    );
}

/// Every standard output of the peers corpus with its PGN: every game
/// matched, nothing unread, no result differs; fc-rr's warnings land on
/// game 5 at the search they are about.
#[test]
fn every_peers_stdout_meets_its_games() {
    let Some(corpus) = std::env::var_os("ARBITER_CORPUS") else {
        eprintln!("skipping: ARBITER_CORPUS is not set (set it to the folder holding peers/)");
        return;
    };
    let peers = Path::new(&corpus).join("peers");
    for name in [
        "fc-rr", "fc-tb", "diff-fc", "diff-cc", "diff2-fc", "diff2-cc",
    ] {
        let (per_game, all, code, err) = audit(
            &peers.join(format!("{name}.pgn")),
            &peers.join(format!("{name}.stdout")),
        );
        assert_eq!(code, Some(0), "{name}: {err}");
        let found: Vec<&String> = per_game.iter().flatten().collect();
        if name == "fc-rr" {
            assert_eq!(found, vec!["manager-stdout-warning"], "{name}");
            let f = finding(&all[4], "manager-stdout-warning");
            assert_eq!(f["evidence"][0]["span"]["line"], 10);
            assert_eq!(f["evidence"][0]["ply"], 207);
            assert!(
                f["message"]
                    .as_str()
                    .unwrap()
                    .contains("Glaurung2.2 (White)")
            );
            assert!(f["message"].as_str().unwrap().contains("99 times"));
        } else {
            assert!(found.is_empty(), "{name}: {found:?}");
        }
    }
}
