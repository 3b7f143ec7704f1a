//! Event-level rules (`arbiter batch`): pairings and schedules, engine
//! updates within a division, promotion against the computed standings.
//! Each event is written here game by game, with one defect planted where
//! the test says, and the findings are read back from findings.csv.

use std::path::Path;

use super::{arbiter, tcec_s15};

/// One game: its tags and a short movetext (comments allowed).
fn game(
    event: &str,
    round: &str,
    white: &str,
    black: &str,
    result: &str,
    extra: &str,
    moves: &str,
) -> String {
    format!(
        "[Event \"{event}\"]\n[Site \"?\"]\n[Date \"2019.03.01\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n{extra}\n{moves} {result}\n\n"
    )
}

/// Run a batch on `pgn` under `rules`; return (exit code, findings.csv
/// rows of event-level rules as (code, engine, message), summary.md).
fn run(pgn: &str, rules: &str) -> (i32, Vec<(String, String, String)>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("event.pgn");
    std::fs::write(&file, pgn).unwrap();
    let out = dir.path().join("out");
    let o = arbiter(&[
        "batch",
        file.to_str().unwrap(),
        "--rules",
        rules,
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    let code = o.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (
        code,
        event_findings(&out),
        std::fs::read_to_string(out.join("summary.md")).unwrap(),
    )
}

/// The findings of event-level rules (no ply, round empty) in findings.csv.
pub fn event_findings(out: &Path) -> Vec<(String, String, String)> {
    let f = std::fs::File::open(out.join("findings.parquet")).unwrap();
    use polars::prelude::*;
    let df = ParquetReader::new(f).finish().unwrap();
    let col = |n: &str| df.column(n).unwrap().str().unwrap().clone();
    let (code, engine, msg, round) = (col("code"), col("engine"), col("message"), col("round"));
    (0..df.height())
        .filter(|&i| round.get(i) == Some(""))
        .map(|i| {
            (
                code.get(i).unwrap().to_string(),
                engine.get(i).unwrap().to_string(),
                msg.get(i).unwrap().to_string(),
            )
        })
        .collect()
}

fn codes(f: &[(String, String, String)], code: &str) -> Vec<(String, String)> {
    f.iter()
        .filter(|(c, ..)| c == code)
        .map(|(_, e, m)| (e.clone(), m.clone()))
        .collect()
}

const DIV2: &str = "TCEC Season 15 - Division 2";

/// A 2x double round robin of three engines: every pair four times, twice
/// with each colour; `edit` changes the list before it is written.
fn round_robin(edit: impl Fn(&mut Vec<(String, String, String)>)) -> String {
    let names = ["Alpha 1.0", "Beta 2.1", "Gamma 3"];
    let mut games: Vec<(String, String, String)> = Vec::new();
    for _cycle in 0..2 {
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    games.push((names[i].into(), names[j].into(), "1/2-1/2".into()));
                }
            }
        }
    }
    edit(&mut games);
    games
        .iter()
        .enumerate()
        .map(|(k, (w, b, r))| game(DIV2, &format!("{}.1", k + 1), w, b, r, "", "1. e4 e5"))
        .collect()
}

#[test]
fn double_round_robin_complete_and_balanced() {
    let (_, f, _) = run(&round_robin(|_| {}), "rulesets/tcec-s15.rules");
    assert!(codes(&f, "tcec.round-robin").is_empty(), "{f:?}");
    assert!(codes(&f, "tcec.engine-update").is_empty(), "{f:?}");
}

#[test]
fn double_round_robin_missing_game_and_wrong_colours() {
    // the last game is missing, and one Alpha-Beta game is played with
    // the colours reversed (Alpha has White three times)
    let pgn = round_robin(|g| {
        g.pop();
        let k = g
            .iter()
            .position(|(w, b, _)| w == "Beta 2.1" && b == "Alpha 1.0")
            .unwrap();
        g[k] = ("Alpha 1.0".into(), "Beta 2.1".into(), "1/2-1/2".into());
    });
    let (code, f, _) = run(&pgn, "rulesets/tcec-s15.rules");
    assert_eq!(code, 1);
    let rr = codes(&f, "tcec.round-robin");
    assert_eq!(rr.len(), 2, "{rr:?}");
    let ab = rr
        .iter()
        .find(|(e, _)| e == "Alpha 1.0 / Beta 2.1")
        .unwrap();
    assert!(
        ab.1.contains("4 games, 3 with White for Alpha 1.0 and 1 for Beta 2.1"),
        "{ab:?}"
    );
    let bg = rr.iter().find(|(e, _)| e == "Beta 2.1 / Gamma 3").unwrap();
    assert!(bg.1.contains(": 3 games"), "{bg:?}");
}

