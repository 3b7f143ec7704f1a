//! Engine process groups: an engine started through a wrapper script that
//! does not `exec`, which forks a helper of its own, leaves no process
//! behind after a timeout, a signal or a clean run (checked with `ps`);
//! the count arbiter says is true; a signal during `record` always exits
//! 130; a failed `record` keeps its log up to the failure, and the log
//! parses; exit statuses are said in words; an engine's output is
//! bounded; `similarity` refuses answers it cannot trust and illegal
//! moves; `--bootstrap` and `--threads` are bounded.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// What a fake engine does on `go`.
#[derive(Clone, Copy)]
enum OnGo {
    /// Never answer (it keeps reading).
    Hang,
    /// Answer this move.
    Answer(&'static str),
    /// Exit with status 3.
    Crash,
    /// Kill itself with SIGUSR1 (whose default ends it, with no core).
    Usr1,
    /// Write a line of 100,000 bytes.
    LongLine,
    /// Write `info string xxx…` lines of 60,000 bytes without end.
    Flood,
}

/// A UCI engine in bash that ignores SIGINT and SIGTERM, writes its PID to
/// `pids/`, forks a helper (`sleep 1000` named `arbiter-helper-MARK`),
/// answers `uci` and `isready`, and does `on_go` on `go`. Started through
/// `NAME` (a `/bin/sh` script that runs the engine as its child, without
/// `exec`), or directly as `NAME.engine`.
fn fake_engine(dir: &Path, name: &str, on_go: OnGo) -> PathBuf {
    let pids = dir.join("pids");
    std::fs::create_dir_all(&pids).unwrap();
    let go = match on_go {
        OnGo::Hang => ":".to_string(),
        OnGo::Answer(mv) => {
            format!("echo 'info depth 1 score cp 10 pv {mv}'; echo 'bestmove {mv}'")
        }
        OnGo::Crash => "exit 3".into(),
        OnGo::Usr1 => "kill -USR1 $$".into(),
        OnGo::LongLine => "head -c 100000 /dev/zero | tr '\\0' x; echo".into(),
        OnGo::Flood => "yes \"info string $(head -c 60000 /dev/zero | tr '\\0' x)\"".into(),
    };
    let engine = format!(
        "#!/bin/bash\ntrap '' INT TERM\necho $$ > {pids}/$$\n(exec -a arbiter-helper-{mark} sleep 1000) &\n\
         while read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    \
         isready) echo readyok ;;\n    go*) {go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
        pids = pids.display(),
        mark = mark(dir),
    );
    let real = dir.join(format!("{name}.engine"));
    std::fs::write(&real, engine).unwrap();
    let wrapper = dir.join(name);
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\n{} \"$@\"\nstatus=$?\nexit $status\n",
            real.display()
        ),
    )
    .unwrap();
    for p in [&real, &wrapper] {
        Command::new("chmod").arg("+x").arg(p).status().unwrap();
    }
    wrapper
}

/// What names this test's processes in `ps`: its folder's last part.
fn mark(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

/// The processes left that belong to this test's folder (engines, their
/// wrappers, their helpers; not arbiter), as `ps -eo pid,pgid,stat,args`
/// shows them; zombies (waiting for init) do not count.
fn left(dir: &Path) -> Vec<String> {
    let o = Command::new("ps")
        .args(["-eo", "pid,pgid,stat,args"])
        .output()
        .unwrap();
    let m = mark(dir);
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.contains(&m) && !l.contains(env!("CARGO_BIN_EXE_arbiter")))
        .filter(|l| {
            l.split_whitespace()
                .nth(2)
                .is_some_and(|s| !s.starts_with('Z'))
        })
        .map(str::to_string)
        .collect()
}

