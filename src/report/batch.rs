//! The batch's tables (polars) and its summary: built only with the
//! `tables` feature (on by default), so that a build without polars (the
//! fuzz targets) keeps everything else.
//!
//! The two tables with a row per game or per finding are built and written
//! a piece of [`PIECE_ROWS`] rows at a time (a Parquet row group each), so
//! that their memory does not grow with the archive; the others are small
//! (a row per group, event or clock finding) and are kept for the summary.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use polars::prelude::*;

use crate::findings::{Finding, Severity};
use crate::pipeline::batch::{GameRecord, Outcome};

/// The rows of a per-game or per-finding table built and written at once.
/// A fixed number, so that the files do not depend on the threads.
const PIECE_ROWS: usize = 4_096;

/// What the summary shows of the tables: every table but `games` and
/// `findings` (which only their files hold), in order, and each event's
/// standings.
#[derive(Debug)]
pub struct Shown {
    pub tables: Vec<(&'static str, DataFrame)>,
    pub standings: BTreeMap<String, Vec<crate::facts::standings::Row>>,
}

fn pe(e: PolarsError) -> String {
    e.to_string()
}

/// A row of the findings table: where the finding stands and itself.
struct FindingRow<'a> {
    file: &'a str,
    game: Option<u64>,
    event: &'a str,
    round: &'a str,
    ply: Option<u64>,
    /// The player who made the move at the finding's ply, else the game's
    /// two players; for an event-level finding, what it is about.
    engine: std::borrow::Cow<'a, str>,
    finding: &'a Finding,
}

/// The rows of the findings table: the games' findings in input order,
/// then the event-level rules' (about an entrant, a pair, a game of the
/// event, or the event itself).
fn finding_rows(o: &Outcome) -> Vec<FindingRow<'_>> {
    let mut rows = Vec::new();
    for r in &o.games {
        for f in &r.findings {
            let ply = f.evidence.iter().find_map(|e| e.ply);
            let engine = match ply {
                Some(p) if p % 2 == 1 => (&*r.white).into(),
                Some(_) => (&*r.black).into(),
                None => format!("{} / {}", r.white, r.black).into(),
            };
            rows.push(FindingRow {
                file: &r.file,
                game: Some(r.game as u64),
                event: &r.event,
                round: &r.round,
                ply: ply.map(u64::from),
                engine,
                finding: f,
            });
        }
    }
    for e in &o.events {
        for (who, f) in &e.findings {
            let at = f.evidence.first();
            let line = at.and_then(|a| a.span).map(|s| s.line);
            rows.push(FindingRow {
                file: at.map_or("", |a| &a.path),
                game: o
                    .games
                    .iter()
                    .find(|g| {
                        g.in_event && Some(g.line) == line && at.is_some_and(|a| *a.path == *g.file)
                    })
                    .map(|g| g.game as u64),
                event: &e.case.name,
                round: "",
                ply: None,
                engine: who.as_str().into(),
                finding: f,
            });
        }
    }
    rows
}

/// Rows `rows` of the games table.
fn games_piece(g: &[GameRecord]) -> PolarsResult<DataFrame> {
    df!(
        "file" => g.iter().map(|r| &*r.file).collect::<Vec<_>>(),
        "game" => g.iter().map(|r| r.game as u64).collect::<Vec<_>>(),
        "event" => g.iter().map(|r| &*r.event).collect::<Vec<_>>(),
        "round" => g.iter().map(|r| &*r.round).collect::<Vec<_>>(),
        "white" => g.iter().map(|r| &*r.white).collect::<Vec<_>>(),
        "black" => g.iter().map(|r| &*r.black).collect::<Vec<_>>(),
        "result" => g.iter().map(|r| &*r.result).collect::<Vec<_>>(),
        "plies" => g.iter().map(|r| r.plies as u64).collect::<Vec<_>>(),
        "termination_details" => g.iter().map(|r| &*r.details).collect::<Vec<_>>(),
        "computed_rule" => g.iter().map(|r| &*r.computed_rule).collect::<Vec<_>>(),
        "computed_result" => g.iter().map(|r| &*r.computed_result).collect::<Vec<_>>(),
        "computed_ply" => g.iter().map(|r| r.computed_ply.map(u64::from)).collect::<Vec<_>>(),
        "errors" => g.iter().map(|r| r.findings.iter().filter(|f| f.severity == Severity::Error).count() as u64).collect::<Vec<_>>(),
        "warnings" => g.iter().map(|r| r.findings.iter().filter(|f| f.severity == Severity::Warning).count() as u64).collect::<Vec<_>>(),
    )
}

