//! The dossier a committee reads: one self-contained HTML file (no network,
//! no external file), and the same content as Markdown.
//!
//! The first screen is the verdict ([`first_screen`]): the events, the
//! counts by severity, the gravest finding (for a single game, with its
//! board) and the games with findings, worst first, each rule linked to
//! its finding. Then the findings grouped by rule with the clause quoted;
//! for each game with findings the board (SVG) at every finding's ply, the
//! move list with that ply marked, the evaluation chart (both engines, the
//! ruleset's adjudication bands shaded), the clock chart and a move stepper
//! in plain JavaScript; every game; and last, as an appendix, the record of
//! inputs (hashes, versions, the command). Everything taken from an input
//! file is escaped, and every game and finding has a stable anchor.

mod board;
mod folder;
mod record;
pub mod first_screen;
mod html;
mod markdown;

pub(crate) use board::{board_in_page, to_move};
pub use board::{board_svg, page_defs, piece_symbols};
pub use first_screen::{Verdict, VerdictGame, event_counts};
pub use folder::{Folder, record};
pub use html::{SCRIPT, STYLE, filter, to_html};
pub use markdown::to_markdown;
pub use record::{FileHash, Record, command_line, record_html, record_md};

use std::collections::BTreeMap;
use std::fmt::Write as _;

use plotters::prelude::*;
use shakmaty::{EnPassantMode, Square, fen::Fen};

use crate::findings::{Finding, Severity};
use crate::pipeline::GameAudit;
use crate::report::{ChartError, chart};

/// Escape text for HTML (element content and attribute values).
pub fn escape_html(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => {
                let _ = write!(o, "&#{};", u32::from(c).max(0x20));
            }
            c => o.push(c),
        }
    }
    o
}

/// Escape text for Markdown: markup characters are backslash-escaped and
/// control characters dropped, so input text cannot open a link, an image,
/// raw HTML, emphasis or a code span, or break a table. (The dossier never
/// starts a line with input text, so line-start markers need no escape.)
pub fn md(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '<' | '>' | '&' | '~' => {
                o.push('\\');
                o.push(c);
            }
            '\n' | '\r' | '\t' => o.push(' '),
            c if c.is_control() => {}
            c => o.push(c),
        }
    }
    o
}

/// A move as the dossier shows it: (ply, SAN, side is white, FEN after,
/// from square, to square).
pub type MoveView = (u32, String, bool, String, Option<Square>, Option<Square>);

/// One game as the dossier shows it.
#[derive(Debug, Clone)]
pub struct GameView {
    pub label: String,
    pub anchor: String,
    /// The file, as given on the command line, and the game's number in
    /// it (from 1).
    pub path: String,
    pub number: usize,
    pub event: String,
    pub round: String,
    pub white: String,
    pub black: String,
    pub result: String,
    pub plies: usize,
    pub findings: Vec<Finding>,
    pub moves: Vec<MoveView>,
    pub start_fen: String,
    pub eval_svg: Option<String>,
    pub clock_svg: Option<String>,
}

/// A dossier: its title, the facts of its first screen, the games and the
/// record of its inputs.
#[derive(Debug, Clone)]
pub struct Dossier<'a> {
    pub title: String,
    /// Short facts shown under the counts (games, plies, ruleset).
    pub facts: Vec<String>,
    pub games: &'a [GameView],
    pub record: Record,
}

impl Dossier<'_> {
    /// The first screen's content.
    pub fn verdict(&self) -> Verdict<'_> {
        Verdict {
            games: self
                .games
                .iter()
                .map(|g| {
                    VerdictGame::new(
                        (g.anchor.clone(), true),
                        (&g.path, g.number),
                        [&g.event, &g.round, &g.white, &g.black, &g.result],
                        &g.findings,
                    )
                })
                .collect(),
            total_games: self.games.len(),
            events: event_counts(self.games.iter().map(|g| g.event.as_str())),
            event_findings: Vec::new(),
            facts: self.facts.clone(),
            unreadable: self
                .record
                .files
                .iter()
                .filter(|f| f.2.is_unreadable())
                .count(),
            grouped: false,
        }
    }
}

