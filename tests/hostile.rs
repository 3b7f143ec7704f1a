//! Issue 60's data-loss and crash cases, each on its minimal reproduction
//! (bench/adversarial.sh measures the same cases at full size).

use super::{arbiter, stdout};
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

const TAGS: &str = "[Event \"E\"]\n[Site \"?\"]\n[Date \"2019.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n";

/// Movetext after a blank line is the same game: the mate and the result
/// are read (7 plies, 1-0), and nothing is said to be truncated.
#[test]
fn movetext_after_a_blank_line_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        format!("{TAGS}[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6\n\n3. Bc4 Nf6 4. Qxf7# 1-0\n");
    let p = write(dir.path(), "g.pgn", &text);
    let o = arbiter(&["audit", &p]);
    let out = stdout(&o);
    assert!(out.contains("A - B 1-0 (7 plies)"), "{out}");
    assert!(
        out.contains("1 games in 1 files, 7 plies: 0 errors, 0 warnings"),
        "{out}"
    );
    assert!(!out.contains("truncated"), "{out}");
    assert_eq!(o.status.code(), Some(0), "{out}");
}

/// A game with no tags between two games is a game, and its missing
/// Result tag is a finding.
#[test]
fn a_tagless_game_is_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{TAGS}[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n1. d4 d5 0-1\n\n{TAGS}[Result \"1/2-1/2\"]\n\n1. c4 c5 1/2-1/2\n"
    );
    let p = write(dir.path(), "g.pgn", &text);
    let o = arbiter(&["audit", &p]);
    let out = stdout(&o);
    assert!(out.contains("3 games in 1 files, 6 plies"), "{out}");
    assert!(out.contains("warning[result-tag-missing]"), "{out}");
    assert_eq!(o.status.code(), Some(1), "{out}");
}

/// One finding per stray token is not held: the first of a code are kept,
/// the rest counted, and the totals count every one.
#[test]
fn stray_tokens_are_kept_to_a_cap_and_all_counted() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{TAGS}[Result \"*\"]\n\n1. e4 {}*\n", "} ".repeat(300));
    let p = write(dir.path(), "g.pgn", &text);
    let o = arbiter(&["audit", &p]);
    let out = stdout(&o);
    assert_eq!(out.matches("error[unparsable-token]").count(), 100, "{out}");
    assert!(
        out.contains("… and 200 more `unparsable-token` (not kept; counted in the totals)"),
        "{out}"
    );
    assert!(
        out.contains(" errors,") && !out.contains(": 100 errors,"),
        "{out}"
    );
}

/// A flat chain of binary operators, of every kind, is refused at the
/// operator that passes the height limit: a diagnostic, never a crash.
#[test]
fn long_operator_chains_are_refused_at_their_place() {
    let dir = tempfile::tempdir().unwrap();
    for (op, operand) in [
        ("-", "1"),
        ("+", "1"),
        ("*", "1"),
        ("and", "move.ply > 1"),
        ("or", "move.ply > 1"),
    ] {
        let chain = vec![operand; 10_000].join(&format!(" {op} "));
        let cond = if operand == "1" {
            format!("{chain} < move.ply")
        } else {
            chain
        };
        let text = format!(
            "ruleset t \"T\" {{ regulation \"r\" }}\nrule r.x \"x\" {{\n  cite \"1\" \"q\"\n  forbid on move when {cond}\n}}\n"
        );
        let p = write(dir.path(), "t.rules", &text);
        let o = arbiter(&["rules", "check", &p]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{op}: {err}");
        assert!(
            err.contains("error: expression more than 128 operators deep"),
            "{op}: {err}"
        );
        assert!(err.contains("t.rules:4:"), "{op}: {err}");
    }
}

/// A folder of `n` copies of a sample game, for a run long enough to be
/// stopped in the middle.
fn many_games(dir: &Path, n: usize) -> std::path::PathBuf {
    let game = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/kasparov-deep-junior-2003.pgn"),
    )
    .unwrap();
    let games = dir.join("games");
    std::fs::create_dir(&games).unwrap();
    std::fs::write(games.join("many.pgn"), format!("{game}\n").repeat(n)).unwrap();
    games
}

