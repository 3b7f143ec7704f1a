//! `arbiter rules fit`'s text: one group's fitted values beside the text's,
//! the agreement under both, and the games the difference decides.

/// The report of one group, as text.
pub fn text(f: &crate::rules::fit::GroupFit, took: std::time::Duration) -> String {
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
            "  under the {what}: counters {}; terminations {}; clock readings {}; TimeControl tags {}\n",
            pct(a.counters, a.counters_of),
            pct(a.terminations, a.terminations_of),
            pct(a.clocks, a.clocks_of),
            pct(a.tags, a.tags_of)
        ));
    }
    if f.undecided > 0 {
        s.push_str(&format!(
            "  games an adjudication left undecided (a tablebase position with no table; --syzygy DIR): {}, their terminations not scored\n",
            f.undecided
        ));
    }
    if f.undescribed.is_empty() {
        s.push_str(&format!(
            "  not described: none (no rule fires in more than {} of the {} games under the fit)\n",
            crate::rules::fit::undescribed_limit(f.games),
            f.games
        ));
    }
    for u in &f.undescribed {
        s.push_str(&format!(
            "  NOT DESCRIBED: {} (line {}) fires in {} of {} games under the fit ({} findings): no value the ruleset lets the fit change describes it; first: {}\n",
            u.rule,
            u.line,
            u.games,
            u.of,
            u.findings,
            u.first.join("; ")
        ));
    }
    if !f.unreplayed.is_empty() {
        s.push_str(&format!(
            "  games not replayed to their end (counters scored up to the stop, terminations not): {}\n",
            f.unreplayed.len()
        ));
    }
    for u in &f.unreplayed {
        s.push_str(&format!(
            "    {}:{}: game {}, ply {}: {}\n",
            u.path, u.line, u.game, u.ply, u.reason
        ));
    }
    match f.decided.len() {
        0 => s.push_str("  games whose end the difference decides: none\n"),
        n => s.push_str(&format!("  games whose end the difference decides: {n}\n")),
    }
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
    if let Some(b) = &f.variant_block {
        s.push_str("  variant to paste into the ruleset (use it with --variant):\n");
        for l in b.lines() {
            s.push_str(&format!("    {l}\n"));
        }
    }
    s
}

fn pct(a: u64, of: u64) -> String {
    if of == 0 {
        "none recorded".into()
    } else {
        format!("{a} of {of} ({:.2}%)", 100.0 * a as f64 / of as f64)
    }
}
