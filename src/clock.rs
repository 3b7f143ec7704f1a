//! Clocks: the time-control model and the reconstruction of both clocks
//! along a game.
//!
//! A time control (declared in the ruleset, `time-control NAME { period … }`)
//! is a list of periods: N moves (or the rest of the game) in a time, with
//! an increment per move; unused time carries over to the next period
//! unless `no_carry_over`; an `at_least` period only requires that many
//! moves within its time. All arithmetic is in whole milliseconds.
//!
//! The time each move used comes from the record: TCEC `mt`, `[%emt]`,
//! the difference of consecutive `[%clk]` readings (less the increment), or
//! cutechess's move time. The reconstructed clock is what the declared time
//! control leaves after each move, so it can be compared with what the
//! record says was left (`[%clk]`, TCEC `tl`).

use shakmaty::Color;

use crate::rules::analyzer::{PeriodDef, TimeControlDef};

/// One side's clock under a time control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    periods: Vec<Period>,
    carry_over: bool,
    /// Index of the period in force.
    period: usize,
    /// Moves made in the period in force.
    moves_in_period: u32,
    /// Moves made in the game.
    moves: u32,
    /// ms left.
    left: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Period {
    moves: Option<u32>,
    time: i64,
    increment: i64,
    at_least: bool,
}

/// What one move did to a clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    /// 1-based period the move was made in.
    pub period: u32,
    /// ms left when the move was completed, before any increment: negative
    /// when the time ran out during the move.
    pub left_at_move: i64,
    /// ms left after the increment and any new period's time.
    pub left: i64,
    /// Time ran out: the move was completed after the clock reached zero
    /// (for an `at_least` period, only while its move quota was not met).
    pub flag: bool,
}

impl Clock {
    pub fn new(tc: &TimeControlDef) -> Clock {
        let periods: Vec<Period> = tc
            .periods
            .iter()
            .map(|p: &PeriodDef| Period {
                moves: p.moves,
                time: p.time_ms.round() as i64,
                increment: p.increment_ms.round() as i64,
                at_least: p.at_least,
            })
            .collect();
        let left = periods.first().map_or(0, |p| p.time);
        Clock {
            periods,
            carry_over: tc.carry_over,
            period: 0,
            moves_in_period: 0,
            moves: 0,
            left,
        }
    }

    /// ms left now.
    pub fn left(&self) -> i64 {
        self.left
    }

    /// A move that used `used` ms.
    pub fn spend(&mut self, used: i64) -> Tick {
        let p = self.periods.get(self.period).cloned().unwrap_or(Period {
            moves: None,
            time: 0,
            increment: 0,
            at_least: false,
        });
        let left_at_move = self.left.saturating_sub(used);
        let quota_met = p.moves.is_some_and(|n| self.moves_in_period + 1 > n);
        let flag = left_at_move < 0 && !(p.at_least && quota_met);
        self.left = left_at_move.saturating_add(p.increment);
        self.moves += 1;
        self.moves_in_period += 1;
        let period_no = self.period as u32 + 1;
        if let Some(n) = p.moves
            && self.moves_in_period >= n
            && self.period + 1 < self.periods.len()
        {
            self.period += 1;
            self.moves_in_period = 0;
            let next = self.periods[self.period].time;
            self.left = if self.carry_over {
                self.left.saturating_add(next)
            } else {
                next
            };
        }
        Tick {
            period: period_no,
            left_at_move,
            left: self.left,
            flag,
        }
    }

    /// Set the clock (a correction or a manual addition).
    pub fn set(&mut self, ms: i64) {
        self.left = ms;
    }
}

/// Both clocks along a game: for each ply, the time used and the clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockPly {
    pub ply: u32,
    pub side: Color,
    /// ms the move used, when the record says.
    pub used: Option<i64>,
    pub tick: Option<Tick>,
}

impl Clock {
    /// The increment of the period in force.
    pub fn increment(&self) -> i64 {
        self.periods.get(self.period).map_or(0, |p| p.increment)
    }
}

