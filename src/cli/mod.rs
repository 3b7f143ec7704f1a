//! Command-line interface: parse flags into a config and call the library.
//! Exit codes: 0 clean, 1 violations found, 2 arbiter could not run.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;

use crate::pipeline::{self, GameAudit, InputSummary};
use crate::report::{json as jsonr, text};

mod rules;

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
    /// The HTML dossier (needs --out).
    Html,
    /// The Markdown dossier (needs --out).
    Md,
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
        /// Write each game's clock chart (SVG) into this folder (needs a
        /// ruleset with a time control): <input>-<game>.svg.
        #[arg(long)]
        charts: Option<PathBuf>,
        /// Write the reports into this folder: audit.jsonl, dossier.html
        /// (one self-contained file), dossier.md with dossier-files/.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Work with rulesets.
    Rules {
        #[command(subcommand)]
        command: RulesCommand,
    },
    /// Drive a real UCI engine through a game and write its log with real
    /// timestamps: replay a recorded game (--pgn), or play one against an
    /// opponent engine (--opponent), writing game.pgn too.
    Record(RecordArgs),
    /// Run real UCI engines over a position suite and compare them: the
    /// pairwise move-match matrix, z-scores against the field,
    /// self-similarity, evaluation signatures (residual score correlation
    /// with bootstrap intervals, PV overlap, a verdict with its
    /// false-positive rate), a heatmap and a dendrogram (SVG).
    Similarity(SimilarityArgs),
    /// Recheck a report against its inputs: every recorded SHA-256 still
    /// matches, and the same audit run again gives byte-identical output
    /// (exit 0), or what differs (exit 1).
    Verify {
        /// The report: a file of `audit --format json` lines, or a folder
        /// written by `audit --out` or `batch --out` (or its audit.jsonl).
        report: PathBuf,
        /// The folder the audit ran in (its paths are relative to it;
        /// default: the current folder).
        #[arg(long)]
        base: Option<PathBuf>,
    },
    /// Audit whole archives in parallel and aggregate: every game's JSON
    /// line and the event-level findings (audit.jsonl), tables (CSV and
    /// Parquet) of findings by rule, engine and round, adjudication
    /// agreement, clock anomalies and standings, with a Markdown and HTML
    /// summary.
    Batch {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Audit only the K-th of every N games (K/N, 1 ≤ K ≤ N), to share
        /// an archive between machines.
        #[arg(long)]
        shard: Option<String>,
        /// Threads for the games' audits, and at most as many for reading
        /// the engine logs and for `--fit` (default: the machine's cores).
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Screen games for hidden opening books: per engine, the moves out of
    /// the official opening, those without search evidence, the innocent
    /// causes found, runs, and the flagged moves with their evidence.
    HiddenBook {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// An engine log to take search evidence from (repeatable).
        #[arg(long = "engine-log")]
        engine_logs: Vec<PathBuf>,
        #[arg(long, default_value_t = 6)]
        min_run: usize,
        #[arg(long, default_value_t = 1000)]
        max_nodes: u64,
        #[arg(long, default_value_t = 1)]
        max_depth: u32,
        /// ms.
        #[arg(long, default_value_t = 100)]
        max_time: i64,
        #[arg(long, default_value_t = 7)]
        tb_pieces: u32,
        #[arg(long)]
        json: bool,
    },
    /// Draw a game's clock chart (SVG): both clocks as recorded and as the
    /// ruleset's time control reconstructs them, period boundaries, clock
    /// findings.
    Chart {
        file: PathBuf,
        /// Which game of the file (1 = the first).
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// Where to write the SVG.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        rules: RulesArgs,
    },
}

/// `arbiter similarity`.
#[derive(Debug, clap::Args)]
pub struct SimilarityArgs {
    /// An engine, NAME=COMMAND (repeatable; at least two, or one with
    /// --reference).
    #[arg(long = "engine", required_unless_present = "games")]
    engines: Vec<String>,
    /// The position suite (EPD).
    #[arg(long, required_unless_present = "games", conflicts_with = "games")]
    positions: Option<PathBuf>,
    /// The passive test instead: compare what the engines of these games
    /// chose (moves played, and their PVs' later moves) in the same
    /// positions, weighted by how open each position was, and the scores
    /// their PGN evals give where several engines faced a position.
    #[arg(long, num_args = 1.., conflicts_with = "engines")]
    games: Vec<PathBuf>,
    /// Pairs sharing fewer positions get no verdict.
    #[arg(long, default_value_t = 30)]
    min_positions: usize,
    #[arg(long, conflicts_with = "depth")]
    movetime: Option<u64>,
    #[arg(long)]
    depth: Option<u32>,
    /// Runs per engine; the second is the self-similarity run.
    #[arg(long, default_value_t = 2)]
    runs: u32,
    /// Worker threads (engines run in parallel, one process each).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Output folder: answers.jsonl (resumable), similarity.json,
    /// heatmap.svg, dendrogram.svg, logs/.
    #[arg(long)]
    out: PathBuf,
    /// An option, NAME=VALUE for every engine or ENGINE:NAME=VALUE for one
    /// (repeatable).
    #[arg(long = "option")]
    options: Vec<String>,
    /// A reference field: the output folder of an earlier run over the same
    /// suite at the same limit. Its engines join the consensus and the
    /// null, so that even two engines alone get a verdict.
    #[arg(long, conflicts_with = "games")]
    reference: Option<PathBuf>,
    /// Two engines known to be related, A,B (repeatable): kept out of the
    /// other pairs' null.
    #[arg(long = "related")]
    related: Vec<String>,
    /// The verdict's false-positive rate: a pair is flagged when its
    /// evaluation signature's p-value, against the field's other pairs
    /// resampled, is at most this.
    #[arg(long, default_value_t = 0.001)]
    false_positive_rate: f64,
    /// Bootstrap resamples of the positions.
    #[arg(long, default_value_t = 1000)]
    bootstrap: usize,
}

