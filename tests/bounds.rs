//! Bounded reading and reproducible reports (issue 60): every log line
//! read with a cap, logs that are not regular files refused, a fit's games
//! capped, corrupt Syzygy tables reported the same under any environment
//! and as a run-level failure, CSV cells that a spreadsheet would run as a
//! formula defused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use super::{arbiter, json_lines};

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The clean Kasparov case: its game and its logs.
fn case(name: &str) -> PathBuf {
    here()
        .join("samples/kasparov-deep-junior-2003/clean")
        .join(name)
}

/// Run arbiter with `args`, killed if it takes over 60 s (a FIFO opened
/// would wait for a writer forever).
fn run_bounded(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(here())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!(
                "arbiter {args:?} did not end in 60 s: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The findings of `code` in a game line.
fn findings<'a>(game: &'a Value, code: &str) -> Vec<&'a Value> {
    game["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == code)
        .collect()
}

/// The first evidence's line of a finding.
fn line_of(f: &Value) -> u64 {
    f["evidence"][0]["span"]["line"].as_u64().unwrap()
}

/// An engine log line of 100 KiB: an `engine-log-syntax` finding at its
/// line saying what was expected, the line skipped, every other line read
/// as without it.
#[test]
fn an_engine_log_line_over_the_cap_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(case("engine.log")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let long = format!(
        "2026-11-22T12:15:27.389Z < info string {}",
        "x".repeat(100 << 10)
    );
    lines.insert(6, &long);
    let log = dir.path().join("engine.log");
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let game = case("game.pgn");
    let audit = |log: &Path| {
        let o = arbiter(&[
            "audit",
            "--format",
            "json",
            game.to_str().unwrap(),
            "--engine-log",
            log.to_str().unwrap(),
        ]);
        assert_ne!(
            o.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        json_lines(&o).remove(0)
    };
    let with = audit(&log);
    let syntax = findings(&with, "engine-log-syntax");
    assert_eq!(syntax.len(), 1, "{syntax:?}");
    assert_eq!(line_of(syntax[0]), 7);
    let message = syntax[0]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("a line of {} bytes", long.len()))
            && message.contains("over the 65536")
            && message.contains("expected a line of engine traffic"),
        "{message}"
    );
    // the rest of the log read as it is without the line
    let without = audit(&case("engine.log"));
    let others = |g: &Value| -> Vec<String> {
        g["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] != "engine-log-syntax")
            .map(|f| format!("{} {}", f["code"], f["message"]))
            .collect()
    };
    assert_eq!(others(&with), others(&without));
}

/// An operator log line over the cap: an `operator-log-syntax` finding at
/// its line, the other events read.
#[test]
fn an_operator_log_line_over_the_cap_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(case("operator.log")).unwrap();
    let n = text.lines().count();
    let log = dir.path().join("operator.log");
    std::fs::write(
        &log,
        format!(
            "{text}2003-01-26T20:00:00Z levy note text=\"{}\"\n",
            "y".repeat(70_000)
        ),
    )
    .unwrap();
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        case("game.pgn").to_str().unwrap(),
        "--operator-log",
        log.to_str().unwrap(),
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let game = json_lines(&o).remove(0);
    let syntax = findings(&game, "operator-log-syntax");
    assert_eq!(syntax.len(), 1, "{syntax:?}");
    assert_eq!(line_of(syntax[0]), n as u64 + 1);
    assert!(
        syntax[0]["message"].as_str().unwrap().contains(
            "over the 65536 a log line may have: expected `<timestamp> <operator> <event>"
        ),
        "{}",
        syntax[0]["message"]
    );
}

/// A device or a FIFO given as a log is refused from its metadata, at
/// once (a FIFO is never opened: that would wait for a writer).
#[test]
fn a_log_that_is_not_a_regular_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("engine.log");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let game = case("game.pgn");
    for (flag, path, what) in [
        ("--engine-log", Path::new("/dev/zero"), "a device"),
        ("--engine-log", fifo.as_path(), "a FIFO"),
        ("--operator-log", Path::new("/dev/zero"), "a device"),
        ("--operator-log", fifo.as_path(), "a FIFO"),
    ] {
        let o = run_bounded(
            &[
                "audit",
                game.to_str().unwrap(),
                flag,
                path.to_str().unwrap(),
            ],
            &[],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag} {}: {err}", path.display());
        assert!(
            err.contains(&format!(
                "{}: not a regular file ({what}); a log must be a regular file",
                path.display()
            )),
            "{err}"
        );
    }
}

