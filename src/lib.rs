//! arbiter: audits computer-chess competitions against their own regulations.
//!
//! Data flows one way: [`ingest`] (parsers, each event keeps its source span)
//! → [`replay`] (shakmaty positions and counters) → [`checks`] (findings) →
//! [`report`] (JSON Lines, text). [`audit`] drives the pipeline over files.

/// A line on standard error that never panics: where `eprintln!` panics
/// when standard error is a closed pipe (`arbiter … 2>&1 | head -c 100`),
/// this drops the line; the exit status still says what happened.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod align;
pub mod audit;
pub mod batch;
pub mod checks;
pub mod cli;
pub mod clock;
pub mod detect;
pub mod event;
pub mod findings;
pub mod ingest;
pub mod record;
pub mod replay;
pub mod report;
pub mod rules;
pub mod rules_cli;
pub mod similarity;
pub mod span;
pub mod standings;
pub mod timeline;
pub mod verify;

#[cfg(test)]
mod test_rng;

/// The version recorded in every report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
