//! A match-long log split per game as it streams by: fastchess's `-log`
//! (`Game N between A and B starting` … `Game N finished with result R`,
//! on the game's thread) and cutechess's `-debug` output of more than one
//! game (`Started game N of M (A vs B)` … `Finished game N (A vs B): R
//! {reason}`). Each game gets its own [`Reader`], so each game's log is
//! read as a single-game log is, and no line is held but the few engine
//! lines between games (an engine's start before its game, its `quit`
//! after it), given to the game they belong to when the next one starts.
//!
//! A log with a `# round:` line, a cutechess log of one game (`Started
//! game 1 of 1`), or one whose first [`PENDING_CAP`] lines name no game, is
//! read whole, as before.

use super::line::{LineError, fastchess_parts, split_line};
use super::log::EngineLog;
use super::message::{Msg, parse_msg};
use super::reader::Reader;
use crate::base::span::Span;

/// One game of a match-long log, as the manager announced it.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// The manager's game number (1 = the first).
    pub game: u64,
    pub white: String,
    pub black: String,
    /// The manager's result (`1-0`), its reason where it gives one
    /// (cutechess's `{…}`), and the line that says it.
    pub result: Option<(String, Option<String>, Span)>,
    /// The line that starts the game, and the last line of the game.
    pub start: Span,
    pub end: Span,
    /// fastchess: the game's start, ms since midnight (the time of day).
    pub start_of_day: Option<i64>,
}

impl Segment {
    /// A game that starts at the line `span`, with no result yet.
    fn starting(
        game: u64,
        white: &str,
        black: &str,
        span: Span,
        start_of_day: Option<i64>,
    ) -> Segment {
        Segment {
            game,
            white: white.to_string(),
            black: black.to_string(),
            result: None,
            start: span,
            end: span,
            start_of_day,
        }
    }
}

/// How the lines of a split log were attributed: every line is in a game,
/// a note of the manager's own (start-up, setup, results between games,
/// the engines' shut-down), or reported.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineCount {
    pub total: u64,
    pub in_games: u64,
    pub notes: u64,
    pub reported: u64,
}

/// A log split per game.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Split {
    /// Each game in the order it started, with its log.
    pub games: Vec<(Segment, EngineLog)>,
    pub lines: LineCount,
    /// Engine traffic outside every game that no game claimed: the first
    /// such line and how many.
    pub stray: Option<(Span, u64)>,
    /// The games come in pairs, each opening played twice with the
    /// colours swapped (game 2k's White is game 2k-1's Black and the
    /// other way round, for every such pair in the log): the PGN's Round
    /// is then the pair's number.
    pub paired: bool,
}

/// What a log read by a [`Splitter`] is.
#[derive(Debug)]
pub enum Read {
    Whole(EngineLog),
    Split(Split),
    /// A fastchess log of several games without the lines that delimit
    /// them (`Game N between A and B starting`, written at `-log
    /// level=trace`): an engine was sent `ucinewgame` this many times.
    Undelimited(EngineLog, u64),
}

/// Lines held before the first game is named, and engine lines between
/// games: past this many the log is read whole (before a game is named)
/// or the line is reported (between games).
pub const PENDING_CAP: usize = 10_000;

#[derive(Debug, Default, PartialEq)]
enum Mode {
    #[default]
    Undecided,
    Whole,
    Fastchess,
    Cutechess,
    /// fastchess below `level=trace`: a game starts where an engine is
    /// sent `ucinewgame` a second time (`Splitter::by_newgame`).
    Newgame,
}

/// Where a line went, for the lines that continue it (fastchess writes
/// some warnings over several lines).
#[derive(Debug, Default, Clone, Copy)]
enum Target {
    Game,
    #[default]
    Note,
}

/// A game being read.
#[derive(Debug)]
struct Open {
    seg: Segment,
    thread: String,
    reader: Reader,
    ended: bool,
    /// The engines (as the log names them) that had lines in this game.
    engines: Vec<String>,
    /// `Mode::Newgame`: the engines sent `ucinewgame` in this game.
    newgame: Vec<String>,
}

