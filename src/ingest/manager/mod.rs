//! What a match manager writes besides the games and the engines'
//! traffic: its standard output (`stdout`) and its settings file
//! (`config`, fastchess's `config.json`).

pub mod config;
pub mod stdout;

use std::io::Read as _;
use std::path::Path;

use crate::base::digest::sha256_hex;
use crate::ingest::logs::{LogFileError, open_regular, wide_error};

/// The largest standard output read, in bytes: a match of a million games
/// writes about 100 MiB; it is read whole.
pub const MAX_STDOUT: u64 = 256 * 1024 * 1024;

/// The largest settings file read, in bytes (fastchess's is a few KiB).
pub const MAX_CONFIG: u64 = 4 * 1024 * 1024;

/// A manager's standard output read from a file.
#[derive(Debug, Clone)]
pub struct LoadedStdout {
    pub path: String,
    pub sha256: String,
    pub out: stdout::ManagerStdout,
}

/// A file's bytes, at most `cap` (over it: `None`).
fn read_capped(path: &Path, shown: &str, cap: u64) -> Result<Option<Vec<u8>>, LogFileError> {
    let mut bytes = Vec::new();
    open_regular(path, shown)?
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| LogFileError::Io {
            path: shown.to_string(),
            source,
        })?;
    Ok((bytes.len() as u64 <= cap).then_some(bytes))
}

/// Read a manager's standard output (`--manager-stdout`): UTF-8, bytes
/// that are not replaced (an engine's line may hold anything), UTF-16
/// refused.
pub fn read_stdout(path: &Path) -> Result<LoadedStdout, LogFileError> {
    let shown = path.display().to_string();
    let Some(bytes) = read_capped(path, &shown, MAX_STDOUT)? else {
        return Err(LogFileError::Io {
            path: shown,
            source: std::io::Error::other(format!(
                "a manager's standard output over {} MiB is not read",
                MAX_STDOUT >> 20
            )),
        });
    };
    if let Some(w) = crate::ingest::text::wide_encoding(&bytes) {
        return Err(wide_error(&shown, w));
    }
    let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&bytes);
    let out = stdout::parse(&String::from_utf8_lossy(body));
    Ok(LoadedStdout {
        path: shown,
        sha256: sha256_hex(&bytes),
        out,
    })
}

/// A manager's settings file read (`--manager-config`): its path as
/// shown, its SHA-256, and the flags it stands for.
#[derive(Debug, Clone)]
pub struct LoadedConfig {
    pub path: String,
    pub sha256: String,
    pub flags: String,
}

/// Why a settings file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigReadError {
    #[error(transparent)]
    File(#[from] LogFileError),
    #[error("arbiter: {path}: {source}")]
    Bad {
        path: String,
        source: config::ConfigFileError,
    },
}

/// Read fastchess's `config.json` as the flags it stands for.
pub fn read_config(path: &Path) -> Result<LoadedConfig, ConfigReadError> {
    let shown = path.display().to_string();
    let bad = |source| ConfigReadError::Bad {
        path: shown.clone(),
        source,
    };
    let Some(bytes) = read_capped(path, &shown, MAX_CONFIG)? else {
        return Err(bad(config::ConfigFileError::NotJson(format!(
            "over {} MiB",
            MAX_CONFIG >> 20
        ))));
    };
    let text = crate::ingest::logs::log_text(&shown, &bytes)?;
    let flags = config::flags(&text).map_err(bad)?;
    Ok(LoadedConfig {
        path: shown,
        sha256: sha256_hex(&bytes),
        flags,
    })
}