/// Rows `rows` of the findings table.
fn findings_piece(rows: &[FindingRow]) -> PolarsResult<DataFrame> {
    df!(
        "file" => rows.iter().map(|r| r.file).collect::<Vec<_>>(),
        "game" => rows.iter().map(|r| r.game).collect::<Vec<_>>(),
        "event" => rows.iter().map(|r| r.event).collect::<Vec<_>>(),
        "round" => rows.iter().map(|r| r.round).collect::<Vec<_>>(),
        "ply" => rows.iter().map(|r| r.ply).collect::<Vec<_>>(),
        "engine" => rows.iter().map(|r| &*r.engine).collect::<Vec<_>>(),
        "code" => rows.iter().map(|r| &*r.finding.code).collect::<Vec<_>>(),
        "severity" => rows.iter().map(|r| r.finding.severity.as_str()).collect::<Vec<_>>(),
        "rule" => rows.iter().map(|r| &*r.finding.rule).collect::<Vec<_>>(),
        "clause" => rows.iter().map(|r| &*r.finding.clause).collect::<Vec<_>>(),
        "message" => rows.iter().map(|r| &*r.finding.message).collect::<Vec<_>>(),
    )
}

/// `rows` in pieces of at most [`PIECE_ROWS`]; one empty piece when there
/// are none, so that an empty table still has its columns.
fn pieces<T>(rows: &[T]) -> impl Iterator<Item = &[T]> {
    let n = rows.len().div_ceil(PIECE_ROWS).max(1);
    (0..n).map(move |i| &rows[i * PIECE_ROWS..((i + 1) * PIECE_ROWS).min(rows.len())])
}

/// The tables the summary shows, from the findings' rows: findings by
/// rule, by engine and by round, the adjudications' agreement and the
/// clock anomalies.
fn small_tables(
    o: &Outcome,
    rows: &[FindingRow],
) -> Result<Vec<(&'static str, DataFrame)>, String> {
    let severity = |i: usize| rows[i].finding.severity.as_str();
    // findings by rule: most first, then by code and severity
    let by_rule = most_first(group_count(
        (0..rows.len()).map(|i| [&*rows[i].finding.code, severity(i)]),
    ));
    let by_rule = df!(
        "code" => by_rule.iter().map(|(k, _)| k[0]).collect::<Vec<_>>(),
        "severity" => by_rule.iter().map(|(k, _)| k[1]).collect::<Vec<_>>(),
        "findings" => by_rule.iter().map(|(_, (n, _))| *n).collect::<Vec<_>>(),
        "rule" => by_rule.iter().map(|(_, (_, first))| &*rows[*first].finding.rule).collect::<Vec<_>>(),
    )
    .map_err(pe)?;
    let groups = group_count((0..rows.len()).map(|i| [&*rows[i].engine, severity(i)]));
    let by_engine = df!(
        "engine" => groups.keys().map(|k| k[0]).collect::<Vec<_>>(),
        "severity" => groups.keys().map(|k| k[1]).collect::<Vec<_>>(),
        "findings" => groups.values().map(|(n, _)| *n).collect::<Vec<_>>(),
    )
    .map_err(pe)?;
    let groups = group_count((0..rows.len()).map(|i| [rows[i].event, rows[i].round, severity(i)]));
    let by_round = df!(
        "event" => groups.keys().map(|k| k[0]).collect::<Vec<_>>(),
        "round" => groups.keys().map(|k| k[1]).collect::<Vec<_>>(),
        "severity" => groups.keys().map(|k| k[2]).collect::<Vec<_>>(),
        "findings" => groups.values().map(|(n, _)| *n).collect::<Vec<_>>(),
    )
    .map_err(pe)?;
    // adjudication agreement: the recorded result against the ruleset's
    let groups = group_count(o.games.iter().map(|r| {
        [
            &*r.computed_rule,
            &*r.details,
            if r.computed_rule.is_empty() {
                "no rule ended the game"
            } else if r.computed_result == r.result {
                "same result"
            } else {
                "different result"
            },
        ]
    }));
    let adjudication = df!(
        "computed_rule" => groups.keys().map(|k| k[0]).collect::<Vec<_>>(),
        "termination_details" => groups.keys().map(|k| k[1]).collect::<Vec<_>>(),
        "agreement" => groups.keys().map(|k| k[2]).collect::<Vec<_>>(),
        "games" => groups.values().map(|(n, _)| *n).collect::<Vec<_>>(),
    )
    .map_err(pe)?;
    // findings about clocks and time: their codes name them
    let is_clock = |c: &str| ["clock", "flag", "time"].iter().any(|w| c.contains(w));
    let rows: Vec<(&GameRecord, &Finding)> = o
        .games
        .iter()
        .flat_map(|r| r.findings.iter().map(move |f| (r, f)))
        .filter(|(_, f)| is_clock(&f.code))
        .collect();
    let clock_anomalies = df!(
        "file" => rows.iter().map(|(r, _)| &*r.file).collect::<Vec<_>>(),
        "game" => rows.iter().map(|(r, _)| r.game as u64).collect::<Vec<_>>(),
        "event" => rows.iter().map(|(r, _)| &*r.event).collect::<Vec<_>>(),
        "round" => rows.iter().map(|(r, _)| &*r.round).collect::<Vec<_>>(),
        "ply" => rows.iter().map(|(_, f)| f.evidence.iter().find_map(|e| e.ply).map(u64::from)).collect::<Vec<_>>(),
        "code" => rows.iter().map(|(_, f)| &*f.code).collect::<Vec<_>>(),
        "severity" => rows.iter().map(|(_, f)| f.severity.as_str()).collect::<Vec<_>>(),
        "message" => rows.iter().map(|(_, f)| &*f.message).collect::<Vec<_>>(),
    )
    .map_err(pe)?;
    Ok(vec![
        ("findings_by_rule", by_rule),
        ("findings_by_engine", by_engine),
        ("findings_by_round", by_round),
        ("adjudication_agreement", adjudication),
        ("clock_anomalies", clock_anomalies),
    ])
}

