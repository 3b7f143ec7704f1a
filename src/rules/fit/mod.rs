//! `arbiter rules fit`: the values of a ruleset's `fit` constants and
//! switches that best reproduce what an archive recorded, beside the values
//! its text gives.
//!
//! What the archive recorded, and what a set of values is scored on:
//! - every counter a `forbid on move when move.recorded_X != none and
//!   move.recorded_X != …` rule compares (TCEC's `R50`, `Rd`, `Rr`): a
//!   reading agrees where the rule does not fire;
//! - every game's termination: it agrees where the adjudication the rules
//!   compute is the one the record claims (rule, ply, result and the
//!   `TerminationDetails` text), as `audit` judges it.
//!
//! The search changes one `fit` at a time over its values, the others held,
//! and goes round until no value changes (coordinate descent: the rules'
//! constants are mostly independent, and a round costs the sum of the
//! grids, not their product). Each game is read and replayed once; each
//! point is one evaluation of the rules over the replayed games, points of
//! one scan in parallel, every point evaluated once (a cache). Where several
//! values score the same, all of them are reported: the value kept is the
//! text's where it is among them, else the current one, else the one nearest
//! the text's, and the report says that the data cannot decide.
//!
//! This file holds what a fit reports and [`fit_group`]; `search` is the
//! search over the values, and `report` what the fit's report and its
//! finding are made of.

use serde::Serialize;

use super::analysis::Ruleset;
use super::eval::{Detectors, Overrides};
use crate::base::value::Value;
use crate::ingest::pgn::PgnGame;
use crate::replay::Replay;

pub(super) mod partial;
mod report;
mod search;
mod survey;
mod time_controls;

pub use report::{FileFit, FitSummary, departure_finding, undescribed_finding};
use report::{fitted, undescribed, variant_block};
pub use search::Tick;
use search::{Search, Setup};
use survey::Survey;

/// One game, read and replayed once.
#[derive(Debug)]
pub struct Game {
    pub path: String,
    pub pgn: PgnGame,
    pub replay: Replay,
}

/// How far one set of values reproduces the record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Agreement {
    /// Counter readings the rules reproduce, of `counters_of`.
    pub counters: u64,
    pub counters_of: u64,
    /// Games whose termination the rules reproduce, of `terminations_of`
    /// (the games replayed to their end).
    pub terminations: u64,
    pub terminations_of: u64,
    /// Clock readings (engine moves with a recorded time left) on which no
    /// clock rule fires, of `clocks_of`: the time control's agreement.
    pub clocks: u64,
    pub clocks_of: u64,
    /// Games whose TimeControl tag states the time control the rules run
    /// under, of `tags_of` (the games with a tag): the tag as evidence,
    /// one per game, where the clocks give one per reading.
    pub tags: u64,
    pub tags_of: u64,
}

impl Agreement {
    fn score(&self) -> u64 {
        self.counters + self.terminations + self.clocks + self.tags
    }
}

/// One `fit` constant or switch: the text's value, the fitted one, and every
/// value that scores as well.
#[derive(Debug, Clone, Serialize)]
pub struct Fitted {
    /// `const` or `switch`.
    pub kind: &'static str,
    pub name: String,
    /// Where the `fit` clause is, in the ruleset.
    pub line: usize,
    pub column: usize,
    pub text: String,
    pub fitted: String,
    /// The values tried.
    pub tried: usize,
    /// The values that score as well as the fitted one (itself included):
    /// more than one means the data cannot decide between them. Empty
    /// where the fit was not asked for them ([`fit_group_with`]).
    pub equally_good: Vec<String>,
}

/// A game whose computed end differs between the text's values and the
/// fitted ones.
#[derive(Debug, Clone, Serialize)]
pub struct Decided {
    pub path: String,
    pub round: String,
    pub white: String,
    pub black: String,
    pub result: String,
    pub termination: String,
    /// The record's last ply.
    pub plies: u32,
    pub under_text: String,
    pub under_fit: String,
    pub text_agrees: bool,
    pub fit_agrees: bool,
}

