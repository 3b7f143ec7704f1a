//! The command line: flags parsed with clap into each subcommand's
//! configuration, and the library called (`crate::commands`). One file per
//! subcommand; this one dispatches. Exit codes: 0 clean, 1 violations
//! found, 2 arbiter could not run, 130 interrupted.

use std::io::{self, BufWriter, Write};

use clap::{Parser, Subcommand};

pub use crate::commands::{CLEAN, FAILURE, VIOLATIONS};

mod args;
mod audit;
mod batch;
mod docs;
mod hidden_book;
mod record;
mod replay;
mod rules;
mod similarity;
mod verify;

pub use args::{Format, RulesArgs};
pub use rules::{FitPer, RulesCommand};

#[derive(Debug, Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Audits computer-chess competitions against their own regulations"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour in the text on standard output: auto (on a terminal, unless
    /// NO_COLOR is set; CLICOLOR_FORCE forces it), always, or never. JSON
    /// and the files written are never coloured.
    #[arg(long, global = true, value_enum, default_value_t = args::Colour::Auto)]
    pub color: args::Colour,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Step through one game: board, move, and the clocks and evaluations
    /// recorded at each ply.
    Replay(replay::ReplayArgs),
    /// Audit game records: every game of every file (directories are searched
    /// for .pgn files).
    Audit(audit::AuditArgs),
    /// Work with rulesets.
    Rules {
        #[command(subcommand)]
        command: RulesCommand,
    },
    /// Drive a real UCI engine through a game and write its log with real
    /// timestamps: replay a recorded game (--pgn), or play one against an
    /// opponent engine (--opponent), writing game.pgn too.
    Record(record::RecordArgs),
    /// Run real UCI engines over a position suite and compare them: the
    /// pairwise move-match matrix, z-scores against the field,
    /// self-similarity, evaluation signatures (residual score correlation
    /// with bootstrap intervals, PV overlap, a verdict with its
    /// false-positive rate), a heatmap and a dendrogram (SVG).
    Similarity(similarity::SimilarityArgs),
    /// Recheck a report against its inputs: every recorded SHA-256 still
    /// matches, and the same audit run again gives byte-identical output
    /// (exit 0), or what differs (exit 1).
    Verify(verify::VerifyArgs),
    /// Audit whole archives in parallel and aggregate: every game's JSON
    /// line and the event-level findings (audit.jsonl), tables (CSV and
    /// Parquet) of findings by rule, engine and round, adjudication
    /// agreement, clock anomalies and standings, with a Markdown and HTML
    /// summary.
    Batch(batch::BatchArgs),
    /// Merge the folders of a batch's shards (`batch --shard K/N`) into the
    /// folder one batch over the whole archive writes: the games in input
    /// order, the event-level findings, the tables and the standings.
    Merge(batch::MergeArgs),
    /// Screen games for hidden opening books: per engine, the moves out of
    /// the official opening, those without search evidence, the innocent
    /// causes found, runs, and the flagged moves with their evidence.
    HiddenBook(hidden_book::HiddenBookArgs),
    /// Draw a game's clock chart (SVG): both clocks as recorded and as the
    /// ruleset's time control reconstructs them, period boundaries, clock
    /// findings.
    Chart(replay::ChartArgs),
    /// Print the shell completion script for arbiter (bash, zsh, fish,
    /// elvish, powershell).
    Completions(docs::CompletionsArgs),
    /// Print arbiter's manual page (roff), or write one page per
    /// subcommand into a folder.
    Man(docs::ManArgs),
}

/// Make a panic end the run with [`FAILURE`], the status of a run that
/// could not finish, after the panic's own message and a line saying what
/// it is. A panic is a bug in arbiter, never the input's fault (bad input
/// is an error that names its place, and the run goes on), but without
/// this its status would be Rust's 101, or a signal where the release
/// build aborts on a panic (`panic = "abort"` in `Cargo.toml`, which
/// spares the code its unwinding paths): neither is an exit status the
/// README gives. `main` calls it first.
pub fn exit_on_panic() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        say!(
            "arbiter: internal error (a bug in arbiter, not a fault of the input); \
             the run stopped. Please report it with the command and its inputs."
        );
        std::process::exit(FAILURE);
    }));
}

/// Run the parsed command line; the exit status. Every command first
/// installs the sink of the library's notices (standard error) and the one
/// signal handler: on SIGINT, SIGTERM or SIGHUP it stops
/// every engine arbiter started and exits 130, writing nothing more.
pub fn run(cli: Cli) -> i32 {
    // what the library tells the user goes to standard error
    crate::base::notice::install(Box::new(|line| say!("{line}")));
    crate::engines::process::stop_on_signal();
    let stdout = io::stdout();
    let paint = cli.color.on(&stdout);
    let mut out = BufWriter::new(stdout.lock());
    let code = match cli.command {
        Command::Verify(a) => verify::run(a, &mut out),
        Command::Audit(a) => audit::run(a, &mut out, paint),
        Command::Replay(a) => replay::run(a, &mut out),
        Command::Rules { command } => rules::run(command, &mut out),
        Command::Similarity(a) => similarity::run(a, &mut out),
        Command::Batch(a) => batch::run(a),
        Command::Merge(a) => batch::run_merge(a),
        Command::HiddenBook(a) => hidden_book::run(a, &mut out),
        Command::Chart(a) => replay::run_chart(a),
        Command::Record(a) => record::run(a),
        Command::Completions(a) => docs::completions(a, &mut out),
        Command::Man(a) => docs::man(a, &mut out),
    };
    match out.flush() {
        Ok(()) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => code,
        Err(e) => {
            say!("arbiter: cannot write output: {e}");
            FAILURE
        }
    }
}
