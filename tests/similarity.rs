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
    let out = dir.path().join("o");
    // arbiter similarity over `suite` with these engines and flags: it must
    // refuse (exit 2); its standard error
    let refused = |suite: &Path, args: &[&str]| -> String {
        let mut a = vec![
            "similarity",
            "--positions",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        a.extend_from_slice(args);
        let o = arbiter(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let two = ["--engine", "a=/bin/true", "--engine", "b=/bin/true"];
    let suite = dir.path().join("bad.epd");
    std::fs::write(
        &suite,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\nnot a position\n",
    )
    .unwrap();
    let err = refused(&suite, &two);
    assert!(err.contains("bad.epd:2:"), "{err}");
    let err = refused(&suite, &["--engine", "only=/bin/true"]);
    assert!(err.contains("at least two engines"), "{err}");
    // verdict settings that cannot hold
    let good = dir.path().join("good.epd");
    std::fs::write(
        &good,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n",
    )
    .unwrap();
    for (flag, value, expected) in [
        (
            "--related",
            "a,c",
            "--related names \"c\", which is not an engine of the field (a, b)",
        ),
        ("--related", "a", "--related takes A,B"),
        ("--false-positive-rate", "2", "between 0 and 1, not 2"),
        ("--bootstrap", "0", "0 is not in 1..=10000"),
    ] {
        let mut args = two.to_vec();
        args.extend([flag, value]);
        let err = refused(&good, &args);
        assert!(err.contains(expected), "{flag} {value}: {err}");
    }
}

/// The messages of a game's findings of one rule.
fn messages(game: &serde_json::Value, code: &str) -> Vec<String> {
    game["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == code)
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect()
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
    let hits = |g: &serde_json::Value| messages(g, "icga.close-derivative");
    let shared = |g: &serde_json::Value| messages(g, "icga.shared-evaluation");
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
    // the evaluation signatures: Charlie and Delta share their evaluation
    // (both games have Charlie); Alpha and Bravo, alike in moves, do not
    for g in &lines[..2] {
        let s = shared(g);
        assert_eq!(s.len(), 1, "{s:?}");
        assert!(
            s[0].contains("Charlie and Delta are wrong in the same positions: residual score correlation r = 0.81 (95% interval 0.71 to 0.89) over 300 positions, p = 1.0e-4"),
            "{}",
            s[0]
        );
        assert!(!s[0].contains("Bravo"), "{}", s[0]);
    }
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
    assert!(hits(&lines[0]).is_empty() && shared(&lines[0]).is_empty());
    let summary = lines.last().unwrap();
    assert_eq!(
        super::not_evaluated(summary),
        ["icga.close-derivative", "icga.shared-evaluation"]
    );
}

/// A suite of the first `n` positions of the shipped one.
fn suite_of(dir: &Path, n: usize) -> std::path::PathBuf {
    let suite = dir.join("suite.epd");
    let all = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/similarity/positions.epd"),
    )
    .unwrap();
    let first: Vec<&str> = all.lines().take(n).collect();
    std::fs::write(&suite, first.join("\n") + "\n").unwrap();
    suite
}

/// The planted derivative: Stockfish's classical evaluation (run with `Use
/// NNUE` off) under another search, a budget of 9,000 nodes in place of the
/// depth it is asked for. Its evaluation is its parent's by construction;
/// its moves and scores differ wherever the other search does.
fn plant_derivative(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("derivative.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nsed -u 's/^go depth [0-9]*/go nodes 9000/' | exec /usr/games/stockfish\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("derivative={}", script.display())
}

/// Run `arbiter similarity`; its text and its similarity.json.
fn run_similarity(args: &[&str]) -> (String, serde_json::Value) {
    let o = arbiter(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = args[args.iter().position(|a| *a == "--out").unwrap() + 1];
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(out).join("similarity.json")).unwrap(),
    )
    .unwrap();
    (String::from_utf8_lossy(&o.stdout).to_string(), report)
}

/// The pairs of a report's evaluation signatures.
fn pairs(report: &serde_json::Value) -> &Vec<serde_json::Value> {
    report["report"]["signature"]["pairs"].as_array().unwrap()
}

/// The pair (a, b) of a report's evaluation signatures, either order.
fn pair<'a>(report: &'a serde_json::Value, a: &str, b: &str) -> &'a serde_json::Value {
    pairs(report)
        .iter()
        .find(|p| (p["a"] == a && p["b"] == b) || (p["a"] == b && p["b"] == a))
        .unwrap_or_else(|| panic!("no pair {a} - {b}"))
}

/// The shipped reference field: Debian's engines at depth 8 over the shipped
/// suite (bench/similarity.sh).
const REFERENCE: &str = "bench/similarity/debian-d8";

