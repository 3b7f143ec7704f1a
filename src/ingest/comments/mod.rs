//! Typed annotations parsed out of PGN comments.
//!
//! arbiter reads four kinds of machine-written comment:
//!
//! * the TCEC per-move comment: `d=30, sd=44, pd=Qxd1, mt=90906, tl=3514094,
//!   s=41641210, n=3784769610, pv=…, tb=0, h=0.0, ph=0.0, wv=0.27, R50=50,
//!   Rd=-11, Rr=-11, mb=+0+0+0+0+0,` and the book form `book, mb=…,`;
//! * the TCEC game comment `WhiteEngineOptions: …, BlackEngineOptions: …`;
//! * the cutechess-cli move comment `+0.35/24 1.2s` (score from the mover's
//!   view, depth, time), `book`, optionally followed by `, <termination>`;
//! * the PGN command forms `[%clk 1:59:58]`, `[%emt 0:00:05]`, `[%eval 0.35]`
//!   (also `[%eval #-5]` and `[%eval 0.35,20]`), as lichess exports them;
//! * fastchess's `+1.04/16 0.230s, tl=3.850s, latency=…, n=…, sd=…,
//!   nps=…, hashfull=…, tbhits=…, pv="g4h5 …"`, in [`fastchess`];
//! * OpenBench's cutechess-ob `+1.31 14/40 159 377044` (score,
//!   depth/seldepth, ms, nodes), in [`openbench`];
//! * the forms of other GUIs (Arena, Banksia) and of early TCEC
//!   seasons, in [`gui`], and c-chess-cli's `35/24 1234ms` (centipawns,
//!   depth, ms), in [`c_chess_cli`].
//!
//! Nothing is dropped: text that is not understood is kept in
//! [`Annotations::text`], unknown `key=value` items in `extra`, unknown PGN
//! commands in `commands`, and every value that fails to parse is recorded in
//! [`Annotations::problems`] with what was expected.
//!
//! Only this folder knows the forms. Everything after `ingest` reads a
//! move's values through [`MoveComments`] (score, depth, move time, clock,
//! book, node counts, the same whatever program wrote them), one comment's
//! through the accessors of [`Annotations`] in `comment_values`, and the
//! raw values of every form through [`recorded_values`].
//!
//! This file holds [`Comment`], [`Annotations`] and the dispatch that finds
//! a comment's form; each form is read in a file of its own, and the small
//! pieces they share (scores, clocks, numbers, the byte-level lexing) in
//! theirs.

mod c_chess_cli;
mod clock;
mod commands;
mod comment_values;
mod cutechess;
mod fastchess;
mod gui;
mod lex;
mod material;
mod move_comments;
mod number;
mod openbench;
mod options;
mod pv;
mod recorded;
mod score;
mod tcec;
mod tcec_keys;
#[cfg(test)]
mod test_texts;
#[cfg(test)]
mod tests;
mod typed;

pub use self::clock::{MAX_TIME_MS, parse_clock};
pub use self::commands::EvalCommand;
pub use self::comment_values::ReportedSearch;
pub use self::cutechess::CutechessMove;
pub use self::fastchess::fastchess_into;
pub use self::gui::{GuiMove, parse_plain_seconds, parse_speed, parse_tcec_time};
pub(super) use self::lex::ascii_white;
pub use self::material::{Material, MaterialError};
pub use self::move_comments::MoveComments;
pub use self::options::{EngineOption, EngineOptions, OptionValue};
pub use self::pv::{CommentSource, PvText, repack};
pub use self::recorded::recorded_values;
pub use self::score::{Score, ScoreError};
pub use self::tcec::TcecMove;
pub use self::typed::{Source, Sourced, TypedValues};

use serde::Serialize;

use crate::base::span::Span;

use self::commands::{extract_commands, has_command};
use self::cutechess::parse_cutechess;
use self::lex::trim;
use self::options::parse_engine_options;
use self::tcec::parse_tcec;
use self::tcec_keys::looks_like_tcec;

/// A comment and what arbiter understood of it.
#[derive(Debug, Clone)]
pub struct Comment {
    /// The span of the whole `{…}`: the text is read from the file there.
    pub span: Span,
    /// What the comment says, typed (its plain text in `annotations.text`).
    pub annotations: Annotations,
}

