//! The batch's tables (polars) and its summary: built only with the
//! `tables` feature (on by default), so that a build without polars (the
//! fuzz targets) keeps everything else.

use std::collections::BTreeMap;

use polars::prelude::DataFrame;

mod acceptance;
mod summary;
mod tables;

pub use summary::summaries;
pub use tables::{prepare_tables, write_tables};

/// What the summary shows of the tables: every table but `games` and
/// `findings` (which only their files hold), in order, and each event's
/// standings.
#[derive(Debug)]
pub struct Shown {
    pub tables: Vec<(&'static str, DataFrame)>,
    pub standings: BTreeMap<String, Vec<crate::facts::standings::Row>>,
}