#[derive(Debug, clap::Args)]
pub struct RecordArgs {
    /// The engine's command line, e.g. /usr/games/stockfish.
    #[arg(long)]
    engine: String,
    /// The opponent's command line (to play a game).
    #[arg(long)]
    opponent: Option<String>,
    /// Replay this game instead of playing one.
    #[arg(long, conflicts_with = "opponent")]
    pgn: Option<PathBuf>,
    /// Which game of --pgn (1 = the first).
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// The engine's side.
    #[arg(long, default_value = "black")]
    side: String,
    /// Think this long per move, ms.
    #[arg(long, conflicts_with_all = ["depth", "tc"])]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long, conflicts_with = "tc")]
    depth: Option<u32>,
    /// Real clocks: BASE+INC in seconds, e.g. 60+1.
    #[arg(long)]
    tc: Option<String>,
    /// An engine option, NAME=VALUE (repeatable).
    #[arg(long = "option")]
    options: Vec<String>,
    /// Stop a played game after this many plies.
    #[arg(long, default_value_t = 120)]
    max_plies: usize,
    /// Start a played game with the moves of this PGN's first game (the
    /// event's official opening: played, not searched, marked `{book}`).
    #[arg(long, conflicts_with = "pgn")]
    opening: Option<PathBuf>,
    /// Take only this many plies of --opening.
    #[arg(long, requires = "opening")]
    opening_plies: Option<usize>,
    #[arg(long, default_value = "1")]
    round: String,
    #[arg(long, default_value = "arbiter recording")]
    event: String,
    /// Folder for engine.log (and opponent.log, game.pgn).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// The event's ruleset (e.g. rulesets/tcec-s15.rules).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Force one variant of the ruleset (default: the first variant whose
    /// `applies when` matches each game, else the base ruleset).
    #[arg(long)]
    pub variant: Option<String>,
    /// A folder of Syzygy tables for the `tablebase` detector.
    #[arg(long)]
    pub syzygy: Option<PathBuf>,
    /// A report of `arbiter similarity` (its similarity.json) for the
    /// `similarity` detector.
    #[arg(long)]
    pub similarity: Option<PathBuf>,
    /// An operator log (docs/operator-log.md); repeatable. Each joins the
    /// game whose Round its `setup round=` names (else the first game).
    #[arg(long = "operator-log")]
    pub operator_logs: Vec<PathBuf>,
    /// An engine log (docs/engine-log.md): cutechess-cli debug output or a
    /// transcript; repeatable. Each joins the game its `# round:` names
    /// (else the first game).
    #[arg(long = "engine-log")]
    pub engine_logs: Vec<PathBuf>,
    /// Judge each file under the values `arbiter rules fit` finds for it
    /// (the ruleset's `fit` constants and switches); each departure from
    /// the text is reported as a `rules-fit` finding on the file's first
    /// game.
    #[arg(long, requires = "rules")]
    pub fit: bool,
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
    /// Recover the values an archive's software really ran: search the
    /// ruleset's `fit` constants and switches for those that best
    /// reproduce the recorded counters and terminations, per file (or per
    /// event), beside the text's values. Exits 1 where a fit departs from
    /// the text.
    Fit {
        /// PGN files, or folders searched for them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The ruleset, with `fit` clauses.
        #[arg(long)]
        rules: PathBuf,
        /// Fit each input file, or each event (the `Event` tag, across
        /// files).
        #[arg(long, value_enum, default_value_t = FitPer::File)]
        per: FitPer,
        /// Force one variant of the ruleset (default: each game's own).
        #[arg(long)]
        variant: Option<String>,
        /// A folder of Syzygy tables, for the tablebase adjudication.
        #[arg(long)]
        syzygy: Option<PathBuf>,
        /// `text`, or `json` (one object per group).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// What `arbiter rules fit` fits as one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FitPer {
    File,
    Event,
}

/// Exit status.
pub const CLEAN: i32 = 0;
pub const VIOLATIONS: i32 = 1;
pub const FAILURE: i32 = 2;

/// Make a panic end the run with [`FAILURE`], the status of a run that
/// could not finish, after the panic's own message and a line saying what
/// it is. A panic is a bug in arbiter, never the input's fault (bad input
/// is an error that names its place, and the run goes on), but without
/// this its status would be Rust's 101, or a signal where the release
/// build aborts on a panic (`panic = "abort"` in `Cargo.toml`, which
/// spares the code its unwinding paths): neither is an exit status the
/// README gives. `main` calls it first.
pub fn exit_on_panic() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        say!(
            "arbiter: internal error (a bug in arbiter, not a fault of the input); \
             the run stopped. Please report it with the command and its inputs."
        );
        std::process::exit(FAILURE);
    }));
}

pub fn run(cli: Cli) -> i32 {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let code = match cli.command {
        Command::Verify { report, base } => match verify(&report, base.as_deref(), &mut out) {
            Ok(code) => code,
            Err(e) => {
                say!("arbiter verify: {e}");
                FAILURE
            }
        },
        Command::Audit {
            paths,
            format,
            charts,
            out: dir,
            rules,
        } => match config(&rules, false, pipeline::machine_threads()).and_then(|mut cfg| {
            if rules.fit {
                cfg.fitted = crate::pipeline::fit::fit_files(&paths, &cfg)?;
            }
            Ok(cfg)
        }) {
            Ok(_) if matches!(format, Format::Html | Format::Md) && dir.is_none() => {
                say!("arbiter audit: --format html and md write a dossier: give --out DIR");
                FAILURE
            }
            Ok(mut cfg) => {
                cfg.clocks = charts.is_some() || dir.is_some();
                cfg.invocation = Some(invocation(&paths, &rules));
                run_audit(
                    &paths,
                    format,
                    charts.as_deref(),
                    dir.as_deref(),
                    &cfg,
                    &mut out,
                )
            }
            Err(e) => {
                say!("{e}");
                FAILURE
            }
        },
        Command::Replay {
            file,
            game,
            ply,
            json,
            rules,
        } => match config(&rules, true, pipeline::machine_threads()) {
            Ok(cfg) => run_replay(&file, game, ply, json, &cfg, &mut out),
            Err(e) => {
                say!("{e}");
                FAILURE
            }
        },
        Command::Rules { command } => rules::run(command, &mut out),
        Command::Similarity(args) => match similarity(args, &mut out) {
            Ok(code) => code,
            Err(e) => {
                say!("arbiter similarity: {e}");
                FAILURE
            }
        },
        Command::Batch {
            paths,
            out: dir,
            shard,
            threads,
            rules,
        } => {
            // what the run does in parallel keeps to --threads: the games,
            // the engine logs and the fit
            let threads = threads.unwrap_or_else(pipeline::machine_threads);
            match config(&rules, false, threads).and_then(|mut cfg| {
                if rules.fit {
                    cfg.fitted = pipeline::on_threads(threads, || {
                        crate::pipeline::fit::fit_files(&paths, &cfg)
                    })??;
                }
                let mut inv = invocation(&paths, &rules);
                inv.batch = Some(pipeline::BatchInvocation {
                    shard: shard.clone(),
                });
                cfg.invocation = Some(inv);
                batch(paths, dir, shard, threads, cfg, false)
            }) {
                Ok(code) => code,
                Err(e) => {
                    say!("arbiter batch: {e}");
                    FAILURE
                }
            }
        }
        Command::HiddenBook {
            paths,
            engine_logs,
            min_run,
            max_nodes,
            max_depth,
            max_time,
            tb_pieces,
            json,
        } => {
            let params = crate::facts::hidden_book::Params {
                min_run,
                max_nodes,
                max_depth,
                max_time,
                tb_pieces,
            };
            match hidden_book(&paths, &engine_logs, &params, json, &mut out) {
                Ok(code) => code,
                Err(e) => {
                    say!("{e}");
                    FAILURE
                }
            }
        }
        Command::Chart {
            file,
            game,
            out: svg,
            rules,
        } => match config(&rules, false, pipeline::machine_threads())
            .and_then(|cfg| chart(&file, game, &cfg))
        {
            Ok(text) => match std::fs::write(&svg, text) {
                Ok(()) => CLEAN,
                Err(e) => {
                    say!("arbiter: {}: {e}", svg.display());
                    FAILURE
                }
            },
            Err(e) => {
                say!("{e}");
                FAILURE
            }
        },
        Command::Record(args) => {
            crate::engines::record::reap_on_signal();
            let dir = args.out.clone();
            let r = record_config(args)
                .and_then(|cfg| crate::engines::record::record(&cfg))
                .and_then(|rec| {
                    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                    let write = |name: &str, text: &str| write_in(&dir, name, text);
                    write("engine.log", &rec.engine_log)?;
                    if let Some(o) = &rec.opponent_log {
                        write("opponent.log", o)?;
                    }
                    if let Some(p) = &rec.pgn {
                        write("game.pgn", p)?;
                    }
                    Ok(())
                });
            match r {
                Ok(()) => CLEAN,
                Err(e) => {
                    say!("arbiter record: {e}");
                    FAILURE
                }
            }
        }
    };
    match out.flush() {
        Ok(()) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => code,
        Err(e) => {
            say!("arbiter: cannot write output: {e}");
            FAILURE
        }
    }
}