/// Wait until no process of this test is left (a killed process may take
/// a moment to go); the ones still there after 3 s.
fn left_after_a_moment(dir: &Path) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let l = left(dir);
        if l.is_empty() || Instant::now() > deadline {
            return l;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn game(dir: &Path) -> PathBuf {
    let pgn = dir.join("g.pgn");
    std::fs::write(
        &pgn,
        "[Event \"E\"]\n[Round \"1\"]\n[White \"fake\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n",
    )
    .unwrap();
    pgn
}

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

/// `record --pgn` of [`game`] with `engine` as white.
fn record(dir: &Path, engine: &Path, movetime: &str) -> Command {
    let mut c = arbiter();
    c.args(["record", "--engine"])
        .arg(engine)
        .arg("--pgn")
        .arg(game(dir))
        .args(["--side", "white", "--movetime", movetime, "--out"])
        .arg(dir.join("rec"))
        .arg("--force");
    c
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The engine log `record` wrote, checked to parse: `arbiter audit`
/// reads it beside the game with no `engine-log-syntax` finding.
fn parsed_log(dir: &Path) -> String {
    let log = dir.join("rec/engine.log");
    let text = std::fs::read_to_string(&log).expect("record left no engine.log");
    let o = arbiter()
        .args(["audit", "--format", "json"])
        .arg(dir.join("g.pgn"))
        .arg("--engine-log")
        .arg(&log)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.code() == Some(0) || o.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.contains("engine-log-syntax"), "{out}");
    text
}

/// A running arbiter, stopped (SIGTERM, so that it stops its engines) if
/// a failed assertion leaves it running.
struct Running(Child);

impl std::ops::Deref for Running {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Running {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            signal(&self.0, "TERM");
            let _ = self.0.wait();
        }
    }
}

/// Start `c` with its standard error piped, and wait until the engine has
/// started and its helper runs.
fn started(dir: &Path, c: &mut Command) -> Running {
    let child = Running(
        c.stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while !left(dir).iter().any(|l| l.contains("arbiter-helper-")) {
        assert!(Instant::now() < deadline, "the engine did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    // and it is waiting for `bestmove`
    std::thread::sleep(Duration::from_millis(300));
    child
}

fn signal(child: &Child, sig: &str) {
    Command::new("kill")
        .args([&format!("-{sig}"), &child.id().to_string()])
        .status()
        .unwrap();
}

fn finished(mut child: Running) -> (Option<i32>, String) {
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    (status.code(), err)
}

#[test]
fn a_timeout_stops_the_whole_group_and_the_log_keeps_the_failure() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine(dir.path(), "hanger", OnGo::Hang);
    // the search's timeout is 3 × movetime + 3 s
    let o = record(dir.path(), &engine, "1").output().unwrap();
    let err = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("did not answer `bestmove` within 3.003s"),
        "{err}"
    );
    assert!(err.contains("rec/engine.log"), "{err}");
    assert_eq!(left_after_a_moment(dir.path()), Vec::<String>::new());
    let log = parsed_log(dir.path());
    assert!(log.contains("< uciok"), "{log}");
    assert!(log.contains("> go movetime 1"), "{log}");
    assert!(log.contains("! exit killed"), "{log}");
    let last = log.lines().last().unwrap();
    assert!(
        last.starts_with("# failed: engine") && last.contains("did not answer `bestmove`"),
        "{log}"
    );
}

#[test]
fn sigint_stops_the_wrapper_the_engine_and_its_helper_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine(dir.path(), "hanger", OnGo::Hang);
    let child = started(dir.path(), &mut record(dir.path(), &engine, "100000"));
    // the wrapper, the engine and its helper, in one group
    let procs = left(dir.path());
    assert_eq!(procs.len(), 3, "{procs:?}");
    let groups: Vec<&str> = procs
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert!(groups.iter().all(|g| *g == groups[0]), "{procs:?}");
    signal(&child, "INT");
    let (code, err) = finished(child);
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(
        err.trim(),
        "arbiter: interrupted; 1 engine stopped, 3 processes killed"
    );
    assert_eq!(left_after_a_moment(dir.path()), Vec::<String>::new());
}

