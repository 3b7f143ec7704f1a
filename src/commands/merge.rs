//! `arbiter merge`: the folders of a batch's N shards (`batch --shard K/N`)
//! into the folder one `batch` over the whole archive writes.

use std::path::{Path, PathBuf};

use super::{BatchRunError, MergeRunError};
use crate::pipeline::batch::BatchConfig;
use crate::pipeline::{Config, Invocation, Settings};

/// What to merge, and where.
#[derive(Debug, Clone)]
pub struct Request {
    /// The shards' folders, in any order.
    pub shards: Vec<PathBuf>,
    /// The output folder.
    pub out: PathBuf,
    /// Threads for reading the inputs again (the event-level rules).
    pub threads: usize,
}

/// The shards' batch: the invocation every shard recorded, without its
/// `--shard`. They must agree in everything else.
fn invocation(shards: &[PathBuf]) -> Result<Invocation, MergeRunError> {
    let mut first: Option<(String, Invocation)> = None;
    for dir in shards {
        let report = super::verify::Report::read(dir)?;
        let shown = dir.display().to_string();
        let mut inv = report.invocation;
        match inv.batch.as_mut() {
            Some(b) if b.shard.is_some() => b.shard = None,
            _ => return Err(MergeRunError::NotShard { dir: shown }),
        }
        match &first {
            None => first = Some((shown, inv)),
            Some((f, i)) if *i != inv => {
                return Err(MergeRunError::Differ {
                    first: f.clone(),
                    other: shown,
                });
            }
            Some(_) => {}
        }
    }
    first.map(|(_, inv)| inv).ok_or(MergeRunError::NoShards)
}

/// Merge the shards and write the folder; the exit status.
pub fn run(req: &Request) -> Result<i32, MergeRunError> {
    let inv = invocation(&req.shards)?;
    let (settings, paths) = Settings::of(&inv);
    let more = || crate::pipeline::inputs::case_rule_ids(&paths);
    let mut cfg = Config::load_with(&settings, false, req.threads, &more)
        .map_err(super::ConfigureError::from)
        .map_err(BatchRunError::from)?;
    if settings.fit {
        crate::pipeline::fit::check(&cfg)
            .map_err(super::ConfigureError::from)
            .map_err(BatchRunError::from)?;
        cfg.fit = true;
    }
    cfg.invocation = Some(inv);
    let dir = &req.out;
    // the output replaces no input, and no shard
    let mut read = crate::pipeline::files_read(&paths, &settings);
    read.extend(req.shards.iter().cloned());
    crate::pipeline::refuse_overwrite(dir, &super::batch::writes, &read)
        .map_err(BatchRunError::from)?;
    if req.shards.iter().any(|s| same_folder(s, dir)) {
        return Err(MergeRunError::IntoShard {
            dir: dir.display().to_string(),
        });
    }
    crate::base::cleanup::make_dir_all(dir).map_err(|source| BatchRunError::File {
        path: dir.display().to_string(),
        source,
    })?;
    let jsonl = dir.join("audit.jsonl");
    let shown = jsonl.display().to_string();
    let mut lines =
        crate::base::files::Atomic::create(&jsonl).map_err(|source| BatchRunError::File {
            path: shown.clone(),
            source,
        })?;
    let bcfg = BatchConfig {
        paths: paths.clone(),
        audit: cfg.clone(),
        out: dir.clone(),
        shard: None,
        threads: req.threads,
        progress: false,
        line: |g| crate::report::json::game_line(g).to_string(),
    };
    let outcome = crate::pipeline::batch::shard::merge(&bcfg, &req.shards, &mut lines, &shown)?;
    let batch = super::batch::Request {
        paths,
        settings,
        out: dir.clone(),
        shard: None,
        shard_text: None,
        threads: req.threads,
        quiet: false,
        no_progress: true,
    };
    Ok(super::batch::finish(&batch, &cfg, "merge", outcome, lines)?)
}

/// Whether two paths name the same folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
