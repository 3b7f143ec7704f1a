//! A game's start: the variant its tags ask for (standard chess or
//! Chess960) and the position its `FEN` tag gives.

use crate::findings::codes;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use super::record::{SetupNote, Stop};
use crate::ingest::pgn::PgnGame;

/// Variants of chess other programs name in a `Variant` tag (lowercase,
/// without spaces, `-` or `_`), which arbiter does not replay.
const OTHER_VARIANTS: &[&str] = &[
    "crazyhouse",
    "crazyhouse960",
    "atomic",
    "atomic960",
    "antichess",
    "giveaway",
    "suicide",
    "losers",
    "kingofthehill",
    "koth",
    "threecheck",
    "3check",
    "fivecheck",
    "5check",
    "horde",
    "racingkings",
    "bughouse",
    "shatranj",
    "courier",
    "capablanca",
    "caparandom",
    "gothic",
    "janus",
    "berolina",
    "seirawan",
    "schess",
    "makruk",
    "xiangqi",
    "shogi",
    "grand",
    "knightmate",
    "extinction",
    "twokings",
    "placement",
    "upsidedown",
    "andernach",
    "fairy",
];

/// A `Variant` tag naming a variant arbiter does not replay (lowercased,
/// trimmed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("variant {variant:?} is not supported: arbiter replays standard chess and Chess960")]
pub struct VariantError {
    pub variant: String,
}

/// Why a `FEN` tag gives no position: the text is no FEN, or the position
/// it writes is not a legal start.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Fen(#[from] shakmaty::fen::ParseFenError),
    #[error(transparent)]
    Position(Box<shakmaty::PositionError<Chess>>),
}

/// Which variant the tags ask for.
pub fn castling_mode(game: &PgnGame) -> Result<CastlingMode, VariantError> {
    match game.tag("Variant").map(|v| v.trim().to_ascii_lowercase()) {
        None => Ok(CastlingMode::Standard),
        Some(v) => match v.as_str() {
            "" | "standard" | "chess" | "normal" | "from position" => Ok(CastlingMode::Standard),
            "chess960" | "chess 960" | "fischerandom" | "fischer random" | "frc" | "960" => {
                Ok(CastlingMode::Chess960)
            }
            _ if variant_is_opening_name(game) => Ok(CastlingMode::Standard),
            other => Err(VariantError {
                variant: other.to_string(),
            }),
        },
    }
}

/// The `Variant` tag names no variant of chess (none arbiter replays, none
/// of [`OTHER_VARIANTS`]) and the game has an `ECO` or `Opening` tag: it is
/// the opening's variation, as Banksia writes it.
fn variant_is_opening_name(game: &PgnGame) -> bool {
    let Some(v) = game.tag("Variant") else {
        return false;
    };
    let key: String = v
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect();
    let named = |t: &str| game.tag(t).is_some_and(|x| !matches!(x.trim(), "" | "?"));
    !OTHER_VARIANTS.contains(&key.as_str()) && (named("ECO") || named("Opening"))
}

/// The position a `FEN` tag gives in `mode`.
pub(super) fn setup(fen: &str, mode: CastlingMode) -> Result<Chess, SetupError> {
    Fen::from_ascii(fen.trim().as_bytes())?
        .into_position::<Chess>(mode)
        .map_err(|e| SetupError::Position(Box::new(e)))
}

/// Where a game's replay starts, as its set-up tags give it.
pub(super) struct SetUp {
    /// The position before the first move (the standard one when the
    /// `FEN` tag is not a valid position).
    pub start: Chess,
    pub mode: CastlingMode,
    pub setup_notes: Vec<SetupNote>,
    /// The set-up tags cannot be replayed (an invalid `FEN`, a variant
    /// arbiter does not play): the replay stops before its first move.
    pub stop: Option<Stop>,
}

/// The start of `game`'s replay: its variant and its position, with how
/// the tags were read where they do not say it plainly.
pub(super) fn set_up(game: &PgnGame) -> SetUp {
    let mut mode = castling_mode(game).unwrap_or(CastlingMode::Standard);
    let mut stop = None;
    let mut setup_notes = Vec::new();
    if game.tag("Variant").is_some() && variant_is_opening_name(game) {
        let v = game.tag("Variant").unwrap_or_default();
        setup_notes.push(SetupNote {
            code: codes::VARIANT_IS_OPENING,
            message: format!(
                "the Variant tag {v:?} names no variant of chess and the game has ECO/Opening tags: read as the opening's variation (Banksia writes it there); replayed as standard chess"
            ),
            span: game.tag_entry("Variant").map(|t| t.span),
        });
    }
    let start: Chess = match game.tag("FEN") {
        Some(fen) => {
            let mut parsed = setup(fen, mode);
            // No Variant tag, and castling rights standard chess cannot
            // have: a Chess960 start given by its FEN alone (X-FEN or
            // Shredder-FEN). Replayed as Chess960, and said.
            if let Err(e) = &parsed
                && game.tag("Variant").is_none()
                && let Ok(p) = setup(fen, CastlingMode::Chess960)
            {
                setup_notes.push(SetupNote {
                    code: codes::CHESS960_INFERRED,
                    message: format!(
                        "the FEN {fen:?} has castling rights standard chess cannot have ({e}) and there is no Variant tag: replayed as Chess960"
                    ),
                    span: game.tag_entry("FEN").map(|t| t.span),
                });
                mode = CastlingMode::Chess960;
                parsed = Ok(p);
            }
            match parsed {
                Ok(p) => p,
                Err(e) => {
                    stop = Some(Stop {
                        code: codes::INVALID_SETUP,
                        message: format!("the FEN tag {fen:?} is not a valid position: {e}"),
                        ply: 1,
                        span: game.tag_entry("FEN").map(|t| t.span),
                    });
                    Chess::default()
                }
            }
        }
        None => Chess::default(),
    };
    if let Err(e) = castling_mode(game) {
        stop = Some(Stop {
            code: codes::UNSUPPORTED_VARIANT,
            message: e.to_string(),
            ply: 1,
            span: game.tag_entry("Variant").map(|t| t.span),
        });
    }
    SetUp {
        start,
        mode,
        setup_notes,
        stop,
    }
}
