//! `arbiter record`: drive a real UCI engine through a game and write the
//! engine log with real timestamps (the transcript form of
//! `docs/engine-log.md`).
//!
//! Two ways: replay a recorded game, asking the engine at every move of its
//! side (the board keeps the recorded moves); or play a game between the
//! engine and an opponent engine, writing the game record too. A hanging
//! engine is killed after a timeout and the log says so; nothing waits
//! forever. The logs are written as they are made, so a recording that
//! fails leaves them up to the failure, with a last line saying what
//! failed.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use super::engine::{Engine, Limit, now_ms};
use super::error::RecordError;
use super::transcript::Transcript;
use crate::base::time::format_timestamp;

/// What to record.
#[derive(Debug, Clone)]
pub struct RecordConfig {
    pub engine: String,
    pub opponent: Option<String>,
    /// Replay this game's moves (UCI), from this FEN.
    pub replay: Option<(Option<String>, Vec<String>)>,
    pub side: Color,
    pub limit: Limit,
    pub options: Vec<(String, String)>,
    pub max_plies: usize,
    pub round: String,
    pub event: String,
    /// The official opening: moves (UCI) played first, not searched.
    pub opening: Vec<String>,
}

/// Where a recording writes its transcripts, as they are made: the
/// engine's, and the opponent's when a game is played.
#[derive(Debug, Clone)]
pub struct Logs {
    pub engine: Transcript,
    pub opponent: Option<Transcript>,
}

/// The header of a transcript: who recorded it, the side and the round
/// (the engine's name follows once it has said it, `# engine: NAME`).
fn header(log: &Transcript, side: Color, round: &str) {
    log.line(&format!("# recorded-by: arbiter record {}", crate::VERSION));
    log.line(&format!(
        "# side: {}",
        if side == Color::White {
            "white"
        } else {
            "black"
        }
    ));
    log.line(&format!("# round: {round}"));
}

/// Start the engine `cmd` writing to `log`, and say `uci`; its name goes
/// into the log's header.
fn started(
    cmd: &str,
    log: &Transcript,
    options: &[(String, String)],
) -> Result<Engine, RecordError> {
    let mut e = Engine::start(cmd, log.clone())?;
    e.init(options)?;
    log.line(&format!("# engine: {}", e.name));
    Ok(e)
}

fn fmt_clock(ms: u64) -> String {
    let s = ms / 1000;
    format!(
        "{}:{:02}:{:02}.{}",
        s / 3600,
        (s / 60) % 60,
        s % 60,
        (ms % 1000) / 100
    )
}

/// Record as `cfg` asks, writing the transcripts to `logs` as they are
/// made; the game record (PGN) of a played game. When the recording
/// fails, each log ends with what was written up to the failure and a
/// last line saying what failed (`# failed: …`).
pub fn record(cfg: &RecordConfig, logs: &Logs) -> Result<Recorded, RecordError> {
    header(&logs.engine, cfg.side, &cfg.round);
    let r = match &cfg.replay {
        Some((fen, moves)) => replay(cfg, fen.as_deref(), moves, &logs.engine),
        None => match (&cfg.opponent, &logs.opponent) {
            (Some(opp), Some(olog)) => {
                header(olog, !cfg.side, &cfg.round);
                play(cfg, opp, &logs.engine, olog).map(Recorded::Played)
            }
            _ => Err(RecordError::NoOpponent),
        },
    };
    if let Err(e) = &r {
        let line = format!("# failed: {e}");
        for log in std::iter::once(&logs.engine).chain(&logs.opponent) {
            log.line(&line);
        }
    }
    r
}

/// What a recording made.
#[derive(Debug)]
pub enum Recorded {
    /// A played game: its record (PGN).
    Played(String),
    /// A replayed game: how many searches the engine made, and the first
    /// of its answers that were not legal in their position (the ply and
    /// the move) with their count. The log keeps every answer.
    Replayed {
        searches: usize,
        illegal: Option<(usize, String)>,
        illegal_count: usize,
    },
}