/// One engine alone is judged against the shipped reference field: the
/// planted derivative is flagged with its parent, and with no one else.
#[test]
fn a_derivative_sharing_its_parents_evaluation_is_flagged_against_the_reference_field() {
    if !engines_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let derivative = plant_derivative(dir.path());
    let out = dir.path().join("out");
    let args = [
        "similarity",
        "--positions",
        "bench/similarity/positions.epd",
        "--depth",
        "8",
        "--runs",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--engine",
        &derivative,
        "--option",
        "Use NNUE=false",
        "--reference",
        REFERENCE,
    ];
    let (text, report) = run_similarity(&args);
    assert!(
        text.contains("1 engines and 7 of the reference field"),
        "{text}"
    );
    let planted = pair(&report, "derivative", "stockfish-classical");
    // the search differs: not every move is the parent's
    let moves = planted["moves"]["value"].as_f64().unwrap();
    assert!(moves < 0.9, "{planted}");
    let r = planted["residual"]["value"].as_f64().unwrap();
    let ci = &planted["residual"]["ci"];
    assert!(ci[0].as_f64().unwrap() <= r && r <= ci[1].as_f64().unwrap());
    assert_eq!(planted["flagged"], true, "{text}");
    assert_eq!(
        planted["null_pairs"], 26,
        "the other pairs of 8 engines, less a flagged one"
    );
    // the derivative is flagged with its parent only; of the reference's
    // pairs, only the Fruit lineage (toga2, gnuchess) is
    let mut flagged: Vec<String> = pairs(&report)
        .iter()
        .filter(|p| p["flagged"] == true)
        .map(|p| {
            format!(
                "{} - {}",
                p["a"].as_str().unwrap(),
                p["b"].as_str().unwrap()
            )
        })
        .collect();
    flagged.sort();
    assert_eq!(
        flagged,
        ["derivative - stockfish-classical", "toga2 - gnuchess"],
        "{text}"
    );
    // move matching alone flags the unrelated glaurung - gnuchess; the
    // verdict clears it
    let gg = pair(&report, "glaurung", "gnuchess");
    assert_eq!(gg["flagged_by_moves"], true, "{gg}");
    assert_eq!(gg["flagged"], false);
    assert!(text.contains("glaurung - gnuchess  (flagged by moves alone; cleared)"));
    let svg = std::fs::read_to_string(out.join("residuals.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("derivative"));
    // the same answers give the same report, intervals included
    let (_, again) = run_similarity(&args);
    assert_eq!(again, report);
    // the rulesets read the verdict: a game of the derivative is named
    let pgn = dir.path().join("game.pgn");
    std::fs::write(
        &pgn,
        "[Event \"t\"]\n[Site \"?\"]\n[Date \"2026.11.22\"]\n[Round \"1\"]\n[White \"derivative 1.0\"]\n[Black \"glaurung\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n",
    )
    .unwrap();
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        "--rules",
        "rulesets/icga-2008.rules",
        "--similarity",
        out.join("similarity.json").to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    let lines = super::json_lines(&o);
    let shared = messages(&lines[0], "icga.shared-evaluation");
    assert_eq!(shared.len(), 1, "{}", lines[0]);
    let m = &shared[0];
    assert!(
        m.contains("derivative and stockfish-classical are wrong in the same positions"),
        "{m}"
    );
    assert!(!m.contains("glaurung and"), "{m}");
}

/// Two engines alone have no field: the report says so and gives no
/// verdict. A reference answered at another limit, or over another suite,
/// is refused.
#[test]
fn two_engines_alone_get_no_verdict_and_a_mismatched_reference_is_refused() {
    if !engines_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let suite = suite_of(dir.path(), 12);
    let derivative = plant_derivative(dir.path());
    let alone = dir.path().join("alone");
    let (text, report) = run_similarity(&[
        "similarity",
        "--positions",
        suite.to_str().unwrap(),
        "--depth",
        "6",
        "--runs",
        "1",
        "--out",
        alone.to_str().unwrap(),
        "--engine",
        "parent=/usr/games/stockfish",
        "--engine",
        &derivative,
        "--option",
        "Use NNUE=false",
    ]);
    let p = pair(&report, "parent", "derivative");
    assert_eq!(p["flagged"], false);
    assert!(p["p_value"].is_null(), "{p}");
    assert!(
        text.contains(
            "add engines or a reference field (--reference DIR; bench/similarity/debian-d8"
        ),
        "{text}"
    );
    for (positions, depth, expected) in [
        (
            "bench/similarity/positions.epd",
            "7",
            "searched at \"depth 8\", not \"depth 7\"",
        ),
        (
            suite.to_str().unwrap(),
            "8",
            "answered another position suite",
        ),
    ] {
        let o = arbiter(&[
            "similarity",
            "--positions",
            positions,
            "--depth",
            depth,
            "--out",
            dir.path().join("refused").to_str().unwrap(),
            "--engine",
            &derivative,
            "--reference",
            REFERENCE,
        ]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expected), "{err}");
    }
    // an engine named as one of the reference's
    let o = arbiter(&[
        "similarity",
        "--positions",
        "bench/similarity/positions.epd",
        "--depth",
        "8",
        "--out",
        dir.path().join("refused").to_str().unwrap(),
        "--engine",
        "toga2=/usr/games/toga2",
        "--reference",
        REFERENCE,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("\"toga2\" is also in the reference field")
    );
}

/// The passive test reads PGN evals: four engines play the same positions
/// out of book, some with Black to move; `parent` and `other-1` are
/// recorded with TCEC comments (`wv` from White's view), `derived` and
/// `other-2` with cutechess's (`+0.35/20 1.0s`, from the mover's view).
/// `derived` chooses as `parent` does and shares its evaluation errors: its
/// pair stands out on the residuals only if both views are read right.
#[test]
fn the_passive_test_reads_tcec_and_cutechess_evals_in_their_own_views() {
    use shakmaty::{Chess, Position, san::SanPlus};
    // a small deterministic generator
    let mut state: u64 = 0x5eed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as f64 / (1u64 << 31) as f64
    };
    let engines = ["parent", "derived", "other-1", "other-2"];
    let mut pgn = String::new();
    let mut game = 0;
    for k in 0..40 {
        // the book: 4 or 5 random plies (Black to move after 5)
        let mut pos = Chess::default();
        let mut book = Vec::new();
        for _ in 0..(4 + k % 2) {
            let moves = pos.legal_moves();
            let m = moves[(next() * moves.len() as f64) as usize % moves.len()];
            book.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        }
        let legal = pos.legal_moves();
        if legal.len() < 3 {
            continue;
        }
        let truth = 300.0 * (next() - 0.5);
        let parent_error = 120.0 * (next() - 0.5);
        let best = 0;
        for (e, engine) in engines.iter().enumerate() {
            let error = match e {
                0 => parent_error,
                1 => parent_error + 15.0 * (next() - 0.5),
                _ => 120.0 * (next() - 0.5),
            };
            // score from the side to move, written from White's view
            let score = truth + error;
            let white_to_move = pos.turn().is_white();
            let wv = if white_to_move { score } else { -score } / 100.0;
            let choice = if e < 2 || next() < 0.4 {
                best
            } else {
                1 + (next() * (legal.len() - 1) as f64) as usize % (legal.len() - 1)
            };
            let mut after = pos.clone();
            let mv = SanPlus::from_move_and_play_unchecked(&mut after, legal[choice]);
            let opponent = engines[(e + 1) % engines.len()];
            let (white, black) = if white_to_move {
                (*engine, opponent)
            } else {
                (opponent, *engine)
            };
            game += 1;
            pgn.push_str(&format!(
                "[Event \"passive\"]\n[Site \"?\"]\n[Date \"2026.11.22\"]\n[Round \"{game}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"*\"]\n\n"
            ));
            let mut text = String::new();
            for (i, san) in book.iter().enumerate() {
                if i % 2 == 0 {
                    text.push_str(&format!("{}. ", i / 2 + 1));
                }
                text.push_str(&format!("{san} {{book, mb=+0+0+0+0+0,}} "));
            }
            if book.len() % 2 == 0 {
                text.push_str(&format!("{}. ", book.len() / 2 + 1));
            } else {
                text.push_str(&format!("{}... ", book.len() / 2 + 1));
            }
            if e % 2 == 0 {
                text.push_str(&format!(
                    "{mv} {{d=20, sd=30, mt=1000, tl=60000, s=1000, n=1000000, pv={mv}, tb=0, h=0.0, ph=0.0, wv={wv:.2}, R50=50, Rd=-11, Rr=-11, mb=+0+0+0+0+0,}} *\n\n"
                ));
            } else {
                text.push_str(&format!("{mv} {{{:+.2}/20 1.0s}} *\n\n", score / 100.0));
            }
            pgn.push_str(&text);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("event.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let out = dir.path().join("out");
    let (text, report) = run_similarity(&[
        "similarity",
        "--games",
        file.to_str().unwrap(),
        "--min-positions",
        "20",
        "--out",
        out.to_str().unwrap(),
    ]);
    let sig = &report["report"]["signature"];
    let positions = sig["consensus_positions"].as_u64().unwrap();
    assert!(positions >= 35, "{text}");
    let planted = pair(&report, "derived", "parent");
    let r = planted["residual"]["value"].as_f64().unwrap();
    // read with one view for both formats, the Black-to-move positions
    // would cancel the others
    assert!(r > 0.9, "{planted}");
    assert_eq!(planted["flagged"], true, "{text}");
    for (a, b) in [
        ("other-1", "other-2"),
        ("parent", "other-1"),
        ("derived", "other-2"),
    ] {
        let p = pair(&report, a, b);
        assert_eq!(p["flagged"], false, "{a} - {b}: {p}");
        assert!(p["residual"]["value"].as_f64().unwrap() < 0.6, "{p}");
    }
}
