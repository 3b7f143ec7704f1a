//! A match manager's standard output (`--manager-stdout`) joined to the
//! PGN's games: each `Started`/`Finished` pair to its game by number, pair
//! and names (as a match-long log's games are, `match_log::joins_segment`),
//! and what is said where they do not meet: the manager's result or reason
//! against the game's, a warning written during the game, a tally that
//! is not what the games before it give, an audited game the output has
//! no game for. A game of the output that no audited game joined, and a
//! line nothing reads, are said for the run (`run::Joined`).

use crate::findings::codes;
use crate::findings::{Evidence, Finding};
use crate::ingest::engine::Segment;
use crate::ingest::manager::LoadedStdout;
use crate::ingest::pgn::PgnGame;

fn at(path: &str, span: crate::base::span::Span, ply: Option<u32>, note: &str) -> Evidence {
    Evidence {
        path: path.to_string(),
        span: Some(span),
        ply,
        timestamp: None,
        note: note.into(),
    }
}

/// Whether the output's game `seg` is `game`.
pub fn joins(game: &PgnGame, seg: &Segment, s: &LoadedStdout) -> bool {
    super::match_log::joins_segment(game, seg, s.out.paired)
}

/// The findings of `game` (of file `path`) about each manager output.
pub fn findings(path: &str, game: &PgnGame, all: &[LoadedStdout], findings: &mut Vec<Finding>) {
    for s in all {
        let mine: Vec<&Segment> = s.out.games.iter().filter(|g| joins(game, g, s)).collect();
        if mine.is_empty() {
            let tag = |t: &str| game.tag(t).unwrap_or("?").to_string();
            findings.push(
                Finding::of(
                    &codes::MANAGER_STDOUT_GAME_MISSING,
                    "The manager's output has no game for this one",
                    format!(
                        "{} holds {} games, none of them {} against {} in round {}",
                        s.path,
                        s.out.games.len(),
                        tag("White"),
                        tag("Black"),
                        tag("Round")
                    ),
                )
                .with_evidence(Evidence {
                    path: s.path.clone(),
                    span: None,
                    ply: None,
                    timestamp: None,
                    note: "the manager's output".into(),
                }),
            );
        }
        for seg in mine {
            result_differs(path, game, s, seg, findings);
            warnings(game, s, seg, findings);
            tallies(s, seg, findings);
        }
    }
}

/// `manager-stdout-result-differs`: the `Finished game` line's result is
/// not the Result tag, or its reason is not the ending the record writes
/// (where the record writes one). A game with no `Finished` line is said
/// too: the manager did not say how it ended.
fn result_differs(
    path: &str,
    game: &PgnGame,
    s: &LoadedStdout,
    seg: &Segment,
    findings: &mut Vec<Finding>,
) {
    let Some((result, reason, span)) = &seg.result else {
        findings.push(
            Finding::of(
                &codes::MANAGER_STDOUT_UNFINISHED,
                "The manager's output does not say how the game ended",
                format!(
                    "game {} started at line {} and has no `Finished game` line",
                    seg.game, seg.start.line
                ),
            )
            .with_evidence(at(&s.path, seg.start, None, "the game's start")),
        );
        return;
    };
    let tag = game.tag_entry("Result");
    let ending = game.recorded_ending();
    let result_same = tag.map(|t| t.value.trim()) == Some(result.as_str());
    let reason_same = match (reason, &ending) {
        (Some(r), Some(e)) => r.trim() == e.text.trim(),
        _ => true,
    };
    if result_same && reason_same {
        return;
    }
    let written = tag.map_or("no Result tag".to_string(), |t| format!("{:?}", t.value));
    let why = reason
        .as_ref()
        .map_or(String::new(), |r| format!(" {{{r}}}"));
    let record = match &ending {
        Some(e) => format!("; the record's ending is {:?}", e.text),
        None => String::new(),
    };
    let mut f = Finding::of(
        &codes::MANAGER_STDOUT_RESULT_DIFFERS,
        "The manager's output ends the game otherwise",
        format!(
            "the manager's output ends game {} with {result}{why} (line {}); the game's Result is {written}{record}",
            seg.game, span.line
        ),
    )
    .with_evidence(at(&s.path, *span, None, "the manager's result"));
    if let Some(t) = tag {
        f = f.with_evidence(at(path, t.span, None, "the Result tag"));
    }
    if !reason_same && let Some(span) = ending.as_ref().and_then(|e| e.span) {
        f = f.with_evidence(at(path, span, None, "the record's ending"));
    }
    findings.push(f);
}

