//! Why a report could not be written: a file of it, the output stream, a
//! chart.

use plotters::drawing::DrawingAreaErrorKind;

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// plotters' error, drawing into the SVG text.
    #[error(transparent)]
    Draw(#[from] DrawingAreaErrorKind<std::io::Error>),
    /// An evaluation chart of a game whose record has no evaluation.
    #[error("no evaluations recorded")]
    NoEvaluations,
    /// A chart of the findings of a batch that has none.
    #[error("no findings")]
    NoFindings,
}

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file of the report (`path`, as shown) could not be written.
    #[error("{path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
    /// The output stream (standard output) could not be written.
    #[error("arbiter: cannot write output: {0}")]
    Output(#[source] std::io::Error),
    #[error(transparent)]
    Chart(#[from] ChartError),
    /// A JSON report could not be made into text.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
}
