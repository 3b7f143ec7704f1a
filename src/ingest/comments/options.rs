//! TCEC's game comment `WhiteEngineOptions: …, BlackEngineOptions: …`:
//! each side's engine options, with their values typed.

use serde::Serialize;

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

pub(super) fn parse_engine_options(s: &str) -> EngineOptions {
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