#[test]
fn sigterm_during_record_always_exits_130_and_reports_no_crash() {
    for _ in 0..4 {
        let dir = tempfile::tempdir().unwrap();
        let engine = fake_engine(dir.path(), "hanger", OnGo::Hang);
        let child = started(dir.path(), &mut record(dir.path(), &engine, "100000"));
        signal(&child, "TERM");
        let (code, err) = finished(child);
        assert_eq!(code, Some(130), "{err}");
        assert!(
            err.starts_with("arbiter: interrupted; 1 engine stopped"),
            "{err}"
        );
        assert!(!err.contains("ended") && !err.contains("exited"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(left_after_a_moment(dir.path()), Vec::<String>::new());
    }
}

#[test]
fn a_clean_run_leaves_no_helper_behind() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine(dir.path(), "mover", OnGo::Answer("e2e4"));
    let o = record(dir.path(), &engine, "10").output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(left_after_a_moment(dir.path()), Vec::<String>::new());
    let log = parsed_log(dir.path());
    assert_eq!(log.matches("< bestmove e2e4").count(), 2, "{log}");
    assert!(log.contains("# engine: mover"), "{log}");
    assert!(log.trim_end().ends_with("! exit 0"), "{log}");
}

#[test]
fn an_engine_s_end_is_said_in_words() {
    let dir = tempfile::tempdir().unwrap();
    fake_engine(dir.path(), "crasher", OnGo::Crash);
    fake_engine(dir.path(), "usr1", OnGo::Usr1);
    // started directly, not through the wrapper, its own status shows
    let o = record(dir.path(), &dir.path().join("crasher.engine"), "10")
        .output()
        .unwrap();
    let err = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ended while arbiter waited for `bestmove`: exit status 3"),
        "{err}"
    );
    assert!(!err.contains("Some("), "{err}");
    let log = parsed_log(dir.path());
    assert!(log.contains("! exit 3"), "{log}");
    let o = record(dir.path(), &dir.path().join("usr1.engine"), "10")
        .output()
        .unwrap();
    let err = text(&o);
    assert!(err.contains(": killed by signal 10"), "{err}");
    assert_eq!(left_after_a_moment(dir.path()), Vec::<String>::new());
}

#[test]
fn an_illegal_move_in_a_played_game_keeps_both_logs_up_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let white = fake_engine(dir.path(), "illegal", OnGo::Answer("e2e5"));
    let black = fake_engine(dir.path(), "other", OnGo::Answer("e7e5"));
    let o = arbiter()
        .args(["record", "--engine"])
        .arg(&white)
        .arg("--opponent")
        .arg(&black)
        .args(["--side", "white", "--movetime", "10", "--out"])
        .arg(dir.path().join("rec"))
        .output()
        .unwrap();
    let err = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("engine move \"e2e5\" is illegal"), "{err}");
    game(dir.path());
    let log = parsed_log(dir.path());
    assert!(log.contains("< bestmove e2e5"), "{log}");
    assert!(
        log.trim_end()
            .ends_with("# failed: engine move \"e2e5\" is illegal: illegal uci"),
        "{log}"
    );
    let opp = std::fs::read_to_string(dir.path().join("rec/opponent.log")).unwrap();
    assert!(
        opp.contains("< uciok") && opp.contains("# failed: "),
        "{opp}"
    );
    assert!(!dir.path().join("rec/game.pgn").exists());
    assert_eq!(left_after_a_moment(dir.path()), Vec::<String>::new());
}

#[test]
fn a_line_past_the_cap_stops_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine(dir.path(), "long", OnGo::LongLine);
    let o = record(dir.path(), &engine, "10").output().unwrap();
    let err = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("wrote a line longer than 64 KiB"), "{err}");
    let log = parsed_log(dir.path());
    assert!(log.len() < 10_000, "the long line is not kept");
    assert_eq!(left_after_a_moment(dir.path()), Vec::<String>::new());
}

#[test]
fn an_audit_stopped_by_a_signal_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    // enough games that the audit is still running when the signal comes
    let one = "[Event \"E\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n\
               1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n\n";
    let pgn = dir.path().join("many.pgn");
    std::fs::write(&pgn, one.repeat(200_000)).unwrap();
    let mut child = Running(
        arbiter()
            .arg("audit")
            .arg(&pgn)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the audit ended too soon"
    );
    signal(&child, "TERM");
    let (code, err) = finished(child);
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(err.trim(), "arbiter: interrupted; no engine was running");
}

/// A suite of three positions where e2e4 is legal.
fn suite(dir: &Path) -> PathBuf {
    let p = dir.join("suite.epd");
    std::fs::write(
        &p,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n\
         rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - id \"d4d5\";\n\
         rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - id \"nf3e5\";\n",
    )
    .unwrap();
    p
}

fn similarity(dir: &Path, positions: &Path, engines: &[(&str, &Path)]) -> Command {
    let mut c = arbiter();
    c.args(["similarity", "--positions"])
        .arg(positions)
        .args(["--depth", "1", "--runs", "1", "--out"])
        .arg(dir.join("out"));
    for (name, e) in engines {
        c.arg("--engine").arg(format!("{name}={}", e.display()));
    }
    c
}

