//! `arbiter record`.

use std::path::PathBuf;

use crate::commands::record::{Request, run as record};

#[derive(Debug, clap::Args)]
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
    #[arg(long, default_value = "1")]
    round: String,
    #[arg(long, default_value = "arbiter recording")]
    event: String,
    /// Folder for engine.log (and opponent.log, game.pgn).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(a: RecordArgs) -> i32 {
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
}
