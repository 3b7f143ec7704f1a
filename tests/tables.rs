//! The batch's tables keep their contract (`docs/tables.md`): every
//! column the page lists, in its order, with its type and whether it may
//! be empty, in the files `batch` writes; portable types only; and the
//! files read by pyarrow, pandas, polars and DuckDB
//! (`scripts/read_tables.py`, where Python has them: `.ci/run` installs
//! them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::arbiter;

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Two batches that write every table: the S15 samples (standings, clock
/// anomalies) and a planted archive under `--fit` (the acceptance tables).
fn batches(dir: &Path) -> Vec<PathBuf> {
    let runs: [&[&str]; 2] = [
        &[
            "batch",
            "samples/tcec-s15",
            "--rules",
            "rulesets/tcec-s15.rules",
        ],
        &[
            "batch",
            "tests/fixtures/fit/planted.pgn",
            "--rules",
            "rulesets/tcec-s15.rules",
            "--fit",
        ],
    ];
    runs.iter()
        .enumerate()
        .map(|(i, args)| {
            let out = dir.join(format!("b{i}"));
            let mut a = args.to_vec();
            a.extend(["--quiet", "--out", out.to_str().unwrap()]);
            let o = arbiter(&a);
            assert_ne!(
                o.status.code(),
                Some(2),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            out
        })
        .collect()
}

/// A column as the page shows it: its type, and whether it may be empty.
type Columns = Vec<(String, String, bool)>;

fn type_name(d: &DataType) -> String {
    match d {
        DataType::String => "string".into(),
        DataType::Int64 => "int64".into(),
        DataType::Float64 => "float64".into(),
        DataType::Boolean => "bool".into(),
        other => format!("not portable: {other}"),
    }
}

/// Every table of the folders: its columns as the files hold them (a
/// column is empty somewhere where any file has a null in it).
fn written(dirs: &[PathBuf]) -> BTreeMap<String, Columns> {
    let mut tables: BTreeMap<String, Columns> = BTreeMap::new();
    for d in dirs {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_none_or(|x| x != "parquet") {
                continue;
            }
            let name = p.file_stem().unwrap().to_str().unwrap().to_string();
            let df = ParquetReader::new(std::fs::File::open(&p).unwrap())
                .finish()
                .unwrap();
            // a column per tiebreak of the ruleset: one row of the page,
            // `tiebreak_NAME`
            let mut cols: Columns = Vec::new();
            for c in df.columns() {
                let n = c.name().as_str();
                let n = if n.starts_with("tiebreak_") {
                    "tiebreak_NAME"
                } else {
                    n
                };
                let col = (n.to_string(), type_name(c.dtype()), c.null_count() > 0);
                match cols.iter_mut().find(|x| x.0 == col.0) {
                    Some(x) => x.2 |= col.2,
                    None => cols.push(col),
                }
            }
            match tables.get_mut(&name) {
                None => {
                    tables.insert(name, cols);
                }
                Some(have) => {
                    // a run whose ruleset has no tiebreak has no such column
                    for c in cols {
                        match have.iter_mut().find(|h| h.0 == c.0) {
                            Some(h) => h.2 |= c.2,
                            None => have.push(c),
                        }
                    }
                }
            }
        }
    }
    tables
}

/// The page's tables: for each, its columns with type, emptiness and
/// meaning.
fn documented(page: &str) -> BTreeMap<String, Vec<(String, String, bool, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String, bool, String)>> = BTreeMap::new();
    let mut table: Option<String> = None;
    for line in page.lines() {
        if let Some(name) = line.strip_prefix("## `").and_then(|r| r.strip_suffix('`')) {
            table = Some(name.to_string());
            out.entry(name.to_string()).or_default();
            continue;
        }
        let (Some(t), Some(row)) = (&table, line.strip_prefix("| `")) else {
            continue;
        };
        let cells: Vec<&str> = row.split(" | ").collect();
        if cells.len() < 4 {
            continue;
        }
        let col = cells[0].trim_end_matches('`').to_string();
        let meaning = cells[3..]
            .join(" | ")
            .trim_end_matches(" |")
            .trim_end_matches('|')
            .trim()
            .to_string();
        out.get_mut(t)
            .unwrap()
            .push((col, cells[1].to_string(), cells[2] == "yes", meaning));
    }
    out
}

