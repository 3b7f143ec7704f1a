//! `arbiter record`: drive a real UCI engine through a game and write the
//! engine log with real timestamps (the transcript form of
//! `docs/engine-log.md`).
//!
//! Two ways: replay a recorded game, asking the engine at every move of its
//! side (the board keeps the recorded moves); or play a game between the
//! engine and an opponent engine, writing the game record too. A hanging
//! engine is killed after a timeout and the log says so; nothing waits
//! forever.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use super::error::{EngineError, RecordError};
use crate::base::time::format_timestamp;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// How long an engine may think.
#[derive(Debug, Clone, Copy)]
pub enum Limit {
    MoveTime(u64),
    Depth(u32),
    /// Base and increment, ms: real clocks, sent with `go wtime … btime …`.
    Clock(u64, u64),
}

/// The engine processes this process started and has not reaped yet, so
/// that a signal can stop them all (see [`reap_on_signal`]).
type Live = Mutex<Vec<(u64, Arc<Mutex<Child>>)>>;

fn live() -> &'static Live {
    static LIVE: OnceLock<Live> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(Vec::new()))
}

/// On Ctrl-C (SIGINT), SIGTERM or SIGHUP: kill and reap every engine still
/// running, say how many, and exit with status 130. Engines that ignore
/// the terminal's SIGINT (xboard engines are told to) are stopped too.
pub fn reap_on_signal() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let _ = ctrlc::set_handler(|| {
            let n = stop_all();
            say!("arbiter: interrupted; {n} engine process(es) stopped and reaped");
            std::process::exit(130);
        });
    });
}

/// Kill and reap every live engine; how many there were.
pub fn stop_all() -> usize {
    let list: Vec<Arc<Mutex<Child>>> = match live().lock() {
        Ok(mut l) => l.drain(..).map(|(_, c)| c).collect(),
        Err(p) => p.into_inner().drain(..).map(|(_, c)| c).collect(),
    };
    for c in &list {
        let mut ch = match c.lock() {
            Ok(ch) => ch,
            Err(p) => p.into_inner(),
        };
        let _ = ch.kill();
        let _ = ch.wait();
    }
    list.len()
}

/// A running engine and its transcript.
#[derive(Debug)]
pub struct Engine {
    child: Arc<Mutex<Child>>,
    id: u64,
    stdin: ChildStdin,
    lines: Receiver<(i64, String)>,
    pub log: String,
    pub name: String,
    cmd: String,
}

