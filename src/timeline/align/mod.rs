//! Aligning engine logs with the game: each engine's searches, option
//! settings, starts and exits become timeline events placed at the ply they
//! concern (from the `position … moves …` the engine was given), and every
//! place where the log and the record disagree becomes a finding:
//!
//! * `engine-log-syntax`: a line that could not be read;
//! * `engine-log-other-game`: the engine was never given this game's position;
//! * `engine-position-differs`: a position sent to the engine differs from
//!   the record (a move entered wrongly);
//! * `bestmove-differs`: the engine's `bestmove` is not the move on the board;
//! * `engine-log-gap`: moves of the engine's side with no search in the log;
//! * `engine-time-backwards`: timestamps going backwards.

use crate::base::span::Span;
use crate::base::value::Value;
use crate::findings::codes;
use crate::findings::{Evidence, Finding};
use crate::ingest::logs::LoadedEngineLog;
use crate::ingest::pgn::PgnGame;
use crate::replay::Replay;

mod engine;
mod events;
mod kinds;

pub use kinds::{ENG_KINDS, EngEvent, EngKind};

use engine::Engine;
use events::engine_events;

/// The game as the engine logs are aligned with it.
struct Record<'a> {
    game: &'a PgnGame,
    replay: &'a Replay,
    /// The game's moves in UCI.
    moves: Vec<compact_str::CompactString>,
    /// Its `FEN` tag, trimmed.
    start_fen: Option<String>,
    /// The ply of its first move.
    first: u32,
}

/// The game's moves in UCI (each inline: no allocation per move).
fn game_moves(replay: &Replay) -> Vec<compact_str::CompactString> {
    replay.plies.iter().map(|p| p.uci_text()).collect()
}

/// Align every engine of every log with the game.
pub fn align(
    game: &PgnGame,
    replay: &Replay,
    logs: &[&LoadedEngineLog],
) -> (Vec<EngEvent>, Vec<Finding>) {
    let mut events = Vec::new();
    let mut findings = Vec::new();
    // the game's moves, and only for a game with a log to align
    let moves = if logs.is_empty() {
        Vec::new()
    } else {
        game_moves(replay)
    };
    let record = Record {
        game,
        replay,
        moves,
        start_fen: game.tag("FEN").map(|f| f.trim().to_string()),
        first: replay.first_ply,
    };
    for l in logs {
        log_findings(l, &mut findings);
        for activity in &l.log.engines {
            let engine = Engine::read(&record, l, activity);
            if engine.belongs(&record, &mut findings) {
                engine_events(&engine, &record, &mut events, &mut findings);
            }
        }
    }
    (merge_streams(events), findings)
}

/// Evidence at `span` of log `l`.
fn evidence(
    l: &LoadedEngineLog,
    span: Span,
    ply: Option<u32>,
    at: Option<String>,
    note: &str,
) -> Evidence {
    Evidence {
        path: l.path.clone(),
        span: Some(span),
        ply,
        timestamp: at,
        note: note.to_string(),
    }
}

/// The findings of log `l` as a whole: its unreadable lines
/// (`engine-log-syntax`) and its timestamps going backwards.
fn log_findings(l: &LoadedEngineLog, findings: &mut Vec<Finding>) {
    let ev = |span, ply, at, note: &str| evidence(l, span, ply, at, note);
    for e in &l.log.errors {
        findings.push(
            Finding::of(
                &codes::ENGINE_LOG_SYNTAX,
                "Unreadable engine-log line",
                e.message.clone(),
            )
            .with_evidence(ev(e.span, None, None, "this line was not read")),
        );
    }
    // timestamps going backwards, per engine
    for b in &l.log.backwards {
        findings.push(
            Finding::of(
                &codes::ENGINE_TIME_BACKWARDS,
                "Engine-log timestamps go backwards",
                format!(
                    "line {} is {} ms earlier than the line before it",
                    b.span.line, b.earlier_ms
                ),
            )
            .with_evidence(ev(b.span, None, None, "the earlier timestamp")),
        );
    }
}

/// Several engines (or logs) each gave their events in their own order; the
/// timeline wants one order. Each engine's order is kept; between engines
/// the event placed earlier in the game (then earlier in time) goes first.
fn merge_streams(events: Vec<EngEvent>) -> Vec<EngEvent> {
    let mut streams: Vec<std::collections::VecDeque<EngEvent>> = Vec::new();
    let mut keys: Vec<(String, Value)> = Vec::new();
    for e in events {
        let key = (
            e.source.clone(),
            e.fields.get("engine").cloned().unwrap_or(Value::None),
        );
        match keys.iter().position(|k| *k == key) {
            Some(i) => streams[i].push_back(e),
            None => {
                keys.push(key);
                streams.push(std::collections::VecDeque::from([e]));
            }
        }
    }
    let mut out = Vec::new();
    loop {
        let next = streams
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.front().map(|e| (e.placed, e.time, i)))
            .min();
        let Some((_, _, i)) = next else { break };
        out.extend(streams[i].pop_front());
    }
    out
}
