//! The timeline: one ordered case file per game.
//!
//! Every fact the rules can see is an [`Event`] with a kind, a place in the
//! game (ply) and the span of the source it came from. This stage orders
//! events and exposes their fields by name ([`Event::field`]); it does not
//! judge them. The vocabulary of kinds and fields is [`VOCABULARY`], which
//! the rule analyzer checks names against.

pub mod align;

use shakmaty::Color;

use std::collections::BTreeMap;

use crate::base::interner::Interner;
use crate::base::span::Span;
use crate::base::value::{Text, Type, Value};
use crate::ingest::comments::{OptionValue, Score};
use crate::ingest::operator::{COMMON_FIELDS, FieldValue, OpEvent, OpKind};
use crate::ingest::pgn::PgnGame;
use crate::replay::{Ply, Replay};
use crate::timeline::align::{EngEvent, EngKind};

/// An engine option's texts as values, each made the first time a rule
/// reads it and shared by the reads after (a ruleset reads an option's name
/// in several rules: one copy, not one a read).
#[derive(Debug, Clone, Default)]
pub struct OptionTexts {
    name: std::sync::OnceLock<Text>,
    value: std::sync::OnceLock<Text>,
    raw: std::sync::OnceLock<Text>,
}

/// The most option texts a thread keeps one copy of, and the longest (in
/// bytes): past them, a text is made anew for its option, so that a file
/// of ever new or huge options keeps at most about a megabyte a thread.
const OPTION_TEXTS_KEPT: usize = 4096;
const OPTION_TEXT_LONGEST: usize = 256;

/// An option's text as a value: the thread's one copy of it. The engines of
/// an archive set the same options game after game, so that a game's
/// options make no new text once their engines have played.
fn option_text(s: &str) -> Text {
    if s.len() > OPTION_TEXT_LONGEST {
        return s.into();
    }
    thread_local! {
        static KEPT: std::cell::RefCell<Interner> = std::cell::RefCell::new(Interner::default());
    }
    KEPT.try_with(|kept| {
        let mut kept = kept.try_borrow_mut().ok()?;
        kept.get_within(s, OPTION_TEXTS_KEPT).map(Text::Shared)
    })
    .ok()
    .flatten()
    .unwrap_or_else(|| s.into())
}

fn opt_num<T: Into<f64>>(v: Option<T>) -> Value {
    v.map_or(Value::None, |x| Value::Num(x.into()))
}

pub(crate) fn side_str(c: Color) -> Value {
    Value::Str(Text::from_static(if c == Color::White {
        "white"
    } else {
        "black"
    }))
}

/// Pawns for a score; a mate counts as ±1000 pawns.
pub fn score_pawns(s: Score) -> f64 {
    match s {
        Score::Cp(cp) => f64::from(cp) / 100.0,
        Score::Mate(m) if m < 0 => -1000.0,
        Score::Mate(_) => 1000.0,
    }
}

/// The kinds of event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The game as a whole (tags); always the first event.
    Game,
    /// An engine option in force for one side.
    Option,
    /// A move on the board.
    Move,
    /// The end of the record; always the last event.
    End,
    /// An event of the operator log.
    Op(OpKind),
    /// An event of an engine log.
    Engine(EngKind),
    /// An item of an event's case file (several games; src/event.rs).
    Scope(ScopeKind),
}

/// What an event-level rule is evaluated on: the event as a whole, each
/// entrant, each pair of entrants, each game in the event's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScopeKind {
    Event,
    Entrant,
    Pairing,
    EventGame,
}

impl ScopeKind {
    pub const ALL: [ScopeKind; 4] = [
        ScopeKind::Event,
        ScopeKind::Entrant,
        ScopeKind::Pairing,
        ScopeKind::EventGame,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ScopeKind::Event => "event",
            ScopeKind::Entrant => "entrant",
            ScopeKind::Pairing => "pairing",
            ScopeKind::EventGame => "event_game",
        }
    }
}

impl Kind {
    pub const PGN: [Kind; 4] = [Kind::Game, Kind::Option, Kind::Move, Kind::End];

    /// Every kind, PGN kinds first.
    pub fn all() -> impl Iterator<Item = Kind> {
        Kind::PGN
            .into_iter()
            .chain(OpKind::all().map(Kind::Op))
            .chain(EngKind::all().map(Kind::Engine))
            .chain(ScopeKind::ALL.into_iter().map(Kind::Scope))
    }

