//! Similarity between engines, from what they said: the move-match
//! matrix, z-scores against the field, self-similarity and evaluation
//! signatures (`signature`), from the answers of an active run
//! (`crate::engines::similarity`) or from the games themselves
//! (`passive`). A report read back (`load`) feeds the rules' `similarity`
//! detector.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

pub mod passive;
pub mod tally;
pub mod signature;

/// One engine's answer in one position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub engine: String,
    pub run: u32,
    pub position: usize,
    pub bestmove: Option<String>,
    /// Final score, centipawns from the side to move.
    pub score_cp: Option<i64>,
    pub mate: Option<i64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
    pub time_ms: u64,
    pub error: Option<String>,
}

impl Answer {
    /// An answer with nothing but its place and, for a failed search, why.
    pub fn blank(engine: &str, run: u32, position: usize, error: Option<String>) -> Answer {
        Answer {
            engine: engine.to_string(),
            run,
            position,
            bestmove: None,
            score_cp: None,
            mate: None,
            depth: None,
            nodes: None,
            pv: Vec::new(),
            time_ms: 0,
            error,
        }
    }
}

/// The pairwise analysis.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    pub engines: Vec<String>,
    pub positions: usize,
    /// match[i][j]: share of positions (both answered, run 1) with the same move.
    pub matches: Vec<Vec<Option<f64>>>,
    /// Positions both answered.
    pub common: Vec<Vec<usize>>,
    /// z[i][j]: the pair's match against every other pair of the field.
    pub z: Vec<Vec<Option<f64>>>,
    /// Run 1 against run 2 of the same engine.
    pub self_match: Vec<Option<f64>>,
    /// Engines with failed answers, and how many.
    pub failures: BTreeMap<String, usize>,
    /// The evaluation signatures (residual score correlation, PV overlap,
    /// the verdict); absent in reports of earlier versions.
    #[serde(default)]
    pub signature: Option<signature::Signature>,
}

/// The SHA-256 of the searched answers (those without an error), one JSON
/// line each, ordered by engine, run and position: what a report was made
/// from, the same however often a failed search was tried again.
pub fn answers_digest(answers: &[Answer]) -> String {
    let mut kept: Vec<&Answer> = answers.iter().filter(|a| a.error.is_none()).collect();
    kept.sort_by(|a, b| (&a.engine, a.run, a.position).cmp(&(&b.engine, b.run, b.position)));
    let mut text = String::new();
    for a in kept {
        // an Answer is plain data: serde_json cannot fail on it
        text.push_str(&serde_json::to_string(a).unwrap_or_default());
        text.push('\n');
    }
    crate::base::digest::sha256_hex(text.as_bytes())
}

fn mean_sd(v: &[f64]) -> Option<(f64, f64)> {
    if v.len() < 2 {
        return None;
    }
    let m = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64;
    Some((m, var.sqrt()))
}

/// A similarity report read back for the rules (`audit --similarity FILE`).
#[derive(Debug, Clone)]
pub struct Loaded {
    pub path: String,
    pub sha256: String,
    pub report: Report,
}

/// Why a similarity report could not be read back; `path` is the file as
/// shown.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not JSON: {source}")]
    NotJson {
        path: String,
        source: serde_json::Error,
    },
    /// JSON, but its `report` is not a similarity report.
    #[error("{path}: expected the `report` of arbiter similarity: {source}")]
    NotReport {
        path: String,
        source: serde_json::Error,
    },
    /// A matrix with another size than the `engines` of the report.
    #[error("{path}: the report's matrices do not match its {engines} engines")]
    Matrices { path: String, engines: usize },
}

/// Read `similarity.json` as `arbiter similarity` writes it.
pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: shown.clone(),
        source,
    })?;
    let v: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|source| LoadError::NotJson {
            path: shown.clone(),
            source,
        })?;
    let report: Report = serde_json::from_value(v.get("report").cloned().unwrap_or_default())
        .map_err(|source| LoadError::NotReport {
            path: shown.clone(),
            source,
        })?;
    let n = report.engines.len();
    if report.matches.len() != n || report.z.len() != n || report.common.len() != n {
        return Err(LoadError::Matrices {
            path: shown,
            engines: n,
        });
    }
    Ok(Loaded {
        path: shown,
        sha256: crate::base::digest::sha256_hex(&bytes),
        report,
    })
}

/// A report's engine name stands for a PGN player name when they are equal
/// (ignoring case) or the player name is it followed by a version:
/// `stockfish` stands for `Stockfish 15.1`.
pub fn names_engine(report_name: &str, player: &str) -> bool {
    let (r, p) = (
        report_name.trim().to_lowercase(),
        player.trim().to_lowercase(),
    );
    !r.is_empty() && (p == r || p.strip_prefix(&r).is_some_and(|rest| rest.starts_with(' ')))
}

