//! The clock chart of a game (SVG, plotters): both clocks over the moves,
//! as recorded (`[%clk]`, TCEC `tl`) and as the ruleset's time control
//! reconstructs them from the time each move used, the period boundaries,
//! and every clock finding marked where it happened.

use plotters::prelude::*;

use crate::facts::clock::ClockPly;
use crate::facts::clock::TimeControlDef;
use crate::findings::Finding;
use crate::report::ChartError;

/// What the chart shows.
#[derive(Debug)]
pub struct ClockChart<'a> {
    pub title: String,
    /// (ply, ms left) as recorded, per side (white, black).
    pub recorded: [Vec<(u32, i64)>; 2],
    pub trace: &'a [ClockPly],
    pub time_control: Option<&'a TimeControlDef>,
    pub findings: &'a [Finding],
}

fn is_clock_finding(f: &Finding) -> bool {
    let c = f.code.to_ascii_lowercase();
    let clause = f.clause.to_ascii_lowercase();
    c.contains("clock")
        || c.contains("flag")
        || c.contains("time")
        || clause.contains("time control")
}

/// A tick's label: a whole number as one (`10`, not `10.0`), else with one
/// decimal; on the move axis, only whole moves are labelled.
pub(crate) fn tick(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// A label on the move axis: whole moves only.
pub(crate) fn move_tick(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

/// The size asked of plotters for tick labels, legends and axis names: its
/// SVG writes 0.81 of it, so they come out at 12 px.
pub(crate) const LABEL_PX: u32 = 15;

/// The grid: bold lines, then light ones, both fainter than any data line.
pub(crate) const GRID: [RGBColor; 2] = [RGBColor(215, 215, 215), RGBColor(242, 242, 242)];

/// Render the chart as an SVG document.
pub fn render(chart: &ClockChart<'_>) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(ChartError::Draw)?;
        let max_ply = chart
            .trace
            .iter()
            .map(|c| c.ply)
            .chain(chart.recorded.iter().flatten().map(|(p, _)| *p))
            .max()
            .unwrap_or(2)
            .max(2);
        let minutes = |ms: i64| ms as f64 / 60_000.0;
        let reconstructed: [Vec<(u32, i64)>; 2] = [0, 1].map(|k| {
            chart
                .trace
                .iter()
                .filter(|c| usize::from(c.side == shakmaty::Color::Black) == k)
                .filter_map(|c| c.tick.as_ref().map(|t| (c.ply, t.left)))
                .collect()
        });
        let all = chart
            .recorded
            .iter()
            .chain(reconstructed.iter())
            .flatten()
            .map(|(_, ms)| minutes(*ms));
        let (lo, hi) = all.fold((0f64, 1f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let x_max = f64::from(max_ply) / 2.0 + 1.0;
        let mut ctx = ChartBuilder::on(&root)
            .caption(&chart.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..x_max, (lo - 1.0)..(hi * 1.05 + 1.0))
            .map_err(ChartError::Draw)?;
        ctx.configure_mesh()
            .x_desc("move")
            .y_desc("minutes left")
            .x_label_formatter(&move_tick)
            .y_label_formatter(&tick)
            .label_style(("sans-serif", LABEL_PX))
            .axis_desc_style(("sans-serif", LABEL_PX))
            .bold_line_style(GRID[0])
            .light_line_style(GRID[1])
            .draw()
            .map_err(ChartError::Draw)?;
        // period boundaries
        if let Some(tc) = chart.time_control {
            let mut at = 0u32;
            for p in &tc.periods {
                let Some(n) = p.moves else { break };
                at += n;
                let x = f64::from(at);
                if x < x_max {
                    ctx.draw_series(LineSeries::new(
                        vec![(x, lo - 1.0), (x, hi * 1.05 + 1.0)],
                        RGBColor(150, 150, 150).stroke_width(1),
                    ))
                    .map_err(ChartError::Draw)?
                    .label(format!("end of period after move {at}"))
                    .legend(|(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], RGBColor(150, 150, 150))
                    });
                }
            }
        }
        let colours = [RGBColor(30, 90, 200), RGBColor(20, 20, 20)];
        let names = ["White", "Black"];
        let x = |ply: u32| f64::from(ply) / 2.0;
        for k in 0..2 {
            let rec: Vec<(f64, f64)> = chart.recorded[k]
                .iter()
                .map(|(p, ms)| (x(*p), minutes(*ms)))
                .collect();
            if !rec.is_empty() {
                ctx.draw_series(LineSeries::new(rec, colours[k].stroke_width(3)))
                    .map_err(ChartError::Draw)?
                    .label(format!("{} clock, as recorded", names[k]))
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], colours[k].stroke_width(3))
                    });
            }
            let recon: Vec<(f64, f64)> = reconstructed[k]
                .iter()
                .map(|(p, ms)| (x(*p), minutes(*ms)))
                .collect();
            if !recon.is_empty() {
                let faint = colours[k].mix(0.5);
                ctx.draw_series(LineSeries::new(recon, faint.stroke_width(2)))
                    .map_err(ChartError::Draw)?
                    .label(format!("{} clock, by the time control", names[k]))
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], faint.stroke_width(2))
                    });
            }
        }
        // clock findings
        let marks: Vec<(f64, f64)> = chart
            .findings
            .iter()
            .filter(|f| is_clock_finding(f))
            .filter_map(|f| f.evidence.iter().find_map(|e| e.ply))
            .filter_map(|ply| {
                let k = usize::from(ply % 2 == 0);
                chart.recorded[k]
                    .iter()
                    .find(|(p, _)| *p == ply)
                    .or_else(|| reconstructed[k].iter().find(|(p, _)| *p == ply))
                    .map(|(_, ms)| (x(ply), minutes(*ms)))
            })
            .collect();
        if !marks.is_empty() {
            ctx.draw_series(
                marks
                    .into_iter()
                    .map(|p| Circle::new(p, 6, RGBColor(210, 30, 30).stroke_width(2))),
            )
            .map_err(ChartError::Draw)?
            .label("clock finding")
            .legend(|(x, y)| Circle::new((x + 8, y), 5, RGBColor(210, 30, 30).stroke_width(2)));
        }
        ctx.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", LABEL_PX))
            .draw()
            .map_err(ChartError::Draw)?;
        root.present().map_err(ChartError::Draw)?;
    }
    Ok(svg)
}

