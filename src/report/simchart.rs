//! Similarity charts (SVG, plotters): the move-match heatmap and the
//! average-linkage dendrogram of a similarity report.

use std::collections::HashMap;

use plotters::prelude::*;

use crate::facts::similarity::{Report, linkage};
use crate::report::ChartError;

fn name(r: &Report, i: usize) -> String {
    super::chart::escape(&r.engines[i])
}

/// A colour from white (0) to deep blue (1).
fn shade(x: f64) -> RGBColor {
    let x = x.clamp(0.0, 1.0);
    let c = |lo: f64, hi: f64| (lo + (hi - lo) * x).round() as u8;
    RGBColor(c(255.0, 20.0), c(255.0, 60.0), c(255.0, 160.0))
}

/// One cell of a heatmap: its fill, its label, whether the label is
/// white, and whether it is outlined (a flagged pair).
type Cell = (RGBColor, String, bool, bool);

/// The engines a chart draws, in dendrogram order: those with at least
/// one pair `drawn`; and the footer, saying how many were left out.
fn drawn_engines(
    r: &Report,
    footer: &str,
    why: &str,
    drawn: impl Fn(usize, usize) -> bool,
) -> (Vec<usize>, String) {
    let n = r.engines.len();
    let order: Vec<usize> = (leaf_order(r).into_iter())
        .filter(|&i| (0..n).any(|j| j != i && drawn(i, j)))
        .collect();
    let left = n - order.len();
    if left == 0 {
        return (order, footer.to_string());
    }
    let footer = format!("{footer}; {left} of {n} engines left out: {why}");
    (order, footer)
}

/// A matrix over the engines `order` as a heatmap.
fn grid(
    r: &Report,
    order: &[usize],
    title: &str,
    footer: &str,
    cell_of: impl Fn(usize, usize) -> Cell,
) -> Result<String, ChartError> {
    let n = order.len();
    let cell = 54i32;
    let left = 190i32;
    let top = 60i32;
    let size = (
        (left + cell * n as i32 + 40) as u32,
        (top + cell * n as i32 + 150) as u32,
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(ChartError::Draw)?;
        let e = ChartError::Draw;
        root.draw(&Text::new(
            title.to_string(),
            (left, 20),
            ("sans-serif", 18),
        ))
        .map_err(e)?;
        for (row, &i) in order.iter().enumerate() {
            let y = top + cell * row as i32;
            root.draw(&Text::new(
                name(r, i),
                (8, y + cell / 2 - 6),
                ("sans-serif", 13),
            ))
            .map_err(e)?;
            for (col, &j) in order.iter().enumerate() {
                let x = left + cell * col as i32;
                let (fill, label, dark, outline) = cell_of(i, j);
                root.draw(&Rectangle::new(
                    [(x, y), (x + cell, y + cell)],
                    fill.filled(),
                ))
                .map_err(e)?;
                root.draw(&Rectangle::new(
                    [(x, y), (x + cell, y + cell)],
                    RGBColor(200, 200, 200).stroke_width(1),
                ))
                .map_err(e)?;
                if outline {
                    root.draw(&Rectangle::new(
                        [(x + 2, y + 2), (x + cell - 2, y + cell - 2)],
                        RGBColor(210, 30, 30).stroke_width(3),
                    ))
                    .map_err(e)?;
                }
                root.draw(&Text::new(
                    label,
                    (x + cell / 2 - 12, y + cell / 2 - 6),
                    ("sans-serif", 13)
                        .into_font()
                        .color(if dark { &WHITE } else { &BLACK }),
                ))
                .map_err(e)?;
            }
        }
        for (col, &j) in order.iter().enumerate() {
            let x = left + cell * col as i32;
            root.draw(&Text::new(
                name(r, j),
                (x + cell / 2 - 4, top + cell * n as i32 + 8),
                ("sans-serif", 13)
                    .into_font()
                    .transform(FontTransform::Rotate90),
            ))
            .map_err(e)?;
        }
        root.draw(&Text::new(
            footer.to_string(),
            (left, top + cell * n as i32 + 130),
            ("sans-serif", 12),
        ))
        .map_err(e)?;
        root.present().map_err(ChartError::Draw)?;
    }
    Ok(svg)
}

/// The move-match matrix as a heatmap, engines in dendrogram order; an
/// engine with no move match against any other is left out.
pub fn heatmap(r: &Report) -> Result<String, ChartError> {
    let (order, footer) = drawn_engines(
        r,
        "diagonal: the engine against its own second run",
        "no pair of theirs has a move match (too few shared positions)",
        |i, j| r.matches[i][j].is_some(),
    );
    grid(
        r,
        &order,
        &format!("Move match, % of {} positions", r.positions),
        &footer,
        |i, j| {
            if i == j {
                let label = r.self_match[i].map_or("-".into(), |m| format!("({:.0})", 100.0 * m));
                (RGBColor(230, 230, 230), label, false, false)
            } else {
                match r.matches[i][j] {
                    Some(m) => (
                        shade((m - 0.3) / 0.6),
                        format!("{:.0}", 100.0 * m),
                        m > 0.6,
                        false,
                    ),
                    None => (WHITE, "?".into(), false, false),
                }
            }
        },
    )
}

