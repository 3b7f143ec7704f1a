//! Engine processes: on Ctrl-C (SIGINT) or SIGTERM, arbiter kills and
//! reaps every engine it started, even one that ignores signals, and says
//! so; an engine that crashes mid-search is reported and the run goes on.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A UCI engine in bash that ignores SIGINT and SIGTERM, writes its PID to
/// `pids/`, answers `uci` and `isready`, and then never answers `go` (it
/// keeps reading, so it uses no CPU). With `crash`, it exits on `go`.
fn fake_engine(dir: &Path, name: &str, crash: bool) -> PathBuf {
    let pids = dir.join("pids");
    std::fs::create_dir_all(&pids).unwrap();
    let on_go = if crash { "exit 3" } else { ":" };
    let script = format!(
        "#!/bin/bash\ntrap '' INT TERM\necho $$ > {pids}/$$\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
        pids = pids.display()
    );
    let p = dir.join(name);
    std::fs::write(&p, script).unwrap();
    Command::new("chmod").arg("+x").arg(&p).status().unwrap();
    p
}

fn pids(dir: &Path) -> Vec<u32> {
    std::fs::read_dir(dir.join("pids"))
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

fn alive(pid: u32) -> bool {
    // a reaped process is gone; a zombie would still answer kill -0, so
    // its state is read from /proc as well
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    !stat.is_empty() && !stat.contains(") Z ")
}

fn suite(dir: &Path, n: usize) -> PathBuf {
    let all = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/similarity/positions.epd"),
    )
    .unwrap();
    let p = dir.join("suite.epd");
    std::fs::write(
        &p,
        all.lines().take(n).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    p
}

#[test]
fn a_signal_stops_and_reaps_every_engine() {
    for signal in ["INT", "TERM"] {
        let dir = tempfile::tempdir().unwrap();
        let a = fake_engine(dir.path(), "stubborn-a", false);
        let b = fake_engine(dir.path(), "stubborn-b", false);
        let positions = suite(dir.path(), 4);
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args([
                "similarity",
                "--positions",
                positions.to_str().unwrap(),
                "--movetime",
                "100000",
                "--threads",
                "2",
                "--runs",
                "1",
                "--out",
                dir.path().join("out").to_str().unwrap(),
                "--engine",
                &format!("a={}", a.display()),
                "--engine",
                &format!("b={}", b.display()),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // both engines started and are searching
        let deadline = Instant::now() + Duration::from_secs(30);
        while pids(dir.path()).len() < 2 {
            assert!(Instant::now() < deadline, "the engines did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(300));
        let engines = pids(dir.path());
        assert!(engines.iter().all(|&p| alive(p)));
        Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(130), "SIG{signal}: {err}");
        assert!(
            err.contains("interrupted; 2 engines stopped, 2 processes killed"),
            "{err}"
        );
        for p in engines {
            assert!(!alive(p), "SIG{signal}: engine {p} is still running");
        }
    }
}

#[test]
fn an_engine_that_crashes_mid_search_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let crash = fake_engine(dir.path(), "crasher", true);
    let pgn = dir.path().join("g.pgn");
    std::fs::write(
        &pgn,
        "[Event \"E\"]\n[White \"crasher\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n",
    )
    .unwrap();
    let out = dir.path().join("rec");
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "record",
            "--engine",
            crash.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
            "--side",
            "white",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ended while arbiter waited for `bestmove`: exit status 3"),
        "{err}"
    );
    for p in pids(dir.path()) {
        assert!(!alive(p));
    }
}
