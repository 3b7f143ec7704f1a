//! The registry of built-in finding codes: each code declared once, with
//! its severity, the part of the documentation it belongs to, and its
//! meaning (its doc comment, the user documentation: `rules explain CODE`
//! prints it, and the code tables of `docs/findings-schema.md` are made
//! from it, kept current by `tests/codes.rs`). Every place that makes a
//! finding names its code through this registry; no other file of the
//! crate spells a code (the same test checks it).
//!
//! To add a code: declare it here with its doc comment, make the finding
//! with [`super::Finding::of`] (or [`super::Finding::with_severity`] where
//! the severity is a rule's), and bless the tables:
//! `ARBITER_BLESS=1 cargo test --test cli codes`.

use super::Severity;

/// Which table of `docs/findings-schema.md` a code belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// Made without a ruleset: the record's own integrity (section 8).
    Record,
    /// Made by the ruleset stage (section 8.1).
    Ruleset,
    /// Made from the logs (section 8.2).
    Logs,
}

/// A built-in finding code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    /// The code as findings carry it (`plycount-mismatch`).
    pub id: &'static str,
    /// Its severity; `None` where it is the rule's that made it.
    pub severity: Option<Severity>,
    pub section: Section,
    /// What it means, in Markdown (one paragraph).
    pub doc: &'static str,
}