    /// Whether rules on this kind run over an event (several games), not
    /// over one game.
    pub fn is_event_level(self) -> bool {
        matches!(self, Kind::Scope(_))
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Game => "game",
            Kind::Option => "option",
            Kind::Move => "move",
            Kind::End => "end",
            Kind::Op(k) => k.rule_name(),
            Kind::Engine(k) => k.rule_name(),
            Kind::Scope(k) => k.name(),
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::all().find(|k| k.name() == s)
    }
}

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
    (Kind::Game, "details", Type::Str, "tag TerminationDetails"),
    (Kind::Game, "time_control", Type::Str, "tag TimeControl"),
    (Kind::Game, "plies", Type::Num, "moves in the record"),
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
    (Kind::Move, "ponder", Type::Str, "expected reply (pd)"),
    (Kind::Move, "tbhits", Type::Num, "tablebase hits (tb)"),
    (Kind::Move, "hashfull", Type::Num, "hash use, percent (h)"),
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
    (Kind::End, "details", Type::Str, "tag TerminationDetails"),
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

/// One event of the timeline.
#[derive(Debug, Clone)]
pub struct Event<'a> {
    pub kind: Kind,
    pub ply: Option<u32>,
    pub span: Option<Span>,
    pub data: Data<'a>,
}

#[derive(Debug, Clone)]
pub enum Data<'a> {
    Game,
    Option {
        side: Color,
        name: &'a str,
        value: &'a OptionValue,
        raw: &'a str,
        /// Its texts as values, in [`Timeline`]'s list beside the events
        /// (kept there, an event is half the size it would be).
        texts: u32,
    },
    Move(&'a Ply),
    End,
    Op {
        event: &'a OpEvent,
        derived: BTreeMap<&'static str, Value>,
    },
    Engine(&'a EngEvent),
}

/// A game's timeline, borrowing the game and its replay.
#[derive(Debug)]
pub struct Timeline<'a> {
    pub game: &'a PgnGame,
    pub replay: &'a Replay,
    pub events: Vec<Event<'a>>,
    /// The texts of each option event, made as the rules read them.
    option_texts: Vec<OptionTexts>,
}

