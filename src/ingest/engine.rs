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

use std::collections::{BTreeMap, BTreeSet};

use super::annotations::ascii_white;
use crate::base::span::Span;

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

/// A parsed engine log, folded as it was read: each engine's activities
/// (its searches with their `info` lines summed up, option settings,
/// starts, exits), not its lines, so that memory grows with the searches
/// and not with the length of the log.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineLog {
    /// Each engine in the log, in order of its first line.
    pub engines: Vec<EngineActivity>,
    pub errors: Vec<LogError>,
    /// `# key: value` metadata (transcripts).
    pub meta: BTreeMap<String, String>,
    /// Lines of the log that are not engine traffic (cutechess's own
    /// messages), kept verbatim.
    pub notes: Vec<(Span, String)>,
    /// Lines whose timestamp is earlier than the same engine's line before
    /// them, in the order of the log.
    pub backwards: Vec<Backwards>,
}

/// One engine's activities.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineActivity {
    /// The engine's name as the log gives it (`Stockfish(0)`); empty when
    /// the log holds one engine.
    pub name: String,
    pub activities: Vec<Activity>,
}

/// A timestamp earlier than the one before it (same engine).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backwards {
    /// The line with the earlier timestamp.
    pub span: Span,
    /// How much earlier, ms.
    pub earlier_ms: i64,
}

impl EngineLog {
    /// A `#` line's text (after the `#`): a `key: value` is kept as
    /// metadata, anything else is a comment and left.
    fn comment(&mut self, c: &str) {
        if let Some((k, v)) = c.split_once(':') {
            let k = k.trim();
            if !k.is_empty() && k.len() < 40 && !k.contains(char::is_whitespace) {
                self.meta
                    .insert(k.to_ascii_lowercase(), v.trim().to_string());
            }
        }
    }

