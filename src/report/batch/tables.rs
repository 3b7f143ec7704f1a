//! The batch's tables (polars), written as CSV and Parquet.
//!
//! The two tables with a row per game or per finding are built and written
//! a piece of [`PIECE_ROWS`] rows at a time (a Parquet row group each), so
//! that their memory does not grow with the archive; the others are small
//! (a row per group, event or clock finding) and are kept for the summary.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use polars::prelude::*;

use super::{Shown, TableError};
use crate::base::files::Atomic;
use crate::findings::{Finding, Severity};
use crate::pipeline::batch::{GameRecord, Outcome};

/// The rows of a per-game or per-finding table built and written at once.
/// A fixed number, so that the files do not depend on the threads.
const PIECE_ROWS: usize = 4_096;

pub(super) fn pe(e: PolarsError) -> TableError {
    TableError::Polars(e)
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
        "evidence_file" => rows.iter().map(|r| first_place(r.finding).map(|(p, _)| p)).collect::<Vec<_>>(),
        "evidence_line" => rows.iter().map(|r| first_place(r.finding).map(|(_, s)| s.line as i64)).collect::<Vec<_>>(),
        "evidence_column" => rows.iter().map(|r| first_place(r.finding).map(|(_, s)| s.column as i64)).collect::<Vec<_>>(),
    )
}

