//! One search, from a `go` to its `bestmove`, and its `info` lines summed
//! up as they are read.

use std::collections::BTreeSet;

use super::info::Info;
use super::line::Stamp;
use super::message::Go;

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

    pub(super) fn push(&mut self, info: Info) {
        if self.count(&info) {
            self.last_scored = Some(info);
        }
    }

    /// Sum up one line (which has a depth or a score) but for keeping it
    /// whole; whether it has a score, and so is the last scored line now.
    pub(super) fn count(&mut self, info: &Info) -> bool {
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