    /// The distinct engines in the log, in order of appearance.
    pub fn engines(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
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

/// An xboard thinking line's numbers from its words (`ply score time(cs)
/// nodes pv…`), its PV left out; `None` unless the first four are integers.
/// A score of 100,000 or more either way is a mate (the side only), and a
/// time too large to be given in ms is none.
fn thinking<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<Info> {
    let mut n = || words.next().and_then(|x| x.parse::<i64>().ok());
    let (d, sc, cs, nodes) = (n()?, n()?, n()?, n()?);
    let mate = sc.unsigned_abs() >= 100_000;
    Some(Info {
        depth: Some(d),
        cp: (!mate).then_some(sc),
        mate: mate.then_some(sc.signum()),
        nodes: Some(nodes),
        time: cs.checked_mul(10),
        ..Info::default()
    })
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
    walk_info(|i| w.get(i).copied(), true)
}

/// `parse_info`'s walk over the words `get(i)` gives (`None` past the
/// last), with its texts (the bound, the PV and the string) only where
/// `texts`: without them a line's numbers are read without an allocation,
/// and they are the numbers the whole reading gives, by the same walk. The
/// words are asked for in order, at most three past the key being read, so
/// `get` can find them as they are needed.
fn walk_info<'a>(mut get: impl FnMut(usize) -> Option<&'a str>, texts: bool) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    while let Some(key) = get(i) {
        let v = get(i + 1).and_then(|x| x.parse::<i64>().ok());
        match key {
            "depth" => info.depth = v,
            "seldepth" => info.seldepth = v,
            "nodes" => info.nodes = v,
            "nps" => info.nps = v,
            "time" => info.time = v,
            "hashfull" => info.hashfull = v,
            "tbhits" => info.tbhits = v,
            "multipv" => info.multipv = v,
            "score" => {
                let value = get(i + 2).and_then(|x| x.parse::<i64>().ok());
                match get(i + 1) {
                    Some("cp") => info.cp = value,
                    Some("mate") => info.mate = value,
                    _ => {}
                }
                i += 3;
                if let Some(b @ ("lowerbound" | "upperbound")) = get(i) {
                    if texts {
                        info.bound = Some(b.to_string());
                    }
                    i += 1;
                }
                continue;
            }
            "pv" => {
                if texts {
                    info.pv = (i + 1..).map_while(&mut get).map(str::to_string).collect();
                }
                break;
            }
            "string" => {
                if texts {
                    let rest: Vec<&str> = (i + 1..).map_while(&mut get).collect();
                    info.string = Some(rest.join(" "));
                }
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

/// Parse a log held in memory, recognising cutechess debug output or a
/// transcript line by line.
pub fn parse(text: &str) -> EngineLog {
    read_text(Reader::default(), text)
}

/// Every line of `text` read by `reader`.
fn read_text(mut reader: Reader, text: &str) -> EngineLog {
    for (span, line) in crate::base::span::lines_with_spans(text) {
        reader.line(span, line);
    }
    reader.finish()
}

/// The traffic lines of a log, one by one (notes, metadata and unreadable
/// lines left out): for tools that rewrite a log.
pub fn traffic(text: &str) -> impl Iterator<Item = Line> + '_ {
    crate::base::span::lines_with_spans(text).filter_map(|(span, line)| {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            return None;
        }
        parse_line(t, span).ok().flatten()
    })
}

/// Reads a log one line at a time and folds each line into its engine's
/// activities at once; nothing of a line is kept beyond what the
/// activities hold. `parse` feeds it a text in memory, and the audit feeds
/// it a file as it streams by.
#[derive(Debug, Default)]
pub struct Reader {
    log: EngineLog,
    tracks: Vec<Track>,
    /// Where each word of the `info` line being read lies (kept from line
    /// to line, so that reading one allocates nothing).
    words: Vec<(usize, usize)>,
    /// Every line is read whole, `info` lines too, as before their numbers
    /// were read in place (the tests compare the two ways).
    whole: bool,
}

impl Reader {
    /// A reader that reads every line whole.
    #[cfg(test)]
    fn whole() -> Self {
        Reader {
            whole: true,
            ..Reader::default()
        }
    }

    /// One line of the log (without its line ending) and its span.
    pub fn line(&mut self, span: Span, line: &str) {
        let t = line.trim();
        if t.is_empty() {
            return;
        }
        if let Some(c) = t.strip_prefix('#') {
            self.log.comment(c);
            return;
        }
        match split_line(t) {
            Ok(Some(l)) => {
                let at = match self.tracks.iter().position(|k| k.name == l.engine) {
                    Some(at) => at,
                    None => {
                        self.tracks.push(Track::new(l.engine.to_string()));
                        self.tracks.len() - 1
                    }
                };
                // an engine's `info` line, the bulk of a log, has its numbers
                // read in place; any other line is read whole
                let numbers = (l.dir == Dir::FromEngine && !self.whole)
                    .then(|| {
                        info_numbers(l.text, &mut self.words).or_else(|| thinking_numbers(l.text))
                    })
                    .flatten();
                let track = &mut self.tracks[at];
                if let Some(prev) = track.last_time
                    && l.time < prev
                {
                    self.log.backwards.push(Backwards {
                        span,
                        earlier_ms: prev - l.time,
                    });
                }
                track.last_time = Some(l.time);
                match numbers {
                    Some(info) => track.info(&info, l.text),
                    None => track.take(l.into_line(span)),
                }
            }
            Ok(None) => self.log.notes.push((span, t.to_string())),
            Err(message) => self.log.errors.push(LogError { span, message }),
        }
    }

    /// The log read so far, each engine's last search closed.
    pub fn finish(mut self) -> EngineLog {
        for mut track in self.tracks {
            track.settle();
            if let Some(s) = track.current.take() {
                track.out.push(Activity::Search(Box::new(s)));
            }
            self.log.engines.push(EngineActivity {
                name: track.name,
                activities: track.out,
            });
        }
        self.log
    }
}

/// One line: `Ok(None)` for a line that is not engine traffic (kept as a
/// note), `Err` for a line that starts like traffic but is malformed.
fn parse_line(t: &str, span: Span) -> Result<Option<Line>, String> {
    Ok(split_line(t)?.map(|raw| raw.into_line(span)))
}

/// A line of traffic cut into its parts, each a slice of the line: what
/// [`parse_line`] gives before anything is copied or read further.
struct RawLine<'a> {
    time: i64,
    at: &'a str,
    absolute: bool,
    engine: &'a str,
    dir: Dir,
    text: &'a str,
}

impl RawLine<'_> {
    fn into_line(self, span: Span) -> Line {
        Line {
            time: self.time,
            at: self.at.to_string(),
            absolute: self.absolute,
            engine: self.engine.to_string(),
            dir: self.dir,
            msg: parse_msg(self.dir, self.text),
            text: self.text.to_string(),
            span,
        }
    }
}

