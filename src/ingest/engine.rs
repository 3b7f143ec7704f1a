//! Engine logs: the UCI or xboard (CECP) traffic between the arbiter's
//! software and an engine, in the forms people really have:
//!
//! * cutechess-cli's debug output: `<ms> >Name(id): <line>` for what was sent
//!   to the engine, `<ms> <Name(id): <line>` for what it answered;
//! * a plain transcript: `<time> <direction> <line>`, the time an ISO 8601
//!   timestamp or milliseconds, the direction `>` (to the engine) or `<`
//!   (from it), and `!` for what the recording harness observed (engine
//!   started, exited); `#` lines are comments, `# key: value` metadata;
//! * arbiter's own recording (`arbiter record`), which is a transcript.
//!
//! Every line keeps its span. A line that cannot be read is an error with
//! its line number and what was expected; reading goes on.

use std::collections::BTreeMap;

use crate::span::Span;

/// Which way a line went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Sent to the engine.
    ToEngine,
    /// Sent by the engine.
    FromEngine,
    /// Observed by the harness (start, exit).
    Harness,
}

/// A `go` command.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Go {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<i64>,
    pub movetime: Option<i64>,
    pub depth: Option<i64>,
    pub nodes: Option<i64>,
    pub infinite: bool,
    pub ponder: bool,
}

/// An `info` line (UCI) or a thinking line (xboard).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Info {
    pub depth: Option<i64>,
    pub seldepth: Option<i64>,
    /// Centipawns, from the engine's point of view.
    pub cp: Option<i64>,
    pub mate: Option<i64>,
    /// `lowerbound` / `upperbound`.
    pub bound: Option<String>,
    pub nodes: Option<i64>,
    pub nps: Option<i64>,
    /// ms
    pub time: Option<i64>,
    pub hashfull: Option<i64>,
    pub tbhits: Option<i64>,
    pub multipv: Option<i64>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// What a line says.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    Uci,
    UciOk,
    IsReady,
    ReadyOk,
    Id {
        key: String,
        value: String,
    },
    OptionDecl {
        name: String,
        rest: String,
    },
    SetOption {
        name: String,
        value: String,
    },
    NewGame,
    /// `position [startpos|fen F] [moves …]`, or xboard moves accumulated.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Info(Info),
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    Stop,
    PonderHit,
    Quit,
    /// xboard: `time N` / `otim N` (centiseconds).
    XTime {
        own: bool,
        cs: i64,
    },
    /// xboard: a move sent to the engine (`usermove e2e4` or a bare move).
    XUserMove(String),
    /// xboard: `new`.
    XNew,
    /// xboard: `force` (the engine only follows moves).
    XForce,
    /// xboard: the engine's `move e2e4`.
    XMove(String),
    /// Harness: the engine process started.
    Start(String),
    /// Harness: the engine process ended, with its status when known.
    Exit(Option<i32>),
    /// Anything else, kept verbatim.
    Other,
}

/// One line of an engine log.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// ms: since the Unix epoch when `absolute`, else since the log began.
    pub time: i64,
    /// The timestamp as written.
    pub at: String,
    pub absolute: bool,
    /// The engine's name as the log gives it (`Stockfish(0)`); empty when
    /// the log holds one engine.
    pub engine: String,
    pub dir: Dir,
    pub text: String,
    pub msg: Msg,
    pub span: Span,
}

/// Where and when a line of a log was.
#[derive(Debug, Clone, PartialEq)]
pub struct Stamp {
    /// ms: since the Unix epoch when `absolute`, else since the log began.
    pub time: i64,
    pub absolute: bool,
    /// The timestamp as written.
    pub at: String,
    pub span: Span,
}

impl Line {
    pub fn stamp(&self) -> Stamp {
        Stamp {
            time: self.time,
            absolute: self.absolute,
            at: self.at.clone(),
            span: self.span,
        }
    }
}

/// A problem in an engine log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogError {
    pub span: Span,
    pub message: String,
}