/// A move comment's values in the form of the program that wrote them: a
/// comment is in one form at most. Serialised as the field it was before it
/// was one of three (`tcec`, `cutechess` or `gui`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum MoveForm {
    #[serde(rename = "tcec")]
    Tcec(TcecMove),
    #[serde(rename = "cutechess")]
    Cutechess(CutechessMove),
    /// Another GUI's `score/depth time` comment (fastchess, Arena,
    /// Banksia, c-chess-cli, cutechess-ob): see [`gui`], [`fastchess`],
    /// [`c_chess_cli`] and [`openbench`].
    #[serde(rename = "gui")]
    Gui(GuiMove),
}

/// Everything arbiter understood in one comment, and everything it did not.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Annotations {
    /// The move's values, in their program's form. Held in place, not
    /// boxed: a move of any form is typed without an allocation, and the
    /// three forms share their room.
    #[serde(flatten)]
    pub form: Option<MoveForm>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine_options: Option<EngineOptions>,
    /// `[%clk]`: the mover's clock after the move, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clk: Option<i64>,
    /// `[%emt]`: elapsed move time, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emt: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval: Option<EvalCommand>,
    /// Other `[%cmd args]` commands, verbatim.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<(String, String)>,
    /// Text not understood, kept verbatim (trimmed).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Values that were recognised by their key but could not be parsed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

impl Annotations {
    /// The comment's TCEC values, if it is in TCEC's form.
    pub fn tcec(&self) -> Option<&TcecMove> {
        match &self.form {
            Some(MoveForm::Tcec(t)) => Some(t),
            _ => None,
        }
    }

    /// The comment's values, if it is in cutechess-cli's form.
    pub fn cutechess(&self) -> Option<&CutechessMove> {
        match &self.form {
            Some(MoveForm::Cutechess(c)) => Some(c),
            _ => None,
        }
    }

    /// The comment's values, if it is in another GUI's form.
    pub fn gui(&self) -> Option<&GuiMove> {
        match &self.form {
            Some(MoveForm::Gui(g)) => Some(g),
            _ => None,
        }
    }
}

/// Parse one comment's text.
pub fn parse_comment(raw: &str) -> Annotations {
    let mut ann = Annotations::default();
    parse_comment_from(raw, &mut ann, None);
    ann
}

/// Parse one comment's text into `ann`, which must be empty (the reader
/// types a comment where it is stored: an `Annotations` is about 500 bytes,
/// and each move of one by value copies them). With `src`, where `raw`
/// lies in its game's bytes, its PV is kept as a span of them.
pub fn parse_comment_from(raw: &str, ann: &mut Annotations, src: Option<&CommentSource<'_>>) {
    // most comments hold no `[%…]` command: then nothing is copied
    let extracted;
    let rest = if has_command(raw.as_bytes()) {
        extracted = extract_commands(raw, ann);
        trim(&extracted)
    } else {
        trim(raw)
    };
    if rest.is_empty() {
        return;
    }
    if rest.starts_with("WhiteEngineOptions:") || rest.starts_with("BlackEngineOptions:") {
        ann.engine_options = Some(parse_engine_options(rest));
        return;
    }
    if looks_like_tcec(rest) {
        // typed where it is stored
        if let MoveForm::Tcec(t) = ann.form.insert(MoveForm::Tcec(TcecMove::default())) {
            parse_tcec(rest, t, &mut ann.problems, &mut ann.text, src);
        }
        return;
    }
    // fastchess's comment with a `key=value` item after the time; without
    // one it is cutechess-cli's form, and read as that
    let keyed = memchr::memchr(b'=', rest.as_bytes()).is_some();
    if keyed && fastchess_into(rest, &mut ann.problems, &mut ann.form, src) {
        return;
    }
    if let Some(cc) = parse_cutechess(rest) {
        ann.form = Some(MoveForm::Cutechess(cc));
        return;
    }
    if !keyed && fastchess_into(rest, &mut ann.problems, &mut ann.form, src) {
        return;
    }
    if let Some(m) = gui::parse_plain_seconds(rest) {
        ann.form = Some(MoveForm::Gui(m));
        return;
    }
    if let Some(m) = c_chess_cli::parse_c_chess_cli(rest) {
        ann.form = Some(MoveForm::Gui(m));
        return;
    }
    if let Some(m) = openbench::parse_cutechess_ob(rest) {
        ann.form = Some(MoveForm::Gui(m));
        return;
    }
    if let Some(problem) = openbench::engine_numbers_malformed(rest) {
        ann.problems.push(problem);
    }
    ann.text = rest.to_string();
}