/// Each pair's match against every other pair of the field (leave-one-out
/// mean and standard deviation of the pairs of different engines).
pub fn z_scores(matches: &[Vec<Option<f64>>]) -> Vec<Vec<Option<f64>>> {
    let n = matches.len();
    let mut z = vec![vec![None; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let Some(m) = matches[i][j] else { continue };
            let others: Vec<f64> = (0..n)
                .flat_map(|k| (k + 1..n).map(move |l| (k, l)))
                .filter(|&(k, l)| !((k == i && l == j) || (k == j && l == i)))
                .filter_map(|(k, l)| matches[k][l])
                .collect();
            if let Some((mu, sd)) = mean_sd(&others)
                && sd > 0.0
            {
                z[i][j] = Some((m - mu) / sd);
            }
        }
    }
    z
}

/// What each engine said in each position in run 1, for the evaluation
/// signatures: `said[engine][position]`.
pub fn said(engines: &[String], positions: usize, answers: &[Answer]) -> Vec<Vec<signature::Said>> {
    let mut said = vec![vec![signature::Said::default(); positions]; engines.len()];
    for a in answers {
        let Some(e) = engines.iter().position(|n| *n == a.engine) else {
            continue;
        };
        if a.run != 1 || a.error.is_some() || a.position >= positions {
            continue;
        }
        said[e][a.position] = signature::Said {
            mv: a.bestmove.clone(),
            score: signature::clip(a.score_cp, a.mate),
            pv: a.pv.clone(),
        };
    }
    said
}

/// Match matrix, z-scores, self-similarity and the evaluation signatures.
pub fn analyze(
    engines: &[String],
    positions: usize,
    answers: &[Answer],
    settings: &signature::Settings,
) -> Report {
    let n = engines.len();
    let idx: BTreeMap<&str, usize> = engines
        .iter()
        .enumerate()
        .map(|(i, e)| (e.as_str(), i))
        .collect();
    // moves[run][engine][position]
    let mut moves: [Vec<Vec<Option<&str>>>; 2] = [
        vec![vec![None; positions]; n],
        vec![vec![None; positions]; n],
    ];
    let mut failures: BTreeMap<String, usize> = BTreeMap::new();
    for a in answers {
        let Some(&e) = idx.get(a.engine.as_str()) else {
            continue;
        };
        if a.error.is_some() {
            *failures.entry(a.engine.clone()).or_default() += 1;
            continue;
        }
        if (1..=2).contains(&a.run) && a.position < positions {
            moves[a.run as usize - 1][e][a.position] = a.bestmove.as_deref();
        }
    }
    let agree = |x: &[Option<&str>], y: &[Option<&str>]| -> (usize, usize) {
        let mut same = 0;
        let mut both = 0;
        for (a, b) in x.iter().zip(y) {
            if let (Some(a), Some(b)) = (a, b) {
                both += 1;
                same += usize::from(a == b);
            }
        }
        (same, both)
    };
    let mut matches = vec![vec![None; n]; n];
    let mut common = vec![vec![0; n]; n];
    for i in 0..n {
        for j in 0..n {
            let (same, both) = agree(&moves[0][i], &moves[0][j]);
            common[i][j] = both;
            if both > 0 {
                matches[i][j] = Some(same as f64 / both as f64);
            }
        }
    }
    let z = z_scores(&matches);
    let self_match = (0..n)
        .map(|i| {
            let (same, both) = agree(&moves[0][i], &moves[1][i]);
            (both > 0).then(|| same as f64 / both as f64)
        })
        .collect();
    Report {
        engines: engines.to_vec(),
        positions,
        matches,
        common,
        z,
        self_match,
        failures,
        signature: Some(signature::analyze(
            engines,
            &said(engines, positions, answers),
            settings,
        )),
    }
}