/// Write every table of the batch into `dir`, as CSV and Parquet: the
/// games, the findings, the findings by rule, engine and round, the
/// adjudications' agreement, the clock anomalies and the standings.
/// What the summary shows of them comes back.
pub fn write_tables(dir: &Path, o: &Outcome) -> Result<Shown, String> {
    write_table(dir, "games", pieces(&o.games).map(games_piece))?;
    let rows = finding_rows(o);
    write_table(dir, "findings", pieces(&rows).map(findings_piece))?;
    let mut tables = small_tables(o, &rows)?;
    drop(rows);
    let (standings_df, standings) = standings_table(o)?;
    tables.push(("standings", standings_df));
    for (name, df) in &tables {
        write_table(dir, name, std::iter::once(Ok(df.clone())))?;
    }
    Ok(Shown { tables, standings })
}

/// Make ahead what polars' Parquet writer makes once per run: a buffer of
/// 8 MiB of zeroes, shared by every column of a row group that has no value
/// at all (the games' computed ending without a ruleset, a finding's ply at
/// the event level). Writing its zeroes and faulting in its pages took
/// about 20 ms after the last game, when the tables are written, the run's
/// longest step then. Called on a thread of its own as the batch starts,
/// beside the reading and the audit, when the batch runs without a ruleset:
/// then no game has a computed ending and the buffer is sure to be made
/// (with a ruleset it may never be, and 8 MiB would be kept for nothing).
/// The writer that needs the buffer waits for it if it is not made yet.
/// It writes a table of one empty cell to nowhere.
pub fn prepare_tables() {
    let column = Column::full_null("none".into(), 1, &DataType::Int64);
    if let Ok(mut df) = DataFrame::new(1, vec![column]) {
        // nothing is kept: an error here would be the tables' own, later
        let _ = ParquetWriter::new(std::io::sink())
            .set_parallel(false)
            .finish(&mut df);
    }
}

/// Groups with the most rows first; groups with as many rows keep the
/// keys' order.
fn most_first<const K: usize>(
    groups: BTreeMap<[&str; K], (u32, usize)>,
) -> Vec<([&str; K], (u32, usize))> {
    let mut v: Vec<_> = groups.into_iter().collect();
    v.sort_by_key(|(_, (n, _))| std::cmp::Reverse(*n));
    v
}

