//! `ruleset ID "TITLE" extends "FILE"`: a ruleset that builds on another
//! and says only what changes. Its declarations are merged into the base
//! file's before the analysis, each keeping the file it was written in:
//!
//! - a `const`, `switch`, `let`, `time-control` or `variant` of the same
//!   name, and a `rule` of the same id, replaces the base's, whole (a
//!   `const` is fitted only if it says `fit` again); a new one is added;
//! - `drop rule ID` leaves a rule of the base out;
//! - the header's `regulation`, `format`, `scoring`, `tiebreak` and
//!   `time-control` replace the base's where given; `applies when` is the
//!   file's own, never inherited.
//!
//! The merged declarations are put in an order the analysis can read in
//! one pass: constants, switches and `let`s each after what they name,
//! then time controls, variants and rules. A chain of at most
//! [`MAX_CHAIN`] files is followed; a file met twice is a cycle.

use std::collections::HashMap;

use crate::rules::syntax::ast::{Expr, ExprKind, FitGrid, Item, Meta};
use crate::rules::syntax::error::{Pos, RuleError};

/// The most files a chain of `extends` may hold, the first included.
pub const MAX_CHAIN: usize = 8;

/// A declaration and the file it was written in (0: the ruleset's own
/// file, 1: the file it extends, …).
pub(super) type Tagged = (usize, Item);

/// Merge `child` (of file `file`) into `base`, declarations of the files
/// `file + 1` and beyond. An error names the file it is in.
pub(super) fn merge(
    base: Vec<Tagged>,
    child: Vec<Item>,
    file: usize,
) -> Result<Vec<Tagged>, (usize, RuleError)> {
    let mut merged = base;
    let key = |it: &Item| -> Option<(u8, String)> {
        Some(match it {
            Item::Const(n, ..) | Item::Switch { name: n, .. } | Item::Let { name: n, .. } => {
                (0, n.text.clone())
            }
            Item::TimeControl(tc) => (1, tc.name.text.clone()),
            Item::Variant(v) => (2, v.name.text.clone()),
            Item::Rule(r) => (3, r.id.text.clone()),
            Item::Ruleset(_) | Item::Drop(_) => return None,
        })
    };
    let mut at: HashMap<(u8, String), usize> = HashMap::new();
    for (i, (_, it)) in merged.iter().enumerate() {
        if let Some(k) = key(it) {
            at.insert(k, i);
        }
    }
    let mut dropped = Vec::new();
    for item in child {
        match item {
            Item::Ruleset(m) => {
                let Some((_, Item::Ruleset(b))) = merged
                    .iter_mut()
                    .find(|(_, it)| matches!(it, Item::Ruleset(_)))
                else {
                    return Err((
                        file,
                        RuleError::new(
                            m.id.pos,
                            "the file this ruleset extends has no `ruleset` header",
                        ),
                    ));
                };
                *b = header(std::mem::replace(b, empty_meta(&m)), m);
            }
            Item::Drop(id) => match at.remove(&(3, id.text.clone())) {
                Some(i) => dropped.push(i),
                None => {
                    return Err((
                        file,
                        RuleError::new(
                            id.pos,
                            format!(
                                "`drop rule {}`: the ruleset this one extends has no such rule",
                                id.text
                            ),
                        )
                        .help("`drop rule` leaves out a rule of the file named by `extends`"),
                    ));
                }
            },
            it => {
                let k = key(&it).expect("a named declaration");
                match at.get(&k) {
                    Some(&i) => merged[i] = (file, it),
                    None => {
                        at.insert(k, merged.len());
                        merged.push((file, it));
                    }
                }
            }
        }
    }
    dropped.sort_unstable();
    for i in dropped.into_iter().rev() {
        merged.remove(i);
    }
    Ok(merged)
}

/// The header of a ruleset that extends another: the child's, with the
/// base's fields where the child gives none (`applies when` excepted).
fn header(base: Meta, child: Meta) -> Meta {
    Meta {
        id: child.id,
        title: child.title,
        regulation: child.regulation.or(base.regulation),
        format: child.format.or(base.format),
        scoring: if child.scoring.is_empty() {
            base.scoring
        } else {
            child.scoring
        },
        tiebreaks: if child.tiebreaks.is_empty() {
            base.tiebreaks
        } else {
            child.tiebreaks
        },
        time_control_fit: if child.time_control.is_some() {
            child.time_control_fit
        } else {
            base.time_control_fit
        },
        time_control: child.time_control.or(base.time_control),
        applies: child.applies,
        extends: None,
    }
}

