//! The clock's tests: time controls run move by move, the reconstruction
//! from records and logs, the PGN tag and the periods in words.

use shakmaty::Color;

use super::inputs::overlap;
use super::*;
use crate::ingest::comments::Source as Stated;

fn tc(periods: &[(Option<u32>, i64, i64, bool)], carry: bool) -> TimeControlDef {
    TimeControlDef {
        name: "t".into(),
        periods: periods
            .iter()
            .map(|&(m, t, inc, al)| PeriodDef {
                moves: m,
                time_ms: t as f64,
                increment_ms: inc as f64,
                at_least: al,
            })
            .collect(),
        carry_over: carry,
        start_credit_ms: 0.0,
        fitted: false,
        settings_show_used: false,
    }
}

const H: i64 = 3_600_000;
const M: i64 = 60_000;

#[test]
fn forty_in_two_hours_then_twenty_in_one_then_thirty_minutes() {
    let t = tc(
        &[
            (Some(40), 2 * H, 0, false),
            (Some(20), H, 0, false),
            (None, 30 * M, 0, false),
        ],
        true,
    );
    let mut c = Clock::new(&t);
    for _ in 0..40 {
        c.spend(2 * M);
    }
    // 2h - 80 min = 40 min left, carried over: + 1h
    assert_eq!(c.left(), 40 * M + H);
    for _ in 0..20 {
        c.spend(M);
    }
    assert_eq!(c.left(), 80 * M + 30 * M);
    let t2 = c.spend(111 * M);
    assert!(t2.flag);
    assert_eq!(t2.period, 3);
}

#[test]
fn the_first_period_missed_is_a_flag() {
    let t = tc(&[(Some(40), 2 * H, 0, false), (None, H, 0, false)], true);
    let mut c = Clock::new(&t);
    let mut flagged = None;
    for n in 1..=40 {
        let tick = c.spend(3 * M + 1);
        if tick.flag && flagged.is_none() {
            flagged = Some(n);
        }
    }
    assert_eq!(
        flagged,
        Some(40),
        "40 moves in 2h: the 40th move is made after 2h"
    );
}

#[test]
fn increment_and_sudden_death() {
    let t = tc(&[(None, 30 * M, 5_000, false)], true);
    let mut c = Clock::new(&t);
    let tick = c.spend(10_000);
    assert_eq!(tick.left, 30 * M - 5_000);
    assert!(!tick.flag);
}

#[test]
fn at_least_n_moves_in_t() {
    let t = tc(&[(Some(3), 10_000, 0, true)], true);
    let mut c = Clock::new(&t);
    assert!(!c.spend(4_000).flag);
    assert!(!c.spend(4_000).flag);
    assert!(c.spend(4_000).flag, "the third move is due within 10 s");
    let t = tc(&[(Some(2), 10_000, 0, true)], true);
    let mut c = Clock::new(&t);
    c.spend(4_000);
    c.spend(4_000);
    assert!(
        !c.spend(4_000).flag,
        "two moves were required; the quota is met"
    );
}

#[test]
fn no_carry_over() {
    let t = tc(
        &[(Some(1), 10 * M, 0, false), (None, 5 * M, 0, false)],
        false,
    );
    let mut c = Clock::new(&t);
    c.spend(M);
    assert_eq!(c.left(), 5 * M);
}

