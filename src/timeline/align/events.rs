//! An engine's activities made timeline events, placed at the ply they
//! concern, with the findings of its searches (a `bestmove` that does not
//! fit, or differs from the board, a search left unanswered) and of the
//! plies it did not search for.

use crate::findings::codes;
use std::collections::BTreeMap;

use shakmaty::Color;

use super::Record;
use super::engine::Engine;
use super::kinds::{EngEvent, EngKind};
use crate::base::value::Value;
use crate::findings::{Evidence, Finding};
use crate::ingest::engine::{Activity, Search};
use crate::replay::Replay;

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

/// The events of `engine`'s activities, each placed at its ply, and the
/// findings of its searches and of the plies it did not search for.
pub(super) fn engine_events(
    engine: &Engine,
    record: &Record,
    events: &mut Vec<EngEvent>,
    findings: &mut Vec<Finding>,
) {
    let mut making = Events {
        engine,
        record,
        produced: false,
        restarted: false,
        searched_plies: Vec::new(),
    };
    making.activities(events, findings);
    making.gap(findings);
}

/// An engine's activities being made events: the engine, the game, and
/// what carries from one activity to the next.
struct Events<'a> {
    engine: &'a Engine<'a>,
    record: &'a Record<'a>,
    /// It has produced a move of its own.
    produced: bool,
    /// It was restarted after it produced one.
    restarted: bool,
    /// The plies it searched for (its own searches and ponder hits).
    searched_plies: Vec<u32>,
}

impl Events<'_> {
    /// Each activity as an event, in the log's order.
    fn activities(&mut self, events: &mut Vec<EngEvent>, findings: &mut Vec<Finding>) {
        let (l, shown, side) = (self.engine.log, &self.engine.shown, self.engine.side);
        let (replay, first) = (self.record.replay, self.record.first);
        let side_s = Value::Str(
            if side == Color::White {
                "white"
            } else {
                "black"
            }
            .into(),
        );
        for a in self.engine.acts {
            let mut f: BTreeMap<&'static str, Value> = BTreeMap::new();
            f.insert("side", side_s.clone());
            f.insert("engine", Value::Str(shown.as_str().into()));
            let mut places = Vec::new();
            let (kind, placed, stamp) = match a {
                Activity::Search(s) => {
                    let for_ply = self.search(s, &mut f, findings);
                    if let Some((t, line)) = l.log.last_line
                        && t >= s.started.time
                    {
                        f.insert("until_end", Value::Num((t - s.started.time) as f64));
                        // the manager's result line says the game ended
                        // (cutechess's has no time: the last line's is taken)
                        let said = l.part.as_ref().and_then(|p| p.segment.result.as_ref());
                        places.push(("until_end", said.map_or(line, |r| r.2)));
                    }
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
                    f.insert("machine_moved", Value::Bool(self.produced));
                    f.insert("after_restart", Value::Bool(self.restarted));
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
                    if self.produced {
                        self.restarted = true;
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
                    self.restarted = true;
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
                places,
            });
        }
    }

    /// A search's fields, and the findings of its answer; gives the ply it
    /// searched for.
    fn search(
        &mut self,
        s: &Search,
        f: &mut BTreeMap<&'static str, Value>,
        findings: &mut Vec<Finding>,
    ) -> u32 {
        let (moves, first) = (&self.record.moves, self.record.first);
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
        self.answer(s, for_ply, board, f, findings);
        self.unanswered(s, for_ply, board, findings);
        self.search_facts(s, f);
        for_ply
    }

    /// The fields of a search's `bestmove`, and its findings: a move not
    /// legal where it was searched (`engine-log-inconsistent`), an own move
    /// not the one on the board (`bestmove-differs`).
    fn answer(
        &mut self,
        s: &Search,
        for_ply: u32,
        board: Option<&compact_str::CompactString>,
        f: &mut BTreeMap<&'static str, Value>,
        findings: &mut Vec<Finding>,
    ) {
        let (shown, side, replay) = (&self.engine.shown, self.engine.side, self.record.replay);
        let ev = |span, ply, at, note: &str| self.engine.ev(span, ply, at, note);
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
            f.insert("legal", Value::Bool(fits));
            if !fits {
                findings.push(
                    Finding::of(
                        &codes::ENGINE_LOG_INCONSISTENT,
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
                self.produced = true;
                if board.is_some() && !ok {
                    findings.push(
                        Finding::of(
                            &codes::BESTMOVE_DIFFERS,
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
    }

    /// A search for a move of the game, counted as searched, and the
    /// finding `engine-log-unanswered` when no `bestmove` answers it.
    fn unanswered(
        &mut self,
        s: &Search,
        for_ply: u32,
        board: Option<&compact_str::CompactString>,
        findings: &mut Vec<Finding>,
    ) {
        let (shown, searches) = (&self.engine.shown, &self.engine.searches);
        let ev = |span, ply, at, note: &str| self.engine.ev(span, ply, at, note);
        if !s.go.ponder || s.ponderhit {
            self.searched_plies.push(for_ply);
            let answered_later = searches.iter().any(|o| {
                o.bestmove.is_some()
                    && o.moves.len() == s.moves.len()
                    && o.fen == s.fen
                    && o.started.time >= s.started.time
            });
            if s.bestmove.is_none() && board.is_some() && !answered_later {
                findings.push(
                    Finding::of(
                        &codes::ENGINE_LOG_UNANSWERED,
                        "A search with no bestmove in the log",
                        format!(
                            "{shown} was asked to search for ply {for_ply} but the log has no bestmove for it (a line lost, or the engine stopped answering)"
                        ),
                    )
                    .with_evidence(ev(s.started.span, Some(for_ply), Some(s.started.at.clone()), "the search")),
                );
            }
        }
    }

    /// What a search found and was told: the position, the depth, the
    /// score, the clocks sent with `go`.
    fn search_facts(&self, s: &Search, f: &mut BTreeMap<&'static str, Value>) {
        let (moves, start_fen, side) =
            (&self.record.moves, &self.record.start_fen, self.engine.side);
        let same_start = s.fen.as_deref().map(|f| f.trim().to_string()) == *start_fen
            || (s.fen.is_none() && start_fen.is_none());
        let prefix = s.moves.len() <= moves.len()
            && s.moves
                .iter()
                .zip(moves)
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
        f.insert("go_wtime", num(s.go.clock[0]));
        f.insert("go_btime", num(s.go.clock[1]));
        f.insert("go_winc", num(s.go.increment[0]));
        f.insert("go_binc", num(s.go.increment[1]));
        f.insert("movestogo", num(s.go.movestogo));
        f.insert("movetime", num(s.go.movetime));
        f.insert(
            "engine_clock",
            num(s.go.clock[usize::from(side == Color::Black)]),
        );
    }

    /// Missing stretches: plies of this side, between the first and last
    /// searched, with no search (`engine-log-gap`).
    fn gap(&self, findings: &mut Vec<Finding>) {
        let (l, shown, searched_plies) =
            (self.engine.log, &self.engine.shown, &self.searched_plies);
        if let (Some(&lo), Some(&hi)) = (searched_plies.iter().min(), searched_plies.iter().max()) {
            let parity = lo % 2;
            let missing: Vec<u32> = (lo..=hi)
                .filter(|p| p % 2 == parity && !searched_plies.contains(p))
                .collect();
            if !missing.is_empty() {
                let show: Vec<String> = missing.iter().take(12).map(|p| p.to_string()).collect();
                findings.push(
                    Finding::of(
                        &codes::ENGINE_LOG_GAP,
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
