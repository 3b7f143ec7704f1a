//! `arbiter batch`: tables in CSV and Parquet, the same output whatever the
//! thread count, shards that add up to the whole, a broken input reported
//! while the rest goes on, and the S15 standings and crosstables.

use std::path::Path;

use polars::prelude::*;

use super::{arbiter, tcec_s15};

fn batch(args: &[&str]) -> std::process::Output {
    let mut a = vec!["batch"];
    a.extend_from_slice(args);
    arbiter(&a)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn tables_threads_shards_and_broken_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.pgn");
    std::fs::write(
        &broken,
        "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"y\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
    )
    .unwrap();
    let missing = dir.path().join("missing.pgn");
    let out1 = dir.path().join("one");
    let out2 = dir.path().join("two");
    let common = [
        "samples/tcec-s15",
        broken.to_str().unwrap(),
        missing.to_str().unwrap(),
        "--rules",
        "rulesets/tcec-s15.rules",
    ];
    let mut a1 = common.to_vec();
    a1.extend(["--out", out1.to_str().unwrap(), "--threads", "1"]);
    let o1 = batch(&a1);
    // the missing file is reported and the rest is audited
    assert_eq!(
        o1.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o1.stderr)
    );
    assert!(String::from_utf8_lossy(&o1.stderr).contains("missing.pgn"));
    let mut a2 = common.to_vec();
    a2.extend(["--out", out2.to_str().unwrap(), "--threads", "2"]);
    batch(&a2);
    for f in [
        "games.csv",
        "findings.csv",
        "findings_by_rule.csv",
        "findings_by_engine.csv",
        "findings_by_round.csv",
        "adjudication_agreement.csv",
        "clock_anomalies.csv",
        "standings.csv",
        "summary.md",
        "summary.html",
    ] {
        assert_eq!(
            read(&out1.join(f)),
            read(&out2.join(f)),
            "{f}: one thread and two give the same output"
        );
    }
    let games = read(&out1.join("games.csv"));
    // the shipped TCEC scenarios and both games of the broken file
    let n = games.lines().count() - 1;
    assert!(n >= 8, "{games}");
    let findings = read(&out1.join("findings.csv"));
    assert!(findings.contains("illegal-move"));
    // case folders are audited with their own logs: the engine-log finding
    // of hash-raised-mid-game and the hidden book of hidden-book-planted
    assert!(findings.contains("tcec.hash-set"), "{findings}");
    assert!(findings.contains("tcec.hidden-book"));
    assert!(read(&out1.join("clock_anomalies.csv")).contains("tcec.clock"));
    // Parquet holds the same rows as CSV
    for t in ["games", "findings", "findings_by_rule", "standings"] {
        let f = std::fs::File::open(out1.join(format!("{t}.parquet"))).unwrap();
        let df = ParquetReader::new(f).finish().unwrap();
        let csv_rows = read(&out1.join(format!("{t}.csv"))).lines().count() - 1;
        assert_eq!(df.height(), csv_rows, "{t}");
    }
    // shards: 1/2 and 2/2 split the games without overlap
    let s1 = dir.path().join("s1");
    let s2 = dir.path().join("s2");
    for (shard, out) in [("1/2", &s1), ("2/2", &s2)] {
        batch(&[
            "samples/tcec-s15",
            broken.to_str().unwrap(),
            "--rules",
            "rulesets/tcec-s15.rules",
            "--shard",
            shard,
            "--out",
            out.to_str().unwrap(),
        ]);
    }
    let rows = |p: &Path| -> Vec<String> {
        read(&p.join("games.csv"))
            .lines()
            .skip(1)
            .map(str::to_string)
            .collect()
    };
    let (r1, r2) = (rows(&s1), rows(&s2));
    assert!(!r1.is_empty() && !r2.is_empty());
    let mut all: Vec<String> = r1.iter().chain(&r2).cloned().collect();
    all.sort();
    let mut whole = rows(&out1);
    whole.sort();
    assert_eq!(all, whole, "the shards add up to the whole");
    let o = batch(&[
        "samples/tcec-s15",
        "--shard",
        "3/2",
        "--out",
        s1.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--shard takes K/N"));
    let html = read(&out1.join("summary.html"));
    assert!(html.contains("<svg") && html.contains("Findings by code"));
}

#[test]
fn s15_standings_and_double_round_robins() {
    let Some(dir) = tcec_s15() else { return };
    let out = tempfile::tempdir().unwrap();
    let o = batch(&[
        dir.to_str().unwrap(),
        "--rules",
        "rulesets/tcec-s15.rules",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let f = std::fs::File::open(out.path().join("standings.parquet")).unwrap();
    let df = ParquetReader::new(f).finish().unwrap();
    let ev = df.column("event").unwrap().str().unwrap().clone();
    let player = df.column("player").unwrap().str().unwrap().clone();
    let points = df.column("points").unwrap().f64().unwrap().clone();
    let rank = df.column("rank").unwrap().i64().unwrap().clone();
    let row = |event: &str, r: i64| -> (String, f64) {
        (0..df.height())
            .find(|&i| ev.get(i) == Some(event) && rank.get(i) == Some(r))
            .map(|i| (player.get(i).unwrap().to_string(), points.get(i).unwrap()))
            .unwrap()
    };
    assert_eq!(
        row("TCEC Season 15 - Division 1", 1),
        ("KomodoMCTS 2301.00".into(), 17.5)
    );
    assert_eq!(
        row("TCEC Season 15 - Division 2", 1),
        ("Xiphos 0.5.2".into(), 19.5)
    );
    // the division 2 winner was promoted and plays division 1
    assert!(
        (0..df.height()).any(|i| ev.get(i) == Some("TCEC Season 15 - Division 1")
            && player.get(i) == Some("Xiphos 0.5.2"))
    );
    // every pairing of every double round robin was played equally often with each colour
    let games = read(&out.path().join("games.csv"));
    assert_eq!(games.lines().count() - 1, 428);
    let summary = read(&out.path().join("summary.md"));
    assert!(
        summary.contains("## pairings") || summary.contains("unbalanced pairs: none"),
        "{}",
        &summary[..summary.len().min(400)]
    );
}