/// The report as a text table.
pub fn text(r: &Report) -> String {
    let mut s = String::new();
    let w = r.engines.iter().map(|e| e.len()).max().unwrap_or(4).max(6);
    s.push_str(&format!(
        "move match, % of {} positions (run 1)\n",
        r.positions
    ));
    s.push_str(&format!("{:w$}", ""));
    for k in 0..r.engines.len() {
        s.push_str(&format!(" {:>6}", format!("[{}]", k + 1)));
    }
    s.push_str("    self\n");
    for (i, e) in r.engines.iter().enumerate() {
        s.push_str(&format!("{e:w$}"));
        for j in 0..r.engines.len() {
            match (i == j, r.matches[i][j]) {
                (true, _) => s.push_str(&format!(" {:>6}", "-")),
                (false, Some(m)) => s.push_str(&format!(" {:>6.1}", 100.0 * m)),
                (false, None) => s.push_str(&format!(" {:>6}", "?")),
            }
        }
        match r.self_match[i] {
            Some(m) => s.push_str(&format!("  {:>6.1}", 100.0 * m)),
            None => s.push_str(&format!("  {:>6}", "?")),
        }
        s.push_str(&format!("  [{}]\n", i + 1));
    }
    s.push_str("\npairs by z-score against the other pairs of the field\n");
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for i in 0..r.engines.len() {
        for j in i + 1..r.engines.len() {
            if let Some(z) = r.z[i][j] {
                pairs.push((z, i, j));
            }
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    for (z, i, j) in pairs {
        s.push_str(&format!(
            "  {:>6.2}  {:5.1}%  {:>6} shared  {} - {}\n",
            z,
            100.0 * r.matches[i][j].unwrap_or(0.0),
            r.common[i][j],
            r.engines[i],
            r.engines[j]
        ));
    }
    for (e, n) in &r.failures {
        s.push_str(&format!(
            "\n{e}: {n} position(s) not answered (see the engine's log)\n"
        ));
    }
    if let Some(sig) = &r.signature {
        s.push('\n');
        s.push_str(&signature::text(sig));
    }
    s
}

/// UPGMA (average linkage) on 1 − match: the merges, as (left, right,
/// height), where a cluster is an engine index below n or n + merge index.
pub fn linkage(r: &Report) -> Vec<(usize, usize, f64)> {
    let n = r.engines.len();
    let mut clusters: Vec<(usize, Vec<usize>)> = (0..n).map(|i| (i, vec![i])).collect();
    let d = |a: &[usize], b: &[usize]| -> f64 {
        let mut sum = 0.0;
        let mut k = 0;
        for &x in a {
            for &y in b {
                if let Some(m) = r.matches[x][y] {
                    sum += 1.0 - m;
                    k += 1;
                }
            }
        }
        if k == 0 { 1.0 } else { sum / k as f64 }
    };
    let mut merges = Vec::new();
    while clusters.len() > 1 {
        let mut best = (0, 1, f64::INFINITY);
        for i in 0..clusters.len() {
            for j in i + 1..clusters.len() {
                let h = d(&clusters[i].1, &clusters[j].1);
                if h < best.2 {
                    best = (i, j, h);
                }
            }
        }
        let (i, j, h) = best;
        let b = clusters.remove(j);
        let a = clusters.remove(i);
        merges.push((a.0, b.0, h));
        let mut members = a.1;
        members.extend(b.1);
        clusters.push((n + merges.len() - 1, members));
    }
    merges
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(engine: &str, run: u32, position: usize, mv: &str) -> Answer {
        Answer {
            bestmove: Some(mv.into()),
            ..Answer::blank(engine, run, position, None)
        }
    }

    #[test]
    fn matches_z_scores_and_self_similarity() {
        let names: Vec<String> = ["a", "b", "c", "d"].iter().map(|s| s.to_string()).collect();
        let mut v = Vec::new();
        // a and b agree on 4 of 4; c and d agree with a on 2, with each other on 1
        let moves = [
            ["e2e4", "d2d4", "g1f3", "c2c4"],
            ["e2e4", "d2d4", "g1f3", "c2c4"],
            ["e2e4", "d2d4", "b1c3", "b2b3"],
            ["e2e4", "h2h3", "a2a3", "g2g3"],
        ];
        for (e, ms) in names.iter().zip(moves) {
            for (p, m) in ms.iter().enumerate() {
                v.push(answer(e, 1, p, m));
                // the second run differs once for a
                let m2 = if e == "a" && p == 3 { "h2h4" } else { m };
                v.push(answer(e, 2, p, m2));
            }
        }
        let r = analyze(&names, 4, &v, &signature::Settings::default());
        assert_eq!(r.matches[0][1], Some(1.0));
        assert_eq!(r.matches[0][2], Some(0.5));
        assert_eq!(r.matches[2][3], Some(0.25));
        assert_eq!(r.self_match[0], Some(0.75));
        assert_eq!(r.self_match[1], Some(1.0));
        let z = r.z[0][1].unwrap();
        assert!(z > 2.0, "{z}");
        // the dendrogram joins a and b first, at distance 0
        let l = linkage(&r);
        assert_eq!((l[0].0, l[0].1), (0, 1));
        assert_eq!(l[0].2, 0.0);
        assert_eq!(l.len(), 3);
    }
}