impl<'a> Timeline<'a> {
    pub fn build(game: &'a PgnGame, replay: &'a Replay) -> Timeline<'a> {
        Timeline::with_operator_log(game, replay, &[])
    }

    /// The game's events merged with its operator log. Operator events are
    /// placed after the move they follow: by their `ply` field when given,
    /// else after the last move the log itself has entered or executed.
    pub fn with_operator_log(
        game: &'a PgnGame,
        replay: &'a Replay,
        ops: &'a [OpEvent],
    ) -> Timeline<'a> {
        Timeline::with_logs(game, replay, ops, &[])
    }

    /// The game with its operator log and its engine-log events, each placed
    /// after the move it follows; at the same place, events with real
    /// timestamps are ordered by time.
    pub fn with_logs(
        game: &'a PgnGame,
        replay: &'a Replay,
        ops: &'a [OpEvent],
        engine: &'a [EngEvent],
    ) -> Timeline<'a> {
        let placed = place_operator_events(replay, ops);
        // Merge the two logs: operator events keep their order; an engine
        // event goes before the first operator event placed later, or at
        // the same place but later in time.
        let mut side: Vec<(u32, Event<'a>)> = Vec::with_capacity(placed.len() + engine.len());
        let mut eng = engine.iter().peekable();
        for (completed, e, derived) in placed {
            while let Some(x) = eng.peek() {
                let before = x.placed < completed
                    || (x.placed == completed && x.absolute && x.time <= e.time);
                if !before {
                    break;
                }
                side.push((x.placed, engine_event(x)));
                eng.next();
            }
            side.push((
                completed,
                Event {
                    kind: Kind::Op(e.kind),
                    ply: Some(completed),
                    span: Some(e.span),
                    data: Data::Op { event: e, derived },
                },
            ));
        }
        side.extend(eng.map(|x| (x.placed, engine_event(x))));
        // the game, its options, the logs' events, the moves and the end:
        // one allocation for the list, not one per doubling
        let options: usize = game
            .preamble
            .iter()
            .filter_map(|c| c.annotations.engine_options.as_ref())
            .map(|o| o.white.len() + o.black.len())
            .sum();
        let mut events = Vec::with_capacity(2 + options + side.len() + replay.plies.len());
        let mut option_texts = Vec::with_capacity(options);
        events.push(Event {
            kind: Kind::Game,
            ply: None,
            span: None,
            data: Data::Game,
        });
        for c in &game.preamble {
            if let Some(opts) = &c.annotations.engine_options {
                for (color, list) in [(Color::White, &opts.white), (Color::Black, &opts.black)] {
                    for o in list {
                        events.push(Event {
                            kind: Kind::Option,
                            ply: None,
                            span: Some(c.span),
                            data: Data::Option {
                                side: color,
                                name: &o.name,
                                value: &o.value,
                                raw: &o.raw,
                                texts: option_texts.len() as u32,
                            },
                        });
                        option_texts.push(OptionTexts::default());
                    }
                }
            }
        }
        let mut next_op = 0;
        let first = replay.first_ply.saturating_sub(1);
        let flush = |events: &mut Vec<Event<'a>>, next_op: &mut usize, upto: u32| {
            while *next_op < side.len() && side[*next_op].0 <= upto {
                events.push(side[*next_op].1.clone());
                *next_op += 1;
            }
        };
        flush(&mut events, &mut next_op, first);
        for p in &replay.plies {
            events.push(Event {
                kind: Kind::Move,
                ply: Some(p.ply),
                span: p.span,
                data: Data::Move(p),
            });
            flush(&mut events, &mut next_op, p.ply);
        }
        flush(&mut events, &mut next_op, u32::MAX);
        events.push(Event {
            kind: Kind::End,
            ply: replay.plies.last().map(|p| p.ply),
            span: None,
            data: Data::End,
        });
        Timeline {
            game,
            replay,
            events,
            option_texts,
        }
    }

    fn tag(&self, name: &str) -> Value {
        tag_value(self.game, name)
    }

    /// The value of `kind.field` at event `i`. `Value::None` when the event
    /// is of another kind or the source does not record it.
    pub fn field(&self, i: usize, kind: Kind, name: &str) -> Value {
        if kind == Kind::Game {
            return match name {
                "white" => self.tag("White"),
                "black" => self.tag("Black"),
                "event" => self.tag("Event"),
                "round" => self.tag("Round"),
                "result" => self.tag("Result"),
                "termination" => self.tag("Termination"),
                "details" => self.tag("TerminationDetails"),
                "time_control" => self.tag("TimeControl"),
                "plies" => Value::Num(self.game.moves.len() as f64),
                _ => Value::None,
            };
        }
        let ev = &self.events[i];
        if ev.kind != kind {
            return Value::None;
        }
        match &ev.data {
            Data::Option {
                side,
                name: n,
                value,
                raw,
                texts,
            } => {
                // the option's text, made once for the event (an event made
                // by hand, without its texts, makes it anew)
                let kept = self.option_texts.get(*texts as usize);
                let text = |cell: fn(&OptionTexts) -> &std::sync::OnceLock<Text>, s: &str| {
                    Value::Str(match kept {
                        Some(k) => cell(k).get_or_init(|| option_text(s)).clone(),
                        None => option_text(s),
                    })
                };
                match name {
                    "side" => side_str(*side),
                    "name" => text(|k| &k.name, n),
                    "value" => match value {
                        OptionValue::Int(i) => Value::Num(*i as f64),
                        OptionValue::Bool(b) => Value::Bool(*b),
                        OptionValue::Text(t) => text(|k| &k.value, t),
                    },
                    "raw" => text(|k| &k.raw, raw),
                    "source" => Value::Str(Text::from_static("pgn-engine-options")),
                    _ => Value::None,
                }
            }
            Data::Move(p) => self.move_field(p, name),
            Data::End => {
                let pos = self.replay.final_position();
                use shakmaty::Position;
                match name {
                    "result" => self.tag("Result"),
                    "details" => self.tag("TerminationDetails"),
                    "plies" => Value::Num(self.replay.plies.len() as f64),
                    "pieces" => Value::Num(f64::from(pos.board().occupied().count() as u32)),
                    "checkmate" => Value::Bool(pos.is_checkmate()),
                    "stalemate" => Value::Bool(pos.is_stalemate()),
                    "complete" => Value::Bool(self.replay.stop.is_none()),
                    _ => Value::None,
                }
            }
            Data::Op { event, derived } => {
                if let Some(v) = derived.get(name) {
                    return v.clone();
                }
                match name {
                    "time" => Value::Num(event.time as f64),
                    "at" => Value::Str(event.at.as_str().into()),
                    "operator" => Value::Str(event.operator.as_str().into()),
                    "role" => event
                        .fields
                        .get("role")
                        .map_or(Value::Str("operator".into()), field_value),
                    _ => event.fields.get(name).map_or(Value::None, field_value),
                }
            }
            Data::Engine(e) => e.fields.get(name).cloned().unwrap_or(Value::None),
            Data::Game => Value::None,
        }
    }

    fn move_field(&self, p: &'a Ply, name: &str) -> Value {
        match MoveField::from_name(name) {
            Some(f) => self.move_facts(p).get(f),
            None => Value::None,
        }
    }

    /// The typed facts of one move, read from its comments once.
    pub fn move_facts(&self, p: &'a Ply) -> MoveFacts<'a> {
        let mv = &self.game.moves[p.move_index];
        let comments = self.game.comments_of(mv);
        let tcec = comments.iter().find_map(|c| c.annotations.tcec());
        let cc = comments.iter().find_map(|c| c.annotations.cutechess());
        let gui = comments.iter().find_map(|c| c.annotations.gui());
        let typed = typed_from(comments, p.side, tcec, || cc, || gui);
        MoveFacts {
            game: self.game,
            ply: p,
            mv,
            tcec,
            cc,
            gui,
            white_score: typed.eval,
            depth: typed.depth,
        }
    }
}

