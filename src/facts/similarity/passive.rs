//! The passive test: what engines chose in the same positions of an
//! event's own games, from the moves they played and the moves their PVs
//! said they would play, weighted by how open each position was.

use std::collections::BTreeMap;

use shakmaty::{EnPassantMode, Position, fen::Epd, san::San};

use crate::ingest::comments::{MoveComments, Score};

/// How far into a PV its engine's own later moves are read.
pub const PV_PLIES: usize = 7;

/// One engine's choice in one position.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub engine: String,
    /// The position (EPD: placement, side, castling, en passant).
    pub key: String,
    pub uci: String,
    /// Played (true) or read from a PV (false).
    pub played: bool,
    /// ln(legal moves) / ln(30), at most 1: 0 when the move was forced.
    pub weight: f64,
    /// A played move's evaluation (a book-aware form's score), in
    /// centipawns from the side to move, clipped as the signatures clip.
    pub score: Option<f64>,
    /// A played move's PV (UCI), its first plies.
    pub pv: Vec<String>,
}

fn weight(pos: &shakmaty::Chess) -> f64 {
    let n = pos.legal_moves().len() as f64;
    if n <= 1.0 {
        0.0
    } else {
        (n.ln() / 30f64.ln()).min(1.0)
    }
}

/// The choices of one game's engines, out of the official opening.
pub fn choices(game: &crate::ingest::pgn::PgnGame, replay: &crate::replay::Replay) -> Vec<Choice> {
    let mut out = Vec::new();
    let name = |white: bool| {
        game.tag(if white { "White" } else { "Black" })
            .unwrap_or("?")
            .to_string()
    };
    for (i, p) in replay.plies.iter().enumerate() {
        let mv = &game.moves[p.move_index];
        // an engine's move, as a form that marks book moves says
        let comments = MoveComments::of(game.comments_of(mv));
        if comments.book() || !comments.has_book_aware_comment() {
            continue;
        }
        let before = &replay.position_before(i);
        let engine = name(p.side.is_white());
        let key = |pos: &shakmaty::Chess| Epd::from_position(pos, EnPassantMode::Legal).to_string();
        // clipped in the view it is written from, then turned to the mover's
        let clipped = |s: Score| match s {
            Score::Cp(cp) => super::signature::clip(Some(i64::from(cp)), None),
            Score::Mate(m) => super::signature::clip(None, Some(i64::from(m))),
        };
        let score = match (
            comments.book_aware_score_from_white(),
            comments.book_aware_score_from_mover(),
        ) {
            (Some(wv), _) => clipped(wv).map(|v| if p.side.is_white() { v } else { -v }),
            (None, Some(s)) => clipped(s),
            (None, None) => None,
        };
        let at = out.len();
        out.push(Choice {
            engine: engine.clone(),
            key: key(before),
            uci: p.uci.to_string(),
            played: true,
            weight: weight(before),
            score,
            pv: Vec::new(),
        });
        // the engine's own later moves in its PV
        let Some(pv) = comments.pv() else {
            continue;
        };
        let mut pos = before.clone();
        let mut line = Vec::new();
        for (k, san) in pv.split_whitespace().take(PV_PLIES).enumerate() {
            let Ok(san) = san.trim_end_matches(['+', '#']).parse::<San>() else {
                break;
            };
            let Ok(m) = san.to_move(&pos) else { break };
            let uci = m.to_uci(shakmaty::CastlingMode::Standard).to_string();
            if k > 0 && k % 2 == 0 {
                out.push(Choice {
                    engine: engine.clone(),
                    key: key(&pos),
                    uci: uci.clone(),
                    played: false,
                    weight: weight(&pos),
                    score: None,
                    pv: Vec::new(),
                });
            }
            if line.len() < super::signature::PV_PLIES {
                line.push(uci);
            }
            pos.play_unchecked(m);
        }
        out[at].pv = line;
    }
    out
}