impl Engine {
    pub fn start(cmd: &str) -> Result<Engine, EngineError> {
        let mut parts = cmd.split_whitespace();
        let prog = parts.next().ok_or(EngineError::EmptyCommand)?;
        let mut child = Command::new(prog)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EngineError::Start {
                cmd: cmd.to_string(),
                source,
            })?;
        let stdin = child.stdin.take().ok_or(EngineError::NoStdin)?;
        let stdout = child.stdout.take().ok_or(EngineError::NoStdout)?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((now_ms(), line)).is_err() {
                    break;
                }
            }
        });
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let child = Arc::new(Mutex::new(child));
        if let Ok(mut l) = live().lock() {
            l.push((id, child.clone()));
        }
        let mut e = Engine {
            child,
            id,
            stdin,
            lines: rx,
            log: String::new(),
            name: cmd.to_string(),
            cmd: cmd.to_string(),
        };
        e.note(&format!("start {cmd}"));
        Ok(e)
    }

    fn note(&mut self, what: &str) {
        self.log
            .push_str(&format!("{} ! {what}\n", format_timestamp(now_ms())));
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.log
            .push_str(&format!("{} > {line}\n", format_timestamp(now_ms())));
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|source| EngineError::StoppedReading {
                cmd: self.cmd.clone(),
                source,
            })
    }

    /// Read lines until one starts with `prefix`; every line is logged.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((t, line)) => {
                    self.log
                        .push_str(&format!("{} < {line}\n", format_timestamp(t)));
                    if let Some(v) = line.strip_prefix("id name ") {
                        self.name = v.trim().to_string();
                    }
                    if line.split_whitespace().next() == Some(prefix) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(EngineError::Timeout {
                        cmd: self.cmd.clone(),
                        prefix: prefix.to_string(),
                        timeout,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // its output closed: it has ended, or is about to
                    let status = self.reap(Duration::from_secs(5));
                    self.note(&format!(
                        "exit {}",
                        status.map_or("unknown".into(), |c| c.to_string())
                    ));
                    return Err(EngineError::Exited {
                        cmd: self.cmd.clone(),
                        status,
                        prefix: prefix.to_string(),
                    });
                }
            }
        }
    }

    /// Wait at most `grace` for the process to end, then kill it; reap it
    /// and take it off the live list. Its exit status, when it had one.
    fn reap(&mut self, grace: Duration) -> Option<i32> {
        let deadline = Instant::now() + grace;
        let status = loop {
            let mut ch = match self.child.lock() {
                Ok(c) => c,
                Err(p) => p.into_inner(),
            };
            match ch.try_wait() {
                Ok(Some(s)) => break s.code(),
                Ok(None) if Instant::now() < deadline => {
                    drop(ch);
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => {
                    let _ = ch.kill();
                    break ch.wait().ok().and_then(|s| s.code());
                }
            }
        };
        if let Ok(mut l) = live().lock() {
            l.retain(|(id, _)| *id != self.id);
        }
        status
    }

    fn kill(&mut self) {
        let status = self.reap(Duration::ZERO);
        self.note(&format!(
            "exit {}",
            status.map_or("killed".into(), |c| c.to_string())
        ));
    }

    pub fn init(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        self.send("uci")?;
        self.wait_for("uciok", Duration::from_secs(20))?;
        for (k, v) in options {
            self.send(&format!("setoption name {k} value {v}"))?;
        }
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(20))?;
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(20))?;
        Ok(())
    }

    /// Search a position; returns the bestmove (UCI) and the time it took.
    pub fn search(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        limit: Limit,
        clocks: (u64, u64),
    ) -> Result<(String, u64), EngineError> {
        let pos = match fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        let pos = if moves.is_empty() {
            pos
        } else {
            format!("{pos} moves {}", moves.join(" "))
        };
        self.send(&pos)?;
        let (go, timeout) = match limit {
            Limit::MoveTime(ms) => (
                format!("go movetime {ms}"),
                Duration::from_millis(ms * 5 + 10_000),
            ),
            Limit::Depth(d) => (format!("go depth {d}"), Duration::from_secs(120)),
            Limit::Clock(_, inc) => (
                format!(
                    "go wtime {} btime {} winc {inc} binc {inc}",
                    clocks.0, clocks.1
                ),
                Duration::from_millis(clocks.0.max(clocks.1) + inc + 10_000),
            ),
        };
        let started = Instant::now();
        self.send(&go)?;
        let line = self.wait_for("bestmove", timeout)?;
        let mv = line.split_whitespace().nth(1).unwrap_or("").to_string();
        Ok((mv, started.elapsed().as_millis() as u64))
    }

    pub fn quit(mut self) -> String {
        let _ = self.send("quit");
        let status = self.reap(Duration::from_secs(5));
        // drain what the engine still wrote
        while let Ok((t, line)) = self.lines.try_recv() {
            self.log
                .push_str(&format!("{} < {line}\n", format_timestamp(t)));
        }
        self.note(&format!(
            "exit {}",
            status.map_or("killed".into(), |c| c.to_string())
        ));
        std::mem::take(&mut self.log)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // never leave an engine process behind
        self.reap(Duration::ZERO);
    }
}

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

/// The result: the engine's transcript, the opponent's, and (when a game
/// was played) its PGN.
#[derive(Debug, Clone)]
pub struct Recording {
    pub engine_log: String,
    pub opponent_log: Option<String>,
    pub pgn: Option<String>,
}

fn header(side: Color, name: &str, round: &str) -> String {
    format!(
        "# recorded-by: arbiter record {}\n# engine: {name}\n# side: {}\n# round: {round}\n",
        crate::VERSION,
        if side == Color::White {
            "white"
        } else {
            "black"
        }
    )
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

pub fn record(cfg: &RecordConfig) -> Result<Recording, RecordError> {
    let mut engine = Engine::start(&cfg.engine)?;
    engine.init(&cfg.options)?;
    if let Some((fen, moves)) = &cfg.replay {
        let mut pos: Chess = match fen {
            Some(f) => Fen::from_ascii(f.as_bytes())?
                .into_position(CastlingMode::Standard)
                .map_err(|e| RecordError::Position(Box::new(e)))?,
            None => Chess::default(),
        };
        let mut played: Vec<String> = Vec::new();
        for mv in moves {
            if pos.turn() == cfg.side {
                engine.search(fen.as_deref(), &played, cfg.limit, (60_000, 60_000))?;
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
        let name = engine.name.clone();
        let log = engine.quit();
        return Ok(Recording {
            engine_log: header(cfg.side, &name, &cfg.round) + &log,
            opponent_log: None,
            pgn: None,
        });
    }
    let opp_cmd = cfg.opponent.as_deref().ok_or(RecordError::NoOpponent)?;
    let mut opponent = Engine::start(opp_cmd)?;
    opponent.init(&[])?;
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
    let elog = engine.quit();
    let olog = opponent.quit();
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
    Ok(Recording {
        engine_log: header(cfg.side, &ename, &cfg.round) + &elog,
        opponent_log: Some(header(!cfg.side, &oname, &cfg.round) + &olog),
        pgn: Some(pgn),
    })
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