/// The values every comment form is typed into, whichever program wrote
/// the record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TypedValues {
    /// The evaluation from White's point of view: TCEC `wv`, else
    /// `[%eval]`, else a GUI's score (the mover's view, turned).
    pub eval: Option<Score>,
    /// The search depth: TCEC `d`, else a GUI's depth, else `[%eval …,D]`.
    pub depth: Option<u32>,
    /// ms the move used: TCEC `mt`, else `[%emt]`, else a GUI's time.
    pub move_time_ms: Option<i64>,
    /// ms the mover had left after the move: TCEC `tl`, else `[%clk]`.
    pub clock_ms: Option<i64>,
}

/// The typed values of one move's comments (`side` moved). The first
/// comment that gives a value gives it.
pub fn typed_values(comments: &[crate::ingest::pgn::Comment], side: Color) -> TypedValues {
    let ann = || comments.iter().map(|c| &c.annotations);
    typed_from(
        comments,
        side,
        ann().find_map(|a| a.tcec()),
        || ann().find_map(|a| a.cutechess()),
        || ann().find_map(|a| a.gui()),
    )
}

/// [`typed_values`] from the move's first TCEC comment, and its first
/// cutechess and GUI comments as `cc` and `gui` find them: each other form
/// is looked for only where the ones before it give nothing (a TCEC
/// comment gives all four values).
fn typed_from<'m>(
    comments: &'m [crate::ingest::pgn::Comment],
    side: Color,
    tcec: Option<&'m crate::ingest::comments::TcecMove>,
    cc: impl Fn() -> Option<&'m crate::ingest::comments::CutechessMove>,
    gui: impl Fn() -> Option<&'m crate::ingest::comments::GuiMove>,
) -> TypedValues {
    let ann = || comments.iter().map(|c| &c.annotations);
    let eval_cmd = || ann().find_map(|a| a.eval);
    let white = |s: Score| if side == Color::White { s } else { s.negate() };
    TypedValues {
        eval: tcec
            .and_then(|t| t.wv)
            .or_else(|| eval_cmd().map(|e| e.score))
            .or_else(|| cc().and_then(|c| c.score).map(white))
            .or_else(|| gui().and_then(|g| g.score).map(white)),
        depth: tcec
            .and_then(|t| t.d)
            .or_else(|| cc().and_then(|c| c.depth))
            .or_else(|| gui().and_then(|g| g.depth))
            .or_else(|| eval_cmd().and_then(|e| e.depth)),
        move_time_ms: tcec
            .and_then(|t| t.mt)
            .or_else(|| ann().find_map(|a| a.emt))
            .or_else(|| cc().and_then(|c| c.time_ms))
            .or_else(|| gui().and_then(|g| g.time_ms)),
        clock_ms: tcec
            .and_then(|t| t.tl)
            .or_else(|| ann().find_map(|a| a.clk)),
    }
}

/// A field of a `move` event, resolved from its name once, when the
/// ruleset is analyzed (the clock fields come from the clock
/// reconstruction, which the evaluator holds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveField {
    Ply,
    Number,
    Side,
    Engine,
    San,
    Uci,
    Capture,
    PawnMove,
    Promotion,
    Castling,
    CastlingRightsLost,
    RookCastlingLost,
    Irreversible,
    HalfmoveClock,
    Repetition,
    Pieces,
    Check,
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    Book,
    Commented,
    Depth,
    Seldepth,
    Score,
    Wv,
    Mate,
    Nodes,
    Nps,
    Mt,
    Tl,
    Clk,
    Emt,
    Pv,
    Ponder,
    Tbhits,
    Hashfull,
    Ponderhit,
    RecordedLeft,
    RecordedR50,
    RecordedRd,
    RecordedRr,
    /// A field of the clock reconstruction.
    Clock(ClockField),
}

/// A `move` field that the clock reconstruction gives (not the record).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockField {
    Used,
    UsedSource,
    TimedUsed,
    TimedSource,
    ClockLeft,
    ClockAtMove,
    ClockFlag,
    ClockPeriod,
    ClockRequirement,
    ClockJump,
    ClockExpected,
    ClockStopped,
}