/// `rules fit` holds at most a block of games' text (`FIT_BLOCK_BYTES`,
/// lowered here): a larger group is fitted in passes over its blocks, read
/// again from its files, to the same report byte for byte; `--per event`
/// too, whether its events are read together or a block at a time. And
/// `audit --fit` holds at most `MAX_FIT_BYTES`: past it (lowered here) a
/// file is audited under the text.
#[test]
fn a_fit_in_blocks_is_the_fit_held_whole() {
    let pgn = "tests/fixtures/fit/planted.pgn";
    let rules = ["--rules", "rulesets/tcec-s15.rules", "--format", "json"];
    let fit = |extra: &[&str], block: &str| {
        let mut args = vec!["rules", "fit"];
        args.extend(extra);
        args.extend(rules);
        let o = run_bounded(&args, &[("ARBITER_FIT_BLOCK_BYTES", block)]);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_ne!(o.status.code(), Some(2), "{err}");
        assert!(!o.stdout.is_empty(), "{err}");
        o.stdout
    };
    // planted.pgn is 397 kB: four blocks of 100 kB, or held whole
    let whole = fit(&[pgn], "100000000");
    assert_eq!(fit(&[pgn], "100000"), whole, "per file, in blocks");
    // three events: the first (172 kB) in two blocks and the other two
    // held together, or all three held together
    let files = [
        "tests/fixtures/fit/flat.pgn",
        "samples/icga-2008.pgn",
        "samples/tcec-style.pgn",
    ];
    let mut per_event = files.to_vec();
    per_event.extend(["--per", "event"]);
    let together = fit(&per_event, "100000000");
    assert_eq!(fit(&per_event, "100000"), together, "per event, in blocks");
    let text = String::from_utf8_lossy(&together);
    assert_eq!(text.lines().count(), 3, "{text}");
    // `audit --fit` and `batch --fit`: a file of more than a block is
    // fitted in blocks, then audited as it streams by again, to the same
    // reports as a file held whole (planted.pgn's fit departs from the
    // text, so the fit shows in every game)
    let audit = |block: &str| {
        let args = ["audit", "--fit", "--format", "json", pgn];
        let mut all: Vec<&str> = args.to_vec();
        all.extend(&rules[..2]);
        // its report is more than a pipe holds: read as it is written
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(&all)
            .env("ARBITER_FIT_BLOCK_BYTES", block)
            .current_dir(here())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(1), "{err}");
        o.stdout
    };
    let held = audit("100000000");
    assert_eq!(audit("100000"), held, "audit --fit, in blocks");
    assert!(String::from_utf8_lossy(&held).contains("\"rules-fit\""));
    let batch = |block: &str| {
        let out = tempfile::tempdir().unwrap();
        let dir = out.path().to_string_lossy().to_string();
        let mut all = vec!["batch", pgn, "--fit", "--out", &dir];
        all.extend(&rules[..2]);
        let o = run_bounded(&all, &[("ARBITER_FIT_BLOCK_BYTES", block)]);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_ne!(o.status.code(), Some(2), "{err}");
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(out.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                (name, std::fs::read(&p).unwrap())
            })
            .collect();
        files.sort();
        assert!(files.len() > 3, "{files:?}");
        files
    };
    assert!(
        batch("100000") == batch("100000000"),
        "batch --fit, in blocks"
    );
}

/// Copy of a few real tables into `dir`: KQvK, KRvK, KQRvK and KQRvKR, each WDL
/// and DTZ; `None` without `ARBITER_SYZYGY`.
pub fn copy_tables(dir: &Path) -> Option<()> {
    let Some(tb) = std::env::var_os("ARBITER_SYZYGY") else {
        eprintln!("skipping: ARBITER_SYZYGY is not set");
        return None;
    };
    for t in ["KQvK", "KRvK", "KQRvK", "KQRvKR"] {
        for ext in ["rtbw", "rtbz"] {
            let name = format!("{t}.{ext}");
            std::fs::copy(Path::new(&tb).join(&name), dir.join(&name)).unwrap();
        }
    }
    Some(())
}

