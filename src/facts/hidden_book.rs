//! Hidden opening books: runs of out-of-book moves with no search behind
//! them.
//!
//! An engine that plays from an internal book after the event's official
//! opening has ended answers at once, with no search: no `info` lines, no
//! or very few nodes, depth 0 or 1, next to no time. One such move proves
//! nothing: an engine also moves at once when the move is forced, when it
//! predicted the opponent's reply (a ponder hit, or the reply its own PV
//! expected, so the answer is in its hash), when it recaptures, or when a
//! tablebase decides. So each move without search evidence is first
//! checked against those explanations. Only a run is flagged: `min_run` of
//! the side's moves in a row without search (no searched move between), at
//! least half of them unexplained; its unexplained moves are the flagged
//! ones.
//!
//! The evidence for a move comes from the engine log when one covers it
//! (the search that chose the move: its `info` lines, final depth, nodes,
//! `go` to `bestmove` time), else from the record's comment (TCEC `d`, `n`,
//! `mt`; cutechess's depth and time).

use shakmaty::Position;

use crate::base::value::Value;
use crate::timeline::{Data, Kind, Timeline};

/// Thresholds, as the ruleset gives them.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Unexplained searchless moves of a side in a row that make a run.
    pub min_run: usize,
    /// At most this many nodes is no search.
    pub max_nodes: u64,
    /// With no node count: at most this depth …
    pub max_depth: u32,
    /// … and at most this much time (ms) is no search.
    pub max_time: i64,
    /// Positions with at most this many pieces are a tablebase's.
    pub tb_pieces: u32,
    /// A move whose own comment carries a principal variation was made at
    /// once from the tree the engine kept (Lc0 in time trouble writes
    /// `d=1, n=0` and its previous search's PV): explained, not a book.
    pub kept_tree: bool,
    /// A node count of 0 says nothing (the 4k engines write `n=0` on every
    /// move, searched or not): such a move is judged by its depth and
    /// time, as one with no node count.
    pub zero_nodes_unknown: bool,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            min_run: 6,
            max_nodes: 1000,
            max_depth: 1,
            max_time: 100,
            tb_pieces: 7,
            kept_tree: false,
            zero_nodes_unknown: false,
        }
    }
}

/// What the sources say about one move's search.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Search {
    pub source: &'static str,
    /// Where the engine log shows the search: (file, the `go` line, its
    /// timestamp as written). Boxed: only an engine log gives it, and a
    /// search of every ply is moved twice.
    pub place: Option<Box<SearchPlace>>,
    pub info_lines: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time_ms: Option<i64>,
}

impl Search {
    fn describe(&self) -> String {
        let mut v = Vec::new();
        if let Some(i) = self.info_lines {
            v.push(format!("{i} info lines"));
        }
        if let Some(d) = self.depth {
            v.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            v.push(format!("{n} nodes"));
        }
        if let Some(t) = self.time_ms {
            v.push(format!("{t} ms"));
        }
        format!("{} ({})", v.join(", "), self.source)
    }
}

/// A search's place in an engine log: (file, the `go` line, its timestamp
/// as written).
pub type SearchPlace = (String, Option<crate::base::span::Span>, Option<String>);

/// One move's assessment.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    pub ply: u32,
    pub white: bool,
    pub search: Option<Search>,
    /// No search evidence (None: the sources do not say).
    pub searchless: Option<bool>,
    /// The innocent explanation found for a searchless move.
    pub explained: Option<&'static str>,
    /// The length of the run of searchless moves this move belongs to (0
    /// when it belongs to none).
    pub run: usize,
    /// Moves of the side since the official opening ended, this one
    /// included (1 = the side's first move out of book).
    pub since_book: usize,
    pub flagged: bool,
}

impl Assessment {
    /// The evidence, in words; `san` is the move (the replay's SAN at
    /// this ply).
    pub fn evidence(&self, san: &str) -> String {
        format!(
            "{} at ply {}: {}; one of {} moves without a search in a row, the side's move {} out of the official opening",
            san,
            self.ply,
            self.search
                .as_ref()
                .map_or("no search evidence".into(), Search::describe),
            self.run,
            self.since_book
        )
    }
}

fn num(v: Option<&Value>) -> Option<f64> {
    match v {
        Some(Value::Num(x)) => Some(*x),
        _ => None,
    }
}

