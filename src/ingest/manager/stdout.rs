//! The standard output of fastchess and cutechess-cli, line by line:
//! `Started game N of M (A vs B)`, `Finished game N (A vs B): R {reason}`,
//! the warnings with their context lines (fastchess's `Warning; …`
//! followed by `Info; …`, `Position; …`, `Moves; …`), and the tallies
//! (fastchess's `Results of A vs B` block and its round robin's ranking
//! table, cutechess's `Score of A vs B: W - L - D` and its colour lines).
//! The manager's own lines that carry nothing to check (separators, Elo
//! and SPRT figures, the per-player reason counts, `Finished match`) are
//! notes. Any other line is kept as unclaimed, never dropped.

use crate::base::span::Span;
use crate::ingest::engine::Segment;

/// A warning the manager wrote during a game.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// The game running when it was written (its number), if one was.
    pub game: Option<u64>,
    /// The warning's text, after `Warning; `.
    pub text: String,
    /// The engine it names (`… from NAME`) and the move (`move e2e4`).
    pub engine: Option<String>,
    pub mv: Option<String>,
    /// The plies of its `Moves;` context line: the warning is about the
    /// search of the position after them.
    pub plies: Option<u32>,
    /// The `Position;` context: `startpos` or the FEN.
    pub position: Option<String>,
    pub span: Span,
}

/// Who a tally counts.
#[derive(Debug, Clone, PartialEq)]
pub enum Counted {
    /// `A`'s wins, losses and draws against `B` (fastchess's `Results of A
    /// vs B` block, cutechess's `Score of A vs B`).
    Pair(String, String),
    /// `A`'s games with one colour against `B` (cutechess's `A playing
    /// White`), `true` for White.
    Colour(String, String, bool),
    /// White's wins, Black's wins and the draws of `A` against `B`
    /// (cutechess's `White vs Black`).
    WhiteBlack(String, String),
    /// One engine's games in a round robin (fastchess's ranking table):
    /// `wins` holds its score in tenths of a percent, `draws` its `Draw`
    /// column likewise (the share of its pairs of games it scored 1 of 2
    /// in), `losses` is unused.
    Ranked(String),
}

/// A tally the manager wrote: the results of the games finished before
/// it.
#[derive(Debug, Clone, PartialEq)]
pub struct Tally {
    pub counted: Counted,
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub span: Span,
    /// How many of the output's `Finished game` lines came before it.
    pub after: usize,
}

/// A manager's standard output, read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ManagerStdout {
    /// Each game as `Started`/`Finished` name it, in the order started.
    pub games: Vec<Segment>,
    pub warnings: Vec<Warning>,
    pub tallies: Vec<Tally>,
    /// Lines read, and the manager's lines that are notes.
    pub lines: u64,
    pub notes: u64,
    /// Lines nothing here reads: their span and text.
    pub unclaimed: Vec<(Span, String)>,
    /// The games come in pairs of swapped colours (`engine::Split::paired`).
    pub paired: bool,
}

/// Where the context lines of a warning go.
#[derive(Debug, PartialEq)]
enum After {
    Nothing,
    Warning,
    /// fastchess's ranking table, after its header.
    Ranking,
    /// Between a `Results of A vs B` line and its `Games:` line.
    Results(String, String),
}

