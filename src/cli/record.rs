//! `arbiter record`.

use std::path::PathBuf;

use crate::commands::record::{Request, run as record};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter record --engine /usr/games/stockfish --pgn game.pgn --side black --movetime 100 --out rec/
  arbiter record --engine /usr/games/stockfish --opponent /usr/games/glaurung --tc 60+1 --out match/")]
pub struct RecordArgs {
    /// The engine's command line, e.g. /usr/games/stockfish.
    #[arg(long)]
    engine: String,
    /// The opponent's command line (to play a game).
    #[arg(long)]
    opponent: Option<String>,
    /// Replay this game instead of playing one.
    #[arg(long, conflicts_with = "opponent")]
    pgn: Option<PathBuf>,
    /// Which game of --pgn (1 = the first).
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// The engine's side.
    #[arg(long, default_value = "black")]
    side: String,
    /// Think this long per move, ms.
    #[arg(long, conflicts_with_all = ["depth", "tc"])]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long, conflicts_with = "tc")]
    depth: Option<u32>,
    /// Real clocks: BASE+INC in seconds, e.g. 60+1.
    #[arg(long)]
    tc: Option<String>,
    /// An engine option, NAME=VALUE (repeatable).
    #[arg(long = "option")]
    options: Vec<String>,
    /// Stop a played game after this many plies.
    #[arg(long, default_value_t = 120)]
    max_plies: usize,
    /// Start a played game with the moves of this PGN's first game (the
    /// event's official opening: played, not searched, marked `{book}`).
    #[arg(long, conflicts_with = "pgn")]
    opening: Option<PathBuf>,
    /// Take only this many plies of --opening.
    #[arg(long, requires = "opening")]
    opening_plies: Option<usize>,
    /// The round the logs name (`# round:`); with --pgn, the replayed
    /// game's Round tag, else 1.
    #[arg(long)]
    round: Option<String>,
    /// The Event tag of a played game's game.pgn.
    #[arg(long, default_value = "arbiter recording")]
    event: String,
    /// Folder for engine.log (and opponent.log, game.pgn); refused if one
    /// of them exists, unless --force.
    #[arg(long)]
    out: PathBuf,
    /// Replace the files of --out (never --pgn or --opening).
    #[arg(long)]
    force: bool,
}

/// Why `record` would not start: a file it would write in `--out` exists
/// (without `--force`), or is the game it reads.
fn refused(a: &RecordArgs) -> Option<String> {
    let read: Vec<PathBuf> = a.pgn.iter().chain(&a.opening).cloned().collect();
    // what this run writes: a played game (no --pgn, an opponent) also
    // writes the opponent's log and the game
    let played = a.pgn.is_none() && a.opponent.is_some();
    let written: &[&str] = if played {
        &["engine.log", "opponent.log", "game.pgn"]
    } else {
        &["engine.log"]
    };
    for name in written {
        let p = a.out.join(name);
        if let Err(e) = crate::pipeline::refuse_overwrite(&p, &|_| false, &read) {
            return Some(e.to_string());
        }
        if !a.force && std::fs::symlink_metadata(&p).is_ok() {
            return Some(format!(
                "{}: exists; refused (give --force to replace it)",
                p.display()
            ));
        }
    }
    None
}

pub fn run(a: RecordArgs) -> i32 {
    if let Some(why) = refused(&a) {
        say!("arbiter record: {why}");
        return crate::commands::FAILURE;
    }
    record(Request {
        engine: a.engine,
        opponent: a.opponent,
        pgn: a.pgn,
        game: a.game,
        side: a.side,
        movetime: a.movetime,
        depth: a.depth,
        tc: a.tc,
        options: a.options,
        max_plies: a.max_plies,
        opening: a.opening,
        opening_plies: a.opening_plies,
        round: a.round,
        event: a.event,
        out: a.out,
    })
    .unwrap_or_else(|e| {
        say!("arbiter record: {e}");
        crate::commands::FAILURE
    })
}