/// A move's search evidence in the record (its last comment of a
/// book-aware form that reports one), and whether a comment marks it a
/// book move.
fn recorded(comments: &[crate::ingest::pgn::Comment]) -> (Option<Search>, bool) {
    let (mut out, mut book) = (None, false);
    for c in comments {
        book |= c.annotations.is_book();
        if let Some(s) = c.annotations.book_aware_search() {
            out = Some(Search {
                source: "record",
                place: None,
                info_lines: None,
                depth: s.depth,
                nodes: s.nodes,
                time_ms: s.time_ms,
            });
        }
    }
    (out, book)
}

/// Whether the timeline has searches from an engine log.
fn logged(tl: &Timeline<'_>) -> bool {
    tl.events
        .iter()
        .any(|ev| ev.kind == Kind::Engine(crate::timeline::align::EngKind::Search))
}

/// The search evidence of each ply from the engine log (index = ply −
/// first ply), where it covers the move: it is the protocol itself.
fn searches(tl: &Timeline<'_>) -> Vec<Option<Search>> {
    let first = tl.replay.first_ply;
    let mut out: Vec<Option<Search>> = vec![None; tl.replay.plies.len()];
    for ev in &tl.events {
        let (Kind::Engine(crate::timeline::align::EngKind::Search), Data::Engine(e)) =
            (ev.kind, &ev.data)
        else {
            continue;
        };
        let f = |k: &str| e.fields.get(k);
        if matches!(f("pondering"), Some(Value::Bool(true)))
            || matches!(f("matches_board"), Some(Value::Bool(false)))
        {
            continue;
        }
        let Some(ply) = num(f("for_ply")) else {
            continue;
        };
        let Some(slot) = (ply as u32)
            .checked_sub(first)
            .and_then(|i| out.get_mut(i as usize))
        else {
            continue;
        };
        *slot = Some(Search {
            source: "engine log",
            place: Some(Box::new((
                e.source.clone(),
                Some(e.span),
                match f("at") {
                    Some(Value::Str(s)) => Some(s.to_string()),
                    _ => None,
                },
            ))),
            info_lines: num(f("iterations")).map(|x| x as u32),
            depth: num(f("depth")).map(|x| x as u32),
            nodes: num(f("nodes")).map(|x| x as u64),
            time_ms: num(f("elapsed")).map(|x| x as i64),
        });
    }
    out
}

fn searchless(s: &Search, p: &Params) -> Option<bool> {
    if s.info_lines == Some(0) {
        return Some(true);
    }
    if let Some(n) = s.nodes
        && !(n == 0 && p.zero_nodes_unknown)
    {
        return Some(n <= p.max_nodes);
    }
    match (s.depth, s.time_ms) {
        (Some(d), Some(t)) => Some(d <= p.max_depth && t <= p.max_time),
        (Some(d), None) => Some(d <= p.max_depth),
        (None, Some(t)) => Some(t <= p.max_time),
        (None, None) => None,
    }
}

/// A move's [`Assessment::searchless`]: none for a book move (it is made
/// off the clock, from the event's opening), else what its search evidence
/// says.
fn move_searchless(search: Option<&Search>, book: bool, p: &Params) -> Option<bool> {
    if book {
        None
    } else {
        search.and_then(|s| searchless(s, p))
    }
}

/// The engine's own prediction, at its previous move, of the reply the
/// opponent then made: its ponder move and its PV (SAN or UCI), as written
/// in the record (nothing is copied: a move without search may be met at
/// any ply).
fn predicted<'t>(tl: &'t Timeline<'_>, i: usize) -> (Option<&'t str>, Option<&'t str>) {
    let Some(prev) = i.checked_sub(2).map(|j| &tl.replay.plies[j]) else {
        return (None, None);
    };
    let mv = &tl.game.moves[prev.move_index];
    let comments = crate::ingest::comments::MoveComments::of(tl.game.comments_of(mv));
    (comments.ponder_move(), comments.pv())
}

fn same_san(a: &str, b: &str) -> bool {
    a.trim_end_matches(['+', '#', '!', '?']) == b.trim_end_matches(['+', '#', '!', '?'])
}

