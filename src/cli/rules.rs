//! `arbiter rules …`: check, list and explain rulesets.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{CLEAN, FAILURE, RulesCommand};
use crate::rules::analysis::{Check, Ruleset, clauses};
use crate::rules::compile;

fn load(path: &Path) -> Result<(Ruleset, String), String> {
    let shown = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|e| format!("arbiter: {shown}: {e}"))?;
    compile(&shown, &src)
        .map(|rs| (rs, src.clone()))
        .map_err(|e| e.render(&shown, &src))
}

pub fn run(cmd: RulesCommand, out: &mut impl Write) -> i32 {
    let r = match cmd {
        RulesCommand::Check { file } => load(&file).map(|(rs, _)| {
            let checked = rs.rules.iter().filter(|r| !matches!(r.check, Check::Manual(_))).count();
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
        }),
        RulesCommand::List { file } => load(&file).map(|(rs, _)| list(&rs)),
        RulesCommand::Explain { id, rules } => explain(&id, rules.as_deref()),
        RulesCommand::Fit {
            paths,
            rules,
            per,
            variant,
            syzygy,
            format,
        } => {
            return match fit(&paths, &rules, per, variant.as_deref(), syzygy.as_deref(), format, out) {
                Ok(code) => code,
                Err(e) => {
                    say!("arbiter rules fit: {e}");
                    FAILURE
                }
            };
        }
    };
    match r {
        Ok(text) => match writeln!(out, "{text}") {
            Ok(()) => CLEAN,
            Err(_) => FAILURE,
        },
        Err(e) => {
            say!("{e}");
            FAILURE
        }
    }
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

fn explain(id: &str, rules: Option<&Path>) -> Result<String, String> {
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
            let mut s = format!(
                "{} — {}\nruleset: {} ({}:{})\nseverity: {}\n",
                r.id,
                r.title,
                rs.id,
                f.display(),
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
            return Ok(s);
        }
    }
    if let Some(doc) = crate::checks::explain(id) {
        return Ok(doc);
    }
    Err(format!(
        "arbiter: no rule or check `{id}` in {}",
        if files.is_empty() {
            "./rulesets (no .rules files found)".to_string()
        } else {
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
    ))
}

/// `arbiter rules fit`: read and replay every game once, fit each group,
/// print the report. A file that cannot be read is reported and the others
/// are fitted; a group that cannot be fitted likewise.
fn fit(
    paths: &[PathBuf],
    rules: &Path,
    per: super::FitPer,
    variant: Option<&str>,
    syzygy: Option<&Path>,
    format: super::Format,
    out: &mut impl Write,
) -> Result<i32, String> {
    use crate::pipeline::fit::read_games;
    use crate::rules::fit::{Game, fit_group};
    if !matches!(format, super::Format::Text | super::Format::Json) {
        return Err("--format takes text or json".into());
    }
    let (rs, _) = load(rules)?;
    if rs.fits.is_empty() {
        return Err(format!(
            "{}: no constant or switch is marked `fit` (docs/rules-language.md, Fitting)",
            rules.display()
        ));
    }
    if let Some(v) = variant {
        crate::rules::eval::Program::new(&rs, Some(v))?;
    }
    let detectors = match syzygy {
        Some(dir) => crate::rules::eval::Detectors::with_syzygy(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?,
        None => crate::rules::eval::Detectors::default(),
    };
    let mut failed = false;
    let mut games: Vec<Game> = Vec::new();
    for input in crate::pipeline::expand_inputs(paths) {
        let path = match input {
            Ok(crate::pipeline::Input::Pgn(p)) => p,
            Ok(crate::pipeline::Input::Case(dir)) => {
                say!(
                    "arbiter rules fit: {}: a case folder is one game with its logs, not an archive; skipped",
                    dir.display()
                );
                continue;
            }
            Err((p, e)) => {
                say!("arbiter rules fit: {}: {e}", p.display());
                failed = true;
                continue;
            }
        };
        match read_games(&path) {
            Ok(g) => games.extend(g),
            Err(e) => {
                say!("arbiter rules fit: {}: {e}", path.display());
                failed = true;
            }
        }
    }
    // the groups, in the order their first game was read
    let mut groups: Vec<(String, Vec<&Game>)> = Vec::new();
    for g in &games {
        let key = match per {
            super::FitPer::File => g.path.clone(),
            super::FitPer::Event => g.pgn.tag("Event").unwrap_or("").trim().to_string(),
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(g),
            None => groups.push((key, vec![g])),
        }
    }
    if groups.is_empty() {
        return Err("no game to fit".into());
    }
    let mut departs = false;
    // the groups fitted in parallel, reported in their order
    use rayon::prelude::*;
    let fits: Vec<(
        Result<crate::rules::fit::GroupFit, String>,
        std::time::Duration,
    )> = groups
        .par_iter()
        .map(|(key, list)| {
            let started = std::time::Instant::now();
            let r = fit_group(&rs, key, list, variant, &detectors);
            (r, started.elapsed())
        })
        .collect();
    for ((key, _), (fitted, took)) in groups.iter().zip(fits) {
        match fitted {
            Ok(f) => {
                departs |= f.departs();
                let text = match format {
                    super::Format::Json => serde_json::to_string(&f).map_err(|e| e.to_string())?,
                    _ => fit_text(&f, took),
                };
                writeln!(out, "{text}").map_err(|e| e.to_string())?;
            }
            Err(e) => {
                say!("arbiter rules fit: {key}: {e}");
                failed = true;
            }
        }
    }
    Ok(if failed {
        FAILURE
    } else if departs {
        super::VIOLATIONS
    } else {
        CLEAN
    })
}

fn pct(a: u64, of: u64) -> String {
    if of == 0 {
        "none recorded".into()
    } else {
        format!("{a} of {of} ({:.2}%)", 100.0 * a as f64 / of as f64)
    }
}

/// The report of one group, as text.
fn fit_text(f: &crate::rules::fit::GroupFit, took: std::time::Duration) -> String {
    let mut s = format!(
        "{}: {} game{}{}; {} points evaluated in {:.1} s\n",
        f.group,
        f.games,
        if f.games == 1 { "" } else { "s" },
        f.variant
            .as_ref()
            .map_or(String::new(), |v| format!(", variant {v}")),
        f.evaluations,
        took.as_secs_f64()
    );
    for x in &f.fits {
        let verdict = if x.fitted == x.text {
            "as the text".to_string()
        } else {
            format!("DEPARTS from the text's {}", x.text)
        };
        s.push_str(&format!(
            "  {} {} (line {}): text {}, fitted {} ({verdict}; {} values tried)",
            x.kind, x.name, x.line, x.text, x.fitted, x.tried
        ));
        if x.equally_good.len() > 1 {
            s.push_str(&format!(
                "; FLAT: {} values reproduce the record equally ({}), the data cannot decide between them",
                x.equally_good.len(),
                x.equally_good.join(", ")
            ));
        }
        s.push('\n');
    }
    for (what, a) in [("text", &f.under_text), ("fit", &f.under_fit)] {
        s.push_str(&format!(
            "  under the {what}: counters {}; terminations {}\n",
            pct(a.counters, a.counters_of),
            pct(a.terminations, a.terminations_of)
        ));
    }
    if !f.unreplayed.is_empty() {
        s.push_str(&format!(
            "  games not replayed to their end (counters scored up to the stop, terminations not): {}\n",
            f.unreplayed.len()
        ));
        for u in &f.unreplayed {
            s.push_str(&format!(
                "    {}:{}: game {}, ply {}: {}\n",
                u.path, u.line, u.game, u.ply, u.reason
            ));
        }
    }
    if f.decided.is_empty() {
        s.push_str("  games whose end the difference decides: none\n");
    } else {
        s.push_str(&format!(
            "  games whose end the difference decides: {}\n",
            f.decided.len()
        ));
        for d in &f.decided {
            s.push_str(&format!(
                "    {} round {} {} - {} ({}, {:?}, {} plies): text: {} ({}); fit: {} ({})\n",
                d.path,
                d.round,
                d.white,
                d.black,
                d.result,
                d.termination,
                d.plies,
                d.under_text,
                if d.text_agrees {
                    "agrees with the record"
                } else {
                    "disagrees"
                },
                d.under_fit,
                if d.fit_agrees {
                    "agrees with the record"
                } else {
                    "disagrees"
                },
            ));
        }
    }
    if let Some(b) = &f.variant_block {
        s.push_str("  variant to paste into the ruleset (use it with --variant):\n");
        for l in b.lines() {
            s.push_str(&format!("    {l}\n"));
        }
    }
    s
}