impl MoveField {
    /// The field of this name (every `move` field of [`VOCABULARY`]).
    pub fn from_name(name: &str) -> Option<MoveField> {
        use MoveField::*;
        Some(match name {
            "ply" => Ply,
            "number" => Number,
            "side" => Side,
            "engine" => Engine,
            "san" => San,
            "uci" => Uci,
            "capture" => Capture,
            "pawn_move" => PawnMove,
            "promotion" => Promotion,
            "castling" => Castling,
            "castling_rights_lost" => CastlingRightsLost,
            "rook_castling_lost" => RookCastlingLost,
            "irreversible" => Irreversible,
            "halfmove_clock" => HalfmoveClock,
            "repetition" => Repetition,
            "pieces" => Pieces,
            "check" => Check,
            "checkmate" => Checkmate,
            "stalemate" => Stalemate,
            "insufficient_material" => InsufficientMaterial,
            "book" => Book,
            "commented" => Commented,
            "depth" => Depth,
            "seldepth" => Seldepth,
            "score" => Score,
            "wv" => Wv,
            "mate" => Mate,
            "nodes" => Nodes,
            "nps" => Nps,
            "mt" => Mt,
            "tl" => Tl,
            "clk" => Clk,
            "emt" => Emt,
            "pv" => Pv,
            "ponder" => Ponder,
            "tbhits" => Tbhits,
            "hashfull" => Hashfull,
            "ponderhit" => Ponderhit,
            "recorded_left" => RecordedLeft,
            "recorded_r50" => RecordedR50,
            "recorded_rd" => RecordedRd,
            "recorded_rr" => RecordedRr,
            "used" => Clock(ClockField::Used),
            "used_source" => Clock(ClockField::UsedSource),
            "timed_used" => Clock(ClockField::TimedUsed),
            "timed_source" => Clock(ClockField::TimedSource),
            "clock_left" => Clock(ClockField::ClockLeft),
            "clock_at_move" => Clock(ClockField::ClockAtMove),
            "clock_flag" => Clock(ClockField::ClockFlag),
            "clock_period" => Clock(ClockField::ClockPeriod),
            "clock_requirement" => Clock(ClockField::ClockRequirement),
            "clock_jump" => Clock(ClockField::ClockJump),
            "clock_expected" => Clock(ClockField::ClockExpected),
            "clock_stopped" => Clock(ClockField::ClockStopped),
            _ => return None,
        })
    }
}

/// One move's facts: its replayed ply and the annotations of its comments,
/// found once (a rule reads many fields of the same move).
#[derive(Debug, Clone, Copy)]
pub struct MoveFacts<'a> {
    game: &'a PgnGame,
    pub ply: &'a Ply,
    mv: &'a crate::ingest::pgn::PgnMove,
    tcec: Option<&'a crate::ingest::comments::TcecMove>,
    cc: Option<&'a crate::ingest::comments::CutechessMove>,
    gui: Option<&'a crate::ingest::comments::GuiMove>,
    white_score: Option<Score>,
    depth: Option<u32>,
}

/// A tag's value, or `none` when the game has no such tag.
fn tag_value(game: &PgnGame, name: &str) -> Value {
    game.tag(name).map_or(Value::None, |v| Value::Str(v.into()))
}