/// The fit of one group of games (a file, or an event).
#[derive(Debug, Clone, Serialize)]
pub struct GroupFit {
    /// The file, or the event's name.
    pub group: String,
    pub games: usize,
    /// The variant the text gives the group's first game.
    pub variant: Option<String>,
    pub fits: Vec<Fitted>,
    pub under_text: Agreement,
    pub under_fit: Agreement,
    pub decided: Vec<Decided>,
    /// A variant that sets the fitted values, ready to paste into the
    /// ruleset (`None` where the fit is the text).
    pub variant_block: Option<String>,
    /// Points of values evaluated (each once over every game).
    pub evaluations: usize,
    /// The games whose replay stopped before the end of their movetext:
    /// their counters are scored up to the stop, their terminations not.
    pub unreplayed: Vec<Unreplayed>,
    /// The rules that still fire in more than a tenth of the games under
    /// the fitted values: what the ruleset cannot express of this archive
    /// (or a breach that is the archive's rule, not its exception).
    pub undescribed: Vec<Undescribed>,
    /// Games whose end an adjudication could not decide (a tablebase
    /// position with no table given): their terminations are not scored.
    pub undecided: usize,
    /// The fitted values where they depart from the text's, for a program.
    #[serde(skip)]
    pub overrides: Overrides,
}

impl GroupFit {
    /// Whether any fitted value departs from the text's.
    pub fn departs(&self) -> bool {
        self.fits.iter().any(|f| f.fitted != f.text)
    }
}

/// A rule that fires in more than a tenth of a group's games under the
/// fitted values: no value the ruleset lets the fit change describes what
/// the archive shows.
#[derive(Debug, Clone, Serialize)]
pub struct Undescribed {
    pub rule: String,
    /// Where the rule is, in the ruleset.
    pub line: usize,
    /// Games it fires in, of `of`.
    pub games: usize,
    pub of: usize,
    /// Its findings in those games.
    pub findings: usize,
    /// The first games it fires in (at most three): round, players, ply.
    pub first: Vec<String>,
}

/// Of a group of `n` games, the most a rule may fire in before the fit's
/// report names it as not described: a tenth.
pub fn undescribed_limit(n: usize) -> usize {
    n / 10
}

/// A game the fit could not replay to its end, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Unreplayed {
    pub path: String,
    /// The game's number in its file, from 1.
    pub game: usize,
    /// The line of the move that stopped the replay (else the game's first
    /// line).
    pub line: u64,
    pub ply: u32,
    pub reason: String,
}

/// A value as the rule language writes it.
pub fn literal(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("{:?}", s.as_str()),
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
        other => other.display(),
    }
}

/// Why a group of games could not be fitted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    #[error("{group}: no game to fit")]
    NoGame { group: String },
    /// The ruleset `ruleset` has nothing to fit.
    #[error(
        "ruleset {ruleset} marks no constant or switch with `fit` (docs/rules-language.md, Fitting)"
    )]
    NothingToFit { ruleset: String },
    #[error(transparent)]
    Variant(#[from] super::eval::UnknownVariant),
    /// A group read a block at a time could not be read again, or read
    /// otherwise than at its first pass.
    /// `message` names the file.
    #[error("{message}")]
    Reread { group: String, message: String },
}

/// A group's games a block at a time, read again at every pass: a group
/// too large to hold whole is fitted this way ([`fit_blocks`]), holding
/// one block's games at a time.
pub trait Blocks: Sync {
    /// Call `each` with every block of the group's games, in the group's
    /// order, the same blocks at every pass.
    fn pass(&self, each: &mut dyn FnMut(&[&Game]) -> Result<(), FitError>) -> Result<(), FitError>;
}

/// How a group is fitted: the ruleset, the variant forced on its games,
/// the detectors, what is told the points evaluated, and whether ties are
/// scanned (see [`fit_group_with`]).
struct How<'a> {
    rs: &'a Ruleset,
    forced: Option<&'a str>,
    detectors: &'a Detectors,
    tick: search::Tick<'a>,
    ties: bool,
}

