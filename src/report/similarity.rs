//! A similarity report's files: similarity.json, the heatmap, the
//! dendrogram and, with evaluation signatures, the residuals chart.

use std::path::Path;

use super::simchart::{dendrogram, heatmap, residuals};
use super::write_in;
use crate::facts::similarity::Report;

/// Write `json` (the whole report) and the charts of `report` into `dir`.
pub fn write_files(
    dir: &Path,
    json: &serde_json::Value,
    report: &Report,
) -> Result<(), super::ReportError> {
    write_in(
        dir,
        "similarity.json",
        &(serde_json::to_string_pretty(json)? + "\n"),
    )?;
    write_in(dir, "heatmap.svg", &heatmap(report)?)?;
    write_in(dir, "dendrogram.svg", &dendrogram(report)?)?;
    if let Some(svg) = residuals(report)? {
        write_in(dir, "residuals.svg", &svg)?;
    }
    Ok(())
}