/// Write `text` to `dir/name`, naming the file in the error.
fn write_in(dir: &std::path::Path, name: &str, text: &str) -> Result<(), String> {
    let p = dir.join(name);
    std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
}

/// `--option NAME=VALUE` flags as pairs.
fn engine_options(flags: &[String]) -> Result<Vec<(String, String)>, String> {
    flags
        .iter()
        .map(|o| {
            o.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("--option takes NAME=VALUE, not {o:?}"))
        })
        .collect()
}

/// A similarity report's files: similarity.json, heatmap.svg, dendrogram.svg.
fn write_similarity(
    dir: &std::path::Path,
    json: &serde_json::Value,
    report: &crate::facts::similarity::Report,
) -> Result<(), String> {
    write_in(
        dir,
        "similarity.json",
        &(serde_json::to_string_pretty(json).map_err(|e| e.to_string())? + "\n"),
    )?;
    write_in(
        dir,
        "heatmap.svg",
        &crate::report::simchart::heatmap(report)?,
    )?;
    write_in(
        dir,
        "dendrogram.svg",
        &crate::report::simchart::dendrogram(report)?,
    )?;
    if let Some(svg) = crate::report::simchart::residuals(report)? {
        write_in(dir, "residuals.svg", &svg)?;
    }
    Ok(())
}

/// Game `n` (1 = the first) of `file`, audited under `cfg`; reading stops
/// after it.
fn nth_game(file: &std::path::Path, n: usize, cfg: &pipeline::Config) -> Result<GameAudit, String> {
    let mut found: Option<GameAudit> = None;
    let mut count = 0usize;
    let result = pipeline::audit_file(file, cfg, |g| {
        count += 1;
        if count == n {
            found = Some(g);
            // stop reading: nothing after this game is needed
            return Err(io::Error::other(StopReading));
        }
        Ok(())
    });
    match result {
        Ok(_) => {}
        Err(e) if e.get_ref().is_some_and(|r| r.is::<StopReading>()) => {}
        Err(e) => return Err(format!("{}: {e}", file.display())),
    }
    found.ok_or_else(|| {
        format!(
            "{}: has {count} game(s); there is no game {n}",
            file.display()
        )
    })
}

/// The batch's tables and summary (the `tables` feature).
#[cfg(feature = "tables")]
fn write_batch_reports(
    dir: &std::path::Path,
    outcome: &crate::pipeline::batch::Outcome,
    shard: Option<(u64, u64)>,
    cfg: &pipeline::Config,
) -> Result<(), String> {
    let dir = dir.to_path_buf();
    let shown = crate::report::batch::write_tables(&dir, outcome)?;
    let mut facts = vec![format!(
        "{} game{}, {} violations (errors and warnings)",
        outcome.games.len(),
        if outcome.games.len() == 1 { "" } else { "s" },
        outcome.violations()
    )];
    let mut rec = record(cfg, &outcome.inputs, &outcome.hashed, &outcome.unreadable);
    if let Some(rs) = &cfg.ruleset {
        facts.push(format!("ruleset {} ({})", rs.title, rs.id));
    }
    if let Some((k, n)) = shard {
        facts.push(format!("shard {k}/{n}"));
        rec.notes.push(("shard".into(), format!("{k}/{n}")));
    }
    let (md, html) = crate::report::batch::summaries(outcome, &shown, &facts, &rec)?;
    let write = |name: &str, text: &str| write_in(&dir, name, text);
    write("summary.md", &md)?;
    write("summary.html", &html)?;
    Ok(())
}

/// Without the `tables` feature there is no polars: say so.
#[cfg(not(feature = "tables"))]
fn write_batch_reports(
    _dir: &std::path::Path,
    _outcome: &crate::pipeline::batch::Outcome,
    _shard: Option<(u64, u64)>,
    _cfg: &pipeline::Config,
) -> Result<(), String> {
    Err("this build of arbiter has no tables (built without the `tables` feature)".into())
}

/// `arbiter batch`.
fn batch(
    paths: Vec<PathBuf>,
    dir: PathBuf,
    shard: Option<String>,
    threads: usize,
    cfg: pipeline::Config,
    quiet: bool,
) -> Result<i32, String> {
    let shard = match shard {
        None => None,
        Some(s) => {
            let parsed = s
                .split_once('/')
                .and_then(|(k, n)| {
                    Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?))
                })
                .filter(|(k, n)| *n >= 1 && (1..=*n).contains(k));
            Some(parsed.ok_or_else(|| format!("--shard takes K/N with 1 <= K <= N, not {s:?}"))?)
        }
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let bcfg = crate::pipeline::batch::BatchConfig {
        paths,
        audit: cfg.clone(),
        out: dir.clone(),
        shard,
        threads,
        progress: !quiet && io::IsTerminal::is_terminal(&io::stderr()),
        line: |g| jsonr::game_line(g).to_string(),
    };
    // the games' lines are written as the games finish; the events' lines
    // and the summary follow
    let jsonl = dir.join("audit.jsonl");
    let shown = jsonl.display().to_string();
    let mut lines =
        io::BufWriter::new(std::fs::File::create(&jsonl).map_err(|e| format!("{shown}: {e}"))?);
    // what the tables' writer makes once per run, made beside the audit
    // where it is sure to be needed
    #[cfg(feature = "tables")]
    let prepared = cfg
        .ruleset
        .is_none()
        .then(|| std::thread::spawn(crate::report::batch::prepare_tables));
    let outcome = crate::pipeline::batch::run(&bcfg, &mut lines, &shown)?;
    #[cfg(feature = "tables")]
    if let Some(prepared) = prepared {
        let _ = prepared.join();
    }
    if !quiet {
        for (p, e) in &outcome.unreadable {
            say!("arbiter batch: {p}: {e}");
        }
    }
    lines
        .write_all(crate::report::json::jsonl_tail(&outcome, &cfg).as_bytes())
        .and_then(|()| lines.flush())
        .map_err(|e| format!("{shown}: {e}"))?;
    drop(lines);
    write_batch_reports(&dir, &outcome, shard, &cfg)?;
    if !quiet {
        say!(
            "arbiter batch: {} games, {} violations; audit.jsonl, tables and summary in {}",
            outcome.games.len(),
            outcome.violations(),
            dir.display()
        );
    }
    Ok(if !outcome.unreadable.is_empty() {
        FAILURE
    } else if outcome.violations() > 0 {
        VIOLATIONS
    } else {
        CLEAN
    })
}

