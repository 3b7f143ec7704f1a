//! The real TCEC Season 15 archive (428 games): every game parses and
//! replays, and every recorded engine value comes out typed.

use super::{arbiter, json_lines, tcec_s15};

#[test]
fn all_tcec_s15_games_replay_with_no_illegal_move() {
    let Some(dir) = tcec_s15() else { return };
    let o = arbiter(&["audit", "--format", "json", dir.to_str().unwrap()]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = json_lines(&o);
    let (summary, games) = lines.split_last().unwrap();
    assert_eq!(games.len(), 428);
    assert_eq!(summary["games"], 428);
    assert_eq!(summary["incomplete_games"], 0);
    for g in games {
        assert_eq!(g["complete"], true, "{}", g["source"]);
        assert_eq!(g["plies"], g["moves_recorded"]);
        for f in g["findings"].as_array().unwrap() {
            // The one PlyCount tag that disagrees is a real defect of the
            // archive (Division 4b round 7.2); nothing else may fire.
            assert_eq!(f["code"], "plycount-mismatch", "{}: {f}", g["source"]);
            assert_eq!(g["tags"]["Round"], "7.2");
        }
    }
    let by_code = &summary["findings_by_code"];
    assert_eq!(by_code.as_object().unwrap().len(), 1, "{by_code}");
}

/// Every engine (non-book) move carries typed mt, tl, wv, R50, Rd and Rr;
/// no book move does; and no TCEC comment had a value arbiter could not
/// parse. Free text is only the arbiter's note after the final move.
#[test]
fn every_engine_move_has_typed_values() {
    let Some(dir) = tcec_s15() else { return };
    let files = super::files_with(&dir, "pgn");
    let (mut engine, mut book, mut typed, mut bare, mut total) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut notes: Vec<(bool, String)> = Vec::new();
    for file in &files {
        arbiter::pipeline::audit_file(file, &Default::default(), |g| {
            let n = g.game.moves.len();
            for (i, m) in g.game.moves.iter().enumerate() {
                total += 1;
                let tcec: Vec<_> = g
                    .game
                    .comments_of(m)
                    .iter()
                    .filter_map(|c| c.annotations.tcec())
                    .collect();
                for c in g.game.comments_of(m) {
                    assert!(
                        c.annotations.problems.is_empty(),
                        "{:?}",
                        c.annotations.problems
                    );
                    if !c.annotations.text.is_empty() {
                        notes.push((i + 1 == n, c.annotations.text.clone()));
                    }
                }
                match tcec.as_slice() {
                    [] => bare += 1,
                    [t] if t.book => {
                        book += 1;
                        assert!(t.mt.is_none() && t.wv.is_none() && t.rd.is_none());
                    }
                    [t] => {
                        engine += 1;
                        let all = t.mt.is_some()
                            && t.tl.is_some()
                            && t.wv.is_some()
                            && t.r50.is_some()
                            && t.rd.is_some()
                            && t.rr.is_some();
                        typed += u64::from(all);
                    }
                    more => panic!("{} TCEC comments on one move", more.len()),
                }
            }
            Ok(())
        })
        .unwrap();
    }
    eprintln!(
        "{total} moves: {engine} engine moves, {book} book moves, {bare} without any comment"
    );
    // Free text is kept, not dropped: the arbiter's notes (termination
    // reasons after the final move, and one mid-game network disconnection).
    notes.sort();
    notes.dedup();
    eprintln!("free-text notes (after final move?, text): {notes:?}");
    assert!(
        notes
            .iter()
            .any(|(last, t)| !last && t == "Network disconnection")
    );
    assert_eq!(total, 57957);
    assert_eq!(engine + book + bare, total);
    assert_eq!(typed, engine, "every non-book move is fully typed");
    assert_eq!(engine, 54887, "the count of d= comments in the archive");
    // moves the archive records with no comment at all
    assert_eq!(bare, 16);
}

/// The TCEC S15 ruleset against the archive: the counters the TCEC software
/// recorded, and the terminations it declared.
#[test]
fn tcec_ruleset_reproduces_the_archive() {
    let Some(dir) = tcec_s15() else { return };
    let mut args = vec![
        "audit".to_string(),
        "--format".into(),
        "json".into(),
        "--rules".into(),
        "rulesets/tcec-s15.rules".into(),
    ];
    match std::env::var("ARBITER_SYZYGY") {
        Ok(t) => args.extend(["--syzygy".to_string(), t]),
        Err(_) => eprintln!(
            "note: ARBITER_SYZYGY is not set; tablebase endings are reported as undecided"
        ),
    }
    args.push(dir.to_str().unwrap().to_string());
    let o = arbiter(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = json_lines(&o);
    let games: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "game").collect();
    assert_eq!(games.len(), 428);
    counters(&games);
    terminations(&games);
    switch_of_round_13_4(&games);
    tablebase_endings(&games);
    clocks(&games);
}

/// S15 under its ruleset: the counters recorded (R50, Rd, Rr) against the recomputed ones.
fn counters(games: &[&serde_json::Value]) {
    // Counters: every engine move's R50, Rd and Rr against the recomputed ones.
    let engine_moves = 54887.0;
    let count = |code: &str| -> Vec<&serde_json::Value> {
        games
            .iter()
            .flat_map(|g| g["findings"].as_array().unwrap())
            .filter(|f| f["code"] == code)
            .collect()
    };
    let (r50, rd, rr) = (
        count("tcec.r50-counter"),
        count("tcec.draw-counter"),
        count("tcec.win-counter"),
    );
    eprintln!(
        "counters reproduced: R50 {:.3}%, Rd {:.3}%, Rr {:.3}% of {engine_moves} engine moves",
        100.0 * (1.0 - r50.len() as f64 / engine_moves),
        100.0 * (1.0 - rd.len() as f64 / engine_moves),
        100.0 * (1.0 - rr.len() as f64 / engine_moves)
    );
    assert!(
        r50.is_empty(),
        "R50 must match on every engine move: {r50:?}"
    );
    assert!(
        rd.len() as f64 <= 0.0002 * engine_moves,
        "{} Rd mismatches",
        rd.len()
    );
    assert!(
        rr.len() as f64 <= 0.0002 * engine_moves,
        "{} Rr mismatches",
        rr.len()
    );
    for f in rd.iter().chain(&rr) {
        assert!(
            f["message"].as_str().unwrap().contains("Cause:"),
            "a mismatch must name its cause: {f}"
        );
    }
}

/// S15 under its ruleset: the terminations the archive declares, recomputed.
fn terminations(games: &[&serde_json::Value]) {
    // Terminations: same rule, same ply, same result.
    let mut checked = 0;
    for g in games {
        let details = g["tags"]["TerminationDetails"].as_str().unwrap_or("");
        if ![
            "TCEC draw rule",
            "TCEC win rule",
            "3-Fold repetition",
            "Fifty moves rule",
            "White mates",
            "Black mates",
        ]
        .contains(&details)
        {
            continue;
        }
        checked += 1;
        let c = &g["termination"]["computed"];
        assert_eq!(c["records"], details, "{}: computed {c}", g["source"]);
        assert_eq!(c["ply"], g["plies"], "{}", g["source"]);
        assert_eq!(c["result"], g["tags"]["Result"], "{}", g["source"]);
        let bad: Vec<_> = g["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"].as_str().unwrap().starts_with("adjudication-"))
            .collect();
        assert!(bad.is_empty(), "{}: {bad:?}", g["source"]);
    }
    assert_eq!(checked, 80 + 191 + 50 + 7 + 3);
}

