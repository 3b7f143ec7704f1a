//! Command-line interface: parse flags into a config and call the library.
//! Exit codes: 0 clean, 1 violations found, 2 arbiter could not run.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;

use crate::audit::{self, GameAudit, InputSummary};
use crate::report::{json as jsonr, text};

#[derive(Debug, Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Audits computer-chess competitions against their own regulations"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Step through one game: board, move, and the clocks and evaluations
    /// recorded at each ply.
    Replay {
        /// The PGN file.
        file: PathBuf,
        /// Which game of the file (1 = the first).
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// Show only this ply (1 = White's first move).
        #[arg(long)]
        ply: Option<u32>,
        /// JSON Lines, one object per ply.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Audit game records: every game of every file (directories are searched
    /// for .pgn files).
    Audit {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Work with rulesets.
    Rules {
        #[command(subcommand)]
        command: RulesCommand,
    },
}

#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// The event's ruleset (e.g. rulesets/tcec-s15.rules).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Force one variant of the ruleset (default: the first variant whose
    /// `applies when` matches each game, else the base ruleset).
    #[arg(long, requires = "rules")]
    pub variant: Option<String>,
    /// A folder of Syzygy tables for the `tablebase` detector.
    #[arg(long, requires = "rules")]
    pub syzygy: Option<PathBuf>,
    /// An operator log (docs/operator-log.md); repeatable. Each joins the
    /// game whose Round its `setup round=` names (else the first game).
    #[arg(long = "operator-log", requires = "rules")]
    pub operator_logs: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Parse and analyze a ruleset; report mistakes with file:line:column.
    Check { file: PathBuf },
    /// Every clause the ruleset cites, with the rules that encode it
    /// (manual ones marked).
    List { file: PathBuf },
    /// Explain a rule (from a ruleset) or a built-in check code.
    Explain {
        id: String,
        /// Ruleset to search (default: every .rules file in ./rulesets).
        #[arg(long)]
        rules: Option<PathBuf>,
    },
}

/// Exit status.
pub const CLEAN: i32 = 0;
pub const VIOLATIONS: i32 = 1;
pub const FAILURE: i32 = 2;

pub fn run(cli: Cli) -> i32 {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let code = match cli.command {
        Command::Audit {
            paths,
            format,
            rules,
        } => match config(&rules, false) {
            Ok(cfg) => run_audit(&paths, format, &cfg, &mut out),
            Err(e) => {
                eprintln!("{e}");
                FAILURE
            }
        },
        Command::Replay {
            file,
            game,
            ply,
            json,
            rules,
        } => match config(&rules, true) {
            Ok(cfg) => run_replay(&file, game, ply, json, &cfg, &mut out),
            Err(e) => {
                eprintln!("{e}");
                FAILURE
            }
        },
        Command::Rules { command } => crate::rules_cli::run(command, &mut out),
    };
    match out.flush() {
        Ok(()) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => code,
        Err(e) => {
            eprintln!("arbiter: cannot write output: {e}");
            FAILURE
        }
    }
}

/// Turn the rules flags into an audit configuration.
fn config(args: &RulesArgs, trace: bool) -> Result<audit::Config, String> {
    let mut cfg = audit::Config {
        trace,
        ..Default::default()
    };
    if let Some(path) = &args.rules {
        let rs = audit::Config::load_ruleset(path)?;
        if let Some(v) = &args.variant {
            crate::rules::eval::Program::new(&rs, Some(v)).map_err(|e| format!("arbiter: {e}"))?;
        }
        cfg.ruleset = Some(rs);
        cfg.variant = args.variant.clone();
    }
    for p in &args.operator_logs {
        cfg.operator_logs.push(audit::LoadedLog::read(p)?);
    }
    if let Some(dir) = &args.syzygy {
        cfg.detectors = crate::rules::eval::Detectors::with_syzygy(dir)
            .map_err(|e| format!("arbiter: syzygy tables {}: {e}", dir.display()))?;
    }
    Ok(cfg)
}

fn run_audit(paths: &[PathBuf], format: Format, cfg: &audit::Config, out: &mut impl Write) -> i32 {
    let mut totals = jsonr::Totals::default();
    let mut inputs: Vec<InputSummary> = Vec::new();
    let mut unreadable: Vec<(String, String)> = Vec::new();
    let mut write_err = None;
    for input in audit::expand_inputs(paths) {
        let path = match input {
            Ok(p) => p,
            Err((p, e)) => {
                eprintln!("arbiter: {}: {e}", p.display());
                unreadable.push((p.display().to_string(), e.to_string()));
                continue;
            }
        };
        let result = audit::audit_file(&path, cfg, |g: GameAudit| {
            totals.add(&g);
            match format {
                Format::Json => writeln!(out, "{}", jsonr::game_line(&g)),
                Format::Text => writeln!(out, "{}", text::game(&g)),
            }
        });
        match result {
            Ok(summary) => inputs.push(summary),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return FAILURE,
            Err(e) => {
                eprintln!("arbiter: {}: {e}", path.display());
                unreadable.push((path.display().to_string(), e.to_string()));
                write_err.get_or_insert(e);
            }
        }
    }
    let _ = match format {
        Format::Json => writeln!(
            out,
            "{}",
            jsonr::summary_line(&totals, &inputs, &unreadable, cfg.ruleset.as_ref())
        ),
        Format::Text => {
            let mut r = writeln!(
                out,
                "{}",
                text::summary(&totals, inputs.len(), cfg.ruleset.as_ref())
            );
            for i in &inputs {
                r = r.and(writeln!(
                    out,
                    "  sha256 {}  {}",
                    i.sha256,
                    text::clean(&i.path)
                ));
            }
            r
        }
    };
    if !unreadable.is_empty() {
        FAILURE
    } else if totals.violations() > 0 {
        VIOLATIONS
    } else {
        CLEAN
    }
}

