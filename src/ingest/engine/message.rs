//! What a line of UCI or xboard traffic says ([`Msg`]), read from its
//! words given its direction.

use super::info::{Info, parse_info, thinking};

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
    /// `wtime` and `btime`: each side's clock, ms (White's first).
    pub clock: [Option<i64>; 2],
    /// `winc` and `binc`: each side's increment, ms.
    pub increment: [Option<i64>; 2],
    pub movestogo: Option<i64>,
    pub movetime: Option<i64>,
    pub depth: Option<i64>,
    pub nodes: Option<i64>,
    pub infinite: bool,
    pub ponder: bool,
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
                    "wtime" => g.clock[0] = v,
                    "btime" => g.clock[1] = v,
                    "winc" => g.increment[0] = v,
                    "binc" => g.increment[1] = v,
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
            match thinking(words.iter().copied()) {
                Some(mut info) => {
                    info.pv = words[4..].iter().map(|s| s.to_string()).collect();
                    Msg::Info(info)
                }
                None => Msg::Other,
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
