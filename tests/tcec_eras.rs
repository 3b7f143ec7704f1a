//! Every TCEC era under its own rules (docs/tcec-eras.md): the folder
//! `rulesets/tcec/` claims each record by its Event tag (the season's or
//! the Cup's number, a 4k event), next season's included; Season 15 is
//! judged exactly as under `tcec-s15.rules`; and on the archive the modern
//! draw rules reproduce their counters and endings (`ARBITER_CORPUS`).

use std::path::Path;

use serde_json::Value;

use super::{arbiter, json_lines, tcec_other, tcec_s15};

const ERAS: &str = "rulesets/tcec/";

/// A game of `event`: mate in two, so that nothing but the choice matters.
fn game(event: &str) -> String {
    format!(
        "[Event \"{event}\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
    )
}

/// The audit's JSON lines of `files` under the folder of eras.
fn audit(files: &[&Path], extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["audit"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend(["--rules", ERAS, "--format", "json"]);
    args.extend_from_slice(extra);
    json_lines(&arbiter(&args))
}

/// Each file's ruleset, by the summary's inputs, in the files' order.
fn chosen(lines: &[Value]) -> Vec<String> {
    let summary = lines.iter().find(|l| l["type"] == "summary").unwrap();
    (summary["inputs"].as_array().unwrap().iter())
        .map(|i| i["ruleset"]["id"].as_str().unwrap_or("none").to_string())
        .collect()
}

#[test]
fn each_record_is_claimed_by_its_era_next_seasons_included() {
    let t = tempfile::tempdir().unwrap();
    let cases = [
        ("TCEC Season 2 - Division A", "tcec-s01-s13"),
        ("TCEC Season 13 - Division 2", "tcec-s01-s13"),
        ("TCEC Season 14 - Division 3", "tcec-s14-s16"),
        ("TCEC Season 15 - Division 1", "tcec-era-s15"),
        ("TCEC Season 16 - Premier", "tcec-s14-s16"),
        ("TCEC Cup 4 - Final", "tcec-s14-s16"),
        ("TCEC Season 20 - League 3", "tcec-s17-s20"),
        ("TCEC Cup 8 - Round 16", "tcec-s17-s20"),
        ("TCEC Season 22 - Premier", "tcec-s21-s23"),
        ("TCEC Cup 10 - Round 32", "tcec-s21-s23"),
        ("TCEC Season 25 - Division P Playoff", "tcec-s24-on"),
        ("TCEC Cup 11 - Quarterfinal", "tcec-s24-on"),
        // seasons and Cups no archive holds yet
        ("TCEC Season 31 - League 1", "tcec-s24-on"),
        ("TCEC Cup 20 - Final", "tcec-s24-on"),
        ("TCEC Season 29 - 4k VI", "tcec-fourk"),
        ("TCEC Season 33 - 4K VIII", "tcec-fourk"),
        // not a TCEC event: none claims it
        ("CCRL 40/15", "none"),
    ];
    let mut files = Vec::new();
    for (i, (event, _)) in cases.iter().enumerate() {
        let p = t.path().join(format!("{i:02}.pgn"));
        std::fs::write(&p, game(event)).unwrap();
        files.push(p);
    }
    let paths: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let lines = audit(&paths, &[]);
    let want: Vec<&str> = cases.iter().map(|(_, id)| *id).collect();
    assert_eq!(chosen(&lines), want);
}

/// Season 15 under the folder of eras: every game's line as under
/// `tcec-s15.rules` alone.
#[test]
fn season_15_is_judged_as_under_its_own_ruleset() {
    let Some(s15) = tcec_s15() else {
        return;
    };
    let file = s15.join("tcec-s15-division-1.pgn");
    let games = |lines: Vec<Value>| -> Vec<Value> {
        lines.into_iter().filter(|l| l["type"] == "game").collect()
    };
    let eras = games(audit(&[&file], &[]));
    let own = games(json_lines(&arbiter(&[
        "audit",
        file.to_str().unwrap(),
        "--rules",
        "rulesets/tcec-s15.rules",
        "--format",
        "json",
    ])));
    assert_eq!(eras.len(), 112);
    assert_eq!(eras, own);
}

/// The draw rules the records show, on the archive: the modern form
/// (Season 25's Division P playoff, Cup 16's semifinal) and the 2022 form
/// (Cup 10): every recorded draw-rule counter reproduced, every ending the
/// tables do not leave undecided reproduced at its ply, and no draw- or
/// win-counter finding.
#[test]
fn the_modern_draw_rules_reproduce_the_records() {
    let Some(other) = tcec_other() else {
        return;
    };
    for name in [
        "TCEC_Season_25_-_Division_P_Playoff.pgn",
        "TCEC_Cup_16_Semifinal.pgn",
        "TCEC_Cup_10_Round32.pgn",
    ] {
        let tables = std::env::var("ARBITER_SYZYGY").ok();
        let mut extra = vec!["--fit"];
        if let Some(t) = &tables {
            extra.extend(["--syzygy", t.as_str()]);
        }
        let lines = audit(&[&other.join(name)], &extra);
        let mut draw_endings = 0;
        for g in lines.iter().filter(|l| l["type"] == "game") {
            let codes: Vec<&str> = (g["findings"].as_array().unwrap().iter())
                .filter_map(|f| f["code"].as_str())
                .collect();
            for bad in [
                "tcec.draw-counter",
                "tcec.win-counter",
                "adjudication-missed",
                "adjudication-mislabelled",
                "adjudication-wrong-result",
                "adjudication-unsupported",
            ] {
                assert!(!codes.contains(&bad), "{name}: {bad} in {g}");
            }
            if g["termination"]["computed"]["rule"] == "tcec.draw-rule" {
                draw_endings += 1;
            }
        }
        assert!(
            draw_endings >= 10,
            "{name}: {draw_endings} draw-rule endings"
        );
    }
}

/// A 4k event ends no game by a TCEC adjudication: a record that says it
/// does is `tcec.game-ending`, at its TerminationDetails; the same record in
/// a league is not.
#[test]
fn a_4k_game_ended_by_an_adjudication_is_found() {
    let t = tempfile::tempdir().unwrap();
    let game = |event: &str| {
        format!(
            "[Event \"{event}\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n[TerminationDetails \"TCEC draw rule\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n"
        )
    };
    let codes = |event: &str| -> Vec<String> {
        let p = t.path().join("g.pgn");
        std::fs::write(&p, game(event)).unwrap();
        let lines = audit(&[&p], &[]);
        let g = lines.iter().find(|l| l["type"] == "game").unwrap();
        (g["findings"].as_array().unwrap().iter())
            .map(|f| f["code"].as_str().unwrap().to_string())
            .collect()
    };
    let fourk = codes("TCEC Season 29 - 4k VI");
    assert!(fourk.contains(&"tcec.game-ending".to_string()), "{fourk:?}");
    let league = codes("TCEC Season 29 - League 1");
    assert!(
        !league.contains(&"tcec.game-ending".to_string()),
        "{league:?}"
    );
}

/// The modern draw rule is live: in a copy of Season 25's Division P
/// playoff, the first game the rule ended gets an eval out of the band at
/// its last move, and that game's ending is no longer reproduced (a
/// finding at it); every other game stays as it was.
#[test]
fn a_draw_rule_ending_planted_out_of_the_band_is_found() {
    let Some(other) = tcec_other() else {
        return;
    };
    let text =
        std::fs::read_to_string(other.join("TCEC_Season_25_-_Division_P_Playoff.pgn")).unwrap();
    let end = text.find("Adjudication: TCEC draw rule}").unwrap();
    let at = text[..end].rfind("wv=").unwrap();
    let wv_end = at + text[at..].find(',').unwrap();
    assert_eq!(&text[at..wv_end], "wv=0.00");
    let planted = format!("{}wv=0.90{}", &text[..at], &text[wv_end..]);
    let t = tempfile::tempdir().unwrap();
    let run = |body: &str| -> Vec<Vec<String>> {
        let p = t.path().join("playoff.pgn");
        std::fs::write(&p, body).unwrap();
        (audit(&[&p], &[]).iter())
            .filter(|l| l["type"] == "game")
            .map(|g| {
                (g["findings"].as_array().unwrap().iter())
                    .filter_map(|f| f["code"].as_str())
                    .filter(|c| c.starts_with("adjudication-"))
                    .map(String::from)
                    .collect()
            })
            .collect()
    };
    let (was, now) = (run(&text), run(&planted));
    let differ: Vec<usize> = (0..was.len()).filter(|&i| was[i] != now[i]).collect();
    assert_eq!(differ.len(), 1, "{differ:?}");
    assert!(was[differ[0]].is_empty(), "{:?}", was[differ[0]]);
    assert!(!now[differ[0]].is_empty());
}

/// The modern draw rule's values are recovered untold: a copy of
/// `s24-on.rules` whose draw rule starts from wrong values (12 plies,
/// ±0.10, at most 8 pieces and 6 pawns) is fitted on Season 25's Division
/// P playoff, and the fit finds the records' rule, each value alone
/// reproducing them (8 plies, ±0.25, 4 pieces, 16 pawns), with every
/// counter and ending agreeing.
#[test]
fn the_fit_recovers_the_modern_draw_rule_untold() {
    let Some(other) = tcec_other() else {
        return;
    };
    let here = std::env::current_dir().unwrap();
    let text = std::fs::read_to_string(here.join("rulesets/tcec/s24-on.rules")).unwrap();
    let mut planted = text.clone();
    for (was, now) in [
        ("const draw_plies = 8 ", "const draw_plies = 12 "),
        ("const draw_eval = 0.25 ", "const draw_eval = 0.10 "),
        ("const draw_pieces = 4 ", "const draw_pieces = 8 "),
        ("const draw_pawns = 16 ", "const draw_pawns = 6 "),
    ] {
        assert_eq!(planted.matches(was).count(), 1, "{was}");
        planted = planted.replace(was, now);
    }
    let t = tempfile::tempdir().unwrap();
    let rules = t.path().join("planted.rules");
    std::fs::write(&rules, planted).unwrap();
    let pgn = other.join("TCEC_Season_25_-_Division_P_Playoff.pgn");
    let (_, groups) = super::fit::fit_json(
        &here,
        &[pgn.to_str().unwrap(), "--rules", rules.to_str().unwrap()],
    );
    assert_eq!(groups.len(), 1);
    let g = &groups[0];
    for (name, text, fitted) in [
        ("draw_plies", "12", "8"),
        ("draw_eval", "0.1", "0.25"),
        ("draw_pieces", "8", "4"),
        ("draw_pawns", "6", "16"),
    ] {
        let (t, f, equally) = super::fit::fitted(g, name);
        assert_eq!((t, f), (text, fitted), "{name}");
        assert_eq!(equally, vec![fitted], "{name}: the data decide it alone");
    }
    let under = &g["under_fit"];
    assert!(under["counters"].as_u64().unwrap() > 20_000, "{under}");
    assert_eq!(under["counters"], under["counters_of"], "{under}");
    assert_eq!(under["terminations"], under["terminations_of"], "{under}");
    // under the planted text, the rule is wrong
    let text = &g["under_text"];
    assert_ne!(text["terminations"], text["terminations_of"], "{text}");
}

/// A 4k engine writes `n=0` on every move, so `4k.rules` reads a node
/// count of 0 as no evidence (`zero_nodes_unknown`) and judges such a move
/// by its depth and time: the Minifinal's real moves (n=0, depth 30 and
/// more, a minute each) are searches, and ten moves of one side made at
/// once (d=1, mt=0), planted in a copy of its first game, are a hidden
/// book run, found in that game alone.
#[test]
fn a_4k_hidden_book_run_is_found_though_every_move_writes_no_nodes() {
    let Some(other) = tcec_other() else {
        return;
    };
    let text = std::fs::read_to_string(other.join("TCEC_Season_28_-_4k_V_Minifinal.pgn")).unwrap();
    let second = text[1..].find("[Event ").unwrap() + 1;
    let (first, rest) = text.split_at(second);
    let depth = regex::Regex::new(r"\bd=\d+").unwrap();
    let time = regex::Regex::new(r"\bmt=\d+").unwrap();
    let comment = regex::Regex::new(r"\{[^}]*\}").unwrap();
    let mut k = 0;
    let planted = comment.replace_all(first, |c: &regex::Captures<'_>| {
        k += 1;
        let c = &c[0];
        assert!(
            k == 1 || c.starts_with("{book") || c.contains("n=0,"),
            "{c}"
        );
        if (22..42).step_by(2).any(|j| j == k) {
            let c = depth.replace(c, "d=1");
            time.replace(&c, "mt=0").into_owned()
        } else {
            c.to_string()
        }
    });
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("minifinal.pgn");
    let books = |body: &str| -> Vec<usize> {
        std::fs::write(&p, body).unwrap();
        (audit(&[&p], &[]).iter())
            .filter(|l| l["type"] == "game")
            .map(|g| {
                (g["findings"].as_array().unwrap().iter())
                    .filter(|f| f["code"] == "tcec.hidden-book")
                    .count()
            })
            .collect()
    };
    let was = books(&text);
    assert_eq!(was.len(), 50);
    assert!(was.iter().all(|&n| n == 0), "{was:?}");
    let now = books(&format!("{planted}{rest}"));
    assert!(now[0] >= 5, "{now:?}");
    assert!(now[1..].iter().all(|&n| n == 0), "{now:?}");
}