/// Fit the ruleset's `fit` values to one group of games.
pub fn fit_group(
    rs: &Ruleset,
    group: &str,
    games: &[&Game],
    forced: Option<&str>,
    detectors: &Detectors,
) -> Result<GroupFit, FitError> {
    fit_group_with(rs, group, games, forced, detectors, &|_| {}, true)
}

/// [`fit_group`], telling `tick` the number of points evaluated as the
/// search goes (for a progress bar). Without `ties`, the fitted values are
/// the same, but a fit whose rules all agree at the text's values is not
/// scanned: its [`Fitted::equally_good`] is empty (an audit under the fit
/// reads the fitted values, not their ties).
pub fn fit_group_with(
    rs: &Ruleset,
    group: &str,
    games: &[&Game],
    forced: Option<&str>,
    detectors: &Detectors,
    tick: search::Tick<'_>,
    ties: bool,
) -> Result<GroupFit, FitError> {
    if games.is_empty() {
        return Err(FitError::NoGame {
            group: group.to_string(),
        });
    }
    let how = How {
        rs,
        forced,
        detectors,
        tick,
        ties,
    };
    let mut survey = Survey::new(rs, forced);
    if !rs.fits.is_empty() {
        survey.add(games)?;
    }
    fit_surveyed(group, survey, games, None, how)
}

/// [`fit_group_with`] over the group `blocks` reads, a block at a time:
/// the same fit, with one block's games held at a time. Each evaluation of
/// the search is a pass over the blocks.
pub fn fit_blocks(
    rs: &Ruleset,
    group: &str,
    blocks: &dyn Blocks,
    forced: Option<&str>,
    detectors: &Detectors,
    tick: search::Tick<'_>,
    ties: bool,
) -> Result<GroupFit, FitError> {
    let how = How {
        rs,
        forced,
        detectors,
        tick,
        ties,
    };
    let mut survey = Survey::new(rs, forced);
    if !rs.fits.is_empty() {
        blocks.pass(&mut |games| survey.add(games).map_err(FitError::from))?;
    }
    fit_surveyed(group, survey, &[], Some(blocks), how)
}

/// The fit of a group surveyed: over `games`, or over `blocks`.
fn fit_surveyed(
    group: &str,
    survey: Survey<'_>,
    games: &[&Game],
    blocks: Option<&dyn Blocks>,
    how: How<'_>,
) -> Result<GroupFit, FitError> {
    let rs = how.rs;
    if rs.fits.is_empty() {
        return Err(FitError::NothingToFit {
            ruleset: rs.id.to_string(),
        });
    }
    let sv = survey.finish().ok_or_else(|| FitError::NoGame {
        group: group.to_string(),
    })?;
    let setup = Setup {
        rs,
        scoring: &sv.scoring,
        forced: how.forced,
        detectors: how.detectors,
        tick: how.tick,
        ties: how.ties,
        text: sv.text.clone(),
        grids: sv.grids.clone(),
        scored: None,
    };
    let mut s = Search::new(setup, games, blocks)?;
    let (cur, equally) = s.descend()?;
    let text = s.text.clone();
    s.evaluate_all(&[text.clone(), cur.clone()])?;
    let (at_text, at_fit) = (s.point(&text).agreement, s.point(&cur).agreement);
    let evaluations = s.cache.len();
    let mut outcome = report::Outcome::default();
    s.each_block(&cur, &mut |b| outcome.add(b, &text, &cur))?;
    let mut out = GroupFit {
        group: group.to_string(),
        games: sv.games,
        variant: sv.variant.clone(),
        fits: fitted(rs, &text, &cur, &equally, &s.grids),
        under_text: at_text,
        under_fit: at_fit,
        decided: outcome.decided,
        variant_block: None,
        evaluations,
        unreplayed: sv.unreplayed,
        undescribed: undescribed(rs, sv.games, outcome.fired),
        undecided: outcome.undecided,
        overrides: s.overrides(&cur),
    };
    if out.departs() {
        out.variant_block = Some(variant_block(&out, group, &sv.first_path));
    }
    Ok(out)
}
