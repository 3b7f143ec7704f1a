//! The engine events the rules see: their kinds, each kind's fields, and
//! an event as it is placed in the game.

use std::collections::BTreeMap;

use crate::base::span::Span;
use crate::base::value::{Type, Value};
use crate::ingest::operator::FieldDoc;

/// The kinds of engine event the rules see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EngKind {
    Search,
    EngineOption,
    EngineStart,
    EngineExit,
}

const COMMON: &[FieldDoc] = &[
    (
        "side",
        Type::Str,
        "the side the engine plays: white or black",
    ),
    ("engine", Type::Str, "the engine's name in the log"),
    (
        "time",
        Type::Num,
        "when, ms (since 1970 when the log has dates, else since the log began)",
    ),
    ("at", Type::Str, "the log's timestamp, as written"),
    (
        "ply",
        Type::Num,
        "plies of the game completed when it happened",
    ),
];

pub const ENG_KINDS: &[(EngKind, &str, &[FieldDoc])] = &[
    (
        EngKind::Search,
        "search",
        &[
            ("for_ply", Type::Num, "the ply the search chose a move for"),
            ("bestmove", Type::Str, "the engine's move (UCI)"),
            ("ponder", Type::Str, "the reply it expected"),
            (
                "board_move",
                Type::Str,
                "the move the record has at that ply (UCI)",
            ),
            (
                "matches_board",
                Type::Bool,
                "bestmove is the move on the board",
            ),
            (
                "legal",
                Type::Bool,
                "bestmove is a legal move in the position the engine was given",
            ),
            (
                "position_matches",
                Type::Bool,
                "the position searched is the game's position at that ply",
            ),
            (
                "pondering",
                Type::Bool,
                "a `go ponder` search (on the opponent's time)",
            ),
            ("ponderhit", Type::Bool, "the ponder search was confirmed"),
            ("depth", Type::Num, "the final depth reported"),
            ("seldepth", Type::Num, "the final selective depth"),
            (
                "score",
                Type::Num,
                "the final evaluation, pawns, from the engine's view; mate = ±1000",
            ),
            ("mate", Type::Num, "mate distance, when a mate score"),
            (
                "bound",
                Type::Str,
                "lowerbound or upperbound, when the final score is a bound",
            ),
            ("nodes", Type::Num, "nodes searched"),
            ("nps", Type::Num, "speed"),
            ("info_time", Type::Num, "the engine's own search time, ms"),
            ("elapsed", Type::Num, "ms from `go` to `bestmove`"),
            (
                "until_end",
                Type::Num,
                "ms from `go` to the game's end in the log (its last line of traffic; evidence: the manager's result line, else that line)",
            ),
            ("iterations", Type::Num, "info lines with a depth"),
            (
                "scored_iterations",
                Type::Num,
                "info lines with a depth and a score",
            ),
            (
                "depths_complete",
                Type::Bool,
                "every depth from the first reported to the last has a scored info",
            ),
            ("go_wtime", Type::Num, "wtime sent with go, ms"),
            ("go_btime", Type::Num, "btime sent with go, ms"),
            ("go_winc", Type::Num, "winc, ms"),
            ("go_binc", Type::Num, "binc, ms"),
            ("movestogo", Type::Num, "movestogo"),
            ("movetime", Type::Num, "movetime, ms"),
            (
                "engine_clock",
                Type::Num,
                "the engine's own clock as it was told with go (wtime or btime of its side), ms",
            ),
            (
                "game_clock",
                Type::Num,
                "the game clock of the engine's side when it had to move, as the ruleset's time control reconstructs it, ms",
            ),
            (
                "wtime_expected",
                Type::Num,
                "White's clock when the go was sent, rebuilt from the game's previous go line (or the time control's start), the move times since and the increments, ms",
            ),
            (
                "btime_expected",
                Type::Num,
                "Black's clock when the go was sent, rebuilt the same way, ms",
            ),
            (
                "clocks_from_start",
                Type::Bool,
                "no earlier go line of the game gave a clock: wtime_expected and btime_expected run from the time control's start",
            ),
        ],
    ),
    (
        EngKind::EngineOption,
        "engine_option",
        &[
            ("name", Type::Str, "the option set (setoption)"),
            ("value", Type::Any, "its value, typed"),
            ("raw", Type::Str, "its value as sent"),
            (
                "machine_moved",
                Type::Bool,
                "the engine had already produced a move in this game",
            ),
            (
                "after_restart",
                Type::Bool,
                "set after the engine was restarted",
            ),
        ],
    ),
    (
        EngKind::EngineStart,
        "engine_start",
        &[(
            "command",
            Type::Str,
            "the command that started it, when logged",
        )],
    ),
    (
        EngKind::EngineExit,
        "engine_exit",
        &[
            ("code", Type::Num, "exit status, when known"),
            (
                "crash",
                Type::Bool,
                "the engine ended abnormally (non-zero or unknown status) before the game ended",
            ),
        ],
    ),
];

impl EngKind {
    pub fn rule_name(self) -> &'static str {
        ENG_KINDS
            .iter()
            .find(|(k, ..)| *k == self)
            .map_or("?", |(_, n, _)| n)
    }

    pub fn all() -> impl Iterator<Item = EngKind> {
        ENG_KINDS.iter().map(|(k, ..)| *k)
    }

    pub fn fields(self) -> Vec<FieldDoc> {
        let own = ENG_KINDS
            .iter()
            .find(|(k, ..)| *k == self)
            .map_or(&[][..], |(_, _, f)| f);
        COMMON.iter().chain(own).copied().collect()
    }
}

/// An engine event placed in the game.
#[derive(Debug, Clone)]
pub struct EngEvent {
    pub kind: EngKind,
    /// Plies completed when it happened: it goes after that move.
    pub placed: u32,
    pub time: i64,
    pub absolute: bool,
    pub span: Span,
    pub source: String,
    pub fields: BTreeMap<&'static str, Value>,
    /// Fields measured to another line of the log than the event's own
    /// (`until_end`: the game's end): a finding whose condition reads one
    /// points at that line too.
    pub places: Vec<(&'static str, Span)>,
}
