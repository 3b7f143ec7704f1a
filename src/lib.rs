//! arbiter: audits computer-chess competitions against their own regulations.
//!
//! The data flows one way, and the modules below are listed in its order:
//! each imports only those above it (`tests/layers.rs` holds them to it).
//!
//! - [`base`]: spans, values and their types, digests, timestamps.
//! - [`findings`]: what every stage reports, as plain data.
//! - [`ingest`]: the PGN, its comments, engine and operator logs.
//! - [`replay`]: every move replayed; an illegal move is a fact.
//! - [`timeline`]: one ordered case file per game, the logs aligned in it.
//! - [`facts`]: clocks, an event's case file and standings, hidden books,
//!   similarity: what the rules judge besides the moves.
//! - [`checks`]: the built-in checks of every record.
//! - [`rules`]: the rule language: syntax, analysis, evaluation, judging,
//!   fitting.
//! - [`pipeline`]: the audit of a game, a file and a batch, assembled once.
//! - [`report`]: JSON Lines, text, the dossier, charts, batch tables.
//! - [`engines`]: what runs real engines (recording, active similarity);
//!   the audit never imports it.
//! - [`commands`]: what each subcommand does, as a library function over a
//!   validated configuration (`verify` among them).
//! - [`cli`]: flags parsed into a configuration; the library does the rest.

/// A notice to the user, through the sink the caller installed
/// ([`base::notice`]): the library's way to say something while a run goes
/// on, never to a terminal itself.
macro_rules! notice {
    ($($arg:tt)*) => {{
        $crate::base::notice::tell(&format!($($arg)*))
    }};
}

/// A line on standard error that never panics (the command line's own:
/// the library says things with `notice!`): where `eprintln!` panics
/// when standard error is a closed pipe (`arbiter … 2>&1 | head -c 100`),
/// this drops the line; the exit status still says what happened. Its
/// control characters but line breaks and tabs are replaced (a file name
/// from a case folder may hold ESC or BEL).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "{}",
            $crate::base::diagnostic::for_terminal(&format!($($arg)*))
        );
    }};
}

pub mod base;
pub mod findings;
pub mod ingest;
pub mod replay;
pub mod timeline;
pub mod facts;
pub mod checks;
pub mod rules;
pub mod pipeline;
pub mod report;
pub mod engines;
pub mod commands;
pub mod cli;

#[cfg(test)]
mod test_rng;

/// The version recorded in every report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