/// The residual score correlations of the evaluation signatures as a
/// heatmap; flagged pairs outlined in red. `None` when the report has no
/// signatures.
pub fn residuals(r: &Report) -> Result<Option<String>, ChartError> {
    let Some(sig) = &r.signature else {
        return Ok(None);
    };
    // the pairs with enough shared positions for a verdict: those held
    let min = sig.settings.as_ref().map_or(1, |s| s.min_positions.max(1));
    let index: HashMap<&str, usize> = (r.engines.iter().enumerate())
        .map(|(i, e)| (e.as_str(), i))
        .collect();
    let mut cells: HashMap<(usize, usize), (f64, bool)> = HashMap::new();
    for p in sig.pairs.held.iter().filter(|p| p.moves.positions >= min) {
        let (Some(&a), Some(&b), Some(v)) = (
            index.get(p.a.as_str()),
            index.get(p.b.as_str()),
            p.residual.value,
        ) else {
            continue;
        };
        cells.entry((a, b)).or_insert((v, p.flagged));
        cells.entry((b, a)).or_insert((v, p.flagged));
    }
    let (order, footer) = drawn_engines(
        r,
        &format!(
            "outlined: flagged (residual z >= {:.2}, moves at least the field's median)",
            sig.z_critical
        ),
        &format!("no pair of theirs shares {min} positions with a residual correlation"),
        |i, j| cells.contains_key(&(i, j)),
    );
    let svg = grid(
        r,
        &order,
        &format!(
            "Residual score correlation, {} positions",
            sig.consensus_positions
        ),
        &footer,
        |i, j| {
            if i == j {
                return (RGBColor(230, 230, 230), "-".into(), false, false);
            }
            match cells.get(&(i, j)).copied() {
                Some((v, flagged)) => (shade(v / 0.9), format!("{v:.2}"), v > 0.55, flagged),
                None => (WHITE, "?".into(), false, false),
            }
        },
    )?;
    Ok(Some(svg))
}

/// Leaves in the order the dendrogram draws them.
fn leaf_order(r: &Report) -> Vec<usize> {
    let n = r.engines.len();
    let merges = linkage(r);
    fn walk(c: usize, n: usize, merges: &[(usize, usize, f64)], out: &mut Vec<usize>) {
        if c < n {
            out.push(c);
        } else if let Some(&(a, b, _)) = merges.get(c - n) {
            walk(a, n, merges, out);
            walk(b, n, merges, out);
        }
    }
    let mut out = Vec::new();
    if n == 1 {
        out.push(0);
    } else if !merges.is_empty() {
        walk(n + merges.len() - 1, n, &merges, &mut out);
    }
    out
}

/// The average-linkage dendrogram on 1 − move match.
pub fn dendrogram(r: &Report) -> Result<String, ChartError> {
    let n = r.engines.len();
    let merges = linkage(r);
    let order = leaf_order(r);
    let row = 34i32;
    let (left, top, width) = (40i32, 50i32, 520i32);
    let label_x = left + width + 10;
    let size = ((label_x + 220) as u32, (top + row * n as i32 + 50) as u32);
    let max_h = merges.iter().map(|m| m.2).fold(0.0f64, f64::max).max(0.05);
    let x_of = |h: f64| left + width - ((h / max_h) * f64::from(width)).round() as i32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(ChartError::Draw)?;
        let e = ChartError::Draw;
        root.draw(&Text::new(
            "Average linkage on 1 - move match",
            (left, 16),
            ("sans-serif", 18),
        ))
        .map_err(e)?;
        // (x, y) of every cluster's joint
        let mut at: Vec<(i32, i32)> = vec![(0, 0); n + merges.len()];
        for (k, &i) in order.iter().enumerate() {
            let y = top + row * k as i32 + row / 2;
            at[i] = (left + width, y);
            root.draw(&Text::new(name(r, i), (label_x, y - 7), ("sans-serif", 13)))
                .map_err(e)?;
        }
        let line = RGBColor(30, 90, 200).stroke_width(2);
        for (m, &(a, b, h)) in merges.iter().enumerate() {
            let x = x_of(h);
            let (ya, yb) = (at[a].1, at[b].1);
            for (c, y) in [(a, ya), (b, yb)] {
                root.draw(&PathElement::new(vec![(at[c].0, y), (x, y)], line))
                    .map_err(e)?;
            }
            root.draw(&PathElement::new(vec![(x, ya), (x, yb)], line))
                .map_err(e)?;
            at[n + m] = (x, (ya + yb) / 2);
        }
        // the scale
        let y = top + row * n as i32 + 10;
        root.draw(&PathElement::new(
            vec![(left, y), (left + width, y)],
            BLACK.stroke_width(1),
        ))
        .map_err(e)?;
        for k in 0..=4 {
            let h = max_h * f64::from(k) / 4.0;
            let x = x_of(h);
            root.draw(&PathElement::new(
                vec![(x, y), (x, y + 5)],
                BLACK.stroke_width(1),
            ))
            .map_err(e)?;
            root.draw(&Text::new(
                format!("{:.0}%", 100.0 * (1.0 - h)),
                (x - 12, y + 8),
                ("sans-serif", 11),
            ))
            .map_err(e)?;
        }
        root.present().map_err(ChartError::Draw)?;
    }
    Ok(svg)
}
