//! The rules grouped by the clause they cite, clauses in natural order
//! (`rules list`).

use std::collections::BTreeMap;

use super::ruleset::{Check, Ruleset};

/// A clause and the rules citing it: `(clause, [(rule id, manual?)])`.
pub type ClauseRules = (String, Vec<(String, bool)>);

/// Rules grouped by clause, clauses in natural order (`4(c)` before
/// `4(d)`, `9` before `10`): `rules list`.
pub fn clauses(rs: &Ruleset) -> Vec<ClauseRules> {
    let mut by: BTreeMap<Vec<NaturalPart>, ClauseRules> = BTreeMap::new();
    for r in &rs.rules {
        for c in &r.cites {
            let entry = by
                .entry(natural_key(&c.clause))
                .or_insert_with(|| (c.clause.clone(), Vec::new()));
            let item = (r.id.clone(), matches!(r.check, Check::Manual(_)));
            if !entry.1.contains(&item) {
                entry.1.push(item);
            }
        }
    }
    by.into_values().collect()
}

/// A piece of a clause id for natural ordering: numbers compare as numbers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum NaturalPart {
    Num(u64),
    Text(String),
}

fn natural_key(s: &str) -> Vec<NaturalPart> {
    let mut out = Vec::new();
    let mut num = String::new();
    let mut text = String::new();
    for ch in s.chars() {
        if ch.is_ascii_digit() {
            if !text.is_empty() {
                out.push(NaturalPart::Text(std::mem::take(&mut text)));
            }
            num.push(ch);
        } else {
            if !num.is_empty() {
                out.push(NaturalPart::Num(num.parse().unwrap_or(u64::MAX)));
                num.clear();
            }
            text.push(ch.to_ascii_lowercase());
        }
    }
    if !num.is_empty() {
        out.push(NaturalPart::Num(num.parse().unwrap_or(u64::MAX)));
    }
    if !text.is_empty() {
        out.push(NaturalPart::Text(text));
    }
    out
}