fn empty_meta(m: &Meta) -> Meta {
    Meta {
        id: m.id.clone(),
        title: String::new(),
        regulation: None,
        format: None,
        scoring: Vec::new(),
        tiebreaks: Vec::new(),
        time_control: None,
        time_control_fit: None,
        applies: None,
        extends: None,
    }
}

/// The merged declarations in an order the analysis reads in one pass:
/// the header; constants, switches and `let`s, each after the names it
/// uses (otherwise in the merged order); time controls; variants; rules.
pub(super) fn ordered(merged: Vec<Tagged>) -> Vec<Tagged> {
    let mut head = Vec::new();
    let mut defs: Vec<Tagged> = Vec::new();
    let mut tcs = Vec::new();
    let mut variants = Vec::new();
    let mut rules = Vec::new();
    for t in merged {
        match &t.1 {
            Item::Ruleset(_) | Item::Drop(_) => head.push(t),
            Item::Const(..) | Item::Switch { .. } | Item::Let { .. } => defs.push(t),
            Item::TimeControl(_) => tcs.push(t),
            Item::Variant(_) => variants.push(t),
            Item::Rule(_) => rules.push(t),
        }
    }
    let index: HashMap<String, usize> = defs
        .iter()
        .enumerate()
        .filter_map(|(i, (_, it))| match it {
            Item::Const(n, ..) | Item::Switch { name: n, .. } | Item::Let { name: n, .. } => {
                Some((n.text.clone(), i))
            }
            _ => None,
        })
        .collect();
    let deps: Vec<Vec<usize>> = defs
        .iter()
        .map(|(_, it)| {
            let mut names = Vec::new();
            match it {
                Item::Const(_, e, fit) => {
                    used(e, &mut names);
                    if let Some((_, g)) = fit {
                        match g {
                            FitGrid::Range { from, to, step } => {
                                for e in [from, to, step] {
                                    used(e, &mut names);
                                }
                            }
                            FitGrid::List(es) => es.iter().for_each(|e| used(e, &mut names)),
                            FitGrid::From(_) => {}
                        }
                    }
                }
                Item::Let { expr, .. } => used(expr, &mut names),
                _ => {}
            }
            names
                .iter()
                .filter_map(|n| index.get(*n).copied())
                .collect()
        })
        .collect();
    // depth first, each after what it uses; a cycle is left to the
    // analysis, which names the name it cannot resolve
    let mut state = vec![0u8; defs.len()];
    let mut order = Vec::with_capacity(defs.len());
    for i in 0..defs.len() {
        let mut stack = vec![(i, 0usize)];
        while let Some(&mut (d, ref mut next)) = stack.last_mut() {
            if *next == 0 {
                if state[d] != 0 {
                    stack.pop();
                    continue;
                }
                state[d] = 1;
            }
            if let Some(&dep) = deps[d].get(*next) {
                *next += 1;
                if state[dep] == 0 {
                    stack.push((dep, 0));
                }
            } else {
                state[d] = 2;
                order.push(d);
                stack.pop();
            }
        }
    }
    let mut slots: Vec<Option<Tagged>> = defs.into_iter().map(Some).collect();
    head.extend(order.into_iter().filter_map(|i| slots[i].take()));
    head.extend(tcs);
    head.extend(variants);
    head.extend(rules);
    head
}

/// The names an expression reads.
fn used<'e>(e: &'e Expr, into: &mut Vec<&'e str>) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Name(n) => into.push(n),
            ExprKind::List(es) => stack.extend(es),
            ExprKind::Unary(_, a) => stack.push(a),
            ExprKind::Binary(_, a, b) => stack.extend([&**a, &**b]),
            ExprKind::Call(_, args, named) => {
                stack.extend(args);
                stack.extend(named.iter().map(|(_, e)| e));
            }
            ExprKind::If(a, b, c) => stack.extend([&**a, &**b, &**c]),
            ExprKind::Num(_)
            | ExprKind::Duration(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::None
            | ExprKind::Field(..) => {}
        }
    }
}

/// Where a chain of `extends` goes wrong.
pub(super) fn too_long(pos: Pos) -> RuleError {
    RuleError::new(
        pos,
        format!("a chain of `extends` holds at most {MAX_CHAIN} files"),
    )
}