/// Property: whatever the time control and the moves, the clock loses
/// exactly the time used and gains exactly the increments and the new
/// periods' time (with carry-over): no time is created or lost.
#[test]
fn no_time_is_created_or_lost() {
    let mut x: u64 = 0x853c_49e6_748f_ea9b;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    for _ in 0..2_000 {
        let mut periods: Vec<(Option<u32>, i64, i64, bool)> = Vec::new();
        for _ in 0..1 + next(3) {
            let (m, t, inc) = (
                1 + next(50) as u32,
                (1 + next(7_200)) as i64 * 1000,
                next(30) as i64 * 1000,
            );
            periods.push((Some(m), t, inc, false));
        }
        let (t, inc) = (next(3_600) as i64 * 1000, next(30) as i64 * 1000);
        periods.push((None, t, inc, false));
        let t = tc(&periods, true);
        let mut c = Clock::new(&t);
        let mut used_total = 0i64;
        let mut granted = periods[0].1;
        let mut period = 0usize;
        let mut in_period = 0u32;
        for _ in 0..next(150) {
            let u = next(400_000) as i64;
            used_total += u;
            granted += periods[period].2;
            c.spend(u);
            in_period += 1;
            if let Some(n) = periods[period].0
                && in_period >= n
                && period + 1 < periods.len()
            {
                period += 1;
                in_period = 0;
                granted += periods[period].1;
            }
            assert_eq!(c.left(), granted - used_total);
        }
    }
}

#[test]
fn pgn_time_control_tags() {
    let t = parse_pgn_time_control("40/7200:20/3600:1800").unwrap();
    assert_eq!(t.periods.len(), 3);
    assert_eq!(t.periods[0].moves, Some(40));
    assert_eq!(t.periods[2].moves, None);
    assert_eq!(t.periods[2].time_ms, 1_800_000.0);
    let t = parse_pgn_time_control("1800+5").unwrap();
    assert_eq!(t.periods[0].increment_ms, 5000.0);
    let t = parse_pgn_time_control("60+0.5").unwrap();
    assert_eq!(t.periods[0].increment_ms, 500.0);
    for bad in [
        "?",
        "-",
        "*60",
        "",
        "40/",
        "1800:40/7200",
        "x+1",
        "1e99",
        "0/60",
    ] {
        assert!(parse_pgn_time_control(bad).is_none(), "{bad}");
    }
}

#[test]
fn period_requirements_in_words() {
    let t = tc(
        &[(Some(40), 2 * H, 0, false), (None, 30 * M, 5_000, false)],
        true,
    );
    assert_eq!(period_text(&t, 1).as_deref(), Some("40 moves in 2h"));
    assert_eq!(
        period_text(&t, 2).as_deref(),
        Some("the rest of the game in 30m + 5s per move")
    );
    assert_eq!(period_text(&t, 3), None);
    assert_eq!(period_text(&t, 0), None);
}

fn inputs(used: &[Option<i64>], readings: &[Option<i64>]) -> Inputs {
    Inputs {
        used: used
            .iter()
            .map(|u| u.map(|ms| (ms, Source::Record(Stated::Tcec))))
            .collect(),
        readings: readings.to_vec(),
        ..Inputs::default()
    }
}

#[test]
fn a_jump_is_what_no_move_explains() {
    let t = tc(&[(None, 30 * M, 5_000, false)], true);
    // white: 1800 - 10 + 5 = 1795 s; then 1795 - 10 + 5 = 1790, recorded 1850: +60 s
    let inp = inputs(
        &[Some(10_000), Some(10_000), Some(10_000), Some(10_000)],
        &[
            Some(1_795_000),
            Some(1_795_000),
            Some(1_850_000),
            Some(1_790_000),
        ],
    );
    let rows = run(&t, 1, &inp);
    assert_eq!(rows[0].jump, Some(0));
    assert_eq!(rows[2].jump, Some(60_000));
    assert_eq!(rows[2].expected, Some(1_790_000));
    assert_eq!(rows[3].jump, Some(0));
    // the regulation's clock does not credit the jump
    assert_eq!(rows[2].tick.as_ref().unwrap().left, 1_790_000);
}