/// Splits a log as it is read, line by line.
#[derive(Debug, Default)]
pub struct Splitter {
    mode: Mode,
    whole: Reader,
    pending: Vec<(Span, String)>,
    open: Vec<Open>,
    done: Vec<(Segment, EngineLog)>,
    lines: LineCount,
    stray: Option<(Span, u64)>,
    prev: Target,
    /// Long lines met before the first game was named.
    long_before: Vec<(Span, u64, usize)>,
    /// The times of day of the last game closed (see `Reader::clock`).
    clock: (i64, Option<i64>),
    /// Read whole: the `ucinewgame`s each engine was sent in fastchess's
    /// form (more than one: games the log does not delimit).
    newgames: Vec<(String, u64)>,
}

impl Splitter {
    /// A splitter that never splits: the log is read whole.
    pub fn whole() -> Self {
        Splitter {
            mode: Mode::Whole,
            ..Splitter::default()
        }
    }

    /// A splitter for a fastchess log written below `level=trace` (no
    /// `Game N … starting` lines; `Read::Undelimited`): a game begins
    /// where an engine on a thread is sent `ucinewgame` a second time. The
    /// first engine sent it is taken for White (fastchess starts White's
    /// engine first), the second for Black; games are numbered in the
    /// order they start.
    pub fn by_newgame() -> Self {
        Splitter {
            mode: Mode::Newgame,
            ..Splitter::default()
        }
    }

    /// One line of the log (without its line ending) and its span.
    pub fn line(&mut self, span: Span, line: &str) {
        self.lines.total += 1;
        if matches!(self.mode, Mode::Whole | Mode::Undecided)
            && line.starts_with("[Engine]")
            && let Some((name, _)) = line.split_once(" <--- ucinewgame")
            && let Some(p) = fastchess_parts(name)
        {
            match self.newgames.iter_mut().find(|(n, _)| n == p.text) {
                Some((_, k)) => *k += 1,
                None => self.newgames.push((p.text.to_string(), 1)),
            }
        }
        match self.mode {
            Mode::Whole => self.whole.line(span, line),
            Mode::Undecided => self.undecided(span, line),
            Mode::Fastchess => self.fastchess(span, line),
            Mode::Cutechess => self.cutechess(span, line),
            Mode::Newgame => self.newgame(span, line),
        }
    }

    /// A line over the cap a line may have (see [`Reader::long_line`]).
    pub fn long_line(&mut self, span: Span, len: u64, cap: usize) {
        self.lines.total += 1;
        match self.mode {
            Mode::Whole => self.whole.long_line(span, len, cap),
            Mode::Undecided => {
                self.whole.long_line(span, len, cap);
                self.long_before.push((span, len, cap));
            }
            Mode::Fastchess | Mode::Cutechess | Mode::Newgame => match self.current("") {
                Some(i) if self.mode == Mode::Cutechess => {
                    self.lines.in_games += 1;
                    self.open[i].reader.long_line(span, len, cap);
                }
                _ => self.report(span),
            },
        }
    }

