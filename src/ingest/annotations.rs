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
//! * the forms of other GUIs (fastchess, Arena, Banksia) and of early TCEC
//!   seasons, in [`super::forms`].
//!
//! Nothing is dropped: text that is not understood is kept in
//! [`Annotations::text`], unknown `key=value` items in `extra`, unknown PGN
//! commands in `commands`, and every value that fails to parse is recorded in
//! [`Annotations::problems`] with what was expected.

use std::borrow::Cow;

use super::pgn::GameText;
use serde::Serialize;

/// A principal variation's text (SAN, space separated). Read from the
/// game's own bytes it is a span of them, shared with every other PV of the
/// game, so typing a move's comment allocates nothing for it; a PV from a
/// comment that had to be rewritten first (decoded from Latin-1, or with
/// `[%…]` commands taken out) owns its text.
#[derive(Clone)]
pub enum PvText {
    Span {
        text: std::sync::Arc<GameText>,
        start: u32,
        len: u32,
    },
    Owned(Box<str>),
}

impl PvText {
    /// The PV `value`, a slice of `src.body` when it comes from there.
    fn new(src: Option<&CommentSource<'_>>, value: &str) -> PvText {
        if let Some(src) = src {
            let body = src.body.as_ptr() as usize;
            let at = value.as_ptr() as usize;
            if at >= body && at + value.len() <= body + src.body.len() {
                let start = src.at + (at - body);
                // the span is checked against the game's bytes, so a span
                // never reads anything but the PV itself: the same memory
                // (nearly always: the comment's body is a slice of the
                // game's text) is the PV without a compare of its bytes
                let same = src
                    .text
                    .get(start..start + value.len())
                    .is_some_and(|s| std::ptr::eq(s, value.as_bytes()) || s == value.as_bytes());
                if same
                    && let (Ok(start), Ok(len)) = (u32::try_from(start), u32::try_from(value.len()))
                {
                    return PvText::Span {
                        text: src.text.clone(),
                        start,
                        len,
                    };
                }
            }
        }
        PvText::Owned(value.into())
    }
}

impl std::ops::Deref for PvText {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            PvText::Span { text, start, len } => {
                let (start, len) = (*start as usize, *len as usize);
                // made from a `&str` of the same bytes (`PvText::new`)
                match text.text(start, start + len) {
                    Some(pv) => pv,
                    None => std::str::from_utf8(text.get(start..start + len).unwrap_or_default())
                        .unwrap_or_default(),
                }
            }
            PvText::Owned(s) => s,
        }
    }
}

impl std::fmt::Debug for PvText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for PvText {
    fn eq(&self, other: &PvText) -> bool {
        **self == **other
    }
}

impl Serialize for PvText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

/// Where a comment's text lies in its game's bytes: `body`, the text as the
/// reader gave it, starts at byte `at` of `text`. With it a PV is kept as a
/// span of the game's bytes instead of a copy.
#[derive(Debug, Clone, Copy)]
pub struct CommentSource<'a> {
    pub text: &'a std::sync::Arc<GameText>,
    pub body: &'a str,
    pub at: usize,
}

/// An engine score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves; negative when the engine is being mated.
    Mate(i32),
}

impl Score {
    /// Parse a score in pawns (`0.27`, `-1.5`, `+3`) or a mate (`M12`,
    /// `-M5`, `+M3`, `#-5`, `#7`).
    pub fn parse_pawns(s: &str) -> Result<Score, String> {
        match fast_pawns(s.as_bytes()) {
            Some(score) => Ok(score),
            None => Score::parse_pawns_general(s),
        }
    }

    /// [`Score::parse_pawns`]'s score where its error would be dropped (a
    /// comment tried against a form): text that cannot be a score (after
    /// its sign, neither a mate's `M` or `#`, nor a digit or a point) is
    /// answered without the error's message being written.
    pub fn read_pawns(s: &str) -> Option<Score> {
        fast_pawns(s.as_bytes()).or_else(|| {
            let t = s.trim();
            let body = t.strip_prefix(['-', '+']).unwrap_or(t);
            let may_be = match body.as_bytes().first() {
                Some(b) => matches!(b, b'M' | b'#' | b'.') || b.is_ascii_digit(),
                None => false,
            };
            may_be.then(|| Score::parse_pawns_general(s).ok()).flatten()
        })
    }

    /// [`Score::parse_pawns`] for every form: what [`fast_pawns`] does not
    /// read.
    fn parse_pawns_general(s: &str) -> Result<Score, String> {
        let t = s.trim();
        let (neg, body) = match t.as_bytes().first() {
            Some(b'-') => (true, &t[1..]),
            Some(b'+') => (false, &t[1..]),
            _ => (false, t),
        };
        if let Some(m) = body.strip_prefix('M').or_else(|| body.strip_prefix('#')) {
            let (neg2, m) = match m.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, m.strip_prefix('+').unwrap_or(m)),
            };
            let n: i32 = m
                .parse()
                .map_err(|_| format!("expected a mate distance after 'M' in {t:?}"))?;
            return Ok(Score::Mate(if neg ^ neg2 { -n } else { n }));
        }
        let cp = parse_hundredths(body).ok_or_else(|| {
            format!("expected a score in pawns with at most two decimals, found {t:?}")
        })?;
        Ok(Score::Cp(if neg { -cp } else { cp }))
    }

    /// The same score seen from the other side.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(m) => Score::Mate(-m),
        }
    }
}

/// `12`, `0.27`, `3.5` → hundredths (`1200`, `27`, `350`); `None` when the
/// text is not an unsigned decimal with at most two decimals.
fn parse_hundredths(s: &str) -> Option<i32> {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if frac.len() > 2 {
        return None;
    }
    let whole: i32 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut f: i32 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    if frac.len() == 1 {
        f *= 10;
    }
    whole.checked_mul(100)?.checked_add(f)
}

/// `0.27`, `-1.5`, `+3` (a sign, 1 to 7 digits, and a point with one or
/// two digits) as [`Score::parse_pawns_general`] reads them, in one loop;
/// `None` for any other form (which [`Score::parse_pawns`] then gives to
/// the general one).
#[inline]
fn fast_pawns(b: &[u8]) -> Option<Score> {
    let (neg, b) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    let mut i = 0;
    let mut whole: i32 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        whole = whole * 10 + i32::from(b[i] - b'0');
        i += 1;
        if i > 7 {
            return None;
        }
    }
    if i == 0 {
        return None;
    }
    let cp = match &b[i..] {
        [] => whole * 100,
        [b'.', t @ b'0'..=b'9'] => whole * 100 + i32::from(t - b'0') * 10,
        [b'.', t @ b'0'..=b'9', h @ b'0'..=b'9'] => {
            whole * 100 + i32::from(t - b'0') * 10 + i32::from(h - b'0')
        }
        _ => return None,
    };
    Some(Score::Cp(if neg { -cp } else { cp }))
}

/// Material balance `mb=+P+N+B+R+Q`, White minus Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Material {
    pub pawns: i32,
    pub knights: i32,
    pub bishops: i32,
    pub rooks: i32,
    pub queens: i32,
}

impl Material {
    /// `+0-1+0+0+0`: five signs each with one digit, as [`Material::parse`]
    /// reads them; `None` for any other form.
    fn five_digits(b: &[u8]) -> Option<Material> {
        if b.len() != 10 {
            return None;
        }
        let pairs: &[[u8; 2]; 5] = b.as_chunks::<2>().0.try_into().ok()?;
        let mut vals = [0i32; 5];
        for (v, &[sign, digit]) in vals.iter_mut().zip(pairs) {
            if !digit.is_ascii_digit() {
                return None;
            }
            let d = i32::from(digit - b'0');
            *v = match sign {
                b'+' => d,
                b'-' => -d,
                _ => return None,
            };
        }
        let [pawns, knights, bishops, rooks, queens] = vals;
        Some(Material {
            pawns,
            knights,
            bishops,
            rooks,
            queens,
        })
    }