#[test]
fn across_a_move_with_no_time_only_a_gain_is_measured() {
    let t = tc(&[(None, 30 * M, 5_000, false)], true);
    // white's second move has no time: its third reading can only be
    // checked for a gain (at least the difference).
    let lost = inputs(
        &[Some(10_000), Some(1), None, Some(1), Some(10_000)],
        &[Some(1_795_000), None, None, None, Some(1_700_000)],
    );
    let rows = run(&t, 1, &lost);
    assert_eq!(rows[4].jump, None, "a loss may be the unknown move's time");
    let gained = inputs(
        &[Some(10_000), Some(1), None, Some(1), Some(10_000)],
        &[Some(1_795_000), None, None, None, Some(1_900_000)],
    );
    let rows = run(&t, 1, &gained);
    // 1795 + 5 (no time) - 10 + 5 = 1795 at most
    assert_eq!(rows[4].jump, Some(105_000));
}

#[test]
fn the_logs_time_a_move_the_record_does_not() {
    let t = tc(&[(Some(40), 2 * H, 0, false)], true);
    let inp = Inputs {
        used: vec![None, Some((5_000, Source::Record(Stated::Emt)))],
        readings: vec![None, None],
        timed: vec![Some((2 * H + 1, Source::OperatorLog)), None],
        stopped: vec![0, 0],
        ..Inputs::default()
    };
    let rows = run(&t, 1, &inp);
    assert_eq!(rows[0].source, Some(Source::OperatorLog));
    assert!(rows[0].tick.as_ref().unwrap().flag);
    assert_eq!(rows[1].source, Some(Source::Record(Stated::Emt)));
}

#[test]
fn settings_of_time_used_and_of_time_left() {
    let t = tc(&[(Some(40), 2 * H, 0, false)], true);
    let mut inp = inputs(&[Some(M), Some(M), Some(M)], &[None, None, None]);
    inp.corrections = vec![Correction {
        after_ply: 2,
        side: Color::White,
        ms: 30 * M,
        used: true,
    }];
    let rows = run(&t, 1, &inp);
    // white had used 1 min; set to 30 min used, then one more minute
    assert_eq!(rows[2].tick.as_ref().unwrap().left, 2 * H - 31 * M);
    inp.corrections[0].used = false;
    let rows = run(&t, 1, &inp);
    assert_eq!(rows[2].tick.as_ref().unwrap().left, 29 * M);
}

#[test]
fn stops_are_merged_and_overlaps_counted_once() {
    assert_eq!(overlap(&[(10, 20), (30, 40)], 0, 100), 20);
    assert_eq!(overlap(&[(10, 20)], 15, 100), 5);
    assert_eq!(overlap(&[(10, i64::MAX)], 0, 50), 40);
    assert_eq!(overlap(&[], 0, 50), 0);
}

