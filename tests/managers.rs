//! The match managers judged against their own settings
//! (`rulesets/managers.rules`, docs/managers.md): a match audited under the
//! flags it ran with reproduces every ending; told nothing, each
//! adjudication is unsupported; faults planted in a copy are found at their
//! line; on the peers corpus every adjudication of every match is
//! reproduced and `rules fit` recovers the resign settings untold.

use std::path::{Path, PathBuf};

use regex::Regex;
use serde_json::Value;

use super::{arbiter, codes, finding, json_lines};

const RULES: &str = "rulesets/managers.rules";
/// fc-rr's and cc-rr's flags (../shared/corpora/peers/README.md) but the
/// tables, which the fixtures' two games never reach.
const RR_FLAGS: &str =
    "-draw movenumber=20 movecount=4 score=15 -resign movecount=3 score=500 -maxmoves 120";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/managers")
        .join(name)
}

fn games(lines: &[Value]) -> Vec<&Value> {
    lines.iter().filter(|l| l["type"] == "game").collect()
}

/// The termination text written after a game's last comment, read with the
/// test's own pattern.
fn written_endings(pgn: &str) -> Vec<String> {
    let re = Regex::new(r", ((?:White|Black) wins by adjudication(?:: SyzygyTB)?|Draw by adjudication(?:: SyzygyTB)?)\}").unwrap();
    re.captures_iter(pgn).map(|c| c[1].to_string()).collect()
}

fn audit_json(path: &Path, extra: &[&str]) -> Vec<Value> {
    let p = path.to_str().unwrap();
    let mut args = vec!["audit", p, "--rules", RULES, "--format", "json"];
    args.extend_from_slice(extra);
    json_lines(&arbiter(&args))
}