    fn parse(s: &str) -> Result<Material, String> {
        // nearly always five one-digit counts: read in place
        if let Some(m) = Material::five_digits(s.as_bytes()) {
            return Ok(m);
        }
        let err = || format!("expected five signed counts like +0-1+0+0+0, found {s:?}");
        let mut vals = [0i32; 5];
        let mut n = 0;
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let neg = match b[i] {
                b'+' => false,
                b'-' => true,
                _ => return Err(err()),
            };
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            // up to 9 digits fit an i32; longer ones (leading zeros, or
            // too large) go through `str::parse`
            let v: i32 = if (1..=9).contains(&(i - start)) {
                b[start..i]
                    .iter()
                    .fold(0, |v, &c| v * 10 + i32::from(c - b'0'))
            } else {
                s[start..i].parse().map_err(|_| err())?
            };
            if n == 5 {
                return Err(err());
            }
            vals[n] = if neg { -v } else { v };
            n += 1;
        }
        if n != 5 {
            return Err(err());
        }
        let [pawns, knights, bishops, rooks, queens] = vals;
        Ok(Material {
            pawns,
            knights,
            bishops,
            rooks,
            queens,
        })
    }
}

/// The TCEC per-move comment, every key typed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TcecMove {
    /// The move came from the event's opening book.
    pub book: bool,
    /// Search depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d: Option<u32>,
    /// Selective depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sd: Option<u32>,
    /// Ponder move the engine expected (SAN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pd: Option<compact_str::CompactString>,
    /// Move time, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mt: Option<i64>,
    /// Time left after the move, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tl: Option<i64>,
    /// Speed, nodes per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub s: Option<u64>,
    /// Nodes searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// Principal variation, SAN, space separated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv: Option<PvText>,
    /// Tablebase hits; `Some(None)` when recorded as `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tb: Option<Option<u64>>,
    /// Hash full, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub h: Option<f64>,
    /// Ponder hit rate, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ph: Option<f64>,
    /// Evaluation from White's point of view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wv: Option<Score>,
    /// Moves left under the fifty-move rule.
    #[serde(rename = "R50", skip_serializing_if = "Option::is_none")]
    pub r50: Option<i32>,
    /// Draw-rule counter (plies left; negative: see docs).
    #[serde(rename = "Rd", skip_serializing_if = "Option::is_none")]
    pub rd: Option<i32>,
    /// Win-rule counter.
    #[serde(rename = "Rr", skip_serializing_if = "Option::is_none")]
    pub rr: Option<i32>,
    /// Material balance, White minus Black.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mb: Option<Material>,
    /// `key=value` items arbiter does not know, verbatim.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<(String, String)>,
}

impl TcecMove {
    /// Whether the comment carries engine output (not a book move).
    pub fn is_engine_move(&self) -> bool {
        !self.book
    }
}

/// A cutechess-cli move comment: `+0.35/24 1.2s`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CutechessMove {
    pub book: bool,
    /// Score from the point of view of the side that moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Score>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Move time, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<i64>,
    /// Text after the comma, e.g. `White mates`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// An engine option value, typed where it looks like a number or a boolean.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    Text(compact_str::CompactString),
}

impl OptionValue {
    pub fn parse(s: &str) -> OptionValue {
        let t = s.trim();
        if let Ok(i) = t.parse::<i64>() {
            OptionValue::Int(i)
        } else if t.eq_ignore_ascii_case("true") {
            OptionValue::Bool(true)
        } else if t.eq_ignore_ascii_case("false") {
            OptionValue::Bool(false)
        } else {
            OptionValue::Text(t.into())
        }
    }
}

/// One engine option as recorded, with its typed value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineOption {
    /// Held inline up to 24 bytes, as nearly every option's name and value
    /// is (`Threads`, `SyzygyPath`, `16384`): no allocation for them.
    pub name: compact_str::CompactString,
    pub value: OptionValue,
    /// The value exactly as written.
    pub raw: compact_str::CompactString,
}

/// `WhiteEngineOptions: …, BlackEngineOptions: …`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct EngineOptions {
    pub white: Vec<EngineOption>,
    pub black: Vec<EngineOption>,
}

/// `[%eval …]`: a score from White's point of view, with optional depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EvalCommand {
    pub score: Score,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
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
    /// Banksia): see [`super::forms`].
    #[serde(rename = "gui")]
    Gui(super::forms::GuiMove),
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
    pub fn gui(&self) -> Option<&super::forms::GuiMove> {
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
    if let Some(cc) = parse_cutechess(rest) {
        ann.form = Some(MoveForm::Cutechess(cc));
        return;
    }
    if super::forms::fastchess_into(rest, &mut ann.problems, &mut ann.form) {
        return;
    }
    if let Some(m) = super::forms::parse_plain_seconds(rest) {
        ann.form = Some(MoveForm::Gui(m));
        return;
    }
    ann.text = rest.to_string();
}

/// Whether a comment holds a `[%`, which opens a command. A comment
/// shorter than memchr's vector (cutechess-cli's `+0.27/30 90.906s`) is
/// looked at a byte at a time: memchr's own loop for it costs more.
#[inline]
fn has_command(b: &[u8]) -> bool {
    if b.len() < 32 {
        command_start(b).is_some()
    } else {
        memchr::memchr_iter(b'[', b).any(|i| b.get(i + 1) == Some(&b'%'))
    }
}

/// Type the `[%cmd args]` groups of `raw`, the ones arbiter knows into
/// their fields and the others verbatim, and return the text around them
/// (to be trimmed). Where at most one piece of that text is more than white
/// space, the one piece is the text once trimmed, and it is borrowed; only
/// a comment with text on both sides of a command has its pieces joined
/// into a new text.
fn extract_commands<'a>(raw: &'a str, ann: &mut Annotations) -> Cow<'a, str> {
    let mut text: Option<&str> = None;
    let mut several = false;
    for piece in command_pieces(raw) {
        match piece {
            // more than white space (`trim` reads ASCII a byte at a time)
            Piece::Text(t) if !trim(t).is_empty() => {
                several |= text.is_some();
                text = Some(t);
            }
            Piece::Text(_) => {}
            Piece::Command(inner) => type_command(inner, ann),
        }
    }
    if several {
        let mut out = String::with_capacity(raw.len());
        for piece in command_pieces(raw) {
            if let Piece::Text(t) = piece {
                out.push_str(t);
            }
        }
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text.unwrap_or(""))
    }
}

/// A piece of a comment: text, or the inside of a `[%…]` group.
enum Piece<'a> {
    Text(&'a str),
    Command(&'a str),
}

/// The pieces of `raw` in order: the text before each `[%…]` group, the
/// group's inside, and the text after the last one (an unclosed `[%` and
/// all after it are text).
fn command_pieces(raw: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = Some(raw);
    let mut inner: Option<&str> = None;
    std::iter::from_fn(move || {
        if let Some(c) = inner.take() {
            return Some(Piece::Command(c));
        }
        let r = rest?;
        match command_group(r.as_bytes()) {
            Some((start, len)) => {
                inner = Some(&r[start + 2..start + len]);
                rest = Some(&r[start + len + 1..]);
                Some(Piece::Text(&r[..start]))
            }
            None => {
                rest = None;
                Some(Piece::Text(r))
            }
        }
    })
}

/// Where the first `[%` of `b` starts, and how far from there its group's
/// `]` is: `r.find("[%")`, then the first `]` after it; `None` when there is
/// no `[%`, or no `]` after the first. A byte at a time: the texts around
/// and inside a group are a few bytes each (`{ [%eval 0.27] [%clk 0:58:34]
/// }`), too short for a search's set-up to pay.
#[inline]
fn command_group(b: &[u8]) -> Option<(usize, usize)> {
    let start = command_start(b)?;
    let len = b[start + 2..].iter().position(|&c| c == b']')?;
    Some((start, len + 2))
}

/// Where the first `[%` of `b` starts, a byte at a time.
#[inline]
fn command_start(b: &[u8]) -> Option<usize> {
    b.windows(2).position(|w| w == b"[%")
}

/// Type one `[%cmd args]` group's inside.
fn type_command(inner: &str, ann: &mut Annotations) {
    let (name, args) = match split_white(inner) {
        Some((n, a)) => (n, trim(a)),
        None => (inner, ""),
    };
    match name {
        "clk" => match parse_clock(args) {
            Some(ms) => ann.clk = Some(ms),
            None => ann
                .problems
                .push(format!("[%clk {args}]: expected H:MM:SS[.f]")),
        },
        "emt" => match parse_clock(args) {
            Some(ms) => ann.emt = Some(ms),
            None => ann
                .problems
                .push(format!("[%emt {args}]: expected H:MM:SS[.f]")),
        },
        "eval" => {
            let (score, depth) = match args.split_once(',') {
                Some((s, d)) => (s, Some(d.trim())),
                None => (args, None),
            };
            match (Score::parse_pawns(score), depth.map(|d| d.parse::<u32>())) {
                (Ok(score), None) => ann.eval = Some(EvalCommand { score, depth: None }),
                (Ok(score), Some(Ok(d))) => {
                    ann.eval = Some(EvalCommand {
                        score,
                        depth: Some(d),
                    })
                }
                (Err(e), _) => ann.problems.push(format!("[%eval {args}]: {e}")),
                (_, Some(Err(_))) => ann
                    .problems
                    .push(format!("[%eval {args}]: expected a depth after the comma")),
            }
        }
        _ => ann.commands.push((name.to_string(), args.to_string())),
    }
}

/// The largest time a record may give, in ms (about 31.7 years): larger
/// values are malformed, so that no clock arithmetic can overflow.
pub const MAX_TIME_MS: i64 = 1_000_000_000_000;

/// `1:59:58`, `0:00:05.3`, `59:58`, `12.5` → milliseconds (at most
/// [`MAX_TIME_MS`]).
pub fn parse_clock(s: &str) -> Option<i64> {
    fast_clock(s.as_bytes()).or_else(|| parse_clock_general(s))
}

/// `90.906`, `0:58:34`, `1:00:00.25`: one to three groups of 1 to 12
/// digits joined by `:`, the last with a point and 1 to 3 digits or none,
/// as [`parse_clock_general`] reads them, in one loop (no value of that
/// form can overflow); `None` for any other form, which [`parse_clock`]
/// then gives to the general one.
#[inline]
fn fast_clock(b: &[u8]) -> Option<i64> {
    let mut groups = [0i64; 2];
    let mut n = 0;
    let mut cur: i64 = 0;
    let mut digits = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' if digits < 12 => {
                cur = cur * 10 + i64::from(c - b'0');
                digits += 1;
            }
            b':' if digits > 0 && n < 2 => {
                groups[n] = cur;
                n += 1;
                cur = 0;
                digits = 0;
            }
            b'.' => break,
            _ => return None,
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    let mut ms = cur * 1000;
    if i < b.len() {
        let frac = &b[i + 1..];
        if frac.is_empty() || frac.len() > 3 || !frac.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let f = frac.iter().fold(0, |f, &c| f * 10 + i64::from(c - b'0'));
        ms += f * [100, 10, 1][frac.len() - 1];
    }
    let mut mult = 60_000;
    for g in groups[..n].iter().rev() {
        ms += g * mult;
        mult *= 60;
    }
    (ms <= MAX_TIME_MS).then_some(ms)
}

