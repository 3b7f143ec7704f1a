//! The batch's tables (polars) and its summary: built only with the
//! `tables` feature (on by default), so that a build without polars (the
//! fuzz targets) keeps everything else.

use std::collections::BTreeMap;

use polars::prelude::DataFrame;

mod acceptance;
mod summary;
mod tables;

pub use summary::summaries;
pub use tables::{SCHEMA_VERSION, prepare_tables, write_tables};

/// Why the batch's tables or its summary could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// polars could not make a table.
    #[error(transparent)]
    Polars(#[from] polars::prelude::PolarsError),
    /// A table's file (`path`, as shown) could not be written.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// polars could not write a table's file (`path`, as shown).
    #[error("{path}: {source}")]
    Write {
        path: String,
        source: polars::prelude::PolarsError,
    },
}

/// What the summary shows of the tables: every table but `games` and
/// `findings` (which only their files hold), in order, and each event's
/// standings.
#[derive(Debug)]
pub struct Shown {
    pub tables: Vec<(&'static str, DataFrame)>,
    pub standings: BTreeMap<String, Vec<crate::facts::standings::Row>>,
}
