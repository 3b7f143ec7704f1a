//! An engine's `info` line (UCI) or thinking line (xboard): its values
//! read whole, or its numbers alone read in place, without an allocation.

use crate::ingest::comments::ascii_white;

/// An `info` line (UCI) or a thinking line (xboard).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Info {
    pub depth: Option<i64>,
    pub seldepth: Option<i64>,
    /// Centipawns, from the engine's point of view.
    pub cp: Option<i64>,
    pub mate: Option<i64>,
    /// `lowerbound` / `upperbound`.
    pub bound: Option<String>,
    pub nodes: Option<i64>,
    pub nps: Option<i64>,
    /// ms
    pub time: Option<i64>,
    pub hashfull: Option<i64>,
    pub tbhits: Option<i64>,
    pub multipv: Option<i64>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// An xboard thinking line's numbers from its words (`ply score time(cs)
/// nodes pv…`), its PV left out; `None` unless the first four are integers.
/// A score of 100,000 or more either way is a mate (the side only), and a
/// time too large to be given in ms is none.
pub(super) fn thinking<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<Info> {
    let mut n = || words.next().and_then(|x| x.parse::<i64>().ok());
    let (d, sc, cs, nodes) = (n()?, n()?, n()?, n()?);
    let mate = sc.unsigned_abs() >= 100_000;
    Some(Info {
        depth: Some(d),
        cp: (!mate).then_some(sc),
        mate: mate.then_some(sc.signum()),
        nodes: Some(nodes),
        time: cs.checked_mul(10),
        ..Info::default()
    })
}

pub(super) fn parse_info(w: &[&str]) -> Info {
    walk_info(|i| w.get(i).copied(), true)
}

/// `parse_info`'s walk over the words `get(i)` gives (`None` past the
/// last), with its texts (the bound, the PV and the string) only where
/// `texts`: without them a line's numbers are read without an allocation,
/// and they are the numbers the whole reading gives, by the same walk. The
/// words are asked for in order, at most three past the key being read, so
/// `get` can find them as they are needed.
fn walk_info<'a>(mut get: impl FnMut(usize) -> Option<&'a str>, texts: bool) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    while let Some(key) = get(i) {
        let v = get(i + 1).and_then(|x| x.parse::<i64>().ok());
        match key {
            "depth" => info.depth = v,
            "seldepth" => info.seldepth = v,
            "nodes" => info.nodes = v,
            "nps" => info.nps = v,
            "time" => info.time = v,
            "hashfull" => info.hashfull = v,
            "tbhits" => info.tbhits = v,
            "multipv" => info.multipv = v,
            "score" => {
                let value = get(i + 2).and_then(|x| x.parse::<i64>().ok());
                match get(i + 1) {
                    Some("cp") => info.cp = value,
                    Some("mate") => info.mate = value,
                    _ => {}
                }
                i += 3;
                if let Some(b @ ("lowerbound" | "upperbound")) = get(i) {
                    if texts {
                        info.bound = Some(b.to_string());
                    }
                    i += 1;
                }
                continue;
            }
            "pv" => {
                if texts {
                    info.pv = (i + 1..).map_while(&mut get).map(str::to_string).collect();
                }
                break;
            }
            "string" => {
                if texts {
                    let rest: Vec<&str> = (i + 1..).map_while(&mut get).collect();
                    info.string = Some(rest.join(" "));
                }
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info
}

/// An engine's line that [`super::parse_msg`] reads as UCI `info`: its numbers, as
/// `parse_info` reads them, without its texts; `None` for any other line.
/// `words` is filled with where each word lies.
pub(super) fn info_numbers(text: &str, words: &mut Vec<(usize, usize)>) -> Option<Info> {
    let t = text.trim();
    // the first word is `info` (`t` starts with no white space)
    if !t.starts_with("info") || !t[4..].chars().next().is_none_or(char::is_whitespace) {
        return None;
    }
    words.clear();
    if !t.is_ascii() {
        let base = t.as_ptr() as usize;
        words.extend(t.split_whitespace().skip(1).map(|w| {
            let start = w.as_ptr() as usize - base;
            (start, start + w.len())
        }));
        return Some(walk_info(|i| words.get(i).map(|&(a, b)| &t[a..b]), false));
    }
    // `split_whitespace`'s words, found byte by byte as the walk asks for
    // them (in ASCII its white space is `ascii_white`'s): the walk stops at the
    // PV, whose words are then never looked at
    let b = t.as_bytes();
    let mut at = 4;
    Some(walk_info(
        |i| {
            while words.len() <= i && at < b.len() {
                while at < b.len() && ascii_white(b[at]) {
                    at += 1;
                }
                let start = at;
                while at < b.len() && !ascii_white(b[at]) {
                    at += 1;
                }
                if at > start {
                    words.push((start, at));
                }
            }
            words.get(i).map(|&(a, b)| &t[a..b])
        },
        false,
    ))
}

/// An engine's line that [`super::parse_msg`] reads as xboard thinking output: its
/// numbers, without its PV; `None` for any other line.
pub(super) fn thinking_numbers(text: &str) -> Option<Info> {
    let t = text.trim();
    // as `parse_msg` tells it: the first word an integer, four words or more
    // (the four integers `thinking` asks for are four words)
    t.as_bytes()
        .first()
        .is_some_and(|c| c.is_ascii_digit() || *c == b'-' || *c == b'+')
        .then(|| thinking(t.split_whitespace()))
        .flatten()
}
