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

mod go;
mod inputs;
mod run;
mod side_clock;
#[cfg(test)]
mod tests;
mod time_control;
mod written;

pub use go::{GoClocks, go_clocks};
pub use inputs::{Correction, Inputs, Source, inputs, recorded_readings};
pub use run::{ClockPly, run};
pub use side_clock::{Clock, Tick};
pub use time_control::{
    PeriodDef, TimeControlDef, parse_pgn_time_control, parse_tag_form, period_text,
};
pub use written::{Part, Written, written};

/// Reconstruct both clocks of a game from every source its timeline has.
pub fn reconstruct(tc: &TimeControlDef, tl: &crate::timeline::Timeline<'_>) -> Vec<ClockPly> {
    let mut inp = inputs(tl);
    for c in &mut inp.corrections {
        c.used = tc.settings_show_used;
    }
    run(tc, tl.replay.first_ply, &inp)
}