/// The page with each table's rows made from the files, the meanings
/// kept.
fn blessed(page: &str, tables: &BTreeMap<String, Columns>) -> String {
    let doc = documented(page);
    let mut out = Vec::new();
    let mut lines = page.lines().peekable();
    while let Some(line) = lines.next() {
        out.push(line.to_string());
        let Some(name) = line.strip_prefix("## `").and_then(|r| r.strip_suffix('`')) else {
            continue;
        };
        // the heading's text, kept, then its table made again (before the
        // next heading)
        while lines
            .peek()
            .is_some_and(|l| !l.starts_with('|') && !l.starts_with("## "))
        {
            out.push(lines.next().unwrap().to_string());
        }
        while lines.peek().is_some_and(|l| l.starts_with('|')) {
            lines.next();
        }
        while out.last().is_some_and(|l| l.is_empty()) {
            out.pop();
        }
        out.push(String::new());
        out.push("| column | type | empty | meaning |".into());
        out.push("|---|---|---|---|".into());
        let had = doc.get(name).cloned().unwrap_or_default();
        for (c, t, empty) in tables.get(name).cloned().unwrap_or_default() {
            let old = had.iter().find(|h| h.0 == c);
            let empty = empty || old.is_some_and(|o| o.2);
            let meaning = old.map(|o| o.3.clone()).unwrap_or_default();
            out.push(format!(
                "| `{c}` | {t} | {} | {meaning} |",
                if empty { "yes" } else { "no" }
            ));
        }
        out.push(String::new());
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n") + "\n"
}

#[test]
fn the_tables_are_what_docs_tables_md_says() {
    let dir = tempfile::tempdir().unwrap();
    let dirs = batches(dir.path());
    let tables = written(&dirs);
    assert!(tables.len() >= 11, "{:?}", tables.keys());
    let path = here().join("docs/tables.md");
    let page = std::fs::read_to_string(&path).unwrap();
    if std::env::var_os("ARBITER_BLESS").is_some() {
        std::fs::write(&path, blessed(&page, &tables)).unwrap();
        return;
    }
    let doc = documented(&page);
    let mut departs = Vec::new();
    for (name, cols) in &tables {
        let Some(d) = doc.get(name) else {
            departs.push(format!("{name}: not on the page"));
            continue;
        };
        let got: Vec<(&str, &str)> = cols.iter().map(|c| (c.0.as_str(), c.1.as_str())).collect();
        let said: Vec<(&str, &str)> = d.iter().map(|c| (c.0.as_str(), c.1.as_str())).collect();
        if got != said {
            departs.push(format!(
                "{name}: the files hold {got:?}, the page says {said:?}"
            ));
        }
        for (c, _, empty) in cols {
            if *empty && !d.iter().any(|x| x.0 == *c && x.2) {
                departs.push(format!("{name}.{c}: empty in a file, the page says never"));
            }
        }
        for (c, _, _, meaning) in d {
            if meaning.is_empty() {
                departs.push(format!("{name}.{c}: no meaning on the page"));
            }
        }
    }
    for name in doc.keys().filter(|n| !tables.contains_key(*n)) {
        departs.push(format!("{name}: on the page, in no file"));
    }
    assert!(
        departs.is_empty(),
        "docs/tables.md departs from the files (ARBITER_BLESS=1 cargo test --test cli tables writes their columns, keeping the meanings):\n{}",
        departs.join("\n")
    );
    // the readers people use, where Python has them
    let have = std::process::Command::new("python3")
        .args(["-c", "import pyarrow, pandas, polars, duckdb"])
        .output();
    if !have.is_ok_and(|o| o.status.success()) {
        println!(
            "skipped: Python has no pyarrow, pandas, polars and duckdb (.ci/run installs them)"
        );
        return;
    }
    let version = arbiter::report::batch::SCHEMA_VERSION.to_string();
    let mut args = vec![
        here().join("scripts/read_tables.py").display().to_string(),
        version,
    ];
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    let o = std::process::Command::new("python3")
        .args(&args)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    println!("{said}");
}