/// `arbiter similarity --games`: the passive test over an event's games.
fn passive_similarity(args: &SimilarityArgs, out: &mut impl Write) -> Result<i32, String> {
    let (paths, min_positions, dir) = (&args.games, args.min_positions, args.out.as_path());
    use crate::facts::similarity::passive;
    let mut choices = Vec::new();
    let mut inputs = Vec::new();
    for input in pipeline::expand_inputs(paths) {
        let path = match input {
            Ok(pipeline::Input::Pgn(p)) => p,
            Ok(pipeline::Input::Case(d)) => d.join("game.pgn"),
            Err((p, e)) => return Err(format!("{}: {e}", p.display())),
        };
        let summary = pipeline::audit_file(&path, &pipeline::Config::default(), |g: GameAudit| {
            choices.extend(passive::choices(&g.game, &g.replay));
            Ok(())
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
        inputs.push(json!({"path": summary.path, "sha256": summary.sha256}));
    }
    let report = passive::analyze(&choices, min_positions, &signature_settings(args)?);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let json = json!({
        "arbiter_version": crate::VERSION,
        "mode": "passive",
        "inputs": inputs,
        "min_positions": min_positions,
        "choices": choices.len(),
        "report": report,
    });
    write_similarity(dir, &json, &report)?;
    write!(
        out,
        "passive test: {} engines, {} positions ({} choices), pairs sharing at least {min_positions}\n\n{}",
        report.engines.len(),
        report.positions,
        choices.len(),
        crate::facts::similarity::text(&report)
    )
    .map_err(|e| e.to_string())?;
    Ok(CLEAN)
}

/// The settings of the evaluation-signature verdict, from the flags.
fn signature_settings(
    args: &SimilarityArgs,
) -> Result<crate::facts::similarity::signature::Settings, String> {
    let mut related = Vec::new();
    for r in &args.related {
        let (a, b) = r
            .split_once(',')
            .filter(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty())
            .ok_or_else(|| format!("--related takes A,B (two engine names), not {r:?}"))?;
        related.push((a.trim().to_string(), b.trim().to_string()));
    }
    if !(args.false_positive_rate > 0.0 && args.false_positive_rate < 1.0) {
        return Err(format!(
            "--false-positive-rate takes a number between 0 and 1, not {}",
            args.false_positive_rate
        ));
    }
    if args.bootstrap == 0 {
        return Err("--bootstrap takes at least 1".into());
    }
    Ok(crate::facts::similarity::signature::Settings {
        bootstrap: args.bootstrap,
        false_positive_rate: args.false_positive_rate,
        related,
        min_positions: args.min_positions,
        ..Default::default()
    })
}

/// `arbiter similarity`: the passive test (--games), or run the engines,
/// analyse, write the report and the charts.
fn similarity(args: SimilarityArgs, out: &mut impl Write) -> Result<i32, String> {
    if !args.games.is_empty() {
        return passive_similarity(&args, out);
    }
    let Some(positions) = args.positions.as_deref() else {
        return Err("give --positions FILE with --engine NAME=CMD…, or --games PATH…".into());
    };
    let dir = args.out.as_path();
    crate::engines::record::reap_on_signal();
    use crate::engines::similarity as active;
    use crate::facts::similarity as sim;
    let settings = signature_settings(&args)?;
    let mut specs: Vec<active::EngineSpec> = Vec::new();
    for e in &args.engines {
        let (name, cmd) = e
            .split_once('=')
            .filter(|(n, c)| !n.trim().is_empty() && !c.trim().is_empty())
            .ok_or_else(|| format!("--engine takes NAME=COMMAND, not {e:?}"))?;
        if specs.iter().any(|s| s.name == name) {
            return Err(format!("two engines are named {name:?}"));
        }
        specs.push(active::EngineSpec {
            name: name.to_string(),
            cmd: cmd.to_string(),
            options: Vec::new(),
        });
    }
    // NAME=VALUE for every engine, ENGINE:NAME=VALUE for one
    for o in &args.options {
        let (k, v) = o
            .split_once('=')
            .ok_or_else(|| format!("--option takes NAME=VALUE or ENGINE:NAME=VALUE, not {o:?}"))?;
        let one = k
            .split_once(':')
            .filter(|(e, _)| specs.iter().any(|s| s.name == *e));
        match one {
            Some((e, k)) => {
                for s in specs.iter_mut().filter(|s| s.name == e) {
                    s.options.push((k.to_string(), v.to_string()));
                }
            }
            None => {
                for s in &mut specs {
                    s.options.push((k.to_string(), v.to_string()));
                }
            }
        }
    }
    let reference = match &args.reference {
        Some(r) => Some(active::Reference::read(r)?),
        None => None,
    };
    let fielded = specs.len() + reference.as_ref().map_or(0, |r| r.engines.len());
    if specs.is_empty() || fielded < 2 {
        return Err(
            "give at least two engines (--engine NAME=COMMAND), or one with --reference DIR".into(),
        );
    }
    if !(1..=2).contains(&args.runs) {
        return Err("--runs takes 1 or 2".into());
    }
    let (suite, suite_sha) = active::read_epd(positions)?;
    let limit = match (args.movetime, args.depth) {
        (_, Some(d)) => crate::engines::record::Limit::Depth(d),
        (Some(ms), None) => crate::engines::record::Limit::MoveTime(ms),
        (None, None) => crate::engines::record::Limit::MoveTime(100),
    };
    let limit_text = match limit {
        crate::engines::record::Limit::Depth(d) => format!("depth {d}"),
        crate::engines::record::Limit::MoveTime(ms) => format!("movetime {ms} ms"),
        crate::engines::record::Limit::Clock(..) => String::new(),
    };
    if let Some(r) = &reference {
        r.check(&suite_sha, &limit_text, &specs)?;
    }
    let field: Vec<&String> = specs
        .iter()
        .map(|s| &s.name)
        .chain(reference.iter().flat_map(|r| r.engines.iter()))
        .collect();
    for (a, b) in &settings.related {
        if let Some(x) = [a, b].into_iter().find(|x| !field.contains(x)) {
            return Err(format!(
                "--related names {x:?}, which is not an engine of the field ({})",
                field
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let cfg = active::Config {
        engines: specs.clone(),
        positions: suite.clone(),
        limit,
        runs: args.runs,
        out: dir.to_path_buf(),
        threads: args.threads,
        progress: io::IsTerminal::is_terminal(&io::stderr()),
    };
    let mut answers = active::run(&cfg)?;
    let mut names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    if let Some(r) = &reference {
        names.extend(r.engines.iter().cloned());
        answers.extend(r.answers.iter().cloned());
    }
    let report = sim::analyze(&names, suite.len(), &answers, &settings);
    let engine_json = |s: &active::EngineSpec| {
        json!({
            "name": s.name,
            "command": s.cmd,
            "options": s.options.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
        })
    };
    let json = json!({
        "arbiter_version": crate::VERSION,
        "positions_file": positions.display().to_string(),
        "positions_sha256": suite_sha,
        "limit": limit_text,
        "engines": specs.iter().map(engine_json).collect::<Vec<_>>(),
        "reference": reference.as_ref().map(|r| json!({
            "folder": r.folder,
            "answers_sha256": r.answers_sha256,
            "report_sha256": r.report_sha256,
            "engines": r.engines,
        })),
        "report": report,
    });
    write_similarity(dir, &json, &report)?;
    write!(
        out,
        "{} engines{}, {} positions ({}), {limit_text}\n\n{}",
        specs.len(),
        reference.as_ref().map_or(String::new(), |r| format!(
            " and {} of the reference field",
            r.engines.len()
        )),
        suite.len(),
        positions.display(),
        crate::facts::similarity::text(&report)
    )
    .map_err(|e| e.to_string())?;
    Ok(CLEAN)
}

/// `arbiter hidden-book`: screen every game, tally per engine.
fn hidden_book(
    paths: &[PathBuf],
    engine_logs: &[PathBuf],
    params: &crate::facts::hidden_book::Params,
    json: bool,
    out: &mut impl Write,
) -> Result<i32, String> {
    use crate::facts::hidden_book::{EngineTally, assess, tally};
    let logs = crate::ingest::logs::read_engine_logs(engine_logs, pipeline::machine_threads())?;
    let cfg = pipeline::Config::default();
    let mut tallies: std::collections::BTreeMap<String, EngineTally> = Default::default();
    let mut seen = Default::default();
    let mut flagged: Vec<serde_json::Value> = Vec::new();
    let mut failed = false;
    for input in pipeline::expand_inputs(paths) {
        let path = match input {
            Ok(pipeline::Input::Pgn(p)) => p,
            Ok(pipeline::Input::Case(dir)) => dir.join("game.pgn"),
            Err((p, e)) => {
                say!("arbiter: {}: {e}", p.display());
                failed = true;
                continue;
            }
        };
        let shown = path.display().to_string();
        let r = pipeline::audit_file(&path, &cfg, |g: GameAudit| {
            let mine = pipeline::engine_logs_of(&g.game, &logs);
            let (events, _) = crate::timeline::align::align(&g.game, &g.replay, &mine);
            let tl = crate::timeline::Timeline::with_logs(&g.game, &g.replay, &[], &events);
            let found = assess(&tl, params);
            let name = |k: &str| g.game.tag(k).unwrap_or("?").to_string();
            let label = format!(
                "{shown} game {} (round {})",
                g.game.index + 1,
                name("Round")
            );
            tally(
                &mut tallies,
                &mut seen,
                &label,
                &name("White"),
                &name("Black"),
                &tl,
                &found,
            );
            for a in found.iter().filter(|a| a.flagged) {
                let san = tl
                    .replay
                    .ply(a.ply)
                    .map(|p| p.san_text())
                    .unwrap_or_default();
                flagged.push(json!({
                    "game": label,
                    "engine": name(if a.white { "White" } else { "Black" }),
                    "ply": a.ply,
                    "evidence": a.evidence(&san),
                }));
            }
            Ok(())
        });
        if let Err(e) = r {
            say!("arbiter: {shown}: {e}");
            failed = true;
        }
    }
    let any = !flagged.is_empty();
    let io = |e: io::Error| format!("arbiter: cannot write output: {e}");
    if json {
        let engines: Vec<&EngineTally> = tallies.values().collect();
        writeln!(
            out,
            "{}",
            json!({"params": {
                "min_run": params.min_run, "max_nodes": params.max_nodes,
                "max_depth": params.max_depth, "max_time": params.max_time,
                "tb_pieces": params.tb_pieces},
                "engines": engines, "flagged": flagged})
        )
        .map_err(io)?;
    } else {
        writeln!(
            out,
            "{:<28} {:>5} {:>7} {:>10} {:>10} {:>11} {:>5} {:>8} {:>7}",
            "engine",
            "games",
            "moves",
            "searchless",
            "explained",
            "unexplained",
            "run",
            "repeated",
            "flagged"
        )
        .map_err(io)?;
        for t in tallies.values() {
            writeln!(
                out,
                "{:<28} {:>5} {:>7} {:>10} {:>10} {:>11} {:>5} {:>8} {:>7}",
                text::clean(&t.engine),
                t.games,
                t.moves,
                t.searchless,
                t.explained.values().sum::<usize>(),
                t.unexplained,
                t.longest_run,
                t.repeated,
                t.flagged_moves
            )
            .map_err(io)?;
        }
        let mut causes: std::collections::BTreeMap<&str, usize> = Default::default();
        for t in tallies.values() {
            for (k, v) in &t.explained {
                *causes.entry(k).or_default() += v;
            }
        }
        writeln!(out, "\ninnocent causes of moves without search:").map_err(io)?;
        for (k, v) in causes {
            writeln!(out, "  {v:>6}  {k}").map_err(io)?;
        }
        writeln!(out, "\nflagged moves: {}", flagged.len()).map_err(io)?;
        for f in &flagged {
            writeln!(
                out,
                "  {} {}: {}",
                text::clean(f["game"].as_str().unwrap_or("")),
                text::clean(f["engine"].as_str().unwrap_or("")),
                text::clean(f["evidence"].as_str().unwrap_or(""))
            )
            .map_err(io)?;
        }
    }
    Ok(if failed {
        FAILURE
    } else if any {
        VIOLATIONS
    } else {
        CLEAN
    })
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

/// Turn the rules flags into an audit configuration.
/// `arbiter verify`: the hashes, then the same audit again, compared byte
/// for byte with the report.
fn verify(
    report: &std::path::Path,
    base: Option<&std::path::Path>,
    out: &mut impl Write,
) -> Result<i32, String> {
    use crate::verify::{Report, check_hashes, first_difference, report_files};
    // the report's own path is taken before moving to the base folder
    let report = std::path::absolute(report).map_err(|e| format!("{}: {e}", report.display()))?;
    let r = Report::read(&report)?;
    if let Some(b) = base {
        std::env::set_current_dir(b).map_err(|e| format!("--base {}: {e}", b.display()))?;
    }
    let mut text = format!(
        "report: {} (arbiter {}, {} games)\n",
        report.display(),
        r.summary["arbiter_version"].as_str().unwrap_or("?"),
        r.summary["games"]
    );
    let mut reproduced = true;
    let made_by = r.summary["arbiter_version"].as_str().unwrap_or("?");
    if made_by != crate::VERSION {
        reproduced = false;
        text.push_str(&format!(
            "version: the report was made by arbiter {made_by}, this is {}: rerun it with that version\n",
            crate::VERSION
        ));
    }
    let (lines, same) = check_hashes(&r);
    text.push_str(&format!(
        "inputs: {} file(s), {}\n",
        lines.len(),
        if same {
            "all unchanged"
        } else {
            "NOT all unchanged"
        }
    ));
    for l in &lines {
        text.push_str(l);
        text.push('\n');
    }
    reproduced &= same;
    // the same audit again
    let inv = &r.invocation;
    let args = RulesArgs {
        rules: inv.rules.as_ref().map(PathBuf::from),
        variant: inv.variant.clone(),
        syzygy: inv.syzygy.as_ref().map(PathBuf::from),
        similarity: inv.similarity.as_ref().map(PathBuf::from),
        operator_logs: inv.operator_logs.iter().map(PathBuf::from).collect(),
        engine_logs: inv.engine_logs.iter().map(PathBuf::from).collect(),
        fit: inv.fit,
    };
    let paths: Vec<PathBuf> = inv.paths.iter().map(PathBuf::from).collect();
    let mut cfg = config(&args, false, pipeline::machine_threads())?;
    if args.fit {
        cfg.fitted = crate::pipeline::fit::fit_files(&paths, &cfg)?;
    }
    cfg.invocation = Some(inv.clone());
    let mut differences = Vec::new();
    let mut compared = Vec::new();
    // a folder report, or a batch's, is written again into a scratch folder
    let tmp = std::env::temp_dir().join(format!("arbiter-verify-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let mut now = Vec::new();
    if let Some(b) = &inv.batch {
        if let Err(e) = batch(
            paths,
            tmp.clone(),
            b.shard.clone(),
            pipeline::machine_threads(),
            cfg,
            true,
        ) {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    } else if r.dir.is_some() {
        cfg.clocks = true;
        run_audit(&paths, Format::Json, None, Some(&tmp), &cfg, &mut now);
    } else {
        run_audit(&paths, Format::Json, None, None, &cfg, &mut now);
    }
    match &r.dir {
        Some(dir) => {
            let (was, now) = (report_files(dir), report_files(&tmp));
            for f in was.iter().chain(now.iter().filter(|f| !was.contains(f))) {
                let name = f.display().to_string();
                match (std::fs::read(dir.join(f)), std::fs::read(tmp.join(f))) {
                    (Ok(a), Ok(b)) => {
                        compared.push(name.clone());
                        differences.extend(first_difference(&name, &a, &b));
                    }
                    (Ok(_), Err(_)) => {
                        differences.push(format!("{name}: in the report, not written now"))
                    }
                    (Err(_), Ok(_)) => {
                        differences.push(format!("{name}: written now, not in the report"))
                    }
                    (Err(e), Err(_)) => differences.push(format!("{name}: {e}")),
                }
            }
        }
        None => {
            if inv.batch.is_some() {
                now = std::fs::read(tmp.join("audit.jsonl"))
                    .map_err(|e| format!("the batch run again wrote no audit.jsonl: {e}"))?;
            }
            compared.push(r.jsonl.display().to_string());
            differences.extend(first_difference(
                &r.jsonl.display().to_string(),
                &r.bytes,
                &now,
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    if differences.is_empty() {
        text.push_str(&format!(
            "rerun: byte-identical ({} file{}: {})\n",
            compared.len(),
            if compared.len() == 1 { "" } else { "s" },
            compared.join(", ")
        ));
    } else {
        reproduced = false;
        text.push_str("rerun: DIFFERS\n");
        for d in &differences {
            text.push_str(&format!("  {d}\n"));
        }
    }
    text.push_str(if reproduced {
        "verdict: reproduced\n"
    } else {
        "verdict: NOT reproduced\n"
    });
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(if reproduced { CLEAN } else { VIOLATIONS })
}

/// The audit's inputs and options, paths as given.
fn invocation(paths: &[PathBuf], args: &RulesArgs) -> pipeline::Invocation {
    let shown = |p: &PathBuf| p.display().to_string();
    pipeline::Invocation {
        paths: paths.iter().map(shown).collect(),
        rules: args.rules.as_ref().map(shown),
        variant: args.variant.clone(),
        syzygy: args.syzygy.as_ref().map(shown),
        similarity: args.similarity.as_ref().map(shown),
        operator_logs: args.operator_logs.iter().map(shown).collect(),
        engine_logs: args.engine_logs.iter().map(shown).collect(),
        batch: None,
        fit: args.fit,
    }
}

/// The audit configuration `args` give; the engine logs are read on at
/// most `threads` threads.
fn config(args: &RulesArgs, trace: bool, threads: usize) -> Result<pipeline::Config, String> {
    let mut cfg = pipeline::Config {
        trace,
        ..Default::default()
    };
    if let Some(path) = &args.rules {
        let rs = pipeline::Config::load_ruleset(path)?;
        if let Some(v) = &args.variant {
            crate::rules::eval::Program::new(&rs, Some(v)).map_err(|e| format!("arbiter: {e}"))?;
        }
        cfg.ruleset = Some(std::sync::Arc::new(rs));
        cfg.variant = args.variant.clone();
    }
    for p in &args.operator_logs {
        cfg.operator_logs
            .push(crate::ingest::logs::LoadedLog::read(p)?);
    }
    cfg.engine_logs = crate::ingest::logs::read_engine_logs(&args.engine_logs, threads)?;
    let mut detectors = crate::rules::eval::Detectors::default();
    if let Some(dir) = &args.syzygy {
        detectors = crate::rules::eval::Detectors::with_syzygy(dir)
            .map_err(|e| format!("arbiter: syzygy tables {}: {e}", dir.display()))?;
    }
    if let Some(p) = &args.similarity {
        detectors.similarity =
            Some(crate::facts::similarity::load(p).map_err(|e| format!("arbiter: {e}"))?);
    }
    cfg.detectors = std::sync::Arc::new(detectors);
    Ok(cfg)
}

fn run_audit(
    paths: &[PathBuf],
    format: Format,
    charts: Option<&std::path::Path>,
    report_dir: Option<&std::path::Path>,
    cfg: &pipeline::Config,
    out: &mut impl Write,
) -> i32 {
    for dir in [charts, report_dir].into_iter().flatten() {
        if let Err(e) = std::fs::create_dir_all(dir) {
            say!("arbiter: {}: {e}", dir.display());
            return FAILURE;
        }
    }
    let bands = crate::report::dossier::bands(cfg.ruleset.as_deref());
    let mut views: Vec<crate::report::dossier::GameView> = Vec::new();
    let mut jsonl = String::new();
    let mut chart_failures = 0usize;
    let mut totals = jsonr::Totals::default();
    let mut inputs: Vec<InputSummary> = Vec::new();
    let mut unreadable: Vec<(String, String)> = Vec::new();
    let mut logs: Vec<serde_json::Value> = Vec::new();
    // the Syzygy folder is listed once, not once per input
    let syzygy = pipeline::syzygy_entry(cfg.invocation.as_ref());
    for input in pipeline::expand_inputs(paths) {
        let (path, case_cfg) = match input {
            Ok(pipeline::Input::Pgn(p)) => (p, None),
            Ok(pipeline::Input::Case(dir)) => {
                match pipeline::Case::read(&dir)
                    .and_then(|c| Ok((c.game.clone(), c.config(cfg, pipeline::machine_threads())?)))
                {
                    Ok((game, c)) => (game, Some(c)),
                    Err(e) => {
                        say!("arbiter: {e}");
                        unreadable.push((dir.display().to_string(), e));
                        continue;
                    }
                }
            }
            Err((p, e)) => {
                say!("arbiter: {}: {e}", p.display());
                unreadable.push((p.display().to_string(), e.to_string()));
                continue;
            }
        };
        let this = case_cfg.as_ref().unwrap_or(cfg);
        pipeline::add_hashed(&mut logs, pipeline::hashed_files(this, syzygy.as_ref()));
        // charts are named after the input: a case folder's name, else the file's
        let stem = chart_stem(&path);
        let result = pipeline::audit_file(&path, this, |g: GameAudit| {
            totals.add(&g);
            if report_dir.is_some() {
                jsonl.push_str(&jsonr::game_line(&g).to_string());
                jsonl.push('\n');
                views.push(crate::report::dossier::view(&g, &bands));
            }
            if let Some(dir) = charts {
                let file = dir.join(format!("{stem}-{}.svg", g.game.index + 1));
                match crate::report::chart::for_game(&g) {
                    Some(Ok(svg)) => {
                        if let Err(e) = std::fs::write(&file, svg) {
                            say!("arbiter: {}: {e}", file.display());
                            chart_failures += 1;
                        }
                    }
                    Some(Err(e)) => {
                        say!("arbiter: {}: chart not drawn: {e}", file.display());
                        chart_failures += 1;
                    }
                    None => {}
                }
            }
            match format {
                Format::Json => writeln!(out, "{}", jsonr::game_line(&g)),
                Format::Text | Format::Html | Format::Md => writeln!(out, "{}", text::game(&g)),
            }
        });
        match result {
            Ok(summary) => inputs.push(summary),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return FAILURE,
            Err(e) => {
                say!("arbiter: {}: {e}", path.display());
                unreadable.push((path.display().to_string(), e.to_string()));
            }
        }
    }
    if let Some(dir) = report_dir
        && let Err(e) = write_reports(
            dir,
            &jsonl,
            &views,
            &totals,
            &inputs,
            &unreadable,
            cfg,
            &logs,
        )
    {
        say!("arbiter: {e}");
        return FAILURE;
    }
    let _ = match format {
        Format::Json => writeln!(
            out,
            "{}",
            jsonr::summary_line(&totals, &inputs, &unreadable, cfg, &logs)
        ),
        Format::Text | Format::Html | Format::Md => {
            let mut r = writeln!(
                out,
                "{}",
                text::summary(
                    &totals,
                    inputs.len(),
                    cfg.ruleset.as_deref(),
                    cfg.detectors.similarity.is_some(),
                )
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
    if !unreadable.is_empty() || chart_failures > 0 {
        FAILURE
    } else if totals.violations() > 0 {
        VIOLATIONS
    } else {
        CLEAN
    }
}

/// The hashed files other than the inputs ([`pipeline::hashed_files`]), as a
/// report's record lists them: (kind, path, SHA-256 or why unreadable).
fn hashed_files(hashed: &[serde_json::Value]) -> Vec<(String, String, Result<String, String>)> {
    hashed
        .iter()
        .filter_map(|l| {
            let (p, k) = (l["path"].as_str()?, l["kind"].as_str()?);
            let h = match l["sha256"].as_str() {
                Some(h) => Ok(h.to_string()),
                None => Err(l["error"].as_str().unwrap_or("?").to_string()),
            };
            Some((k.to_string(), p.to_string(), h))
        })
        .collect()
}

/// A report's record of inputs: the version, the command, the ruleset, and
/// every file hashed: the `--rules` ruleset, the inputs, the other files
/// judged with (logs, case folders' rulesets) and the unreadable inputs.
fn record(
    cfg: &pipeline::Config,
    inputs: &[InputSummary],
    hashed: &[serde_json::Value],
    unreadable: &[(String, String)],
) -> crate::report::dossier::Record {
    let mut files = Vec::new();
    let base = cfg.ruleset.as_ref().map(|rs| rs.path.clone());
    if let Some(rs) = &cfg.ruleset {
        files.push((
            "ruleset".to_string(),
            rs.path.clone(),
            Ok(rs.sha256.clone()),
        ));
    }
    for i in inputs {
        files.push(("input".to_string(), i.path.clone(), Ok(i.sha256.clone())));
    }
    files.extend(
        hashed_files(hashed)
            .into_iter()
            .filter(|(k, p, _)| !(k == "ruleset" && Some(p) == base.as_ref())),
    );
    for (p, e) in unreadable {
        files.push(("input".to_string(), p.clone(), Err(e.clone())));
    }
    crate::report::dossier::Record {
        version: crate::VERSION.to_string(),
        command: cfg
            .invocation
            .as_ref()
            .map(crate::report::dossier::command_line),
        ruleset: cfg
            .ruleset
            .as_ref()
            .map(|rs| format!("{} ({})", rs.title, rs.id)),
        notes: Vec::new(),
        files,
    }
}

/// Write audit.jsonl, dossier.html and dossier.md (with its files).
#[allow(clippy::too_many_arguments)]
fn write_reports(
    dir: &std::path::Path,
    jsonl: &str,
    views: &[crate::report::dossier::GameView],
    totals: &jsonr::Totals,
    inputs: &[InputSummary],
    unreadable: &[(String, String)],
    cfg: &pipeline::Config,
    logs: &[serde_json::Value],
) -> Result<(), String> {
    use crate::report::dossier;
    let write = |name: &str, text: &str| write_in(dir, name, text);
    let summary_json = jsonr::summary_line(totals, inputs, unreadable, cfg, logs);
    write("audit.jsonl", &format!("{jsonl}{summary_json}\n"))?;
    let mut facts = vec![format!(
        "{} game{}, {} plies",
        totals.games,
        if totals.games == 1 { "" } else { "s" },
        totals.plies
    )];
    if let Some(rs) = &cfg.ruleset {
        let manual = rs
            .rules
            .iter()
            .filter(|r| matches!(r.check, crate::rules::analysis::Check::Manual(_)))
            .count();
        facts.push(format!(
            "ruleset {} ({}), {manual} of its rules for manual review",
            rs.title, rs.id
        ));
    }
    let title = match &cfg.ruleset {
        Some(rs) => format!("arbiter dossier: {}", rs.title),
        None => "arbiter dossier".to_string(),
    };
    let d = dossier::Dossier {
        title,
        facts,
        games: views,
        record: record(cfg, inputs, logs, unreadable),
    };
    write("dossier.html", &dossier::to_html(&d))?;
    let files_dir = "dossier-files";
    let (md, files) = dossier::to_markdown(&d, files_dir);
    std::fs::create_dir_all(dir.join(files_dir))
        .map_err(|e| format!("{}: {e}", dir.join(files_dir).display()))?;
    for (name, svg) in files {
        write(&format!("{files_dir}/{name}"), &svg)?;
    }
    write("dossier.md", &md)?;
    Ok(())
}

fn run_replay(
    file: &std::path::Path,
    game: usize,
    ply: Option<u32>,
    as_json: bool,
    cfg: &pipeline::Config,
    out: &mut impl Write,
) -> i32 {
    if game == 0 {
        say!("arbiter: --game counts from 1");
        return FAILURE;
    }
    let g = match nth_game(file, game, cfg) {
        Ok(g) => g,
        Err(e) => {
            say!("arbiter: {e}");
            return FAILURE;
        }
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
        say!(
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
                "san": p.san_text(),
                "written": g.game.moves[p.move_index].written,
                "uci": p.uci_text(),
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
                "typed": jsonr::typed(&g, p),
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
            if let Some(line) = typed_line(g.game.comments_of(&g.game.moves[p.move_index]), p.side)
            {
                w = w.and(writeln!(out, "  typed: {line}"));
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
/// The typed values of a move for `replay`'s text: `eval +0.35 (White's
/// view), depth 24, move time 1.200s, clock 1:59:58.000`, or `None`.
fn typed_line(comments: &[crate::ingest::pgn::Comment], side: shakmaty::Color) -> Option<String> {
    use crate::ingest::annotations::Score;
    let t = crate::timeline::typed_values(comments, side);
    let secs = |ms: i64| {
        format!(
            "{}{}.{:03}",
            if ms < 0 { "-" } else { "" },
            ms.abs() / 1000,
            ms.abs() % 1000
        )
    };
    let clock = |ms: i64| {
        let a = ms.abs();
        format!(
            "{}{}:{:02}:{:02}.{:03}",
            if ms < 0 { "-" } else { "" },
            a / 3_600_000,
            a / 60_000 % 60,
            a / 1000 % 60,
            a % 1000
        )
    };
    let mut parts = Vec::new();
    if let Some(e) = t.eval {
        parts.push(match e {
            Score::Cp(cp) => format!(
                "eval {}{}.{:02} (White's view)",
                if cp < 0 { "-" } else { "+" },
                cp.abs() / 100,
                cp.abs() % 100
            ),
            Score::Mate(m) => format!("eval mate {m:+} (White's view)"),
        });
    }
    if let Some(d) = t.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(ms) = t.move_time_ms {
        parts.push(format!("move time {}s", secs(ms)));
    }
    if let Some(ms) = t.clock_ms {
        parts.push(format!("clock {}", clock(ms)));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn live(g: &GameAudit, cfg: &pipeline::Config, ply: u32) -> serde_json::Value {
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

fn record_config(a: RecordArgs) -> Result<crate::engines::record::RecordConfig, String> {
    use crate::engines::record::Limit;
    let side = match a.side.as_str() {
        "white" => shakmaty::Color::White,
        "black" => shakmaty::Color::Black,
        other => return Err(format!("--side takes white or black, not {other:?}")),
    };
    let limit = match (a.movetime, a.depth, &a.tc) {
        (Some(ms), _, _) => Limit::MoveTime(ms),
        (_, Some(d), _) => Limit::Depth(d),
        (_, _, Some(tc)) => {
            let (b, i) = tc.split_once('+').unwrap_or((tc, "0"));
            let b: f64 = b
                .parse()
                .map_err(|_| format!("--tc takes BASE+INC in seconds, e.g. 60+1, not {tc:?}"))?;
            let i: f64 = i
                .parse()
                .map_err(|_| format!("--tc takes BASE+INC in seconds, e.g. 60+1, not {tc:?}"))?;
            Limit::Clock((b * 1000.0) as u64, (i * 1000.0) as u64)
        }
        _ => Limit::MoveTime(100),
    };
    let options = engine_options(&a.options)?;
    let game_moves =
        |p: &std::path::Path, which: usize| -> Result<(Option<String>, Vec<String>), String> {
            let g = nth_game(p, which, &pipeline::Config::default())?;
            if let Some(stop) = &g.replay.stop {
                return Err(format!(
                    "{}: game {which} cannot be replayed: {}",
                    p.display(),
                    stop.message
                ));
            }
            Ok((
                g.game.tag("FEN").map(str::to_string),
                g.replay.plies.iter().map(|p| p.uci.to_string()).collect(),
            ))
        };
    let opening = match &a.opening {
        None => Vec::new(),
        Some(p) => {
            let (fen, mut moves) = game_moves(p, 1)?;
            if fen.is_some() {
                return Err(format!(
                    "{}: an opening must start from the initial position",
                    p.display()
                ));
            }
            if let Some(n) = a.opening_plies {
                moves.truncate(n);
            }
            moves
        }
    };
    let replay = a
        .pgn
        .as_deref()
        .map(|p| game_moves(p, a.game))
        .transpose()?;
    Ok(crate::engines::record::RecordConfig {
        engine: a.engine,
        opponent: a.opponent,
        replay,
        side,
        limit,
        options,
        max_plies: a.max_plies,
        round: a.round,
        event: a.event,
        opening,
    })
}

/// The SVG clock chart of game `game` of `file`.
fn chart(file: &std::path::Path, game: usize, cfg: &pipeline::Config) -> Result<String, String> {
    let mut cfg = cfg.clone();
    cfg.clocks = true;
    if cfg.ruleset.is_none() {
        return Err(
            "arbiter chart: needs --rules (the time control to reconstruct the clocks under)"
                .into(),
        );
    }
    let g = nth_game(file, game, &cfg).map_err(|e| format!("arbiter: {e}"))?;
    crate::report::chart::for_game(&g).unwrap_or_else(|| {
        Err(format!(
            "arbiter chart: the ruleset declares no time control for game {game} of {}",
            file.display()
        ))
    })
}