#[test]
fn engine_updated_once_and_twice_within_a_division() {
    // Gamma plays its last games as "Gamma 3.1"; with a third name it has
    // been updated twice
    let once = round_robin(|g| {
        for (w, b, _) in g.iter_mut().skip(8) {
            for n in [w, b] {
                if n == "Gamma 3" {
                    *n = "Gamma 3.1".into();
                }
            }
        }
    });
    let (_, f, _) = run(&once, "rulesets/tcec-s15.rules");
    let up = codes(&f, "tcec.engine-update");
    assert_eq!(up.len(), 1, "{f:?}");
    assert_eq!(up[0].0, "Gamma 3 / Gamma 3.1");
    assert!(
        up[0]
            .1
            .contains("Gamma 3 (from game 2), Gamma 3.1 (from game 10)"),
        "{up:?}"
    );
    // the versions are one entrant: the round robin is still complete
    assert!(codes(&f, "tcec.round-robin").is_empty(), "{f:?}");
    assert!(codes(&f, "tcec.engine-updated-twice").is_empty());
    let twice = round_robin(|g| {
        for (k, (w, b, _)) in g.iter_mut().enumerate().skip(6) {
            for n in [w, b] {
                if n == "Gamma 3" {
                    *n = if k < 9 { "Gamma 3.1" } else { "Gamma 3.2" }.into();
                }
            }
        }
    });
    let (_, f, _) = run(&twice, "rulesets/tcec-s15.rules");
    let up = codes(&f, "tcec.engine-updated-twice");
    assert_eq!(up.len(), 1, "{f:?}");
    assert!(up[0].1.contains("under 3 versions"), "{up:?}");
}

const SF: &str = "TCEC Season 15 - Superfinal";

fn superfinal_game(n: usize, white: &str, black: &str, opening: &str) -> String {
    game(SF, &n.to_string(), white, black, "1/2-1/2", "", opening)
}

#[test]
fn superfinal_opening_pairs_and_all_games() {
    let (a, b) = ("LCZero v0.21", "Stockfish 19050918");
    let o1 = "1. d4 {book} d5 {book} 2. c4 {book}";
    let o2 = "1. e4 {book} c5 {book} 2. Nf3 {book}";
    let o3 = "1. c4 {book} e5 {book}";
    let pgn = [
        superfinal_game(1, a, b, o1),
        superfinal_game(2, b, a, o1),
        // opening 2: colours not swapped
        superfinal_game(3, a, b, o2),
        superfinal_game(4, a, b, o2),
        // opening 3, then a game whose record names no opening
        superfinal_game(5, b, a, o3),
        superfinal_game(6, a, b, "1. c4 e5"),
    ]
    .concat();
    let (code, f, _) = run(&pgn, "rulesets/tcec-s15.rules");
    assert_eq!(code, 1);
    let bad: Vec<String> = codes(&f, "tcec.superfinal-openings")
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    // games 3 and 4 (not swapped) and game 5 (its opening played once)
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(
        bad[0].starts_with("game 3 ")
            && bad[1].starts_with("game 4 ")
            && bad[2].starts_with("game 5 ")
    );
    assert!(bad[0].contains("colours swapped: false"), "{bad:?}");
    // each opening's place among the event's, in the order they first come
    assert!(
        bad[0].contains("starts from opening 2, played in 2 games (the other: 4,")
            && bad[2].contains("starts from opening 3, played in 1 games"),
        "{bad:?}"
    );
    let unknown = codes(&f, "tcec.superfinal-opening-unknown");
    assert_eq!(unknown.len(), 1);
    assert!(unknown[0].1.starts_with("game 6 "));
    let games = codes(&f, "tcec.superfinal-games");
    assert_eq!(games.len(), 1);
    assert!(
        games[0].1.contains("6 games with a result of 6"),
        "{games:?}"
    );
    // the division rules do not apply to the Superfinal
    assert!(codes(&f, "tcec.round-robin").is_empty());
}

const DB: &str = "IBM Man-Machine, Philadelphia 1996";

/// The 1996 match as played: Deep Blue had White in game 1, and the
/// colours alternated; Kasparov won 4-2.
fn deep_blue(games: &[(&str, &str, &str)]) -> String {
    games
        .iter()
        .enumerate()
        .map(|(k, (w, b, r))| game(DB, &(k + 1).to_string(), w, b, r, "", "1. e4 e5"))
        .collect()
}