/// Text for the chart: plotters escapes markup (`<`, `&`, …) itself; this
/// removes control characters, which XML does not allow.
pub fn escape(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}

/// The clock chart of an audited game: None when the audit kept no clocks
/// (no ruleset, or a ruleset with no time control).
pub fn for_game(g: &crate::pipeline::GameAudit) -> Option<Result<String, ChartError>> {
    let clocks = g.clocks.as_ref()?;
    let mut recorded: [Vec<(u32, i64)>; 2] = [Vec::new(), Vec::new()];
    for (p, l) in g.replay.plies.iter().zip(&clocks.recorded) {
        if let Some(ms) = l {
            recorded[usize::from(p.side == shakmaty::Color::Black)].push((p.ply, *ms));
        }
    }
    let t = |k: &str| g.game.tag(k).unwrap_or("?").to_string();
    let title = format!(
        "{} - {}, {} round {}",
        t("White"),
        t("Black"),
        t("Event"),
        t("Round")
    );
    Some(render(&ClockChart {
        title: escape(&title),
        recorded,
        trace: &clocks.plies,
        time_control: Some(&clocks.time_control),
        findings: &g.findings,
    }))
}

/// The clock charts of `audit --charts DIR` as a writer: one SVG per game
/// the audit kept clocks for, `<input>-<game>.svg`. A chart that cannot
/// be drawn or written is said, and the run ends with status 2.
#[derive(Debug)]
pub struct Charts {
    dir: std::path::PathBuf,
    failures: usize,
}

impl Charts {
    /// A writer into `dir` (made already).
    pub fn new(dir: &std::path::Path) -> Charts {
        Charts {
            dir: dir.to_path_buf(),
            failures: 0,
        }
    }
}

impl super::Writer for Charts {
    fn game(&mut self, g: &crate::pipeline::GameAudit) -> std::io::Result<()> {
        // charts are named after the input: a case folder's name, else the file's
        let stem = chart_stem(std::path::Path::new(&g.path));
        let file = self.dir.join(format!("{stem}-{}.svg", g.game.index + 1));
        match for_game(g) {
            Some(Ok(svg)) => {
                if let Err(e) = crate::base::files::write_atomic(&file, svg.as_bytes()) {
                    notice!("arbiter: {}: {e}", file.display());
                    self.failures += 1;
                }
            }
            Some(Err(e)) => {
                notice!("arbiter: {}: chart not drawn: {e}", file.display());
                self.failures += 1;
            }
            None => {}
        }
        Ok(())
    }

    fn finish(
        &mut self,
        _: &crate::pipeline::run::AuditRun,
        _: &crate::pipeline::Config,
    ) -> Result<(), super::ReportError> {
        Ok(())
    }

    fn failed(&self) -> bool {
        self.failures > 0
    }
}

/// A file name for the charts of an input: the case folder's or the file's
/// name, with anything but letters, digits, `-`, `_` and `.` replaced.
fn chart_stem(path: &std::path::Path) -> String {
    let name = if path.file_name().is_some_and(|n| n == "game.pgn") {
        path.parent().and_then(|p| p.file_name())
    } else {
        path.file_stem()
    };
    name.map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "game".into())
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}