/// S15 under its ruleset: the one game a switch decides.
fn switch_of_round_13_4(games: &[&serde_json::Value]) {
    // Division 2 round 13.4: the software's reset at a searchless move is
    // what keeps the draw rule from firing at ply 105; a finding says so.
    let g = games
        .iter()
        .find(|g| {
            g["source"]["path"]
                .as_str()
                .unwrap()
                .ends_with("division-2.pgn")
                && g["tags"]["Round"] == "13.4"
        })
        .unwrap();
    let sw = g["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "switch-changed-outcome")
        .expect("the switch that decides round 13.4 is reported");
    let m = sw["message"].as_str().unwrap();
    assert!(
        m.contains("searchless_resets") && m.contains("1/2-1/2 at ply 105 (tcec.draw-rule)"),
        "{m}"
    );
    let switch_games = games
        .iter()
        .filter(|g| {
            g["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["code"] == "switch-changed-outcome")
        })
        .count();
    assert_eq!(switch_games, 1, "only round 13.4 turns on a switch");
}

/// S15 under its ruleset: the tablebase endings.
fn tablebase_endings(games: &[&serde_json::Value]) {
    // SyzygyTB endings: the piece-count condition holds, and where the tables
    // given cannot probe the position the finding names what was missing.
    let tb: Vec<_> = games
        .iter()
        .filter(|g| g["tags"]["TerminationDetails"] == "SyzygyTB")
        .collect();
    assert_eq!(tb.len(), 87);
    for g in &tb {
        let pieces = g["final_fen"]
            .as_str()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .count();
        assert!(
            pieces <= 6,
            "{}: SyzygyTB with {pieces} pieces",
            g["source"]
        );
        let decided = g["termination"]["computed"]["rule"] == "tcec.tablebase";
        let undecided = g["findings"].as_array().unwrap().iter().any(|f| {
            f["code"] == "rule-undecided"
                && f["rule"] == "tcec.tablebase"
                && f["evidence"][0]["ply"] == g["plies"]
        });
        assert!(
            decided || undecided,
            "{}: the tablebase ending is neither confirmed nor explained",
            g["source"]
        );
    }
}

/// S15 under its ruleset: the clocks, and that nothing else is an error.
fn clocks(games: &[&serde_json::Value]) {
    // Clocks: tl(previous) - mt + increment = tl on every engine move (to
    // 1 s), except where the clocks were set by hand: Division 1 round 21.1
    // (both sides about +180 s) and Division 4b round 7.2 (both about +90 s,
    // after the network disconnection).
    let mut jumps: Vec<(String, String, i64)> = Vec::new();
    for g in games {
        for f in g["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "tcec.clock")
        {
            let m = f["message"].as_str().unwrap();
            let secs: f64 = m
                .split(" gained ")
                .nth(1)
                .and_then(|r| r.split(' ').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or(0.0);
            let div = g["source"]["path"]
                .as_str()
                .unwrap()
                .rsplit('-')
                .next()
                .unwrap()
                .trim_end_matches(".pgn")
                .to_string();
            jumps.push((
                div,
                g["tags"]["Round"].as_str().unwrap().to_string(),
                secs.round() as i64,
            ));
        }
    }
    jumps.sort();
    assert_eq!(
        jumps,
        vec![
            ("1".to_string(), "21.1".to_string(), 180),
            ("1".to_string(), "21.1".to_string(), 180),
            ("4b".to_string(), "7.2".to_string(), 90),
            ("4b".to_string(), "7.2".to_string(), 90),
        ]
    );
    // Not credited, the added time would have left one side of each game
    // out of time later on: reported as information, not as a flag fall.
    let mut after_gain: Vec<(String, i64)> = games
        .iter()
        .flat_map(|g| {
            let round = g["tags"]["Round"].as_str().unwrap().to_string();
            g["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["code"] == "tcec.flag-fall-after-gain")
                .map(move |f| (round.clone(), f["evidence"][0]["ply"].as_i64().unwrap()))
        })
        .collect();
    after_gain.sort();
    assert_eq!(
        after_gain,
        vec![("21.1".to_string(), 182), ("7.2".to_string(), 156)]
    );
    // Nothing else is an error.
    let errors: Vec<_> = games
        .iter()
        .flat_map(|g| g["findings"].as_array().unwrap())
        .filter(|f| f["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// The clock engine (the ruleset's time control, evaluated in Rust)
/// reconstructs the clock of every engine move of the archive from the
/// move times alone: it differs from the recorded time left only after the
/// two manual clock settings.
#[test]
fn clock_engine_reconstructs_the_archive_clocks() {
    let Some(dir) = tcec_s15() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("clock.rules");
    std::fs::write(
        &rules,
        "ruleset clock-check \"clock check\" { regulation \"TCEC S15 time controls\" time-control short }\n\
         time-control short { period all moves in 30m increment 5s }\n\
         time-control long { period all moves in 60m increment 5s }\n\
         variant division-1 { applies when contains(game.event, \"Division 1\") time-control long }\n\
         rule clock.gap \"Clock\" {\n  cite \"Time control\" \"30 minutes + 5 seconds added per move\"\n\
           message \"{move.side}: recorded {move.recorded_left}, reconstructed {move.clock_left}\"\n\
           forbid on move when move.recorded_left != none and move.clock_left != none and abs(move.recorded_left - move.clock_left) > 1s\n}\n",
    )
    .unwrap();
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        "--rules",
        rules.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    let mut games = Vec::new();
    let mut first_ply = Vec::new();
    for g in json_lines(&o).iter().filter(|l| l["type"] == "game") {
        let gaps: Vec<u64> = g["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "clock.gap")
            .map(|f| f["evidence"][0]["ply"].as_u64().unwrap())
            .collect();
        if !gaps.is_empty() {
            let div = g["source"]["path"]
                .as_str()
                .unwrap()
                .rsplit('-')
                .next()
                .unwrap()
                .trim_end_matches(".pgn")
                .to_string();
            games.push((div, g["tags"]["Round"].as_str().unwrap().to_string()));
            first_ply.push(*gaps.iter().min().unwrap());
        }
    }
    assert_eq!(
        games,
        vec![
            ("1".to_string(), "21.1".to_string()),
            ("4b".to_string(), "7.2".to_string())
        ]
    );
    assert_eq!(first_ply, vec![140, 97], "from the manual settings on");
}

/// The hidden-book screen over the whole archive flags nothing, and the
/// moves without a search it finds are explained (prior-art.md: a naive
/// rule flags 65 of Fizbo 2's moves; almost all are recaptures of a
/// predicted move).
#[test]
fn hidden_book_screen_of_the_archive_flags_nothing() {
    let Some(dir) = tcec_s15() else { return };
    let o = arbiter(&[
        "hidden-book",
        "--json",
        "--tb-pieces",
        "6",
        "--min-run",
        "3",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let d: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(d["flagged"].as_array().unwrap().len(), 0);
    let engines = d["engines"].as_array().unwrap();
    assert_eq!(engines.len(), 35);
    let fizbo = engines.iter().find(|e| e["engine"] == "Fizbo 2").unwrap();
    assert_eq!(fizbo["moves"], 1442);
    assert_eq!(fizbo["searchless"], 65);
    assert!(fizbo["unexplained"].as_u64().unwrap() <= 2, "{fizbo}");
    let longest = engines
        .iter()
        .map(|e| e["longest_run"].as_u64().unwrap())
        .max()
        .unwrap();
    // Cheese 2.0 once made three moves in a row without a search; two of
    // them are explained, so the run is not flagged even at min_run 3.
    assert_eq!(longest, 3, "longest run of moves without search");
}
