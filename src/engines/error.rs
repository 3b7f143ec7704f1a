//! Why a real engine could not be driven, a recording made, or an active
//! similarity run read or run: each with the command, file or value that
//! went wrong.

use std::time::Duration;

/// Why an engine could not be started or stopped answering.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("empty engine command")]
    EmptyCommand,
    #[error("cannot start engine {cmd:?}: {source}")]
    Start { cmd: String, source: std::io::Error },
    #[error("no stdin")]
    NoStdin,
    #[error("no stdout")]
    NoStdout,
    #[error("engine {cmd:?} stopped reading: {source}")]
    StoppedReading { cmd: String, source: std::io::Error },
    /// No line starting with `prefix` within `timeout`: the engine was
    /// stopped.
    #[error("engine {cmd:?} did not answer `{prefix}` within {timeout:?}; it was stopped")]
    Timeout {
        cmd: String,
        prefix: String,
        timeout: Duration,
    },
    /// Its output closed while arbiter waited for `prefix`; `status` says
    /// how it ended (`exit status 3`, `killed by signal 11`).
    #[error("engine {cmd:?} ended while arbiter waited for `{prefix}`: {status}")]
    Exited {
        cmd: String,
        status: String,
        prefix: String,
    },
    /// It wrote a line longer than `kib` KiB: it was stopped.
    #[error("engine {cmd:?} wrote a line longer than {kib} KiB; it was stopped")]
    LineTooLong { cmd: String, kib: usize },
    /// It wrote more than `mib` MiB while arbiter waited for `prefix`.
    #[error(
        "engine {cmd:?} wrote more than {mib} MiB while arbiter waited for `{prefix}`; it was stopped"
    )]
    Flood {
        cmd: String,
        prefix: String,
        mib: usize,
    },
}

/// Why a recording could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The game to replay starts from a FEN that is no FEN.
    #[error(transparent)]
    Fen(#[from] shakmaty::fen::ParseFenError),
    /// The game to replay starts from a position that is not legal.
    #[error(transparent)]
    Position(Box<shakmaty::PositionError<shakmaty::Chess>>),
    /// A move of the game to replay is not UCI.
    #[error(transparent)]
    ReplayUci(#[from] shakmaty::uci::ParseUciMoveError),
    /// A move of the game to replay is not legal where it is played.
    #[error("{mv}: {source}")]
    ReplayIllegal {
        mv: String,
        source: shakmaty::uci::IllegalUciMoveError,
    },
    #[error("to play a game, give --opponent CMD (or --pgn to replay one)")]
    NoOpponent,
    /// An engine's move (or the opening's) that is not UCI.
    #[error("move {mv:?}: {source}")]
    Uci {
        mv: String,
        source: shakmaty::uci::ParseUciMoveError,
    },
    /// An engine's move (or the opening's) that is not legal.
    #[error("engine move {mv:?} is illegal: {source}")]
    Illegal {
        mv: String,
        source: shakmaty::uci::IllegalUciMoveError,
    },
}

/// Why the active similarity test could not read its suite, its answers
/// or its reference, or could not run. Paths are as shown.
#[derive(Debug, thiserror::Error)]
pub enum SimilarityError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not UTF-8 text")]
    NotUtf8 { path: String },
    /// Line `line` of the suite has fewer than the four fields of a
    /// position.
    #[error(
        "{path}:{line}: expected an EPD position (placement, side, castling, en passant), found {found:?}"
    )]
    EpdShape {
        path: String,
        line: usize,
        found: String,
    },
    #[error("{path}:{line}: not a legal chess position: {position:?}")]
    EpdIllegal {
        path: String,
        line: usize,
        position: String,
    },
    #[error("{path}: no positions")]
    NoPositions { path: String },
    /// Line `line` of `answers.jsonl` is not an answer.
    #[error("{path}:{line}: {source}")]
    Answer {
        path: String,
        line: usize,
        source: serde_json::Error,
    },
    #[error("a worker still holds the answers")]
    WorkerHolds,
    #[error("a worker panicked")]
    WorkerPanicked,
    /// The reference folder has no `similarity.json` (`path`).
    #[error("{path}: {source} (a reference is the output folder of arbiter similarity)")]
    NoReference {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not JSON: {source}")]
    NotJson {
        path: String,
        source: serde_json::Error,
    },
    #[error("{path}: expected the field {field:?} of an active run of arbiter similarity")]
    MissingField { path: String, field: String },
    #[error("{path}: names no engines")]
    NoEngines { path: String },
    #[error("{path}: no answers of {engine}")]
    NoAnswers { path: String, engine: String },
    /// The reference `folder` answered the suite of SHA-256 `reference`, not
    /// `suite`.
    #[error(
        "the reference {folder} answered another position suite (sha256 {reference}), not this one ({suite})"
    )]
    OtherSuite {
        folder: String,
        reference: String,
        suite: String,
    },
    #[error(
        "the reference {folder} searched at {reference:?}, not {limit:?}: scores and moves depend on the limit"
    )]
    OtherLimit {
        folder: String,
        reference: String,
        limit: String,
    },
    /// The answers of a reference folder are not those its report was
    /// made from.
    #[error(
        "{path}: sha256 {found}, not the {said} its similarity.json was made from: the reference's answers were changed"
    )]
    ReferenceChanged {
        path: String,
        found: String,
        said: String,
    },
    /// An output folder's answers with no `provenance.json` beside them.
    #[error(
        "{path}: no provenance.json beside it says which suite, limit and engines its answers come from; use another --out, or delete the answers to start again"
    )]
    Unproven { path: String },
    /// An output folder's answers were made from `what`, not from what
    /// this run asks.
    #[error(
        "{path}: its answers were made from {what}; use another --out, or delete the answers to start again"
    )]
    OtherInputs { path: String, what: String },
    #[error("the engine name {name:?} is also in the reference field {folder}: rename it")]
    SameName { name: String, folder: String },
}