/// Read a manager's standard output.
pub fn parse(text: &str) -> ManagerStdout {
    let mut out = ManagerStdout::default();
    let mut after = After::Nothing;
    let mut finished = 0usize;
    let mut pair = (String::new(), String::new());
    let mut offset = 0u64;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let line = raw.trim_end_matches(['\n', '\r']);
        let span = Span {
            offset,
            len: line.len() as u64,
            line: i as u64 + 1,
            column: 1,
        };
        offset += raw.len() as u64;
        out.lines += 1;
        let running = out
            .games
            .iter()
            .rev()
            .find(|g| g.result.is_none())
            .map(|g| g.game);
        if let Some((n, _, white, black)) = crate::ingest::engine::cute_start(line.trim()) {
            out.games.push(Segment {
                game: n,
                white: white.to_string(),
                black: black.to_string(),
                result: None,
                start: span,
                end: span,
                start_of_day: None,
            });
            after = After::Nothing;
            continue;
        }
        if let Some((n, result, reason)) = crate::ingest::engine::cute_finish(line.trim())
            && let Some(g) = out
                .games
                .iter_mut()
                .rev()
                .find(|g| g.game == n && g.result.is_none())
        {
            g.result = Some((result.to_string(), reason.map(str::to_string), span));
            g.end = span;
            finished += 1;
            after = After::Nothing;
            continue;
        }
        if let Some(w) = line.strip_prefix("Warning; ") {
            out.warnings.push(warning(w, running, span));
            after = After::Warning;
            continue;
        }
        if after == After::Warning
            && let Some(last) = out.warnings.last_mut()
            && context(last, line)
        {
            out.notes += 1;
            continue;
        }
        if let Some(t) = tally_line(line, &mut after, &mut pair, span, finished) {
            out.tallies.extend(t);
            continue;
        }
        if note(line, &mut after) {
            out.notes += 1;
            continue;
        }
        after = After::Nothing;
        out.unclaimed.push((span, line.to_string()));
    }
    out.paired = crate::ingest::engine::paired_games(out.games.iter());
    out
}

/// A tally that is not what the `Finished game` lines before it give.
#[derive(Debug, Clone, PartialEq)]
pub struct TallyDiff<'s> {
    pub tally: &'s Tally,
    /// What the games finished before it give: games, wins, losses,
    /// draws (as the tally counts them).
    pub counted: (u64, u64, u64, u64),
    /// The last game finished before it (the game it is said on).
    pub last: Option<&'s Segment>,
}

impl ManagerStdout {
    /// The tallies that disagree with the output's own `Finished game`
    /// lines before them (each of which is checked against its PGN game).
    pub fn tally_diffs(&self) -> Vec<TallyDiff<'_>> {
        let mut out = Vec::new();
        for t in &self.tallies {
            let before: Vec<&Segment> = self
                .games
                .iter()
                .filter(|g| g.result.as_ref().is_some_and(|r| r.2.line < t.span.line))
                .collect();
            let counted = count(&t.counted, &before);
            let got = (t.games, t.wins, t.losses, t.draws);
            let same = match t.counted {
                // percentages to a tenth: one tenth either way is rounding
                Counted::Ranked(_) => {
                    got.0 == counted.0
                        && got.1.abs_diff(counted.1) <= 1
                        && got.3.abs_diff(counted.3) <= 1
                }
                _ => got == counted,
            };
            if !same {
                let last = before
                    .iter()
                    .max_by_key(|g| g.result.as_ref().map(|r| r.2.line))
                    .copied();
                out.push(TallyDiff {
                    tally: t,
                    counted,
                    last,
                });
            }
        }
        out
    }
}

/// What `games` give for tally `c`: games, wins, losses, draws.
fn count(c: &Counted, games: &[&Segment]) -> (u64, u64, u64, u64) {
    let mut n = (0, 0, 0, 0);
    let mut points2 = 0u64;
    for g in games {
        let Some((r, _, _)) = &g.result else { continue };
        let (w, b) = (g.white.as_str(), g.black.as_str());
        let white_won = match r.as_str() {
            "1-0" => Some(true),
            "0-1" => Some(false),
            _ => None,
        };
        let between = |x: &str, y: &str| (w == x && b == y) || (w == y && b == x);
        // (the side counted, as White) where the game counts
        let side: Option<bool> = match c {
            Counted::Pair(a, o) if between(a, o) => Some(w == a),
            Counted::Colour(a, o, white) if between(a, o) && (w == a) == *white => Some(*white),
            Counted::WhiteBlack(a, o) if between(a, o) => Some(true),
            Counted::Ranked(a) if w == a || b == a => Some(w == a),
            _ => None,
        };
        let Some(as_white) = side else { continue };
        n.0 += 1;
        match white_won {
            Some(ww) if ww == as_white => {
                n.1 += 1;
                points2 += 2;
            }
            Some(_) => n.2 += 1,
            None => {
                n.3 += 1;
                points2 += 1;
            }
        }
    }
    if let Counted::Ranked(a) = c
        && n.0 > 0
    {
        let tenths = |x: f64, of: u64| (x * 1000.0 / of as f64).round() as u64;
        let (pairs, even) = pairs_scored_even(a, games);
        let draws = if pairs == 0 {
            0
        } else {
            tenths(even as f64, pairs)
        };
        return (n.0, tenths(points2 as f64 / 2.0, n.0), 0, draws);
    }
    n
}