/// Why a move without search is innocent, if it is.
fn explanation(
    tl: &Timeline<'_>,
    i: usize,
    engine_ponder: &[Option<String>],
    p: &Params,
) -> Option<&'static str> {
    let ply = &tl.replay.plies[i];
    let before = &tl.replay.position_before(i);
    if before.legal_moves().len() == 1 {
        return Some("the only legal move");
    }
    if before.board().occupied().count() as u32 <= p.tb_pieces {
        return Some("a tablebase position");
    }
    if p.kept_tree {
        let own = crate::ingest::comments::MoveComments::of(
            tl.game.comments_of(&tl.game.moves[ply.move_index]),
        );
        if own.pv().is_some_and(|pv| !pv.trim().is_empty()) {
            return Some("a move from the tree the engine kept (its comment carries a PV)");
        }
    }
    if i >= 1 {
        let opp = &tl.replay.plies[i - 1];
        let (pd, pv) = predicted(tl, i);
        let opp_san = opp.san_text();
        if pd.is_some_and(|pd| same_san(pd, &opp_san)) {
            return Some("the engine predicted the opponent's reply (ponder move)");
        }
        // the PV's second and third moves: the opponent's reply and this move
        let mut pv = pv.map(str::split_whitespace).into_iter().flatten().skip(1);
        if i >= 2
            && let (Some(reply), Some(answer)) = (pv.next(), pv.next())
            && same_san(reply, &opp_san)
            && same_san(answer, &ply.san_text())
        {
            return Some("the move its own PV expected, from the hash");
        }
        if let Some(Some(pm)) = i.checked_sub(2).and_then(|j| engine_ponder.get(j))
            && pm.eq_ignore_ascii_case(&opp.uci_text())
        {
            return Some("the engine predicted the opponent's reply (ponder move)");
        }
        if ply.capture && opp.capture && ply.uci_squares().1 == opp.uci_squares().1 {
            return Some("a recapture");
        }
    }
    None
}

/// The ponder move each engine search expected (per ply of the search).
fn engine_ponders(tl: &Timeline<'_>) -> Vec<Option<String>> {
    let first = tl.replay.first_ply;
    let mut out = vec![None; tl.replay.plies.len()];
    for ev in &tl.events {
        let (Kind::Engine(crate::timeline::align::EngKind::Search), Data::Engine(e)) =
            (ev.kind, &ev.data)
        else {
            continue;
        };
        if let (Some(ply), Some(Value::Str(pm))) =
            (num(e.fields.get("for_ply")), e.fields.get("ponder"))
            && let Some(slot) = (ply as u32)
                .checked_sub(first)
                .and_then(|i| out.get_mut(i as usize))
        {
            *slot = Some(pm.to_string());
        }
    }
    out
}

/// Assess every move of the game.
pub fn assess(tl: &Timeline<'_>, p: &Params) -> Vec<Assessment> {
    // an engine log's searches and ponder moves, where the case has one
    let (mut logs, ponders) = if logged(tl) {
        (searches(tl), engine_ponders(tl))
    } else {
        (Vec::new(), Vec::new())
    };
    let mut out: Vec<Assessment> = Vec::with_capacity(tl.replay.plies.len());
    let mut since_book = [0usize; 2];
    for (i, ply) in tl.replay.plies.iter().enumerate() {
        let k = usize::from(!ply.side.is_white());
        let (record, book) = recorded(tl.game.comments_of(&tl.game.moves[ply.move_index]));
        // the engine log's search, moved into the assessment, over the
        // record's
        let search = logs.get_mut(i).and_then(Option::take).or(record);
        if book {
            since_book[k] = 0;
        } else {
            since_book[k] += 1;
        }
        let less = move_searchless(search.as_ref(), book, p);
        let explained = match less {
            Some(true) => explanation(tl, i, &ponders, p),
            _ => None,
        };
        out.push(Assessment {
            ply: ply.ply,
            white: ply.side.is_white(),
            search,
            searchless: less,
            explained,
            run: 0,
            since_book: if book { 0 } else { since_book[k] },
            flagged: false,
        });
    }
    // Runs per side: searchless moves in a row (a searched move or a book
    // move breaks a run). A run is flagged when it is min_run long and at
    // least half of it (rounded up) has no innocent explanation: a book
    // line has its recaptures and forced moves too, but a run of nothing
    // but forced moves and recaptures is not a book.
    let mut run: Vec<usize> = Vec::with_capacity(out.len());
    for white in [true, false] {
        let close = |run: &mut Vec<usize>, out: &mut Vec<Assessment>| {
            let unexplained = run.iter().filter(|&&j| out[j].explained.is_none()).count();
            let flag = run.len() >= p.min_run.max(1) && 2 * unexplained >= run.len();
            for &j in run.iter() {
                out[j].run = run.len();
                out[j].flagged = flag && out[j].explained.is_none();
            }
            run.clear();
        };
        for i in 0..out.len() {
            if out[i].white != white {
                continue;
            }
            if out[i].searchless == Some(true) {
                run.push(i);
            } else {
                close(&mut run, &mut out);
            }
        }
        close(&mut run, &mut out);
    }
    out
}