/// Season 17's Stockfish 10pct test scores a move recorded without a
/// search with the mover's last evaluation (`searchless_keeps_eval` in
/// `s17-s20.rules`): the fit keeps it on, the data deciding, and every
/// counter but one agrees; a copy of the ruleset without it leaves five.
#[test]
fn a_move_without_a_search_keeps_the_movers_last_evaluation_in_season_17() {
    let Some(other) = tcec_other() else {
        return;
    };
    let here = std::env::current_dir().unwrap();
    let pgn = other.join("TCEC_Season_17_-_Stockfish_10pct_Vs_Divp_Test_1.pgn");
    let fit = |rules: &Path| {
        let (_, groups) = super::fit::fit_json(
            &here,
            &[pgn.to_str().unwrap(), "--rules", rules.to_str().unwrap()],
        );
        groups.into_iter().next().unwrap()
    };
    let era = here.join("rulesets/tcec/s17-s20.rules");
    let g = fit(&era);
    let (text, fitted, equally) = super::fit::fitted(&g, "searchless_keeps_eval");
    assert_eq!((text, fitted, equally), ("true", "true", vec!["true"]));
    let under = &g["under_fit"];
    assert_eq!(under["counters_of"], 4008, "{under}");
    assert_eq!(under["counters"], 4007, "{under}");
    let t = tempfile::tempdir().unwrap();
    let off = t.path().join("off.rules");
    let body = std::fs::read_to_string(&era).unwrap();
    let without = body.replace(
        "switch searchless_keeps_eval = true fit",
        "switch searchless_keeps_eval = false fit",
    );
    assert_ne!(without, body);
    // the recorded score alone, whatever the fit makes of the switch
    let without = without.replace(
        "let rules_score on move = coalesce(last(move.score, over: not (searchless_keeps_eval and searchless), per: move.side), move.score)",
        "let rules_score on move = move.score",
    );
    std::fs::write(&off, without).unwrap();
    let g = fit(&off);
    assert_eq!(g["under_fit"]["counters"], 4003, "{}", g["under_fit"]);
}