/// Rows grouped by their key columns, in the keys' order (each column's
/// text ascending): each group's number of rows (a `u32`, the type of
/// polars' own counts) and its first row.
fn group_count<'a, const K: usize>(
    keys: impl Iterator<Item = [&'a str; K]>,
) -> BTreeMap<[&'a str; K], (u32, usize)> {
    let mut groups: BTreeMap<[&'a str; K], (u32, usize)> = BTreeMap::new();
    for (i, k) in keys.enumerate() {
        groups.entry(k).or_insert((0, i)).0 += 1;
    }
    groups
}

/// The standings of every event, as a table.
fn standings_table(
    o: &Outcome,
) -> Result<
    (
        DataFrame,
        BTreeMap<String, Vec<crate::facts::standings::Row>>,
    ),
    String,
> {
    let by_event: Vec<(String, Vec<crate::facts::standings::Row>)> = o
        .events
        .iter()
        .map(|e| (e.case.name.clone(), e.case.standings.clone()))
        .collect();
    let mut all = BTreeMap::new();
    let (
        mut ev,
        mut rank,
        mut player,
        mut games,
        mut points,
        mut wins,
        mut draws,
        mut losses,
        mut crashes,
        mut tb,
    ) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    for (event, rows) in by_event {
        for r in &rows {
            ev.push(event.clone());
            rank.push(r.rank as u64);
            player.push(format!(
                "{}{}",
                r.player,
                if r.tied { " (tied)" } else { "" }
            ));
            games.push(r.games as u64);
            points.push(r.points);
            wins.push(r.wins as u64);
            draws.push(r.draws as u64);
            losses.push(r.losses as u64);
            crashes.push(r.crashes as u64);
            tb.push(
                r.tiebreaks
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join("; "),
            );
        }
        all.insert(event, rows);
    }
    let df = df!(
        "event" => ev, "rank" => rank, "player" => player, "games" => games,
        "points" => points, "wins" => wins, "draws" => draws, "losses" => losses,
        "crashes" => crashes, "tiebreaks" => tb,
    )
    .map_err(pe)?;
    Ok((df, all))
}

/// The header line of a CSV file with `df`'s columns, as polars writes it
/// (a name is quoted only where it must be). arbiter writes it itself:
/// polars' own header fills an 8 MiB buffer of zeroes, which would stay in
/// memory to the end of the run.
fn csv_header(df: &DataFrame) -> String {
    let mut line = df
        .get_column_names()
        .iter()
        .map(|n| {
            if n.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", n.replace('"', "\"\""))
            } else {
                n.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    line.push('\n');
    line
}

/// Write table `name` into `dir` as `name.csv` and `name.parquet`, from its
/// pieces in order (at least one; each is a row group of the Parquet file).
fn write_table(
    dir: &Path,
    name: &str,
    pieces: impl Iterator<Item = PolarsResult<DataFrame>>,
) -> Result<(), String> {
    let csv_path = dir.join(format!("{name}.csv"));
    let pq_path = dir.join(format!("{name}.parquet"));
    let in_csv = |e: &dyn std::fmt::Display| format!("{}: {e}", csv_path.display());
    let in_pq = |e: &dyn std::fmt::Display| format!("{}: {e}", pq_path.display());
    let mut csv =
        std::io::BufWriter::new(std::fs::File::create(&csv_path).map_err(|e| in_csv(&e))?);
    let mut pieces = pieces;
    let Some(first) = pieces.next() else {
        return csv.flush().map_err(|e| in_csv(&e));
    };
    let first = first.map_err(pe)?;
    csv.write_all(csv_header(&first).as_bytes())
        .map_err(|e| in_csv(&e))?;
    // the Parquet writer writes a few bytes at a time: buffered, a table
    // takes a handful of system calls instead of thousands
    let mut pq_file =
        std::io::BufWriter::new(std::fs::File::create(&pq_path).map_err(|e| in_pq(&e))?);
    let mut pq = ParquetWriter::new(&mut pq_file)
        .set_parallel(false)
        .batched(first.schema())
        .map_err(|e| in_pq(&e))?;
    for piece in std::iter::once(Ok(first)).chain(pieces) {
        let mut df = piece.map_err(pe)?;
        CsvWriter::new(&mut csv)
            .include_header(false)
            .n_threads(1)
            .finish(&mut df)
            .map_err(|e| in_csv(&e))?;
        pq.write_batch(&df).map_err(|e| in_pq(&e))?;
    }
    csv.flush().map_err(|e| in_csv(&e))?;
    pq.finish().map_err(|e| in_pq(&e))?;
    drop(pq);
    pq_file.flush().map_err(|e| in_pq(&e))
}

/// A table's cells as text (every column cast to strings).
fn cells(df: &DataFrame, limit: usize) -> Result<(Vec<String>, Vec<Vec<String>>), String> {
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let head = df.head(Some(limit));
    // a column with no values at all is not cast: polars would fill an
    // 8 MiB buffer of zeroes for it, kept to the end of the run
    let mut columns = Vec::new();
    for n in &names {
        let c = head.column(n).map_err(pe)?;
        columns.push(if c.null_count() == c.len() {
            None
        } else {
            Some(
                c.cast(&DataType::String)
                    .map_err(pe)?
                    .str()
                    .map_err(pe)?
                    .clone(),
            )
        });
    }
    let rows = (0..head.height())
        .map(|i| {
            columns
                .iter()
                .map(|c| c.as_ref().and_then(|c| c.get(i)).unwrap_or("").to_string())
                .collect()
        })
        .collect();
    Ok((names, rows))
}

/// The batch's first screen: its games with findings, the number of all
/// its games and of each event's, and its events' findings.
fn verdict<'a>(o: &'a Outcome, facts: &[String]) -> crate::report::dossier::Verdict<'a> {
    use crate::report::dossier::{VerdictGame, game_anchor};
    crate::report::dossier::Verdict {
        games: o
            .games
            .iter()
            .filter(|g| !g.findings.is_empty())
            .map(|g| VerdictGame {
                anchor: game_anchor(g.game, &g.file),
                linked: false,
                path: &g.file,
                number: g.game,
                event: &g.event,
                round: &g.round,
                white: &g.white,
                black: &g.black,
                result: &g.result,
                findings: &g.findings,
            })
            .collect(),
        total_games: o.games.len(),
        events: crate::report::dossier::event_counts(o.games.iter().map(|g| &*g.event)),
        event_findings: o
            .events
            .iter()
            .flat_map(|e| e.findings.iter().map(|(_, f)| (e.case.name.as_str(), f)))
            .collect(),
        facts: facts.to_vec(),
        unreadable: o.unreadable.len(),
    }
}

/// The games with findings the first screen lists; the others are in
/// findings.csv.
const VERDICT_ROWS: usize = 100;

/// Each event's standings in one line: rank, player and points.
fn standings_lines(
    standings: &BTreeMap<String, Vec<crate::facts::standings::Row>>,
) -> Vec<(String, String)> {
    standings
        .iter()
        .map(|(event, rows)| {
            let line = rows
                .iter()
                .map(|r| {
                    format!(
                        "{}. {}{} ({})",
                        r.rank,
                        r.player,
                        if r.tied { " (tied)" } else { "" },
                        r.points
                    )
                })
                .collect::<Vec<_>>()
                .join(" · ");
            (event.clone(), line)
        })
        .collect()
}

/// The summary, as Markdown and as one self-contained HTML file, in the
/// dossier's order: the verdict (counts, the gravest finding, the
/// standings, the games with findings worst first), the tables, the
/// pairings, the event-level rules, the standings in full, and last the
/// record of inputs.
pub fn summaries(
    o: &Outcome,
    shown: &Shown,
    facts: &[String],
    record: &crate::report::dossier::Record,
) -> Result<(String, String), String> {
    use crate::report::dossier::{SCRIPT, STYLE, escape_html, filter, first_screen as parts, md};
    use std::fmt::Write as _;
    let (tables, standings) = (&shown.tables, &shown.standings);
    let v = verdict(o, facts);
    let mut m = String::from("# arbiter batch\n\n");
    m.push_str("Contents: [Verdict](#verdict) · [Tables](#tables) · [Pairings](#pairings) · [Event-level rules](#event-rules) · [Standings](#standings) · [Appendix: record of inputs](#record)\n\n<a id=\"verdict\"></a>\n\n## Verdict\n\n");
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>arbiter batch</title><style>{STYLE}</style></head><body><h1>arbiter batch</h1><nav class=\"toc\" aria-label=\"Contents\"><a href=\"#verdict\">Verdict</a><a href=\"#tables\">Tables</a><a href=\"#pairings\">Pairings</a><a href=\"#event-rules\">Event-level rules</a><a href=\"#standings\">Standings</a><a href=\"#record\">Appendix: record of inputs</a></nav>\n<section id=\"verdict\"><h2>Verdict</h2>"
    );
    h.push_str(&parts::summary_html(&v));
    m.push_str(&parts::summary_md(&v));
    h.push_str(&parts::gravest_html(&v, None));
    m.push_str(&parts::gravest_md(&v, None));
    if !standings.is_empty() {
        h.push_str("<h3>Standings</h3>");
        m.push_str("### Standings\n\n");
        for (event, line) in standings_lines(standings) {
            let _ = write!(
                h,
                "<p class=\"standing\"><b>{}</b>: {}</p>",
                escape_html(&event),
                escape_html(&line)
            );
            let _ = writeln!(m, "- **{}**: {}", md(&event), md(&line));
        }
        m.push('\n');
    }
    h.push_str("<h3>Games with findings, worst first</h3>");
    h.push_str(&filter(&v));
    m.push_str("### Games with findings, worst first\n\n");
    h.push_str(&parts::table_html(&v, VERDICT_ROWS));
    m.push_str(&parts::table_md(&v, VERDICT_ROWS));
    h.push_str("</section>\n<section id=\"tables\"><h2>Tables</h2>");
    m.push_str("<a id=\"tables\"></a>\n\n## Tables\n");
    if let Ok(svg) = bar_chart(o) {
        h.push_str(&svg);
    }
    for (name, df) in tables {
        let (cols, rows) = cells(df, 60)?;
        let title = name.replace('_', " ");
        let _ = write!(m, "\n### {}\n\n", md(&title));
        let _ = write!(h, "<h3>{}</h3>", escape_html(&title));
        if rows.is_empty() {
            m.push_str("none\n");
            h.push_str("<p>none</p>");
            continue;
        }
        let _ = writeln!(
            m,
            "| {} |",
            cols.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
        );
        let _ = writeln!(m, "|{}", "---|".repeat(cols.len()));
        h.push_str("<table><tr>");
        for c in &cols {
            let _ = write!(h, "<th>{}</th>", escape_html(c));
        }
        h.push_str("</tr>");
        for r in &rows {
            let _ = writeln!(
                m,
                "| {} |",
                r.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
            );
            h.push_str("<tr>");
            for c in r {
                let _ = write!(h, "<td>{}</td>", escape_html(c));
            }
            h.push_str("</tr>");
        }
        h.push_str("</table>");
        if df.height() > rows.len() {
            let more = format!("… {} more rows in {name}.csv", df.height() - rows.len());
            let _ = writeln!(m, "\n{}", md(&more));
            let _ = write!(h, "<p>{}</p>", escape_html(&more));
        }
    }
    h.push_str("</section>\n");
    // round robins: each pair equally often with each colour
    m.push_str("\n<a id=\"pairings\"></a>\n\n## Pairings\n\n");
    h.push_str("<section id=\"pairings\"><h2>Pairings</h2><ul>");
    // each event's games as the standings see them, made one event at a
    // time (not every game's at once)
    let mut by_event: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, g) in o.games.iter().enumerate() {
        by_event.entry(&g.event).or_default().push(i);
    }
    for (event, games) in &by_event {
        let list: Vec<crate::facts::standings::Game> =
            games.iter().map(|&i| o.games[i].standing()).collect();
        let bad = crate::facts::standings::unbalanced_pairs(&list);
        let line = if bad.is_empty() {
            format!(
                "{event}: unbalanced pairs: none (every pair played equally often with each colour)"
            )
        } else {
            format!(
                "{event}: unbalanced pairs: {}",
                bad.iter()
                    .map(|(a, b, x, y)| format!("{a} - {b} ({x} with White, {y} with Black)"))
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        };
        let _ = writeln!(m, "- {}", md(&line));
        let _ = write!(h, "<li>{}</li>", escape_html(&line));
    }
    h.push_str("</ul></section>\n");
    // the rules that span an event
    m.push_str("\n<a id=\"event-rules\"></a>\n\n## Event-level rules\n\n");
    h.push_str("<section id=\"event-rules\"><h2>Event-level rules</h2><ul>");
    for e in &o.events {
        let head = match (&e.skipped, &e.variant) {
            (Some(why), _) => format!("{}: not checked ({why})", e.case.name),
            (None, v) => format!(
                "{} ({} games{}): {} finding{}",
                e.case.name,
                e.games,
                v.as_ref()
                    .map(|v| format!(", variant {v}"))
                    .unwrap_or_default(),
                e.findings.len(),
                if e.findings.len() == 1 { "" } else { "s" }
            ),
        };
        let _ = writeln!(m, "- {}", md(&head));
        let _ = write!(h, "<li>{}<ul>", escape_html(&head));
        for (_, f) in &e.findings {
            let line = format!("{} [{}] {}", f.code, f.severity.as_str(), f.message);
            let _ = writeln!(m, "  - {}", md(&line));
            let _ = write!(h, "<li>{}</li>", escape_html(&line));
        }
        for i in &e.indeterminate {
            let line = format!("{}: not decided: {}", i.rule, i.reason);
            let _ = writeln!(m, "  - {}", md(&line));
            let _ = write!(h, "<li>{}</li>", escape_html(&line));
        }
        h.push_str("</ul></li>");
    }
    h.push_str("</ul></section>\n");
    m.push_str("\n<a id=\"standings\"></a>\n\n## Standings\n");
    h.push_str("<section id=\"standings\"><h2>Standings</h2>");
    for (event, rows) in standings {
        let _ = write!(
            m,
            "\n### {}\n\n| rank | player | games | points | wins | draws | losses | crashes | tiebreaks |\n|---|---|---|---|---|---|---|---|---|\n",
            md(event)
        );
        let _ = write!(
            h,
            "<h3>{}</h3><table><tr><th>rank</th><th>player</th><th>games</th><th>points</th><th>wins</th><th>draws</th><th>losses</th><th>crashes</th><th>tiebreaks</th></tr>",
            escape_html(event)
        );
        for r in rows {
            let tb = r
                .tiebreaks
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join("; ");
            let player = format!("{}{}", r.player, if r.tied { " (tied)" } else { "" });
            let _ = writeln!(
                m,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                r.rank,
                md(&player),
                r.games,
                r.points,
                r.wins,
                r.draws,
                r.losses,
                r.crashes,
                md(&tb)
            );
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                r.rank,
                escape_html(&player),
                r.games,
                r.points,
                r.wins,
                r.draws,
                r.losses,
                r.crashes,
                escape_html(&tb)
            );
        }
        h.push_str("</table>");
    }
    h.push_str("</section>\n");
    if !o.unreadable.is_empty() {
        m.push_str("\n## Unreadable inputs\n\n");
        h.push_str("<h2>Unreadable inputs</h2><ul>");
        for (p, e) in &o.unreadable {
            let _ = writeln!(m, "- {}: {}", md(p), md(e));
            let _ = write!(h, "<li>{}: {}</li>", escape_html(p), escape_html(e));
        }
        h.push_str("</ul>");
    }
    m.push('\n');
    m.push_str(&parts::record_md(record));
    h.push_str(&parts::record_html(record));
    let _ = write!(h, "<script>{SCRIPT}</script>\n</body></html>\n");
    Ok((m, h))
}