/// The evaluation signatures of an event's own games: positions where
/// engines played a move (not book, not read from a PV), each engine's
/// move (its most frequent there), mean score and first PV. The residuals
/// need positions that at least [`super::signature::MIN_SCORERS`] engines
/// played and scored.
pub fn signature(
    choices: &[Choice],
    settings: &super::signature::Settings,
) -> super::signature::Signature {
    use super::signature::Said;
    let mut engines: Vec<&str> = choices
        .iter()
        .filter(|c| c.played)
        .map(|c| c.engine.as_str())
        .collect();
    engines.sort_unstable();
    engines.dedup();
    let idx: BTreeMap<&str, usize> = engines.iter().enumerate().map(|(i, e)| (*e, i)).collect();
    // key -> engine -> (moves, scores, first pv)
    type Seen<'a> = (BTreeMap<&'a str, usize>, Vec<f64>, &'a [String]);
    let mut table: BTreeMap<&str, BTreeMap<usize, Seen<'_>>> = BTreeMap::new();
    for c in choices.iter().filter(|c| c.played) {
        let slot = table
            .entry(c.key.as_str())
            .or_default()
            .entry(idx[c.engine.as_str()])
            .or_insert_with(|| (BTreeMap::new(), Vec::new(), c.pv.as_slice()));
        *slot.0.entry(c.uci.as_str()).or_default() += 1;
        slot.1.extend(c.score);
    }
    // only positions two engines or more played can be shared
    table.retain(|_, per| per.len() >= 2);
    // position by position, only the engines that played there (a field
    // of engines by positions would be mostly empty)
    let field: Vec<Vec<(usize, Said)>> = table
        .values()
        .map(|per| {
            per.iter()
                .map(|(&e, (moves, scores, pv))| {
                    let mv = most_chosen(moves);
                    let score = (!scores.is_empty())
                        .then(|| scores.iter().sum::<f64>() / scores.len() as f64);
                    let said = Said {
                        mv,
                        score,
                        pv: pv.to_vec(),
                    };
                    (e, said)
                })
                .collect()
        })
        .collect();
    let names: Vec<String> = engines.iter().map(|e| e.to_string()).collect();
    let mut sig = super::signature::analyze_field(&names, &field, settings);
    sig.notes.push(format!(
        "{} positions were played by two engines or more; {} by {} or more with an evaluation, which is what the residuals need",
        table.len(),
        sig.consensus_positions,
        super::signature::MIN_SCORERS
    ));
    sig
}

/// The move chosen most often; of equals, the first in UCI order.
fn most_chosen(counts: &BTreeMap<&str, usize>) -> Option<String> {
    counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(m, _)| m.to_string())
}

/// How often an engine chose each move in a position: (played, from PVs).
type Counts<'a> = (BTreeMap<&'a str, usize>, BTreeMap<&'a str, usize>);

/// Pairwise weighted agreement in shared positions. An engine's choice
/// in a position is the move it played there most often, else the move
/// its PVs gave most often. Pairs with fewer than `min_positions`
/// shared positions get no match and stay out of the field.
pub fn analyze(
    choices: &[Choice],
    min_positions: usize,
    settings: &super::signature::Settings,
) -> super::Report {
    let mut engines: Vec<String> = choices.iter().map(|c| c.engine.clone()).collect();
    engines.sort();
    engines.dedup();
    let idx: BTreeMap<&str, usize> = engines
        .iter()
        .enumerate()
        .map(|(i, e)| (e.as_str(), i))
        .collect();
    // key -> engine -> (played counts, pv counts), weight
    let mut table: BTreeMap<&str, (f64, BTreeMap<usize, Counts<'_>>)> = BTreeMap::new();
    for c in choices {
        let e = idx[c.engine.as_str()];
        let entry = table
            .entry(c.key.as_str())
            .or_insert((c.weight, BTreeMap::new()));
        let slot = entry.1.entry(e).or_default();
        let counts = if c.played { &mut slot.0 } else { &mut slot.1 };
        *counts.entry(c.uci.as_str()).or_default() += 1;
    }
    let pick = |s: &Counts<'_>| most_chosen(if s.0.is_empty() { &s.1 } else { &s.0 });
    let n = engines.len();
    let mut same = vec![vec![0f64; n]; n];
    let mut total = vec![vec![0f64; n]; n];
    let mut common = vec![vec![0usize; n]; n];
    for (w, per) in table.values() {
        if *w <= 0.0 || per.len() < 2 {
            continue;
        }
        let chosen: Vec<(usize, String)> = per
            .iter()
            .filter_map(|(e, s)| pick(s).map(|m| (*e, m)))
            .collect();
        for (a, ma) in &chosen {
            for (b, mb) in &chosen {
                if a == b {
                    continue;
                }
                common[*a][*b] += 1;
                total[*a][*b] += w;
                if ma == mb {
                    same[*a][*b] += w;
                }
            }
        }
    }
    let mut matches = vec![vec![None; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && common[i][j] >= min_positions.max(1) && total[i][j] > 0.0 {
                matches[i][j] = Some(same[i][j] / total[i][j]);
            }
        }
    }
    let mut r = super::Report {
        engines,
        positions: table.len(),
        matches,
        common,
        z: vec![vec![None; n]; n],
        self_match: vec![None; n],
        failures: BTreeMap::new(),
        signature: None,
    };
    r.z = super::z_scores(&r.matches);
    r.signature = Some(signature(choices, settings));
    r
}