/// `manager-stdout-warning`: the warnings written during the game, one
/// finding per text and ply (fastchess repeats a warning for each depth of
/// a search), at the ply of the search it is about (the `Moves;` context
/// line's plies, plus one) and the first line, with how many lines.
fn warnings(game: &PgnGame, s: &LoadedStdout, seg: &Segment, findings: &mut Vec<Finding>) {
    let end = seg.result.as_ref().map_or(u64::MAX, |r| r.2.line);
    let mut groups: Vec<(&crate::ingest::manager::stdout::Warning, u64, u64)> = Vec::new();
    for w in
        s.out.warnings.iter().filter(|w| {
            w.game == Some(seg.game) && w.span.line > seg.start.line && w.span.line < end
        })
    {
        match groups
            .iter_mut()
            .find(|(g, _, _)| g.text == w.text && g.plies == w.plies)
        {
            Some((_, n, last)) => {
                *n += 1;
                *last = w.span.line;
            }
            None => groups.push((w, 1, w.span.line)),
        }
    }
    for (w, n, last) in groups {
        let ply = w.plies.map(|p| p + 1);
        let side = ply.map(|p| {
            let black_first =
                game.tag("FEN").and_then(|f| f.split_whitespace().nth(1)) == Some("b");
            if (p % 2 == 1) != black_first {
                "White"
            } else {
                "Black"
            }
        });
        let who = match (&w.engine, side) {
            (Some(e), Some(side)) => format!(" about {e} ({side})"),
            (Some(e), None) => format!(" about {e}"),
            _ => String::new(),
        };
        let lines = if n > 1 {
            format!(", {n} times (lines {}-{last})", w.span.line)
        } else {
            format!(" (line {})", w.span.line)
        };
        let mv =
            w.mv.as_ref()
                .map_or(String::new(), |m| format!(", move {m}"));
        let place = ply.map_or(String::new(), |p| format!(" at the search for ply {p}"));
        findings.push(
            Finding::of(
                &codes::MANAGER_STDOUT_WARNING,
                "The manager warned during the game",
                format!("the manager warned{who}{place}{mv}: {:?}{lines}", w.text),
            )
            .with_evidence(at(&s.path, w.span, ply, "the manager's warning")),
        );
    }
}

/// `manager-stdout-tally-differs`: a tally written after this game (its
/// last game) that is not what the games finished before it give.
fn tallies(s: &LoadedStdout, seg: &Segment, findings: &mut Vec<Finding>) {
    use crate::ingest::manager::stdout::Counted;
    for d in s.out.tally_diffs() {
        if d.last.is_none_or(|l| l.start != seg.start) {
            continue;
        }
        let t = d.tally;
        let (what, got, counted) = match &t.counted {
            Counted::Ranked(a) => (
                format!("{a} in the ranking table"),
                format!(
                    "{} games, {:.1}% score, {:.1}% draws",
                    t.games,
                    t.wins as f64 / 10.0,
                    t.draws as f64 / 10.0
                ),
                format!(
                    "{} games, {:.1}% score, {:.1}% draws",
                    d.counted.0,
                    d.counted.1 as f64 / 10.0,
                    d.counted.3 as f64 / 10.0
                ),
            ),
            c => {
                let what = match c {
                    Counted::Pair(a, b) => format!("{a} against {b} (wins - losses - draws)"),
                    Counted::Colour(a, b, w) => format!(
                        "{a} playing {} against {b}",
                        if *w { "White" } else { "Black" }
                    ),
                    Counted::WhiteBlack(a, b) => {
                        format!("White against Black in {a} vs {b}")
                    }
                    Counted::Ranked(_) => unreachable!("matched above"),
                };
                let wld = |g: u64, w: u64, l: u64, d: u64| format!("{w} - {l} - {d} of {g} games");
                (
                    what,
                    wld(t.games, t.wins, t.losses, t.draws),
                    wld(d.counted.0, d.counted.1, d.counted.2, d.counted.3),
                )
            }
        };
        findings.push(
            Finding::of(
                &codes::MANAGER_STDOUT_TALLY_DIFFERS,
                "The manager's results table disagrees with its games",
                format!(
                    "line {}: {what}: the table says {got}, the {} games finished before it give {counted}",
                    t.span.line,
                    s.out
                        .games
                        .iter()
                        .filter(|g| g.result.as_ref().is_some_and(|r| r.2.line < t.span.line))
                        .count()
                ),
            )
            .with_evidence(at(&s.path, t.span, None, "the table's line")),
        );
    }
}

/// What is said, for the run, of a manager output: its games no audited
/// game joined (`joined` says which did) and its lines nothing reads.
pub fn run_messages(s: &LoadedStdout, joined: &[bool]) -> Vec<String> {
    let mut out: Vec<String> = s
        .out
        .games
        .iter()
        .zip(joined)
        .filter(|(_, j)| !**j)
        .map(|(g, _)| {
            format!(
                "game {} ({} vs {}, line {}) joined no game: no game audited has White {:?}, Black {:?} and Round {}",
                g.game,
                g.white,
                g.black,
                g.start.line,
                g.white,
                g.black,
                super::match_log::round_of(g, s.out.paired)
            )
        })
        .collect();
    if let Some((span, text)) = s.out.unclaimed.first() {
        out.push(format!(
            "{} line(s) of the manager's output that arbiter does not read, the first at line {}: {:?}",
            s.out.unclaimed.len(),
            span.line,
            crate::base::diagnostic::for_terminal(text)
        ));
    }
    out
}
