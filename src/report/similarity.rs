//! A similarity report's files: similarity.json, the heatmap, the
//! dendrogram and, with evaluation signatures, the residuals chart.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::simchart::{dendrogram, heatmap, residuals};
use super::write_in;
use crate::facts::similarity::Report;

/// Write `json` (the whole report) and the charts of `report` into `dir`.
/// The JSON is written as it is serialized, a pair at a time, through a
/// temporary name: it is never held whole.
pub fn write_files(
    dir: &Path,
    json: &impl Serialize,
    report: &Report,
) -> Result<(), super::ReportError> {
    let path = dir.join("similarity.json");
    let file_error = |source: std::io::Error| super::ReportError::File {
        path: path.display().to_string(),
        source,
    };
    let mut f = crate::base::files::Atomic::create(&path).map_err(file_error)?;
    serde_json::to_writer_pretty(&mut f, json).map_err(|e| file_error(e.into()))?;
    f.write_all(b"\n").map_err(file_error)?;
    f.commit().map_err(file_error)?;
    write_in(dir, "heatmap.svg", &heatmap(report)?)?;
    write_in(dir, "dendrogram.svg", &dendrogram(report)?)?;
    if let Some(svg) = residuals(report)? {
        write_in(dir, "residuals.svg", &svg)?;
    }
    Ok(())
}