/// Games that reach the tables' endings (a tablebase position at every
/// ply), adjudicated by the tables.
pub fn endgames() -> String {
    let mut s = String::new();
    for (i, (fen, moves)) in [
        ("8/8/8/8/8/2k5/8/KQ6 w - - 0 1", "1. Qb2+ Kc4 2. Qb3+ 1-0"),
        ("8/8/8/8/8/2k5/8/KR6 w - - 0 1", "1. Rb2 Kc4 2. Rb3 1-0"),
        (
            "8/8/8/8/8/2k5/3r4/KQ4R1 w - - 0 1",
            "1. Rg3+ Kc4 2. Qb3+ 1-0",
        ),
    ]
    .iter()
    .enumerate()
    {
        s.push_str(&format!(
            "[Event \"tables\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"{}\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n[TerminationDetails \"SyzygyTB\"]\n\n{moves}\n\n",
            i + 1
        ));
    }
    s
}

/// Corrupt tables: the audit's report is byte for byte the same under
/// `RUST_BACKTRACE=0` and `1` and on one thread or two, names the tables
/// (no backtrace, no source path), and the run says the tables could not
/// be read and exits 2 (an input could not be read: not everything was
/// checked). With the good tables, the same games are decided.
#[test]
fn corrupt_tables_give_the_same_report_under_any_environment() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tb");
    std::fs::create_dir(&tables).unwrap();
    if copy_tables(&tables).is_none() {
        return;
    }
    let pgn = dir.path().join("endgames.pgn");
    std::fs::write(&pgn, endgames()).unwrap();
    let audit = |envs: &[(&str, &str)], threads: &str| {
        let mut envs = envs.to_vec();
        envs.push(("RAYON_NUM_THREADS", threads));
        run_bounded(
            &[
                "audit",
                "--format",
                "json",
                "--rules",
                "rulesets/tcec-s15.rules",
                "--syzygy",
                tables.to_str().unwrap(),
                pgn.to_str().unwrap(),
            ],
            &envs,
        )
    };
    let good = audit(&[], "1");
    assert_ne!(
        good.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&good.stderr)
    );
    let good_text = String::from_utf8_lossy(&good.stdout).to_string();
    assert!(!good_text.contains("could not be probed"), "{good_text}");
    // corrupt copies: one cut to a size no table has (left out as the
    // folder is listed), another cut to a table's size (found corrupt when
    // it is probed: its error carried a backtrace)
    let cut = |name: &str, len: u64| {
        std::fs::OpenOptions::new()
            .write(true)
            .open(tables.join(name))
            .unwrap()
            .set_len(len)
            .unwrap();
    };
    cut("KQvK.rtbw", 100);
    cut("KQRvKR.rtbw", 4096 + 16);
    let runs = [
        audit(&[("RUST_BACKTRACE", "0")], "1"),
        audit(&[("RUST_BACKTRACE", "1")], "1"),
        audit(&[("RUST_BACKTRACE", "full")], "2"),
        audit(&[("RUST_BACKTRACE", "0")], "2"),
    ];
    let first = String::from_utf8_lossy(&runs[0].stdout).to_string();
    // the batch's folder, on one thread and two
    let batch = |backtrace: &str, threads: &str| {
        let out = dir.path().join(format!("batch-{backtrace}-{threads}"));
        let o = run_bounded(
            &[
                "batch",
                pgn.to_str().unwrap(),
                "--rules",
                "rulesets/tcec-s15.rules",
                "--syzygy",
                tables.to_str().unwrap(),
                "--threads",
                threads,
                "--out",
                out.to_str().unwrap(),
            ],
            &[("RUST_BACKTRACE", backtrace)],
        );
        assert_eq!(
            o.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .map(|p| {
                let text = std::fs::read(&p).unwrap();
                let text = String::from_utf8_lossy(&text).replace(out.to_str().unwrap(), "OUT");
                (
                    p.file_name().unwrap().to_string_lossy().to_string(),
                    text.into_bytes(),
                )
            })
            .collect();
        files.sort();
        files
    };
    let one = batch("0", "1");
    assert!(one.iter().any(|(n, _)| n == "audit.jsonl"), "{one:?}");
    let jsonl = &one.iter().find(|(n, _)| n == "audit.jsonl").unwrap().1;
    let jsonl = String::from_utf8_lossy(jsonl);
    assert!(jsonl.contains("the table KQvK.rtbw is"), "{jsonl}");
    for bad in ["backtrace", "/src/", ".rs:"] {
        assert!(!jsonl.contains(bad), "{bad} in {jsonl}");
    }
    assert!(one == batch("1", "2"), "the batch's files differ");
    assert!(one == batch("full", "1"), "the batch's files differ");
    for r in &runs {
        assert_eq!(String::from_utf8_lossy(&r.stdout), first);
        assert_eq!(
            r.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&r.stderr)
        );
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(
            err.contains("KQvK.rtbw: the Syzygy table is truncated")
                && err.contains("KQRvKR.rtbw: the Syzygy table is corrupted"),
            "{err}"
        );
    }
    for bad in ["backtrace", "/src/", ".rs:", "rustc", "Backtrace"] {
        assert!(!first.contains(bad), "{bad} in {first}");
    }
    let lines: Vec<Value> = json_lines(&runs[0]);
    let undecided: Vec<&str> = lines
        .iter()
        .filter(|l| l["type"] == "game")
        .flat_map(|g| findings(g, "rule-undecided"))
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(
        undecided
            .iter()
            .any(|m| m.contains("the table KQvK.rtbw is truncated")),
        "{undecided:?}"
    );
    assert!(
        undecided
            .iter()
            .any(|m| m.ends_with("the table KQRvKR.rtbw is corrupted")),
        "{undecided:?}"
    );
    // the run-level warning: the summary lists the tables as unreadable
    let summary = lines.last().unwrap();
    let unreadable: Vec<String> = summary["unreadable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| format!("{} {}", u["path"], u["error"]))
        .collect();
    assert_eq!(unreadable.len(), 2, "{unreadable:?}");
    assert!(unreadable[0].contains("KQRvKR.rtbw") && unreadable[1].contains("KQvK.rtbw"));
    assert!(
        unreadable[0].contains("the Syzygy table is corrupted: 3 positions could not be probed, and the rules that needed them were left undecided"),
        "{unreadable:?}"
    );
}

