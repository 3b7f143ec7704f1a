//! Plain-text output for people at a terminal.

use std::fmt::Write as _;

use shakmaty::{Color, Position, Square};

use crate::findings::Finding;
use crate::findings::Totals;
use crate::pipeline::GameAudit;

/// Strip control characters so that input text cannot drive the terminal.
pub fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect()
}

pub fn finding(f: &Finding) -> String {
    let mut s = format!(
        "  {}[{}] {}: {}",
        f.severity.as_str(),
        f.code,
        f.title,
        clean(&f.message)
    );
    for e in &f.evidence {
        let _ = write!(s, "\n      --> {}", clean(&e.path));
        if let Some(sp) = e.span {
            let _ = write!(s, ":{}:{}", sp.line, sp.column);
        }
        if let Some(p) = e.ply {
            let _ = write!(s, " (ply {p})");
        }
        let _ = write!(s, " {}", clean(&e.note));
    }
    s
}

/// Text painted for a terminal that shows colours: in each line of a game,
/// a finding's severity (`error`, `warning`, `info`, `manual-review`) in
/// its colour and the evidence arrows dimmed. The text is this module's
/// own layout, and every text taken from the inputs has had its control
/// characters replaced ([`clean`]), so a line's start is always ours.
pub fn paint(text: &str) -> String {
    use anstyle::{AnsiColor, Style};
    let severities = [
        ("error", AnsiColor::Red.on_default().bold()),
        ("warning", AnsiColor::Yellow.on_default().bold()),
        ("info", AnsiColor::Cyan.on_default().bold()),
        ("manual-review", AnsiColor::Magenta.on_default().bold()),
    ];
    let arrow = Style::new().dimmed();
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let painted = severities.iter().find_map(|(word, style)| {
            let rest = line.strip_prefix("  ")?.strip_prefix(word)?;
            rest.starts_with('[')
                .then(|| format!("  {style}{word}{style:#}{rest}"))
        });
        match (painted, line.strip_prefix("      -->")) {
            (Some(p), _) => out.push_str(&p),
            (None, Some(rest)) => {
                let _ = write!(out, "      {arrow}-->{arrow:#}{rest}");
            }
            (None, None) => out.push_str(line),
        }
    }
    out
}

/// The verdict painted: bold, green when nothing was found (`status` 0),
/// red otherwise.
pub fn paint_verdict(line: &str, status: i32) -> String {
    use anstyle::AnsiColor;
    let colour = if status == 0 {
        AnsiColor::Green
    } else {
        AnsiColor::Red
    };
    let style = colour.on_default().bold();
    format!("{style}{line}{style:#}")
}

/// `n` with its thousands set apart by commas: `999,000`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut s = String::with_capacity(digits.len() * 4 / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            s.push(',');
        }
        s.push(d);
    }
    s
}

/// The line that says how many findings of `f`'s code the game had past
/// those it keeps ([`crate::findings::MAX_FINDINGS_PER_CODE`]), if any.
fn more_line(f: &Finding) -> Option<String> {
    (f.more > 0).then(|| {
        format!(
            "  … and {} more `{}` (not kept; counted in the totals)",
            thousands(f.more),
            f.code
        )
    })
}

/// One game and its findings, each on its lines.
pub fn game(audit: &GameAudit) -> String {
    game_with(audit, false)
}

