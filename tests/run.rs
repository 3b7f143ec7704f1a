//! The CLI end to end on the shipped samples: exit codes, determinism,
//! the replay stepper.

use super::{arbiter, json_lines, stdout};

#[test]
fn samples_audit_clean_with_one_line_per_game_and_hashes() {
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        "samples/icga-2008.pgn",
        "samples/kasparov-deep-blue-1996.pgn",
        "samples/kasparov-deep-junior-2003.pgn",
        "samples/tcec-style.pgn",
        "samples/wccc-1992-madrid.pgn",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = json_lines(&o);
    let (summary, games) = lines.split_last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["games"].as_u64().unwrap() as usize, games.len());
    assert!(games.len() >= 5, "one game per seed event at least");
    for g in games {
        assert_eq!(g["type"], "game");
        for key in [
            "source",
            "tags",
            "plies",
            "final_fen",
            "termination",
            "findings",
        ] {
            assert!(g.get(key).is_some(), "game line lacks {key}: {g}");
        }
        assert!(g["termination"]["recorded"].get("result").is_some());
        assert_eq!(g["complete"], true);
    }
    let inputs = summary["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 5);
    for i in inputs {
        let sha = i["sha256"].as_str().unwrap();
        assert_eq!(sha.len(), 64);
        assert!(sha.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}

/// `arbiter audit samples/` (the README's first command) audits the seed
/// events' games and every scenario folder with its own ruleset and logs,
/// and records the hash of every log and ruleset it read.
#[test]
fn samples_folder_audits_games_and_scenarios() {
    let o = arbiter(&["audit", "--format", "json", "samples"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the violation scenarios are violations: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = json_lines(&o);
    let summary = lines.last().unwrap();
    assert!(
        summary["unreadable"].as_array().unwrap().is_empty(),
        "{}",
        summary["unreadable"]
    );
    let logs = summary["logs"].as_array().unwrap();
    for kind in ["engine-log", "operator-log", "ruleset"] {
        assert!(
            logs.iter()
                .any(|l| l["kind"] == kind && l["sha256"].as_str().unwrap().len() == 64),
            "{kind}"
        );
    }
}

#[test]
fn the_same_inputs_give_byte_identical_output() {
    let a = arbiter(&["audit", "--format", "json", "samples"]);
    let b = arbiter(&["audit", "--format", "json", "samples"]);
    assert_eq!(a.stdout, b.stdout);
    assert!(!a.stdout.is_empty());
}

#[test]
fn replay_json_has_one_object_per_ply_with_recorded_values() {
    let o = arbiter(&["replay", "--json", "samples/tcec-style.pgn", "--game", "2"]);
    assert_eq!(o.status.code(), Some(0));
    let plies = json_lines(&o);
    assert_eq!(plies.len(), 71);
    for (i, p) in plies.iter().enumerate() {
        assert_eq!(p["game"], 2);
        assert_eq!(p["ply"].as_u64().unwrap() as usize, i + 1);
        for key in ["san", "fen", "halfmove_clock", "repetition", "recorded"] {
            assert!(p.get(key).is_some(), "ply lacks {key}: {p}");
        }
    }
    // the final move is checkmate and carries the engine's typed values
    let last = plies.last().unwrap();
    assert_eq!(last["checkmate"], true);
    let rec = &last["recorded"];
    assert!(rec["mt"].is_i64(), "{rec}");
    assert!(rec["tl"].is_i64());
    assert!(rec["R50"].is_i64());
    assert!(rec["Rd"].is_i64());
    assert!(rec["Rr"].is_i64());
    assert!(rec["wv"].get("mate").is_some() || rec["wv"].get("cp").is_some());
}

#[test]
fn replay_text_shows_board_move_and_recorded_values_for_one_ply() {
    let o = arbiter(&["replay", "samples/tcec-style.pgn", "--ply", "20"]);
    assert_eq!(o.status.code(), Some(0));
    let s = stdout(&o);
    assert!(s.starts_with("ply 20: 10... "), "{s}");
    assert!(s.contains("    a b c d e f g h"));
    assert!(s.contains("recorded: "));
    assert!(s.contains("tl="));
}

#[test]
fn usage_errors_exit_2_and_say_why() {
    let o = arbiter(&["replay", "samples/tcec-style.pgn", "--game", "9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("there is no game 9"));
    let o = arbiter(&["replay", "samples/tcec-style.pgn", "--ply", "999"]);
    assert_eq!(o.status.code(), Some(2));
    let o = arbiter(&["audit", "no/such/file.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such/file.pgn"));
    let o = arbiter(&["audit"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_missing_file_does_not_stop_the_batch() {
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        "no/such.pgn",
        "samples/icga-2008.pgn",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 2, "the readable file's game and the summary");
    assert_eq!(lines[1]["unreadable"][0]["path"], "no/such.pgn");
}

#[test]
fn replay_with_rules_shows_live_counters_beside_recorded_ones() {
    let o = arbiter(&[
        "replay",
        "--json",
        "samples/tcec-style.pgn",
        "--game",
        "2",
        "--rules",
        "rulesets/tcec-s15.rules",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let plies = json_lines(&o);
    let mut compared = 0;
    for p in &plies {
        let (rec, live) = (&p["recorded"], &p["rules"]);
        assert!(live.get("draw_count").is_some(), "{p}");
        if rec.get("Rd").is_some() {
            assert_eq!(rec["Rd"], live["rd"], "ply {}", p["ply"]);
            assert_eq!(rec["Rr"], live["rr"], "ply {}", p["ply"]);
            assert_eq!(rec["R50"], live["r50"], "ply {}", p["ply"]);
            compared += 1;
        }
    }
    assert!(compared > 50);
    let o = arbiter(&[
        "replay",
        "samples/tcec-style.pgn",
        "--game",
        "2",
        "--ply",
        "60",
        "--rules",
        "rulesets/tcec-s15.rules",
    ]);
    let s = stdout(&o);
    assert!(s.contains("  rules:    ") && s.contains("rd="), "{s}");
}

#[test]
fn audit_with_rules_reports_the_computed_termination_and_the_ruleset_hash() {
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        "--rules",
        "rulesets/tcec-s15.rules",
        "samples/tcec-style.pgn",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = json_lines(&o);
    assert_eq!(
        lines[1]["termination"]["computed"]["rule"],
        "laws.checkmate"
    );
    assert_eq!(lines[1]["termination"]["computed"]["ply"], 71);
    assert_eq!(lines[1]["termination"]["computed"]["result"], "1-0");
    // game 1 ended by "White in infinite loop": no rule computes it
    assert!(lines[0]["termination"]["computed"].is_null());
    let summary = lines.last().unwrap();
    assert_eq!(summary["ruleset"]["id"], "tcec-s15");
    assert_eq!(summary["ruleset"]["sha256"].as_str().unwrap().len(), 64);
    assert!(
        summary["ruleset"]["manual_review"]
            .as_array()
            .unwrap()
            .len()
            > 10
    );
    // the two rules left unevaluated need a similarity report
    assert_eq!(
        super::not_evaluated(summary),
        ["tcec.similar-engine", "tcec.shared-evaluation"]
    );
}

#[test]
fn an_unknown_variant_or_bad_ruleset_exits_2_with_the_place() {
    let o = arbiter(&[
        "audit",
        "--rules",
        "rulesets/tcec-s15.rules",
        "--variant",
        "division-9",
        "samples",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no variant `division-9`"));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.rules");
    std::fs::write(&bad, "ruleset x \"X\" { regulation \"r\" }\nrule a.b \"t\" {\n  cite \"1\" \"w\"\n  forbid on mov\n}\n").unwrap();
    let o = arbiter(&["audit", "--rules", bad.to_str().unwrap(), "samples"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.rules:4:13") && err.contains("did you mean `move`?"),
        "{err}"
    );
}

#[test]
fn clock_chart_is_svg_and_escapes_the_tags() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(
        &pgn,
        "[Event \"TCEC Season 15 - Division 4a\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"1\"]\n[White \"<script>alert('x')</script>\"]\n[Black \"B & co\"]\n[Result \"*\"]\n\n\
         1. e4 {d=20, sd=30, mt=10000, tl=1795000, s=1, n=1, pv=e4, tb=0, h=0.0, ph=0.0, wv=0.20,} e5 {d=20, sd=30, mt=10000, tl=1855000, s=1, n=1, pv=e5, tb=0, h=0.0, ph=0.0, wv=0.20,} *\n",
    )
    .unwrap();
    let svg = dir.path().join("c.svg");
    let o = arbiter(&[
        "chart",
        pgn.to_str().unwrap(),
        "--rules",
        "rulesets/tcec-s15.rules",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.starts_with("<svg"));
    assert!(!s.contains("<script"), "tag text must be escaped");
    assert!(s.contains("&lt;script&gt;") && s.contains("B &amp; co"));
    assert!(
        s.contains("clock finding"),
        "black's clock gained 60 s: marked"
    );
}

/// `audit --charts DIR` draws one chart per game, from the logs when the
/// record has no clock readings, and names it after the case folder.
#[test]
fn audit_writes_a_clock_chart_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let charts = dir.path().join("charts");
    let o = arbiter(&[
        "audit",
        "--charts",
        charts.to_str().unwrap(),
        "samples/kasparov-deep-junior-2003/flag-fall-from-logs",
        "samples/tcec-s15/manual-clock-addition",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(&charts)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["flag-fall-from-logs-1.svg", "manual-clock-addition-1.svg"]
    );
    let dj = std::fs::read_to_string(charts.join("flag-fall-from-logs-1.svg")).unwrap();
    assert!(dj.starts_with("<svg"));
    assert!(
        dj.contains("White clock, by the time control") && !dj.contains("as recorded"),
        "no readings in the record: the clock comes from the logs alone"
    );
    assert!(dj.contains("clock finding"), "the flag fall is marked");
    let tcec = std::fs::read_to_string(charts.join("manual-clock-addition-1.svg")).unwrap();
    assert!(tcec.contains("Black clock, as recorded"));
}

/// The clock engine applies the game-clock settings the operator log
/// records: a flag that falls without them does not fall with them.
#[test]
fn operator_clock_settings_enter_the_clock_reconstruction() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("t.rules");
    std::fs::write(
        &rules,
        "ruleset t \"T\" { regulation \"r\" time-control ten }\ntime-control ten { period all moves in 10m }\n\
         rule t.flag \"Flag\" {\n  cite \"1\" \"all moves in 10 minutes\"\n  message \"{move.side} left {move.clock_left}\"\n  forbid on move when move.clock_flag\n}\n",
    )
    .unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(
        &pgn,
        "[Event \"e\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
         1. e4 {[%emt 0:04:00]} e5 {[%emt 0:00:10]} 2. Nf3 {[%emt 0:04:00]} Nc6 {[%emt 0:00:10]} 3. Bb5 {[%emt 0:04:00]} *\n",
    )
    .unwrap();
    let run = |log: Option<&str>| {
        let mut args = vec![
            "audit",
            "--format",
            "json",
            "--rules",
            rules.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ];
        let p = dir.path().join("op.log");
        let ps = p.to_str().unwrap().to_string();
        if let Some(text) = log {
            std::fs::write(&p, text).unwrap();
            args.extend(["--operator-log", ps.as_str()]);
        }
        let o = arbiter(&args);
        json_lines(&o)[0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "t.flag")
            .count()
    };
    assert_eq!(run(None), 1, "12 minutes used in a 10-minute game");
    // after White's second move the arbiter gives White 5 more minutes
    let log = "2003-01-26T15:00:00Z levy setup machine_side=black round=1\n\
               2003-01-26T15:10:00Z valvo clock-set role=arbiter ply=3 side=white clock=game old=2:00 new=7:00\n";
    assert_eq!(run(Some(log)), 0);
}

/// A planted hidden book (real PolyGlot book answers in the engine log) is
/// flagged move by move; the same opening played with searches is not.
#[test]
fn hidden_book_screen_finds_the_planted_book() {
    let screen = |kind: &str| {
        let dir = format!("samples/tcec-s15/hidden-book-{kind}");
        let o = arbiter(&[
            "hidden-book",
            "--json",
            "--min-run",
            "4",
            &format!("{dir}/game.pgn"),
            "--engine-log",
            &format!("{dir}/engine.log"),
        ]);
        let d: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (o.status.code(), d)
    };
    let (code, d) = screen("planted");
    assert_eq!(code, Some(1));
    let plies: Vec<u64> = d["flagged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(plies, [9, 11, 13, 17, 19]);
    let toga = d["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["engine"] == "Toga II 3.0")
        .unwrap();
    assert_eq!(
        toga["searchless"], 8,
        "PolyGlot answered 8 moves from its book"
    );
    assert_eq!(toga["explained"]["a recapture"], 3);
    let (code, d) = screen("clean");
    assert_eq!(code, Some(0));
    assert!(d["flagged"].as_array().unwrap().is_empty());
    // the rule's finding points at the move and at the engine's `go` line
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        "samples/tcec-s15/hidden-book-planted",
    ]);
    let lines = json_lines(&o);
    let f = lines[0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "tcec.hidden-book")
        .unwrap();
    let ev = f["evidence"].as_array().unwrap();
    assert!(ev[0]["path"].as_str().unwrap().ends_with("game.pgn"));
    assert!(ev[1]["path"].as_str().unwrap().ends_with("engine.log"));
    assert_eq!(ev[1]["span"]["line"], 59);
    assert!(ev[2]["path"].as_str().unwrap().ends_with("tcec-s15.rules"));
}

/// In a terminal the summary is the last line, so it is what shows when
/// the command returns; the inputs' SHA-256 are printed only with
/// `--verbose` (the reports and the JSON summary always record them).
#[test]
fn text_audit_ends_on_the_summary_and_hashes_only_with_verbose() {
    let o = arbiter(&["audit", "samples/"]);
    assert_eq!(o.status.code(), Some(1), "the samples plant violations");
    let text = stdout(&o);
    let last = text.lines().last().unwrap();
    assert!(
        last.contains(" games in ") && last.contains(" errors, "),
        "the last line is the summary: {last}"
    );
    assert!(
        last.ends_with("; exit status 1: violations found"),
        "{last}"
    );
    assert!(!text.contains("sha256 "), "hashes only with --verbose");

    let v = arbiter(&["audit", "--verbose", "samples/tcec-style.pgn"]);
    let text = stdout(&v);
    let lines: Vec<&str> = text.lines().collect();
    let (last, before) = lines.split_last().unwrap();
    assert!(last.contains(" games in 1 files, "), "{last}");
    let sha = before
        .iter()
        .find_map(|l| l.strip_prefix("  sha256 "))
        .expect("--verbose prints each input's SHA-256");
    let want = arbiter::base::digest::sha256_hex(&std::fs::read("samples/tcec-style.pgn").unwrap());
    assert_eq!(sha, format!("{want}  samples/tcec-style.pgn"));

    let clean = arbiter(&["audit", "samples/tcec-s15/clean"]);
    assert_eq!(clean.status.code(), Some(0));
    assert!(
        stdout(&clean)
            .trim_end()
            .ends_with("; exit status 0: no violations")
    );

    let missing = arbiter(&["audit", "samples/tcec-s15/clean", "samples/no-such.pgn"]);
    assert_eq!(missing.status.code(), Some(2));
    let last = stdout(&missing).lines().last().unwrap().to_string();
    assert!(
        last.ends_with("; exit status 2: 1 input could not be read or used (said above)"),
        "{last}"
    );
    assert!(String::from_utf8_lossy(&missing.stderr).contains("samples/no-such.pgn"));
}

/// A case folder whose `case.json` is not JSON: its diagnostic is said as
/// rendered (file, line, column, caret), not after a second `arbiter: `.
#[test]
fn a_broken_case_json_is_said_as_its_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("case.json"),
        "{\"game\": \"g.pgn\",\n  \"ruleset\" x}\n",
    )
    .unwrap();
    std::fs::copy("samples/tcec-style.pgn", dir.path().join("g.pgn")).unwrap();
    let o = arbiter(&["audit", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: expected `:`"), "{err}");
    assert!(err.contains("case.json:2:13"), "{err}");
}
