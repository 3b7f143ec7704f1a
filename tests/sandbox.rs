//! A stranger's case folder is a sandbox: every path its `case.json` names
//! stays inside it (no absolute path, no `..` out, no link out), only
//! regular files are read (a FIFO or a device is refused, never opened), a
//! folder walk follows no link to a folder, no input is overwritten, and
//! a file name reaches the terminal with its control characters replaced.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{arbiter, arbiter_in, stdout};

const SECRET: &str = "SECRET-LINE-OF-AN-OUTSIDE-FILE";

/// Run arbiter in `dir` with `env`, killed (and the test failed) after
/// 30 seconds: a FIFO opened would block it for ever.
fn timed(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    c.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().expect("arbiter runs");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("arbiter {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn mkfifo(p: &Path) {
    let ok = Command::new("mkfifo").arg(p).status().unwrap().success();
    assert!(ok, "mkfifo {}", p.display());
}

/// A folder beside the case holding a secret file, and a case folder
/// (a copy of a clean TCEC case) whose `case.json` is `case_json`.
fn case_with(case_json: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let s = t.path().join("s");
    std::fs::create_dir(&s).unwrap();
    let secret = s.join("secret.txt");
    std::fs::write(&secret, format!("{SECRET}\n")).unwrap();
    let case = t.path().join("case");
    std::fs::create_dir(&case).unwrap();
    for f in ["game.pgn", "debug.log"] {
        std::fs::copy(format!("samples/tcec-s15/clean/{f}"), case.join(f)).unwrap();
    }
    let json = case_json.replace("SECRET", secret.to_str().unwrap());
    std::fs::write(case.join("case.json"), json).unwrap();
    (t, case, secret)
}

/// The audit of a case folder: exit status 2, the message said, and not a
/// word of the secret anywhere.
fn refused(case: &Path, said: &str) -> String {
    let out = tempfile::tempdir().unwrap();
    let dossier = out.path().join("r");
    let o = timed(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &[
            "audit",
            case.to_str().unwrap(),
            "--format",
            "json",
            "--out",
            dossier.to_str().unwrap(),
        ],
        &[],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(said), "{err}");
    assert!(
        !err.contains(SECRET) && !stdout(&o).contains(SECRET),
        "{err}"
    );
    for f in ["audit.jsonl", "dossier.html", "dossier.md"] {
        let text = std::fs::read_to_string(dossier.join(f)).unwrap();
        assert!(!text.contains(SECRET), "{f}");
    }
    err
}

/// An absolute path in `case.json` is refused, whatever the key.
#[test]
fn an_absolute_path_is_refused() {
    for (key, json) in [
        (
            "operator_logs",
            r#"{"ruleset": "tcec-s15", "operator_logs": ["SECRET"]}"#,
        ),
        ("ruleset", r#"{"ruleset": "SECRET"}"#),
        ("game", r#"{"ruleset": "tcec-s15", "game": "SECRET"}"#),
    ] {
        let (_t, case, secret) = case_with(json);
        let err = refused(&case, "is an absolute path; refused");
        assert!(
            err.contains(&format!("{key} {:?}", secret.to_str().unwrap())),
            "{err}"
        );
    }
}

/// A `..` that leaves the folder is refused; one that stays inside is not.
#[test]
fn a_path_leaving_the_folder_is_refused() {
    let (_t, case, _) =
        case_with(r#"{"ruleset": "tcec-s15", "operator_logs": ["../s/secret.txt"]}"#);
    let err = refused(
        &case,
        "operator_logs \"../s/secret.txt\" leaves the case folder; refused",
    );
    assert!(err.contains("case.json"), "{err}");
    let (_t, case, _) = case_with(r#"{"ruleset": "tcec-s15", "game": "x/../game.pgn"}"#);
    std::fs::create_dir(case.join("x")).unwrap();
    let o = arbiter(&["audit", case.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A link that leads out of the folder is refused, named or a default
/// log; a link inside it is read.
#[test]
fn a_link_out_of_the_folder_is_refused() {
    let (_t, case, secret) = case_with(r#"{"ruleset": "tcec-s15", "operator_logs": ["op.log"]}"#);
    symlink(&secret, case.join("op.log")).unwrap();
    refused(
        &case,
        "operator_logs \"op.log\" is a link to a file outside the case folder",
    );
    // the default engine log, a link out
    let (_t, case, secret) = case_with(r#"{"ruleset": "tcec-s15"}"#);
    symlink(&secret, case.join("engine.log")).unwrap();
    refused(
        &case,
        "\"engine.log\" is a link to a file outside the case folder",
    );
    // a folder inside that links out
    let (t, case, _) = case_with(r#"{"ruleset": "tcec-s15", "operator_logs": ["in/secret.txt"]}"#);
    symlink(t.path().join("s"), case.join("in")).unwrap();
    refused(&case, "is a link to a file outside the case folder");
    // a link inside the folder is followed
    let (_t, case, _) = case_with(r#"{"ruleset": "tcec-s15", "game": "g.pgn"}"#);
    symlink("game.pgn", case.join("g.pgn")).unwrap();
    let o = arbiter(&["audit", case.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A FIFO named as a PGN is refused unopened, on the command line and in
/// a folder walk, where the good file beside it is audited all the same.
#[test]
fn a_fifo_as_pgn_is_refused_and_the_rest_goes_on() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("games");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy("samples/tcec-style.pgn", dir.join("a.pgn")).unwrap();
    mkfifo(&dir.join("b.pgn"));
    let o = timed(t.path(), &["audit", "games/b.pgn"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("games/b.pgn: not a regular file (a FIFO); refused"),
        "{}",
        stderr(&o)
    );
    let o = timed(t.path(), &["audit", "games", "--format", "json"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("games/b.pgn: not a regular file (a FIFO)"));
    let games = stdout(&o)
        .lines()
        .filter(|l| l.starts_with("{\"type\":\"game\""))
        .count();
    assert_eq!(games, 2, "the good file's two games");
    let o = timed(t.path(), &["batch", "games", "--out", "b"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("games/b.pgn: not a regular file (a FIFO)"));
    let jsonl = std::fs::read_to_string(t.path().join("b/audit.jsonl")).unwrap();
    assert!(jsonl.contains("\"unreadable\""), "{jsonl}");
}

/// A FIFO as `case.json`, as a ruleset (by case and by `--rules`) or as a
/// log is refused unopened.
#[test]
fn a_fifo_as_case_file_or_ruleset_is_refused() {
    let (_t, case, _) = case_with("{}");
    std::fs::remove_file(case.join("case.json")).unwrap();
    mkfifo(&case.join("case.json"));
    refused(&case, "case.json: not a regular file (a FIFO); refused");
    let (_t, case, _) = case_with(r#"{"ruleset": "r.rules"}"#);
    mkfifo(&case.join("r.rules"));
    refused(&case, "r.rules: not a regular file (a FIFO); refused");
    let o = timed(
        case.parent().unwrap(),
        &["audit", "case/game.pgn", "--rules", "case/r.rules"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("case/r.rules: not a regular file (a FIFO)"),
        "{}",
        stderr(&o)
    );
}

/// `/dev/zero` linked as `x.pgn` is refused: on the command line, in a
/// walk, and as a case's game.
#[test]
fn dev_zero_as_pgn_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("games");
    std::fs::create_dir(&dir).unwrap();
    symlink("/dev/zero", dir.join("x.pgn")).unwrap();
    std::fs::copy("samples/tcec-style.pgn", dir.join("y.pgn")).unwrap();
    let o = timed(t.path(), &["audit", "games/x.pgn"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("games/x.pgn: not a regular file (a device); refused"));
    let o = timed(t.path(), &["audit", "games", "--format", "json"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("games/x.pgn: not a regular file (a device)"));
    assert_eq!(stdout(&o).matches("{\"type\":\"game\"").count(), 2);
    let (_t, case, _) = case_with(r#"{"ruleset": "tcec-s15", "game": "z.pgn"}"#);
    symlink("/dev/zero", case.join("z.pgn")).unwrap();
    refused(&case, "is a link to a file outside the case folder");
}

/// `ln -s . L/self`: the walk does not follow the link, says so, and
/// every game is audited once (audit and batch). A link to a PGN file
/// inside the folder already read is not read twice.
#[test]
fn a_link_loop_is_walked_once() {
    let t = tempfile::tempdir().unwrap();
    let l = t.path().join("L");
    std::fs::create_dir(&l).unwrap();
    std::fs::copy("samples/tcec-style.pgn", l.join("a.pgn")).unwrap();
    symlink(".", l.join("self")).unwrap();
    symlink("..", l.join("up")).unwrap();
    symlink("a.pgn", l.join("b.pgn")).unwrap();
    let o = timed(t.path(), &["audit", "L", "--format", "json"], &[]);
    let err = stderr(&o);
    assert_ne!(o.status.code(), Some(2), "{err}");
    let lines = stdout(&o);
    let summary: serde_json::Value = serde_json::from_str(lines.lines().last().unwrap()).unwrap();
    assert_eq!(summary["games"], 2, "{summary}");
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [
            "arbiter: warning: L/b.pgn: a link to a file read already, skipped",
            "arbiter: warning: L/self: a link to a folder, not followed",
            "arbiter: warning: L/up: a link to a folder, not followed",
        ]
    );
    let o = timed(t.path(), &["batch", "L", "--out", "b"], &[]);
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    let jsonl = std::fs::read_to_string(t.path().join("b/audit.jsonl")).unwrap();
    assert_eq!(jsonl.matches("{\"type\":\"game\"").count(), 2);
}

/// An output that is an input, or would replace one, is refused and the
/// input is left as it was.
#[test]
fn out_on_an_input_is_refused() {
    let t = tempfile::tempdir().unwrap();
    std::fs::copy("samples/tcec-style.pgn", t.path().join("g.pgn")).unwrap();
    let before = std::fs::read(t.path().join("g.pgn")).unwrap();
    let o = arbiter_in(t.path(), &["audit", "g.pgn", "--out", "g.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("g.pgn: is an input of this run; refused"),
        "{}",
        stderr(&o)
    );
    let o = arbiter_in(t.path(), &["batch", "g.pgn", "--out", "g.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("g.pgn: is an input of this run; refused"));
    // an input the batch's folder would replace: its summary
    std::fs::create_dir(t.path().join("o")).unwrap();
    std::fs::copy("samples/tcec-style.pgn", t.path().join("o/summary.md")).unwrap();
    let o = arbiter_in(t.path(), &["batch", "o/summary.md", "--out", "o"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("o: the run would replace o/summary.md, one of its inputs; refused"),
        "{}",
        stderr(&o)
    );
    let o = arbiter_in(t.path(), &["audit", "o/summary.md", "--out", "o"]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "the dossier does not write summary.md"
    );
    assert_eq!(std::fs::read(t.path().join("g.pgn")).unwrap(), before);
    // `record --out` over a recorded case, without --force
    std::fs::write(t.path().join("o/engine.log"), "kept\n").unwrap();
    let o = arbiter_in(
        t.path(),
        &["record", "--engine", "/bin/false", "--out", "o"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("o/engine.log: exists; refused (give --force to replace it)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(t.path().join("o/engine.log")).unwrap(),
        "kept\n"
    );
}

/// `chart g.pgn --out g.pgn` is refused even with --force; an existing
/// chart is replaced only with --force.
#[test]
fn chart_over_its_input_is_refused() {
    let t = tempfile::tempdir().unwrap();
    std::fs::copy("samples/tcec-style.pgn", t.path().join("g.pgn")).unwrap();
    let before = std::fs::read(t.path().join("g.pgn")).unwrap();
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/tcec-s15.rules");
    let chart = |out: &str, force: bool| {
        let mut a = vec![
            "chart",
            "g.pgn",
            "--rules",
            rules.to_str().unwrap(),
            "--out",
            out,
        ];
        if force {
            a.push("--force");
        }
        arbiter_in(t.path(), &a)
    };
    for force in [false, true] {
        let o = chart("g.pgn", force);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("arbiter chart: g.pgn: is an input of this run; refused"));
    }
    assert_eq!(std::fs::read(t.path().join("g.pgn")).unwrap(), before);
    assert_eq!(chart("c.svg", false).status.code(), Some(0));
    let o = chart("c.svg", false);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("c.svg: exists; refused (give --force to replace it)"));
    assert_eq!(chart("c.svg", true).status.code(), Some(0));
    let svg = std::fs::read_to_string(t.path().join("c.svg")).unwrap();
    assert!(svg.starts_with("<svg"));
}

/// The names of the entries of `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// verify's scratch folder is removed when it reproduces and when it
/// fails; a report whose invocation names `/dev/zero` is refused, not read
/// for ever.
#[test]
fn verify_removes_its_scratch_and_refuses_dev_zero() {
    let t = tempfile::tempdir().unwrap();
    let tmp = t.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let env = [("TMPDIR", tmp.as_path())];
    std::fs::copy("samples/tcec-style.pgn", t.path().join("g.pgn")).unwrap();
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/tcec-s15.rules");
    let rules = rules.to_str().unwrap();
    let o = arbiter_in(
        t.path(),
        &["batch", "g.pgn", "--rules", rules, "--out", "b"],
    );
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = timed(t.path(), &["verify", "b"], &env);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("verdict: reproduced"));
    assert_eq!(
        names(&tmp),
        Vec::<String>::new(),
        "the scratch folder is gone"
    );
    // a rerun that fails: a shard no batch can run
    let jsonl = std::fs::read_to_string(t.path().join("b/audit.jsonl")).unwrap();
    let bad = jsonl.replace("\"shard\":null", "\"shard\":\"0/0\"");
    assert_ne!(bad, jsonl);
    std::fs::write(t.path().join("bad.jsonl"), bad).unwrap();
    let o = timed(t.path(), &["verify", "bad.jsonl"], &env);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(names(&tmp), Vec::<String>::new(), "removed on failure too");
    // an invocation that names /dev/zero
    let o = arbiter_in(
        t.path(),
        &["audit", "g.pgn", "--rules", rules, "--format", "json"],
    );
    let zero = stdout(&o).replace("\"g.pgn\"", "\"/dev/zero\"");
    std::fs::write(t.path().join("zero.jsonl"), zero).unwrap();
    let o = timed(t.path(), &["verify", "zero.jsonl"], &env);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("MISSING  input /dev/zero: not a regular file (a device); refused"),
        "{out}"
    );
    assert!(out.contains("verdict: NOT reproduced"), "{out}");
}

/// A case folder names a shipped ruleset by name: its reports name it
/// `rulesets/<name>.rules` with the file's SHA-256, from any folder, and
/// verify checks it against the text built in where that path is not.
#[test]
fn a_shipped_ruleset_by_name() {
    let (t, case, _) = case_with(r#"{"ruleset": "tcec-s15", "engine_logs": ["debug.log"]}"#);
    let o = arbiter_in(t.path(), &["audit", "case", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(t.path().join("r.jsonl"), &o.stdout).unwrap();
    let summary: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    let rs = summary["logs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kind"] == "ruleset")
        .unwrap();
    assert_eq!(rs["path"], "rulesets/tcec-s15.rules");
    let text = std::fs::read("rulesets/tcec-s15.rules").unwrap();
    assert_eq!(rs["sha256"], arbiter::base::digest::sha256_hex(&text));
    assert!(!case.join("rulesets").exists());
    let o = arbiter_in(t.path(), &["verify", "r.jsonl"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("same     ruleset rulesets/tcec-s15.rules"),
        "{out}"
    );
}

/// A name that is no shipped ruleset is refused, listing those shipped.
#[test]
fn an_unknown_ruleset_name_lists_the_shipped() {
    let (_t, case, _) = case_with(r#"{"ruleset": "tcec-s99"}"#);
    refused(
        &case,
        "ruleset \"tcec-s99\" is not a shipped ruleset (shipped: icga-2008, kasparov-deep-blue-1996, kasparov-deep-junior-2003, managers, tcec-s15, wccc-1992-madrid)",
    );
}

/// File names from `case.json` and from the command line reach the
/// terminal with ESC, BEL and NUL replaced.
#[test]
fn control_characters_in_names_are_escaped() {
    let (_t, case, _) =
        case_with(r#"{"ruleset": "tcec-s15", "game": "g\u001b[2J\u0007\u0000.pgn"}"#);
    let o = arbiter(&["audit", case.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("g\u{FFFD}[2J\u{FFFD}"), "{err:?}");
    assert!(!err.contains(['\u{1b}', '\u{7}', '\0']), "{err:?}");
    // a walked file whose name holds ESC, in the text report and its bar
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir(t.path().join("d")).unwrap();
    std::fs::copy("samples/tcec-style.pgn", t.path().join("d/e\u{1b}[31m.pgn")).unwrap();
    std::fs::write(t.path().join("d/f\u{7}.pgn"), [0xff, 0xfe, 0]).unwrap();
    let o = arbiter_in(t.path(), &["audit", "d", "--verbose"]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(out.contains("e\u{FFFD}[31m.pgn"), "{out}");
    assert!(
        !out.contains(['\u{1b}', '\u{7}']) && !err.contains(['\u{1b}', '\u{7}']),
        "{out}{err:?}"
    );
}

/// A ruleset over the size limit is refused, naming its size.
#[test]
fn a_ruleset_over_the_limit_is_refused_early() {
    let t = tempfile::tempdir().unwrap();
    let big = t.path().join("big.rules");
    std::fs::write(&big, vec![b' '; 5 << 20]).unwrap();
    let o = arbiter_in(t.path(), &["audit", "/dev/null", "--rules", "big.rules"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("big.rules: ruleset is 5242880 bytes; at most 4194304 are accepted"),
        "{}",
        stderr(&o)
    );
    let o = arbiter_in(t.path(), &["rules", "check", "big.rules"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("big.rules: ruleset is 5242880 bytes; at most 4194304 are accepted"),
        "{}",
        stderr(&o)
    );
}