/// Findings by code, as a horizontal bar chart (SVG).
fn bar_chart(o: &Outcome) -> Result<String, String> {
    use plotters::prelude::*;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for f in o.games.iter().flat_map(|g| &g.findings) {
        *counts.entry(f.code.clone()).or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.truncate(20);
    if v.is_empty() {
        return Err("no findings".into());
    }
    let max = v.iter().map(|x| x.1).max().unwrap_or(1) as f64;
    let height = 60 + 22 * v.len() as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.draw(&Text::new("Findings by code", (10, 10), ("sans-serif", 16)))
            .map_err(e)?;
        for (i, (code, n)) in v.iter().enumerate() {
            let y = 40 + 22 * i as i32;
            let w = (500.0 * *n as f64 / max).round() as i32;
            root.draw(&Text::new(
                crate::report::chart::escape(code),
                (10, y + 3),
                ("sans-serif", 12),
            ))
            .map_err(e)?;
            root.draw(&Rectangle::new(
                [(300, y), (300 + w.max(1), y + 16)],
                RGBColor(30, 90, 200).filled(),
            ))
            .map_err(e)?;
            root.draw(&Text::new(
                n.to_string(),
                (306 + w.max(1), y + 3),
                ("sans-serif", 12),
            ))
            .map_err(e)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::{PIECE_ROWS, csv_header, group_count, most_first, pieces, write_table};
    use polars::prelude::*;

    /// A table of `n` rows, each piece built from its own rows as the
    /// games and findings tables are.
    fn numbered(n: usize) -> (Vec<(u64, String)>, DataFrame) {
        let rows: Vec<(u64, String)> = (0..n as u64)
            .map(|i| (i, format!("row {i}, \"quoted\"")))
            .collect();
        let whole = df!(
            "n" => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            "text" => rows.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(),
        )
        .unwrap();
        (rows, whole)
    }

    fn piece(rows: &[(u64, String)]) -> PolarsResult<DataFrame> {
        df!(
            "n" => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            "text" => rows.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(),
        )
    }

    #[test]
    fn a_table_of_several_pieces_is_written_whole_a_row_group_per_piece() {
        let dir = tempfile::tempdir().unwrap();
        let n = 2 * PIECE_ROWS + 7;
        let (rows, mut whole) = numbered(n);
        write_table(dir.path(), "t", pieces(&rows).map(piece)).unwrap();
        // the CSV is what polars writes for the whole table at once
        let mut expected = Vec::new();
        CsvWriter::new(&mut expected).finish(&mut whole).unwrap();
        let written = std::fs::read(dir.path().join("t.csv")).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            String::from_utf8(expected).unwrap()
        );
        // the Parquet file reads back as the whole table, in three row groups
        let f = std::fs::File::open(dir.path().join("t.parquet")).unwrap();
        let mut reader = ParquetReader::new(f);
        assert_eq!(reader.get_metadata().unwrap().row_groups.len(), 3);
        let back = reader.finish().unwrap();
        assert!(back.equals(&whole), "{back:?}");
    }

    #[test]
    fn an_empty_table_keeps_its_columns() {
        let dir = tempfile::tempdir().unwrap();
        let rows: Vec<(u64, String)> = Vec::new();
        write_table(dir.path(), "t", pieces(&rows).map(piece)).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("t.csv")).unwrap(),
            "n,text\n"
        );
        let f = std::fs::File::open(dir.path().join("t.parquet")).unwrap();
        let back = ParquetReader::new(f).finish().unwrap();
        assert_eq!(back.height(), 0);
        assert_eq!(back.get_column_names(), ["n", "text"]);
    }

    #[test]
    fn a_header_name_is_quoted_only_where_csv_needs_it() {
        let df = df!("plain" => [1u64], "a,b" => [2u64], "say \"x\"" => [3u64]).unwrap();
        let mut polars_header = Vec::new();
        CsvWriter::new(&mut polars_header)
            .finish(&mut df.head(Some(0)))
            .unwrap();
        assert_eq!(csv_header(&df), "plain,\"a,b\",\"say \"\"x\"\"\"\n");
        assert_eq!(csv_header(&df).as_bytes(), polars_header.as_slice());
    }

    #[test]
    fn groups_are_counted_in_the_keys_order_with_their_first_row() {
        let rows = [["b", "x"], ["a", "y"], ["b", "x"], ["a", "x"], ["b", "x"]];
        let groups: Vec<_> = group_count(rows.into_iter()).into_iter().collect();
        assert_eq!(
            groups,
            vec![
                (["a", "x"], (1, 3)),
                (["a", "y"], (1, 1)),
                (["b", "x"], (3, 0)),
            ]
        );
    }

    #[test]
    fn the_largest_groups_come_first_and_ties_keep_the_keys_order() {
        let rows = [
            ["r2", "info"],
            ["r1", "warning"],
            ["r2", "error"],
            ["r1", "error"],
            ["r3", "error"],
            ["r3", "error"],
        ];
        let keys: Vec<[&str; 2]> = most_first(group_count(rows.into_iter()))
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(
            keys,
            vec![
                ["r3", "error"],
                ["r1", "error"],
                ["r1", "warning"],
                ["r2", "error"],
                ["r2", "info"],
            ]
        );
    }
}
