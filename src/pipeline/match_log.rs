//! The games of a match-long engine log (fastchess `-log`, cutechess
//! `-debug` of more than one game; `ingest::engine::Splitter`) joined to
//! the PGN's games, and what is said where they do not meet: the manager's
//! result against the Result tag, an audited game the log has no game
//! for, a game of the log no audited game claims, and engine traffic
//! outside every game.

use crate::findings::codes;
use crate::findings::{Evidence, Finding};
use crate::ingest::engine::Segment;
use crate::ingest::logs::{FileSplit, LoadedEngineLog};
use crate::ingest::pgn::PgnGame;

/// Whether engine log `l` joins `game`: a game of a match-long log by
/// [`joins_segment`], a log read whole by its `# round:` (else the first
/// game of its file).
pub fn log_joins(game: &PgnGame, l: &LoadedEngineLog) -> bool {
    match &l.part {
        Some(p) => joins_segment(game, &p.segment, p.file.paired),
        None => joins_round(game, l.log.meta.get("round").map(String::as_str)),
    }
}

/// Whether a log that names `round` (or none) joins `game`: the game whose
/// Round tag it names, else the first game of its file.
pub fn joins_round(game: &PgnGame, round: Option<&str>) -> bool {
    match round {
        Some(r) => Some(r.trim()) == game.tag("Round").map(str::trim),
        None => game.index == 0,
    }
}

/// The Round tag a game of a match-long log is written with: its pair's
/// number where the games come in pairs (`paired`: both managers play an
/// opening twice, colours swapped, and write the pair as the Round), else
/// the game's number.
pub fn round_of(seg: &Segment, paired: bool) -> u64 {
    if paired {
        seg.game.div_ceil(2)
    } else {
        seg.game
    }
}

/// Whether the manager's game `seg` is `game`: the same White and Black,
/// the Round tag [`round_of`] gives, and, where the log gives the time of day and the game its
/// `GameStartTime`, the same start within 2 s (up to the time zone: the
/// minutes and seconds are compared).
pub fn joins_segment(game: &PgnGame, seg: &Segment, paired: bool) -> bool {
    let tag = |t: &str| game.tag(t).map(str::trim);
    if tag("White") != Some(seg.white.as_str()) || tag("Black") != Some(seg.black.as_str()) {
        return false;
    }
    let round = tag("Round").and_then(|r| r.parse::<u64>().ok());
    if round != Some(round_of(seg, paired)) {
        return false;
    }
    match (seg.start_of_day, tag("GameStartTime").and_then(time_of_day)) {
        (Some(a), Some(b)) => {
            // a zone is a whole number of quarter hours
            const QUARTER: i64 = 15 * 60_000;
            let d = (a - b).rem_euclid(QUARTER);
            d.min(QUARTER - d) <= 2_000
        }
        _ => true,
    }
}

/// The time of day of a `GameStartTime` (`2026-12-02T05:09:04 +0000`), ms
/// since midnight.
fn time_of_day(t: &str) -> Option<i64> {
    let (_, time) = t.split_once('T')?;
    let hms = time.get(..8)?;
    let mut parts = hms.split(':').map(|p| p.parse::<i64>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    Some(((h * 60 + m) * 60 + s) * 1000)
}

/// The findings of a game about the match-long logs: for each of its
/// games that joined this one (`mine`), the manager's result where it is
/// not the Result tag (`engine-log-result-differs`); for each match-long
/// log of the run (`all`) with no game for this one,
/// `engine-log-game-missing`.
pub fn match_findings(
    path: &str,
    game: &PgnGame,
    mine: &[&LoadedEngineLog],
    all: &[LoadedEngineLog],
    findings: &mut Vec<Finding>,
) {
    for l in mine {
        let Some(p) = &l.part else { continue };
        let Some((result, reason, span)) = &p.segment.result else {
            continue;
        };
        let tag = game.tag_entry("Result");
        if tag.map(|t| t.value.trim()) == Some(result.as_str()) {
            continue;
        }
        let written = tag.map_or("no Result tag".to_string(), |t| format!("{:?}", t.value));
        let why = reason
            .as_ref()
            .map_or(String::new(), |r| format!(" {{{r}}}"));
        findings.push(
            Finding::of(
                &codes::ENGINE_LOG_RESULT_DIFFERS,
                "The manager's result is not the game's",
                format!(
                    "the manager ended game {} with {result}{why} (line {}); the game's Result is {written}",
                    p.segment.game, span.line
                ),
            )
            .with_evidence(Evidence {
                path: l.path.clone(),
                span: Some(*span),
                ply: None,
                timestamp: None,
                note: "the manager's result".into(),
            })
            .with_evidence(Evidence {
                path: path.to_string(),
                span: tag.map(|t| t.span),
                ply: None,
                timestamp: None,
                note: "the Result tag".into(),
            }),
        );
    }
    for (log_path, file) in match_files(all) {
        let has = all.iter().any(|l| {
            l.part
                .as_ref()
                .is_some_and(|p| std::sync::Arc::ptr_eq(&p.file, file))
                && log_joins(game, l)
        });
        if has {
            continue;
        }
        let tag = |t: &str| game.tag(t).unwrap_or("?").to_string();
        findings.push(
            Finding::of(
                &codes::ENGINE_LOG_GAME_MISSING,
                "The match log has no game for this one",
                format!(
                    "{log_path} holds {} games, none of them {} against {} in round {}: this game's engine traffic is not in it",
                    file.games,
                    tag("White"),
                    tag("Black"),
                    tag("Round")
                ),
            )
            .with_evidence(Evidence {
                path: log_path.to_string(),
                span: None,
                ply: None,
                timestamp: None,
                note: "the match log".into(),
            }),
        );
    }
}

/// Each match-long log among `logs` once: its path and what it held.
pub fn match_files(logs: &[LoadedEngineLog]) -> Vec<(&str, &std::sync::Arc<FileSplit>)> {
    let mut out: Vec<(&str, &std::sync::Arc<FileSplit>)> = Vec::new();
    for l in logs {
        if let Some(p) = &l.part
            && !out.iter().any(|(_, f)| std::sync::Arc::ptr_eq(f, &p.file))
        {
            out.push((l.path.as_str(), &p.file));
        }
    }
    out
}

/// What is said of a game of a match-long log that no audited game
/// joined.
pub fn not_joined_message(seg: &Segment, paired: bool) -> String {
    format!(
        "game {} ({} vs {}, lines {}-{}) joined no game: no game audited has White {:?}, Black {:?} and Round {}{}",
        seg.game,
        seg.white,
        seg.black,
        seg.start.line,
        seg.end.line,
        seg.white,
        seg.black,
        round_of(seg, paired),
        if seg.start_of_day.is_some() {
            " starting at the same time"
        } else {
            ""
        }
    )
}

/// What is said of a match-long log's engine traffic outside every game.
pub fn stray_message(first_line: u64, n: u64) -> String {
    format!(
        "{n} line(s) of engine traffic outside every game, the first at line {first_line}: no game of the log claimed them"
    )
}