/// Property, over whole games: between two moves of a side its clock
/// changes only by the move's time, the increment and a new period's
/// time, except where a recorded setting (an operator's correction)
/// sets it, and then it starts from exactly that setting.
#[test]
fn only_recorded_events_create_or_remove_time() {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    for _ in 0..500 {
        let mut periods: Vec<(Option<u32>, i64, i64, bool)> = Vec::new();
        for _ in 0..next(3) {
            periods.push((
                Some(1 + next(40) as u32),
                (1 + next(7_200)) as i64 * 1000,
                next(10) as i64 * 1000,
                false,
            ));
        }
        periods.push((
            None,
            (1 + next(3_600)) as i64 * 1000,
            next(30) as i64 * 1000,
            false,
        ));
        let t = tc(&periods, true);
        let plies = next(200) as usize;
        let used: Vec<Option<i64>> = (0..plies)
            .map(|_| (next(10) > 0).then(|| next(300_000) as i64))
            .collect();
        let corrections: Vec<Correction> = (0..next(4))
            .map(|_| Correction {
                after_ply: next(plies as u64 + 1) as u32,
                side: if next(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                ms: next(3_600_000) as i64,
                used: false,
            })
            .collect();
        let inp = Inputs {
            used: used
                .iter()
                .map(|u| u.map(|ms| (ms, Source::Record(Stated::Emt))))
                .collect(),
            readings: vec![None; plies],
            corrections: corrections.clone(),
            ..Inputs::default()
        };
        let rows = run(&t, 1, &inp);
        for k in [Color::White, Color::Black] {
            let mine: Vec<&ClockPly> = rows.iter().filter(|r| r.side == k).collect();
            let mut prev_left = Some(periods[0].1);
            let mut prev_ply = 0u32;
            for r in mine {
                // the last setting of this side logged since its previous move
                let setting = corrections
                    .iter()
                    .filter(|c| c.side == k && c.after_ply >= prev_ply && c.after_ply < r.ply)
                    .max_by_key(|c| c.after_ply)
                    .map(|c| c.ms);
                let base = setting.or(prev_left);
                match (&r.tick, r.used, base) {
                    (Some(tick), Some(u), Some(b)) => {
                        assert_eq!(tick.left_at_move, b - u);
                        let gained = tick.left - tick.left_at_move;
                        let ok = periods.iter().enumerate().any(|(i, p)| {
                            gained == p.2 || periods.get(i + 1).is_some_and(|n| gained == p.2 + n.1)
                        });
                        assert!(ok, "gained {gained} is no increment or period time");
                        prev_left = Some(tick.left);
                    }
                    (None, _, _) => prev_left = None,
                    _ => panic!("a move with a time on a known clock has a tick"),
                }
                prev_ply = r.ply;
            }
        }
    }
}

#[test]
fn each_go_line_is_rebuilt_from_the_one_before() {
    use super::go::{Spent, rebuild};
    // 4+0.04, both clocks credited the increment before the first move
    let t = tc(&[(None, 4_000, 40, false)], true);
    let told = [
        Some([Some(4_040), Some(4_040)]),
        Some([Some(3_850), Some(4_040)]),
        // White's clock 2 s off
        Some([Some(5_850), Some(3_792)]),
        Some([Some(3_739), Some(3_792)]),
        None,
    ];
    let moves = [
        Spent::Ms(230),
        Spent::Ms(288),
        Spent::Ms(151),
        Spent::Ms(100),
    ];
    let go = rebuild(&t, 1, &told, &moves);
    assert_eq!(go.len(), 5);
    // the first from the start (the credit is the rules'), then each from
    // the line before: the wrong one is off by +2 s, the next by -2 s
    assert!(go[0].from_start && !go[1].from_start);
    assert_eq!(go[0].expected, [Some(4_000), Some(4_000)]);
    assert_eq!(go[1].expected, [Some(3_850), Some(4_040)]);
    assert_eq!(go[2].expected, [Some(3_850), Some(3_792)]);
    assert_eq!(go[3].expected, [Some(5_739), Some(3_792)]);
    // the ply after the last line: from it and Black's move
    assert_eq!(go[4].expected, [Some(3_739), Some(3_732)]);
}

#[test]
fn a_go_line_after_a_move_of_no_known_time_is_not_rebuilt() {
    use super::go::{Spent, rebuild};
    let t = tc(&[(None, 60_000, 1_000, false)], true);
    let told = [Some([Some(60_000), Some(60_000)]), None, None, None];
    let moves = [Spent::Unknown, Spent::OffClock, Spent::Ms(500)];
    let go = rebuild(&t, 1, &told, &moves);
    // White's time unknown from its move on; a book move costs Black
    // nothing, a timed one its time less the increment
    assert_eq!(go[1].expected, [None, Some(60_000)]);
    assert_eq!(go[2].expected, [None, Some(60_000)]);
    assert_eq!(go[3].expected, [None, Some(60_000)]);
    // from ply 2, Black's: Black's time unknown, White's 500 ms move
    // takes the 1 s increment
    let moves = [Spent::Unknown, Spent::Ms(500), Spent::OffClock];
    let go = rebuild(&t, 2, &told, &moves);
    assert_eq!(go[1].expected, [Some(60_000), None]);
    assert_eq!(go[2].expected, [Some(60_500), None]);
    assert_eq!(go[3].expected, [Some(60_500), None]);
}
