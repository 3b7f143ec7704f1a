//! What the benchmarks share: the PGN files they read.

use std::path::{Path, PathBuf};

/// The PGN files named on the command line (arguments not starting with
/// `-`).
pub fn named() -> Vec<PathBuf> {
    std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect()
}

/// The PGN files named on the command line ([`named`]); without any, the
/// S15 archive under `ARBITER_CORPUS`, else `samples/tcec-style.pgn`
/// (saying so, with `what` the benchmark does).
pub fn inputs(what: &str) -> Vec<PathBuf> {
    let given = named();
    if !given.is_empty() {
        return given;
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(c) = std::env::var_os("ARBITER_CORPUS") {
        let dir = Path::new(&c).join("tcec-s15");
        let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        v.sort();
        return v;
    }
    eprintln!("ARBITER_CORPUS is not set: {what} samples/tcec-style.pgn");
    vec![here.join("samples/tcec-style.pgn")]
}