/// An engine's line that [`parse_msg`] reads as UCI `info`: its numbers, as
/// `parse_info` reads them, without its texts; `None` for any other line.
/// `words` is filled with where each word lies.
fn info_numbers(text: &str, words: &mut Vec<(usize, usize)>) -> Option<Info> {
    let t = text.trim();
    // the first word is `info` (`t` starts with no white space)
    if !t.starts_with("info") || !t[4..].chars().next().is_none_or(char::is_whitespace) {
        return None;
    }
    words.clear();
    if !t.is_ascii() {
        let base = t.as_ptr() as usize;
        words.extend(t.split_whitespace().skip(1).map(|w| {
            let start = w.as_ptr() as usize - base;
            (start, start + w.len())
        }));
        return Some(walk_info(|i| words.get(i).map(|&(a, b)| &t[a..b]), false));
    }
    // `split_whitespace`'s words, found byte by byte as the walk asks for
    // them (in ASCII its white space is `ascii_white`'s): the walk stops at the
    // PV, whose words are then never looked at
    let b = t.as_bytes();
    let mut at = 4;
    Some(walk_info(
        |i| {
            while words.len() <= i && at < b.len() {
                while at < b.len() && ascii_white(b[at]) {
                    at += 1;
                }
                let start = at;
                while at < b.len() && !ascii_white(b[at]) {
                    at += 1;
                }
                if at > start {
                    words.push((start, at));
                }
            }
            words.get(i).map(|&(a, b)| &t[a..b])
        },
        false,
    ))
}

/// An engine's line that [`parse_msg`] reads as xboard thinking output: its
/// numbers, without its PV; `None` for any other line.
fn thinking_numbers(text: &str) -> Option<Info> {
    let t = text.trim();
    // as `parse_msg` tells it: the first word an integer, four words or more
    // (the four integers `thinking` asks for are four words)
    t.as_bytes()
        .first()
        .is_some_and(|c| c.is_ascii_digit() || *c == b'-' || *c == b'+')
        .then(|| thinking(t.split_whitespace()))
        .flatten()
}