/// Replay `moves` from `fen`, asking the engine at every move of its side.
fn replay(
    cfg: &RecordConfig,
    fen: Option<&str>,
    moves: &[String],
    log: &Transcript,
) -> Result<Recorded, RecordError> {
    let mut engine = started(&cfg.engine, log, &cfg.options)?;
    let mut pos: Chess = match fen {
        Some(f) => Fen::from_ascii(f.as_bytes())?
            .into_position(CastlingMode::Standard)
            .map_err(|e| RecordError::Position(Box::new(e)))?,
        None => Chess::default(),
    };
    let mut played: Vec<String> = Vec::new();
    let (mut searches, mut illegal, mut illegal_count) = (0, None, 0);
    for mv in moves {
        if pos.turn() == cfg.side {
            let (answer, _) = engine.search(fen, &played, cfg.limit, (60_000, 60_000))?;
            searches += 1;
            let legal = UciMove::from_ascii(answer.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .is_some();
            if !legal {
                illegal_count += 1;
                illegal.get_or_insert((played.len() + 1, answer));
            }
        }
        let m = UciMove::from_ascii(mv.as_bytes())?
            .to_move(&pos)
            .map_err(|source| RecordError::ReplayIllegal {
                mv: mv.clone(),
                source,
            })?;
        pos.play_unchecked(m);
        played.push(mv.clone());
    }
    engine.quit();
    Ok(Recorded::Replayed {
        searches,
        illegal,
        illegal_count,
    })
}

/// Play a game between the engine and `opp_cmd`; its PGN.
fn play(
    cfg: &RecordConfig,
    opp_cmd: &str,
    elog: &Transcript,
    olog: &Transcript,
) -> Result<String, RecordError> {
    let mut engine = started(&cfg.engine, elog, &cfg.options)?;
    let mut opponent = started(opp_cmd, olog, &[])?;
    let (base, inc) = match cfg.limit {
        Limit::Clock(b, i) => (b, i),
        _ => (0, 0),
    };
    let mut clocks = [base, base]; // white, black
    let mut pos = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    let mut movetext = String::new();
    let mut seen: Vec<u64> = vec![hash(&pos)];
    let mut result = "*";
    let mut termination = String::new();
    for ply in 0..cfg.max_plies {
        let turn = pos.turn();
        let who = if turn == cfg.side {
            &mut engine
        } else {
            &mut opponent
        };
        let book = ply < cfg.opening.len();
        let (mv, took) = if book {
            (cfg.opening[ply].clone(), 0)
        } else {
            who.search(None, &moves, cfg.limit, (clocks[0], clocks[1]))?
        };
        let m = UciMove::from_ascii(mv.as_bytes())
            .map_err(|source| RecordError::Uci {
                mv: mv.clone(),
                source,
            })?
            .to_move(&pos)
            .map_err(|source| RecordError::Illegal {
                mv: mv.clone(),
                source,
            })?;
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        moves.push(mv);
        let idx = usize::from(turn == Color::Black);
        if base > 0 && !book {
            clocks[idx] = clocks[idx].saturating_sub(took) + inc;
        }
        if ply % 2 == 0 {
            movetext.push_str(&format!("{}. ", ply / 2 + 1));
        }
        movetext.push_str(&san.to_string());
        if book {
            movetext.push_str(" {book}");
        } else if base > 0 {
            movetext.push_str(&format!(
                " {{[%clk {}] [%emt {}]}}",
                fmt_clock(clocks[idx]),
                fmt_clock(took)
            ));
        }
        movetext.push(' ');
        let h = hash(&pos);
        if pos.halfmoves() == 0 {
            seen.clear();
        }
        seen.push(h);
        if pos.is_checkmate() {
            result = if turn == Color::White { "1-0" } else { "0-1" };
            termination = format!(
                "{} mates",
                if turn == Color::White {
                    "White"
                } else {
                    "Black"
                }
            );
            break;
        }
        if pos.is_stalemate() {
            (result, termination) = ("1/2-1/2", "Stalemate".into());
            break;
        }
        if pos.is_insufficient_material() {
            (result, termination) = ("1/2-1/2", "Insufficient material".into());
            break;
        }
        if seen.iter().filter(|&&x| x == h).count() >= 3 {
            (result, termination) = ("1/2-1/2", "3-Fold repetition".into());
            break;
        }
        if pos.halfmoves() >= 100 {
            (result, termination) = ("1/2-1/2", "Fifty moves rule".into());
            break;
        }
    }
    let (ename, oname) = (engine.name.clone(), opponent.name.clone());
    engine.quit();
    opponent.quit();
    let (white, black) = if cfg.side == Color::White {
        (&ename, &oname)
    } else {
        (&oname, &ename)
    };
    let mut pgn = format!(
        "[Event \"{}\"]\n[Site \"arbiter record\"]\n[Date \"{}\"]\n[Round \"{}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n",
        cfg.event,
        &format_timestamp(now_ms())[..10].replace('-', "."),
        cfg.round
    );
    if base > 0 {
        let secs = |ms: u64| crate::base::value::fmt_num(ms as f64 / 1000.0);
        pgn.push_str(&format!("[TimeControl \"{}+{}\"]\n", secs(base), secs(inc)));
    }
    if !termination.is_empty() {
        pgn.push_str(&format!("[TerminationDetails \"{termination}\"]\n"));
    }
    pgn.push_str(&format!("\n{}{result}\n", wrap(&movetext)));
    Ok(pgn)
}

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<shakmaty::zobrist::Zobrist64>(EnPassantMode::Legal)
        .0
}

/// Wrap movetext at 79 columns, never inside a comment.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    let mut in_comment = false;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !in_comment && line.len() + word.len() + 1 > 79 && !line.is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(word);
        line.push(' ');
        if word.contains('{') {
            in_comment = true;
        }
        if word.contains('}') {
            in_comment = false;
        }
    }
    out.push_str(&line);
    out
}