#[test]
fn both_managers_games_end_as_their_flags_say() {
    for (file, variant) in [
        ("fastchess-rr.pgn", "null"),
        ("cutechess-rr.pgn", "\"cutechess\""),
    ] {
        let path = fixture(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let endings = written_endings(&text);
        assert_eq!(endings.len(), 2, "{file}: both games end by adjudication");
        let lines = audit_json(&path, &["--manager-args", RR_FLAGS]);
        let gs = games(&lines);
        assert_eq!(gs.len(), 2, "{file}");
        for (g, ending) in gs.iter().zip(&endings) {
            assert_eq!(g["variant"].to_string(), variant, "{file}");
            let computed = &g["termination"]["computed"];
            assert_eq!(computed["rule"], "manager.resign", "{file}: {computed}");
            assert_eq!(
                computed["records"].as_str(),
                Some(ending.as_str()),
                "{file}"
            );
            assert_eq!(computed["result"], g["tags"]["Result"], "{file}");
            assert!(
                codes(g).iter().all(|c| !c.starts_with("adjudication-")),
                "{file}: {:?}",
                codes(g)
            );
        }
    }
}

#[test]
fn told_nothing_each_adjudication_is_unsupported() {
    let lines = audit_json(&fixture("cutechess-rr.pgn"), &[]);
    for g in games(&lines) {
        let unsupported: Vec<&Value> = g["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "adjudication-unsupported")
            .collect();
        assert_eq!(unsupported.len(), 1, "{:?}", codes(g));
        let msg = unsupported[0]["message"].as_str().unwrap();
        assert!(
            msg.contains("wins by adjudication") && msg.contains("manager.resign"),
            "{msg}"
        );
        // the evidence is the text after the last move's comment
        let ev = &unsupported[0]["evidence"][0];
        assert_eq!(
            ev["note"], "the termination written after the last move",
            "{ev}"
        );
    }
}

/// A copy of `name` with `edit` applied to its text, in a fresh folder.
fn planted(name: &str, edit: impl Fn(&str) -> String) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    let out = edit(&text);
    assert_ne!(out, text, "the fault is planted");
    let path = dir.path().join(name);
    std::fs::write(&path, out).unwrap();
    (dir, path)
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> u64 {
    let at = text.find(needle).expect("needle in text");
    text[..at].matches('\n').count() as u64 + 1
}

#[test]
fn planted_faults_are_found_at_their_line() {
    // an adjudication a ply early: game 1 ends one move sooner, its text on
    // the move before
    let (_d, early) = planted("cutechess-rr.pgn", |t| {
        t.replacen(
            "h3 {+12.78/8 0.042s} 45. Bg3 {-10.54/9 0.080s, Black wins by adjudication}",
            "h3 {+12.78/8 0.042s, Black wins by adjudication}",
            1,
        )
        .replacen("[PlyCount \"89\"]", "[PlyCount \"88\"]", 1)
    });
    let text = std::fs::read_to_string(&early).unwrap();
    let lines = audit_json(&early, &["--manager-args", RR_FLAGS]);
    let g = games(&lines)[0];
    let f = finding(g, "adjudication-unsupported");
    let ev = &f["evidence"][0];
    assert_eq!(
        ev["span"]["line"].as_u64(),
        Some(line_of(&text, "h3 {+12.78/8 0.042s, Black wins")),
        "{f}"
    );
    assert_eq!(ev["ply"], 88, "{f}");

    // a wrong result: the same game's 0-1 written 1-0
    let (_d, wrong) = planted("cutechess-rr.pgn", |t| {
        t.replacen("[Result \"0-1\"]", "[Result \"1-0\"]", 1)
            .replacen(
                "Black wins by adjudication} 0-1",
                "Black wins by adjudication} 1-0",
                1,
            )
    });
    let lines = audit_json(&wrong, &["--manager-args", RR_FLAGS]);
    let g = games(&lines)[0];
    assert!(
        codes(g).contains(&"adjudication-wrong-result".to_string()),
        "{:?}",
        codes(g)
    );

    // a resignation one move too late for the flags: told to resign after
    // 2 moves, the manager would have ended game 1 sooner
    let lines = audit_json(
        &fixture("cutechess-rr.pgn"),
        &["--manager-args", "-resign movecount=2 score=500"],
    );
    let g = games(&lines)[0];
    let f = finding(g, "adjudication-missed");
    assert!(
        f["message"].as_str().unwrap().contains("went on to ply 89"),
        "{f}"
    );
}

#[test]
fn manager_args_that_are_not_read_are_refused() {
    let p = fixture("cutechess-rr.pgn");
    let p = p.to_str().unwrap();
    let o = arbiter(&[
        "audit",
        p,
        "--rules",
        RULES,
        "--manager-args",
        "-draw movenumber=34 -concurrency 4",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("\"-concurrency 4\"") && err.contains("is not an adjudication flag"),
        "{err}"
    );
    let o = arbiter(&[
        "audit",
        p,
        "--rules",
        "rulesets/tcec-s15.rules",
        "--manager-args",
        "-draw movenumber=34",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no constant `draw_movenumber`"), "{err}");
}

/// Whether the game's final position ends a game by the laws of chess
/// (mate, stalemate, bare kings or a lone minor, threefold repetition,
/// fifty moves), read from the replay's account of it.
fn ended_on_the_board(g: &Value) -> bool {
    let f = &g["termination"]["final_position"];
    f["checkmate"] == true
        || f["stalemate"] == true
        || f["insufficient_material"] == true
        || f["repetition"].as_u64().is_some_and(|r| r >= 3)
        || f["halfmove_clock"].as_u64().is_some_and(|h| h >= 100)
}

/// The games of no move that a manager ended by adjudication at their
/// start position (fastchess writes no text then, only the tags).
fn start_adjudications(pgn: &str) -> usize {
    pgn.split("[Event ")
        .filter(|g| g.contains("[PlyCount \"0\"]") && g.contains("[Termination \"adjudication\"]"))
        .count()
}

/// The peers corpus and the Syzygy tables, or `None` (said) without them.
fn peers_and_tables() -> Option<(PathBuf, PathBuf)> {
    let Some(corpus) = std::env::var_os("ARBITER_CORPUS") else {
        eprintln!("skipping: ARBITER_CORPUS is not set (set it to the folder holding peers/)");
        return None;
    };
    let Some(tb) = std::env::var_os("ARBITER_SYZYGY") else {
        eprintln!("skipping: ARBITER_SYZYGY is not set");
        return None;
    };
    let peers = Path::new(&corpus).join("peers");
    assert!(peers.is_dir(), "{}", peers.display());
    Some((peers, PathBuf::from(tb)))
}

/// Every match of the peers corpus, under the flags its README lists:
/// every adjudication the records write is the one the ruleset computes,
/// at the same ply, and no ending is judged wrong.
#[test]
fn every_peers_adjudication_is_reproduced_under_its_flags() {
    let Some((peers, tb)) = peers_and_tables() else {
        return;
    };
    let rr = "-draw movenumber=20 movecount=4 score=15 -resign movecount=3 score=500 -maxmoves 120 -tb x -tbpieces 5";
    let tbf = "-tb x -tbpieces 5";
    let diff = "-draw movenumber=20 movecount=4 score=15 -resign movecount=3 score=500";
    let diff2 = "-draw movenumber=20 movecount=2 score=30";
    // (file, flags, adjudications the file records; usize::MAX: the games
    // whose final position ends no game)
    let matches: [(&str, Option<&str>, usize); 11] = [
        ("fc-rr.pgn", Some(rr), 11),
        ("cc-rr.pgn", Some(rr), 11),
        // 2 written after a move, 4 at the start position (0-ply games)
        ("fc-tb.pgn", Some(tbf), 6),
        ("cc-tb.pgn", Some(tbf), 8),
        ("diff-fc.pgn", Some(diff), 5),
        ("diff-cc.pgn", Some(diff), 5),
        ("diff2-fc.pgn", Some(diff2), 0),
        ("diff2-cc.pgn", Some(diff2), 0),
        // the houses' variants carry their own values
        ("fishtest-65a3aca1-0.pgn.gz", None, 7),
        // cutechess-ob writes no ending: every game the board did not end
        ("openbench-example3.pgn", None, usize::MAX),
        ("openbench-example1.pgn", None, usize::MAX),
    ];
    let mut report = Vec::new();
    for (file, flags, expected) in matches {
        let path = peers.join(file);
        let tb = tb.to_str().unwrap();
        let mut extra = vec!["--syzygy", tb];
        if let Some(f) = flags {
            extra.extend(["--manager-args", f]);
        }
        let lines = audit_json(&path, &extra);
        let gs = games(&lines);
        assert!(!gs.is_empty(), "{file}");
        let mut adjudicated = 0;
        for g in &gs {
            let bad: Vec<String> = codes(g)
                .into_iter()
                .filter(|c| c.starts_with("adjudication-"))
                .collect();
            assert!(
                bad.is_empty(),
                "{file} game {}: {bad:?}",
                g["source"]["index"]
            );
            let computed = &g["termination"]["computed"];
            if computed["rule"]
                .as_str()
                .is_some_and(|r| r.starts_with("manager."))
            {
                adjudicated += 1;
            }
        }
        // the test's own count of what the records say
        let expected = if expected == usize::MAX {
            gs.iter().filter(|g| !ended_on_the_board(g)).count()
        } else {
            if !file.ends_with(".gz") {
                let text = std::fs::read_to_string(&path).unwrap();
                let at_start = start_adjudications(&text);
                assert_eq!(written_endings(&text).len() + at_start, expected, "{file}");
            }
            expected
        };
        assert_eq!(adjudicated, expected, "{file}: adjudications reproduced");
        report.push(format!(
            "{file}: {adjudicated} of {expected} adjudications, {} games",
            gs.len()
        ));
    }
    eprintln!("{}", report.join("\n"));
}

/// `rules fit` of `pgn` under the managers' ruleset and the tables `tb`,
/// told nothing: its JSON object.
fn fit_json(pgn: &Path, tb: &Path) -> Value {
    let o = arbiter(&[
        "rules",
        "fit",
        pgn.to_str().unwrap(),
        "--rules",
        RULES,
        "--syzygy",
        tb.to_str().unwrap(),
        "--format",
        "json",
    ]);
    json_lines(&o).swap_remove(0)
}

/// `rules fit`, told nothing, recovers the resign settings of both round
/// robins (3 moves at 500 cp) and reproduces every ending.
#[test]
fn rules_fit_recovers_the_resign_settings_untold() {
    let Some((peers, tb)) = peers_and_tables() else {
        return;
    };
    for file in ["fc-rr.pgn", "cc-rr.pgn"] {
        let fit = &fit_json(&peers.join(file), &tb);
        let value = |name: &str| -> Value {
            fit["fits"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["name"] == name)
                .unwrap_or_else(|| panic!("{name}"))
                .clone()
        };
        assert_eq!(value("resign_movecount")["fitted"], "3", "{file}");
        assert_eq!(value("resign_score")["fitted"], "500", "{file}");
        // the draw rule ended no game: its values stay undecided, the true
        // ones among them
        let count = value("draw_movecount");
        assert!(
            count["equally_good"]
                .as_array()
                .unwrap()
                .iter()
                .any(|v| v == "4"),
            "{file}: {count}"
        );
        let under = fit["under_fit"].to_string();
        assert!(under.contains("\"terminations\""), "{under}");
    }
}

/// An "illegal move" ending is judged against the engine's answer: a legal
/// `bestmove` after the last recorded move is a finding at its search's
/// line;
/// an illegal one agrees with the record.
#[test]
fn an_illegal_move_ending_is_checked_against_the_engine_log() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/managers");
    let pgn = dir.join("manager.illegal-move.pgn");
    let log_text = std::fs::read_to_string(dir.join("manager.illegal-move.engine.log")).unwrap();
    let run = |log: &Path| {
        let lines = audit_json(&pgn, &["--engine-log", log.to_str().unwrap()]);
        games(&lines)[0].clone()
    };
    let g = run(&dir.join("manager.illegal-move.engine.log"));
    let f = finding(&g, "manager.illegal-move").clone();
    assert_eq!(
        f["evidence"][0]["span"]["line"].as_u64(),
        // the search, from its `go`
        Some(line_of(&log_text, "go wtime 59900")),
        "{f}"
    );
    // the engine did answer an illegal move: the record is right
    let t = tempfile::tempdir().unwrap();
    let bad = t.path().join("engine.log");
    std::fs::write(&bad, log_text.replace("bestmove g1f3", "bestmove g1g3")).unwrap();
    let g = run(&bad);
    let c = codes(&g);
    assert!(!c.contains(&"manager.illegal-move".to_string()), "{c:?}");
    assert!(c.contains(&"engine-log-inconsistent".to_string()), "{c:?}");
}

/// A loss on time is judged against the engine's answer: an answer within
/// the clock the `go` line gave (and the margin) is a finding; one past it
/// agrees with the record.
#[test]
fn a_loss_on_time_is_checked_against_the_engine_log() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/managers");
    let pgn = dir.join("manager.time-loss.pgn");
    let log_text = std::fs::read_to_string(dir.join("manager.time-loss.engine.log")).unwrap();
    let t = tempfile::tempdir().unwrap();
    let fires = |log: &str, extra: &[&str]| -> bool {
        let path = t.path().join("engine.log");
        std::fs::write(&path, log).unwrap();
        let mut args = vec!["--engine-log", path.to_str().unwrap()];
        args.extend_from_slice(extra);
        let lines = audit_json(&pgn, &args);
        codes(games(&lines)[0]).contains(&"manager.time-loss".to_string())
    };
    // 100 ms of a 900 ms clock: the manager's delay ran it out
    assert!(fires(&log_text, &[]));
    // 100 ms of a 50 ms clock: the engine's own search did
    let late = log_text.replace("go wtime 900 ", "go wtime 50 ");
    assert!(!fires(&late, &[]));
    // ... unless the margin covers it
    assert!(fires(&late, &["--manager-args", "-each timemargin=60"]));
}

/// A disconnect or a stalled connection is judged against the engine's
/// answer: an answer to the last `go` after the last recorded move is a
/// finding at its search's line (for a stall, only within the clock the
/// `go` gave and the margin); with no answer, or a late one for a stall,
/// the record stands.
#[test]
fn disconnects_and_stalls_are_checked_against_the_engine_log() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/managers");
    let t = tempfile::tempdir().unwrap();
    for code in ["manager.disconnect", "manager.stall"] {
        let pgn = dir.join(format!("{code}.pgn"));
        let log_text = std::fs::read_to_string(dir.join(format!("{code}.engine.log"))).unwrap();
        let run = |log: &str, extra: &[&str]| -> Value {
            let path = t.path().join("engine.log");
            std::fs::write(&path, log).unwrap();
            let mut args = vec!["--engine-log", path.to_str().unwrap()];
            args.extend_from_slice(extra);
            games(&audit_json(&pgn, &args))[0].clone()
        };
        let g = run(&log_text, &[]);
        let f = finding(&g, code).clone();
        assert_eq!(
            f["evidence"][0]["span"]["line"].as_u64(),
            Some(line_of(&log_text, "go wtime 59900")),
            "{code}: {f}"
        );
        // no answer to the last go: the engine was gone
        let cut: String = (log_text.lines())
            .filter(|l| !l.contains("bestmove g1f3") && !l.contains("pv g1f3"))
            .map(|l| format!("{l}\n"))
            .collect();
        let c = codes(&run(&cut, &[]));
        assert!(!c.contains(&code.to_string()), "{code}: {c:?}");
        // an answer after its clock ran out: the manager stopped waiting
        let late = log_text.replace("go wtime 59900 ", "go wtime 50 ");
        let c = codes(&run(&late, &[]));
        assert_eq!(
            c.contains(&code.to_string()),
            code == "manager.disconnect",
            "{c:?}"
        );
        if code == "manager.stall" {
            let c = codes(&run(&late, &["--manager-args", "-each timemargin=60"]));
            assert!(c.contains(&code.to_string()), "{c:?}");
        }
    }
}

/// `rules fit`, told nothing, recovers the tablebase settings of both
/// tablebase matches (`-tbpieces 5`, both sides) and which program probes
/// where (`tb_after_zeroing`: fastchess yes, cutechess-cli no), and
/// reproduces all ten endings of each, fastchess's four at the start
/// position among them.
#[test]
fn rules_fit_recovers_the_tablebase_settings_untold() {
    let Some((peers, tb)) = peers_and_tables() else {
        return;
    };
    for (file, zeroing) in [("fc-tb.pgn", "true"), ("cc-tb.pgn", "false")] {
        let fit = &fit_json(&peers.join(file), &tb);
        let fitted = |name: &str| -> String {
            let f = (fit["fits"].as_array().unwrap().iter())
                .find(|f| f["name"] == name)
                .unwrap_or_else(|| panic!("{name}"));
            f["fitted"].as_str().unwrap().to_string()
        };
        assert_eq!(fitted("tb_pieces"), "5", "{file}");
        assert_eq!(fitted("tb_adjudicate"), "\"BOTH\"", "{file}");
        assert_eq!(fitted("tb_after_zeroing"), zeroing, "{file}");
        let under = &fit["under_fit"];
        assert_eq!(under["terminations"], 10, "{file}: {under}");
        assert_eq!(under["terminations_of"], 10, "{file}: {under}");
        assert!(
            fit["under_text"]["terminations"].as_u64().unwrap() < 10,
            "{file}"
        );
    }
}