/// Wait until `found` holds (at most 60 s), then send SIGTERM to `child`;
/// its exit status and standard error.
fn terminate_when(
    child: &mut std::process::Child,
    found: impl Fn() -> bool,
) -> (Option<i32>, String) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !found() {
        assert!(
            std::time::Instant::now() < deadline,
            "the run never reached the point to stop it at"
        );
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            panic!("the run ended ({status}) before it could be stopped: {err}");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    (status.code(), err)
}

/// The names in `dir` that start with `prefix` or end with `suffix`.
fn names(dir: &Path, prefix: &str, suffix: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.starts_with(prefix) && n.ends_with(suffix))
                .collect()
        })
        .unwrap_or_default()
}

/// SIGTERM while a report is being written (`batch` writes its
/// `audit.jsonl` as the games are audited): exit 130, and neither the report
/// nor its temporary file is left in `--out`.
#[test]
fn a_signal_during_a_batch_leaves_no_partial_report() {
    let dir = tempfile::tempdir().unwrap();
    let games = many_games(dir.path(), 3000);
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "batch",
            games.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (code, err) = terminate_when(&mut child, || !names(&out, ".", ".part").is_empty());
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("arbiter: interrupted"), "{err}");
    let left: Vec<String> = names(&out, "", "");
    assert!(left.is_empty(), "left in --out: {left:?}");
}

/// SIGTERM while `audit --out` writes its folder (`audit.jsonl` line by
/// line, the dossiers' parts as the games come): exit 130, and nothing is
/// left in `--out`, neither a report, nor a temporary file, nor the folder
/// of boards and charts.
#[test]
fn a_signal_during_audit_out_leaves_no_partial_report() {
    let dir = tempfile::tempdir().unwrap();
    let games = many_games(dir.path(), 3000);
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "audit",
            games.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (code, err) = terminate_when(&mut child, || {
        names(&out, ".audit.jsonl.", ".part").len() == 1
            && names(&out, ".dossier-files.", ".part").len() == 1
    });
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("arbiter: interrupted"), "{err}");
    let left: Vec<String> = names(&out, "", "");
    assert!(left.is_empty(), "left in --out: {left:?}");
}

/// SIGTERM while `verify` re-runs a folder's audit: exit 130, and its
/// scratch folder is removed.
#[test]
fn a_signal_during_verify_removes_its_scratch_folder() {
    let dir = tempfile::tempdir().unwrap();
    let games = many_games(dir.path(), 300);
    let out = dir.path().join("out");
    let o = arbiter(&[
        "audit",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(out.join("audit.jsonl").is_file(), "{}", stdout(&o));
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["verify", out.to_str().unwrap()])
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (code, err) = terminate_when(&mut child, || {
        !names(&tmp, "arbiter-verify-", "").is_empty()
    });
    assert_eq!(code, Some(130), "{err}");
    let left = names(&tmp, "", "");
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

/// Past the first tags a duplicate is found by name, not along the list
/// (a tag section of a hundred thousand tags is read in linear time): a
/// duplicate of an early tag and one of a late tag are both still said.
#[test]
fn duplicate_tags_are_found_in_a_long_tag_section() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from(TAGS);
    for i in 0..40 {
        text.push_str(&format!("[X{i} \"v\"]\n"));
    }
    text.push_str(
        "[X3 \"again\"]\n[White \"again\"]\n[X39 \"again\"]\n[Result \"*\"]\n\n1. e4 *\n",
    );
    let p = write(dir.path(), "g.pgn", &text);
    let o = arbiter(&["audit", "--format", "json", &p]);
    let out = stdout(&o);
    let dups: Vec<&str> = out
        .lines()
        .flat_map(|l| l.split("\"code\":\"duplicate-tag\"").skip(1))
        .collect();
    assert_eq!(dups.len(), 3, "{out}");
    for name in ["X3", "White", "X39"] {
        assert!(
            out.contains(&format!("tag {name} appears more than once")),
            "{out}"
        );
    }
}

/// `record --pgn` names the replayed game's round in its log, so the log
/// joins that game: an engine's illegal `bestmove` there is then a finding
/// of the audit (it was a log that joined no game, and no finding).
#[test]
fn a_replayed_games_log_joins_it_and_an_illegal_bestmove_is_found() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let engine = dir.path().join("illegal.sh");
    std::fs::write(
        &engine,
        "#!/bin/bash\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name Illegal'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) echo 'bestmove e2e5' ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
    )
    .unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/kasparov-deep-junior-2003.pgn");
    let out = dir.path().join("rec");
    let o = arbiter(&[
        "record",
        "--engine",
        engine.to_str().unwrap(),
        "--pgn",
        game.to_str().unwrap(),
        "--side",
        "white",
        "--movetime",
        "10",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // the sample game has 38 plies, 19 of White's
    assert!(
        err.contains("arbiter record: 19 searches of the replayed game"),
        "{err}"
    );
    assert!(
        err.contains("warning: the engine's bestmove e2e5 at ply 1 is not legal in its position (19 such answers)"),
        "{err}"
    );
    let log = out.join("engine.log");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("# round: 5\n"), "{text}");
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        game.to_str().unwrap(),
        "--engine-log",
        log.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("\"code\":\"engine-log-inconsistent\""),
        "{out}"
    );
    assert!(out.contains("e2e5"), "{out}");
}