/// [`parse_line`]'s reading of a line's time, engine and direction.
fn split_line(t: &str) -> Result<Option<RawLine<'_>>, String> {
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
        (crate::base::time::parse_timestamp(time_s)?, true)
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
        return Ok(Some(RawLine {
            time,
            at: time_s,
            absolute,
            engine: &rest[1..colon],
            dir,
            text: rest.get(colon + 2..).unwrap_or(""),
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
    Ok(Some(RawLine {
        time,
        at: time_s,
        absolute,
        engine: "",
        dir,
        text,
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
    /// Its `info` lines with a depth or a score, summed up.
    pub infos: Infos,
    /// The move, the expected reply, and the `bestmove` line.
    pub bestmove: Option<(String, Option<String>, Stamp)>,
    /// The search was a ponder search (`go ponder`), and `ponderhit` came.
    pub ponderhit: bool,
}

impl Search {
    /// The last info with a score (the final evaluation).
    pub fn last_scored(&self) -> Option<&Info> {
        self.infos.last_scored.as_ref()
    }

    /// ms from `go` to `bestmove`.
    pub fn elapsed(&self) -> Option<i64> {
        self.bestmove.as_ref().map(|b| b.2.time - self.started.time)
    }
}

/// What a search's `info` lines with a depth or a score said, summed up as
/// they are read: the last value given for each field, the last scored
/// line whole, and the depths that were scored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Infos {
    /// Lines summed up.
    pub lines: u64,
    /// Lines with a depth (the iterations the engine reported).
    pub iterations: u64,
    /// Lines with a score and a depth.
    pub scored_iterations: u64,
    /// The last depth, seldepth, nodes, nps and time given.
    pub depth: Option<i64>,
    pub seldepth: Option<i64>,
    pub nodes: Option<i64>,
    pub nps: Option<i64>,
    pub time: Option<i64>,
    /// The last line with a score (the final evaluation).
    pub last_scored: Option<Info>,
    /// The distinct depths of the lines with a score and a depth.
    pub scored_depths: BTreeSet<i64>,
}

impl Infos {
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    fn push(&mut self, info: Info) {
        if self.count(&info) {
            self.last_scored = Some(info);
        }
    }

    /// Sum up one line (which has a depth or a score) but for keeping it
    /// whole; whether it has a score, and so is the last scored line now.
    fn count(&mut self, info: &Info) -> bool {
        self.lines += 1;
        self.iterations += u64::from(info.depth.is_some());
        let keep = |to: &mut Option<i64>, v: Option<i64>| {
            if v.is_some() {
                *to = v;
            }
        };
        keep(&mut self.depth, info.depth);
        keep(&mut self.seldepth, info.seldepth);
        keep(&mut self.nodes, info.nodes);
        keep(&mut self.nps, info.nps);
        keep(&mut self.time, info.time);
        let scored = info.cp.is_some() || info.mate.is_some();
        if scored && let Some(d) = info.depth {
            self.scored_iterations += 1;
            self.scored_depths.insert(d);
        }
        scored
    }

    /// Every depth from the lowest to the highest scored one was scored
    /// (false when none was).
    pub fn depths_complete(&self) -> bool {
        match (self.scored_depths.first(), self.scored_depths.last()) {
            (Some(&lo), Some(&hi)) => {
                i128::from(hi) - i128::from(lo) + 1 == self.scored_depths.len() as i128
            }
            _ => false,
        }
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

/// One engine's activities so far, and the state its next line is read in.
#[derive(Debug)]
struct Track {
    name: String,
    last_time: Option<i64>,
    out: Vec<Activity>,
    /// The last position the engine was given: start FEN and moves.
    position: (Option<String>, Vec<String>),
    current: Option<Search>,
    /// Plies played so far as the engine knows them: the last position it
    /// was given, plus its own move once it answered.
    known: usize,
    /// xboard: after `force` the engine only follows moves; otherwise a
    /// move sent to it starts its search (it answers with `move …`).
    force: bool,
    /// The text of the current search's last scored `info` line, read
    /// whole only when the search is closed or another line of the engine
    /// comes ([`Track::settle`]): the text is copied into a buffer kept
    /// from line to line, where reading it whole each time allocated a
    /// string for each word of its PV.
    scored: String,
    pending: bool,
}

impl Track {
    fn new(name: String) -> Self {
        Track {
            name,
            last_time: None,
            out: Vec::new(),
            position: (None, Vec::new()),
            current: None,
            known: 0,
            force: false,
            scored: String::new(),
            pending: false,
        }
    }

    /// An `info` line of this engine, its numbers read (`info`) and its
    /// text: summed up into the current search as [`Track::take`] does
    /// with the line read whole.
    fn info(&mut self, info: &Info, text: &str) {
        if let Some(s) = self.current.as_mut()
            && (info.depth.is_some() || info.cp.is_some() || info.mate.is_some())
            && s.infos.count(info)
        {
            self.scored.clear();
            self.scored.push_str(text);
            self.pending = true;
        }
    }

    /// The current search's last scored line read whole, where only its
    /// text was kept.
    fn settle(&mut self) {
        if std::mem::take(&mut self.pending)
            && let Some(s) = self.current.as_mut()
            && let Msg::Info(info) = parse_msg(Dir::FromEngine, &self.scored)
        {
            s.infos.last_scored = Some(info);
        }
    }

    fn search(&self, go: Go, l: &Line) -> Search {
        Search {
            engine: self.name.clone(),
            fen: self.position.0.clone(),
            moves: self.position.1.clone(),
            go,
            started: l.stamp(),
            infos: Infos::default(),
            bestmove: None,
            ponderhit: false,
        }
    }

    /// Fold one line of this engine into its activities.
    fn take(&mut self, l: Line) {
        self.settle();
        match l.msg {
            Msg::Position { ref fen, ref moves } => {
                self.position = (fen.clone(), moves.clone());
                self.known = moves.len();
            }
            Msg::XNew => {
                self.position = (None, Vec::new());
                self.force = false;
            }
            Msg::XForce => self.force = true,
            Msg::XUserMove(ref m) => {
                self.position.1.push(m.clone());
                self.known = self.position.1.len();
                if !self.force {
                    if let Some(s) = self.current.take() {
                        self.out.push(Activity::Search(Box::new(s)));
                    }
                    self.current = Some(self.search(Go::default(), &l));
                }
            }
            Msg::NewGame => self.out.push(Activity::NewGame { stamp: l.stamp() }),
            Msg::SetOption {
                ref name,
                ref value,
            } => self.out.push(Activity::SetOption {
                name: name.clone(),
                value: value.clone(),
                stamp: l.stamp(),
                plies: self.known.max(self.position.1.len()),
            }),
            Msg::Start(ref command) => self.out.push(Activity::Start {
                command: command.clone(),
                stamp: l.stamp(),
                plies: self.known.max(self.position.1.len()),
            }),
            Msg::Exit(code) => {
                if let Some(s) = self.current.take() {
                    self.out.push(Activity::Search(Box::new(s)));
                }
                self.out.push(Activity::Exit {
                    code,
                    stamp: l.stamp(),
                    plies: self.known.max(self.position.1.len()),
                });
            }
            Msg::Go(ref g) => {
                self.force = false;
                if let Some(s) = self.current.take() {
                    self.out.push(Activity::Search(Box::new(s)));
                }
                self.current = Some(self.search(g.clone(), &l));
            }
            Msg::PonderHit => {
                if let Some(s) = self.current.as_mut() {
                    s.ponderhit = true;
                }
            }
            Msg::Info(info) => {
                if let Some(s) = self.current.as_mut()
                    && (info.depth.is_some() || info.cp.is_some() || info.mate.is_some())
                {
                    s.infos.push(info);
                }
            }
            Msg::BestMove { ref mv, ref ponder } => {
                if let Some(mut s) = self.current.take() {
                    if !s.go.ponder {
                        self.known = s.moves.len() + 1;
                    }
                    s.bestmove = Some((mv.clone(), ponder.clone(), l.stamp()));
                    self.out.push(Activity::Search(Box::new(s)));
                }
            }
            Msg::XMove(ref mv) => {
                if let Some(mut s) = self.current.take() {
                    s.bestmove = Some((mv.clone(), None, l.stamp()));
                    self.out.push(Activity::Search(Box::new(s)));
                }
                self.position.1.push(mv.clone());
                self.known = self.position.1.len();
            }
            _ => {}
        }
    }
}

/// One engine's activities, in order (`engine` = the name in the log, `""`
/// for a transcript); none for an engine not in the log.
pub fn activities<'a>(log: &'a EngineLog, engine: &str) -> &'a [Activity] {
    log.engines
        .iter()
        .find(|e| e.name == engine)
        .map_or(&[], |e| e.activities.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log as it was read before `info` lines had their numbers read in
    /// place: every line read whole (`parse_line`) and folded by
    /// `Track::take`.
    fn read_whole(text: &str) -> EngineLog {
        read_text(Reader::whole(), text)
    }

    /// The recorded logs, and logs made of their lines and of `info` lines
    /// of every shape (bounds, strings, xboard thinking lines, lines
    /// between two searches, two engines interleaved), read with the
    /// numbers of `info` lines taken in place: the same log as read whole.
    #[test]
    fn info_lines_read_in_place_give_the_log_read_whole() {
        let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut texts: Vec<String> = [
            "tests/fixtures/logs/cutechess/debug.log",
            "tests/fixtures/logs/stockfish-vs-glaurung/engine.log",
            "tests/fixtures/logs/stockfish-vs-glaurung/opponent.log",
            "samples/tcec-s15/clean/debug.log",
            "samples/kasparov-deep-junior-2003/clean/engine.log",
        ]
        .iter()
        .map(|f| std::fs::read_to_string(here.join(f)).unwrap())
        .collect();
        let pieces = [
            "info depth 3 score cp 12 pv e2e4 e7e5",
            "info depth 4 score cp -5 upperbound nodes 9 pv d2d4",
            "info depth 4 seldepth 7 score mate 3 lowerbound time 10 pv g1f3",
            "info string NNUE evaluation enabled",
            "info depth 5 string deep pv here",
            "info nodes 100 nps 200",
            "info score cp 30",
            "info depth pv e2e4",
            "info  depth\t6   score cp 7  pv  a2a3 ",
            "info\u{a0}depth 7 score cp 8",
            "info depth\u{2003}8 score cp 9 pv é2e4",
            "info\x0bdepth 9\x0cscore cp 10",
            "info",
            "infox depth 3 score cp 1",
            "12 35 170 4000 e2e4 e7e5",
            "3 -100000 5 9 e2e4",
            "4 100001 6 10",
            "5 7 x 9 e2e4",
            "6 8 9",
            "+7 -8 10 11 d2d4",
            "9223372036854775807 1 922337203685477581 1 a2a3",
            "1 -9223372036854775808 1 1",
            "\u{a0}8 9 10 11 e2e4",
            "bestmove e2e4 ponder e7e5",
            "position startpos moves e2e4",
            "go wtime 1000 btime 1000",
        ];
        let mut rng = crate::test_rng::Lcg(0x2545_F491_4F6C_DD1D);
        for _ in 0..200 {
            let mut text = String::new();
            for k in 0..60 {
                let piece = pieces[rng.below(pieces.len())];
                let (dir, engine) = match rng.below(4) {
                    0 => ('>', "A(0)"),
                    1 => ('<', "B(1)"),
                    _ => ('<', "A(0)"),
                };
                let piece = if rng.below(5) == 0 {
                    "go depth 9"
                } else {
                    piece
                };
                text.push_str(&format!("{} {dir}{engine}: {piece}\n", 1000 + k * 7));
            }
            texts.push(text);
        }
        let mut scored = 0;
        for text in &texts {
            let want = read_whole(text);
            assert_eq!(parse(text), want);
            scored += want
                .engines
                .iter()
                .flat_map(|e| &e.activities)
                .filter(|a| matches!(a, Activity::Search(s) if s.infos.last_scored.is_some()))
                .count();
        }
        assert!(scored > 300, "{scored}");
    }

    #[test]
    fn cutechess_debug_lines() {
        let text = "3 >stock1(0): uci\n98 <stock1(0): id name Stockfish 261014 64\n\
             120 >stock1(0): setoption name Hash value 128\n\
             200 >stock1(0): position startpos moves e2e4\n201 >stock1(0): go wtime 59000 btime 60000 winc 0 binc 0\n\
             250 <stock1(0): info depth 10 seldepth 14 score cp -25 upperbound nodes 12000 nps 240000 time 50 pv e7e5 g1f3\n\
             400 <stock1(0): bestmove e7e5 ponder g1f3\n\
             Started game 1 of 2 (a vs b)\n";
        let log = parse(text);
        let lines: Vec<Line> = traffic(text).collect();
        assert!(log.errors.is_empty(), "{:?}", log.errors);
        assert_eq!(lines.len(), 7);
        assert_eq!(log.notes.len(), 1);
        assert_eq!(log.engines(), vec!["stock1(0)"]);
        assert_eq!(lines[0].engine, "stock1(0)");
        assert_eq!(
            lines[2].msg,
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
        let fin = s.last_scored().unwrap();
        assert_eq!(fin.cp, Some(-25));
        assert_eq!(fin.bound.as_deref(), Some("upperbound"));
        assert_eq!((s.infos.depth, s.infos.seldepth), (Some(10), Some(14)));
        assert_eq!(s.bestmove.as_ref().unwrap().0, "e7e5");
        assert_eq!(s.elapsed(), Some(199));
    }

    #[test]
    fn transcript_lines_and_errors() {
        let text = "# engine: Stockfish 15.1\n2003-01-26T20:00:00.000Z > uci\n2003-01-26T20:00:00.010Z < uciok\n\
             2003-01-26T20:00:01Z ! exit 139\n2003-01-26T20:00:02Z ? what\n2003-01-26T20:00:03Z\n";
        let log = parse(text);
        let lines: Vec<Line> = traffic(text).collect();
        assert_eq!(log.meta["engine"], "Stockfish 15.1");
        assert_eq!(lines.len(), 3);
        assert!(lines[0].absolute);
        assert_eq!(lines[2].msg, Msg::Exit(Some(139)));
        assert_eq!(log.errors.len(), 2);
        assert_eq!(log.errors[0].span.line, 5);
        assert!(log.errors[0].message.contains("expected a direction"));
    }

    #[test]
    fn xboard_traffic() {
        let text = "0 >gnuchess(0): xboard\n1 >gnuchess(0): protover 2\n5 <gnuchess(0): feature myname=\"GNU Chess\" done=1\n\
             10 >gnuchess(0): new\n11 >gnuchess(0): time 6000\n11 >gnuchess(0): otim 6000\n12 >gnuchess(0): e2e4\n\
             300 <gnuchess(0): 7 -25 120 45000 e7e5 g1f3\n400 <gnuchess(0): move e7e5\n";
        let log = parse(text);
        let lines: Vec<Line> = traffic(text).collect();
        assert!(log.errors.is_empty(), "{:?}", log.errors);
        assert_eq!(
            lines[4].msg,
            Msg::XTime {
                own: true,
                cs: 6000
            }
        );
        assert_eq!(lines[6].msg, Msg::XUserMove("e2e4".into()));
        let acts = activities(&log, "gnuchess(0)");
        // a move sent to an engine not in force mode starts its search
        let [Activity::Search(s)] = acts else {
            panic!("{acts:?}")
        };
        assert_eq!(s.moves, vec!["e2e4"]);
        assert_eq!(s.bestmove.as_ref().unwrap().0, "e7e5");
        assert_eq!(s.infos.lines, 1);
        let Msg::Info(i) = &lines[7].msg else {
            panic!("{:?}", lines[7].msg)
        };
        assert_eq!(
            (i.depth, i.cp, i.time, i.nodes),
            (Some(7), Some(-25), Some(1200), Some(45000))
        );
        assert_eq!(lines[8].msg, Msg::XMove("e7e5".into()));
    }

    #[test]
    fn a_search_sums_up_its_info_lines() {
        let text = "0 > position startpos\n1 > go movetime 100\n\
             2 < info depth 1 seldepth 1 score cp 10 nodes 20 time 1 pv e2e4\n\
             3 < info depth 2 score cp 12 nodes 80 pv d2d4\n\
             4 < info depth 2 seldepth 5 nodes 150\n\
             5 < info depth 4 score mate 3 lowerbound nodes 900 nps 9000 time 9 pv g1f3\n\
             6 < info nodes 1000 nps 10000 string only counters\n\
             9 < bestmove g1f3\n";
        let log = parse(text);
        let acts = activities(&log, "");
        let [Activity::Search(s)] = acts else {
            panic!("{acts:?}")
        };
        let i = &s.infos;
        // the last line (no depth, no score) is not one of the search's lines
        assert_eq!((i.lines, i.iterations, i.scored_iterations), (4, 4, 3));
        assert_eq!(
            (i.depth, i.seldepth, i.nodes, i.nps, i.time),
            (Some(4), Some(5), Some(900), Some(9000), Some(9))
        );
        let fin = s.last_scored().unwrap();
        assert_eq!(
            (fin.mate, fin.cp, fin.pv.as_slice()),
            (Some(3), None, &["g1f3".to_string()][..])
        );
        // depths 1, 2 and 4 were scored: 3 is missing
        assert_eq!(
            i.scored_depths.iter().copied().collect::<Vec<_>>(),
            vec![1, 2, 4]
        );
        assert!(!i.depths_complete());
        assert!(!Infos::default().depths_complete());
        let backwards = parse("5 > uci\n3 > isready\n7 < readyok\n");
        assert_eq!(backwards.backwards.len(), 1);
        assert_eq!(
            (
                backwards.backwards[0].span.line,
                backwards.backwards[0].earlier_ms
            ),
            (2, 2)
        );
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
