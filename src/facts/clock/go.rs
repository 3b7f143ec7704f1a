//! The clocks a match manager told the engines with `go` (`wtime`,
//! `btime`), rebuilt: before each ply, each side's clock as the game's
//! previous `go` line gave it, less the side's move times since, plus their
//! increments. The rules compare each `go` line's clocks with these.

use super::run::ClockPly;
use super::side_clock::Clock;
use super::time_control::TimeControlDef;
use crate::base::value::Value;
use crate::ingest::comments::MoveComments;
use crate::timeline::align::EngKind;
use crate::timeline::{Data, Kind, Timeline};

/// Both clocks before one ply, as the `go` lines and the moves rebuild them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GoClocks {
    /// Each side's clock (White's first), ms: from the latest earlier `go`
    /// line that gave it, less the side's move times since, plus their
    /// increments; `None` where a move between has no known time.
    pub expected: [Option<i64>; 2],
    /// No earlier `go` line gave a clock: `expected` runs from the time
    /// control's start.
    pub from_start: bool,
}

/// The clocks each ply's search was told: the last search for the ply that
/// is not a ponder search and was given the game's position.
fn told(tl: &Timeline<'_>, first: u32, n: usize) -> Vec<Option<[Option<i64>; 2]>> {
    let mut out = vec![None; n + 1];
    for ev in &tl.events {
        let Data::Engine(e) = &ev.data else {
            continue;
        };
        if ev.kind != Kind::Engine(EngKind::Search) {
            continue;
        }
        let num = |k: &str| match e.fields.get(k) {
            Some(Value::Num(x)) => Some(*x),
            _ => None,
        };
        let ms = |k: &str| num(k).map(|x| x.round() as i64);
        let flag = |k: &str| e.fields.get(k).map(|v| matches!(v, Value::Bool(true)));
        // a ponder search's go was sent before the opponent's move
        if flag("pondering") == Some(true) || flag("position_matches") == Some(false) {
            continue;
        }
        let clocks = [ms("go_wtime"), ms("go_btime")];
        if clocks == [None, None] {
            continue;
        }
        if let Some(p) = num("for_ply")
            && p >= f64::from(first)
            && let Some(slot) = out.get_mut((p as u32 - first) as usize)
        {
            *slot = Some(clocks);
        }
    }
    out
}

/// Both clocks before each ply, from the game's first to the one after its
/// last (the search that may follow the last move), under `tc`, with the
/// moves' times of the reconstruction `rows`.
pub fn go_clocks(tc: &TimeControlDef, tl: &Timeline<'_>, rows: &[ClockPly]) -> Vec<GoClocks> {
    let first = tl.replay.first_ply;
    let n = tl.replay.plies.len();
    let moves: Vec<Spent> = tl
        .replay
        .plies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mv = &tl.game.moves[p.move_index];
            if MoveComments::of(tl.game.comments_of(mv)).played_off_the_clock() {
                Spent::OffClock
            } else {
                rows.get(i)
                    .and_then(|r| r.used)
                    .map_or(Spent::Unknown, Spent::Ms)
            }
        })
        .collect();
    rebuild(tc, first, &told(tl, first, n), &moves)
}

/// What a move did to its side's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Spent {
    /// It used this many ms (and took the increment).
    Ms(i64),
    /// No source gives its time.
    Unknown,
    /// It was made off the clock (a book move): no time, no increment.
    OffClock,
}

/// Both clocks before each ply from `first`: `told[i]` is what the go line
/// of ply `first + i` gave (one more entry than `moves`), `moves[i]` what
/// that ply's move spent.
pub(super) fn rebuild(
    tc: &TimeControlDef,
    first: u32,
    told: &[Option<[Option<i64>; 2]>],
    moves: &[Spent],
) -> Vec<GoClocks> {
    let mut clocks = [Clock::new(tc), Clock::new(tc)];
    let mut known = [true, true];
    let mut read = false;
    let mut out = Vec::with_capacity(told.len());
    for (i, go) in told.iter().enumerate() {
        out.push(GoClocks {
            expected: [0, 1].map(|k| known[k].then(|| clocks[k].left())),
            from_start: !read,
        });
        for (k, ms) in go.iter().flat_map(|g| g.iter().enumerate()) {
            if let Some(ms) = ms {
                clocks[k].set(*ms);
                known[k] = true;
                read = true;
            }
        }
        let k = usize::from((first + i as u32).is_multiple_of(2));
        match moves.get(i) {
            Some(Spent::Ms(u)) => {
                clocks[k].spend(*u);
            }
            Some(Spent::Unknown) => known[k] = false,
            Some(Spent::OffClock) | None => {}
        }
    }
    out
}