/// One game; with `collapse`, the findings of one code that repeat at
/// three plies or more of the game on one line: their count, first and
/// last ply, and the first in full (the JSON keeps every one).
pub fn game_with(audit: &GameAudit, collapse: bool) -> String {
    let g = &audit.game;
    let t = |n: &str| clean(g.tag(n).unwrap_or("?"));
    let mut s = format!(
        "{}:{} game {}: {} - {} {} ({} plies{})",
        clean(&audit.path),
        g.line,
        g.index + 1,
        t("White"),
        t("Black"),
        t("Result"),
        audit.replay.plies.len(),
        if audit.replay.stop.is_some() {
            ", replay stopped"
        } else {
            ""
        }
    );
    if !collapse {
        for f in &audit.findings {
            s.push('\n');
            s.push_str(&finding(f));
            if let Some(more) = more_line(f) {
                s.push('\n');
                s.push_str(&more);
            }
        }
        return s;
    }
    // the codes in the order of their first finding, each with its findings
    let mut codes: Vec<(&str, Vec<&Finding>)> = Vec::new();
    for f in &audit.findings {
        match codes.iter_mut().find(|(c, _)| *c == f.code.as_str()) {
            Some((_, list)) => list.push(f),
            None => codes.push((&f.code, vec![f])),
        }
    }
    for (_, list) in codes {
        // a finding about the game as a whole (no ply) keeps its line: its
        // kind's findings say different things, not one thing again
        let at_plies = list
            .iter()
            .all(|f| f.evidence.iter().any(|e| e.ply.is_some()));
        if list.len() < 3 || !at_plies {
            for f in list {
                s.push('\n');
                s.push_str(&finding(f));
                if let Some(more) = more_line(f) {
                    s.push('\n');
                    s.push_str(&more);
                }
            }
            continue;
        }
        s.push('\n');
        match list.as_slice() {
            [one] => s.push_str(&finding(one)),
            [first, ..] => {
                let plies: Vec<u32> = list
                    .iter()
                    .filter_map(|f| f.evidence.iter().find_map(|e| e.ply))
                    .collect();
                let span = match (plies.iter().min(), plies.iter().max()) {
                    (Some(a), Some(b)) => format!(", plies {a} to {b}"),
                    _ => String::new(),
                };
                let mut one = (*first).clone();
                let more: u64 = list.iter().map(|f| f.more).sum();
                let (times, kept) = if more > 0 {
                    (
                        thousands(list.len() as u64 + more),
                        format!(
                            " (the JSON keeps the first {}, and counts every one)",
                            list.len()
                        ),
                    )
                } else {
                    (list.len().to_string(), " (each in the JSON)".to_string())
                };
                one.message = format!(
                    "{times} times in this game{span}{kept}; the first: {}",
                    first.message
                );
                one.more = 0;
                s.push_str(&finding(&one));
            }
            [] => {}
        }
    }
    s
}

pub fn summary(
    totals: &Totals,
    files: usize,
    ruleset: Option<&crate::rules::analysis::Ruleset>,
    similarity_report: bool,
) -> String {
    let manual = ruleset.map_or(0, |rs| rs.manual_review_clauses(similarity_report));
    let mut s = format!(
        "{} games in {} files, {} plies: {} errors, {} warnings, {} info, {} for manual review",
        totals.games,
        files,
        totals.plies,
        totals.by_severity[0],
        totals.by_severity[1],
        totals.by_severity[2],
        totals.by_severity[3] + manual as u64
    );
    if let Some(rs) = ruleset {
        s.push_str(&format!(
            " ({manual} clauses of {} only a human can judge: `arbiter rules list {}` marks them)",
            rs.id,
            clean(&rs.path)
        ));
        let events = rs.rules.iter().filter(|r| r.is_event_level()).count();
        if events > 0 {
            s.push_str(&format!(
                "; {events} rules span an event's games and are checked by `arbiter batch`"
            ));
        }
    }
    s
}

/// What an exit status says, for the summary's end: `unreadable` inputs
/// could not be read; `nothing`: no game was read at all.
pub fn status_meaning(status: i32, unreadable: usize, nothing: bool) -> String {
    match status {
        0 => "exit status 0: no violations".into(),
        1 => "exit status 1: violations found".into(),
        _ if unreadable == 0 && nothing => {
            "exit status 2: nothing to audit (no game read; said above)".into()
        }
        _ if unreadable == 1 => {
            "exit status 2: 1 input could not be read or used (said above)".into()
        }
        _ if unreadable > 1 => {
            format!("exit status 2: {unreadable} inputs could not be read or used (said above)")
        }
        s => format!("exit status {s}: a report could not be written (said above)"),
    }
}

/// An 8×8 diagram, White at the bottom.
pub fn board(pos: &shakmaty::Chess) -> String {
    let b = pos.board();
    let mut s = String::new();
    for rank in (0..8).rev() {
        let _ = write!(s, "  {} ", rank + 1);
        for file in 0..8 {
            let sq = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let c = b.piece_at(sq).map_or('.', |p| p.char());
            s.push(c);
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("    a b c d e f g h\n");
    let _ = write!(
        s,
        "  {} to move",
        if pos.turn() == Color::White {
            "White"
        } else {
            "Black"
        }
    );
    s
}