/// [`parse_clock`] for every form: white space around it, a sign, and
/// what [`fast_clock`] does not read.
fn parse_clock_general(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    // at most `H:MM:SS`: the seconds, then up to two more parts from the right
    let mut parts = s.rsplit(':');
    let secs = parts.next()?;
    let (whole, frac) = match secs.split_once('.') {
        Some((w, f)) => (w, f),
        None => (secs, ""),
    };
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 3
    {
        return None;
    }
    let mut ms: i64 = whole.parse::<i64>().ok()?.checked_mul(1000)?;
    if !frac.is_empty() {
        let f: i64 = frac.parse().ok()?;
        ms = ms.checked_add(f * 10i64.pow(3 - frac.len() as u32))?;
    }
    let mut mult = 60_000i64;
    for (i, p) in parts.enumerate() {
        if i == 2 || p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        ms = ms.checked_add(p.parse::<i64>().ok()?.checked_mul(mult)?)?;
        mult = mult.checked_mul(60)?;
    }
    if ms > MAX_TIME_MS {
        return None;
    }
    Some(if neg { -ms } else { ms })
}

/// `s.split_once(c)` for an ASCII `c`, found by a plain loop: the comments'
/// short pieces end sooner than `str`'s searcher is set up.
#[inline]
pub(super) fn split_byte(s: &str, c: u8) -> Option<(&str, &str)> {
    debug_assert!(c.is_ascii());
    let i = s.bytes().position(|b| b == c)?;
    // an ASCII byte is a character of its own: both sides are `str`s
    Some((&s[..i], &s[i + 1..]))
}

/// A byte that is white space to `char::is_whitespace` on its own: the
/// ASCII white space `str::trim` and `str::split_whitespace` stop at (it
/// has the vertical tab, which `u8::is_ascii_whitespace` has not).
#[inline]
pub(super) fn ascii_white(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `s.split_once(char::is_whitespace)`, a byte at a time while the text is
/// ASCII (the first byte that is not falls back to it).
fn split_white(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    for (k, &c) in b.iter().enumerate() {
        if c >= 0x80 {
            return s.split_once(char::is_whitespace);
        }
        if ascii_white(c) {
            // an ASCII byte: character boundaries on both sides
            return Some((&s[..k], &s[k + 1..]));
        }
    }
    None
}

/// `str::trim`, with a fast path for the ASCII white space of machine-written
/// comments (Unicode white space at either end falls back to `str::trim`).
#[inline]
pub(super) fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    let mut j = b.len();
    while i < j && ascii_white(b[i]) {
        i += 1;
    }
    while j > i && ascii_white(b[j - 1]) {
        j -= 1;
    }
    if i < j && (b[i] >= 0x80 || b[j - 1] >= 0x80) {
        return s.trim();
    }
    // i and j stand next to ASCII bytes: character boundaries
    &s[i..j]
}

/// The comma-separated items of a comment, each trimmed.
#[inline]
pub(super) fn items(s: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let mut commas = memchr::memchr_iter(b',', s.as_bytes()).chain(std::iter::once(s.len()));
    std::iter::from_fn(move || {
        let end = commas.next()?;
        let item = &s[start..end];
        start = end + 1;
        Some(trim(item))
    })
}

/// A `key=value` item split at its first `=`, both sides trimmed.
#[inline]
pub(super) fn key_value(item: &str) -> Option<(&str, &str)> {
    // keys are short: a loop finds the `=` sooner than memchr's set-up
    let (key, value) = split_byte(item, b'=')?;
    Some((trim(key), trim(value)))
}

/// Whether a (trimmed) comment is TCEC's: its first item is `book` or a
/// TCEC `key=value`.
fn looks_like_tcec(s: &str) -> bool {
    match leading_key(s) {
        Some(code) => is_tcec_key(code),
        None => first_item_is_tcec(s),
    }
}

/// The [`key_code`] of `s`'s first item's key where `s` starts with it
/// (letters and digits right before an `=`, nearly every comment): the
/// key that the item's first `=` and its trimmed left side give, found
/// without cutting the item out. `None` for any other start.
fn leading_key(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    let k = b.iter().position(|c| !KEY_BYTE[usize::from(*c)])?;
    (k > 0 && b[k] == b'=').then(|| key_code(&b[..k]))
}

/// [`looks_like_tcec`] for any comment: its first item, trimmed, is `book`
/// or cut at its first `=` into a TCEC key.
fn first_item_is_tcec(s: &str) -> bool {
    // An ASCII byte that is neither a letter nor white space (as `trim`
    // tells it: the vertical tab too) starts the first item once trimmed
    // (or makes it empty, or its key empty): it is not `book`, and no TCEC
    // key starts with it. Other GUIs' comments (`+0.27/30 90.906s`) are
    // told apart here without cutting an item.
    if let Some(&b) = s.as_bytes().first()
        && b.is_ascii()
        && !b.is_ascii_alphabetic()
        && !char::from(b).is_whitespace()
    {
        return false;
    }
    let first = items(s).next().unwrap_or("");
    if first == "book" {
        return true;
    }
    match key_value(first) {
        Some((k, _)) => is_tcec_key(key_code(k.as_bytes())),
        None => false,
    }
}

