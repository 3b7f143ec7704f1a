//! What a report records of its inputs: each input file's SHA-256 and size,
//! and every other file the audit judged with (logs, rulesets, a
//! similarity report, the Syzygy folder's listing).

use std::io;
use std::path::Path;

use serde::Serialize;

use super::config::{Config, Invocation};
use crate::base::digest::sha256_hex;

/// A folder of Syzygy tables as a report records it: how many table files,
/// and the SHA-256 of their sorted `name size` listing (hashing gigabytes of
/// tables on every run would dominate it; the tables are checked against
/// the official checksums when installed).
pub fn syzygy_listing(dir: &Path) -> io::Result<(usize, String)> {
    let mut files: Vec<(String, u64)> = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".rtbw") || name.ends_with(".rtbz") {
            files.push((name, e.metadata()?.len()));
        }
    }
    files.sort();
    let listing: String = files.iter().map(|(n, l)| format!("{n} {l}\n")).collect();
    Ok((files.len(), sha256_hex(listing.as_bytes())))
}

/// The Syzygy folder of an invocation as a report records it: its path,
/// the number of tables and the SHA-256 of their listing
/// ([`syzygy_listing`]), or why it could not be listed. Listed once per run,
/// not once per input.
pub fn syzygy_entry(invocation: Option<&Invocation>) -> Option<serde_json::Value> {
    let dir = invocation?.syzygy.as_ref()?;
    Some(match syzygy_listing(Path::new(dir)) {
        Ok((n, sha)) => {
            serde_json::json!({"path": dir, "sha256": sha, "kind": "syzygy-tables", "tables": n, "hashed": "the sorted listing of table names and sizes"})
        }
        Err(e) => serde_json::json!({"path": dir, "kind": "syzygy-tables", "error": e.to_string()}),
    })
}

/// Every file other than the PGN inputs that a configuration judges with,
/// as a report records it (`path`, `sha256`, `kind`): its operator and
/// engine logs, its ruleset, its similarity report, and the Syzygy folder's
/// entry ([`syzygy_entry`]).
pub fn hashed_files(c: &Config, syzygy: Option<&serde_json::Value>) -> Vec<serde_json::Value> {
    use serde_json::json;
    let mut v: Vec<serde_json::Value> = c
        .operator_logs
        .iter()
        .map(|l| json!({"path": l.path, "sha256": l.sha256, "kind": "operator-log"}))
        .collect();
    v.extend(
        c.engine_logs
            .iter()
            .map(|l| json!({"path": l.path, "sha256": l.sha256, "kind": "engine-log"})),
    );
    v.extend(
        c.manager_stdout
            .iter()
            .map(|l| json!({"path": l.path, "sha256": l.sha256, "kind": "manager-stdout"})),
    );
    v.extend(
        c.manager_config
            .iter()
            .map(|l| json!({"path": l.path, "sha256": l.sha256, "kind": "manager-config"})),
    );
    // under a folder of rulesets, each of them decides the choice
    let shelf = c.shelf.iter().flat_map(|s| s.rulesets.iter());
    for rs in shelf.chain(&c.ruleset) {
        v.push(json!({"path": rs.path, "sha256": rs.sha256, "kind": "ruleset"}));
        // and each file it builds on
        for (path, sha256) in &rs.extends {
            v.push(json!({"path": path, "sha256": sha256, "kind": "ruleset"}));
        }
    }
    if let Some(s) = &c.detectors.similarity {
        v.push(json!({"path": s.path, "sha256": s.sha256, "kind": "similarity-report"}));
    }
    v.extend(syzygy.cloned());
    v
}

/// Add `entries` to `into`, each once, in the order first seen.
pub fn add_hashed(into: &mut Vec<serde_json::Value>, entries: Vec<serde_json::Value>) {
    for e in entries {
        if !into.contains(&e) {
            into.push(e);
        }
    }
}

/// What was read of one input file.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct InputSummary {
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
    pub games: u64,
    /// Under a folder of rulesets: the one chosen for this file, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<crate::rules::shelf::Choice>,
}