/// Keep what the dossier needs of an audited game. Games without findings
/// keep only their summary row.
pub fn view(g: &GameAudit, bands: &[(f64, &'static str)]) -> GameView {
    let tag = |k: &str| g.game.tag(k).unwrap_or("?").to_string();
    let label = format!(
        "{} game {}: {} - {} ({}), {} round {}",
        g.path,
        g.game.index + 1,
        tag("White"),
        tag("Black"),
        tag("Result"),
        tag("Event"),
        tag("Round")
    );
    let with_detail = !g.findings.is_empty();
    let moves = if with_detail {
        g.replay
            .plies
            .iter()
            .map(|p| {
                let (from, to) = p.uci_squares();
                (
                    p.ply,
                    p.san.to_string(),
                    p.side.is_white(),
                    g.replay.fen_after(p),
                    from,
                    to,
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    GameView {
        anchor: game_anchor(g.game.index + 1, &g.path),
        label,
        path: g.path.clone(),
        number: g.game.index + 1,
        event: tag("Event"),
        round: tag("Round"),
        white: tag("White"),
        black: tag("Black"),
        result: tag("Result"),
        plies: g.replay.plies.len(),
        findings: g.findings.clone(),
        moves,
        start_fen: Fen::from_position(&g.replay.start, EnPassantMode::Legal).to_string(),
        eval_svg: if with_detail {
            eval_chart(g, bands).ok()
        } else {
            None
        },
        clock_svg: if with_detail {
            super::chart::for_game(g).and_then(Result::ok)
        } else {
            None
        },
    }
}

fn short_hash(s: &str) -> String {
    let h = crate::base::digest::sha256_hex(s.as_bytes());
    h[..8].to_string()
}

/// A game's anchor: its number in its file and a short hash of the file's
/// path, so it does not depend on the other inputs.
pub fn game_anchor(number: usize, path: &str) -> String {
    format!("g{number}-{}", short_hash(path))
}

/// The anchor of a game's `k`-th finding (from 1).
pub fn finding_anchor(game: &str, k: usize) -> String {
    format!("{game}-f{k}")
}

/// A rule's anchor in the findings by rule: its code, with any character
/// that is not a letter, digit, `-`, `_` or `.` replaced, and then a short
/// hash of the code so that two codes never share one.
pub fn rule_anchor(code: &str) -> String {
    let clean: String = code
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean == code && !code.is_empty() {
        format!("rule-{code}")
    } else {
        format!("rule-{clean}-{}", short_hash(code))
    }
}

/// White's-view evaluation of each ply, from the first comment that gives
/// one: a score written from White's view, else a book-aware form's score
/// from the mover's view, turned (other GUIs' scores are not charted).
fn evals(g: &GameAudit) -> Vec<(u32, bool, f64)> {
    let mut out = Vec::new();
    for p in &g.replay.plies {
        let mv = &g.game.moves[p.move_index];
        let white = p.side.is_white();
        let v = g.game.comments_of(mv).iter().find_map(|c| {
            let a = &c.annotations;
            a.score_from_white()
                .map(crate::timeline::score_pawns)
                .or_else(|| {
                    a.book_aware_score_from_mover().map(|s| {
                        let v = crate::timeline::score_pawns(s);
                        if white { v } else { -v }
                    })
                })
        });
        if let Some(v) = v {
            out.push((p.ply, white, v.clamp(-12.0, 12.0)));
        }
    }
    out
}

/// The evaluation chart: each engine's evaluation (White's view) by move,
/// with the ruleset's adjudication bands shaded.
pub fn eval_chart(g: &GameAudit, bands: &[(f64, &'static str)]) -> Result<String, ChartError> {
    let points = evals(g);
    if points.is_empty() {
        return Err(ChartError::NoEvaluations);
    }
    let max_ply = points.iter().map(|p| p.0).max().unwrap_or(2).max(2);
    let x_max = f64::from(max_ply) / 2.0 + 1.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 320)).into_drawing_area();
        root.fill(&WHITE).map_err(ChartError::Draw)?;
        let mut ctx = ChartBuilder::on(&root)
            .caption("Evaluation (White's view, pawns)", ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..x_max, -12f64..12f64)
            .map_err(ChartError::Draw)?;
        ctx.configure_mesh()
            .x_desc("move")
            .x_label_formatter(&chart::move_tick)
            .y_label_formatter(&chart::tick)
            .label_style(("sans-serif", chart::LABEL_PX))
            .axis_desc_style(("sans-serif", chart::LABEL_PX))
            .bold_line_style(chart::GRID[0])
            .light_line_style(chart::GRID[1])
            .draw()
            .map_err(ChartError::Draw)?;
        for &(limit, what) in bands {
            let colour = if what.contains("draw") {
                RGBColor(120, 200, 120).mix(0.25)
            } else {
                RGBColor(230, 140, 60).mix(0.18)
            };
            let rects: Vec<((f64, f64), (f64, f64))> = if what.contains("draw") {
                vec![((0.0, -limit), (x_max, limit))]
            } else {
                vec![
                    ((0.0, limit), (x_max, 12.0)),
                    ((0.0, -12.0), (x_max, -limit)),
                ]
            };
            ctx.draw_series(
                rects
                    .into_iter()
                    .map(|(a, b)| Rectangle::new([a, b], colour.filled())),
            )
            .map_err(ChartError::Draw)?
            .label(what)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled()));
        }
        let colours = [RGBColor(30, 90, 200), RGBColor(20, 20, 20)];
        let names = [
            super::chart::escape(g.game.tag("White").unwrap_or("White")),
            super::chart::escape(g.game.tag("Black").unwrap_or("Black")),
        ];
        for (k, white) in [(0usize, true), (1, false)] {
            let series: Vec<(f64, f64)> = points
                .iter()
                .filter(|p| p.1 == white)
                .map(|p| (f64::from(p.0) / 2.0, p.2))
                .collect();
            if series.is_empty() {
                continue;
            }
            let c = colours[k];
            ctx.draw_series(LineSeries::new(series, c.stroke_width(3)))
                .map_err(ChartError::Draw)?
                .label(names[k].clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(3))
                });
        }
        ctx.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(("sans-serif", chart::LABEL_PX))
            .draw()
            .map_err(ChartError::Draw)?;
        root.present().map_err(ChartError::Draw)?;
    }
    Ok(svg)
}

/// A finding and where it is: (game, index of the finding in the game,
/// finding).
pub(crate) type Placed<'a> = (usize, usize, &'a Finding);