/// The first place a finding's evidence points at: its file and span.
fn first_place(f: &Finding) -> Option<(&str, crate::base::span::Span)> {
    f.evidence
        .iter()
        .find_map(|e| e.span.map(|s| (e.path.as_str(), s)))
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
) -> Result<Vec<(&'static str, DataFrame)>, TableError> {
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
///
/// With `fitted` (`batch --fit`), the archive acceptance tables too (see
/// `acceptance`), first.
pub fn write_tables(
    dir: &Path,
    o: &Outcome,
    fitted: &BTreeMap<String, crate::rules::fit::FileFit>,
) -> Result<Shown, TableError> {
    write_table(dir, "games", pieces(&o.games).map(games_piece))?;
    let rows = finding_rows(o);
    write_table(dir, "findings", pieces(&rows).map(findings_piece))?;
    let mut tables = if fitted.is_empty() {
        Vec::new()
    } else {
        super::acceptance::tables(o, fitted)?
    };
    tables.extend(small_tables(o, &rows)?);
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

/// The column of tiebreak `name` in the standings table:
/// `tiebreak_opponents_scores` for `opponents-scores`.
fn tiebreak_column(name: &str) -> String {
    format!("tiebreak_{}", name.replace(['-', ' ', '.'], "_"))
}

/// The standings of every event, as a table.
fn standings_table(
    o: &Outcome,
) -> Result<
    (
        DataFrame,
        BTreeMap<String, Vec<crate::facts::standings::Row>>,
    ),
    TableError,
> {
    let by_event: Vec<(String, Vec<crate::facts::standings::Row>)> = o
        .events
        .iter()
        .map(|e| (e.case.name.clone(), e.case.standings.clone()))
        .collect();
    let mut all = BTreeMap::new();
    // each tiebreak a column of its own, in the order they first come
    let mut names: Vec<String> = Vec::new();
    for (_, rows) in &by_event {
        for (k, _) in rows.iter().flat_map(|r| &r.tiebreaks) {
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
    }
    let (mut ev, mut rank, mut player, mut tied) = (vec![], vec![], vec![], vec![]);
    let (mut games, mut points, mut wins, mut draws) = (vec![], vec![], vec![], vec![]);
    let (mut losses, mut crashes) = (vec![], vec![]);
    let mut tb: Vec<Vec<Option<f64>>> = vec![Vec::new(); names.len()];
    for (event, rows) in by_event {
        for r in &rows {
            ev.push(event.clone());
            rank.push(r.rank as i64);
            player.push(r.player.clone());
            tied.push(r.tied);
            games.push(r.games as i64);
            points.push(r.points);
            wins.push(r.wins as i64);
            draws.push(r.draws as i64);
            losses.push(r.losses as i64);
            crashes.push(r.crashes as i64);
            for (name, column) in names.iter().zip(tb.iter_mut()) {
                column.push(r.tiebreaks.iter().find(|(k, _)| k == name).map(|(_, v)| *v));
            }
        }
        all.insert(event, rows);
    }
    let mut df = df!(
        "event" => ev, "rank" => rank, "player" => player, "tied" => tied,
        "games" => games, "points" => points, "wins" => wins, "draws" => draws,
        "losses" => losses, "crashes" => crashes,
    )
    .map_err(pe)?;
    for (name, values) in names.iter().zip(tb) {
        let column = Column::new(tiebreak_column(name).into(), values);
        df.with_column(column).map_err(pe)?;
    }
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

/// Whether a spreadsheet would read text cell `s` as a formula: it starts
/// with `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP's list), and
/// is not a plain number (`-3` is read as the number it is).
fn formula_like(s: &str) -> bool {
    s.starts_with(['=', '+', '-', '@', '\t', '\r']) && s.parse::<f64>().is_err()
}

/// `df` as the CSV file shows it: each text cell that a spreadsheet would
/// read as a formula ([`formula_like`]) prefixed with a single quote, so
/// that it opens as text. Numbers stay numbers; the Parquet file keeps the
/// text as it is.
fn defused(df: &DataFrame) -> PolarsResult<DataFrame> {
    let columns = df
        .columns()
        .iter()
        .map(|c| {
            if c.dtype() != &DataType::String {
                return Ok(c.clone());
            }
            let text = c.str()?;
            if !text.iter().flatten().any(formula_like) {
                return Ok(c.clone());
            }
            let quoted = StringChunked::from_iter_options(
                c.name().clone(),
                text.iter().map(|v| {
                    v.map(|s| {
                        if formula_like(s) {
                            std::borrow::Cow::Owned(format!("'{s}"))
                        } else {
                            std::borrow::Cow::Borrowed(s)
                        }
                    })
                }),
            );
            Ok(quoted.into_column())
        })
        .collect::<PolarsResult<Vec<_>>>()?;
    DataFrame::new(df.height(), columns)
}

pub use crate::report::SCHEMA_VERSION;

/// `df` in the types every reader takes: each unsigned integer column as a
/// signed 64-bit one (pyarrow, pandas, DuckDB, Spark and the JVM readers
/// alike; the CSV digits are the same).
fn portable(df: DataFrame) -> PolarsResult<DataFrame> {
    let unsigned = |d: &DataType| {
        matches!(
            d,
            DataType::UInt8 | DataType::UInt16 | DataType::UInt32 | DataType::UInt64
        )
    };
    if !df.columns().iter().any(|c| unsigned(c.dtype())) {
        return Ok(df);
    }
    let columns = (df.columns().iter())
        .map(|c| {
            if unsigned(c.dtype()) {
                c.cast(&DataType::Int64)
            } else {
                Ok(c.clone())
            }
        })
        .collect::<PolarsResult<Vec<_>>>()?;
    DataFrame::new(df.height(), columns)
}

/// The `ARROW:schema` key of a Parquet file of `df`'s columns, in the
/// oldest Arrow form (`large_string` for text).
fn oldest_arrow_schema(df: &DataFrame) -> (String, String) {
    let schema = df.schema().to_arrow(CompatLevel::oldest());
    let kv = polars_parquet::write::schema_to_metadata_key(&schema);
    (kv.key, kv.value.unwrap_or_default())
}

/// Write table `name` into `dir` as `name.csv` and `name.parquet`, from its
/// pieces in order (at least one; each is a row group of the Parquet file).
fn write_table(
    dir: &Path,
    name: &str,
    pieces: impl Iterator<Item = PolarsResult<DataFrame>>,
) -> Result<(), TableError> {
    let csv_path = dir.join(format!("{name}.csv"));
    let pq_path = dir.join(format!("{name}.parquet"));
    let io_in = |p: &Path| {
        let path = p.display().to_string();
        move |source| TableError::Io { path, source }
    };
    let written_in = |p: &Path| {
        let path = p.display().to_string();
        move |source| TableError::Write { path, source }
    };
    // each file under a temporary name until complete
    let mut csv = Atomic::create(&csv_path).map_err(io_in(&csv_path))?;
    let mut pieces = pieces;
    let Some(first) = pieces.next() else {
        return csv.commit().map_err(io_in(&csv_path));
    };
    let first = portable(first.map_err(pe)?).map_err(pe)?;
    csv.write_all(csv_header(&first).as_bytes())
        .map_err(io_in(&csv_path))?;
    // the Parquet writer writes a few bytes at a time: buffered, a table
    // takes a handful of system calls instead of thousands
    let mut pq_file = Atomic::create(&pq_path).map_err(io_in(&pq_path))?;
    let mut pq = ParquetWriter::new(&mut pq_file)
        .set_parallel(false)
        .with_key_value_metadata(Some(KeyValueMetadata::from_static(vec![
            // polars writes its newest Arrow types (string_view), which
            // pyarrow before 15 cannot read: the schema in the oldest form
            // is given instead, the same columns
            oldest_arrow_schema(&first),
            ("arbiter.schema_version".into(), SCHEMA_VERSION.to_string()),
            ("arbiter.table".into(), name.to_string()),
        ])))
        .batched(first.schema())
        .map_err(written_in(&pq_path))?;
    for piece in std::iter::once(Ok(first)).chain(pieces) {
        let df = portable(piece.map_err(pe)?).map_err(pe)?;
        CsvWriter::new(&mut csv)
            .include_header(false)
            .n_threads(1)
            .finish(&mut defused(&df).map_err(pe)?)
            .map_err(written_in(&csv_path))?;
        pq.write_batch(&df).map_err(written_in(&pq_path))?;
    }
    csv.commit().map_err(io_in(&csv_path))?;
    pq.finish().map_err(written_in(&pq_path))?;
    drop(pq);
    pq_file.commit().map_err(io_in(&pq_path))
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