const DB_MATCH: [(&str, &str, &str); 6] = [
    ("Deep Blue", "Kasparov, Garry", "1-0"),
    ("Kasparov, Garry", "Deep Blue", "1-0"),
    ("Deep Blue", "Kasparov, Garry", "1/2-1/2"),
    ("Kasparov, Garry", "Deep Blue", "1/2-1/2"),
    ("Deep Blue", "Kasparov, Garry", "0-1"),
    ("Kasparov, Garry", "Deep Blue", "1-0"),
];

#[test]
fn deep_blue_colours_alternate_and_six_games() {
    let (_, f, summary) = run(
        &deep_blue(&DB_MATCH),
        "rulesets/kasparov-deep-blue-1996.rules",
    );
    assert!(codes(&f, "db.colours").is_empty(), "{f:?}");
    assert!(codes(&f, "db.six-games").is_empty(), "{f:?}");
    // the match score: Kasparov 4, Deep Blue 2
    assert!(
        summary.contains("| 1 | Kasparov, Garry | 6 | 4 |"),
        "{summary}"
    );
    // game 3 with the colours of game 2, and only five games
    let mut swapped = DB_MATCH.to_vec();
    swapped[2] = ("Kasparov, Garry", "Deep Blue", "1/2-1/2");
    swapped.pop();
    let (code, f, _) = run(
        &deep_blue(&swapped),
        "rulesets/kasparov-deep-blue-1996.rules",
    );
    assert_eq!(code, 1);
    let c = codes(&f, "db.colours");
    // games 3 and 4 both repeat the colours of the game before them (game
    // 3 those of game 2, game 4 those of the planted game 3); game 5
    // alternates again
    let games: Vec<&str> = c
        .iter()
        .map(|(_, m)| m.split(':').next().unwrap())
        .collect();
    assert_eq!(games, ["game 3", "game 4"], "{c:?}");
    assert!(
        codes(&f, "db.six-games")[0]
            .1
            .contains("5 games with a result")
    );
}

const WCCC: &str = "7th World Computer Chess Championship";

fn wccc(games: &[(u32, usize, usize, &str)], rated: bool) -> String {
    // eight programs, P1 the highest rated; P1-P4 are the upper half
    let elo = |p: usize| 2500 - 50 * p;
    games
        .iter()
        .map(|&(round, w, b, r)| {
            let extra = if rated {
                format!("[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n", elo(w), elo(b))
            } else {
                String::new()
            };
            game(
                WCCC,
                &round.to_string(),
                &format!("P{w}"),
                &format!("P{b}"),
                r,
                &extra,
                "1. e4 e5",
            )
        })
        .collect()
}

#[test]
fn wccc_accelerated_pairings() {
    // round 1 keeps the halves apart; in round 2 the lower half's winners
    // (P5, P7) meet each other and the lower half's losers may meet the
    // upper half's
    let clean = [
        (1, 1, 3, "1-0"),
        (1, 2, 4, "1-0"),
        (1, 5, 6, "1-0"),
        (1, 7, 8, "1-0"),
        (2, 1, 2, "1/2-1/2"),
        (2, 5, 7, "1-0"),
        (2, 3, 6, "1-0"),
        (2, 4, 8, "1-0"),
        (3, 1, 5, "1-0"),
    ];
    let (_, f, _) = run(&wccc(&clean, true), "rulesets/wccc-1992-madrid.rules");
    assert!(codes(&f, "wccc.accelerated-pairing").is_empty(), "{f:?}");
    assert!(codes(&f, "wccc.rematch").is_empty(), "{f:?}");
    // round 1 pairs P1 with P5 (avoidable) and round 2 pairs the lower-half
    // winner P7 with P2; round 3 may pair anyone
    let mut bad = clean;
    bad[0] = (1, 1, 5, "1-0");
    bad[2] = (1, 3, 6, "1-0");
    bad[5] = (2, 2, 7, "1-0");
    bad[4] = (2, 1, 5, "1/2-1/2");
    bad[6] = (2, 3, 8, "1-0");
    bad[7] = (2, 4, 6, "1-0");
    let (code, f, _) = run(&wccc(&bad, true), "rulesets/wccc-1992-madrid.rules");
    assert_eq!(code, 1);
    let a = codes(&f, "wccc.accelerated-pairing");
    let who: Vec<&str> = a.iter().map(|(e, _)| e.as_str()).collect();
    // P1-P5 in round 1; in round 2 P2-P7 (P7 won round 1); P1-P5 again in
    // round 2 is a rematch, reported by wccc.rematch
    assert!(
        who.contains(&"P1 / P5") && who.contains(&"P2 / P7"),
        "{a:?}"
    );
    assert!(a[0].1.contains("could have been paired"), "{a:?}");
    assert_eq!(codes(&f, "wccc.rematch").len(), 1, "{f:?}");
    // without ratings there is no expected ranking: not decided, and said
    let (_, f, summary) = run(&wccc(&clean, false), "rulesets/wccc-1992-madrid.rules");
    assert!(codes(&f, "wccc.accelerated-pairing").is_empty());
    assert!(
        summary.contains("wccc.accelerated-pairing: not decided: no expected ranking"),
        "{summary}"
    );
}

