//! A reference field for the active similarity test: the answers of an
//! earlier run of `arbiter similarity`, read from its output folder. Its
//! `similarity.json` names the SHA-256 of the `answers.jsonl` it was made
//! from; answers that differ from it are refused.

use std::path::Path;

use super::error::SimilarityError;
use super::similarity::{EngineSpec, parse_answers};
use crate::facts::similarity::Answer;

/// A reference field: the answers of an earlier run of `arbiter
/// similarity` over the same suite at the same limit. Its engines join the
/// consensus and the null of a new run.
#[derive(Debug, Clone)]
pub struct Reference {
    pub folder: String,
    pub engines: Vec<String>,
    /// Run 1's answers.
    pub answers: Vec<Answer>,
    pub answers_sha256: String,
    pub report_sha256: String,
    pub positions_sha256: String,
    pub limit: String,
    /// Whether its `similarity.json` named the SHA-256 of its answers (a
    /// report of an older arbiter does not): only then were they checked.
    pub checked: bool,
}

impl Reference {
    /// Read DIR/similarity.json and DIR/answers.jsonl.
    pub fn read(dir: &Path) -> Result<Reference, SimilarityError> {
        let folder = dir.display().to_string();
        let report_path = dir.join("similarity.json");
        let report_shown = report_path.display().to_string();
        let bytes = std::fs::read(&report_path).map_err(|source| SimilarityError::NoReference {
            path: report_shown.clone(),
            source,
        })?;
        let v: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|source| SimilarityError::NotJson {
                path: report_shown.clone(),
                source,
            })?;
        let field = |k: &str| -> Result<String, SimilarityError> {
            v.get(k)
                .and_then(|x| x.as_str())
                .map(str::to_string)
                .ok_or_else(|| SimilarityError::MissingField {
                    path: report_shown.clone(),
                    field: k.to_string(),
                })
        };
        let positions_sha256 = field("positions_sha256")?;
        let limit = field("limit")?;
        let engines: Vec<String> = v
            .get("engines")
            .and_then(|e| e.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|e| e.get("name")?.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        if engines.is_empty() {
            return Err(SimilarityError::NoEngines { path: report_shown });
        }
        let answers_path = dir.join("answers.jsonl");
        let answers_shown = answers_path.display().to_string();
        let answers_bytes = std::fs::read(&answers_path).map_err(|source| SimilarityError::Io {
            path: answers_shown.clone(),
            source,
        })?;
        let answers_text =
            std::str::from_utf8(&answers_bytes).map_err(|_| SimilarityError::NotUtf8 {
                path: answers_shown.clone(),
            })?;
        let all = parse_answers(&answers_shown, answers_text)?;
        let answers_sha256 = crate::facts::similarity::answers_digest(&all);
        let said = v.get("answers_sha256").and_then(|x| x.as_str());
        if let Some(said) = said
            && said != answers_sha256
        {
            return Err(SimilarityError::ReferenceChanged {
                path: answers_shown,
                found: answers_sha256,
                said: said.to_string(),
            });
        }
        let answers: Vec<Answer> = all
            .into_iter()
            .filter(|a| a.run == 1 && a.error.is_none() && engines.contains(&a.engine))
            .collect();
        for e in &engines {
            if !answers.iter().any(|a| &a.engine == e) {
                return Err(SimilarityError::NoAnswers {
                    path: answers_shown,
                    engine: e.clone(),
                });
            }
        }
        Ok(Reference {
            folder,
            engines,
            answers,
            answers_sha256,
            report_sha256: crate::base::digest::sha256_hex(&bytes),
            positions_sha256,
            limit,
            checked: said.is_some(),
        })
    }

    /// The reference must have answered the same suite at the same limit,
    /// and its engines' names must differ from the new ones.
    pub fn check(
        &self,
        suite_sha256: &str,
        limit: &str,
        specs: &[EngineSpec],
    ) -> Result<(), SimilarityError> {
        if self.positions_sha256 != suite_sha256 {
            return Err(SimilarityError::OtherSuite {
                folder: self.folder.clone(),
                reference: self.positions_sha256.clone(),
                suite: suite_sha256.to_string(),
            });
        }
        if self.limit != limit {
            return Err(SimilarityError::OtherLimit {
                folder: self.folder.clone(),
                reference: self.limit.clone(),
                limit: limit.to_string(),
            });
        }
        if let Some(s) = specs.iter().find(|s| self.engines.contains(&s.name)) {
            return Err(SimilarityError::SameName {
                name: s.name.clone(),
                folder: self.folder.clone(),
            });
        }
        Ok(())
    }
}