/// Reconstruct both clocks. `used[i]` is the time move i used, when the
/// record says; otherwise it is derived from two consecutive clock readings
/// of the side (`clk[i]`, what the record says was left after the move:
/// used = previous reading + increment − this reading). When neither is
/// known the clock is not advanced and that side's later ticks are None.
pub fn trace(
    tc: &TimeControlDef,
    first_ply: u32,
    used: &[Option<i64>],
    clk: &[Option<i64>],
    off_clock: &[bool],
) -> Vec<ClockPly> {
    trace_with(tc, first_ply, used, clk, off_clock, &[])
}

/// A clock set by hand: after `after_ply` plies, `side`'s clock shows `ms`
/// (an operator's `clock-set clock=game side=… new=…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Correction {
    pub after_ply: u32,
    pub side: Color,
    pub ms: i64,
}

/// As [`trace`], with the clock settings the operator log records applied
/// where they happened.
pub fn trace_with(
    tc: &TimeControlDef,
    first_ply: u32,
    used: &[Option<i64>],
    clk: &[Option<i64>],
    off_clock: &[bool],
    corrections: &[Correction],
) -> Vec<ClockPly> {
    let mut pending: Vec<Correction> = corrections.to_vec();
    pending.sort_by_key(|c| c.after_ply);
    let mut pending = pending.into_iter().peekable();
    let mut clocks = [Clock::new(tc), Clock::new(tc)];
    let mut known = [true, true];
    let mut last_reading: [Option<i64>; 2] = [None, None];
    let mut out = Vec::with_capacity(used.len());
    for (i, u) in used.iter().enumerate() {
        let ply = first_ply + i as u32;
        while let Some(c) = pending.next_if(|c| c.after_ply < ply) {
            let k = usize::from(c.side == Color::Black);
            clocks[k].set(c.ms);
            known[k] = true;
            last_reading[k] = Some(c.ms);
        }
        let side = if ply % 2 == 1 {
            Color::White
        } else {
            Color::Black
        };
        let k = usize::from(side == Color::Black);
        if off_clock.get(i).copied().unwrap_or(false) {
            // a move made off the clock (an opening-book move at TCEC)
            out.push(ClockPly {
                ply,
                side,
                used: None,
                tick: None,
            });
            continue;
        }
        let reading = clk.get(i).copied().flatten();
        let derived = match (u, last_reading[k], reading) {
            (Some(ms), ..) => Some(*ms),
            (None, Some(prev), Some(now)) => Some(prev + clocks[k].increment() - now),
            (None, None, Some(now)) if clocks[k].moves == 0 => {
                Some(clocks[k].left() + clocks[k].increment() - now)
            }
            _ => None,
        };
        if reading.is_some() {
            last_reading[k] = reading;
        }
        let tick = match derived {
            Some(ms) if known[k] => Some(clocks[k].spend(ms)),
            _ => {
                known[k] = false;
                None
            }
        };
        out.push(ClockPly {
            ply,
            side,
            used: derived,
            tick,
        });
    }
    out
}

/// What the record says of each move's time: (time used, time left after
/// the move), from TCEC `mt`/`tl`, `[%emt]`/`[%clk]`, or cutechess's move
/// time.
#[allow(clippy::type_complexity)]
pub fn recorded_times(
    tl: &crate::timeline::Timeline<'_>,
) -> (Vec<Option<i64>>, Vec<Option<i64>>, Vec<bool>) {
    let mut used = Vec::with_capacity(tl.replay.plies.len());
    let mut left = Vec::with_capacity(tl.replay.plies.len());
    let mut off = Vec::with_capacity(tl.replay.plies.len());
    for p in &tl.replay.plies {
        let mv = &tl.game.moves[p.move_index];
        let ann = || mv.comments.iter().map(|c| &c.annotations);
        let tcec = ann().find_map(|a| a.tcec.as_ref());
        let book = tcec.is_some_and(|t| t.book);
        let u = tcec
            .and_then(|t| t.mt)
            .or_else(|| ann().find_map(|a| a.emt))
            .or_else(|| ann().find_map(|a| a.cutechess.as_ref().and_then(|c| c.time_ms)));
        used.push(u);
        off.push(book);
        left.push(
            tcec.and_then(|t| t.tl)
                .or_else(|| ann().find_map(|a| a.clk)),
        );
    }
    (used, left, off)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