#[test]
fn wccc_unavoidable_meeting_is_not_reported() {
    // four programs: U1, U2 upper, L1, L2 lower. Round 1 keeps the halves
    // apart and L1 wins; in round 2 every pairing without a rematch puts
    // L1 against the upper half, so the meeting was not avoidable
    let g = [
        (1, 1, 2, "1/2-1/2"),
        (1, 3, 4, "1-0"),
        (2, 1, 3, "1-0"),
        (2, 2, 4, "1-0"),
    ];
    let (_, f, _) = run(&wccc(&g, true), "rulesets/wccc-1992-madrid.rules");
    assert!(codes(&f, "wccc.accelerated-pairing").is_empty(), "{f:?}");
    // with a game in round 2 between the two round-1 losers possible, it is
    let g = [
        (1, 1, 2, "1-0"),
        (1, 3, 4, "1-0"),
        (1, 5, 6, "1-0"),
        (1, 7, 8, "1-0"),
        (2, 1, 5, "1-0"),
        (2, 2, 6, "1-0"),
        (2, 3, 7, "1-0"),
        (2, 4, 8, "1-0"),
    ];
    let (_, f, _) = run(&wccc(&g, true), "rulesets/wccc-1992-madrid.rules");
    let who: Vec<String> = codes(&f, "wccc.accelerated-pairing")
        .into_iter()
        .map(|(e, _)| e)
        .collect();
    // P5 and P7 won round 1 (high scorers of the lower half) and met P1 and
    // P3; P6 and P8 lost and may meet the upper half
    assert_eq!(who, ["P1 / P5", "P3 / P7"]);
}

#[test]
fn wccc_program_twice_in_a_round() {
    let g = [(1, 1, 3, "1-0"), (1, 1, 4, "1-0"), (1, 5, 6, "1-0")];
    let (_, f, _) = run(&wccc(&g, true), "rulesets/wccc-1992-madrid.rules");
    assert_eq!(codes(&f, "wccc.one-game-a-round").len(), 2, "{f:?}");
    assert_eq!(codes(&f, "wccc.five-rounds").len(), 1, "{f:?}");
}

