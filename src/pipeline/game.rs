//! The audit of one game: replay, built-in checks, the logs aligned into
//! its timeline, the ruleset's judgement and the clocks it reconstructs.

use super::config::Config;
use crate::checks::{self, Context};
use crate::findings::Finding;
use crate::findings::codes;
use crate::ingest::logs::LoadedLog;
use crate::ingest::pgn::PgnGame;
use crate::replay::{Replay, replay};
use crate::rules::judge::{Judgement, judge};
use crate::timeline::Timeline;

/// One audited game.
#[derive(Debug)]
pub struct GameAudit {
    pub path: String,
    pub game: PgnGame,
    pub replay: Replay,
    pub findings: Vec<Finding>,
    /// The ruleset's verdict, when one was given.
    pub judgement: Option<Judgement>,
    /// Both clocks as the ruleset's time control reconstructs them (kept
    /// when the configuration asks for them).
    pub clocks: Option<GameClocks>,
}

/// The reconstructed clocks of a game and the time control they ran under.
#[derive(Debug, Clone)]
pub struct GameClocks {
    pub time_control: crate::facts::clock::TimeControlDef,
    pub plies: Vec<crate::facts::clock::ClockPly>,
    /// Each ply's clock reading as the record gives it (ms the mover had
    /// left), for the chart beside the reconstruction.
    pub recorded: Vec<Option<i64>>,
}

/// Audit one game that has already been read.
pub fn audit_game(path: &str, game: PgnGame, config: &Config) -> GameAudit {
    let replay = replay(&game);
    audit_replayed(path, game, replay, None, config)
}

/// Audit one game that has already been read and replayed, under its
/// file's fit where `fitted` gives one (`--fit`: the fitted values, and on
/// the file's first game the findings that say what the fit found).
pub fn audit_replayed(
    path: &str,
    game: PgnGame,
    replay: Replay,
    fitted: Option<&crate::rules::fit::FileFit>,
    config: &Config,
) -> GameAudit {
    let mut findings = checks::run_all(&Context {
        path,
        game: &game,
        replay: &replay,
    });
    // The operator logs of this game: by Round, else a log naming no round
    // joins the first game.
    let logs: Vec<&LoadedLog> = config
        .operator_logs
        .iter()
        .filter(|l| joins(&game, l.round.as_deref()))
        .collect();
    let ops: Vec<crate::ingest::operator::OpEvent> = {
        let mut v: Vec<_> = logs
            .iter()
            .flat_map(|l| l.log.events.iter().cloned())
            .collect();
        v.sort_by_key(|e| e.time);
        v
    };
    for l in &logs {
        for e in &l.log.errors {
            findings.push(
                Finding::of(
                    &codes::OPERATOR_LOG_SYNTAX,
                    "Unreadable operator-log line",
                    e.message.clone(),
                )
                .with_evidence(crate::findings::Evidence {
                    path: l.path.clone(),
                    span: Some(e.span),
                    ply: None,
                    timestamp: None,
                    note: "this line was not read".into(),
                }),
            );
        }
    }
    let engine_logs = engine_logs_of(&game, &config.engine_logs);
    let (eng_events, eng_findings) = crate::timeline::align::align(&game, &replay, &engine_logs);
    findings.extend(eng_findings);
    super::match_log::match_findings(
        path,
        &game,
        &engine_logs,
        &config.engine_logs,
        &mut findings,
    );
    super::manager_stdout::findings(path, &game, &config.manager_stdout, &mut findings);
    let tl = config
        .ruleset
        .as_ref()
        .map(|_| Timeline::with_logs(&game, &replay, &ops, &eng_events));
    let mut judgement = config.ruleset.as_ref().zip(tl.as_ref()).map(|(rs, tl)| {
        match judge(
            rs,
            config.variant.as_deref(),
            fitted.map(|f| &f.overrides).or(config.given.as_ref()),
            tl,
            &config.detectors,
            path,
            config.trace,
        ) {
            Ok(j) => j,
            Err(e) => Judgement {
                variant: None,
                computed: None,
                findings: vec![Finding::of(
                    &codes::RULESET_UNUSABLE,
                    "The ruleset could not be applied",
                    e.to_string(),
                )],
                trace: Vec::new(),
            },
        }
    });
    let clocks = match (&config.ruleset, &tl) {
        (Some(rs), Some(tl)) if config.clocks => crate::rules::eval::Program::for_game_with(
            rs,
            config.variant.as_deref(),
            tl,
            &(fitted.map(|f| f.overrides.clone()))
                .or_else(|| config.given.clone())
                .unwrap_or_default(),
        )
        .ok()
        .and_then(|p| p.time_control.map(std::borrow::Cow::into_owned))
        .map(|tc| GameClocks {
            plies: crate::facts::clock::reconstruct(&tc, tl),
            time_control: tc,
            recorded: crate::facts::clock::recorded_readings(tl),
        }),
        _ => None,
    };
    drop(tl);
    if let Some(j) = &judgement {
        findings.extend(j.findings.iter().cloned());
    }
    // the file's fit, once, on its first game
    if let Some(f) = fitted
        && game.index == 0
    {
        findings.extend(f.finding.iter().cloned());
        findings.extend(f.undescribed.iter().cloned());
    }
    if !config.filter.is_empty() {
        findings.retain(|f| config.filter.keeps(f));
        if let Some(j) = &mut judgement {
            j.findings.retain(|f| config.filter.keeps(f));
        }
    }
    crate::findings::sort_findings(&mut findings);
    GameAudit {
        path: path.to_string(),
        game,
        replay,
        findings,
        judgement,
        clocks,
    }
}

/// The engine logs of a game: those whose `# round:` is the game's Round
/// (a log naming no round joins the first game), and the games of a
/// match-long log that are this one (`match_log::joins_segment`).
pub fn engine_logs_of<'l>(
    game: &PgnGame,
    logs: &'l [crate::ingest::logs::LoadedEngineLog],
) -> Vec<&'l crate::ingest::logs::LoadedEngineLog> {
    logs.iter()
        .filter(|l| super::match_log::log_joins(game, l))
        .collect()
}

/// Whether a log that names `round` (or none) joins `game`: the game whose
/// Round tag it names, else the first game of its file.
pub fn joins(game: &PgnGame, round: Option<&str>) -> bool {
    super::match_log::joins_round(game, round)
}

impl GameAudit {
    /// Count this game and its findings into `totals`.
    pub fn count_into(&self, totals: &mut crate::findings::Totals) {
        totals.add_game(
            self.replay.plies.len(),
            self.replay.stop.is_some(),
            &self.findings,
        );
    }
}