impl MoveFacts<'_> {
    /// The first of the move's comments that gives `f`, as a number.
    fn ann(&self, f: impl Fn(&crate::ingest::comments::Annotations) -> Option<i64>) -> Option<f64> {
        self.game
            .comments_of(self.mv)
            .iter()
            .find_map(|c| f(&c.annotations))
            .map(|x| x as f64)
    }

    /// Whether `text` names the side that made the move (`move.side ==
    /// text`), compared without making the field's value (the names of
    /// `side_str`, each compared with its literal: a compare with the name
    /// chosen at run time measured 1.03x the time of the whole audit).
    pub fn side_is(&self, text: &str) -> bool {
        match self.ply.side {
            Color::White => text == "white",
            Color::Black => text == "black",
        }
    }

    /// A numeric field's value, without making a `Value`: `Some(None)`
    /// where the record has none, `None` for a field that is not a number
    /// (a text, a boolean, or a clock field, which the evaluator reads from
    /// its clock reconstruction). `get` is made from it, so that the two
    /// agree.
    #[inline(always)]
    pub fn number(&self, f: MoveField) -> Option<Option<f64>> {
        let (p, tcec) = (self.ply, self.tcec);
        Some(match f {
            MoveField::Ply => Some(f64::from(p.ply)),
            MoveField::Number => Some(f64::from(p.move_number)),
            MoveField::HalfmoveClock => Some(f64::from(p.halfmove_clock)),
            MoveField::Repetition => Some(f64::from(p.repetition)),
            MoveField::Pieces => Some(f64::from(p.pieces)),
            MoveField::Depth => self.depth.map(f64::from),
            MoveField::Seldepth => tcec
                .and_then(|t| t.sd)
                .or_else(|| self.gui.and_then(|g| g.seldepth))
                .map(f64::from),
            MoveField::Score => self.white_score.map(|s| {
                let s = if p.side == Color::White {
                    s
                } else {
                    s.negate()
                };
                score_pawns(s)
            }),
            MoveField::Wv => self.white_score.map(score_pawns),
            MoveField::Mate => match self.white_score {
                Some(Score::Mate(m)) => Some(f64::from(m)),
                _ => None,
            },
            MoveField::Nodes => tcec
                .and_then(|t| t.n)
                .or_else(|| self.gui.and_then(|g| g.nodes))
                .map(|x| x as f64),
            MoveField::Nps => tcec
                .and_then(|t| t.s)
                .or_else(|| self.gui.and_then(|g| g.nps))
                .map(|x| x as f64),
            MoveField::Mt => tcec
                .and_then(|t| t.mt)
                .or_else(|| self.cc.and_then(|c| c.time_ms))
                .or_else(|| self.gui.and_then(|g| g.time_ms))
                .map(|x| x as f64),
            MoveField::Tl => tcec.and_then(|t| t.tl).map(|x| x as f64),
            MoveField::Tbhits => tcec
                .and_then(|t| t.tb.flatten())
                .or_else(|| self.gui.and_then(|g| g.tbhits))
                .map(|x| x as f64),
            MoveField::Hashfull => tcec.and_then(|t| t.h),
            MoveField::Ponderhit => tcec.and_then(|t| t.ph),
            MoveField::RecordedLeft => tcec
                .and_then(|t| t.tl)
                .or_else(|| {
                    self.game
                        .comments_of(self.mv)
                        .iter()
                        .find_map(|c| c.annotations.clk)
                })
                .map(|x| x as f64),
            MoveField::RecordedR50 => tcec.and_then(|t| t.r50).map(f64::from),
            MoveField::RecordedRd => tcec.and_then(|t| t.rd).map(f64::from),
            MoveField::RecordedRr => tcec.and_then(|t| t.rr).map(f64::from),
            MoveField::Clk => self.ann(|a| a.clk),
            MoveField::Emt => self.ann(|a| a.emt),
            _ => return None,
        })
    }

    /// A boolean field's value, without making a `Value`; `None` for a
    /// field that is not a boolean. `get` is made from it.
    #[inline(always)]
    pub fn flag(&self, f: MoveField) -> Option<bool> {
        let (p, tcec, cc) = (self.ply, self.tcec, self.cc);
        Some(match f {
            MoveField::Capture => p.capture,
            MoveField::PawnMove => p.pawn_move,
            MoveField::Promotion => p.promotion,
            MoveField::Castling => p.castling,
            MoveField::CastlingRightsLost => p.castling_rights_changed,
            MoveField::RookCastlingLost => p.rook_castling_lost,
            MoveField::Irreversible => p.capture || p.pawn_move,
            MoveField::Check => p.check,
            MoveField::Checkmate => p.checkmate,
            MoveField::Stalemate => p.stalemate,
            MoveField::InsufficientMaterial => p.insufficient_material,
            MoveField::Book => tcec.is_some_and(|t| t.book) || cc.is_some_and(|c| c.book),
            MoveField::Commented => tcec.is_some() || cc.is_some() || self.gui.is_some(),
            _ => return None,
        })
    }

    /// The value of a field (`none` for the clock fields, which the
    /// evaluator reads from its clock reconstruction).
    pub fn get(&self, f: MoveField) -> Value {
        if let Some(n) = self.number(f) {
            return opt_num(n);
        }
        if let Some(b) = self.flag(f) {
            return Value::Bool(b);
        }
        let (p, tcec) = (self.ply, self.tcec);
        match f {
            MoveField::Side => side_str(p.side),
            MoveField::Engine => tag_value(
                self.game,
                if p.side == Color::White {
                    "White"
                } else {
                    "Black"
                },
            ),
            MoveField::San => Value::Str(p.san_text().as_str().into()),
            MoveField::Uci => Value::Str(p.uci_text().as_str().into()),
            MoveField::Pv => tcec
                .and_then(|t| t.pv.as_deref())
                .map_or(Value::None, |s| Value::Str(s.into())),
            MoveField::Ponder => tcec
                .and_then(|t| t.pd.as_deref())
                .map_or(Value::None, |s| Value::Str(s.into())),
            _ => Value::None,
        }
    }
}

fn field_value(v: &FieldValue) -> Value {
    match v {
        FieldValue::Num(n) => Value::Num(*n),
        FieldValue::Bool(b) => Value::Bool(*b),
        FieldValue::Str(s) => Value::Str(s.as_str().into()),
    }
}

fn str_field<'e>(e: &'e OpEvent, k: &str) -> Option<&'e str> {
    match e.fields.get(k) {
        Some(FieldValue::Str(s)) => Some(s),
        _ => None,
    }
}

