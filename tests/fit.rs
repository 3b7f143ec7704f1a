//! `arbiter rules fit`: the `fit` clause (its diagnostics at exact
//! positions), the values it recovers from archives made with planted
//! parameters (`scripts/make_fit_archive.py`, `tests/fixtures/fit/`), the
//! flat optimum it reports where the data cannot decide, the variant block
//! it writes (which the ruleset accepts), and on the real S15 archive the
//! text's own values.

use std::path::{Path, PathBuf};

use arbiter::base::value::Value;
use arbiter::rules::analysis::FitTarget;
use arbiter::rules::compile;

use super::{arbiter, arbiter_in, tcec_other, tcec_s15};

const HEAD: &str = "ruleset t \"T\" { regulation \"r\" }\n";

fn fit_error(body: &str) -> (usize, usize, String) {
    let src = format!("{HEAD}{body}");
    let e = compile("t.rules", &src).expect_err("must not compile");
    (e.pos.line, e.pos.column, e.message)
}

#[test]
fn a_fit_range_gives_each_value_once_and_exactly() {
    let rs = compile(
        "t.rules",
        &format!(
            "{HEAD}const a = 0.08 fit 0 to 0.2 step 0.01\nconst b = 10 fit [6, 8, 10, 8]\nconst c = 30m fit 25m to 35m step 5m\nswitch s = false fit \"doc\"\nconst d = 1\n"
        ),
    )
    .unwrap();
    assert_eq!(rs.fits.len(), 4, "a, b, c and s are marked; d is not");
    let a = &rs.fits[0];
    assert_eq!(a.target, FitTarget::Const(0));
    assert_eq!(a.grid.len(), 21);
    assert_eq!(
        a.grid[7],
        Value::Num(0.07),
        "rounded, not 0.07000000000000001"
    );
    assert_eq!(a.grid[20], Value::Num(0.2));
    assert_eq!((a.line, a.column), (2, 16), "the position of `fit`");
    assert_eq!(
        rs.fits[1].grid,
        vec![Value::Num(6.0), Value::Num(8.0), Value::Num(10.0)],
        "each value once, in order"
    );
    assert_eq!(
        rs.fits[2].grid,
        vec![
            Value::Num(1_500_000.0),
            Value::Num(1_800_000.0),
            Value::Num(2_100_000.0)
        ],
        "durations in milliseconds"
    );
    assert_eq!(rs.fits[3].target, FitTarget::Switch(0));
    assert_eq!(
        rs.fits[3].grid,
        vec![Value::Bool(false), Value::Bool(true)],
        "a switch: its default, then the other"
    );
}

#[test]
fn a_bad_fit_is_reported_where_it_is() {
    let (l, c, m) = fit_error("const a = 1 fit 0 to 2 step 0\n");
    assert_eq!((l, c), (2, 29), "{m}");
    assert!(m.contains("step must be above 0"), "{m}");
    let (l, c, m) = fit_error("const a = 1 fit 5 to 2 step 1\n");
    assert_eq!((l, c), (2, 29), "{m}");
    assert!(m.contains("end at or after its start"), "{m}");
    let (l, c, m) = fit_error("const a = 1 fit [1, \"two\"]\n");
    assert_eq!((l, c), (2, 21), "{m}");
    assert!(m.contains("must be a number"), "{m}");
    let (l, c, m) = fit_error("const a = 1 fit 0 to 5000 step 1\n");
    assert_eq!((l, c), (2, 32), "{m}");
    assert!(m.contains("at most 1000"), "{m}");
    let (l, _, m) = fit_error("const a = \"x\" fit 0 to 2 step 1\n");
    assert_eq!(l, 2);
    assert!(m.contains("needs a number"), "{m}");
    let (l, c, m) = fit_error("const a = 1 fit 0 2 step 1\n");
    assert_eq!((l, c), (2, 19), "{m}");
    assert!(m.contains("`to`"), "{m}");
    let (l, _, m) = fit_error("const a = 1 fit []\n");
    assert_eq!(l, 2);
    assert!(m.contains("at least one value"), "{m}");
}

#[test]
fn a_ruleset_without_fit_clauses_is_refused() {
    let o = arbiter(&[
        "rules",
        "fit",
        "samples/tcec-style.pgn",
        "--rules",
        "rulesets/icga-2008.rules",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no constant or switch is marked `fit`"),
        "{err}"
    );
}

/// `rules fit … --format json`: (exit code, one object per group).
pub(super) fn fit_json(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<serde_json::Value>) {
    let mut all = vec!["rules", "fit", "--format", "json"];
    all.extend_from_slice(args);
    let o = arbiter_in(dir, &all);
    let groups = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    (o.status.code(), groups)
}

/// The fitted value of `name` in a group, and the values as good as it.
pub(super) fn fitted<'g>(
    group: &'g serde_json::Value,
    name: &str,
) -> (&'g str, &'g str, Vec<&'g str>) {
    let f = group["fits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no fit {name}"));
    (
        f["text"].as_str().unwrap(),
        f["fitted"].as_str().unwrap(),
        f["equally_good"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect(),
    )
}

fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The planted values of `tests/fixtures/fit/planted.pgn` (its README and
/// the generator's command line there).
const PLANTED: [(&str, &str); 7] = [
    ("draw_eval", "0.05"),
    ("draw_plies", "8"),
    ("draw_from_move", "40"),
    ("win_eval", "6.5"),
    ("win_plies", "8"),
    ("rook_castling_resets", "false"),
    ("searchless_resets", "false"),
];

#[test]
fn the_fit_recovers_every_planted_value_and_writes_a_variant_the_ruleset_accepts() {
    let dir = here();
    let (code, groups) = fit_json(
        &dir,
        &[
            "tests/fixtures/fit/planted.pgn",
            "--rules",
            "rulesets/tcec-s15.rules",
        ],
    );
    assert_eq!(code, Some(1), "the fit departs from the text");
    let g = &groups[0];
    for (name, planted) in PLANTED {
        let (_, got, equal) = fitted(g, name);
        assert_eq!(got, planted, "{name}");
        assert_eq!(equal, vec![planted], "{name} is decided, not flat");
    }
    let fit = &g["under_fit"];
    assert_eq!(
        fit["counters"], fit["counters_of"],
        "every counter reproduced"
    );
    assert_eq!(
        fit["terminations"], fit["terminations_of"],
        "every end reproduced"
    );
    let text = &g["under_text"];
    assert!(
        text["counters"].as_u64() < text["counters_of"].as_u64(),
        "the text's values do not reproduce the planted counters"
    );
    assert!(
        !g["decided"].as_array().unwrap().is_empty(),
        "some game ends otherwise under the text"
    );
    // the block, pasted into the ruleset, compiles, and the fit forced to
    // it departs from nothing
    let block = g["variant_block"].as_str().expect("a variant block");
    let src = std::fs::read_to_string(dir.join("rulesets/tcec-s15.rules")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("fitted.rules");
    std::fs::write(&rules, format!("{src}\n{block}\n")).unwrap();
    compile("fitted.rules", &format!("{src}\n{block}\n")).expect("the block compiles");
    let name = block
        .split_whitespace()
        .nth(1)
        .expect("variant NAME")
        .to_string();
    let (code, again) = fit_json(
        &dir,
        &[
            "tests/fixtures/fit/planted.pgn",
            "--rules",
            rules.to_str().unwrap(),
            "--variant",
            &name,
        ],
    );
    assert_eq!(
        code,
        Some(0),
        "under the fitted variant, the text is the fit"
    );
    for (n, planted) in PLANTED {
        let (text, got, _) = fitted(&again[0], n);
        assert_eq!((text, got), (planted, planted), "{n}");
    }
}

#[test]
fn an_archive_at_the_text_values_fits_the_text() {
    let (code, groups) = fit_json(
        &here(),
        &[
            "tests/fixtures/fit/text.pgn",
            "--rules",
            "rulesets/tcec-s15.rules",
        ],
    );
    assert_eq!(code, Some(0));
    for f in groups[0]["fits"].as_array().unwrap() {
        assert_eq!(f["fitted"], f["text"], "{f}");
    }
    assert!(groups[0]["variant_block"].is_null());
}

#[test]
fn where_the_data_cannot_decide_the_fit_says_so() {
    let (_, groups) = fit_json(
        &here(),
        &[
            "tests/fixtures/fit/flat.pgn",
            "--rules",
            "rulesets/tcec-s15.rules",
        ],
    );
    for name in ["rook_castling_resets", "searchless_resets"] {
        let (text, got, equal) = fitted(&groups[0], name);
        assert_eq!(got, text, "{name}: a flat optimum keeps the text's value");
        assert_eq!(equal.len(), 2, "{name}: both values reported as equal");
    }
    let o = arbiter(&[
        "rules",
        "fit",
        "tests/fixtures/fit/flat.pgn",
        "--rules",
        "rulesets/tcec-s15.rules",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("FLAT: 2 values reproduce the record equally (true, false)"),
        "{text}"
    );
}

/// On the real S15 archive the fit gives the text's values (each file; the
/// switch the data cannot decide is reported flat, with the text's value).
#[test]
fn on_s15_the_fit_is_the_text() {
    let Some(s15) = tcec_s15() else { return };
    let mut args = vec![
        s15.to_str().unwrap().to_string(),
        "--rules".into(),
        "rulesets/tcec-s15.rules".into(),
    ];
    if let Some(tb) = std::env::var_os("ARBITER_SYZYGY") {
        args.push("--syzygy".into());
        args.push(tb.to_string_lossy().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, groups) = fit_json(&here(), &args);
    assert_eq!(code, Some(0), "no file departs from the text");
    assert_eq!(groups.len(), 5, "one fit per division file");
    for g in &groups {
        for f in g["fits"].as_array().unwrap() {
            assert_eq!(f["fitted"], f["text"], "{}: {f}", g["group"]);
        }
        let t = &g["under_text"];
        assert_eq!(t["terminations"], t["terminations_of"], "{}", g["group"]);
        assert!(t["counters_of"].as_u64().unwrap() > 8000, "{}", g["group"]);
    }
}

/// `audit --fit`: each file judged under its fitted values; one `rules-fit`
/// finding, on the file's first game, names each departure; the report
/// records `--fit`, and `verify` reproduces it.
#[test]
fn audit_with_fit_judges_the_file_under_its_fit_and_says_so_once() {
    let counters_and_ends = |lines: &[serde_json::Value]| {
        lines
            .iter()
            .filter(|l| l["type"] == "game")
            .flat_map(|l| l["findings"].as_array().unwrap())
            .filter(|f| {
                let c = f["code"].as_str().unwrap();
                c.ends_with("-counter") || c.starts_with("adjudication-")
            })
            .count()
    };
    let args = [
        "audit",
        "tests/fixtures/fit/planted.pgn",
        "--rules",
        "rulesets/tcec-s15.rules",
        "--format",
        "json",
    ];
    let text = super::json_lines(&arbiter(&args));
    assert!(
        counters_and_ends(&text) > 0,
        "the text's values disagree with the record"
    );
    let mut with_fit = args.to_vec();
    with_fit.push("--fit");
    let o = arbiter(&with_fit);
    let lines = super::json_lines(&o);
    assert_eq!(
        counters_and_ends(&lines),
        0,
        "the fitted values reproduce the record"
    );
    let fits: Vec<(usize, &serde_json::Value)> = lines
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            l["findings"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|f| f["code"] == "rules-fit")
                .map(move |f| (i, f))
        })
        .collect();
    assert_eq!(fits.len(), 1, "one rules-fit finding for the file");
    let (at, f) = fits[0];
    assert_eq!(at, 0, "on the file's first game");
    let m = f["message"].as_str().unwrap();
    for (name, planted) in PLANTED {
        assert!(m.contains(&format!("{name} = {planted}")), "{name}: {m}");
    }
    assert!(m.contains("Agreement under the text"), "{m}");
    let summary = lines.last().unwrap();
    assert_eq!(summary["invocation"]["fit"], true);
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.jsonl");
    std::fs::write(&report, &o.stdout).unwrap();
    let v = arbiter(&["verify", report.to_str().unwrap()]);
    let out = super::stdout(&v);
    assert!(out.contains("verdict: reproduced"), "{out}");
}

/// Per file, each file is its own group, reported in the order given, with
/// its own values; per event, the files of one `Event` tag are fitted as one.
#[test]
fn the_fit_is_per_file_by_default_and_per_event_on_request() {
    let files = [
        "tests/fixtures/fit/planted.pgn",
        "tests/fixtures/fit/text.pgn",
        "--rules",
        "rulesets/tcec-s15.rules",
    ];
    let (_, per_file) = fit_json(&here(), &files);
    let sizes: Vec<(&str, u64)> = per_file
        .iter()
        .map(|g| (g["group"].as_str().unwrap(), g["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        sizes,
        [
            ("tests/fixtures/fit/planted.pgn", 48),
            ("tests/fixtures/fit/text.pgn", 30)
        ]
    );
    assert_eq!(fitted(&per_file[0], "win_eval").1, "6.5");
    assert_eq!(fitted(&per_file[1], "win_eval").1, "10");

    let mut args = files.to_vec();
    args.extend(["--per", "event"]);
    let (_, per_event) = fit_json(&here(), &args);
    assert_eq!(per_event.len(), 1, "{per_event:?}");
    assert_eq!(per_event[0]["group"], "Synthetic Fit Event");
    assert_eq!(per_event[0]["games"], 78);
}

/// A game that cannot be replayed to its end is fitted up to the stop and
/// named with its line and the reason; the other games are fitted in full.
#[test]
fn a_game_the_fit_cannot_replay_is_named_with_why() {
    let dir = tempfile::tempdir().unwrap();
    let planted = std::fs::read_to_string(here().join("tests/fixtures/fit/planted.pgn")).unwrap();
    let broken = "[Event \"Synthetic Fit Event\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";
    let path = dir.path().join("archive.pgn");
    std::fs::write(&path, format!("{broken}{planted}")).unwrap();
    let shown = path.display().to_string();
    let (code, groups) = fit_json(&here(), &[&shown, "--rules", "rulesets/tcec-s15.rules"]);
    assert_eq!(code, Some(1), "the planted values still depart");
    let g = &groups[0];
    assert_eq!(g["games"], 49);
    let un = g["unreplayed"].as_array().unwrap();
    assert_eq!(un.len(), 1, "{un:?}");
    assert_eq!(un[0]["game"], 1);
    assert_eq!(un[0]["line"], 6);
    assert_eq!(un[0]["ply"], 3);
    assert!(un[0]["reason"].as_str().unwrap().contains("Ke3"), "{un:?}");
    assert_eq!(
        fitted(g, "win_eval").1,
        "6.5",
        "the other games still decide"
    );

    let o = arbiter(&["rules", "fit", &shown, "--rules", "rulesets/tcec-s15.rules"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("games not replayed to their end") && text.contains(":6: game 1, ply 3:"),
        "{text}"
    );
}

/// An archive whose software ran the win rule off (its counter -1000 on
/// every move, no game ended by it): the fit finds the rule off, states the
/// win rule's own values flat with the text's kept, and names the games the
/// rule being on would have ended.
#[test]
fn a_rule_the_software_ran_off_is_found_and_its_values_are_flat() {
    let (code, groups) = fit_json(
        &here(),
        &[
            "tests/fixtures/fit/win-rule-off.pgn",
            "--rules",
            "rulesets/tcec-s15.rules",
        ],
    );
    assert_eq!(code, Some(1));
    let g = &groups[0];
    assert_eq!(fitted(g, "win_rule"), ("true", "false", vec!["false"]));
    for (name, grid) in [("win_eval", 15), ("win_plies", 10)] {
        let (text, got, equal) = fitted(g, name);
        assert_eq!(got, text, "{name}: flat, the text's value kept");
        assert_eq!(equal.len(), grid, "{name}: every value ties");
    }
    for name in ["draw_rule", "draw_eval", "draw_plies", "draw_from_move"] {
        let (text, got, equal) = fitted(g, name);
        assert_eq!((got, equal), (text, vec![text]), "{name}");
    }
    assert_eq!(
        g["under_fit"]["terminations"], g["under_fit"]["terminations_of"],
        "{g}"
    );
    assert_eq!(g["under_fit"]["counters"], g["under_fit"]["counters_of"]);
    let decided = g["decided"].as_array().unwrap();
    assert!(!decided.is_empty());
    for d in decided {
        assert!(
            d["under_text"].as_str().unwrap().contains("tcec.win-rule"),
            "{d}"
        );
        assert_eq!(d["fit_agrees"], true, "{d}");
        assert_eq!(d["text_agrees"], false, "{d}");
    }
    let block = g["variant_block"].as_str().unwrap();
    assert!(block.contains("const win_rule = false"), "{block}");
    assert!(
        !block.contains("win_plies"),
        "a flat value is not pasted: {block}"
    );
}

/// Counters written from another base (every draw-counter reading one
/// more than the rules compute, every win-counter reading one less):
/// `tcec-s15.rules` adds a fitted base to each, the fit finds both, the
/// win window stays the text's, and the readings all agree under the fit.
#[test]
fn a_counter_written_from_another_base_is_fitted_by_a_base_constant() {
    let dir = tempfile::tempdir().unwrap();
    // the draw counter written one higher, the win counter one lower,
    // where the rule is on
    let archive = std::fs::read_to_string(here().join("tests/fixtures/fit/text.pgn")).unwrap();
    let shift = |text: &str, key: &str, by: i64| {
        let re = regex::Regex::new(&format!(r"{key}=(-?\d+)")).unwrap();
        re.replace_all(text, |c: &regex::Captures| {
            let v = c[1].parse::<i64>().unwrap();
            let v = if v == -1000 { v } else { v + by };
            format!("{key}={v}")
        })
        .into_owned()
    };
    let shifted = shift(&shift(&archive, "Rd", 1), "Rr", -1);
    assert_ne!(shifted, archive);
    let pgn = dir.path().join("shifted.pgn");
    std::fs::write(&pgn, shifted.as_bytes()).unwrap();
    let (code, groups) = fit_json(
        &here(),
        &[pgn.to_str().unwrap(), "--rules", "rulesets/tcec-s15.rules"],
    );
    assert_eq!(code, Some(1));
    let g = &groups[0];
    assert_eq!(fitted(g, "rd_base"), ("0", "1", vec!["1"]));
    assert_eq!(fitted(g, "rr_base"), ("0", "-1", vec!["-1"]));
    assert_eq!(fitted(g, "win_plies"), ("10", "10", vec!["10"]));
    assert!(g["under_text"]["counters"].as_u64() < g["under_text"]["counters_of"].as_u64());
    assert_eq!(g["under_fit"]["counters"], g["under_fit"]["counters_of"]);
}

/// `tests/fixtures/fit/conventions.pgn` was written with the text's
/// adjudication values but an older software's conventions: R50 shown
/// before the move with half moves rounded up (as TCEC Season 9 shows it),
/// and its own words in TerminationDetails. The fit recovers each, and
/// every reading and termination then agrees.
#[test]
fn the_fit_recovers_the_counters_conventions_and_the_termination_texts() {
    let (code, groups) = fit_json(
        &here(),
        &[
            "tests/fixtures/fit/conventions.pgn",
            "--rules",
            "rulesets/tcec-s15.rules",
        ],
    );
    assert_eq!(code, Some(1), "the fit departs from the text");
    let g = &groups[0];
    assert_eq!(
        fitted(g, "r50_after_move"),
        ("true", "false", vec!["false"])
    );
    assert_eq!(fitted(g, "r50_round_up"), ("false", "true", vec!["true"]));
    assert_eq!(fitted(g, "r50_counts_down").1, "true");
    assert_eq!(fitted(g, "r50_plies_per_step").1, "2");
    assert_eq!(fitted(g, "fifty_text").1, "\"50-move rule\"");
    assert_eq!(fitted(g, "draw_rule_text").1, "\"Draw by TCEC rule\"");
    assert_eq!(fitted(g, "win_rule_text").1, "\"Adjudicated win\"");
    // the adjudication values are the text's, as planted
    for (name, text) in [
        ("draw_plies", "10"),
        ("win_plies", "10"),
        ("win_eval", "10"),
    ] {
        assert_eq!(fitted(g, name).1, text, "{name}");
    }
    assert!(g["under_text"]["counters"].as_u64() < g["under_text"]["counters_of"].as_u64());
    assert_eq!(g["under_fit"]["counters"], g["under_fit"]["counters_of"]);
    assert_eq!(
        g["under_fit"]["terminations"],
        g["under_fit"]["terminations_of"]
    );
    assert_eq!(g["under_fit"]["terminations_of"], 30);
}

/// `tests/fixtures/fit/shallow.pgn` was written with the text's values, its
/// moves without a search written as an engine that moved at once from the
/// tree it kept writes them (d=1 with nodes and a PV), and a software that
/// resets the draw and win counts there (`--shallow-moves --shallow-resets
/// true`). The fit recovers `shallow_resets`; with no move at n=0,
/// `searchless_resets` is flat; every reading and termination then agrees.
#[test]
fn a_software_that_sees_no_search_at_depth_one_is_recovered() {
    let (code, groups) = fit_json(
        &here(),
        &[
            "tests/fixtures/fit/shallow.pgn",
            "--rules",
            "rulesets/tcec-s15.rules",
        ],
    );
    assert_eq!(code, Some(1), "the fit departs from the text");
    let g = &groups[0];
    assert_eq!(fitted(g, "shallow_resets"), ("false", "true", vec!["true"]));
    assert_eq!(fitted(g, "searchless_resets").2.len(), 2, "no move at n=0");
    for (name, text) in [
        ("draw_from_move", "35"),
        ("draw_plies", "10"),
        ("draw_eval", "0.08"),
        ("win_plies", "10"),
        ("win_eval", "10"),
    ] {
        assert_eq!(fitted(g, name).1, text, "{name}");
    }
    assert!(g["under_text"]["counters"].as_u64() < g["under_text"]["counters_of"].as_u64());
    assert!(g["under_text"]["terminations"].as_u64() < g["under_text"]["terminations_of"].as_u64());
    assert_eq!(g["under_fit"]["counters"], g["under_fit"]["counters_of"]);
    assert_eq!(
        g["under_fit"]["terminations"],
        g["under_fit"]["terminations_of"]
    );
}

/// A wording the archive itself uses is kept: only a text no game of the
/// archive writes is replaced by one of the archive's own.
#[test]
fn a_termination_text_the_archive_uses_is_not_refitted() {
    let (_, groups) = fit_json(
        &here(),
        &[
            "tests/fixtures/fit/text.pgn",
            "--rules",
            "rulesets/tcec-s15.rules",
        ],
    );
    let g = &groups[0];
    for (name, text) in [
        ("fifty_text", "\"Fifty moves rule\""),
        ("draw_rule_text", "\"TCEC draw rule\""),
        ("win_rule_text", "\"TCEC win rule\""),
    ] {
        let f = g["fits"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap();
        assert_eq!(f["fitted"], text, "{name}");
        assert_eq!(
            f["tried"], 1,
            "{name}: only the text's own wording is tried"
        );
    }
}

/// `tests/fixtures/fit/text.pgn` with every R50 written at three times its
/// value (a convention no value of the ruleset expresses), in `dir`.
fn tripled_r50(dir: &Path) -> PathBuf {
    let archive = std::fs::read_to_string(here().join("tests/fixtures/fit/text.pgn")).unwrap();
    let r50 = regex::Regex::new(r"R50=(\d+)").unwrap();
    let tripled = r50.replace_all(&archive, |c: &regex::Captures| {
        format!("R50={}", c[1].parse::<i64>().unwrap() * 3)
    });
    assert_ne!(tripled, archive);
    let pgn = dir.join("tripled.pgn");
    std::fs::write(&pgn, tripled.as_bytes()).unwrap();
    pgn
}

/// An R50 written in a way no value of the ruleset expresses (here three
/// times the count): the fit's report names `tcec.r50-counter` as not
/// described, with its counts and first games; `audit --fit` says so once,
/// on the file's first game, and keeps every per-move finding in the JSON.
#[test]
fn a_convention_the_ruleset_cannot_express_is_named_not_described() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = tripled_r50(dir.path());
    let rules = here().join("rulesets/tcec-s15.rules");
    let (_, groups) = fit_json(
        &here(),
        &[pgn.to_str().unwrap(), "--rules", rules.to_str().unwrap()],
    );
    let g = &groups[0];
    let und = g["undescribed"].as_array().unwrap();
    let r = und
        .iter()
        .find(|u| u["rule"] == "tcec.r50-counter")
        .unwrap_or_else(|| panic!("tcec.r50-counter not named: {und:?}"));
    assert_eq!(r["of"], 30);
    assert_eq!(r["games"], 30, "R50 is wrong in every game");
    assert_eq!(r["first"].as_array().unwrap().len(), 3);
    assert!(r["first"][0].as_str().unwrap().starts_with("game 1 (round"));
    // the audit: one finding for the file, every reading still reported
    let o = arbiter_in(
        &here(),
        &[
            "audit",
            "--format",
            "json",
            "--fit",
            "--rules",
            rules.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let mut once = Vec::new();
    let mut per_move = 0;
    for (i, line) in String::from_utf8_lossy(&o.stdout).lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for f in v["findings"].as_array().into_iter().flatten() {
            if f["code"] == "rules-fit-undescribed" {
                once.push((i, f["message"].as_str().unwrap().to_string()));
            }
            if f["code"] == "tcec.r50-counter" {
                per_move += 1;
            }
        }
    }
    let r50_once: Vec<_> = once
        .iter()
        .filter(|(_, m)| m.contains("tcec.r50-counter fires in 30 of 30 games"))
        .collect();
    assert_eq!(r50_once.len(), 1, "{once:?}");
    assert_eq!(r50_once[0].0, 0, "on the file's first game");
    assert_eq!(
        per_move as u64,
        r["findings"].as_u64().unwrap(),
        "every per-move finding is kept"
    );
}

/// The codes of every finding `audit --fit` reports on `pgn`, counted.
fn audit_fit_codes(pgn: &str, rules: &str) -> std::collections::BTreeMap<String, usize> {
    let o = arbiter_in(
        &here(),
        &["audit", "--format", "json", "--fit", "--rules", rules, pgn],
    );
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut codes = std::collections::BTreeMap::new();
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] != "game" {
            continue;
        }
        for f in v["findings"].as_array().into_iter().flatten() {
            *codes
                .entry(f["code"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
    }
    codes
}

const CLOCK_CODES: [&str; 4] = [
    "tcec.clock",
    "tcec.flag-fall",
    "tcec.flag-fall-after-gain",
    "tcec.time-control",
];

/// `clocks-s13.pgn` ran 3600+10 (tag and clocks), where the ruleset's text
/// gives 1800+5 (a Season 13 division against the S15 text): the fit
/// takes the control from the record, and `audit --fit` then reports no
/// clock finding where the audit under the text reports them in every game.
#[test]
fn the_fit_recovers_the_time_control_the_record_ran() {
    let pgn = "tests/fixtures/fit/clocks-s13.pgn";
    let (_, groups) = fit_json(&here(), &[pgn, "--rules", "rulesets/tcec-s15.rules"]);
    let g = &groups[0];
    assert_eq!(
        fitted(g, "division-2-3-4"),
        ("\"1800+5\"", "\"3600+10\"", vec!["\"3600+10\""])
    );
    assert_eq!(g["under_fit"]["clocks"], g["under_fit"]["clocks_of"]);
    assert_eq!(g["under_fit"]["tags"], 20);
    assert_eq!(g["under_text"]["tags"], 0);
    let codes = audit_fit_codes(pgn, "rulesets/tcec-s15.rules");
    for c in CLOCK_CODES {
        assert!(!codes.contains_key(c), "{c} under the fit: {codes:?}");
    }
    // under the text, the same games break the control in every game
    let o = arbiter_in(
        &here(),
        &[
            "audit",
            "--format",
            "json",
            "--rules",
            "rulesets/tcec-s15.rules",
            pgn,
        ],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.matches("\"code\":\"tcec.time-control\"").count(), 20);
}

/// `clocks-s9.pgn`: 7200+15 whose clocks start 29 s above the base (what
/// TCEC Season 9's readings show), with R50 shown before the move and
/// rounded up. The fit finds the control with its start credit and the
/// counter's conventions; the variant it writes, pasted into the ruleset,
/// reproduces the clocks with no finding.
#[test]
fn a_start_credit_and_the_counters_conventions_are_recovered_together() {
    let pgn = "tests/fixtures/fit/clocks-s9.pgn";
    let (_, groups) = fit_json(&here(), &[pgn, "--rules", "rulesets/tcec-s15.rules"]);
    let g = &groups[0];
    assert_eq!(fitted(g, "division-2-3-4").1, "\"7200+15 start_credit 29\"");
    assert_eq!(fitted(g, "r50_after_move").1, "false");
    assert_eq!(fitted(g, "r50_round_up").1, "true");
    assert_eq!(g["under_fit"]["clocks"], g["under_fit"]["clocks_of"]);
    assert_eq!(g["under_fit"]["counters"], g["under_fit"]["counters_of"]);
    let codes = audit_fit_codes(pgn, "rulesets/tcec-s15.rules");
    for c in CLOCK_CODES.iter().chain(&["tcec.r50-counter"]) {
        assert!(!codes.contains_key(*c), "{c} under the fit: {codes:?}");
    }
    // the variant block declares the control and names it
    let block = g["variant_block"].as_str().unwrap();
    assert!(
        block.contains("start_credit 29000ms") && block.contains("increment 15000ms"),
        "{block}"
    );
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("with-variant.rules");
    let text = std::fs::read_to_string(here().join("rulesets/tcec-s15.rules")).unwrap();
    std::fs::write(&rules, format!("{text}\n{block}\n")).unwrap();
    let name = block
        .lines()
        .find_map(|l| l.strip_prefix("variant "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap();
    let o = arbiter_in(
        &here(),
        &[
            "audit",
            "--format",
            "json",
            "--rules",
            rules.to_str().unwrap(),
            "--variant",
            name,
            pgn,
        ],
    );
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    for c in CLOCK_CODES.iter().chain(&["tcec.r50-counter"]) {
        assert!(
            !out.contains(&format!("\"code\":\"{c}\"")),
            "{c} under the pasted variant"
        );
    }
}

/// `clocks-contradict.pgn`: its tag says 1800+5, its clocks ran 3600+10.
/// The clocks outweigh the tag (one piece of evidence a reading, one a
/// tag), and the tag's contradiction stays a finding in every game.
#[test]
fn a_tag_its_own_clocks_contradict_stays_a_finding() {
    let pgn = "tests/fixtures/fit/clocks-contradict.pgn";
    let (_, groups) = fit_json(&here(), &[pgn, "--rules", "rulesets/tcec-s15.rules"]);
    let g = &groups[0];
    let (_, fit, equally) = fitted(g, "division-2-3-4");
    assert_eq!(fit, "\"3600+10\"");
    assert!(
        equally.len() > 1,
        "a base and an equal start credit tie: {equally:?}"
    );
    assert_eq!(g["under_fit"]["tags"], 0);
    let codes = audit_fit_codes(pgn, "rulesets/tcec-s15.rules");
    assert_eq!(codes.get("tcec.time-control"), Some(&20), "{codes:?}");
    assert!(!codes.contains_key("tcec.clock"), "{codes:?}");
}

/// `batch --fit` over a folder of archives writes the acceptance tables:
/// a row per file with the values fitted and the agreement under the text
/// and the fit, a row per event, and each file's findings per game by
/// code; the summary shows them.
#[test]
fn batch_fit_writes_the_archive_acceptance_tables() {
    let dir = tempfile::tempdir().unwrap();
    let archives = dir.path().join("archives");
    std::fs::create_dir(&archives).unwrap();
    for f in ["clocks-s13.pgn", "conventions.pgn"] {
        std::fs::copy(here().join("tests/fixtures/fit").join(f), archives.join(f)).unwrap();
    }
    let out = dir.path().join("out");
    let o = arbiter_in(
        &here(),
        &[
            "batch",
            archives.to_str().unwrap(),
            "--rules",
            "rulesets/tcec-s15.rules",
            "--fit",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = std::fs::read_to_string(out.join("fit_acceptance.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("file,event,games,fitted,counters_text,counters_fit"),
        "{}",
        lines[0]
    );
    assert_eq!(lines.len(), 3, "a row per file: {csv}");
    let s13 = lines.iter().find(|l| l.contains("clocks-s13.pgn")).unwrap();
    assert!(s13.contains("3600+10"), "{s13}");
    let conv = lines
        .iter()
        .find(|l| l.contains("conventions.pgn"))
        .unwrap();
    assert!(conv.contains("r50_after_move = false"), "{conv}");
    // under the fit every counter agrees: counters_fit is 1.0 in both rows
    for l in &lines[1..] {
        let cols: Vec<&str> = l.rsplitn(12, ',').collect();
        // counters_fit is the tenth column from the end (not_described last)
        assert_eq!(cols[9], "1.0", "{l}");
    }
    assert!(out.join("fit_acceptance.parquet").exists());
    let by_event = std::fs::read_to_string(out.join("fit_acceptance_by_event.csv")).unwrap();
    assert_eq!(by_event.lines().count(), 2, "one event: {by_event}");
    let per_game = std::fs::read_to_string(out.join("findings_per_game.csv")).unwrap();
    assert!(per_game.starts_with("file,code,games,games_with,findings,per_game"));
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("### fit acceptance"),
        "the summary shows the table"
    );
}

/// In the text of `audit --fit`, a rule's findings repeated at the plies
/// of one game are one line: their count, first and last ply, and the
/// first in full. Without `--fit`, every finding keeps its lines.
#[test]
fn repeated_findings_of_a_game_are_one_line_under_the_fit() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = tripled_r50(dir.path());
    let text = |fit: bool| {
        let mut args = vec![
            "audit",
            "--rules",
            "rulesets/tcec-s15.rules",
            pgn.to_str().unwrap(),
        ];
        if fit {
            args.push("--fit");
        }
        String::from_utf8_lossy(&arbiter_in(&here(), &args).stdout).to_string()
    };
    let fitted = text(true);
    let games: Vec<&str> = fitted.split("\n../").collect();
    let mut collapsed = 0;
    for g in fitted.split(" game ").skip(1) {
        let lines = g.matches("[tcec.r50-counter]").count();
        assert!(lines <= 1, "one line a game: {g}");
        collapsed += lines;
    }
    assert_eq!(collapsed, 30, "every game has its one line");
    assert!(
        fitted.contains("times in this game, plies "),
        "{}",
        games.first().unwrap_or(&"")
    );
    let plain = text(false);
    assert!(plain.matches("[tcec.r50-counter]").count() > 30 * 10);
    assert!(!plain.contains("times in this game"));
}

/// A point one value away from one evaluated is evaluated with only the
/// rules that read the value (`src/rules/fit/partial.rs`), and a game once
/// for each class of a threshold's values (`src/rules/fit/search/classes.rs`);
/// with ARBITER_FIT_FULL set every point is evaluated whole. Both give the
/// same report, byte for byte: on fixtures, and where the corpus is there
/// on Season 11 (whose draw rule's start is fitted, its classes read from
/// the draw streak's column) and Cup 5 (whose depth-1 moves reset the
/// counters: a flag told apart only in the games that have such a move).
#[test]
fn evaluating_only_what_a_value_changes_gives_the_whole_evaluations_report() {
    let mut files: Vec<String> = [
        "tests/fixtures/fit/planted.pgn",
        "tests/fixtures/fit/clocks-s9.pgn",
        "tests/fixtures/fit/win-rule-off.pgn",
    ]
    .map(String::from)
    .to_vec();
    if let Some(other) = tcec_other() {
        for f in ["TCEC_Season_11_-_Division_4.pgn", "TCEC_Cup_5_Final.pgn"] {
            files.push(other.join(f).to_string_lossy().into_owned());
        }
    }
    for pgn in &files {
        let pgn = pgn.as_str();
        let args = [
            "rules",
            "fit",
            "--format",
            "json",
            "--rules",
            "rulesets/tcec-s15.rules",
            pgn,
        ];
        let partial = arbiter_in(&here(), &args);
        let whole = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .current_dir(here())
            .env("ARBITER_FIT_FULL", "1")
            .output()
            .unwrap();
        assert!(!partial.stdout.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&partial.stdout),
            String::from_utf8_lossy(&whole.stdout),
            "{pgn}"
        );
    }
}

/// An audit under the fit does not ask for each fit's ties: a fit at the
/// text's value whose rules all agree is not scanned. The fitted values,
/// the agreements, the games decided otherwise and the rules not
/// described are those of the fit that scans every fit; only the ties
/// (and the number of points) differ. On every fit fixture, and on S15's
/// divisions, whose rules agree at the text almost everywhere.
#[test]
fn a_fit_without_ties_fits_the_same_values() {
    use arbiter::rules::eval::Detectors;
    use arbiter::rules::fit::{GroupFit, fit_group_with};
    let mut files: Vec<PathBuf> = std::fs::read_dir(here().join("tests/fixtures/fit"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    if let Some(s15) = tcec_s15() {
        files.extend(["tcec-s15-division-1.pgn", "tcec-s15-division-4a.pgn"].map(|f| s15.join(f)));
    }
    files.sort();
    let src = std::fs::read_to_string(here().join("rulesets/tcec-s15.rules")).unwrap();
    let rs = compile("rulesets/tcec-s15.rules", &src).unwrap();
    let detectors = Detectors::default();
    // what an audit reads of a fit: all but the ties and the points
    let read = |f: &GroupFit| {
        let mut v = serde_json::to_value(f).unwrap();
        v["evaluations"] = serde_json::Value::Null;
        for x in v["fits"].as_array_mut().unwrap() {
            x["equally_good"] = serde_json::Value::Null;
        }
        (v, f.overrides.clone())
    };
    let mut fewer = 0;
    for path in &files {
        let games = arbiter::pipeline::fit::read_games(path).unwrap();
        let list: Vec<_> = games.iter().collect();
        let fit = |ties| fit_group_with(&rs, "g", &list, None, &detectors, &|_| {}, ties);
        let (all, values) = (fit(true).unwrap(), fit(false).unwrap());
        assert_eq!(read(&all), read(&values), "{}", path.display());
        assert!(values.evaluations <= all.evaluations, "{}", path.display());
        fewer += usize::from(values.evaluations < all.evaluations);
    }
    assert!(fewer > 0, "no fit was spared a scan");
}

/// A file with no game cannot be fitted: `--fit` says so once, naming the
/// file once, and the file is audited under the text; with no game read
/// at all, the run has nothing to audit and exits 2 (README, "Exit
/// codes"), naming the file once more.
#[test]
fn a_file_with_no_game_is_named_once_and_audited_under_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let shown = empty.to_str().unwrap();
    let out = arbiter(&[
        "batch",
        shown,
        "--rules",
        &here().join("rulesets/tcec-s15.rules").to_string_lossy(),
        "--fit",
        "--out",
        &dir.path().join("out").to_string_lossy(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "--fit: {shown}: no game to fit; audited under the text"
        )),
        "{err}"
    );
    assert_eq!(err.matches("no game to fit").count(), 1, "{err}");
    assert!(
        err.contains(&format!(
            "arbiter batch: nothing to audit: no game in {shown}\n"
        )),
        "{err}"
    );
    assert_eq!(err.matches(shown).count(), 2, "{err}");
    assert_eq!(out.status.code(), Some(2), "{err}");
}
