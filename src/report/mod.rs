//! Reports: render audited games and findings. No rule logic, no re-reading.

#[cfg(feature = "tables")]
pub mod batch;
pub mod chart;
pub mod dossier;
pub mod json;
pub mod simchart;
pub mod text;
