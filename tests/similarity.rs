//! `arbiter similarity` on real engines: a planted derivative stands out,
//! a broken engine is reported and the others go on, a run resumes.

use std::path::Path;

use super::arbiter;

const ENGINES: [&str; 3] = [
    "/usr/games/stockfish",
    "/usr/games/glaurung",
    "/usr/games/toga2",
];

fn engines_installed() -> bool {
    if ENGINES.iter().all(|e| Path::new(e).exists()) {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must install stockfish, glaurung and toga2 (.ci/run does)"
    );
    eprintln!("skipping: stockfish, glaurung or toga2 is not installed");
    false
}

#[test]
fn a_planted_derivative_stands_out_and_a_broken_engine_is_reported() {
    if !engines_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.epd");
    let all = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/similarity/positions.epd"),
    )
    .unwrap();
    let first: Vec<&str> = all.lines().take(16).collect();
    std::fs::write(&suite, first.join("\n") + "\n").unwrap();
    let out = dir.path().join("out");
    let args = |out: &Path| -> Vec<String> {
        [
            "similarity",
            "--positions",
            suite.to_str().unwrap(),
            "--depth",
            "5",
            "--out",
            out.to_str().unwrap(),
            "--engine",
            "stockfish=/usr/games/stockfish",
            // the planted derivative: the same program under another name
            "--engine",
            "derivative=/usr/games/stockfish",
            "--engine",
            "glaurung=/usr/games/glaurung",
            "--engine",
            "toga2=/usr/games/toga2",
            "--engine",
            "broken=/bin/false",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let a = args(&out);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = arbiter(&a);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("similarity.json")).unwrap())
            .unwrap();
    let r = &report["report"];
    let names: Vec<&str> = r["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["stockfish", "derivative", "glaurung", "toga2", "broken"]
    );
    // the derivative matches its parent on every position, far above the field
    assert_eq!(r["matches"][0][1], 1.0);
    let z01 = r["z"][0][1].as_f64().unwrap();
    for (i, j) in [(0, 2), (0, 3), (2, 3), (1, 2)] {
        let z = r["z"][i][j].as_f64().unwrap();
        assert!(z01 > z + 1.0, "planted pair z {z01} vs ({i},{j}) {z}");
        assert!(r["matches"][i][j].as_f64().unwrap() < 1.0);
    }
    // fixed depth: a second run of the same engine chooses the same moves
    assert_eq!(r["self_match"][0], 1.0);
    // the broken engine is reported, not fatal
    assert_eq!(r["failures"]["broken"], 32, "16 positions, 2 runs");
    assert!(r["matches"][4][0].is_null());
    assert!(
        text.contains("broken: 32 position(s) not answered"),
        "{text}"
    );
    let top = text
        .lines()
        .skip_while(|l| !l.starts_with("pairs by z-score"))
        .nth(1)
        .unwrap();
    assert!(top.ends_with("stockfish - derivative"), "{top}");
    for f in ["heatmap.svg", "dendrogram.svg"] {
        let svg = std::fs::read_to_string(out.join(f)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("derivative"), "{f}");
    }
    // resume: a second run searches nothing again; its report is the same
    let answers = std::fs::read_to_string(out.join("answers.jsonl")).unwrap();
    let searched = answers
        .lines()
        .filter(|l| !l.contains("\"error\":\""))
        .count();
    assert_eq!(searched, 4 * 16 * 2);
    let before = std::fs::read_to_string(out.join("similarity.json")).unwrap();
    let again = arbiter(&a);
    assert_eq!(again.status.code(), Some(0));
    let answers2 = std::fs::read_to_string(out.join("answers.jsonl")).unwrap();
    let searched2 = answers2
        .lines()
        .filter(|l| !l.contains("\"error\":\""))
        .count();
    assert_eq!(searched2, searched, "no position searched twice");
    let logs = std::fs::read_to_string(out.join("logs/stockfish-run1.log"));
    assert!(logs.is_ok(), "each engine's transcript is kept");
    assert_eq!(
        std::fs::read_to_string(out.join("similarity.json")).unwrap(),
        before,
        "the same answers give the same report"
    );
}

#[test]
fn bad_suites_and_engine_lists_are_refused_with_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("bad.epd");
    std::fs::write(
        &suite,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\nnot a position\n",
    )
    .unwrap();
    let o = arbiter(&[
        "similarity",
        "--positions",
        suite.to_str().unwrap(),
        "--out",
        dir.path().join("o").to_str().unwrap(),
        "--engine",
        "a=/bin/true",
        "--engine",
        "b=/bin/true",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.epd:2:"), "{err}");
    let o = arbiter(&[
        "similarity",
        "--positions",
        suite.to_str().unwrap(),
        "--out",
        dir.path().join("o").to_str().unwrap(),
        "--engine",
        "only=/bin/true",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at least two engines"));
}

/// The rulesets' `similarity` detector reads a similarity report: a game of
/// an engine that stands out is named, with the pair as evidence; without a
/// report the rule is listed as not evaluated.
#[test]
fn rules_read_a_similarity_report() {
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        "--rules",
        "rulesets/icga-2008.rules",
        "--similarity",
        "tests/fixtures/similarity/report.json",
        "tests/fixtures/similarity/game.pgn",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let lines = super::json_lines(&o);
    let hits = |g: &serde_json::Value| -> Vec<String> {
        g["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "icga.close-derivative")
            .map(|f| f["message"].as_str().unwrap().to_string())
            .collect()
    };
    let first = hits(&lines[0]);
    assert_eq!(first.len(), 1);
    assert!(
        first[0].contains("Alpha and Bravo chose the same move in 92.0% of 300 positions"),
        "{}",
        first[0]
    );
    assert!(
        hits(&lines[1]).is_empty(),
        "Charlie and Delta stand out with no one"
    );
    let summary = lines.last().unwrap();
    assert_eq!(summary["ruleset"]["not_evaluated"], serde_json::json!([]));
    assert!(
        summary["inputs"].to_string().contains("similarity-report")
            || summary.to_string().contains("similarity-report"),
        "the report's SHA-256 is recorded"
    );
    // without the report
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        "--rules",
        "rulesets/icga-2008.rules",
        "tests/fixtures/similarity/game.pgn",
    ]);
    let lines = super::json_lines(&o);
    assert!(hits(&lines[0]).is_empty());
    let summary = lines.last().unwrap();
    assert_eq!(
        summary["ruleset"]["not_evaluated"][0]["rule"],
        "icga.close-derivative"
    );
}