impl Code {
    /// The severity as the documentation shows it.
    pub fn severity_text(&self) -> &'static str {
        self.severity.map_or("the rule's", Severity::as_str)
    }

    /// What it means, as one paragraph (its doc comment's lines joined).
    pub fn paragraph(&self) -> String {
        let lines: Vec<&str> = self.doc.lines().map(str::trim).collect();
        lines.join(" ").trim().to_string()
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

/// Each code's constant, and [`CODES`], from one declaration per code.
macro_rules! registry {
    ($( $(#[doc = $doc:literal])+ $name:ident = $id:literal, $sev:expr, $section:ident; )*) => {
        $(
            $(#[doc = $doc])+
            pub const $name: Code = Code {
                id: $id,
                severity: $sev,
                section: Section::$section,
                doc: concat!($($doc, "\n"),+),
            };
        )*
        /// Every built-in code, in the documentation's order.
        pub const CODES: &[Code] = &[$($name),*];
    };
}

/// The Markdown table of the codes of `section`, as
/// `docs/findings-schema.md` shows it.
pub fn table(section: Section) -> String {
    let mut t = String::from("| Code | Severity | Meaning |\n|---|---|---|\n");
    for c in CODES.iter().filter(|c| c.section == section) {
        t.push_str(&format!(
            "| `{}` | {} | {} |\n",
            c.id,
            c.severity_text(),
            c.paragraph()
        ));
    }
    t
}

/// The code named `id`, if it is a built-in one.
pub fn find(id: &str) -> Option<&'static Code> {
    CODES.iter().find(|c| c.id == id)
}

registry! {
    // ---- record
    /// The PGN syntax is broken beyond recovery within the game, e.g. an
    /// unterminated tag or comment. A game larger than 8 MiB also raises this
    /// code and is skipped. The replay stops there.
    PGN_SYNTAX = "pgn-syntax", Some(Severity::Error), Record;
    /// A movetext token is not a move, a move number, a NAG, a comment, a
    /// variation or a result (e.g. `Zf3`).
    UNPARSABLE_TOKEN = "unparsable-token", Some(Severity::Error), Record;
    /// The replay was cut at the first unparsable token or syntax error. The
    /// message says how many recorded moves were not replayed.
    UNPARSABLE_MOVE = "unparsable-move", Some(Severity::Error), Record;
    /// A move (or a null move) is illegal or ambiguous in the position. The
    /// message names the move as written, the side, the ply, why (e.g. `the way
    /// from f1 to b5 is blocked`, `d2 holds White's own pawn`, `it is written as
    /// a capture, but f3 is empty`, `the knight on c3 moving to d5 would leave
    /// White's king in check`, `the white rooks on a1 and h1 can each move to
    /// d1`) and the position; the evidence gives the file, line and column. The
    /// replay stops at that ply; the other games of the batch are read on.
    ILLEGAL_MOVE = "illegal-move", Some(Severity::Error), Record;
    /// The `FEN` tag is not a valid position. Nothing is replayed.
    INVALID_SETUP = "invalid-setup", Some(Severity::Error), Record;
    /// The `Variant` tag is neither standard chess nor Chess960. Nothing is
    /// replayed.
    UNSUPPORTED_VARIANT = "unsupported-variant", Some(Severity::Error), Record;
    /// The `Variant` tag names no variant of chess, and the game has `ECO` or
    /// `Opening` tags: it is read as the opening's variation (Banksia writes it
    /// there), and the game is replayed as standard chess. A variant arbiter
    /// knows but does not replay (crazyhouse, atomic, …) is still
    /// `unsupported-variant`.
    VARIANT_IS_OPENING = "variant-is-opening", Some(Severity::Info), Record;
    /// The game has no `Variant` tag, but its `FEN` gives castling rights
    /// standard chess cannot have (a king or a rook off its standard square). It
    /// is replayed as Chess960; the evidence is the `FEN` tag.
    CHESS960_INFERRED = "chess960-inferred", Some(Severity::Warning), Record;
    /// A tag or comment is not valid UTF-8, so it was read as Windows-1252
    /// (Latin-1). One finding per tag or comment; nothing is dropped.
    ENCODING = "encoding", Some(Severity::Info), Record;
    /// A known key in a machine-written comment has a malformed value (e.g. `d=x`
    /// or `[%clk 1:x]`).
    ANNOTATION_MALFORMED = "annotation-malformed", Some(Severity::Warning), Record;
    /// The same tag appears twice. The first value is used.
    DUPLICATE_TAG = "duplicate-tag", Some(Severity::Warning), Record;
    /// The move as written has `+` or `#`, but the position is not check or not
    /// mate.
    WRONG_CHECK_MARK = "wrong-check-mark", Some(Severity::Info), Record;
    /// The `PlyCount` tag differs from the number of moves, or is not a number.
    PLYCOUNT_MISMATCH = "plycount-mismatch", Some(Severity::Warning), Record;
    /// A `Date`, `UTCDate`, `EventDate`, `Time`, `UTCTime`, `GameStartTime` or
    /// `GameEndTime` tag whose date or time does not exist (31 February, a month
    /// 13, 24:00:00). A part written `??` is not checked.
    DATE_INVALID = "date-invalid", Some(Severity::Warning), Record;
    /// There is no `Result` tag.
    RESULT_TAG_MISSING = "result-tag-missing", Some(Severity::Warning), Record;
    /// The `Result` tag is not `1-0`, `0-1`, `1/2-1/2` or `*`.
    RESULT_INVALID = "result-invalid", Some(Severity::Error), Record;
    /// The `Result` tag and the termination marker in the movetext disagree.
    RESULT_MARKER_MISMATCH = "result-marker-mismatch", Some(Severity::Error), Record;
    /// The movetext has no termination marker, so the record may be truncated.
    RESULT_MARKER_MISSING = "result-marker-missing", Some(Severity::Warning), Record;
    /// The result contradicts the final position: checkmate, stalemate, or a dead
    /// position recorded as a win.
    RESULT_CONTRADICTS_POSITION = "result-contradicts-position", Some(Severity::Error), Record;
    /// The recorded winner has no mating material. Such a win is valid only by
    /// resignation or forfeit.
    RESULT_IMPOSSIBLE_WINNER = "result-impossible-winner", Some(Severity::Warning), Record;
    /// The result is `*`, but the game ended on the board (mate, stalemate or a
    /// dead position).
    RESULT_UNRECORDED = "result-unrecorded", Some(Severity::Warning), Record;
    /// The claim in `Termination` or `TerminationDetails` is not borne out by the
    /// final position or by the result. This covers `White mates`/`Black mates`,
    /// `3-fold repetition`, `Fifty moves rule`, `Stalemate` and `Insufficient
    /// material`.
    TERMINATION_UNSUPPORTED = "termination-unsupported", Some(Severity::Error), Record;
    // ---- ruleset
    /// A rule ends the game at an earlier ply than the record does.
    ADJUDICATION_MISSED = "adjudication-missed", None, Ruleset;
    /// The rule ends the game at the record's last ply with another result.
    ADJUDICATION_WRONG_RESULT = "adjudication-wrong-result", None, Ruleset;
    /// Same ply and result, but `TerminationDetails` names another termination
    /// than the rule `records`.
    ADJUDICATION_MISLABELLED = "adjudication-mislabelled", Some(Severity::Warning), Ruleset;
    /// The record claims a termination (by `TerminationDetails`) that the rule
    /// recording it never computed.
    ADJUDICATION_UNSUPPORTED = "adjudication-unsupported", None, Ruleset;
    /// A game of no move has a result, but no rule of the ruleset ends it at
    /// its start position (the adjudications are judged there too, as
    /// fastchess probes its tables before the first move). The evidence is
    /// the `Result` tag and the `FEN` tag, as there is no move.
    ADJUDICATION_START_UNSUPPORTED = "adjudication-start-unsupported", Some(Severity::Warning), Ruleset;
    /// A rule could not be decided (e.g. no tablebase for the position); the
    /// message names what was missing. No adjudication is computed from there on.
    RULE_UNDECIDED = "rule-undecided", Some(Severity::Info), Ruleset;
    /// With `--fit` (audit, batch): the file was judged under fitted values that
    /// depart from the ruleset's text. One per departing file, on its first game;
    /// the message names each departure and the agreement (counters,
    /// terminations) under the text and under the fit; the evidence names the
    /// file and points at each departing `fit` clause in the ruleset (line and
    /// column).
    RULES_FIT = "rules-fit", Some(Severity::Info), Ruleset;
    /// With `--fit` (audit, batch): a rule fires in more than a tenth of the
    /// file's games even under the fitted values, so the ruleset does not
    /// describe this archive (docs/rules-language.md, Not described). One per
    /// such rule and file, on its first game; the message gives the games it
    /// fires in, of how many, its findings, and the first three games with their
    /// plies; the evidence names the file and points at the rule. The rule's own
    /// findings all stay in their games.
    RULES_FIT_UNDESCRIBED = "rules-fit-undescribed", Some(Severity::Warning), Ruleset;
    /// Flipping one of the ruleset's switches changes the computed termination;
    /// the message gives both outcomes and the switch's explanation.
    SWITCH_CHANGED_OUTCOME = "switch-changed-outcome", Some(Severity::Info), Ruleset;
    /// The ruleset could not be applied to this game (e.g. a forced variant that
    /// does not exist).
    RULESET_UNUSABLE = "ruleset-unusable", Some(Severity::Error), Ruleset;
    // ---- logs
    /// An operator-log line could not be read (evidence: the log's line).
    OPERATOR_LOG_SYNTAX = "operator-log-syntax", Some(Severity::Error), Logs;
    /// An engine-log line could not be read.
    ENGINE_LOG_SYNTAX = "engine-log-syntax", Some(Severity::Error), Logs;
    /// The engine was never given a position of this game.
    ENGINE_LOG_OTHER_GAME = "engine-log-other-game", Some(Severity::Error), Logs;
    /// A position sent to the engine has a move the record does not (a move
    /// entered wrongly).
    ENGINE_POSITION_DIFFERS = "engine-position-differs", Some(Severity::Error), Logs;
    /// The engine's bestmove is not the move on the board at that ply.
    BESTMOVE_DIFFERS = "bestmove-differs", Some(Severity::Warning), Logs;
    /// A bestmove is not legal in the position searched: lines missing or out of
    /// order.
    ENGINE_LOG_INCONSISTENT = "engine-log-inconsistent", Some(Severity::Warning), Logs;
    /// A search has no bestmove in the log, and no later search for the same ply
    /// answered.
    ENGINE_LOG_UNANSWERED = "engine-log-unanswered", Some(Severity::Warning), Logs;
    /// Plies of the engine's side, between its first and last search, with no
    /// search.
    ENGINE_LOG_GAP = "engine-log-gap", Some(Severity::Warning), Logs;
    /// A timestamp earlier than the line before it.
    ENGINE_TIME_BACKWARDS = "engine-time-backwards", Some(Severity::Warning), Logs;
    /// A match-long log's result for the game (fastchess `Game N finished with
    /// result R`, cutechess `Finished game N …: R {reason}`) is not its Result
    /// tag; evidence: the log's line and the tag.
    ENGINE_LOG_RESULT_DIFFERS = "engine-log-result-differs", Some(Severity::Error), Logs;
    /// A match-long log has no game for this one (docs/engine-log.md).
    ENGINE_LOG_GAME_MISSING = "engine-log-game-missing", Some(Severity::Warning), Logs;
    /// The manager's standard output (`--manager-stdout`) ends the game with
    /// another result, or another reason than the ending the record writes;
    /// evidence: the `Finished game` line, the Result tag, the record's ending.
    MANAGER_STDOUT_RESULT_DIFFERS = "manager-stdout-result-differs", Some(Severity::Error), Logs;
    /// The manager's output starts the game and has no `Finished game` line for
    /// it.
    MANAGER_STDOUT_UNFINISHED = "manager-stdout-unfinished", Some(Severity::Warning), Logs;
    /// The manager warned during the game (`Warning; …`): one finding per text
    /// and ply, at the ply of the search its `Moves;` line gives, with how many
    /// lines.
    MANAGER_STDOUT_WARNING = "manager-stdout-warning", Some(Severity::Info), Logs;
    /// A results table of the manager's output (fastchess's `Results of` block or
    /// ranking row, cutechess's `Score of` and colour lines) is not what the
    /// output's games finished before it give; said on the last of those games.
    MANAGER_STDOUT_TALLY_DIFFERS = "manager-stdout-tally-differs", Some(Severity::Error), Logs;
    /// The manager's output has no game for this one (docs/managers.md).
    MANAGER_STDOUT_GAME_MISSING = "manager-stdout-game-missing", Some(Severity::Warning), Logs;
}