/// Findings grouped by code, the gravest codes first: (code, [(game,
/// index of the finding in the game, finding)]).
pub(crate) fn grouped(games: &[GameView]) -> Vec<(String, Vec<Placed<'_>>)> {
    let mut m: BTreeMap<String, Vec<Placed>> = BTreeMap::new();
    for (gi, g) in games.iter().enumerate() {
        for (k, f) in g.findings.iter().enumerate() {
            m.entry(f.code.clone()).or_default().push((gi, k, f));
        }
    }
    let rank = |v: &Vec<Placed>| {
        v.iter()
            .map(|(_, _, f)| gravity(f.severity))
            .min()
            .unwrap_or(4)
    };
    let mut v: Vec<_> = m.into_iter().collect();
    v.sort_by(|a, b| rank(&a.1).cmp(&rank(&b.1)).then(a.0.cmp(&b.0)));
    v
}

/// How grave a severity is: 0 for an error, then warnings, findings for
/// manual review, and information.
pub fn gravity(s: Severity) -> usize {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::ManualReview => 2,
        Severity::Info => 3,
    }
}

/// The severities, gravest first.
pub const SEVERITIES: [Severity; 4] = [
    Severity::Error,
    Severity::Warning,
    Severity::ManualReview,
    Severity::Info,
];

pub(crate) fn finding_ply(f: &Finding) -> Option<u32> {
    f.evidence.iter().find_map(|e| e.ply)
}

pub(crate) fn evidence_text(f: &Finding) -> Vec<String> {
    f.evidence
        .iter()
        .map(|e| {
            let mut s = e.path.clone();
            if let Some(sp) = e.span {
                let _ = write!(s, ":{}:{}", sp.line, sp.column);
            }
            if let Some(p) = e.ply {
                let _ = write!(s, " (ply {p})");
            }
            if let Some(t) = &e.timestamp {
                let _ = write!(s, " at {t}");
            }
            if !e.note.is_empty() {
                let _ = write!(s, ": {}", e.note);
            }
            s
        })
        .collect()
}

/// Text inside a `<script type="application/json">`: no `</` can close it.
pub(crate) fn script_json(v: &serde_json::Value) -> String {
    v.to_string()
        .replace("</", "<\\/")
        .replace("<!--", "<\\!--")
}