    /// A line before the log is known to be match-long.
    fn undecided(&mut self, span: Span, line: &str) {
        let t = line.trim();
        let round = t
            .strip_prefix('#')
            .and_then(|c| c.split_once(':'))
            .is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case("round"));
        let fast = fastchess_parts(t)
            .and_then(|p| p.text.strip_prefix("fastchess --- "))
            .is_some_and(|m| fast_start(m).is_some());
        let cute = cute_start(t).map(|(_, of, _, _)| of > 1);
        if round || cute == Some(false) || self.pending.len() >= PENDING_CAP {
            self.mode = Mode::Whole;
            self.pending = Vec::new();
            self.long_before = Vec::new();
            self.whole.line(span, line);
            return;
        }
        if !fast && cute.is_none() {
            self.whole.line(span, line);
            self.pending.push((span, line.to_string()));
            return;
        }
        // a match-long log: what came before is routed again, as lines
        // between games
        self.mode = if fast {
            Mode::Fastchess
        } else {
            Mode::Cutechess
        };
        self.whole = Reader::default();
        let before = std::mem::take(&mut self.pending);
        for (s, l) in before {
            self.lines.total -= 1;
            self.line(s, &l);
        }
        for (s, _, _) in std::mem::take(&mut self.long_before) {
            self.report(s);
        }
        self.lines.total -= 1;
        self.line(span, line);
    }

    /// A line reported: engine traffic no game claims.
    fn report(&mut self, span: Span) {
        self.lines.reported += 1;
        match &mut self.stray {
            Some((_, n)) => *n += 1,
            None => self.stray = Some((span, 1)),
        }
    }

    /// The game being played on `thread` (not yet ended).
    fn current(&self, thread: &str) -> Option<usize> {
        self.open
            .iter()
            .position(|o| !o.ended && o.thread == thread)
    }

    /// An engine's line for game `i`, `engine` its name in the log.
    fn feed(&mut self, i: usize, span: Span, line: &str, engine: Option<&str>) {
        let o = &mut self.open[i];
        if let Some(e) = engine
            && !o.engines.iter().any(|k| k == e)
        {
            o.engines.push(e.to_string());
        }
        o.seg.end = span;
        o.reader.line(span, line);
        self.lines.in_games += 1;
    }

    /// A line of a game or the manager's, not traffic: counted where it is.
    fn note(&mut self, i: Option<usize>, span: Span) {
        match i {
            Some(i) => {
                self.open[i].seg.end = span;
                self.lines.in_games += 1;
                self.prev = Target::Game;
            }
            None => {
                self.lines.notes += 1;
                self.prev = Target::Note;
            }
        }
    }

    /// Engine traffic outside every game: held for the game it belongs to.
    fn hold(&mut self, span: Span, line: &str) {
        if self.pending.len() < PENDING_CAP {
            self.pending.push((span, line.to_string()));
        } else {
            self.report(span);
        }
    }

    fn fastchess(&mut self, span: Span, line: &str) {
        let t = line.trim();
        let Some(p) = fastchess_parts(t) else {
            // a line continuing the one before it, or an empty line
            match self.prev {
                Target::Game => self.lines.in_games += 1,
                Target::Note => self.lines.notes += 1,
            }
            return;
        };
        let thread = p.thread.to_string();
        if let Some(m) = p.text.strip_prefix("fastchess --- ") {
            if let Some((game, white, black)) = fast_start(m) {
                let seg = Segment::starting(game, white, black, span, Some(p.ms));
                self.start(seg, thread);
                return;
            }
            let mine = self.current(&thread);
            if let Some((game, result)) = fast_result(m)
                && let Some(i) = mine.filter(|&i| self.open[i].seg.game == game)
            {
                self.open[i].seg.result = Some((result.to_string(), None, span));
                self.open[i].ended = true;
                self.note(Some(i), span);
                return;
            }
            // the main thread's lines are the game's when one game is on
            let i = mine.or_else(|| {
                let on: Vec<usize> = (0..self.open.len())
                    .filter(|&i| !self.open[i].ended)
                    .collect();
                (thread.is_empty() && on.len() == 1).then(|| on[0])
            });
            self.note(i, span);
            return;
        }
        let engine = split_line(t).ok().flatten().map(|r| r.engine.to_string());
        if p.level != "Engine" {
            let i = self.current(&thread);
            self.note(i, span);
        } else if let Some(i) = self.current(&thread) {
            self.prev = Target::Game;
            self.feed(i, span, line, engine.as_deref());
        } else if p.text.starts_with("<stderr>") {
            // the manager's word on an engine's exit, outside a game
            self.note(None, span);
        } else {
            self.prev = Target::Note;
            self.hold(span, line);
        }
    }

    /// A line of a fastchess log without game lines ([`Splitter::by_newgame`]).
    fn newgame(&mut self, span: Span, line: &str) {
        let t = line.trim();
        let Some(p) = fastchess_parts(t) else {
            match self.prev {
                Target::Game => self.lines.in_games += 1,
                Target::Note => self.lines.notes += 1,
            }
            return;
        };
        if p.level != "Engine" || p.text.starts_with("<stderr>") {
            let i = self.current(p.thread);
            return self.note(i, span);
        }
        let engine = split_line(t).ok().flatten().map(|r| r.engine.to_string());
        let to_new = engine
            .as_ref()
            .filter(|_| p.text.ends_with("<--- ucinewgame"));
        if let Some(e) = to_new {
            let mine = self.current(p.thread);
            match mine {
                Some(i) if !self.open[i].newgame.contains(e) => {
                    let o = &mut self.open[i];
                    o.newgame.push(e.clone());
                    if o.seg.black.is_empty() && o.seg.white != *e {
                        o.seg.black = e.clone();
                    }
                }
                _ => {
                    if let Some(i) = mine {
                        self.open[i].ended = true;
                    }
                    let n = self.done.len() + self.open.len() + 1;
                    // the engines' start-up before the first game is its
                    let held = if n == 1 {
                        std::mem::take(&mut self.pending)
                    } else {
                        Vec::new()
                    };
                    let seg = Segment::starting(n as u64, e, "", span, Some(p.ms));
                    self.start(seg, p.thread.to_string());
                    let i = self.open.len() - 1;
                    self.open[i].newgame.push(e.clone());
                    self.lines.in_games -= 1;
                    for (s, l) in held {
                        let who = split_line(l.trim())
                            .ok()
                            .flatten()
                            .map(|r| r.engine.to_string());
                        self.feed(i, s, &l, who.as_deref());
                    }
                    self.feed(i, span, line, Some(e));
                    return;
                }
            }
        }
        match self.current(p.thread) {
            Some(i) => {
                self.prev = Target::Game;
                self.feed(i, span, line, engine.as_deref());
            }
            None => {
                self.prev = Target::Note;
                self.hold(span, line);
            }
        }
    }

    fn cutechess(&mut self, span: Span, line: &str) {
        let t = line.trim();
        if let Some((game, _, white, black)) = cute_start(t) {
            let seg = Segment::starting(game, white, black, span, None);
            self.start(seg, String::new());
            return;
        }
        let mine = self.current("");
        if t.is_empty() {
            return self.note(mine, span);
        }
        if let Some((game, result, reason)) = cute_finish(t)
            && let Some(i) = mine.filter(|&i| self.open[i].seg.game == game)
        {
            self.open[i].seg.result = Some((result.to_string(), reason.map(str::to_string), span));
            self.open[i].ended = true;
            self.note(Some(i), span);
            return;
        }
        match split_line(t) {
            Ok(Some(raw)) if !raw.engine.is_empty() => {
                let engine = raw.engine.to_string();
                match mine {
                    Some(i) => self.feed(i, span, line, Some(&engine)),
                    None => self.hold(span, line),
                }
            }
            Ok(_) => self.note(mine, span),
            Err(e) => match mine {
                Some(i) => self.feed(i, span, line, None),
                // a line that starts with a number and is no traffic (the
                // results table between games): the manager's
                None if matches!(e, LineError::Direction { .. } | LineError::NoDirection) => {
                    self.note(None, span)
                }
                None => self.hold(span, line),
            },
        }
    }

    /// A game starts: the lines held between games go to the game just
    /// ended whose engine wrote them, else to this game if its engine plays
    /// in it; the games ended on this thread are closed.
    fn start(&mut self, seg: Segment, thread: String) {
        let players = [seg.white.clone(), seg.black.clone()];
        let clock = self.open.last().map_or(self.clock, |o| o.reader.clock());
        self.lines.in_games += 1;
        self.prev = Target::Game;
        self.open.push(Open {
            seg,
            thread: thread.clone(),
            reader: Reader::with_clock(clock),
            ended: false,
            engines: Vec::new(),
            newgame: Vec::new(),
        });
        let new = self.open.len() - 1;
        self.settle(Some((new, &players)));
        // close the games that ended on this thread
        let mut i = 0;
        while i < self.open.len() {
            if self.open[i].ended && self.open[i].thread == thread {
                let o = self.open.remove(i);
                self.clock = o.reader.clock();
                self.done.push((o.seg, o.reader.finish()));
            } else {
                i += 1;
            }
        }
    }

    /// Give each held line to the ended game whose engine wrote it, else to
    /// game `new` when its engine is one of `players`; the rest are the
    /// engines' shut-down (notes) or reported.
    fn settle(&mut self, new: Option<(usize, &[String; 2])>) {
        for (span, line) in std::mem::take(&mut self.pending) {
            let raw = split_line(line.trim()).ok().flatten();
            let engine = raw.as_ref().map(|r| r.engine.to_string());
            let ended = engine.as_ref().and_then(|e| {
                self.open
                    .iter()
                    .rposition(|o| o.ended && o.engines.contains(e))
            });
            let base = engine.as_deref().map(base_name);
            let joins_new = new.filter(|(_, p)| base.is_some_and(|b| p.iter().any(|n| n == b)));
            if let Some(i) = ended.or(joins_new.map(|(i, _)| i)) {
                self.feed(i, span, &line, engine.as_deref());
            } else if raw.is_some_and(|r| {
                matches!(
                    parse_msg(r.dir, r.text),
                    Msg::Stop | Msg::Quit | Msg::IsReady | Msg::ReadyOk
                )
            }) {
                self.lines.notes += 1;
            } else {
                self.report(span);
            }
        }
    }

    /// The log read: whole, or split per game.
    pub fn finish(mut self) -> Read {
        match self.mode {
            Mode::Whole | Mode::Undecided => match self.newgames.iter().map(|(_, k)| *k).max() {
                Some(k) if k > 1 => Read::Undelimited(self.whole.finish(), k),
                _ => Read::Whole(self.whole.finish()),
            },
            Mode::Fastchess | Mode::Cutechess | Mode::Newgame => {
                self.settle(None);
                let mut games = self.done;
                games.extend(self.open.into_iter().map(|o| (o.seg, o.reader.finish())));
                games.sort_by_key(|(s, _)| s.start.offset);
                let paired = paired_games(games.iter().map(|(s, _)| s));
                Read::Split(Split {
                    games,
                    lines: self.lines,
                    stray: self.stray,
                    paired,
                })
            }
        }
    }
}