/// A game keeps at most 20,000 mainline moves (more than the 75-move rule
/// allows any game): the rest are counted in one error at the first of
/// them, and the replay stops there, so that a game's memory is bounded.
#[test]
fn moves_past_the_cap_are_counted_at_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = format!("{TAGS}[Result \"*\"]\n\n");
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for i in 0..20_010 {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(shuffle[i % 4]);
        text.push_str(if i % 20 == 19 { " {c} $1\n" } else { " " });
    }
    text.push_str("*\n");
    let p = write(dir.path(), "g.pgn", &text);
    let o = arbiter(&["audit", &p]);
    let out = stdout(&o);
    assert!(
        out.contains("the game has 10 more moves than the 20000 arbiter reads for one game"),
        "{}",
        &out[..out.len().min(3000)]
    );
    // the first move not read: White's 10001st, the first of its line (six
    // tags, Result, a blank line, then 1,000 lines of 20 plies)
    assert!(
        out.contains("replay stopped before ply 20001"),
        "{}",
        &out[..out.len().min(3000)]
    );
    assert!(
        out.contains(&format!("g.pgn:{}:8 (ply 20001)", 6 + 1 + 1 + 1000 + 1)),
        "{}",
        &out[..out.len().min(3000)]
    );
    assert!(
        out.contains("(20000 plies, replay stopped)"),
        "{}",
        &out[..out.len().min(3000)]
    );
}

/// Castling written with zeros (`0-0`, `0-0-0+`), which the reader takes
/// as castling, is a move to the scanner too: the game replays whole and
/// every later move keeps its own place (each took the next one's).
#[test]
fn castling_written_with_zeros_is_a_move_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{TAGS}[Result \"*\"]\n\n1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. 0-0-0 0-0-0 6. e3 e6 *\n"
    );
    let p = write(dir.path(), "g.pgn", &text);
    let o = arbiter(&["audit", &p]);
    let out = stdout(&o);
    assert!(out.contains("A - B * (12 plies)"), "{out}");
    assert!(out.contains("0 errors, 0 warnings"), "{out}");
    let o = arbiter(&["replay", &p]);
    let out = stdout(&o);
    // e3 is the eleventh ply, on the movetext line (the ninth)
    let col = text.lines().nth(8).unwrap().find("e3").unwrap() + 1;
    assert!(
        out.contains(&format!("ply 11: 6. e3  [line 9:{col}]")),
        "{out}"
    );
    assert!(out.contains("ply 9: 5. O-O-O  [line 9:"), "{out}");
}

/// An engine log and an operator log whose round no game has are said,
/// listed as unreadable and the run exits 2 (they joined no game and were
/// dropped with exit 0).
#[test]
fn a_log_that_joins_no_game_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/kasparov-deep-junior-2003.pgn");
    let elog = write(
        dir.path(),
        "engine.log",
        "# side: white\n# round: 9\n2026-11-22T12:09:04.749Z > uci\n",
    );
    let olog = write(
        dir.path(),
        "operator.log",
        "2003-01-26T15:00:00-05:00 levy setup machine_side=black round=8\n",
    );
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        game.to_str().unwrap(),
        "--engine-log",
        &elog,
        "--operator-log",
        &olog,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for (log, round) in [("engine.log", 9), ("operator.log", 8)] {
        assert!(
            err.contains(&format!("{log}: joined no game: it names round {round}, and no game audited has that Round tag")),
            "{err}"
        );
    }
    let out = stdout(&o);
    let summary: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(summary["unreadable"].as_array().unwrap().len(), 2, "{out}");
}