/// For each ply (its number, in the replay's order), whether the sources
/// say either way whether it was searched ([`Assessment::searchless`] is
/// known), found without assessing the moves, for a game where [`assess`]
/// can flag none: no side has `min_run` searchless moves in a row by the
/// record's comments, and the timeline holds no engine log's search (which
/// [`assess`] would take over the record's). A flag needs such a run, so
/// then every move's assessment is unflagged and, for a rule, only this
/// tells its moves apart. `None` where a run is that long, or the timeline
/// has an engine log's searches: then only [`assess`] tells.
///
/// Nearly every game of a real archive has no such run (S15's longest is
/// 3): this reads each move's comments once and makes nothing, where
/// [`assess`] makes each move's search and assessment.
pub fn unflagged(tl: &Timeline<'_>, p: &Params) -> Option<Vec<(u32, bool)>> {
    if logged(tl) {
        return None;
    }
    let longest = p.min_run.max(1);
    // each side's searchless moves in a row so far, as `assess` counts a run
    let mut run = [0usize; 2];
    let mut out = Vec::with_capacity(tl.replay.plies.len());
    for ply in &tl.replay.plies {
        let k = usize::from(!ply.side.is_white());
        let (record, book) = recorded(tl.game.comments_of(&tl.game.moves[ply.move_index]));
        let less = move_searchless(record.as_ref(), book, p);
        if less == Some(true) {
            run[k] += 1;
            if run[k] >= longest {
                return None;
            }
        } else {
            run[k] = 0;
        }
        out.push((ply.ply, less.is_some()));
    }
    Some(out)
}

/// Read the detector's parameters from a rule's call.
pub fn params(given: &[(&str, Value)]) -> Params {
    let mut p = Params::default();
    for (k, v) in given {
        let Value::Num(x) = v else { continue };
        let x = x.max(0.0);
        match *k {
            "min_run" => p.min_run = x as usize,
            "max_nodes" => p.max_nodes = x as u64,
            "max_depth" => p.max_depth = x as u32,
            "max_time" => p.max_time = x as i64,
            "tb_pieces" => p.tb_pieces = x as u32,
            "kept_tree" => p.kept_tree = x > 0.0,
            "zero_nodes_unknown" => p.zero_nodes_unknown = x > 0.0,
            _ => {}
        }
    }
    p
}

/// Counts over many games, per engine.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct EngineTally {
    pub engine: String,
    pub games: usize,
    /// Moves out of the official opening.
    pub moves: usize,
    /// Of those, moves with search evidence either way.
    pub with_evidence: usize,
    pub searchless: usize,
    /// Searchless moves by the innocent cause found.
    pub explained: std::collections::BTreeMap<String, usize>,
    pub unexplained: usize,
    pub longest_run: usize,
    pub flagged_moves: usize,
    pub flagged_games: Vec<String>,
    /// Unexplained searchless moves (position and move) this engine also
    /// played without search in another game: a line it repeats.
    pub repeated: usize,
}