/// Whether the games come in pairs of swapped colours ([`Split::paired`]):
/// every game 2k-1 whose game 2k is in the log, and there is one.
pub fn paired_games<'s>(games: impl Iterator<Item = &'s Segment> + Clone) -> bool {
    let of = |n: u64| games.clone().find(|s| s.game == n);
    let mut pairs = 0;
    for a in games.clone().filter(|s| s.game % 2 == 1) {
        if let Some(b) = of(a.game + 1) {
            if a.white != b.black || a.black != b.white {
                return false;
            }
            pairs += 1;
        }
    }
    pairs > 0
}

/// An engine's name without cutechess's process number: `Stockfish(3)` is
/// `Stockfish`.
fn base_name(engine: &str) -> &str {
    match engine.strip_suffix(')').and_then(|e| e.rsplit_once('(')) {
        Some((name, n)) if n.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => engine,
    }
}

/// fastchess's `Game N between A and B starting`.
fn fast_start(m: &str) -> Option<(u64, &str, &str)> {
    let rest = m.strip_prefix("Game ")?.strip_suffix(" starting")?;
    let (n, names) = rest.split_once(" between ")?;
    let (a, b) = names.split_once(" and ")?;
    Some((n.parse().ok()?, a, b))
}

/// fastchess's `Game N finished with result R`.
fn fast_result(m: &str) -> Option<(u64, &str)> {
    let (n, r) = m
        .strip_prefix("Game ")?
        .split_once(" finished with result ")?;
    Some((n.parse().ok()?, r.trim()))
}

/// cutechess's `Started game N of M (A vs B)`.
pub fn cute_start(t: &str) -> Option<(u64, u64, &str, &str)> {
    let (n, rest) = t.strip_prefix("Started game ")?.split_once(" of ")?;
    let (m, names) = rest.split_once(" (")?;
    let (a, b) = names.strip_suffix(')')?.split_once(" vs ")?;
    Some((n.parse().ok()?, m.parse().ok()?, a, b))
}

/// cutechess's `Finished game N (A vs B): R {reason}`.
pub fn cute_finish(t: &str) -> Option<(u64, &str, Option<&str>)> {
    let (n, rest) = t.strip_prefix("Finished game ")?.split_once(" (")?;
    let (_, after) = rest.split_once("): ")?;
    let (r, reason) = match after.split_once(' ') {
        Some((r, reason)) => (
            r,
            Some(reason.trim().trim_start_matches('{').trim_end_matches('}')),
        ),
        None => (after.trim(), None),
    };
    Some((n.parse().ok()?, r, reason))
}
