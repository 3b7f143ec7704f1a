//! The kinds of event a rule is written on: the PGN's own, the operator
//! log's, the engine logs' and the items of an event's case file.

use crate::ingest::operator::OpKind;
use crate::timeline::align::EngKind;

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
