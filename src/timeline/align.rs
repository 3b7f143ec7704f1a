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

use std::collections::BTreeMap;

use shakmaty::Color;

use crate::base::span::Span;
use crate::base::value::{Type, Value};
use crate::findings::{Evidence, Finding, Severity};
use crate::ingest::engine::{Activity, EngineActivity, Search};
use crate::ingest::logs::LoadedEngineLog;
use crate::ingest::operator::FieldDoc;
use crate::ingest::pgn::PgnGame;
use crate::replay::Replay;

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
}

fn score_pawns(cp: Option<i64>, mate: Option<i64>) -> Value {
    match (cp, mate) {
        (_, Some(m)) => Value::Num(if m < 0 { -1000.0 } else { 1000.0 }),
        (Some(c), None) => Value::Num(c as f64 / 100.0),
        _ => Value::None,
    }
}

fn num(v: Option<i64>) -> Value {
    v.map_or(Value::None, |x| Value::Num(x as f64))
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
    let start_fen = game.tag("FEN").map(|f| f.trim().to_string());
    let first = replay.first_ply;
    for l in logs {
        let ev = |span: Span, ply: Option<u32>, at: Option<String>, note: &str| Evidence {
            path: l.path.clone(),
            span: Some(span),
            ply,
            timestamp: at,
            note: note.to_string(),
        };
        for e in &l.log.errors {
            findings.push(
                Finding::builtin(
                    "engine-log-syntax",
                    Severity::Error,
                    "Unreadable engine-log line",
                    e.message.clone(),
                )
                .with_evidence(ev(e.span, None, None, "this line was not read")),
            );
        }
        // timestamps going backwards, per engine
        for b in &l.log.backwards {
            findings.push(
                Finding::builtin(
                    "engine-time-backwards",
                    Severity::Warning,
                    "Engine-log timestamps go backwards",
                    format!(
                        "line {} is {} ms earlier than the line before it",
                        b.span.line, b.earlier_ms
                    ),
                )
                .with_evidence(ev(b.span, None, None, "the earlier timestamp")),
            );
        }
        for EngineActivity {
            name: engine,
            activities: acts,
        } in &l.log.engines
        {
            let shown = if engine.is_empty() {
                l.log
                    .meta
                    .get("engine")
                    .cloned()
                    .unwrap_or_else(|| "the engine".into())
            } else {
                engine.clone()
            };
            // Which side it played: the side to move in its own searches.
            let searches: Vec<&Search> = acts
                .iter()
                .filter_map(|a| match a {
                    Activity::Search(s) if !s.go.ponder => Some(s.as_ref()),
                    _ => None,
                })
                .collect();
            let mut white = 0;
            let mut black = 0;
            for s in &searches {
                let base = if s.fen.is_some() {
                    first.saturating_sub(1) as usize
                } else {
                    0
                };
                if (base + s.moves.len()) % 2 == 0 {
                    white += 1
                } else {
                    black += 1
                }
            }
            let side = match l.log.meta.get("side").map(|s| s.to_ascii_lowercase()) {
                Some(s) if s == "white" => Color::White,
                Some(s) if s == "black" => Color::Black,
                _ if white + black > 0 => {
                    if white >= black {
                        Color::White
                    } else {
                        Color::Black
                    }
                }
                _ => {
                    let name = engine.split('(').next().unwrap_or("").to_lowercase();
                    let b = game.tag("Black").unwrap_or("").to_lowercase();
                    if !name.is_empty() && b.starts_with(&name) {
                        Color::Black
                    } else {
                        Color::White
                    }
                }
            };
            let side_s = Value::Str(
                if side == Color::White {
                    "white"
                } else {
                    "black"
                }
                .into(),
            );
            // Does the log belong to this game? Every position it was given
            // must be a prefix of the game (same start).
            let mut matched = 0;
            let mut other_game: Option<&Search> = None;
            let mut differs: Option<(&Search, usize)> = None;
            for s in &searches {
                let same_start = s.fen.as_deref().map(|f| f.trim().to_string()) == start_fen
                    || (s.fen.is_none() && start_fen.is_none());
                if !same_start {
                    other_game.get_or_insert(s);
                    continue;
                }
                match s
                    .moves
                    .iter()
                    .zip(&moves)
                    .position(|(a, b)| !a.eq_ignore_ascii_case(b))
                {
                    Some(i) if differs.is_none() => differs = Some((s, i)),
                    Some(_) => {}
                    None if s.moves.len() <= moves.len()
                        && (!s.moves.is_empty() || searches.len() == 1) =>
                    {
                        matched += 1
                    }
                    None => {}
                }
            }
            if matched == 0 && (other_game.is_some() || differs.is_some()) {
                let s = other_game.or(differs.map(|d| d.0)).expect("one of them");
                findings.push(
                    Finding::builtin(
                        "engine-log-other-game",
                        Severity::Error,
                        "Engine log belongs to another game",
                        format!(
                            "{shown} in {} was never given a position of this game (its first search was from {} with moves {})",
                            l.path,
                            s.fen.as_deref().unwrap_or("the standard start"),
                            if s.moves.is_empty() { "none".into() } else { s.moves.iter().take(6).cloned().collect::<Vec<_>>().join(" ") }
                        ),
                    )
                    .with_evidence(ev(s.started.span, None, Some(s.started.at.clone()), "the first search")),
                );
                continue;
            }
            if let Some((s, i)) = differs {
                let ply = first + i as u32;
                findings.push(
                    Finding::builtin(
                        "engine-position-differs",
                        Severity::Error,
                        "The engine was given a move the record does not have",
                        format!(
                            "at ply {ply} the engine was told {} but the record has {}",
                            s.moves[i],
                            moves.get(i).map_or("no move", |m| m.as_str())
                        ),
                    )
                    .with_evidence(ev(
                        s.started.span,
                        Some(ply),
                        Some(s.started.at.clone()),
                        "the search given that position",
                    )),
                );
            }
            // Events.
            let mut produced = false;
            let mut restarted = false;
            let mut searched_plies: Vec<u32> = Vec::new();
            for a in acts {
                let mut f: BTreeMap<&'static str, Value> = BTreeMap::new();
                f.insert("side", side_s.clone());
                f.insert("engine", Value::Str(shown.as_str().into()));
                let (kind, placed, stamp) = match a {
                    Activity::Search(s) => {
                        let base = if s.fen.is_some() {
                            first.saturating_sub(1)
                        } else {
                            0
                        };
                        let for_ply = base + s.moves.len() as u32 + 1;
                        f.insert("for_ply", Value::Num(f64::from(for_ply)));
                        let board = moves.get(for_ply.saturating_sub(first) as usize);
                        f.insert(
                            "board_move",
                            board.map_or(Value::None, |m| Value::Str(m.as_str().into())),
                        );
                        if let Some((mv, ponder, answered)) = &s.bestmove {
                            f.insert("bestmove", Value::Str(mv.as_str().into()));
                            f.insert(
                                "ponder",
                                ponder
                                    .as_ref()
                                    .map_or(Value::None, |p| Value::Str(p.as_str().into())),
                            );
                            let own_move = (for_ply % 2 == 1) == (side == Color::White);
                            let ok = board.is_some_and(|b| b.eq_ignore_ascii_case(mv));
                            f.insert(
                                "matches_board",
                                if board.is_some() {
                                    Value::Bool(ok)
                                } else {
                                    Value::None
                                },
                            );
                            f.insert(
                                "elapsed",
                                Value::Num((answered.time - s.started.time) as f64),
                            );
                            let fits = legal_in(replay, s, mv);
                            if !fits {
                                findings.push(
                                    Finding::builtin(
                                        "engine-log-inconsistent",
                                        Severity::Warning,
                                        "A bestmove does not fit the position the engine was given",
                                        format!(
                                            "{shown} answered bestmove {mv}, which is not a legal move in the position it was given for ply {for_ply}: lines of the log are missing or out of order"
                                        ),
                                    )
                                    .with_evidence(ev(answered.span, Some(for_ply), Some(answered.at.clone()), "the bestmove line"))
                                    .with_evidence(ev(s.started.span, Some(for_ply), Some(s.started.at.clone()), "the search it answers")),
                                );
                            } else if (!s.go.ponder || s.ponderhit) && own_move {
                                // a search for the engine's own move (not an
                                // analysis of the opponent's)
                                produced = true;
                                if board.is_some() && !ok {
                                    findings.push(
                                        Finding::builtin(
                                            "bestmove-differs",
                                            Severity::Warning,
                                            "The engine's move is not the move on the board",
                                            format!(
                                                "{shown} answered bestmove {mv} for ply {for_ply}, but the record has {}",
                                                board.map_or("", |m| m.as_str())
                                            ),
                                        )
                                        .with_evidence(ev(answered.span, Some(for_ply), Some(answered.at.clone()), "the bestmove line")),
                                    );
                                }
                            }
                        }
                        if !s.go.ponder || s.ponderhit {
                            searched_plies.push(for_ply);
                            let answered_later = searches.iter().any(|o| {
                                o.bestmove.is_some()
                                    && o.moves.len() == s.moves.len()
                                    && o.fen == s.fen
                                    && o.started.time >= s.started.time
                            });
                            if s.bestmove.is_none() && board.is_some() && !answered_later {
                                findings.push(
                                    Finding::builtin(
                                        "engine-log-unanswered",
                                        Severity::Warning,
                                        "A search with no bestmove in the log",
                                        format!(
                                            "{shown} was asked to search for ply {for_ply} but the log has no bestmove for it (a line lost, or the engine stopped answering)"
                                        ),
                                    )
                                    .with_evidence(ev(s.started.span, Some(for_ply), Some(s.started.at.clone()), "the search")),
                                );
                            }
                        }
                        let same_start = s.fen.as_deref().map(|f| f.trim().to_string())
                            == start_fen
                            || (s.fen.is_none() && start_fen.is_none());
                        let prefix = s.moves.len() <= moves.len()
                            && s.moves
                                .iter()
                                .zip(&moves)
                                .all(|(a, b)| a.eq_ignore_ascii_case(b));
                        f.insert("position_matches", Value::Bool(same_start && prefix));
                        f.insert("pondering", Value::Bool(s.go.ponder));
                        f.insert("ponderhit", Value::Bool(s.ponderhit));
                        let fin = s.last_scored();
                        f.insert("depth", num(s.infos.depth));
                        f.insert("seldepth", num(s.infos.seldepth));
                        f.insert(
                            "score",
                            score_pawns(fin.and_then(|i| i.cp), fin.and_then(|i| i.mate)),
                        );
                        f.insert("mate", num(fin.and_then(|i| i.mate)));
                        f.insert(
                            "bound",
                            fin.and_then(|i| i.bound.clone())
                                .map_or(Value::None, |s| Value::Str(s.into())),
                        );
                        f.insert("nodes", num(s.infos.nodes));
                        f.insert("nps", num(s.infos.nps));
                        f.insert("info_time", num(s.infos.time));
                        f.insert("iterations", Value::Num(s.infos.iterations as f64));
                        f.insert(
                            "scored_iterations",
                            Value::Num(s.infos.scored_iterations as f64),
                        );
                        f.insert("depths_complete", Value::Bool(s.infos.depths_complete()));
                        f.insert("go_wtime", num(s.go.wtime));
                        f.insert("go_btime", num(s.go.btime));
                        f.insert("go_winc", num(s.go.winc));
                        f.insert("go_binc", num(s.go.binc));
                        f.insert("movestogo", num(s.go.movestogo));
                        f.insert("movetime", num(s.go.movetime));
                        f.insert(
                            "engine_clock",
                            num(if side == Color::White {
                                s.go.wtime
                            } else {
                                s.go.btime
                            }),
                        );
                        (EngKind::Search, for_ply - 1, &s.started)
                    }
                    Activity::SetOption {
                        name,
                        value,
                        stamp,
                        plies,
                    } => {
                        f.insert("name", Value::Str(name.as_str().into()));
                        f.insert("raw", Value::Str(value.as_str().into()));
                        f.insert("value", typed(value));
                        f.insert("machine_moved", Value::Bool(produced));
                        f.insert("after_restart", Value::Bool(restarted));
                        (EngKind::EngineOption, first - 1 + *plies as u32, stamp)
                    }
                    Activity::Start {
                        command,
                        stamp,
                        plies,
                    } => {
                        f.insert(
                            "command",
                            if command.is_empty() {
                                Value::None
                            } else {
                                Value::Str(command.as_str().into())
                            },
                        );
                        if produced {
                            restarted = true;
                        }
                        (EngKind::EngineStart, first - 1 + *plies as u32, stamp)
                    }
                    Activity::Exit { code, stamp, plies } => {
                        f.insert(
                            "code",
                            code.map_or(Value::None, |c| Value::Num(f64::from(c))),
                        );
                        let done =
                            first - 1 + *plies as u32 >= replay.plies.last().map_or(0, |p| p.ply);
                        f.insert("crash", Value::Bool(code != &Some(0) && !done));
                        restarted = true;
                        (EngKind::EngineExit, first - 1 + *plies as u32, stamp)
                    }
                    Activity::NewGame { .. } => continue,
                };
                f.insert("ply", Value::Num(f64::from(placed)));
                f.insert("time", Value::Num(stamp.time as f64));
                f.insert("at", Value::Str(stamp.at.as_str().into()));
                events.push(EngEvent {
                    kind,
                    placed,
                    time: stamp.time,
                    absolute: stamp.absolute,
                    span: stamp.span,
                    source: l.path.clone(),
                    fields: f,
                });
            }
            // Missing stretches: plies of this side, between the first and
            // last searched, with no search.
            if let (Some(&lo), Some(&hi)) =
                (searched_plies.iter().min(), searched_plies.iter().max())
            {
                let parity = lo % 2;
                let missing: Vec<u32> = (lo..=hi)
                    .filter(|p| p % 2 == parity && !searched_plies.contains(p))
                    .collect();
                if !missing.is_empty() {
                    let show: Vec<String> =
                        missing.iter().take(12).map(|p| p.to_string()).collect();
                    findings.push(
                        Finding::builtin(
                            "engine-log-gap",
                            Severity::Warning,
                            "The engine log has no search for some of the engine's moves",
                            format!(
                                "{shown}: no search for {} of its plies between {lo} and {hi}: {}{}",
                                missing.len(),
                                show.join(", "),
                                if missing.len() > 12 { ", …" } else { "" }
                            ),
                        )
                        .with_evidence(Evidence {
                            path: l.path.clone(),
                            span: None,
                            ply: Some(missing[0]),
                            timestamp: None,
                            note: "the first ply without a search".into(),
                        }),
                    );
                }
            }
        }
    }
    (merge_streams(events), findings)
}