/// `a`'s pairs of games (game 2k-1 and game 2k, both `a`'s) and how many
/// of them it scored 1 of 2 in: fastchess's `Draw` column is that share
/// (the pentanomial's middle), not the share of drawn games.
fn pairs_scored_even(a: &str, games: &[&Segment]) -> (u64, u64) {
    // a's points in a game, doubled
    let points = |g: &Segment| -> Option<u64> {
        let (r, _, _) = g.result.as_ref()?;
        let white = if g.white == a {
            true
        } else if g.black == a {
            false
        } else {
            return None;
        };
        Some(match (r.as_str(), white) {
            ("1-0", true) | ("0-1", false) => 2,
            ("1-0", false) | ("0-1", true) => 0,
            _ => 1,
        })
    };
    let (mut pairs, mut even) = (0, 0);
    for g in games.iter().filter(|g| g.game % 2 == 1) {
        let Some(h) = games.iter().find(|h| h.game == g.game + 1) else {
            continue;
        };
        if let (Some(x), Some(y)) = (points(g), points(h)) {
            pairs += 1;
            even += u64::from(x + y == 2);
        }
    }
    (pairs, even)
}

/// The warning `w` (after `Warning; `), written during game `game`.
fn warning(w: &str, game: Option<u64>, span: Span) -> Warning {
    let engine = w.rsplit_once(" from ").map(|(_, e)| e.trim().to_string());
    let mv = w
        .split_once(" move ")
        .and_then(|(_, m)| m.split_whitespace().next())
        .map(str::to_string);
    Warning {
        game,
        text: w.to_string(),
        engine,
        mv,
        plies: None,
        position: None,
        span,
    }
}

/// A context line of warning `w`: `Info; …` (the engine's line),
/// `Position; …`, `Moves; …`.
fn context(w: &mut Warning, line: &str) -> bool {
    if line.starts_with("Info; ") {
        return true;
    }
    if let Some(p) = line.strip_prefix("Position; ") {
        w.position = Some(p.strip_prefix("fen ").unwrap_or(p).trim().to_string());
        return true;
    }
    if let Some(m) = line.strip_prefix("Moves;") {
        w.plies = Some(m.split_whitespace().count() as u32);
        return true;
    }
    false
}