fn run_replay(
    file: &std::path::Path,
    game: usize,
    ply: Option<u32>,
    as_json: bool,
    cfg: &audit::Config,
    out: &mut impl Write,
) -> i32 {
    if game == 0 {
        eprintln!("arbiter: --game counts from 1");
        return FAILURE;
    }
    let mut found: Option<GameAudit> = None;
    let mut count = 0usize;
    let result = audit::audit_file(file, cfg, |g| {
        count += 1;
        if count == game {
            found = Some(g);
            // stop reading: nothing after this game is needed
            return Err(io::Error::other(StopReading));
        }
        Ok(())
    });
    match result {
        Ok(_) => {}
        Err(e) if e.get_ref().is_some_and(|r| r.is::<StopReading>()) => {}
        Err(e) => {
            eprintln!("arbiter: {}: {e}", file.display());
            return FAILURE;
        }
    }
    let Some(g) = found else {
        eprintln!(
            "arbiter: {}: has {count} game(s); there is no game {game}",
            file.display()
        );
        return FAILURE;
    };
    let plies: Vec<_> = g
        .replay
        .plies
        .iter()
        .filter(|p| ply.is_none_or(|n| p.ply == n))
        .collect();
    if let Some(n) = ply
        && plies.is_empty()
    {
        eprintln!(
            "arbiter: game {game} has plies {}..{}; there is no ply {n}",
            g.replay.first_ply,
            g.replay.first_ply + g.replay.plies.len() as u32 - 1
        );
        return FAILURE;
    }
    let mut w = Ok(());
    if !as_json && ply.is_none() {
        w = w.and(writeln!(out, "{}", text::game(&g)));
        w = w.and(writeln!(
            out,
            "start position:\n{}\n",
            text::board(&g.replay.start)
        ));
    }
    for p in plies {
        let rec = jsonr::recorded(&g, p);
        if as_json {
            let line = json!({
                "game": game,
                "ply": p.ply,
                "move_number": p.move_number,
                "side": if p.side == shakmaty::Color::White { "white" } else { "black" },
                "san": p.san,
                "written": g.game.moves[p.move_index].written,
                "uci": p.uci,
                "fen": p.fen(),
                "halfmove_clock": p.halfmove_clock,
                "repetition": p.repetition,
                "capture": p.capture,
                "pawn_move": p.pawn_move,
                "castling_rights_changed": p.castling_rights_changed,
                "pieces": p.pieces,
                "check": p.check,
                "checkmate": p.checkmate,
                "stalemate": p.stalemate,
                "insufficient_material": p.insufficient_material,
                "threefold": p.threefold(),
                "fifty_moves": p.fifty_moves(),
                "span": p.span,
                "recorded": rec,
                "rules": live(&g, cfg, p.ply),
            });
            w = w.and(writeln!(out, "{line}"));
        } else {
            let dots = if p.side == shakmaty::Color::White {
                "."
            } else {
                "..."
            };
            let at = p.span.map_or(String::new(), |s| {
                format!("  [line {}:{}]", s.line, s.column)
            });
            w = w.and(writeln!(
                out,
                "ply {}: {}{dots} {}{at}",
                p.ply, p.move_number, p.san
            ));
            w = w.and(writeln!(out, "{}", text::board(&p.position)));
            let mut facts = vec![format!("halfmove clock {}", p.halfmove_clock)];
            if p.repetition > 1 {
                facts.push(format!("position seen {} times", p.repetition));
            }
            for (flag, name) in [
                (p.capture, "capture"),
                (p.castling_rights_changed, "castling rights changed"),
                (p.checkmate, "checkmate"),
                (p.stalemate, "stalemate"),
                (p.insufficient_material, "insufficient material"),
            ] {
                if flag {
                    facts.push(name.to_string());
                }
            }
            w = w.and(writeln!(out, "  {}", facts.join(", ")));
            if let serde_json::Value::Object(m) = &rec
                && !m.is_empty()
            {
                let shown: Vec<String> = m
                    .iter()
                    .filter(|(k, _)| k.as_str() != "pv")
                    .map(|(k, v)| format!("{k}={}", text::clean(&v.to_string())))
                    .collect();
                w = w.and(writeln!(out, "  recorded: {}", shown.join(" ")));
            }
            if let serde_json::Value::Object(m) = live(&g, cfg, p.ply)
                && !m.is_empty()
            {
                let shown: Vec<String> = m
                    .iter()
                    .map(|(k, v)| format!("{k}={}", text::clean(&v.to_string())))
                    .collect();
                w = w.and(writeln!(out, "  rules:    {}", shown.join(" ")));
            }
            w = w.and(writeln!(out));
        }
    }
    if w.is_err() {
        return FAILURE;
    }
    if g.findings.iter().any(|f| f.severity.is_violation()) {
        VIOLATIONS
    } else {
        CLEAN
    }
}

#[derive(Debug)]
struct StopReading;

impl std::fmt::Display for StopReading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stop reading")
    }
}

impl std::error::Error for StopReading {}

/// The ruleset's live values (`let`s) at a ply, by name.
fn live(g: &GameAudit, cfg: &audit::Config, ply: u32) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    if let (Some(rs), Some(j)) = (&cfg.ruleset, &g.judgement)
        && let Some((_, vals)) = j.trace.iter().find(|(p, _)| *p == ply)
    {
        for (l, v) in rs.lets.iter().zip(vals) {
            m.insert(l.name.clone(), jsonr::value(v));
        }
    }
    serde_json::Value::Object(m)
}