fn typed(s: &str) -> Value {
    match crate::ingest::comments::OptionValue::parse(s) {
        crate::ingest::comments::OptionValue::Int(i) => Value::Num(i as f64),
        crate::ingest::comments::OptionValue::Bool(b) => Value::Bool(b),
        crate::ingest::comments::OptionValue::Text(t) => Value::Str(t.as_str().into()),
    }
}

/// Whether `mv` is legal in the position the search was given.
fn legal_in(replay: &Replay, s: &Search, mv: &str) -> bool {
    use shakmaty::Position;
    let mode = replay.castling_mode;
    let mut pos: shakmaty::Chess = match &s.fen {
        Some(f) => match shakmaty::fen::Fen::from_ascii(f.as_bytes())
            .ok()
            .and_then(|f| f.into_position(mode).ok())
        {
            Some(p) => p,
            None => return true, // cannot tell
        },
        None => shakmaty::Chess::default(),
    };
    for m in &s.moves {
        match shakmaty::uci::UciMove::from_ascii(m.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
        {
            Some(mm) => pos.play_unchecked(mm),
            None => return true, // the position itself is broken; reported elsewhere
        }
    }
    if matches!(mv, "(none)" | "0000") {
        return pos.legal_moves().is_empty();
    }
    shakmaty::uci::UciMove::from_ascii(mv.as_bytes())
        .ok()
        .and_then(|u| u.to_move(&pos).ok())
        .is_some()
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