/// The batch's CSV tables: a text cell that starts with `=`, `+`, `-`,
/// `@`, a tab or a carriage return gets a leading `'` (a spreadsheet then
/// shows it as text); numbers, and text that is a plain number, stay as
/// they are; the Parquet file keeps the text as it is.
#[test]
fn csv_cells_that_would_run_as_formulas_are_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("hostile.pgn");
    std::fs::write(
        &pgn,
        "[Event \"+cmd|' /C calc'!A0\"]\n[Site \"?\"]\n[Date \"2019.03.01\"]\n[Round \"-2\"]\n[White \"=HYPERLINK(\\\"http://x\\\",\\\"y\\\")\"]\n[Black \"@SUM(1+1)\"]\n[Result \"1/2-1/2\"]\n[TerminationDetails \"-1+2\"]\n\n1. e4 e5 1/2-1/2\n",
    )
    .unwrap();
    let out = dir.path().join("batch");
    let o = arbiter(&[
        "batch",
        pgn.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert!(
        row.contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        "{row}"
    );
    assert!(row.contains(",'@SUM(1+1),"), "{row}");
    assert!(row.contains("'+cmd|' /C calc'!A0"), "{row}");
    assert!(row.contains(",'-1+2,"), "{row}");
    // a round that is a plain number and the plies stay numbers
    assert!(row.contains(",-2,") && row.contains(",2,"), "{row}");
    for cell in row.split(',') {
        assert!(
            cell == "-2" || !cell.starts_with(['=', '+', '-', '@']),
            "{cell} in {row}"
        );
    }
}

/// A date no calendar has: an operator log line stamped 31 February is an
/// `operator-log-syntax` finding at its line (not read as 3 March), and a
/// `Date` tag of 31 February a `date-invalid` finding at the tag.
#[test]
fn an_impossible_date_is_a_finding_in_a_log_and_in_a_tag() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(case("operator.log")).unwrap();
    let n = text.lines().count();
    let log = dir.path().join("operator.log");
    std::fs::write(
        &log,
        format!("{text}2026-02-31T12:05:27.389Z levy note text=\"late\"\n"),
    )
    .unwrap();
    let pgn = std::fs::read_to_string(case("game.pgn"))
        .unwrap()
        .replace("[Date \"2026.11.22\"]", "[Date \"2026.02.31\"]");
    let game = dir.path().join("game.pgn");
    std::fs::write(&game, &pgn).unwrap();
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        game.to_str().unwrap(),
        "--operator-log",
        log.to_str().unwrap(),
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let g = json_lines(&o).remove(0);
    let syntax = findings(&g, "operator-log-syntax");
    assert_eq!(syntax.len(), 1, "{syntax:?}");
    assert_eq!(line_of(syntax[0]), n as u64 + 1);
    assert!(
        syntax[0]["message"]
            .as_str()
            .unwrap()
            .contains("\"2026-02-31T12:05:27.389Z\" is not a valid date and time"),
        "{}",
        syntax[0]["message"]
    );
    let date = findings(&g, "date-invalid");
    assert_eq!(date.len(), 1, "{date:?}");
    assert_eq!(line_of(date[0]), 3);
    assert_eq!(
        date[0]["message"],
        "Date is \"2026.02.31\": February 2026 has no day 31"
    );
    // the clean case's own date gives none
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        case("game.pgn").to_str().unwrap(),
    ]);
    assert!(findings(&json_lines(&o).remove(0), "date-invalid").is_empty());
}