/// A tally line, read into the tallies it holds (none for a line of a
/// tally's block that holds no count).
fn tally_line(
    line: &str,
    after: &mut After,
    pair: &mut (String, String),
    span: Span,
    finished: usize,
) -> Option<Vec<Tally>> {
    let t = line.trim();
    let make = |counted: Counted, games: u64, wins: u64, losses: u64, draws: u64| Tally {
        counted,
        games,
        wins,
        losses,
        draws,
        span,
        after: finished,
    };
    // fastchess: `Results of A vs B (…):`, then `Games: N, Wins: …`
    if let Some(rest) = t.strip_prefix("Results of ") {
        let names = rest.split_once(" (").map_or(rest, |(n, _)| n);
        let (a, b) = names.trim_end_matches(':').split_once(" vs ")?;
        *after = After::Results(a.to_string(), b.to_string());
        return Some(Vec::new());
    }
    if let After::Results(a, b) = &*after
        && let Some(rest) = t.strip_prefix("Games: ")
    {
        let field = |k: &str| -> Option<u64> {
            let (_, v) = rest.split_once(k)?;
            v.split(',').next()?.trim().parse().ok()
        };
        let games = rest.split(',').next()?.trim().parse().ok()?;
        let got = make(
            Counted::Pair(a.clone(), b.clone()),
            games,
            field("Wins: ")?,
            field("Losses: ")?,
            field("Draws: ")?,
        );
        *after = After::Nothing;
        return Some(vec![got]);
    }
    // fastchess's ranking table
    if t.starts_with("Rank Name ") {
        *after = After::Ranking;
        return Some(Vec::new());
    }
    if *after == After::Ranking
        && let Some((left, _)) = t.split_once('[')
    {
        let words: Vec<&str> = left.split_whitespace().collect();
        if words.len() >= 9 && words[0].parse::<u64>().is_ok() {
            let n = words.len();
            let tenths = |w: &str| -> Option<u64> {
                let v: f64 = w.strip_suffix('%')?.parse().ok()?;
                Some((v * 10.0).round() as u64)
            };
            let name = words[1..n - 7].join(" ");
            return Some(vec![make(
                Counted::Ranked(name),
                words[n - 3].parse().ok()?,
                tenths(words[n - 2])?,
                0,
                tenths(words[n - 1])?,
            )]);
        }
    }
    // cutechess: `Score of A vs B: W - L - D  [0.500] N`
    if let Some(rest) = t.strip_prefix("Score of ") {
        let (names, counts) = rest.split_once(": ")?;
        let (a, b) = names.split_once(" vs ")?;
        let (w, l, d, n) = wld(counts)?;
        *pair = (a.to_string(), b.to_string());
        return Some(vec![make(
            Counted::Pair(a.to_string(), b.to_string()),
            n,
            w,
            l,
            d,
        )]);
    }
    // cutechess: `...      A playing White: W - L - D  [1.000] N`, after
    // its pair's `Score of` line
    if let Some(rest) = t.strip_prefix("...") {
        let (what, counts) = rest.trim().split_once(": ")?;
        let (w, l, d, n) = wld(counts)?;
        let (a, b) = pair.clone();
        let counted = if what == "White vs Black" {
            Counted::WhiteBlack(a, b)
        } else if what.strip_suffix(" playing White") == Some(a.as_str()) {
            Counted::Colour(a, b, true)
        } else if what.strip_suffix(" playing Black") == Some(a.as_str()) {
            Counted::Colour(a, b, false)
        } else {
            return None;
        };
        return Some(vec![make(counted, n, w, l, d)]);
    }
    None
}

/// `W - L - D  [0.500] N`.
fn wld(counts: &str) -> Option<(u64, u64, u64, u64)> {
    let (wld, rest) = counts.split_once('[')?;
    let mut parts = wld.split('-').map(|p| p.trim().parse::<u64>());
    let (w, l, d) = (
        parts.next()?.ok()?,
        parts.next()?.ok()?,
        parts.next()?.ok()?,
    );
    let n = rest.split_once(']')?.1.trim().parse().ok()?;
    Some((w, l, d, n))
}