fn answers(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("out/answers.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn similarity_keeps_no_illegal_move_survives_a_flood_and_leaves_no_engine() {
    let dir = tempfile::tempdir().unwrap();
    let good = fake_engine(dir.path(), "good", OnGo::Answer("e2e4"));
    let bad = fake_engine(dir.path(), "bad", OnGo::Answer("e2e5"));
    let flood = fake_engine(dir.path(), "flood", OnGo::Flood);
    let positions = suite(dir.path());
    let o = similarity(
        dir.path(),
        &positions,
        &[("good", &good), ("bad", &bad), ("flood", &flood)],
    )
    .output()
    .unwrap();
    let err = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(left_after_a_moment(dir.path()), Vec::<String>::new());
    let answers = answers(dir.path());
    let of = |e: &str| -> Vec<&serde_json::Value> {
        answers.iter().filter(|a| a["engine"] == e).collect()
    };
    assert!(of("good").iter().all(|a| a["bestmove"] == "e2e4"));
    assert_eq!(of("good").len(), 3);
    for a in of("bad") {
        assert!(a["bestmove"].is_null(), "{a}");
    }
    let said: Vec<&str> = of("bad")
        .iter()
        .filter_map(|a| a["error"].as_str())
        .collect();
    assert!(
        said[0].contains("bestmove \"e2e5\" is not a legal move in position start"),
        "{said:?}"
    );
    let flooded: Vec<&str> = of("flood")
        .iter()
        .filter_map(|a| a["error"].as_str())
        .collect();
    assert!(flooded[0].contains("wrote more than 64 MiB"), "{flooded:?}");
    // the report names its answers' SHA-256
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/similarity.json")).unwrap(),
    )
    .unwrap();
    let sha = report["answers_sha256"].as_str().unwrap().to_string();
    let bytes = std::fs::read(dir.path().join("out/answers.jsonl")).unwrap();
    assert_eq!(sha.len(), 64);
    assert_ne!(bytes.len(), 0);
}

#[test]
fn similarity_refuses_answers_it_cannot_trust() {
    let dir = tempfile::tempdir().unwrap();
    let a = fake_engine(dir.path(), "a", OnGo::Answer("e2e4"));
    let b = fake_engine(dir.path(), "b", OnGo::Answer("e2e4"));
    let positions = suite(dir.path());
    let run = |p: &Path| {
        similarity(dir.path(), p, &[("a", &a), ("b", &b)])
            .output()
            .unwrap()
    };
    let o = run(&positions);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // another suite in the same folder: its answers are not resumed
    let other = dir.path().join("other.epd");
    let text_of = std::fs::read_to_string(&positions).unwrap();
    std::fs::write(
        &other,
        text_of.lines().take(2).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    let o = run(&other);
    let err = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("answers.jsonl: its answers were made from another position suite"),
        "{err}"
    );
    // another command under the same name
    let o = similarity(dir.path(), &positions, &[("a", &b), ("b", &b)])
        .output()
        .unwrap();
    assert!(text(&o).contains("engine \"a\" run as"), "{}", text(&o));
    // answers with no provenance
    std::fs::remove_file(dir.path().join("out/provenance.json")).unwrap();
    let o = run(&positions);
    assert!(text(&o).contains("no provenance.json"), "{}", text(&o));
    // a reference whose answers were changed after its report
    std::fs::write(
        dir.path().join("out/answers.jsonl"),
        std::fs::read_to_string(dir.path().join("out/answers.jsonl"))
            .unwrap()
            .replacen("\"bestmove\":\"", "\"bestmove\":\"a1a1", 1),
    )
    .unwrap();
    let c = fake_engine(dir.path(), "c", OnGo::Answer("e2e4"));
    let o = arbiter()
        .args(["similarity", "--positions"])
        .arg(&positions)
        .args(["--depth", "1", "--runs", "1", "--out"])
        .arg(dir.path().join("new"))
        .arg("--engine")
        .arg(format!("c={}", c.display()))
        .arg("--reference")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let err = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the reference's answers were changed"),
        "{err}"
    );
}

#[test]
fn bootstrap_and_threads_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let positions = suite(dir.path());
    for (flag, value, says) in [
        ("--bootstrap", "18446744073709551615", "1..=10000"),
        ("--bootstrap", "100000000", "1..=10000"),
        ("--bootstrap", "0", "1..=10000"),
        ("--threads", "10000", "1..=64"),
        ("--threads", "0", "1..=64"),
    ] {
        let o = similarity(dir.path(), &positions, &[("a", Path::new("/bin/true"))])
            .args([flag, value])
            .output()
            .unwrap();
        let err = text(&o);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(
            err.contains(flag) && err.contains(says),
            "{flag} {value}: {err}"
        );
    }
}