/// Tally one game's assessments into per-engine counts.
pub fn tally(
    tallies: &mut std::collections::BTreeMap<String, EngineTally>,
    seen: &mut std::collections::BTreeMap<(String, String, String), usize>,
    game_label: &str,
    white: &str,
    black: &str,
    tl: &Timeline<'_>,
    found: &[Assessment],
) {
    for (name, is_white) in [(white, true), (black, false)] {
        let t = tallies
            .entry(name.to_string())
            .or_insert_with(|| EngineTally {
                engine: name.to_string(),
                ..EngineTally::default()
            });
        t.games += 1;
        let mut flagged = false;
        for (a, ply) in found.iter().zip(&tl.replay.plies) {
            if a.white != is_white || a.since_book == 0 {
                continue;
            }
            t.moves += 1;
            if a.searchless.is_some() {
                t.with_evidence += 1;
            }
            if a.searchless == Some(true) {
                t.searchless += 1;
                match a.explained {
                    Some(why) => *t.explained.entry(why.to_string()).or_default() += 1,
                    None => {
                        t.unexplained += 1;
                        // the position after the move, with the move, names the pair
                        let key = (
                            name.to_string(),
                            tl.replay.fen_after(ply),
                            ply.uci.to_string(),
                        );
                        let n = seen.entry(key).or_default();
                        *n += 1;
                        if *n == 2 {
                            t.repeated += 1;
                        }
                    }
                }
            }
            t.longest_run = t.longest_run.max(a.run);
            if a.flagged {
                t.flagged_moves += 1;
                flagged = true;
            }
        }
        if flagged {
            t.flagged_games.push(game_label.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, san::San};

    /// A game of random legal moves, each with a comment drawn from the
    /// forms the detector reads (TCEC's with and without nodes, a book
    /// move, cutechess's), none, or two; searchless ones often, so that
    /// runs of every length occur.
    fn game_text(rng: &mut crate::test_rng::Lcg) -> String {
        const COMMENTS: [&str; 9] = [
            "{d=1, n=0, mt=0}",
            "{d=1, n=800, mt=20}",
            "{d=1, mt=50}",
            "{d=24, n=5000000, mt=3000}",
            "{d=3}",
            "{book}",
            "{+0.10/1 0.01s}",
            "{-0.25/24 1.2s}",
            "{just text}",
        ];
        let mut pos = Chess::default();
        let mut text = String::from("[Event \"t\"]\n\n");
        let plies = 4 + rng.below(40);
        for i in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            text.push_str(&San::from_move(&pos, m).to_string());
            text.push(' ');
            for _ in 0..rng.below(3) {
                text.push_str(COMMENTS[rng.below(COMMENTS.len())]);
                text.push(' ');
            }
            pos.play_unchecked(m);
        }
        text.push_str("*\n");
        text
    }

    /// With `zero_nodes_unknown`, `n=0` says nothing: a long deep search
    /// that wrote it is a search, a move of depth 1 in no time is not, and
    /// a real count is read as before.
    #[test]
    fn a_zero_node_count_can_be_no_evidence() {
        let s = |depth, nodes, time_ms| Search {
            source: "record",
            depth: Some(depth),
            nodes: Some(nodes),
            time_ms: Some(time_ms),
            ..Search::default()
        };
        let plain = Params::default();
        let unknown = Params {
            zero_nodes_unknown: true,
            ..Params::default()
        };
        // a 4k engine's searched move: d=35, mt=50 s, n=0
        assert_eq!(searchless(&s(35, 0, 50_778), &plain), Some(true));
        assert_eq!(searchless(&s(35, 0, 50_778), &unknown), Some(false));
        // a move made at once
        assert_eq!(searchless(&s(1, 0, 0), &unknown), Some(true));
        // a count the engine did report
        assert_eq!(searchless(&s(1, 500, 0), &unknown), Some(true));
        assert_eq!(searchless(&s(20, 747_984, 39_835), &unknown), Some(false));
        // n=0 and nothing else: no evidence either way
        let bare = Search {
            nodes: Some(0),
            ..Search::default()
        };
        assert_eq!(searchless(&bare, &unknown), None);
        assert_eq!(params(&[("zero_nodes_unknown", Value::Num(1.0))]), unknown);
    }

    /// Where `unflagged` answers, it gives what the whole assessment gives
    /// each move (whether its searchlessness is known, and no flag); where
    /// it does not, a run of `min_run` searchless moves is there.
    #[test]
    fn unflagged_is_the_assessment_where_nothing_can_be_flagged() {
        let mut rng = crate::test_rng::Lcg(33);
        let (mut answered, mut declined) = (0, 0);
        for _ in 0..400 {
            let text = game_text(&mut rng);
            let chunk = crate::ingest::pgn::GameChunk::of_text(0, 0, 1, text.clone().into_bytes());
            let game = crate::ingest::pgn::parse_game(&chunk);
            let replay = crate::replay::replay(&game);
            let tl = Timeline::build(&game, &replay);
            for min_run in 0..=5 {
                for max_nodes in [0, 1000] {
                    let p = Params {
                        min_run,
                        max_nodes,
                        ..Params::default()
                    };
                    let whole = assess(&tl, &p);
                    match unflagged(&tl, &p) {
                        Some(known) => {
                            answered += 1;
                            let want: Vec<(u32, bool)> = whole
                                .iter()
                                .map(|a| (a.ply, a.searchless.is_some()))
                                .collect();
                            assert_eq!(known, want, "{text}");
                            assert!(whole.iter().all(|a| !a.flagged), "{text}");
                        }
                        None => {
                            declined += 1;
                            let longest = whole.iter().map(|a| a.run).max().unwrap_or(0);
                            assert!(longest >= min_run.max(1), "{text}");
                        }
                    }
                }
            }
        }
        assert!(
            answered > 500 && declined > 500,
            "{answered} and {declined}"
        );
    }
}