fn parse_tcec(
    s: &str,
    m: &mut TcecMove,
    problems: &mut Vec<String>,
    text: &mut String,
    src: Option<&CommentSource<'_>>,
) {
    let mut unknown_text: Vec<&str> = Vec::new();
    let b = s.as_bytes();
    let len = b.len();
    // One pass over the items (`,`-separated, as `str::split` cuts them).
    // The fast path reads ` key=value` with an ASCII key right before the
    // `=`: the key and the start of the value are known without a second
    // look, and only the value's end is searched (memchr for the long PV, a
    // loop for the short rest). Anything else takes the general path: the
    // item found by memchr, trimmed (Unicode white space too) and cut at
    // its first `=`, as before.
    let mut start = 0;
    loop {
        let mut k = start;
        while k < len && b[k] == b' ' {
            k += 1;
        }
        let key_start = k;
        // the key's bytes gathered into its `key_code` as they are read
        let mut gathered: u32 = 0;
        while k < len && KEY_BYTE[usize::from(b[k])] {
            if k - key_start < 3 {
                gathered |= u32::from(b[k]) << (8 * (k - key_start));
            }
            k += 1;
        }
        let end;
        if k > key_start && k < len && b[k] == b'=' {
            let key = &s[key_start..k];
            let code = match k - key_start {
                n @ 1..=3 => (n as u32) << 24 | gathered,
                _ => 0,
            };
            debug_assert_eq!(code, key_code(key.as_bytes()));
            let v = k + 1;
            end = if code == key::PV {
                // as tcec_item types it, without the call
                let end = memchr::memchr(b',', &b[v..]).map_or(len, |p| v + p);
                m.pv = Some(PvText::new(src, trim(&s[v..end])));
                end
            } else if let Some(end) = tcec_number(m, code, b, v) {
                end
            } else {
                let end = comma_near(b, v);
                let value = trim(&s[v..end]);
                // the ponder move and the material balance as tcec_item
                // types them, without the call; a malformed balance goes
                // there to be reported
                if code == key::PD {
                    m.pd = Some(value.into());
                } else {
                    match (code == key::MB).then(|| Material::parse(value)) {
                        Some(Ok(mb)) => m.mb = Some(mb),
                        _ => tcec_item(m, problems, code, key, value, src),
                    }
                }
                end
            };
        } else {
            end = memchr::memchr(b',', &b[start..]).map_or(len, |p| start + p);
            let item = trim(&s[start..end]);
            if item == "book" {
                m.book = true;
            } else if !item.is_empty() {
                match key_value(item) {
                    Some((key, value)) => {
                        tcec_item(m, problems, key_code(key.as_bytes()), key, value, src)
                    }
                    None => unknown_text.push(item),
                }
            }
        }
        if end >= len {
            break;
        }
        start = end + 1;
    }
    if !unknown_text.is_empty() {
        *text = unknown_text.join(", ");
    }
}

/// Whether a byte is an ASCII letter or digit (`u8::is_ascii_alphanumeric`),
/// as one load: the key loop of [`parse_tcec`] asks it of every byte of
/// every key.
static KEY_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).is_ascii_alphanumeric();
        i += 1;
    }
    t
};

/// A number right after a key's `=` and right before the next `,` (or the
/// end), read in the one look at its bytes: for the integer keys a `-` and
/// at most 18 digits that fit the field, for `h` and `ph` what [`fast_f64`]
/// reads, for `wv` what [`fast_pawns`] reads. Sets the field and returns
/// where the value ends; `None` (nothing set) for any other form, which
/// [`tcec_item`] then types and reports as before.
#[inline]
fn tcec_number(m: &mut TcecMove, code: u32, b: &[u8], v: usize) -> Option<usize> {
    use self::key::*;
    let len = b.len();
    match code {
        D | SD | MT | TL | S | N | TB | R50 | R50_LOWER | RD | RR => {
            let mut e = v;
            let neg = e < len && b[e] == b'-';
            if neg {
                e += 1;
            }
            let digits = e;
            let mut x: i64 = 0;
            // at most 18 digits (no overflow), their bound found once
            // rather than asked at each digit
            for &c in &b[digits..len.min(digits + 18)] {
                let d = c.wrapping_sub(b'0');
                if d > 9 {
                    break;
                }
                x = x * 10 + i64::from(d);
                e += 1;
            }
            if e == digits || (e < len && b[e] != b',') {
                return None;
            }
            if neg {
                x = -x;
            }
            match code {
                D => m.d = Some(u32::try_from(x).ok().filter(|_| !neg)?),
                SD => m.sd = Some(u32::try_from(x).ok().filter(|_| !neg)?),
                MT => m.mt = Some(x).filter(|x| x.unsigned_abs() <= MAX_TIME_MS as u64),
                TL => m.tl = Some(x).filter(|x| x.unsigned_abs() <= MAX_TIME_MS as u64),
                S => m.s = Some(u64::try_from(x).ok().filter(|_| !neg)?),
                N => m.n = Some(u64::try_from(x).ok().filter(|_| !neg)?),
                TB => m.tb = Some(Some(u64::try_from(x).ok().filter(|_| !neg)?)),
                R50 | R50_LOWER => m.r50 = Some(i32::try_from(x).ok()?),
                RD => m.rd = Some(i32::try_from(x).ok()?),
                _ => m.rr = Some(i32::try_from(x).ok()?),
            }
            if code == MT && m.mt.is_none() || code == TL && m.tl.is_none() {
                return None;
            }
            Some(e)
        }
        H | PH | WV => {
            let mut e = v;
            while e < len && matches!(b[e], b'0'..=b'9' | b'.' | b'-' | b'+') {
                e += 1;
            }
            if e < len && b[e] != b',' {
                return None;
            }
            let text = &b[v..e];
            match code {
                H => m.h = Some(fast_f64(text)?),
                PH => m.ph = Some(fast_f64(text)?),
                _ => m.wv = Some(fast_pawns(text)?),
            }
            Some(e)
        }
        _ => None,
    }
}

/// The first `,` in `b` from `from` on (or `b.len()`), for the short values:
/// eight bytes at a time (the classic zero-byte test on the word xor
/// `,,,,,,,,`, whose lowest flagged byte is exact), bytes one by one for
/// the last few.
#[inline]
fn comma_near(b: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut e = from;
    while e + 8 <= b.len() {
        let word = u64::from_le_bytes(b[e..e + 8].try_into().expect("eight bytes"));
        let x = word ^ (ONES * u64::from(b','));
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return e + (found.trailing_zeros() / 8) as usize;
        }
        e += 8;
    }
    while e < b.len() && b[e] != b',' {
        e += 1;
    }
    e
}

/// A key of up to three bytes as one number (its length in the top byte),
/// for a dispatch without string compares; 0 for a longer key.
#[inline]
const fn key_code(k: &[u8]) -> u32 {
    match k.len() {
        1 => 1 << 24 | k[0] as u32,
        2 => 2 << 24 | k[0] as u32 | (k[1] as u32) << 8,
        3 => 3 << 24 | k[0] as u32 | (k[1] as u32) << 8 | (k[2] as u32) << 16,
        _ => 0,
    }
}

/// The TCEC keys as [`key_code`]s.
mod key {
    use super::key_code;
    pub const D: u32 = key_code(b"d");
    pub const SD: u32 = key_code(b"sd");
    pub const PD: u32 = key_code(b"pd");
    pub const MT: u32 = key_code(b"mt");
    pub const TL: u32 = key_code(b"tl");
    pub const S: u32 = key_code(b"s");
    pub const N: u32 = key_code(b"n");
    pub const PV: u32 = key_code(b"pv");
    pub const TB: u32 = key_code(b"tb");
    pub const H: u32 = key_code(b"h");
    pub const PH: u32 = key_code(b"ph");
    pub const WV: u32 = key_code(b"wv");
    pub const R50: u32 = key_code(b"R50");
    pub const R50_LOWER: u32 = key_code(b"r50");
    pub const RD: u32 = key_code(b"Rd");
    pub const RR: u32 = key_code(b"Rr");
    pub const MB: u32 = key_code(b"mb");
}

/// Whether `code` is one of the TCEC keys (a first item with one marks a
/// TCEC comment).
fn is_tcec_key(code: u32) -> bool {
    const KEYS: [u32; 16] = [
        key_code(b"d"),
        key_code(b"sd"),
        key_code(b"pd"),
        key_code(b"mt"),
        key_code(b"tl"),
        key_code(b"s"),
        key_code(b"n"),
        key_code(b"pv"),
        key_code(b"tb"),
        key_code(b"h"),
        key_code(b"ph"),
        key_code(b"wv"),
        key_code(b"R50"),
        key_code(b"Rd"),
        key_code(b"Rr"),
        key_code(b"mb"),
    ];
    code != 0 && KEYS.contains(&code)
}