/// On the S15 archive: every division complete and colour-balanced, no
/// engine updated within a division, the Division 4 groups' top two (by
/// the computed standings and tiebreaks) and Division 2's are exactly the
/// engines that play the next event, and the standings agree with the
/// published outcome; with the playoff's RubiChess renamed Winter (third in
/// 4a), both are reported.
#[test]
fn s15_event_rules_and_promotion() {
    let Some(dir) = tcec_s15() else { return };
    let out = tempfile::tempdir().unwrap();
    let o = arbiter(&[
        "batch",
        dir.to_str().unwrap(),
        "--rules",
        "rulesets/tcec-s15.rules",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    // the same run's standings against the published outcome
    standings_match_the_published_outcome(out.path());
    let f = event_findings(out.path());
    let mut seen: Vec<&str> = f.iter().map(|(c, ..)| c.as_str()).collect();
    seen.dedup();
    // the only event-level findings: the three Division 4 events were
    // played in a format the text does not describe
    assert_eq!(seen, ["tcec.division-format"], "{f:?}");
    assert_eq!(f.len(), 3);
    let summary = std::fs::read_to_string(out.path().join("summary.md")).unwrap();
    for e in [
        "Division 4a",
        "Division 4b",
        "Division 4 Playoff",
        "Division 2",
        "Division 1",
    ] {
        assert!(
            summary.contains(&format!("TCEC Season 15 - {e} (")),
            "{e} checked: {summary}"
        );
    }
    // 4a: Nemorino 15, then RubiChess and Winter on 12.5, separated by
    // their direct encounter (RubiChess 2-0); both the first two play the
    // playoff
    let standings = std::fs::read_to_string(out.path().join("standings.csv")).unwrap();
    assert!(standings.contains("TCEC Season 15 - Division 4a,2,RubiChess 1.3.1,false,18,12.5"));
    assert!(standings.contains("TCEC Season 15 - Division 4a,3,Winter 0.5,false,18,12.5"));
    // plant: the playoff's RubiChess played as Winter
    let tmp = tempfile::tempdir().unwrap();
    for name in [
        "tcec-s15-division-4a.pgn",
        "tcec-s15-division-4-playoff.pgn",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let text = if name.contains("playoff") {
            text.replace("RubiChess 1.3.1", "Winter 0.5")
        } else {
            text
        };
        std::fs::write(tmp.path().join(name), text).unwrap();
    }
    let out2 = tmp.path().join("out");
    arbiter(&[
        "batch",
        tmp.path().to_str().unwrap(),
        "--rules",
        "rulesets/tcec-s15.rules",
        "--out",
        out2.to_str().unwrap(),
    ]);
    let f = event_findings(&out2);
    let p = codes(&f, "tcec.promotion");
    let who: Vec<&str> = p.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(who, ["RubiChess 1.3.1", "Winter 0.5"], "{p:?}");
    assert!(p[0].1.contains("finished 2 of 10"), "{p:?}");
}

/// The computed S15 standings against the published outcome of each
/// division (tests/fixtures/published/tcec-s15.json): who promoted, who
/// was relegated, and the tie that was broken by wins.
fn standings_match_the_published_outcome(out: &Path) {
    let f = std::fs::File::open(out.join("standings.parquet")).unwrap();
    use polars::prelude::*;
    let df = ParquetReader::new(f).finish().unwrap();
    let ev = df.column("event").unwrap().str().unwrap().clone();
    let player = df.column("player").unwrap().str().unwrap().clone();
    let rank = df.column("rank").unwrap().i64().unwrap().clone();
    // each tiebreak a column `tiebreak_<name>`, in the ruleset's order
    let tiebreaks: Vec<(String, Float64Chunked)> = (df.columns().iter())
        .filter_map(|c| {
            let name = c.name().strip_prefix("tiebreak_")?.to_string();
            Some((name, c.f64().unwrap().clone()))
        })
        .collect();
    let tb = |i: usize| -> String {
        (tiebreaks.iter())
            .filter_map(|(n, c)| c.get(i).map(|v| format!("{n} {v}")))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let rows = |event: &str| -> Vec<(u64, String, String)> {
        (0..df.height())
            .filter(|&i| ev.get(i) == Some(event))
            .map(|i| {
                (
                    rank.get(i).unwrap() as u64,
                    player.get(i).unwrap().to_string(),
                    tb(i),
                )
            })
            .collect()
    };
    let published: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("tests/fixtures/published/tcec-s15.json").unwrap(),
    )
    .unwrap();
    let names = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    for d in published["divisions"].as_array().unwrap() {
        let event = d["event"].as_str().unwrap();
        let table = rows(event);
        let n = table.len() as u64;
        assert!(n >= 8, "{event}: {table:?}");
        let top: Vec<String> = table
            .iter()
            .filter(|r| r.0 <= 2)
            .map(|r| r.1.clone())
            .collect();
        assert_eq!(top, names(&d["promoted"]), "{event}: promoted");
        let bottom: Vec<String> = table
            .iter()
            .filter(|r| r.0 > n - 2)
            .map(|r| r.1.clone())
            .collect();
        if d.get("relegated").is_some() {
            assert_eq!(bottom, names(&d["relegated"]), "{event}: relegated");
        }
        if let Some(t) = d.get("tie") {
            let ahead = t["ahead"].as_str().unwrap();
            let by = t["broken_by"]
                .as_str()
                .unwrap()
                .replace(['-', ' ', '.'], "_");
            let tied = names(&t["players"]);
            let of = |p: &str| table.iter().find(|r| r.1 == p).unwrap().clone();
            let (a, b) = (of(&tied[0]), of(&tied[1]));
            let (first, second) = if a.0 < b.0 { (a, b) } else { (b, a) };
            assert_eq!(first.1, ahead, "{event}: {table:?}");
            assert_eq!(second.0, first.0 + 1);
            // the tiebreak that separated them is the last one computed
            assert!(
                first.2.ends_with(&format!("{by} 4")) && second.2.ends_with(&format!("{by} 2")),
                "{first:?} {second:?}"
            );
        }
        // every promoted engine (under any version) plays the next event
        if let Some(into) = d["promoted_into"].as_str() {
            for p in names(&d["promoted"]) {
                let engine = arbiter::facts::event::engine_of(&p);
                assert!(
                    games
                        .lines()
                        .any(|l| l.contains(into) && l.contains(&engine)),
                    "{p} plays {into}"
                );
            }
        }
    }
}
