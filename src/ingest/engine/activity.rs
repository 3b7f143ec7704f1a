//! What one engine did ([`Activity`]), and the track that folds each of
//! its lines into its activities as the log is read.

use super::info::Info;
use super::line::{Line, Stamp};
use super::message::{Dir, Go, Msg, parse_msg};
use super::search::{Infos, Search};

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
pub(super) struct Track {
    pub(super) name: String,
    pub(super) last_time: Option<i64>,
    pub(super) out: Vec<Activity>,
    /// The last position the engine was given: start FEN and moves.
    position: (Option<String>, Vec<String>),
    pub(super) current: Option<Search>,
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
    pub(super) fn new(name: String) -> Self {
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
    pub(super) fn info(&mut self, info: &Info, text: &str) {
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
    pub(super) fn settle(&mut self) {
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
    pub(super) fn take(&mut self, l: Line) {
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
