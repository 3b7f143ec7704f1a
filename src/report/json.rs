//! JSON Lines output. One object per game (`"type": "game"`), then one
//! summary (`"type": "summary"`). Key order is fixed, so the same inputs
//! give byte-identical output. The schema is in `docs/findings-schema.md`.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::{Value, json};

use crate::findings::{Severity, Totals};
use crate::ingest::comments::{MoveComments, recorded_values};
use crate::pipeline::{GameAudit, InputSummary};
use crate::replay::Ply;

/// The `recorded` object of a ply: every value parsed from its comments.
pub fn recorded(audit: &GameAudit, ply: &Ply) -> Value {
    Value::Object(recorded_values(
        audit.game.comments_of(&audit.game.moves[ply.move_index]),
    ))
}

/// The values every comment form is typed into (eval from White's view,
/// depth, move time, clock), `null` where the record has none.
pub fn typed(audit: &GameAudit, ply: &Ply) -> Value {
    let t =
        MoveComments::of(audit.game.comments_of(&audit.game.moves[ply.move_index])).typed(ply.side);
    json!({
        "eval": t.white_eval,
        "depth": t.depth,
        "move_time_ms": t.move_time_ms,
        "clock_ms": t.clock_left_ms,
    })
}

/// One game line, written straight to its text by `Display` (no `Value`
/// tree made on the way): `type`, `source`, `tags` (a repeated tag keeps
/// its first value), `moves_recorded`, `plies`, `complete`, `final_fen`,
/// `termination` (with `computed` when a ruleset judged the game),
/// `variant` (idem), `variations_skipped`, `engine_options` (when recorded)
/// and `findings`, in that order.
pub fn game_line(audit: &GameAudit) -> GameLine<'_> {
    GameLine(audit)
}

/// A game's JSON line; see [`game_line`].
#[derive(Debug)]
pub struct GameLine<'a>(&'a GameAudit);

impl Serialize for GameLine<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let audit = self.0;
        let g = &audit.game;
        let r = &audit.replay;
        let pos = r.final_position();
        use shakmaty::Position;
        let mut line = s.serialize_map(None)?;
        line.serialize_entry("type", "game")?;
        line.serialize_entry(
            "source",
            &Source {
                path: &audit.path,
                index: g.index,
                line: g.line,
                offset: g.offset,
            },
        )?;
        line.serialize_entry("tags", &Tags(&g.tags))?;
        line.serialize_entry("moves_recorded", &g.moves.len())?;
        line.serialize_entry("plies", &r.plies.len())?;
        line.serialize_entry("complete", &r.stop.is_none())?;
        line.serialize_entry("final_fen", &r.final_fen())?;
        line.serialize_entry(
            "termination",
            &Termination {
                recorded: Recorded {
                    result: g.tag("Result"),
                    marker: g.outcome.as_ref().map(|o| o.0.as_str()),
                    termination: g.tag("Termination"),
                    details: g.tag("TerminationDetails"),
                },
                final_position: FinalPosition {
                    checkmate: pos.is_checkmate(),
                    stalemate: pos.is_stalemate(),
                    insufficient_material: pos.is_insufficient_material(),
                    repetition: r.final_repetition(),
                    halfmove_clock: pos.halfmoves(),
                },
                computed: audit.judgement.as_ref().map(|j| {
                    j.computed.as_ref().map(|c| ComputedLine {
                        rule: &c.rule,
                        ply: c.ply,
                        result: &c.result,
                        records: c.records.as_deref(),
                    })
                }),
            },
        )?;
        if let Some(j) = &audit.judgement {
            line.serialize_entry("variant", &j.variant)?;
        }
        line.serialize_entry("variations_skipped", &g.variations)?;
        if let Some(o) = g
            .preamble
            .iter()
            .find_map(|c| c.annotations.engine_options.as_ref())
        {
            line.serialize_entry("engine_options", o)?;
        }
        line.serialize_entry("findings", &audit.findings)?;
        line.end()
    }
}

impl std::fmt::Display for GameLine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // made whole, then checked as UTF-8 once (serde_json writes a line
        // in many small pieces)
        // room for a line of a few findings at once (S15's lines are 1.7 KB
        // on average), not grown from serde_json's 128 bytes
        let mut bytes = Vec::with_capacity(4096);
        serde_json::to_writer(&mut bytes, self).map_err(|_| std::fmt::Error)?;
        f.write_str(std::str::from_utf8(&bytes).map_err(|_| std::fmt::Error)?)
    }
}

#[derive(Serialize)]
struct Source<'a> {
    path: &'a str,
    index: usize,
    line: u64,
    offset: u64,
}

/// The tags as an object in their order; a repeated name keeps its first
/// value, at its first place.
struct Tags<'a>(&'a [crate::ingest::pgn::Tag]);

impl Serialize for Tags<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (i, t) in self.0.iter().enumerate() {
            if !self.0[..i].iter().any(|u| u.name == t.name) {
                map.serialize_entry(&t.name, &t.value)?;
            }
        }
        map.end()
    }
}

#[derive(Serialize)]
struct Termination<'a> {
    recorded: Recorded<'a>,
    final_position: FinalPosition,
    /// Present when a ruleset judged the game; `null` when it computed no
    /// end.
    #[serde(skip_serializing_if = "Option::is_none")]
    computed: Option<Option<ComputedLine<'a>>>,
}

#[derive(Serialize)]
struct Recorded<'a> {
    result: Option<&'a str>,
    marker: Option<&'a str>,
    termination: Option<&'a str>,
    details: Option<&'a str>,
}

#[derive(Serialize)]
struct FinalPosition {
    checkmate: bool,
    stalemate: bool,
    insufficient_material: bool,
    repetition: u32,
    halfmove_clock: u32,
}

