//! The field vocabulary: every field a rule may read, by kind, with its
//! type and meaning; the rule analyzer checks names against it.

use crate::base::value::Type;
use crate::ingest::operator::COMMON_FIELDS;
use crate::timeline::kind::{Kind, ScopeKind};

/// `(kind, field, type, meaning)`: every field a rule may read.
pub const VOCABULARY: &[(Kind, &str, Type, &str)] = &[
    (Kind::Game, "white", Type::Str, "White's name (tag White)"),
    (Kind::Game, "black", Type::Str, "Black's name (tag Black)"),
    (Kind::Game, "event", Type::Str, "tag Event"),
    (Kind::Game, "round", Type::Str, "tag Round"),
    (
        Kind::Game,
        "result",
        Type::Str,
        "tag Result: 1-0, 0-1, 1/2-1/2 or *",
    ),
    (Kind::Game, "termination", Type::Str, "tag Termination"),
    (
        Kind::Game,
        "details",
        Type::Str,
        "tag TerminationDetails, else the termination a match manager wrote after the last move's comment",
    ),
    (Kind::Game, "time_control", Type::Str, "tag TimeControl"),
    (Kind::Game, "plies", Type::Num, "moves in the record"),
    (
        Kind::Game,
        "start_time",
        Type::Num,
        "tag GameStartTime (fastchess, cutechess-cli), ms since the Unix epoch; none where its zone is a name such as CST",
    ),
    (
        Kind::Game,
        "end_time",
        Type::Num,
        "tag GameEndTime, ms since the Unix epoch; none where its zone is a name",
    ),
    (
        Kind::Game,
        "duration",
        Type::Num,
        "tag GameDuration (00:00:08), ms",
    ),
    (
        Kind::Game,
        "rules_time_control",
        Type::Str,
        "the time control the rules run the clocks under (the ruleset's, or the one `rules fit` found in the record; for a ruleset with none, the game's TimeControl tag), in the TimeControl tag's form: 1800+5; none without one",
    ),
    (
        Kind::Game,
        "rules_increment",
        Type::Num,
        "that time control's increment in its first period, ms",
    ),
    (Kind::Option, "side", Type::Str, "white or black"),
    (Kind::Option, "name", Type::Str, "option name as recorded"),
    (
        Kind::Option,
        "value",
        Type::Any,
        "typed value: number, boolean or text",
    ),
    (Kind::Option, "raw", Type::Str, "value as written"),
    (
        Kind::Option,
        "source",
        Type::Str,
        "where it was recorded (pgn-engine-options)",
    ),
    (Kind::Move, "ply", Type::Num, "1 = White's first move"),
    (Kind::Move, "number", Type::Num, "move number"),
    (
        Kind::Move,
        "start",
        Type::Bool,
        "true at the game's start position (seen by adjudications alone), false at every move",
    ),
    (
        Kind::Move,
        "side",
        Type::Str,
        "the side that moved: white or black",
    ),
    (
        Kind::Move,
        "engine",
        Type::Str,
        "name of the side that moved",
    ),
    (Kind::Move, "san", Type::Str, "the move in SAN"),
    (Kind::Move, "uci", Type::Str, "the move in UCI notation"),
    (Kind::Move, "capture", Type::Bool, "the move captured"),
    (Kind::Move, "pawn_move", Type::Bool, "a pawn moved"),
    (Kind::Move, "promotion", Type::Bool, "a pawn promoted"),
    (Kind::Move, "castling", Type::Bool, "the move castled"),
    (
        Kind::Move,
        "castling_rights_lost",
        Type::Bool,
        "some castling right was lost",
    ),
    (
        Kind::Move,
        "rook_castling_lost",
        Type::Bool,
        "a rook left its castling square, losing that right",
    ),
    (
        Kind::Move,
        "irreversible",
        Type::Bool,
        "capture or pawn move (FIDE 9.3)",
    ),
    (
        Kind::Move,
        "halfmove_clock",
        Type::Num,
        "plies since the last capture or pawn move",
    ),
    (
        Kind::Move,
        "repetition",
        Type::Num,
        "occurrences of the position after the move",
    ),
    (
        Kind::Move,
        "pieces",
        Type::Num,
        "pieces on the board after the move, kings included",
    ),
    (
        Kind::Move,
        "pawns",
        Type::Num,
        "pawns on the board after the move, both sides'",
    ),
    (
        Kind::Move,
        "minors_and_majors",
        Type::Num,
        "knights, bishops, rooks and queens on the board after the move, both sides'",
    ),
    (Kind::Move, "check", Type::Bool, "the move gives check"),
    (Kind::Move, "checkmate", Type::Bool, "the move mates"),
    (Kind::Move, "stalemate", Type::Bool, "the move stalemates"),
    (
        Kind::Move,
        "insufficient_material",
        Type::Bool,
        "neither side can mate after the move",
    ),
    (
        Kind::Move,
        "book",
        Type::Bool,
        "recorded as an opening-book move",
    ),
    (
        Kind::Move,
        "commented",
        Type::Bool,
        "the move carries an engine or book comment",
    ),
    (
        Kind::Move,
        "depth",
        Type::Num,
        "search depth recorded: TCEC d, a GUI comment's depth, else [%eval …,D]",
    ),
    (Kind::Move, "seldepth", Type::Num, "selective depth (sd)"),
    (
        Kind::Move,
        "score",
        Type::Num,
        "the mover's evaluation, pawns, from its own view; mate = ±1000",
    ),
    (
        Kind::Move,
        "wv",
        Type::Num,
        "evaluation from White's view, pawns; mate = ±1000",
    ),
    (
        Kind::Move,
        "mate",
        Type::Num,
        "mate distance from White's view, when a mate score",
    ),
    (
        Kind::Move,
        "nodes",
        Type::Num,
        "nodes searched (TCEC n, fastchess n)",
    ),
    (
        Kind::Move,
        "nps",
        Type::Num,
        "speed (TCEC s, fastchess nps)",
    ),
    (
        Kind::Move,
        "mt",
        Type::Num,
        "move time, ms (TCEC mt, else a GUI comment's time)",
    ),
    (Kind::Move, "tl", Type::Num, "time left after the move, ms"),
    (Kind::Move, "clk", Type::Num, "[%clk] after the move, ms"),
    (Kind::Move, "emt", Type::Num, "[%emt], ms"),
    (Kind::Move, "pv", Type::Str, "principal variation (SAN)"),
    (
        Kind::Move,
        "pv_uci",
        Type::Str,
        "principal variation in UCI coordinates (fastchess pv=\"…\")",
    ),
    (
        Kind::Move,
        "latency",
        Type::Num,
        "fastchess latency=: ms between the engine's bestmove and fastchess's reading of it",
    ),
    (Kind::Move, "ponder", Type::Str, "expected reply (pd)"),
    (Kind::Move, "tbhits", Type::Num, "tablebase hits (tb)"),
    (
        Kind::Move,
        "hashfull",
        Type::Num,
        "hash use, percent (TCEC h; fastchess hashfull, per mille, divided by ten)",
    ),
    (
        Kind::Move,
        "ponderhit",
        Type::Num,
        "ponder hit rate, percent (ph)",
    ),
    (
        Kind::Move,
        "used",
        Type::Num,
        "ms the move used: TCEC mt, [%emt], cutechess time, another GUI comment's time (fastchess, Arena, Banksia), else from consecutive [%clk], else the logs' timestamps (needs the ruleset's time control)",
    ),
    (
        Kind::Move,
        "clock_left",
        Type::Num,
        "ms the ruleset's time control leaves the mover after this move",
    ),
    (
        Kind::Move,
        "clock_at_move",
        Type::Num,
        "ms the ruleset's time control left the mover when the move was completed, before any increment or new period's time: negative when the time ran out",
    ),
    (
        Kind::Move,
        "clock_flag",
        Type::Bool,
        "the mover's time ran out before this move was made, under the ruleset's time control",
    ),
    (
        Kind::Move,
        "clock_period",
        Type::Num,
        "the period (1-based) the move was made in",
    ),
    (
        Kind::Move,
        "clock_requirement",
        Type::Str,
        "the requirement of the period the move was made in, e.g. \"40 moves in 2h\"",
    ),
    (
        Kind::Move,
        "used_source",
        Type::Str,
        "where `used` comes from: tcec mt, emt, cutechess, gui comment, clock readings, engine log, operator log",
    ),
    (
        Kind::Move,
        "timed_used",
        Type::Num,
        "ms the logs' timestamps give for the move (engine log `go` to `bestmove`, else the operator log's previous move to this one), less clock_stopped",
    ),
    (
        Kind::Move,
        "timed_source",
        Type::Str,
        "engine log or operator log: where timed_used comes from",
    ),
    (
        Kind::Move,
        "clock_stopped",
        Type::Num,
        "ms the mover's clock was stopped (clock-stop, power-failure) while the move was made",
    ),
    (
        Kind::Move,
        "clock_expected",
        Type::Num,
        "what the mover's previous clock reading less the moves' time plus the increments gives for this reading (the record's TimeControl tag, else the ruleset's time control)",
    ),
    (
        Kind::Move,
        "clock_jump",
        Type::Num,
        "recorded_left - clock_expected: time the clock gained (> 0) or lost (< 0) that no move and no logged clock setting explains; across moves with no time of their own (none recorded, or only the readings) only a gain is measured, and it is a lower bound",
    ),
    (
        Kind::Move,
        "recorded_left",
        Type::Num,
        "ms the record says the mover had left after the move ([%clk] or TCEC tl)",
    ),
    (
        Kind::Move,
        "recorded_r50",
        Type::Num,
        "the R50 counter the arbiter software recorded",
    ),
    (
        Kind::Move,
        "recorded_rd",
        Type::Num,
        "the Rd (draw rule) counter recorded",
    ),
    (
        Kind::Move,
        "recorded_rr",
        Type::Num,
        "the Rr (win rule) counter recorded",
    ),
    (Kind::End, "result", Type::Str, "tag Result"),
    (
        Kind::End,
        "details",
        Type::Str,
        "tag TerminationDetails, else the termination a match manager wrote after the last move's comment",
    ),
    (Kind::End, "plies", Type::Num, "plies replayed"),
    (
        Kind::End,
        "pieces",
        Type::Num,
        "pieces in the final position",
    ),
    (
        Kind::End,
        "checkmate",
        Type::Bool,
        "the final position is checkmate",
    ),
    (
        Kind::End,
        "stalemate",
        Type::Bool,
        "the final position is stalemate",
    ),
    (
        Kind::End,
        "complete",
        Type::Bool,
        "every recorded move was replayed",
    ),
    // ---- event level (src/event.rs): rules over several games
    (
        Kind::Scope(ScopeKind::Event),
        "name",
        Type::Str,
        "the event's name (tag Event)",
    ),
    (
        Kind::Scope(ScopeKind::Event),
        "games",
        Type::Num,
        "games of the event in the input",
    ),
    (
        Kind::Scope(ScopeKind::Event),
        "played",
        Type::Num,
        "games with a result (1-0, 0-1, 1/2-1/2)",
    ),
    (
        Kind::Scope(ScopeKind::Event),
        "entrants",
        Type::Num,
        "entrants (engines, all versions of one engine counted once; byes not counted)",
    ),
    (
        Kind::Scope(ScopeKind::Event),
        "rounds",
        Type::Num,
        "distinct rounds (the Round tag's number before any dot)",
    ),
    (
        Kind::Scope(ScopeKind::Event),
        "first_date",
        Type::Str,
        "the earliest Date tag of its games",
    ),
    (
        Kind::Scope(ScopeKind::Event),
        "later_events",
        Type::Any,
        "names of the events of the same input whose first game is later, in order",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "name",
        Type::Str,
        "the entrant's name as played; versions joined with ' / ' when it changed",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "engine",
        Type::Str,
        "the engine: the name without trailing version words (words with a digit)",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "versions",
        Type::Num,
        "distinct names the engine played under in this event",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "version_list",
        Type::Str,
        "those names, in the order first played, with the game number each first appeared",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "rank",
        Type::Num,
        "place in the standings under the ruleset's scoring and tiebreaks",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "tied",
        Type::Bool,
        "no computed tiebreak separates it from another entrant",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "points",
        Type::Num,
        "points under the ruleset's scoring",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "games",
        Type::Num,
        "games played with a result",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "wins",
        Type::Num,
        "games won",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "crashes",
        Type::Num,
        "games lost by crash, stall or disconnect (TerminationDetails)",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "rating",
        Type::Num,
        "its WhiteElo/BlackElo tag (the highest seen)",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "seed",
        Type::Num,
        "place in the expected ranking (by rating, 1 = highest)",
    ),
    (
        Kind::Scope(ScopeKind::Entrant),
        "next_event",
        Type::Str,
        "the first later event (see event.later_events) the engine plays in, or none",
    ),
    (
        Kind::Scope(ScopeKind::Pairing),
        "first",
        Type::Str,
        "one entrant (the first by name)",
    ),
    (
        Kind::Scope(ScopeKind::Pairing),
        "second",
        Type::Str,
        "the other entrant",
    ),
    (
        Kind::Scope(ScopeKind::Pairing),
        "games",
        Type::Num,
        "games between them",
    ),
    (
        Kind::Scope(ScopeKind::Pairing),
        "first_white",
        Type::Num,
        "games the first played with White",
    ),
    (
        Kind::Scope(ScopeKind::Pairing),
        "second_white",
        Type::Num,
        "games the second played with White",
    ),
    (
        Kind::Scope(ScopeKind::Pairing),
        "first_points",
        Type::Num,
        "points the first scored against the second",
    ),
    (
        Kind::Scope(ScopeKind::Pairing),
        "second_points",
        Type::Num,
        "points the second scored against the first",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "number",
        Type::Num,
        "the game's place in the event (1-based; by round, then input order)",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "round",
        Type::Num,
        "the Round tag's number before any dot",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "white",
        Type::Str,
        "White's entrant name",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "black",
        Type::Str,
        "Black's entrant name",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "result",
        Type::Str,
        "tag Result",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "previous_white",
        Type::Str,
        "White's entrant in the event's previous game, or none",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "previous_black",
        Type::Str,
        "Black's entrant in the event's previous game, or none",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "white_score_before",
        Type::Num,
        "White's points before this game's round",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "black_score_before",
        Type::Num,
        "Black's points before this game's round",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "white_games_in_round",
        Type::Num,
        "games White's entrant has in this game's round",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "black_games_in_round",
        Type::Num,
        "games Black's entrant has in this game's round",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "opening",
        Type::Str,
        "the opening the game was started from: its FEN tag and the moves recorded as book, or none",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "opening_index",
        Type::Num,
        "which opening this is, in the order the openings first appear (1-based), or none",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "opening_games",
        Type::Num,
        "games of the event started from the same opening",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "opening_partner",
        Type::Num,
        "the number of the other game with the same opening, when there are exactly two",
    ),
    (
        Kind::Scope(ScopeKind::EventGame),
        "opening_swapped",
        Type::Bool,
        "the other game with the same opening has the same entrants with colours reversed",
    ),
];

/// Every field of a kind: `(name, type, meaning)`.
pub fn fields(kind: Kind) -> Vec<(&'static str, Type, &'static str)> {
    match kind {
        Kind::Op(k) => COMMON_FIELDS.iter().chain(k.fields()).copied().collect(),
        Kind::Engine(k) => k.fields(),
        _ => VOCABULARY
            .iter()
            .filter(|(k, ..)| *k == kind)
            .map(|(_, n, t, d)| (*n, *t, *d))
            .collect(),
    }
}

/// Look up a field's type.
pub fn field_type(kind: Kind, name: &str) -> Option<Type> {
    fields(kind)
        .into_iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, t, _)| t)
}

/// The fields of a kind, for "did you mean".
pub fn fields_of(kind: Kind) -> impl Iterator<Item = &'static str> {
    fields(kind).into_iter().map(|(n, ..)| n)
}
