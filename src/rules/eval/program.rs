//! A program: a ruleset with its variant chosen (the one forced, or the
//! first that applies to the game), its constants and switches resolved,
//! with any values a fit gives over them.

use super::{Kept, const_values, eval_stateless};
use crate::base::value::Value;
use crate::facts::clock::TimeControlDef;
use crate::rules::analysis::{CExpr, Ruleset};
use crate::timeline::Timeline;

/// A ruleset instantiated for one variant: constants and switches resolved.
#[derive(Debug, Clone)]
pub struct Program<'r> {
    pub ruleset: &'r Ruleset,
    pub variant: Option<String>,
    /// The constants' values: shared with every program of the same
    /// variant when nothing overrides them.
    pub consts: std::sync::Arc<[Value]>,
    pub switches: Vec<bool>,
    /// The time control the clocks run under: the ruleset's, or the one a
    /// fit found in the record.
    pub time_control: Option<std::borrow::Cow<'r, TimeControlDef>>,
}

/// Values given to constants and switches over the ruleset's and its
/// variant's (what `arbiter rules fit` tries): `(index, value)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    pub consts: Vec<(usize, Value)>,
    pub switches: Vec<(usize, bool)>,
    /// A time control in place of the ruleset's (`time-control … fit from
    /// record`).
    pub time_control: Option<TimeControlDef>,
}

/// A variant a ruleset does not have, asked for by name; `known` are the
/// ruleset's variants.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("ruleset {ruleset} has no variant `{variant}`; its variants: {}", list_or_none(.known))]
pub struct UnknownVariant {
    pub ruleset: String,
    pub variant: String,
    pub known: Vec<String>,
}

/// `known` joined with commas, or `none`.
fn list_or_none(known: &[String]) -> String {
    if known.is_empty() {
        "none".to_string()
    } else {
        known.join(", ")
    }
}

impl<'r> Program<'r> {
    /// The base ruleset, or one variant of it (with its ancestors).
    pub fn new(rs: &'r Ruleset, variant: Option<&str>) -> Result<Program<'r>, UnknownVariant> {
        Program::with(rs, variant, &Overrides::default())
    }

    /// [`Program::new`], then `over` over the variant's values (a constant
    /// given a value there also changes the constants computed from it).
    pub fn with(
        rs: &'r Ruleset,
        variant: Option<&str>,
        over: &Overrides,
    ) -> Result<Program<'r>, UnknownVariant> {
        let vi = match variant {
            Some(name) => Some(rs.variants.iter().position(|v| v.name == name).ok_or_else(
                || UnknownVariant {
                    ruleset: rs.id.to_string(),
                    variant: name.to_string(),
                    known: rs.variants.iter().map(|v| v.name.to_string()).collect(),
                },
            )?),
            None => None,
        };
        // the variant's ancestors, then the variant itself
        let lineage = || {
            vi.into_iter()
                .flat_map(|vi| rs.variants[vi].ancestors.iter().copied().chain([vi]))
                .map(|a| &rs.variants[a])
        };
        let mut switches: Vec<bool> = rs.switches.iter().map(|s| s.default).collect();
        let mut tc = rs.time_control.clone();
        for av in lineage() {
            for &(s, b) in &av.switches {
                switches[s] = b;
            }
            if av.time_control.is_some() {
                tc = av.time_control.clone();
            }
        }
        for &(s, b) in &over.switches {
            if let Some(at) = switches.get_mut(s) {
                *at = b;
            }
        }
        // the constants the variant and its ancestors give values to
        let overrides = || -> Vec<(usize, CExpr)> {
            lineage().flat_map(|av| av.consts.iter().cloned()).collect()
        };
        let consts = if over.consts.is_empty() {
            // with nothing over them, the variant's constants are found once
            // per ruleset (they read nothing but each other)
            let all = Kept::of(rs).consts.get_or_init(|| {
                (0..=rs.variants.len())
                    .map(|_| Default::default())
                    .collect()
            });
            all[vi.map_or(0, |v| v + 1)]
                .get_or_init(|| const_values(&rs.consts, &overrides()).into())
                .clone()
        } else {
            let mut overrides = overrides();
            overrides.extend(over.consts.iter().map(|(i, v)| (*i, CExpr::Lit(v.clone()))));
            const_values(&rs.consts, &overrides).into()
        };
        Ok(Program {
            ruleset: rs,
            variant: variant.map(str::to_string),
            consts,
            switches,
            time_control: match &over.time_control {
                Some(t) => Some(std::borrow::Cow::Owned(t.clone())),
                None => tc
                    .and_then(|n| rs.time_controls.iter().find(|t| t.name == n))
                    .map(std::borrow::Cow::Borrowed),
            },
        })
    }

    /// The variant that applies to a game: the forced one, else the first
    /// whose `applies when` holds, else the base ruleset.
    pub fn for_game(
        rs: &'r Ruleset,
        forced: Option<&str>,
        tl: &Timeline<'_>,
    ) -> Result<Program<'r>, UnknownVariant> {
        Program::for_game_with(rs, forced, tl, &Overrides::default())
    }

    /// [`Program::for_game`] with `over` (the variant is chosen by the
    /// ruleset's own values).
    pub fn for_game_with(
        rs: &'r Ruleset,
        forced: Option<&str>,
        tl: &Timeline<'_>,
        over: &Overrides,
    ) -> Result<Program<'r>, UnknownVariant> {
        if forced.is_some() {
            return Program::with(rs, forced, over);
        }
        let base = Program::new(rs, None)?;
        for v in &rs.variants {
            if let Some(a) = &v.applies
                && eval_stateless(Some(tl), 0, &base.consts, &base.switches, a) == Value::Bool(true)
            {
                return Program::with(rs, Some(&v.name), over);
            }
        }
        if *over == Overrides::default() {
            return Ok(base);
        }
        Program::with(rs, None, over)
    }
}

/// Whether `rs`, one of a folder of rulesets (`--rules DIR`), claims the
/// game `tl` (a file's first game): its `applies when`, over its base
/// constants and switches, holds. `None` where it has no `applies when`.
pub fn claims(rs: &Ruleset, tl: &Timeline<'_>) -> Option<bool> {
    let (a, _) = rs.applies.as_ref()?;
    let base = Program::new(rs, None).ok()?;
    Some(eval_stateless(Some(tl), 0, &base.consts, &base.switches, a) == Value::Bool(true))
}