#[derive(Serialize)]
struct ComputedLine<'a> {
    rule: &'a str,
    ply: u32,
    result: &'a str,
    records: Option<&'a str>,
}

/// A rule value as JSON.
pub fn value(v: &crate::base::value::Value) -> Value {
    use crate::base::value::Value as V;
    match v {
        V::Num(n) if n.fract() == 0.0 && n.abs() < 1e15 => json!(*n as i64),
        V::Num(n) => json!(n),
        V::Bool(b) => json!(b),
        V::Str(s) => json!(s.as_str()),
        V::List(l) => Value::Array(l.iter().map(value).collect()),
        V::None => Value::Null,
        V::Unknown => json!("unknown"),
    }
}

/// What a report says of the event-level rules: where they were checked,
/// or why not.
fn event_level_reason(batch: Option<&crate::pipeline::BatchInvocation>) -> &'static str {
    match batch {
        None => {
            "the rule spans an event's games (pairings, standings, versions): `arbiter batch` checks it"
        }
        Some(b) if b.shard.is_some() => {
            "the rule spans an event's games, and a shard holds only part of each event: run the batch on the whole archive"
        }
        Some(_) => "checked once per event: see the event lines",
    }
}

/// The summary line.
pub fn summary_line(
    totals: &Totals,
    inputs: &[InputSummary],
    unreadable: &[(String, String)],
    config: &crate::pipeline::Config,
    logs: &[Value],
) -> Value {
    let ruleset = config.ruleset.as_ref();
    let ruleset = ruleset.map(|rs| {
        json!({
            "path": rs.path,
            "sha256": rs.sha256,
            "id": rs.id,
            "title": rs.title,
            "manual_review": rs.rules.iter().filter_map(|r| match &r.check {
                crate::rules::analysis::Check::Manual(what) => Some(json!({
                    "rule": r.id,
                    "clause": r.clause_text(),
                    "check": what,
                })),
                _ => None,
            }).collect::<Vec<_>>(),
            "not_evaluated": rs.unavailable_given(config.detectors.similarity.is_some()).iter().map(|(r, d)| json!({
                "rule": r,
                "reason": if *d == "similarity" {
                    "the `similarity` detector reads a report of `arbiter similarity`, and none was given (--similarity FILE): this rule is reported for manual review".to_string()
                } else {
                    format!("{} `{d}`: this rule is reported for manual review", crate::rules::analysis::UNAVAILABLE)
                },
            })).collect::<Vec<_>>(),
            // rules over several games: `audit` reads games one by one;
            // `batch` checks them per event, except on a shard
            "event_level": rs.rules.iter().filter(|r| r.is_event_level()).map(|r| json!({
                "rule": r.id,
                "reason": event_level_reason(config.invocation.as_ref().and_then(|i| i.batch.as_ref())),
            })).collect::<Vec<_>>(),
        })
    });
    let mut line = json!({
        "type": "summary",
        "schema_version": super::SCHEMA_VERSION,
        "arbiter_version": crate::VERSION,
        "invocation": config.invocation,
        "ruleset": ruleset,
        "inputs": inputs,
        "logs": logs,
        "unreadable": unreadable.iter().map(|(p, e)| json!({"path": p, "error": e})).collect::<Vec<_>>(),
        "games": totals.games,
        "plies": totals.plies,
        "incomplete_games": totals.incomplete_games,
        "findings": {
            "error": totals.by_severity[Severity::Error as usize],
            "warning": totals.by_severity[Severity::Warning as usize],
            "info": totals.by_severity[Severity::Info as usize],
            "manual-review": totals.by_severity[Severity::ManualReview as usize],
        },
        "findings_by_code": totals.by_code,
    });
    // a folder of rulesets: each one, in the order a file's choice tries
    // them (each input names the one it was judged under)
    if let (Some(shelf), Some(m)) = (&config.shelf, line.as_object_mut()) {
        let each: Vec<Value> = (shelf.rulesets.iter())
            .map(|rs| json!({"path": rs.path, "sha256": rs.sha256, "id": rs.id, "title": rs.title}))
            .collect();
        m.insert(
            "rulesets".into(),
            json!({"folder": shelf.dir, "rulesets": each}),
        );
    }
    line
}

/// What follows the games' lines (which [`run`] wrote, in input order) in
/// the batch's JSON Lines: one line per event with its event-level
/// findings (each naming the entrant, pair or game it is about) and the
/// rules it could not decide; then the summary line, with the SHA-256 of
/// every input and of every other file judged with, and the invocation
/// that `arbiter verify` reruns.
pub fn jsonl_tail(
    outcome: &crate::pipeline::batch::Outcome,
    cfg: &crate::pipeline::Config,
) -> String {
    use serde_json::json;
    let mut totals = Totals::default();
    let mut out = String::new();
    for g in &outcome.games {
        totals.add_game(g.plies, g.incomplete, &g.findings);
    }
    for e in &outcome.events {
        totals.add_findings(e.findings.iter().map(|(_, f)| f));
        let line = json!({
            "type": "event",
            "event": e.case.name,
            "games": e.games,
            "variant": e.variant,
            "skipped": e.skipped,
            "findings": e.findings.iter().map(|(about, f)| {
                let mut v = json!(f);
                if let Some(m) = v.as_object_mut() {
                    m.insert("about".into(), json!(about));
                }
                v
            }).collect::<Vec<_>>(),
            "not_decided": e.indeterminate.iter().map(|i| json!({"rule": i.rule, "reason": i.reason})).collect::<Vec<_>>(),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    let summary = summary_line(
        &totals,
        &outcome.inputs,
        &outcome.unreadable,
        cfg,
        &outcome.hashed,
    );
    out.push_str(&summary.to_string());
    out.push('\n');
    out
}
