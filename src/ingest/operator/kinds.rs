//! The kinds of operator event, their names in the log and in the rule
//! language, and the fields of each (the vocabulary of the log).

use crate::base::value::Type;

/// The kinds of operator event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpKind {
    Setup,
    MoveEntered,
    MoveExecuted,
    ClockSet,
    ClockStop,
    ClockStart,
    ParameterChange,
    Restart,
    PositionSetup,
    EngineQuery,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    HardwareChange,
    ConsultationStart,
    ConsultationEnd,
    Approval,
    PowerFailure,
    PowerRestored,
    Handover,
    OperatorChange,
    ErrorReport,
    Adjudication,
    GameEnd,
}

/// Fields every operator event has (derived by the timeline where noted).
pub const COMMON_FIELDS: &[(&str, Type, &str)] = &[
    ("time", Type::Num, "when, ms since 1970-01-01 UTC"),
    ("at", Type::Str, "the timestamp as written"),
    ("operator", Type::Str, "who did it"),
    (
        "role",
        Type::Str,
        "operator (default), arbiter, technician, team or player",
    ),
    (
        "ply",
        Type::Num,
        "plies completed when it happened (derived)",
    ),
    ("side_to_move", Type::Str, "white or black (derived)"),
    (
        "machine",
        Type::Str,
        "the machine's side, from the setup event (derived)",
    ),
    (
        "machine_to_move",
        Type::Bool,
        "the machine is on move (derived)",
    ),
    (
        "machine_moved",
        Type::Bool,
        "the machine has made a move in this game (derived)",
    ),
    (
        "in_game",
        Type::Bool,
        "a move has been made and the game has not ended (no game-end, resign, draw-accept or adjudication before it) (derived)",
    ),
    ("approved_by", Type::Str, "who approved it"),
    ("reason", Type::Str, "why, as written"),
    ("note", Type::Str, "free text"),
];

/// `(kind, name in the log, its own fields)`.
/// A field: `(name, type, meaning)`.
pub type FieldDoc = (&'static str, Type, &'static str);

pub const OP_KINDS: &[(OpKind, &str, &[FieldDoc])] = &[
    (
        OpKind::Setup,
        "setup",
        &[
            (
                "machine_side",
                Type::Str,
                "white or black: the side the machine plays",
            ),
            (
                "team",
                Type::Str,
                "the machine team named for this game, comma separated",
            ),
            (
                "configuration",
                Type::Str,
                "the configuration document handed to the arbiter",
            ),
            (
                "round",
                Type::Str,
                "the game's Round tag, to match the log to its game",
            ),
        ],
    ),
    (
        OpKind::MoveEntered,
        "move-entered",
        &[
            ("side", Type::Str, "whose move was typed in"),
            ("move", Type::Str, "the move as typed"),
            (
                "correct",
                Type::Bool,
                "it is the move of the game record at that ply (derived)",
            ),
        ],
    ),
    (
        OpKind::MoveExecuted,
        "move-executed",
        &[
            ("side", Type::Str, "whose move was made on the board"),
            ("move", Type::Str, "the move as made"),
            (
                "correct",
                Type::Bool,
                "it is the move of the game record at that ply (derived)",
            ),
            (
                "clock_pressed",
                Type::Bool,
                "the clock was pressed after it",
            ),
        ],
    ),
    (
        OpKind::ClockSet,
        "clock-set",
        &[
            ("side", Type::Str, "white or black"),
            (
                "clock",
                Type::Str,
                "game (the chess clock) or machine (the program's internal clock)",
            ),
            ("old", Type::Num, "value before, ms"),
            ("new", Type::Num, "value after, ms"),
            ("delta", Type::Num, "new − old, ms (derived)"),
            ("kind", Type::Str, "sync, correction or set"),
            (
                "requested_by",
                Type::Str,
                "who asked for it (e.g. engine, when the program asked for the clock)",
            ),
        ],
    ),
    (
        OpKind::ClockStop,
        "clock-stop",
        &[
            ("side", Type::Str, "white, black or both"),
            ("requested_by", Type::Str, "who asked for the stop"),
            (
                "duration",
                Type::Num,
                "ms until the next clock-start (derived; none if never restarted)",
            ),
        ],
    ),
    (
        OpKind::ClockStart,
        "clock-start",
        &[("side", Type::Str, "white, black or both")],
    ),
    (
        OpKind::ParameterChange,
        "parameter-change",
        &[
            ("name", Type::Str, "the parameter"),
            ("old", Type::Any, "value before"),
            ("new", Type::Any, "value after"),
            (
                "requested_by",
                Type::Str,
                "who asked for it (e.g. engine, when the program asked)",
            ),
        ],
    ),
    (
        OpKind::Restart,
        "restart",
        &[("what", Type::Str, "program, machine or recovery")],
    ),
    (
        OpKind::PositionSetup,
        "position-setup",
        &[
            ("fen", Type::Str, "the position set up"),
            (
                "correct",
                Type::Bool,
                "it is the game's position at that ply (derived)",
            ),
        ],
    ),
    (
        OpKind::EngineQuery,
        "engine-query",
        &[("what", Type::Str, "alive, interrogation, …")],
    ),
    (
        OpKind::DrawOffer,
        "draw-offer",
        &[
            ("by", Type::Str, "white or black"),
            ("eval", Type::Num, "the machine's evaluation shown, pawns"),
        ],
    ),
    (
        OpKind::DrawAccept,
        "draw-accept",
        &[("by", Type::Str, "white or black")],
    ),
    (
        OpKind::DrawDecline,
        "draw-decline",
        &[("by", Type::Str, "white or black")],
    ),
    (
        OpKind::Resign,
        "resign",
        &[("side", Type::Str, "white or black")],
    ),
    (
        OpKind::HardwareChange,
        "hardware-change",
        &[("what", Type::Str, "what changed")],
    ),
    (
        OpKind::ConsultationStart,
        "consultation-start",
        &[
            ("participants", Type::Str, "who took part, comma separated"),
            ("topic", Type::Str, "what about (draw-offer, technical, …)"),
            (
                "outsiders",
                Type::Str,
                "participants not on the setup team list (derived)",
            ),
            (
                "duration",
                Type::Num,
                "ms until the next consultation-end (derived)",
            ),
        ],
    ),
    (OpKind::ConsultationEnd, "consultation-end", &[]),
    (
        OpKind::Approval,
        "approval",
        &[
            ("by", Type::Str, "arbiter or tournament director"),
            ("subject", Type::Str, "what was approved"),
        ],
    ),
    (
        OpKind::PowerFailure,
        "power-failure",
        &[("duration", Type::Num, "ms until power-restored (derived)")],
    ),
    (OpKind::PowerRestored, "power-restored", &[]),
    (
        OpKind::Handover,
        "handover",
        &[
            (
                "item",
                Type::Str,
                "log, program, printout, configuration, team-list, …",
            ),
            ("copies", Type::Num, "how many copies"),
            ("to", Type::Str, "to whom"),
            (
                "after_end",
                Type::Num,
                "ms after the end of the game (derived)",
            ),
        ],
    ),
    (
        OpKind::OperatorChange,
        "operator-change",
        &[
            ("from", Type::Str, "the operator before"),
            ("to", Type::Str, "the operator after"),
        ],
    ),
    (
        OpKind::ErrorReport,
        "error-report",
        &[("what", Type::Str, "the error reported to the arbiter")],
    ),
    (
        OpKind::Adjudication,
        "adjudication",
        &[
            ("result", Type::Str, "1-0, 0-1 or 1/2-1/2"),
            ("by", Type::Str, "who adjudicated"),
        ],
    ),
    (
        OpKind::GameEnd,
        "game-end",
        &[("result", Type::Str, "1-0, 0-1 or 1/2-1/2")],
    ),
];