/// A line of the manager's that carries nothing checked here.
fn note(line: &str, after: &mut After) -> bool {
    let t = line.trim();
    if t.is_empty() || (t.len() >= 10 && t.bytes().all(|b| b == b'-')) {
        return true;
    }
    const STARTS: [&str; 10] = [
        "Elo: ",
        "LOS: ",
        "Ptnml(0-2): ",
        "Finished match",
        "Total Time: ",
        "Elo difference: ",
        "SPRT: ",
        "Player: ",
        "\"Win: ",
        "\"Loss: ",
    ];
    if STARTS.iter().any(|s| t.starts_with(s)) || t.starts_with("\"Draw: ") {
        return true;
    }
    // the ranking table's rows are tallies; nothing else continues it
    if *after == After::Ranking {
        *after = After::Nothing;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    const FASTCHESS: &str = "Started game 1 of 2 (A vs B)\n\
Warning; PV continues after fifty-move rule - move c1b2 from B\n\
Info; info depth 2 score cp 0 pv b1c1\n\
Position; fen 8/8/8/8/8/8/8/K1k5 w - - 0 9\n\
Moves; e2e4 e7e5 g1f3\n\
Finished game 1 (A vs B): 1-0 {White mates}\n\
Started game 2 of 2 (B vs A)\n\
Finished game 2 (B vs A): 1/2-1/2 {Draw by adjudication}\n\
--------------------------------------------------\n\
Results of A vs B (10+0.1, 1t, 16MB, o.epd):\n\
Elo: 1 +/- 2, nElo: 3 +/- 4\n\
Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)\n\
Finished match\n\
something else\n";

    #[test]
    fn games_warnings_tallies_and_the_rest() {
        let s = parse(FASTCHESS);
        assert_eq!(s.lines, 14);
        assert_eq!(s.games.len(), 2);
        assert_eq!(
            s.games[1]
                .result
                .as_ref()
                .map(|r| (r.0.as_str(), r.1.as_deref(), r.2.line)),
            Some(("1/2-1/2", Some("Draw by adjudication"), 8))
        );
        assert!(s.paired);
        let w = &s.warnings[0];
        assert_eq!(w.game, Some(1));
        assert_eq!(
            (w.engine.as_deref(), w.mv.as_deref()),
            (Some("B"), Some("c1b2"))
        );
        assert_eq!(w.plies, Some(3));
        assert_eq!(w.position.as_deref(), Some("8/8/8/8/8/8/8/K1k5 w - - 0 9"));
        assert_eq!(w.span.line, 2);
        assert_eq!(s.tallies.len(), 1);
        let t = &s.tallies[0];
        assert_eq!(t.counted, Counted::Pair("A".into(), "B".into()));
        assert_eq!(
            (t.games, t.wins, t.losses, t.draws, t.after),
            (2, 1, 0, 1, 2)
        );
        assert_eq!(s.unclaimed.len(), 1);
        assert_eq!(s.unclaimed[0].0.line, 14);
        assert_eq!(s.lines, 14);
    }

    #[test]
    fn cutechess_scores_and_a_ranking_table() {
        let s = parse(
            "Score of SF vs ETH: 3 - 1 - 2  [0.667] 6\n\
...      SF playing White: 2 - 0 - 1  [0.833] 3\n\
...      White vs Black: 4 - 0 - 2  [0.833] 6\n\
Rank Name    Elo   +/-   nElo   +/-   Games   Score   Draw   Ptnml(0-2)\n\
   1 Stock fish   inf  -nan  inf  -nan  8  100.0%  0.0%  [0, 0, 0, 0, 4]\n",
        );
        assert!(s.unclaimed.is_empty(), "{:?}", s.unclaimed);
        assert_eq!(s.tallies.len(), 4);
        assert_eq!(
            (
                s.tallies[0].wins,
                s.tallies[0].losses,
                s.tallies[0].draws,
                s.tallies[0].games
            ),
            (3, 1, 2, 6)
        );
        assert_eq!(
            s.tallies[1].counted,
            Counted::Colour("SF".into(), "ETH".into(), true)
        );
        assert_eq!(s.tallies[3].counted, Counted::Ranked("Stock fish".into()));
        assert_eq!((s.tallies[3].games, s.tallies[3].wins), (8, 1000));
        // no game finished before them: every tally disagrees
        assert_eq!(s.tally_diffs().len(), 4);
    }

    #[test]
    fn a_tally_is_checked_against_the_games_before_it() {
        let s = parse(FASTCHESS);
        assert!(s.tally_diffs().is_empty());
        let changed = FASTCHESS.replace(
            "Wins: 1, Losses: 0, Draws: 1",
            "Wins: 2, Losses: 0, Draws: 0",
        );
        let s = parse(&changed);
        let d = s.tally_diffs();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].counted, (2, 1, 0, 1));
        assert_eq!(d[0].last.map(|g| g.game), Some(2));
        // a ranking row: A scored 1.5 of 2 (75.0%), 1.5 in its one pair (0.0%)
        let ranked = FASTCHESS.replace(
            "Finished match",
            "Rank Name Elo +/- nElo +/- Games Score Draw Ptnml(0-2)\n   1 A 1 2 3 4 2 75.0% 0.0% [0, 0, 0, 1, 0]",
        );
        let s = parse(&ranked);
        assert!(
            s.unclaimed.len() == 1 && s.tally_diffs().is_empty(),
            "{:?}",
            s.tally_diffs()
        );
        let s = parse(&ranked.replace("75.0%", "100.0%"));
        assert_eq!(s.tally_diffs().len(), 1);
    }
}