/// Type one `key=value` item of a TCEC comment (`code` is `key_code(key)`).
#[inline]
fn tcec_item(
    m: &mut TcecMove,
    problems: &mut Vec<String>,
    code: u32,
    key: &str,
    value: &str,
    src: Option<&CommentSource<'_>>,
) {
    use self::key::*;
    let mut bad = |what: &str| problems.push(format!("{key}={value}: expected {what}"));
    match code {
        D => m.d = int(value).map_err(|_| bad("a depth (integer)")).ok(),
        SD => {
            m.sd = int(value)
                .map_err(|_| bad("a selective depth (integer)"))
                .ok()
        }
        PD => m.pd = Some(value.into()),
        // ms; in early seasons H:MM:SS (`00:02:46`)
        MT => {
            m.mt = int::<i64>(value)
                .ok()
                .or_else(|| super::forms::parse_tcec_time(value))
                .filter(|v| v.unsigned_abs() <= MAX_TIME_MS as u64)
                .ok_or_else(|| bad("milliseconds (an integer of at most 10^12) or H:MM:SS"))
                .ok()
        }
        TL => {
            m.tl = int::<i64>(value)
                .ok()
                .or_else(|| super::forms::parse_tcec_time(value))
                .filter(|v| v.unsigned_abs() <= MAX_TIME_MS as u64)
                .ok_or_else(|| bad("milliseconds (an integer of at most 10^12) or H:MM:SS"))
                .ok()
        }
        // nodes per second; in early seasons `14000 kN/s`
        S => {
            m.s = int(value)
                .ok()
                .or_else(|| super::forms::parse_speed(value))
                .ok_or_else(|| bad("nodes per second (an integer, or N kN/s)"))
                .ok()
        }
        N => m.n = int(value).map_err(|_| bad("a node count (integer)")).ok(),
        PV => m.pv = Some(PvText::new(src, value)),
        TB => {
            m.tb = if value == "null" {
                Some(None)
            } else {
                int(value)
                    .map(Some)
                    .map_err(|_| bad("a tablebase hit count or null"))
                    .ok()
            }
        }
        H => m.h = parse_f64(value).map_err(|_| bad("a percentage")).ok(),
        PH => m.ph = parse_f64(value).map_err(|_| bad("a percentage")).ok(),
        WV => match Score::parse_pawns(value) {
            Ok(sc) => m.wv = Some(sc),
            Err(e) => problems.push(format!("wv={value}: {e}")),
        },
        // Banksia's TCEC-style comments write it `r50`
        R50 | R50_LOWER => m.r50 = int(value).map_err(|_| bad("an integer")).ok(),
        RD => m.rd = int(value).map_err(|_| bad("an integer")).ok(),
        RR => m.rr = int(value).map_err(|_| bad("an integer")).ok(),
        MB => match Material::parse(value) {
            Ok(mb) => m.mb = Some(mb),
            Err(e) => problems.push(format!("mb={value}: {e}")),
        },
        _ => m.extra.push((key.to_string(), value.to_string())),
    }
}

fn parse_f64(s: &str) -> Result<f64, ()> {
    if let Some(v) = fast_f64(s.as_bytes()) {
        return Ok(v);
    }
    let v: f64 = s.parse().map_err(|_| ())?;
    if v.is_finite() { Ok(v) } else { Err(()) }
}

/// `12`, `0.5`, `99.25` (digits with at most one point, at most 15 digits
/// in all) as `str::parse::<f64>` reads them, without its general
/// algorithm: the digits as an integer are exact in an f64, so are the
/// powers of ten up to 10^15, and IEEE division rounds correctly, so
/// `m / 10^k` is the nearest f64 to the decimal. `None` for any other
/// form (the caller then uses `str::parse`).
fn fast_f64(b: &[u8]) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    if b.is_empty() || b.len() > 16 {
        return None;
    }
    let mut m: u64 = 0;
    let mut digits = 0;
    let mut point: Option<usize> = None;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(c - b'0');
                digits += 1;
            }
            b'.' if point.is_none() => point = Some(i),
            _ => return None,
        }
    }
    if digits == 0 || digits > 15 {
        return None;
    }
    let frac = point.map_or(0, |p| b.len() - p - 1);
    Some(m as f64 / POW10[frac])
}

/// An integer as `str::parse` reads it: digits (a sign where the type has
/// one) go through a loop without `str::parse`'s generality; any other form,
/// and any value that may not fit, through `str::parse` itself, so the
/// result and the error are always its own.
pub(super) fn int<T: TryFrom<i64> + std::str::FromStr>(s: &str) -> Result<T, T::Err> {
    let signed = T::try_from(-1).is_ok();
    let b = s.as_bytes();
    let (neg, digits) = match b.first() {
        Some(b'-') if signed => (true, &b[1..]),
        _ => (false, b),
    };
    // up to 18 digits cannot overflow an i64
    if !digits.is_empty() && digits.len() <= 18 && digits.iter().all(u8::is_ascii_digit) {
        let mut v: i64 = 0;
        for &c in digits {
            v = v * 10 + i64::from(c - b'0');
        }
        if let Ok(x) = T::try_from(if neg { -v } else { v }) {
            return Ok(x);
        }
    }
    s.parse()
}