/// Place each operator event after a ply, and derive its fields.
#[allow(clippy::type_complexity)]
fn place_operator_events<'e>(
    replay: &Replay,
    ops: &'e [OpEvent],
) -> Vec<(u32, &'e OpEvent, BTreeMap<&'static str, Value>)> {
    let first = replay.first_ply.saturating_sub(1);
    let machine: Option<String> = ops
        .iter()
        .find(|e| e.kind == OpKind::Setup)
        .and_then(|e| str_field(e, "machine_side"))
        .map(|s| s.to_ascii_lowercase());
    let team: Vec<String> = ops
        .iter()
        .find(|e| e.kind == OpKind::Setup)
        .and_then(|e| str_field(e, "team"))
        .map(|t| {
            t.split(',')
                .map(|x| x.trim().to_lowercase())
                .filter(|x| !x.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let end_time = ops
        .iter()
        .rev()
        .find(|e| {
            matches!(
                e.kind,
                OpKind::GameEnd | OpKind::Resign | OpKind::DrawAccept | OpKind::Adjudication
            )
        })
        .or_else(|| ops.iter().rev().find(|e| e.kind == OpKind::MoveExecuted))
        .map(|e| e.time);
    let side_after = |completed: u32| {
        if completed.is_multiple_of(2) {
            "white"
        } else {
            "black"
        }
    };
    let mut completed = first;
    let mut machine_moved = false;
    let mut out = Vec::with_capacity(ops.len());
    for (i, e) in ops.iter().enumerate() {
        let mut d: BTreeMap<&'static str, Value> = BTreeMap::new();
        let given_ply = match e.fields.get("ply") {
            Some(FieldValue::Num(n)) if *n >= 0.0 => Some(*n as u32),
            _ => None,
        };
        if matches!(e.kind, OpKind::MoveEntered | OpKind::MoveExecuted) {
            let ply = given_ply.unwrap_or(completed.saturating_add(1));
            let written = str_field(e, "move").unwrap_or("");
            let correct = replay
                .ply(ply)
                .is_some_and(|p| same_move(replay, p, written));
            d.insert("correct", Value::Bool(correct));
            completed = completed.max(ply);
            d.insert("ply", Value::Num(f64::from(ply)));
            if e.kind == OpKind::MoveExecuted
                && machine.as_deref() == Some(if ply % 2 == 1 { "white" } else { "black" })
            {
                machine_moved = true;
            }
        } else if let Some(p) = given_ply {
            // The ply the event is about. A position set-up at an earlier
            // ply takes the game back there; other events stay where they
            // happened in time.
            if e.kind == OpKind::PositionSetup {
                completed = p;
            }
            d.insert("ply", Value::Num(f64::from(p)));
        } else {
            d.insert("ply", Value::Num(f64::from(completed)));
        }
        // Placed in time order: after the last move completed so far.
        let at = completed;
        let about = match d.get("ply") {
            Some(Value::Num(n)) => *n as u32,
            _ => completed,
        };
        let to_move = side_after(completed);
        d.insert("side_to_move", Value::Str(to_move.into()));
        if let Some(m) = &machine {
            d.insert("machine", Value::Str(m.as_str().into()));
            d.insert("machine_to_move", Value::Bool(m == to_move));
        }
        d.insert("machine_moved", Value::Bool(machine_moved));
        let ended = ops[..i].iter().any(|x| {
            matches!(
                x.kind,
                OpKind::GameEnd | OpKind::Resign | OpKind::DrawAccept | OpKind::Adjudication
            )
        });
        d.insert("in_game", Value::Bool(completed > first && !ended));
        let until = |kind: OpKind| {
            ops[i + 1..]
                .iter()
                .find(|x| x.kind == kind)
                .map(|x| Value::Num((x.time - e.time) as f64))
        };
        match e.kind {
            OpKind::ClockStop => {
                d.insert("duration", until(OpKind::ClockStart).unwrap_or(Value::None));
            }
            OpKind::PowerFailure => {
                d.insert(
                    "duration",
                    until(OpKind::PowerRestored).unwrap_or(Value::None),
                );
            }
            OpKind::ConsultationStart => {
                d.insert(
                    "duration",
                    until(OpKind::ConsultationEnd).unwrap_or(Value::None),
                );
                let outsiders: Vec<String> = str_field(e, "participants")
                    .unwrap_or("")
                    .split(',')
                    .map(str::trim)
                    .filter(|p| {
                        !p.is_empty()
                            && !team.contains(&p.to_lowercase())
                            && p.to_lowercase() != e.operator.to_lowercase()
                    })
                    .map(str::to_string)
                    .collect();
                d.insert("outsiders", Value::Str(outsiders.join(", ").into()));
            }
            OpKind::ClockSet => {
                if let (Some(FieldValue::Num(o)), Some(FieldValue::Num(n))) =
                    (e.fields.get("old"), e.fields.get("new"))
                {
                    d.insert("delta", Value::Num(n - o));
                }
            }
            OpKind::Handover => {
                d.insert(
                    "after_end",
                    end_time.map_or(Value::None, |t| Value::Num((e.time - t) as f64)),
                );
            }
            OpKind::PositionSetup => {
                let fen_at = if about < replay.first_ply {
                    Some(crate::replay::fen_of(&replay.start))
                } else {
                    replay
                        .plies
                        .get((about - replay.first_ply) as usize)
                        .map(|p| p.fen())
                };
                let given = str_field(e, "fen").unwrap_or("");
                d.insert(
                    "correct",
                    Value::Bool(fen_at.is_some_and(|f| same_position(&f, given))),
                );
            }
            _ => {}
        }
        out.push((at, e, d));
    }
    out
}

/// Whether `written` (SAN, in any legal spelling, or UCI) is the move
/// played at this ply: it is read in the position before the move.
fn same_move(replay: &Replay, p: &Ply, written: &str) -> bool {
    let w = written.trim();
    if p.uci_text().eq_ignore_ascii_case(w) {
        return true;
    }
    let before = match p.ply.checked_sub(replay.first_ply) {
        Some(0) => &replay.start,
        Some(i) => &replay.plies[i as usize - 1].position,
        None => return false,
    };
    match shakmaty::san::SanPlus::from_ascii(w.as_bytes()) {
        Ok(sp) => sp
            .san
            .to_move(before)
            .is_ok_and(|m| m.to_uci(replay.castling_mode) == p.uci),
        Err(_) => false,
    }
}

/// Same placement, side to move, castling and en passant (clocks ignored).
fn same_position(a: &str, b: &str) -> bool {
    let key = |f: &str| f.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    key(a) == key(b)
}

fn engine_event(e: &EngEvent) -> Event<'_> {
    Event {
        kind: Kind::Engine(e.kind),
        ply: Some(e.placed),
        span: Some(e.span),
        data: Data::Engine(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(t: &Text) -> &std::sync::Arc<str> {
        match t {
            Text::Shared(a) => a,
            Text::Static(s) => panic!("{s:?} is not a shared text"),
        }
    }

    #[test]
    fn an_interner_past_its_bound_gives_only_what_it_keeps() {
        let mut kept: Interner = Interner::default();
        let a = kept.get_within("Hash", 1).expect("room for one");
        assert_eq!(kept.get_within("Threads", 1), None);
        let b = kept.get_within("Hash", 1).expect("kept");
        assert!(std::sync::Arc::ptr_eq(&a, &b));
        // without a bound, every text is kept
        assert_eq!(&*kept.get("Threads"), "Threads");
        assert!(kept.get_within("Threads", 1).is_some());
    }

    /// Each option event gives its own option's side, name, value and raw
    /// text, and a text read twice is the one made the first time (kept
    /// beside the events), even one too long for the thread's copies.
    #[test]
    fn an_option_events_texts_are_its_options_and_made_once() {
        let long = "x".repeat(OPTION_TEXT_LONGEST + 1);
        let pgn = format!(
            "[Event \"E\"]\n\n{{WhiteEngineOptions: Threads=4; SyzygyPath={long};, BlackEngineOptions: Hash=128; Ponder=true;}}\n1. e4 e5 *\n\n"
        );
        let (game, replay) = crate::replay::tests::replayed(&pgn);
        let tl = Timeline::build(&game, &replay);
        let options: Vec<usize> = (0..tl.events.len())
            .filter(|&i| tl.events[i].kind == Kind::Option)
            .collect();
        let read = |i: usize, f: &str| tl.field(i, Kind::Option, f);
        let seen: Vec<(Value, Value, Value)> = options
            .iter()
            .map(|&i| (read(i, "side"), read(i, "name"), read(i, "value")))
            .collect();
        assert_eq!(
            seen,
            [
                (
                    side_str(Color::White),
                    Value::Str("Threads".into()),
                    Value::Num(4.0)
                ),
                (
                    side_str(Color::White),
                    Value::Str("SyzygyPath".into()),
                    Value::Str(long.as_str().into())
                ),
                (
                    side_str(Color::Black),
                    Value::Str("Hash".into()),
                    Value::Num(128.0)
                ),
                (
                    side_str(Color::Black),
                    Value::Str("Ponder".into()),
                    Value::Bool(true)
                ),
            ]
        );
        let (Value::Str(a), Value::Str(b)) = (read(options[1], "value"), read(options[1], "value"))
        else {
            panic!("the path is a text");
        };
        assert!(std::sync::Arc::ptr_eq(shared(&a), shared(&b)));
        assert_eq!(read(options[2], "raw"), Value::Str("128".into()));
    }

    #[test]
    fn an_option_text_is_kept_once_a_thread_unless_it_is_long() {
        let (a, b) = (option_text("Hash"), option_text("Hash"));
        assert_eq!(a, "Hash");
        assert!(std::sync::Arc::ptr_eq(shared(&a), shared(&b)));
        let long = "x".repeat(OPTION_TEXT_LONGEST + 1);
        let (c, d) = (option_text(&long), option_text(&long));
        assert_eq!(c, long.as_str());
        assert!(!std::sync::Arc::ptr_eq(shared(&c), shared(&d)));
        // another thread keeps its own copy
        let other = std::thread::spawn(|| option_text("Hash")).join().unwrap();
        assert_eq!(other, "Hash");
        assert!(!std::sync::Arc::ptr_eq(shared(&a), shared(&other)));
    }
}
