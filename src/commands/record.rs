//! `arbiter record`: drive a real UCI engine through a game and write its
//! log with real timestamps (and the opponent's log and the game).

use std::path::{Path, PathBuf};

use super::{CLEAN, RecordRunError};
use crate::engines::RecordError;
use crate::engines::engine::Limit;
use crate::engines::record::{Logs, RecordConfig, Recorded, record};
use crate::engines::transcript::Transcript;
use crate::pipeline::Config;
use crate::pipeline::run::nth_game;

/// The flags of `arbiter record`, as given.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub engine: String,
    pub opponent: Option<String>,
    pub pgn: Option<PathBuf>,
    pub game: usize,
    /// `white` or `black`.
    pub side: String,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    /// `BASE+INC` in seconds.
    pub tc: Option<String>,
    /// `NAME=VALUE`.
    pub options: Vec<String>,
    pub max_plies: usize,
    pub opening: Option<PathBuf>,
    pub opening_plies: Option<usize>,
    /// The round the logs name; `None`: the replayed game's, else 1.
    pub round: Option<String>,
    pub event: String,
    pub out: PathBuf,
}

/// Record as `req` asks and write engine.log (and opponent.log, game.pgn)
/// into `req.out`. The logs are written as the engines talk, so a failed
/// recording keeps them up to the failure.
pub fn run(req: Request) -> Result<i32, RecordRunError> {
    let dir = req.out.clone();
    match config(req).and_then(|cfg| write(&cfg, &dir)) {
        Ok(()) => Ok(CLEAN),
        Err(e) => {
            // an engine stopped by a signal is not a failure to report
            crate::engines::process::hold_if_stopping();
            Err(e)
        }
    }
}

/// Record `cfg` into `dir`.
fn write(cfg: &RecordConfig, dir: &Path) -> Result<(), RecordRunError> {
    if cfg.replay.is_none() && cfg.opponent.is_none() {
        return Err(RecordError::NoOpponent.into());
    }
    crate::base::cleanup::make_dir_all(dir).map_err(|source| RecordRunError::Dir {
        path: dir.display().to_string(),
        source,
    })?;
    let create = |name: &str| {
        let path = dir.join(name);
        Transcript::create(&path)
            .map(|t| (t, path.display().to_string()))
            .map_err(|source| RecordRunError::Log {
                path: path.display().to_string(),
                source,
            })
    };
    let engine = create("engine.log")?;
    let opponent = match (&cfg.replay, &cfg.opponent) {
        (None, Some(_)) => Some(create("opponent.log")?),
        _ => None,
    };
    let logs = Logs {
        engine: engine.0.clone(),
        opponent: opponent.as_ref().map(|o| o.0.clone()),
    };
    let r = record(cfg, &logs);
    for (t, path) in std::iter::once(&engine).chain(&opponent) {
        t.finish().map_err(|source| RecordRunError::Log {
            path: path.clone(),
            source,
        })?;
    }
    match r {
        Ok(Recorded::Played(pgn)) => {
            crate::report::write_in(dir, "game.pgn", &pgn)?;
            notice!(
                "arbiter record: a game played; {} in {}",
                if opponent.is_some() {
                    "engine.log, opponent.log and game.pgn"
                } else {
                    "engine.log and game.pgn"
                },
                dir.display()
            );
            Ok(())
        }
        Ok(Recorded::Replayed {
            searches,
            illegal,
            illegal_count,
        }) => {
            notice!(
                "arbiter record: {searches} search{} of the replayed game; {}",
                if searches == 1 { "" } else { "es" },
                engine.1
            );
            if let Some((ply, mv)) = illegal {
                notice!(
                    "arbiter record: warning: the engine's bestmove {mv} at ply {ply} is not legal in its position{}; the log keeps {}",
                    match illegal_count {
                        1 => String::new(),
                        n => format!(" ({n} such answers)"),
                    },
                    if illegal_count == 1 { "it" } else { "them" }
                );
            }
            Ok(())
        }
        Err(source) => Err(RecordRunError::Failed {
            source,
            logs: std::iter::once(&engine)
                .chain(&opponent)
                .map(|(_, p)| p.as_str())
                .collect::<Vec<_>>()
                .join(" and "),
        }),
    }
}

/// The recording `a` asks for, its flags checked and its games read.
fn config(a: Request) -> Result<RecordConfig, RecordRunError> {
    let side = match a.side.as_str() {
        "white" => shakmaty::Color::White,
        "black" => shakmaty::Color::Black,
        other => {
            return Err(RecordRunError::Side {
                found: other.to_string(),
            });
        }
    };
    let limit = match (a.movetime, a.depth, &a.tc) {
        (Some(ms), _, _) => Limit::MoveTime(ms),
        (_, Some(d), _) => Limit::Depth(d),
        (_, _, Some(tc)) => {
            let (b, i) = tc.split_once('+').unwrap_or((tc, "0"));
            let bad = |_| RecordRunError::TimeControl { found: tc.clone() };
            let b: f64 = b.parse().map_err(bad)?;
            let i: f64 = i.parse().map_err(bad)?;
            Limit::Clock((b * 1000.0) as u64, (i * 1000.0) as u64)
        }
        _ => Limit::MoveTime(100),
    };
    let options = a
        .options
        .iter()
        .map(|o| {
            o.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| RecordRunError::EngineOption { found: o.clone() })
        })
        .collect::<Result<Vec<_>, RecordRunError>>()?;
    // a game's FEN, moves and Round tag
    type Moves = (Option<String>, Vec<String>, Option<String>);
    let game_moves = |p: &std::path::Path, which: usize| -> Result<Moves, RecordRunError> {
        let g = nth_game(p, which, &Config::default())?;
        if let Some(stop) = &g.replay.stop {
            return Err(RecordRunError::Unreplayable {
                path: p.display().to_string(),
                game: which,
                reason: stop.message.to_string(),
            });
        }
        Ok((
            g.game.tag("FEN").map(str::to_string),
            g.replay.plies.iter().map(|p| p.uci.to_string()).collect(),
            g.game.tag("Round").map(|r| r.trim().to_string()),
        ))
    };
    let opening = match &a.opening {
        None => Vec::new(),
        Some(p) => {
            let (fen, mut moves, _) = game_moves(p, 1)?;
            if fen.is_some() {
                return Err(RecordRunError::OpeningSetUp {
                    path: p.display().to_string(),
                });
            }
            if let Some(n) = a.opening_plies {
                moves.truncate(n);
            }
            moves
        }
    };
    let replayed = a
        .pgn
        .as_deref()
        .map(|p| game_moves(p, a.game))
        .transpose()?;
    // the logs join the replayed game by its round (`# round:`)
    let round = a
        .round
        .or_else(|| replayed.as_ref().and_then(|r| r.2.clone()))
        .unwrap_or_else(|| "1".to_string());
    let replay = replayed.map(|(fen, moves, _)| (fen, moves));
    Ok(RecordConfig {
        engine: a.engine,
        opponent: a.opponent,
        replay,
        side,
        limit,
        options,
        max_plies: a.max_plies,
        round,
        event: a.event,
        opening,
    })
}
