//! One side's clock under a time control: what each move spends, the
//! increments, the next period's time, and whether the time ran out.

use super::time_control::{PeriodDef, TimeControlDef};

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
    pub(super) moves: u32,
    /// ms the clock has been given (periods' time, increments, settings).
    granted: i64,
    /// ms the side has used.
    spent: i64,
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
        let granted = periods.first().map_or(0, |p| p.time) + tc.start_credit_ms.round() as i64;
        Clock {
            periods,
            carry_over: tc.carry_over,
            period: 0,
            moves_in_period: 0,
            moves: 0,
            granted,
            spent: 0,
        }
    }

    /// ms left now.
    pub fn left(&self) -> i64 {
        self.granted.saturating_sub(self.spent)
    }

    /// A move that used `used` ms.
    pub fn spend(&mut self, used: i64) -> Tick {
        let p = self.periods.get(self.period).cloned().unwrap_or(Period {
            moves: None,
            time: 0,
            increment: 0,
            at_least: false,
        });
        self.spent = self.spent.saturating_add(used);
        let left_at_move = self.left();
        let quota_met = p.moves.is_some_and(|n| self.moves_in_period + 1 > n);
        let flag = left_at_move < 0 && !(p.at_least && quota_met);
        self.granted = self.granted.saturating_add(p.increment);
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
            if !self.carry_over {
                // unused time is lost: the new period starts from its own time
                self.granted = self.spent;
            }
            self.granted = self.granted.saturating_add(next);
        }
        Tick {
            period: period_no,
            left_at_move,
            left: self.left(),
            flag,
        }
    }

    /// Set the time left (a correction or a manual addition).
    pub fn set(&mut self, ms: i64) {
        self.spent = self.granted.saturating_sub(ms);
    }

    /// Set the time used (a clock that counts up).
    pub fn set_used(&mut self, ms: i64) {
        self.spent = ms;
    }
}

impl Clock {
    /// The increment of the period in force.
    pub fn increment(&self) -> i64 {
        self.periods.get(self.period).map_or(0, |p| p.increment)
    }
}