fn parse_engine_options(s: &str) -> EngineOptions {
    let mut opts = EngineOptions::default();
    let (white, black) = match s.find("BlackEngineOptions:") {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let side = |part: &str, prefix: &str| -> Vec<EngineOption> {
        let body = part.trim().strip_prefix(prefix).unwrap_or(part).trim();
        let body = body.trim_end_matches(',').trim();
        // at most one item for each `;`, and one after the last: the list
        // made that large at once, not grown
        let pieces = memchr::memchr_iter(b';', body.as_bytes()).count()
            + usize::from(!body.is_empty() && !body.ends_with(';'));
        let mut items = Vec::with_capacity(pieces);
        items.extend(
            body.split(';')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(|item| match item.split_once('=') {
                    Some((k, v)) => EngineOption {
                        name: k.trim().into(),
                        value: OptionValue::parse(v),
                        raw: v.trim().into(),
                    },
                    None => EngineOption {
                        name: item.into(),
                        value: OptionValue::Text(Default::default()),
                        raw: Default::default(),
                    },
                }),
        );
        items
    };
    opts.white = side(white, "WhiteEngineOptions:");
    opts.black = side(black, "BlackEngineOptions:");
    opts
}

/// `+0.35/24 1.2s`, `-M5/30 0.05s, Black mates`, `book`.
fn parse_cutechess(s: &str) -> Option<CutechessMove> {
    // the note is copied only once the text is known to be of this form
    let (main, note) = match split_byte(s, b',') {
        Some((m, n)) => (trim(m), Some(trim(n))),
        None => (trim(s), None),
    };
    if main == "book" {
        return Some(CutechessMove {
            book: true,
            score: None,
            depth: None,
            time_ms: None,
            note: note.map(str::to_string),
        });
    }
    let (score_depth, time) = split_byte(main, b' ')?;
    let (score, depth) = super::forms::score_depth(score_depth)?;
    let secs = trim(time).strip_suffix('s')?;
    let time_ms = parse_clock(secs)?;
    Some(CutechessMove {
        book: false,
        score: Some(score),
        depth: Some(depth),
        time_ms: Some(time_ms),
        note: note.map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut for a comment that starts with its key answers as the
    /// whole first item does, wherever it answers.
    #[test]
    fn a_leading_key_is_the_first_items_key() {
        let cases = [
            "d=30, sd=44",
            "R50=50, Rd=-11",
            "wv=0.27",
            "mb=+0+0+0+0+0,",
            "x=1, d=3",
            "depth=3, d=30",
            "d =30",
            "d= 30",
            "book, mb=+0+0+0+0+0,",
            "book",
            "=3",
            "d",
            "d,=3",
            "Rr=-11",
            "pv=e4 e5, d=3",
            "1.2s",
            "+0.35/24 1.2s",
            "é=3",
        ];
        let mut answered = 0;
        for s in cases {
            if let Some(code) = leading_key(s) {
                answered += 1;
                let first = items(s).next().unwrap_or("");
                let (key, _) = key_value(first).expect("an item with `=`");
                assert_eq!(code, key_code(key.as_bytes()), "{s}");
                assert_eq!(is_tcec_key(code), first_item_is_tcec(s), "{s}");
            }
        }
        assert_eq!(answered, 9);
    }

    /// The first item's test without cutting it, where the first byte is
    /// an ASCII byte neither a letter nor white space, answers as cutting
    /// it does: for every such first byte, and every other start too
    /// (letters, white space, a Unicode space, a comma, an `=`), before
    /// the texts of each TCEC key and of the other GUIs' comments.
    #[test]
    fn the_first_items_shortcut_is_the_item() {
        let general = |s: &str| {
            let first = items(s).next().unwrap_or("");
            first == "book"
                || key_value(first).is_some_and(|(k, _)| is_tcec_key(key_code(k.as_bytes())))
        };
        let mut starts: Vec<String> = (0u8..128).map(|b| char::from(b).to_string()).collect();
        starts.extend(["", "\u{a0}", "\u{3000}", "é", "  ", " ,"].map(String::from));
        let tails = [
            "",
            "d=30",
            "book",
            "book, d=3",
            "=3",
            ",d=3",
            "+0.27/30 90.906s",
            "d",
            "sd=4, x",
            "ook",
            "R50=1",
            "[%clk 0:01:00]",
        ];
        let mut n = 0;
        for start in &starts {
            for tail in tails {
                let s = format!("{start}{tail}");
                assert_eq!(first_item_is_tcec(&s), general(&s), "{s:?}");
                n += 1;
            }
        }
        assert!(n > 1500, "{n}");
    }

    /// A comment's look for `[%` answers as memchr's does, at every length
    /// on both sides of the short comments' loop and with the `[` and the
    /// `%` at every place (and apart, and the `[` last).
    #[test]
    fn the_short_command_look_is_memchrs() {
        let reference =
            |b: &[u8]| memchr::memchr_iter(b'[', b).any(|i| b.get(i + 1) == Some(&b'%'));
        for len in 0..80 {
            let base = vec![b'x'; len];
            let mut cases = vec![base.clone()];
            for at in 0..len {
                let mut one = base.clone();
                one[at] = b'[';
                cases.push(one.clone());
                if at + 1 < len {
                    one[at + 1] = b'%';
                    cases.push(one.clone());
                    one[at] = b'%';
                    one[at + 1] = b'[';
                    cases.push(one);
                }
            }
            for c in cases {
                assert_eq!(
                    has_command(&c),
                    reference(&c),
                    "{:?}",
                    String::from_utf8_lossy(&c)
                );
            }
        }
    }

    /// Texts of numbers and near-numbers: every length of digits up to
    /// 21, with and without a sign, a point at each place, and junk.
    fn number_texts() -> Vec<String> {
        let mut out: Vec<String> = [
            "",
            "-",
            "+",
            ".",
            "-.",
            "0",
            "-0",
            "+0",
            "00",
            "1.",
            ".5",
            "1.2.3",
            "1e5",
            "inf",
            "NaN",
            " 1",
            "1 ",
            "1_0",
            "٣",
            "4294967295",
            "4294967296",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-2147483649",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "999999999999999",
            "9999999999999999",
            "0.1",
            "0.3",
            "99.9",
            "100.0",
            "12.345678901234",
            "1234567890.12345",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let digits = "98765432109876543210987";
        for n in 1..=21 {
            let d = &digits[..n];
            for sign in ["", "-", "+"] {
                out.push(format!("{sign}{d}"));
                for p in 0..=n {
                    out.push(format!("{sign}{}.{}", &d[..p], &d[p..]));
                }
            }
        }
        out
    }

    #[test]
    fn the_fast_integers_are_str_parse() {
        fn same<T: TryFrom<i64> + std::str::FromStr + PartialEq + std::fmt::Debug>(s: &str)
        where
            <T as std::str::FromStr>::Err: PartialEq + std::fmt::Debug,
        {
            assert_eq!(int::<T>(s), s.parse::<T>(), "{s:?}");
        }
        for s in number_texts() {
            same::<u32>(&s);
            same::<i32>(&s);
            same::<u64>(&s);
            same::<i64>(&s);
        }
    }

    #[test]
    fn the_fast_decimals_are_str_parse() {
        let mut fast = 0;
        for s in number_texts() {
            let std = s.parse::<f64>().ok().filter(|v| v.is_finite());
            let ours = parse_f64(&s).ok();
            assert_eq!(ours.map(f64::to_bits), std.map(f64::to_bits), "{s:?}");
            fast += usize::from(fast_f64(s.as_bytes()).is_some());
        }
        // the fast path is taken, not only the fallback
        assert!(fast > 100, "{fast}");
    }

    /// `command_group` finds what `memchr` found before it: the first `[%`,
    /// then the first `]` after it, on texts of brackets, percent signs and
    /// letters in every order.
    #[test]
    fn a_command_group_is_found_as_memchr_found_it() {
        let memchr_found = |b: &[u8]| {
            memchr::memchr_iter(b'[', b)
                .find(|&i| b.get(i + 1) == Some(&b'%'))
                .and_then(|start| memchr::memchr(b']', &b[start..]).map(|len| (start, len)))
        };
        let mut found = 0;
        for text in generated("[%][%] c0", 16, 100_000) {
            let text = text.as_bytes();
            assert_eq!(command_group(text), memchr_found(text), "{text:?}");
            found += usize::from(command_group(text).is_some());
        }
        assert!(found > 10_000, "{found}");
    }

    /// `split_white` is `split_once(char::is_whitespace)`, and `trim` is
    /// `str::trim`, on texts of ASCII and Unicode white space, letters and
    /// bytes beyond ASCII, in every place.
    #[test]
    fn the_white_space_splits_as_str_does() {
        let mut split = 0;
        for text in generated(" \t\n\r\x0b\x0c\u{a0}\u{2003}\u{85}clk0:1é€x,", 12, 100_000) {
            assert_eq!(
                split_white(&text),
                text.split_once(char::is_whitespace),
                "{text:?}"
            );
            assert_eq!(trim(&text), text.trim(), "{text:?}");
            split += usize::from(split_white(&text).is_some());
        }
        assert!(split > 10_000, "{split}");
    }

    /// `read_pawns` is `parse_pawns` without its error, on numbers, near
    /// numbers, mates and words.
    #[test]
    fn read_pawns_is_parse_pawns_without_the_error() {
        let mut texts = number_texts();
        for t in [
            "Nice", "-Nice", "+", "-", "", " ", "M", "#", "M-", "-M+3", "#x", ".", "-.", "+.5",
            "..", " 0.5 ", "\t-M3", "é", "-é1", "1/2", "N3", "+-1", "--1", "inf", "NaN",
        ] {
            texts.push(t.to_string());
        }
        let mut scores = 0;
        for t in &texts {
            assert_eq!(Score::read_pawns(t), Score::parse_pawns(t).ok(), "{t:?}");
            scores += usize::from(Score::read_pawns(t).is_some());
        }
        assert!(
            scores > 20 && scores < texts.len(),
            "{scores} of {}",
            texts.len()
        );
    }

    #[test]
    fn the_fast_pawns_are_parse_pawns() {
        let mut fast = 0;
        for s in number_texts() {
            if let Some(sc) = fast_pawns(s.as_bytes()) {
                assert_eq!(Ok(sc), Score::parse_pawns_general(&s), "{s:?}");
                fast += 1;
            }
        }
        assert!(fast > 20, "{fast}");
        for s in ["0.27", "-0.50", "+3", "12.5", "-0.00", "1234567.99"] {
            assert_eq!(
                fast_pawns(s.as_bytes()).map(Ok),
                Some(Score::parse_pawns_general(s)),
                "{s:?}"
            );
        }
        for s in [
            "M5", "-M5", "#3", ".5", "5.", "0.275", "12345678", "", "-", "1e5",
        ] {
            assert_eq!(fast_pawns(s.as_bytes()), None, "{s:?}");
        }
    }

    #[test]
    fn the_fast_material_is_str_parse() {
        for s in [
            "+0+0+0+0+0",
            "+0-1+0+0+0",
            "-8+2-1+0+1",
            "+123456789+0+0+0+0",
            "+1234567890+0+0+0+0",
            "+0000000001+0+0+0+0",
            "+9999999999+0+0+0+0",
            "+0+0+0+0",
            "+0+0+0+0+0+0",
            "+0+0++0+0",
            "0+0+0+0+0",
            "+0+0+0+0+",
            "+0+0+0+0++",
            "+0+0+0+0-9",
            "+0+0+0+0+a",
            "*0+0+0+0+0",
            "+0+0+0+00+",
            "+0+0+0+0+\u{e9}",
        ] {
            let slow = |s: &str| -> Option<[i32; 5]> {
                let mut v = Vec::new();
                let mut rest = s;
                while !rest.is_empty() {
                    let neg = match rest.as_bytes()[0] {
                        b'+' => false,
                        b'-' => true,
                        _ => return None,
                    };
                    let d = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
                    let n: i32 = rest[1..1 + d].parse().ok()?;
                    v.push(if neg { -n } else { n });
                    rest = &rest[1 + d..];
                }
                v.try_into().ok()
            };
            let ours = Material::parse(s)
                .ok()
                .map(|m| [m.pawns, m.knights, m.bishops, m.rooks, m.queens]);
            assert_eq!(ours, slow(s), "{s:?}");
        }
    }

    /// The TCEC comment as the general path types it: `str::split`,
    /// `str::trim`, the item cut at its first `=`, every value through
    /// [`tcec_item`].
    fn reference_tcec(s: &str) -> (TcecMove, Vec<String>, String) {
        let mut m = TcecMove::default();
        let mut problems = Vec::new();
        let mut unknown = Vec::new();
        for item in s.split(',').map(str::trim) {
            if item.is_empty() {
                continue;
            }
            if item == "book" {
                m.book = true;
                continue;
            }
            match item.split_once('=') {
                Some((k, v)) => {
                    let (k, v) = (k.trim(), v.trim());
                    tcec_item(&mut m, &mut problems, key_code(k.as_bytes()), k, v, None)
                }
                None => unknown.push(item),
            }
        }
        (m, problems, unknown.join(", "))
    }

    #[test]
    fn the_one_pass_tcec_is_the_general_path() {
        let mut values = number_texts();
        values.extend(
            [
                "null",
                "00:02:46",
                "1:2",
                "14000 kN/s",
                "+0-1+0+0+0",
                "+0+0+0+0+0",
                "M5",
                "-M5",
                "#3",
                "30 ",
                " 30",
                "\u{a0}30",
                "30\u{a0}",
                "1000000000000",
                "1000000000001",
                "-1000000000001",
                "Qxd1",
                "e4 e5 Nf3",
                "a=b",
                "=",
            ]
            .map(String::from),
        );
        let keys = [
            "d", "sd", "pd", "mt", "tl", "s", "n", "pv", "tb", "h", "ph", "wv", "R50", "r50", "Rd",
            "Rr", "mb", "zz", "book", "dd", "",
        ];
        let mut n = 0;
        for key in keys {
            for value in &values {
                for text in [
                    format!("{key}={value}"),
                    format!("d=30, {key}={value}, wv=0.27,"),
                    format!("book, {key}={value} ,"),
                    format!("mt=5,  {key}= {value},x"),
                    format!("mt=5,\t{key} ={value}"),
                ] {
                    let mut m = TcecMove::default();
                    let mut problems = Vec::new();
                    let mut text_left = String::new();
                    parse_tcec(&text, &mut m, &mut problems, &mut text_left, None);
                    let want = reference_tcec(&text);
                    assert_eq!((m, problems, text_left), want, "{text:?}");
                    n += 1;
                }
            }
        }
        assert!(n > 10_000, "{n}");
    }

    #[test]
    fn the_fast_trim_is_str_trim() {
        let cases = [
            "",
            " ",
            "d=30",
            "  d=30 ",
            "\t\r\nwv=0.27\x0b\x0c",
            "\u{a0}pv=e4\u{a0}",
            "\u{85}x",
            "x\u{2003}",
            "\u{3000}\u{3000}",
            "\x1cR50=50\x1f",
            " é ",
            "é",
            " \u{a0} ",
        ];
        for c in cases {
            assert_eq!(trim(c), c.trim(), "{c:?}");
        }
        let text = b"d=1, mt=90906, tl=3514094,,x,, wv=0.27 ,R50=50, mb=+0+0+0+0+0,,";
        for from in 0..=text.len() {
            let want = text[from..]
                .iter()
                .position(|&c| c == b',')
                .map_or(text.len(), |p| from + p);
            assert_eq!(comma_near(text, from), want, "{from}");
        }
        let split: Vec<&str> = items(" d=1 ,, pv=e4 e5 ,\u{a0}book").collect();
        assert_eq!(
            split,
            [" d=1 ,, pv=e4 e5 ,\u{a0}book".split(',').map(str::trim)]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
        );
        assert_eq!(key_value(" R50 = 49 "), Some(("R50", "49")));
        assert_eq!(key_value("a=b=c"), Some(("a", "b=c")));
        assert_eq!(key_value("book"), None);
    }

    #[test]
    fn tcec_engine_move_every_key() {
        let a = parse_comment(
            "d=30, sd=44, pd=Qxd1, mt=90906, tl=3514094, s=41641210, n=3784769610, pv=dxc5 Qxd1 Rxd1, tb=null, h=26.3, ph=100.0, wv=-M5, R50=49, Rd=-11, Rr=-1000, mb=+0-1+0+0+0,",
        );
        let t = a.tcec().unwrap();
        assert!(!t.book);
        assert_eq!(t.d, Some(30));
        assert_eq!(t.sd, Some(44));
        assert_eq!(t.pd.as_deref(), Some("Qxd1"));
        assert_eq!(t.mt, Some(90906));
        assert_eq!(t.tl, Some(3514094));
        assert_eq!(t.s, Some(41641210));
        assert_eq!(t.n, Some(3784769610));
        assert_eq!(t.pv.as_deref(), Some("dxc5 Qxd1 Rxd1"));
        assert_eq!(t.tb, Some(None));
        assert_eq!(t.h, Some(26.3));
        assert_eq!(t.ph, Some(100.0));
        assert_eq!(t.wv, Some(Score::Mate(-5)));
        assert_eq!(t.r50, Some(49));
        assert_eq!(t.rd, Some(-11));
        assert_eq!(t.rr, Some(-1000));
        assert_eq!(t.mb.unwrap().knights, -1);
        assert!(a.problems.is_empty());
        assert!(a.text.is_empty());
    }

    #[test]
    fn tcec_early_season_forms() {
        let a = parse_comment(
            "d=18, sd=32, mt=00:02:46, tl=01:57:28, s=14000 kN/s, n=2324000000, pv=e4 e5, tb=0, R50=48, wv=0.35,",
        );
        let t = a.tcec().unwrap();
        assert_eq!(t.mt, Some(166_000));
        assert_eq!(t.tl, Some(7_048_000));
        assert_eq!(t.s, Some(14_000_000));
        assert_eq!(t.wv, Some(Score::Cp(35)));
        assert!(a.problems.is_empty(), "{:?}", a.problems);
        let b = parse_comment("d=1, mt=2:xx, s=fast,");
        assert_eq!(b.problems.len(), 2, "{:?}", b.problems);
        // Banksia's TCEC-style comment
        let c = parse_comment("d=12, sd=20, mt=1500, wv=-0.10, r50=47");
        assert_eq!(c.tcec().unwrap().r50, Some(47));
        assert!(c.tcec().unwrap().extra.is_empty());
    }

    #[test]
    fn tcec_book_move() {
        let a = parse_comment("book, mb=+0+0+0+0+0,");
        let t = a.tcec().unwrap();
        assert!(t.book);
        assert_eq!(t.mb.unwrap().pawns, 0);
        assert_eq!(t.wv, None);
    }

    #[test]
    fn scores() {
        assert_eq!(Score::parse_pawns("0.27"), Ok(Score::Cp(27)));
        assert_eq!(Score::parse_pawns("-0.5"), Ok(Score::Cp(-50)));
        assert_eq!(Score::parse_pawns("+3"), Ok(Score::Cp(300)));
        assert_eq!(Score::parse_pawns("M12"), Ok(Score::Mate(12)));
        assert_eq!(Score::parse_pawns("-M5"), Ok(Score::Mate(-5)));
        assert_eq!(Score::parse_pawns("#-5"), Ok(Score::Mate(-5)));
        assert!(Score::parse_pawns("0.275").is_err());
        assert!(Score::parse_pawns("abc").is_err());
        assert!(Score::parse_pawns("").is_err());
    }

    #[test]
    fn malformed_values_are_reported_not_dropped() {
        let a = parse_comment("d=x, mt=12, wv=abc, zz=9,");
        let t = a.tcec().unwrap();
        assert_eq!(t.d, None);
        assert_eq!(t.mt, Some(12));
        assert_eq!(a.problems.len(), 2, "{:?}", a.problems);
        assert_eq!(t.extra, vec![("zz".to_string(), "9".to_string())]);
    }

    #[test]
    fn engine_options_per_side() {
        let a = parse_comment(
            "WhiteEngineOptions: Protocol=uci; Hash=8192; Threads=43; OwnBook=false; Search SMP [Threads count]=30;, BlackEngineOptions: Protocol=uci; CommandLineOptions=--hash 7168 --x;",
        );
        let o = a.engine_options.unwrap();
        assert_eq!(o.white.len(), 5);
        assert_eq!(o.white[1].value, OptionValue::Int(8192));
        assert_eq!(o.white[3].value, OptionValue::Bool(false));
        assert_eq!(o.white[4].name, "Search SMP [Threads count]");
        assert_eq!(
            o.black[1].value,
            OptionValue::Text("--hash 7168 --x".into())
        );
    }

    #[test]
    fn pgn_commands_and_leftover_text() {
        let a = parse_comment("[%clk 1:59:58.5] good move [%emt 0:00:05] [%eval #-3] [%cal Ge2e4]");
        assert_eq!(a.clk, Some(7_198_500));
        assert_eq!(a.emt, Some(5_000));
        assert_eq!(a.eval.unwrap().score, Score::Mate(-3));
        assert_eq!(a.commands, vec![("cal".to_string(), "Ge2e4".to_string())]);
        assert_eq!(a.text, "good move");
        let b = parse_comment("[%eval 0.35,20]");
        assert_eq!(
            b.eval,
            Some(EvalCommand {
                score: Score::Cp(35),
                depth: Some(20)
            })
        );
    }

    #[test]
    fn cutechess_comments() {
        let a = parse_comment("+0.35/24 1.2s");
        let c = a.cutechess().unwrap();
        assert_eq!(c.score, Some(Score::Cp(35)));
        assert_eq!(c.depth, Some(24));
        assert_eq!(c.time_ms, Some(1200));
        let b = parse_comment("+M1/1 0.012s, White mates");
        let b = b.cutechess().unwrap();
        assert_eq!(b.score, Some(Score::Mate(1)));
        assert_eq!(b.note.as_deref(), Some("White mates"));
        assert!(parse_comment("book").tcec().unwrap().book);
        assert_eq!(parse_comment("just a remark").text, "just a remark");
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("0:00:05"), Some(5000));
        assert_eq!(parse_clock("1:00:00.25"), Some(3_600_250));
        assert_eq!(parse_clock("12.5"), Some(12_500));
        assert_eq!(parse_clock("1:x"), None);
        assert_eq!(parse_clock("99999999999999999999:00:00"), None);
    }

    /// Texts of up to `max` characters from `alphabet`, in the orders a
    /// small generator gives.
    fn generated(alphabet: &str, max: usize, n: usize) -> Vec<String> {
        let chars: Vec<char> = alphabet.chars().collect();
        let mut rng = crate::test_rng::Lcg(0x9E37_79B9_7F4A_7C15);
        (0..n)
            .map(|_| {
                let len = rng.below(max + 1);
                (0..len).map(|_| chars[rng.below(chars.len())]).collect()
            })
            .collect()
    }

    /// `parse_clock` as it was with its parts gathered into a `Vec` (an
    /// allocation for every clock read): the reference for the one that
    /// reads them from the right.
    fn parse_clock_collected(s: &str) -> Option<i64> {
        let s = s.trim();
        let (neg, s) = match s.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, s),
        };
        let mut parts: Vec<&str> = s.split(':').collect();
        if parts.is_empty() || parts.len() > 3 {
            return None;
        }
        let secs = parts.pop()?;
        let (whole, frac) = secs.split_once('.').unwrap_or((secs, ""));
        if whole.is_empty()
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
            || frac.len() > 3
        {
            return None;
        }
        let mut ms: i64 = whole.parse::<i64>().ok()?.checked_mul(1000)?;
        if !frac.is_empty() {
            let f: i64 = frac.parse().ok()?;
            ms = ms.checked_add(f * 10i64.pow(3 - frac.len() as u32))?;
        }
        let mut mult = 60_000i64;
        for p in parts.iter().rev() {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            ms = ms.checked_add(p.parse::<i64>().ok()?.checked_mul(mult)?)?;
            mult = mult.checked_mul(60)?;
        }
        (ms <= MAX_TIME_MS).then_some(if neg { -ms } else { ms })
    }

    /// `split_byte` is `str::split_once` for each ASCII byte the forms
    /// split at, on texts with multi-byte characters too.
    #[test]
    fn split_byte_is_split_once() {
        for t in generated(",/ =é+\u{2003}0a", 12, 50_000) {
            for c in [b',', b'/', b' ', b'='] {
                assert_eq!(split_byte(&t, c), t.split_once(char::from(c)), "{t:?} {c}");
            }
        }
    }

    /// Where the one-loop clock answers, it is the general reading.
    #[test]
    fn the_fast_clock_is_the_general_clock() {
        let mut texts = generated("0123456789:.", 16, 200_000);
        texts.extend(
            [
                "90.906",
                "0:58:34",
                "1:00:00.25",
                "999999999999",
                "9999999999999",
                "999999999999:0:0",
                "277777:46:40",
                "277777:46:40.001",
                "1:2:3:4",
                "12.",
                ".5",
            ]
            .map(String::from),
        );
        let mut fast = 0;
        for t in &texts {
            if let Some(ms) = fast_clock(t.as_bytes()) {
                assert_eq!(Some(ms), parse_clock_general(t), "{t:?}");
                fast += 1;
            }
        }
        assert!(fast > 20_000, "{fast}");
        assert_eq!(fast_clock(b"277777:46:40"), Some(MAX_TIME_MS));
        assert_eq!(fast_clock(b"277777:46:40.001"), None);
    }

    #[test]
    fn a_clock_read_from_the_right_is_the_clock_its_parts_give() {
        let mut texts = generated("0123456789:.- ", 14, 200_000);
        texts.extend(
            [
                "1:2:3:4",
                "0:0:0:0",
                ":1",
                "1:",
                "1::2",
                "-0:01",
                "99999999:59:59",
                "1:00:00.250",
                "1:00:00.2500",
            ]
            .map(String::from),
        );
        let mut some = 0;
        for t in &texts {
            let want = parse_clock_collected(t);
            assert_eq!(parse_clock(t), want, "{t:?}");
            some += usize::from(want.is_some());
        }
        // both outcomes are well represented
        assert!(some > 10_000 && texts.len() - some > 10_000, "{some}");
    }

    /// The text and commands `extract_commands` gives are those of joining
    /// every piece around the commands and trimming (as it did before it
    /// borrowed a lone piece), on texts made of the commands' own
    /// characters.
    #[test]
    fn a_comments_text_around_its_commands_is_the_joined_pieces() {
        let mut texts = generated("[%]clk ev0:1x \t\u{a0}é", 24, 100_000);
        texts.extend(
            [
                " [%eval 0.27] [%clk 0:58:34] ",
                "good [%clk 0:01:00] move",
                "[%clk 0:01:00]move",
                "\u{a0}[%clk 0:01:00] x \u{2003}",
                "[%clk 0:01:00",
                "a [%x] b [%y] c",
            ]
            .map(String::from),
        );
        let mut joined_texts = 0;
        for t in &texts {
            let mut got = Annotations::default();
            let text = trim(&extract_commands(t, &mut got)).to_string();
            // the reference: every text piece joined, every group typed in turn
            let mut want = Annotations::default();
            let mut joined = String::new();
            let mut rest = t.as_str();
            while let Some(start) = rest.find("[%") {
                let Some(len) = rest[start..].find(']') else {
                    break;
                };
                joined.push_str(&rest[..start]);
                type_command(&rest[start + 2..start + len], &mut want);
                rest = &rest[start + len + 1..];
            }
            joined.push_str(rest);
            assert_eq!(text, joined.trim(), "{t:?}");
            assert_eq!(got, want, "{t:?}");
            joined_texts += usize::from(matches!(extract_commands(t, &mut got), Cow::Owned(_)));
        }
        assert!(joined_texts > 500, "{joined_texts}");
    }

    /// A comment of a GUI's form allocates nothing that it does not keep: a
    /// lichess comment's text around its commands is borrowed.
    #[test]
    fn a_lichess_comment_borrows_its_text() {
        let mut a = Annotations::default();
        assert!(matches!(
            extract_commands(" [%eval 0.27] [%clk 0:58:34] ", &mut a),
            Cow::Borrowed("")
        ));
        assert_eq!(a.clk, Some(3_514_000));
        assert!(matches!(
            extract_commands("good [%clk 0:01:00] ", &mut a),
            Cow::Borrowed("good ")
        ));
        assert!(matches!(
            extract_commands("good [%clk 0:01:00] move", &mut a),
            Cow::Owned(t) if t == "good  move"
        ));
    }
}