/// A parsed engine log.
#[derive(Debug, Clone, Default)]
pub struct EngineLog {
    pub lines: Vec<Line>,
    pub errors: Vec<LogError>,
    /// `# key: value` metadata (transcripts).
    pub meta: BTreeMap<String, String>,
    /// Lines of the log that are not engine traffic (cutechess's own
    /// messages), kept verbatim.
    pub notes: Vec<(Span, String)>,
}

impl EngineLog {
    /// The distinct engines in the log, in order of appearance.
    pub fn engines(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for l in &self.lines {
            if !v.contains(&l.engine) {
                v.push(l.engine.clone());
            }
        }
        v
    }
}

fn int(s: Option<&&str>) -> Option<i64> {
    s.and_then(|x| x.parse().ok())
}

/// Parse what a line says, given its direction.
pub fn parse_msg(dir: Dir, text: &str) -> Msg {
    let t = text.trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Msg::Other;
    };
    match (dir, first) {
        (Dir::Harness, "start" | "started") => Msg::Start(words[1..].join(" ")),
        (Dir::Harness, "exit" | "exited" | "crash" | "crashed") => {
            Msg::Exit(int(words.get(1)).map(|c| c as i32))
        }
        (Dir::ToEngine, "uci") => Msg::Uci,
        (Dir::ToEngine, "isready") => Msg::IsReady,
        (Dir::ToEngine, "ucinewgame") => Msg::NewGame,
        (Dir::ToEngine, "new") => Msg::XNew,
        (Dir::ToEngine, "force") => Msg::XForce,
        (Dir::ToEngine, "stop") => Msg::Stop,
        (Dir::ToEngine, "ponderhit") => Msg::PonderHit,
        (Dir::ToEngine, "quit") => Msg::Quit,
        (Dir::ToEngine, "setoption") => {
            // setoption name <name with spaces> [value <value with spaces>]
            let rest = t.strip_prefix("setoption").unwrap_or("").trim();
            let rest = rest.strip_prefix("name").unwrap_or(rest).trim();
            match rest.find(" value ") {
                Some(i) => Msg::SetOption {
                    name: rest[..i].trim().to_string(),
                    value: rest[i + 7..].trim().to_string(),
                },
                None => Msg::SetOption {
                    name: rest.trim_end_matches(" value").to_string(),
                    value: String::new(),
                },
            }
        }
        (Dir::ToEngine, "position") => {
            let mut fen = None;
            let mut moves = Vec::new();
            let mut i = 1;
            if words.get(1) == Some(&"fen") {
                let end = words
                    .iter()
                    .position(|w| *w == "moves")
                    .unwrap_or(words.len());
                fen = Some(words[2..end].join(" "));
                i = end;
            } else if words.get(1) == Some(&"startpos") {
                i = 2;
            }
            if words.get(i) == Some(&"moves") {
                moves = words[i + 1..].iter().map(|s| s.to_string()).collect();
            }
            Msg::Position { fen, moves }
        }
        (Dir::ToEngine, "go") => {
            let mut g = Go::default();
            let mut i = 1;
            while i < words.len() {
                let v = int(words.get(i + 1));
                match words[i] {
                    "wtime" => g.wtime = v,
                    "btime" => g.btime = v,
                    "winc" => g.winc = v,
                    "binc" => g.binc = v,
                    "movestogo" => g.movestogo = v,
                    "movetime" => g.movetime = v,
                    "depth" => g.depth = v,
                    "nodes" => g.nodes = v,
                    "infinite" => {
                        g.infinite = true;
                        i += 1;
                        continue;
                    }
                    "ponder" => {
                        g.ponder = true;
                        i += 1;
                        continue;
                    }
                    _ => {
                        i += 1;
                        continue;
                    }
                }
                i += 2;
            }
            Msg::Go(g)
        }
        (Dir::ToEngine, "time" | "otim") if words.len() == 2 => match int(words.get(1)) {
            Some(cs) => Msg::XTime {
                own: first == "time",
                cs,
            },
            None => Msg::Other,
        },
        (Dir::ToEngine, "usermove") => words
            .get(1)
            .map_or(Msg::Other, |m| Msg::XUserMove(m.to_string())),
        (Dir::ToEngine, w) if words.len() == 1 && is_coordinate_move(w) => {
            Msg::XUserMove(w.to_string())
        }
        (Dir::FromEngine, "uciok") => Msg::UciOk,
        (Dir::FromEngine, "readyok") => Msg::ReadyOk,
        (Dir::FromEngine, "id") if words.len() >= 2 => Msg::Id {
            key: words[1].to_string(),
            value: words[2..].join(" "),
        },
        (Dir::FromEngine, "option") => {
            let rest = t.strip_prefix("option").unwrap_or("").trim();
            let rest = rest.strip_prefix("name").unwrap_or(rest).trim();
            match rest.find(" type ") {
                Some(i) => Msg::OptionDecl {
                    name: rest[..i].to_string(),
                    rest: rest[i + 1..].to_string(),
                },
                None => Msg::OptionDecl {
                    name: rest.to_string(),
                    rest: String::new(),
                },
            }
        }
        (Dir::FromEngine, "bestmove") => match words.get(1) {
            Some(m) => Msg::BestMove {
                mv: m.to_string(),
                ponder: if words.get(2) == Some(&"ponder") {
                    words.get(3).map(|s| s.to_string())
                } else {
                    None
                },
            },
            None => Msg::Other,
        },
        (Dir::FromEngine, "move") if words.len() == 2 => Msg::XMove(words[1].to_string()),
        (Dir::FromEngine, "info") => Msg::Info(parse_info(&words[1..])),
        (Dir::FromEngine, w) if w.parse::<i64>().is_ok() && words.len() >= 4 => {
            // xboard thinking output: ply score time(cs) nodes pv…
            let n = |i: usize| words.get(i).and_then(|x| x.parse::<i64>().ok());
            match (n(0), n(1), n(2), n(3)) {
                (Some(d), Some(sc), Some(cs), Some(nodes)) => Msg::Info(Info {
                    depth: Some(d),
                    cp: if sc.abs() >= 100_000 { None } else { Some(sc) },
                    mate: if sc.abs() >= 100_000 {
                        Some(sc.signum())
                    } else {
                        None
                    },
                    nodes: Some(nodes),
                    time: Some(cs * 10),
                    pv: words[4..].iter().map(|s| s.to_string()).collect(),
                    ..Info::default()
                }),
                _ => Msg::Other,
            }
        }
        _ => Msg::Other,
    }
}

