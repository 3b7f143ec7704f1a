//! `arbiter rules check|list|explain`: a ruleset checked, its clauses
//! listed, a rule or a built-in check explained.

use std::path::{Path, PathBuf};

use super::RulesFileError;
use crate::rules::analysis::{Check, Ruleset, clauses};

/// Read and analyze a ruleset; the error is rendered with file, line and
/// caret. Also returns its text.
pub fn load(path: &Path) -> Result<(Ruleset, String), RulesFileError> {
    let shown = path.display().to_string();
    // a regular file, within the size limit
    let src =
        crate::pipeline::config::read_ruleset_text(path).map_err(|source| RulesFileError::Io {
            path: shown.clone(),
            source,
        })?;
    match crate::pipeline::config::compile_text(&shown, &src, None) {
        Ok(rs) => Ok((rs, src)),
        Err(e) => Err(RulesFileError::Ruleset {
            rendered: e.render(),
            path: e.path,
            source: e.error,
        }),
    }
}

/// `rules check`: the ruleset analyzed, summed up in one line.
pub fn check(file: &Path) -> Result<String, RulesFileError> {
    load(file).map(|(rs, _)| {
        let checked = rs
            .rules
            .iter()
            .filter(|r| !matches!(r.check, Check::Manual(_)))
            .count();
        format!(
            "{}: ok: ruleset {} ({}), {} rules ({} checked, {} manual), {} variants, {} switches",
            file.display(),
            rs.id,
            rs.title,
            rs.rules.len(),
            checked,
            rs.rules.len() - checked,
            rs.variants.len(),
            rs.switches.len()
        )
    })
}

/// `rules list`: every clause the ruleset cites, with its rules.
pub fn list_file(file: &Path) -> Result<String, RulesFileError> {
    load(file).map(|(rs, _)| list(&rs))
}

fn list(rs: &Ruleset) -> String {
    let mut s = format!("{} — {}\n{}\n\n", rs.id, rs.title, rs.regulation);
    for (clause, rules) in clauses(rs) {
        let ids: Vec<String> = rules
            .iter()
            .map(|(id, manual)| {
                if *manual {
                    format!("{id} [manual]")
                } else {
                    id.clone()
                }
            })
            .collect();
        s.push_str(&format!("{clause:<24} {}\n", ids.join(", ")));
    }
    s.pop();
    s
}

/// `rules explain`: a rule of `rules` (default: every ruleset in
/// `./rulesets`, then the shipped rulesets built into arbiter that are not
/// there, so that an installed binary explains them anywhere), else a
/// built-in code.
pub fn explain(id: &str, rules: Option<&Path>) -> Result<String, RulesFileError> {
    let files: Vec<PathBuf> = match rules {
        Some(p) => vec![p.to_path_buf()],
        None => {
            let mut v: Vec<PathBuf> = std::fs::read_dir("rulesets")
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            v.retain(|p| p.extension().is_some_and(|e| e == "rules"));
            v.sort();
            v
        }
    };
    for f in &files {
        let (rs, _) = load(f)?;
        if let Some(r) = rs.rules.iter().find(|r| r.id == id) {
            return Ok(rule_text(&rs, &f.display().to_string(), r));
        }
    }
    let mut searched: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    if rules.is_none() {
        let on_disk = |name: &str| {
            files
                .iter()
                .any(|f| f.file_stem().is_some_and(|s| s == name))
        };
        for (name, _) in crate::pipeline::config::SHIPPED {
            if on_disk(name) {
                continue;
            }
            let shown = format!("{name}.rules (built in)");
            searched.push(shown.clone());
            if let Some(Ok(rs)) = crate::pipeline::Config::load_shipped(name)
                && let Some(r) = rs.rules.iter().find(|r| r.id == id)
            {
                return Ok(rule_text(&rs, &shown, r));
            }
        }
    }
    if let Some(code) = crate::findings::codes::find(id) {
        let mut s = format!(
            "{} (built-in, {})\n\n{}\n",
            code.id,
            code.severity_text(),
            code.paragraph()
        );
        if let Some(doc) = crate::checks::check_doc(id) {
            s.push_str(&format!("\nThe check that makes it:\n\n{doc}\n"));
        }
        return Ok(s);
    }
    Err(RulesFileError::NotFound {
        id: id.to_string(),
        searched,
    })
}

/// What `rules explain` says of rule `r` of `rs` (read from `shown`).
fn rule_text(rs: &Ruleset, shown: &str, r: &crate::rules::analysis::RuleDef) -> String {
    let mut s = format!(
        "{} — {}\nruleset: {} ({}:{})\nseverity: {}\n",
        r.id,
        r.title,
        rs.id,
        shown,
        r.line,
        r.severity.as_str()
    );
    for c in &r.cites {
        s.push_str(&format!("clause {}: \"{}\"\n", c.clause, c.quote));
    }
    if !r.sanction.is_empty() {
        s.push_str(&format!("sanction: {}\n", r.sanction));
    }
    if !r.doc.is_empty() {
        s.push_str(&format!("\n{}\n", r.doc));
    }
    s.push_str(&format!("\n{}", r.source));
    s
}