impl OpKind {
    /// The name in the log (`clock-stop`).
    pub fn log_name(self) -> &'static str {
        OP_KINDS
            .iter()
            .find(|(k, ..)| *k == self)
            .map_or("?", |(_, n, _)| n)
    }

    /// The name in the rule language (`clock_stop`).
    pub fn rule_name(self) -> &'static str {
        RULE_NAMES
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("?", |(_, n)| n)
    }

    pub fn from_log_name(s: &str) -> Option<OpKind> {
        let s = s.replace('_', "-");
        OP_KINDS.iter().find(|(_, n, _)| *n == s).map(|(k, ..)| *k)
    }

    pub fn fields(self) -> &'static [(&'static str, Type, &'static str)] {
        OP_KINDS
            .iter()
            .find(|(k, ..)| *k == self)
            .map_or(&[], |(_, _, f)| f)
    }

    pub fn all() -> impl Iterator<Item = OpKind> {
        OP_KINDS.iter().map(|(k, ..)| *k)
    }
}

const RULE_NAMES: &[(OpKind, &str)] = &[
    (OpKind::Setup, "setup"),
    (OpKind::MoveEntered, "move_entered"),
    (OpKind::MoveExecuted, "move_executed"),
    (OpKind::ClockSet, "clock_set"),
    (OpKind::ClockStop, "clock_stop"),
    (OpKind::ClockStart, "clock_start"),
    (OpKind::ParameterChange, "parameter_change"),
    (OpKind::Restart, "restart"),
    (OpKind::PositionSetup, "position_setup"),
    (OpKind::EngineQuery, "engine_query"),
    (OpKind::DrawOffer, "draw_offer"),
    (OpKind::DrawAccept, "draw_accept"),
    (OpKind::DrawDecline, "draw_decline"),
    (OpKind::Resign, "resign"),
    (OpKind::HardwareChange, "hardware_change"),
    (OpKind::ConsultationStart, "consultation_start"),
    (OpKind::ConsultationEnd, "consultation_end"),
    (OpKind::Approval, "approval"),
    (OpKind::PowerFailure, "power_failure"),
    (OpKind::PowerRestored, "power_restored"),
    (OpKind::Handover, "handover"),
    (OpKind::OperatorChange, "operator_change"),
    (OpKind::ErrorReport, "error_report"),
    (OpKind::Adjudication, "adjudication"),
    (OpKind::GameEnd, "game_end"),
];