fn is_coordinate_move(w: &str) -> bool {
    let b = w.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
}

fn parse_info(w: &[&str]) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    while i < w.len() {
        let v = int(w.get(i + 1));
        match w[i] {
            "depth" => info.depth = v,
            "seldepth" => info.seldepth = v,
            "nodes" => info.nodes = v,
            "nps" => info.nps = v,
            "time" => info.time = v,
            "hashfull" => info.hashfull = v,
            "tbhits" => info.tbhits = v,
            "multipv" => info.multipv = v,
            "score" => {
                match w.get(i + 1) {
                    Some(&"cp") => info.cp = int(w.get(i + 2)),
                    Some(&"mate") => info.mate = int(w.get(i + 2)),
                    _ => {}
                }
                i += 3;
                if let Some(b @ (&"lowerbound" | &"upperbound")) = w.get(i) {
                    info.bound = Some(b.to_string());
                    i += 1;
                }
                continue;
            }
            "pv" => {
                info.pv = w[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "string" => {
                info.string = Some(w[i + 1..].join(" "));
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info
}

/// Parse a log, recognising cutechess debug output or a transcript line by
/// line.
pub fn parse(text: &str) -> EngineLog {
    let mut log = EngineLog::default();
    for (span, line) in crate::span::lines_with_spans(text) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(c) = t.strip_prefix('#') {
            if let Some((k, v)) = c.split_once(':') {
                let k = k.trim();
                if !k.is_empty() && k.len() < 40 && !k.contains(char::is_whitespace) {
                    log.meta
                        .insert(k.to_ascii_lowercase(), v.trim().to_string());
                }
            }
            continue;
        }
        match parse_line(t, span) {
            Ok(Some(l)) => log.lines.push(l),
            Ok(None) => log.notes.push((span, t.to_string())),
            Err(message) => log.errors.push(LogError { span, message }),
        }
    }
    log
}

/// One line: `Ok(None)` for a line that is not engine traffic (kept as a
/// note), `Err` for a line that starts like traffic but is malformed.
fn parse_line(t: &str, span: Span) -> Result<Option<Line>, String> {
    let (time_s, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    let rest = rest.trim_start();
    // time: ISO 8601 or milliseconds
    let b = time_s.as_bytes();
    let (time, absolute) = if b.iter().all(u8::is_ascii_digit) {
        match time_s.parse::<i64>() {
            Ok(ms) => (ms, false),
            Err(_) => return Err(format!("time {time_s:?} is too large")),
        }
    } else if b.len() >= 5 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' {
        // it starts like a date: it must be a whole timestamp
        (super::operator::parse_timestamp(time_s)?, true)
    } else {
        return Ok(None);
    };
    // cutechess: >Name(0): text   /   <Name(0): text
    let bytes = rest.as_bytes();
    if let Some(&d) = bytes.first()
        && (d == b'>' || d == b'<')
        && bytes.get(1).is_some_and(|b| !b.is_ascii_whitespace())
    {
        let dir = if d == b'>' {
            Dir::ToEngine
        } else {
            Dir::FromEngine
        };
        let Some(colon) = rest
            .find(": ")
            .or_else(|| rest.strip_suffix(':').map(|s| s.len()))
        else {
            return Err(format!(
                "expected `{}Name(id): text` after the time",
                d as char
            ));
        };
        let engine = rest[1..colon].to_string();
        let text = rest.get(colon + 2..).unwrap_or("").to_string();
        return Ok(Some(Line {
            time,
            at: time_s.to_string(),
            absolute,
            engine,
            dir,
            msg: parse_msg(dir, &text),
            text,
            span,
        }));
    }
    // transcript: <dir> text
    let (dir_s, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let dir = match dir_s {
        ">" | ">>" | "->" | "to" | "send" => Dir::ToEngine,
        "<" | "<<" | "<-" | "from" | "recv" => Dir::FromEngine,
        "!" => Dir::Harness,
        "" => return Err("expected a direction (`>` to the engine, `<` from it, `!` harness) and a line after the time".into()),
        other => {
            return Err(format!(
                "expected a direction (`>` to the engine, `<` from it, `!` harness) after the time, found {other:?}"
            ));
        }
    };
    Ok(Some(Line {
        time,
        at: time_s.to_string(),
        absolute,
        engine: String::new(),
        dir,
        msg: parse_msg(dir, text),
        text: text.to_string(),
        span,
    }))
}

/// One search: from a `go` to its `bestmove`.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    pub engine: String,
    /// The position searched: start FEN (None = standard) and the moves.
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub go: Go,
    /// The `go` line.
    pub started: Stamp,
    /// Every `info` with a depth, in order.
    pub infos: Vec<Info>,
    /// The move, the expected reply, and the `bestmove` line.
    pub bestmove: Option<(String, Option<String>, Stamp)>,
    /// The search was a ponder search (`go ponder`), and `ponderhit` came.
    pub ponderhit: bool,
}

impl Search {
    /// The last info with a score (the final evaluation).
    pub fn last_scored(&self) -> Option<&Info> {
        self.infos
            .iter()
            .rev()
            .find(|i| i.cp.is_some() || i.mate.is_some())
    }

    /// ms from `go` to `bestmove`.
    pub fn elapsed(&self) -> Option<i64> {
        self.bestmove.as_ref().map(|b| b.2.time - self.started.time)
    }
}

/// What one engine did, in order: option settings, searches, starts, exits.
#[derive(Debug, Clone, PartialEq)]
pub enum Activity {
    SetOption {
        name: String,
        value: String,
        stamp: Stamp,
        plies: usize,
    },
    Search(Box<Search>),
    Start {
        command: String,
        stamp: Stamp,
        plies: usize,
    },
    Exit {
        code: Option<i32>,
        stamp: Stamp,
        plies: usize,
    },
    NewGame {
        stamp: Stamp,
    },
}

/// Group one engine's lines into activities. Lines of other engines are
/// ignored (`engine` = the name in the log, `""` for a transcript).
pub fn activities(log: &EngineLog, engine: &str) -> Vec<Activity> {
    let mut out = Vec::new();
    let mut position: (Option<String>, Vec<String>) = (None, Vec::new());
    let mut current: Option<Search> = None;
    // plies played so far as the engine knows them: the last position it
    // was given, plus its own move once it answered
    let mut known = 0usize;
    // xboard: after `force` the engine only follows moves; otherwise a move
    // sent to it starts its search (it answers with `move …`)
    let mut force = false;
    for l in log.lines.iter().filter(|l| l.engine == engine) {
        match &l.msg {
            Msg::Position { fen, moves } => {
                position = (fen.clone(), moves.clone());
                known = moves.len();
            }
            Msg::XNew => {
                position = (None, Vec::new());
                force = false;
            }
            Msg::XForce => force = true,
            Msg::XUserMove(m) => {
                position.1.push(m.clone());
                known = position.1.len();
                if !force {
                    if let Some(s) = current.take() {
                        out.push(Activity::Search(Box::new(s)));
                    }
                    current = Some(Search {
                        engine: engine.to_string(),
                        fen: position.0.clone(),
                        moves: position.1.clone(),
                        go: Go::default(),
                        started: l.stamp(),
                        infos: Vec::new(),
                        bestmove: None,
                        ponderhit: false,
                    });
                }
            }
            Msg::NewGame => out.push(Activity::NewGame { stamp: l.stamp() }),
            Msg::SetOption { name, value } => out.push(Activity::SetOption {
                name: name.clone(),
                value: value.clone(),
                stamp: l.stamp(),
                plies: known.max(position.1.len()),
            }),
            Msg::Start(command) => out.push(Activity::Start {
                command: command.clone(),
                stamp: l.stamp(),
                plies: known.max(position.1.len()),
            }),
            Msg::Exit(code) => {
                if let Some(s) = current.take() {
                    out.push(Activity::Search(Box::new(s)));
                }
                out.push(Activity::Exit {
                    code: *code,
                    stamp: l.stamp(),
                    plies: known.max(position.1.len()),
                });
            }
            Msg::Go(g) => {
                force = false;
                if let Some(s) = current.take() {
                    out.push(Activity::Search(Box::new(s)));
                }
                current = Some(Search {
                    engine: engine.to_string(),
                    fen: position.0.clone(),
                    moves: position.1.clone(),
                    go: g.clone(),
                    started: l.stamp(),
                    infos: Vec::new(),
                    bestmove: None,
                    ponderhit: false,
                });
            }
            Msg::PonderHit => {
                if let Some(s) = current.as_mut() {
                    s.ponderhit = true;
                }
            }
            Msg::Info(info) => {
                if let Some(s) = current.as_mut()
                    && (info.depth.is_some() || info.cp.is_some() || info.mate.is_some())
                {
                    s.infos.push(info.clone());
                }
            }
            Msg::BestMove { mv, ponder } => {
                if let Some(mut s) = current.take() {
                    if !s.go.ponder {
                        known = s.moves.len() + 1;
                    }
                    s.bestmove = Some((mv.clone(), ponder.clone(), l.stamp()));
                    out.push(Activity::Search(Box::new(s)));
                }
            }
            Msg::XMove(mv) => {
                if let Some(mut s) = current.take() {
                    s.bestmove = Some((mv.clone(), None, l.stamp()));
                    out.push(Activity::Search(Box::new(s)));
                }
                position.1.push(mv.clone());
                known = position.1.len();
            }
            _ => {}
        }
    }
    if let Some(s) = current.take() {
        out.push(Activity::Search(Box::new(s)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutechess_debug_lines() {
        let log = parse(
            "3 >stock1(0): uci\n98 <stock1(0): id name Stockfish 261014 64\n\
             120 >stock1(0): setoption name Hash value 128\n\
             200 >stock1(0): position startpos moves e2e4\n201 >stock1(0): go wtime 59000 btime 60000 winc 0 binc 0\n\
             250 <stock1(0): info depth 10 seldepth 14 score cp -25 upperbound nodes 12000 nps 240000 time 50 pv e7e5 g1f3\n\
             400 <stock1(0): bestmove e7e5 ponder g1f3\n\
             Started game 1 of 2 (a vs b)\n",
        );
        assert!(log.errors.is_empty(), "{:?}", log.errors);
        assert_eq!(log.lines.len(), 7);
        assert_eq!(log.notes.len(), 1);
        assert_eq!(log.lines[0].engine, "stock1(0)");
        assert_eq!(
            log.lines[2].msg,
            Msg::SetOption {
                name: "Hash".into(),
                value: "128".into()
            }
        );
        let acts = activities(&log, "stock1(0)");
        let Activity::Search(s) = &acts[1] else {
            panic!("{acts:?}")
        };
        assert_eq!(s.moves, vec!["e2e4"]);
        assert_eq!(s.go.wtime, Some(59000));
        assert_eq!(s.infos[0].cp, Some(-25));
        assert_eq!(s.infos[0].bound.as_deref(), Some("upperbound"));
        assert_eq!(s.bestmove.as_ref().unwrap().0, "e7e5");
        assert_eq!(s.elapsed(), Some(199));
    }

    #[test]
    fn transcript_lines_and_errors() {
        let log = parse(
            "# engine: Stockfish 15.1\n2003-01-26T20:00:00.000Z > uci\n2003-01-26T20:00:00.010Z < uciok\n\
             2003-01-26T20:00:01Z ! exit 139\n2003-01-26T20:00:02Z ? what\n2003-01-26T20:00:03Z\n",
        );
        assert_eq!(log.meta["engine"], "Stockfish 15.1");
        assert_eq!(log.lines.len(), 3);
        assert!(log.lines[0].absolute);
        assert_eq!(log.lines[2].msg, Msg::Exit(Some(139)));
        assert_eq!(log.errors.len(), 2);
        assert_eq!(log.errors[0].span.line, 5);
        assert!(log.errors[0].message.contains("expected a direction"));
    }

    #[test]
    fn xboard_traffic() {
        let log = parse(
            "0 >gnuchess(0): xboard\n1 >gnuchess(0): protover 2\n5 <gnuchess(0): feature myname=\"GNU Chess\" done=1\n\
             10 >gnuchess(0): new\n11 >gnuchess(0): time 6000\n11 >gnuchess(0): otim 6000\n12 >gnuchess(0): e2e4\n\
             300 <gnuchess(0): 7 -25 120 45000 e7e5 g1f3\n400 <gnuchess(0): move e7e5\n",
        );
        assert!(log.errors.is_empty(), "{:?}", log.errors);
        assert_eq!(
            log.lines[4].msg,
            Msg::XTime {
                own: true,
                cs: 6000
            }
        );
        assert_eq!(log.lines[6].msg, Msg::XUserMove("e2e4".into()));
        let acts = activities(&log, "gnuchess(0)");
        // a move sent to an engine not in force mode starts its search
        let [Activity::Search(s)] = acts.as_slice() else {
            panic!("{acts:?}")
        };
        assert_eq!(s.moves, vec!["e2e4"]);
        assert_eq!(s.bestmove.as_ref().unwrap().0, "e7e5");
        assert_eq!(s.infos.len(), 1);
        let Msg::Info(i) = &log.lines[7].msg else {
            panic!("{:?}", log.lines[7].msg)
        };
        assert_eq!(
            (i.depth, i.cp, i.time, i.nodes),
            (Some(7), Some(-25), Some(1200), Some(45000))
        );
        assert_eq!(log.lines[8].msg, Msg::XMove("e7e5".into()));
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            parse_msg(Dir::ToEngine, "setoption name Use NNUE value false"),
            Msg::SetOption {
                name: "Use NNUE".into(),
                value: "false".into()
            }
        );
        assert_eq!(
            parse_msg(Dir::ToEngine, "setoption name Clear Hash"),
            Msg::SetOption {
                name: "Clear Hash".into(),
                value: String::new()
            }
        );
    }
}
