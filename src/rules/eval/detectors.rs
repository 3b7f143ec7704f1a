//! The builtin functions and the detectors a rule may call: the external
//! oracles (Syzygy tables, a similarity report) and the checks computed
//! from the game (clocks, hidden books, pairings), each result cached per
//! game where it is costly.

use shakmaty::Position;
use shakmaty_syzygy::AmbiguousWdl;

use super::Probe;
use super::ctx::{Ctx, Note, at_ply, truthy};
use super::typed::Num;
use crate::base::value::Value;
use crate::findings::Evidence;
use crate::rules::analysis::{Builtin, Detector};
use crate::timeline::{Data, Timeline};

impl Ctx<'_, '_> {
    pub(super) fn builtin(&mut self, f: Builtin, v: [Value; 2]) -> Value {
        if f == Builtin::Coalesce {
            let mut it = v.into_iter();
            let a = it.next().unwrap_or_default();
            return if a == Value::None {
                it.next().unwrap_or_default()
            } else {
                a
            };
        }
        if v.contains(&Value::Unknown) {
            return Value::Unknown;
        }
        let s = |i: usize| match &v[i] {
            Value::Str(s) => Some(s.as_str()),
            _ => None,
        };
        match f {
            Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Round => {
                Num::of(&v[0]).call1(f).value()
            }
            Builtin::Min | Builtin::Max => Num::of(&v[0]).call2(f, Num::of(&v[1])).value(),
            Builtin::Lower => s(0).map_or(Value::None, |x| Value::Str(x.to_lowercase().into())),
            Builtin::Contains => match (&v[0], s(1)) {
                (Value::Str(a), Some(b)) => Value::Bool(a.contains(b)),
                // a list contains the text when one of its items does
                (Value::List(items), Some(b)) => Value::Bool(
                    items
                        .iter()
                        .any(|x| matches!(x, Value::Str(a) if a.contains(b))),
                ),
                _ => Value::Bool(false),
            },
            Builtin::StartsWith => match (s(0), s(1)) {
                (Some(a), Some(b)) => Value::Bool(a.starts_with(b)),
                _ => Value::Bool(false),
            },
            Builtin::Coalesce => Value::None,
            Builtin::TcBase | Builtin::TcIncrement | Builtin::TcMoves => {
                let Some(w) = s(0).and_then(crate::facts::clock::written) else {
                    return Value::None;
                };
                match f {
                    Builtin::TcBase => Value::Num(w.base.ms),
                    Builtin::TcIncrement => Value::Num(w.increment.ms),
                    _ => w.moves.map_or(Value::None, |m| Value::Num(f64::from(m))),
                }
            }
            Builtin::TcScale => {
                let w = |i| s(i).and_then(crate::facts::clock::written);
                match (w(0), w(1)) {
                    (Some(a), Some(b)) => a.scale_of(&b).map_or(Value::None, Value::Num),
                    _ => Value::None,
                }
            }
            Builtin::Number => s(0).and_then(number).map_or(Value::None, Value::Num),
            Builtin::Word => match (s(0), &v[1]) {
                (Some(text), Value::Num(n)) if *n >= 0.0 && n.fract() == 0.0 => text
                    .split_whitespace()
                    .nth(*n as usize)
                    .map_or(Value::None, |w| Value::Str(w.into())),
                _ => Value::None,
            },
            Builtin::Tag => match (s(0), self.run.tl) {
                (Some(name), Some(tl)) => tl
                    .game
                    .tag(name)
                    .map_or(Value::None, |t| Value::Str(t.into())),
                _ => Value::None,
            },
        }
    }

    /// What detector `d` gives at the context's event, with the parameters
    /// the rule gives it.
    pub(super) fn detect(&mut self, d: Detector, params: &[(&str, Value)]) -> Value {
        match d {
            Detector::Tablebase => self.detect_tablebase(params),
            Detector::HiddenBook => self.detect_hidden_book(params),
            Detector::Similarity => self.detect_similarity(params),
            Detector::AcceleratedPairing => self.detect_accelerated_pairing(params),
        }
    }

    /// The Syzygy tables' result of the position after the move: the side
    /// that wins, or a draw (with the fifty-move rule unless the rule says
    /// not); unknown where the tables cannot say.
    fn detect_tablebase(&mut self, params: &[(&str, Value)]) -> Value {
        let Some(tl) = self.run.tl else {
            return Value::None;
        };
        // the position after the move, or the game's start position
        let (made, ply);
        let pos = match &tl.events[self.i].data {
            Data::Move(p) if p.pieces > 7 => return Value::None, // no Syzygy table exists for it
            Data::Move(p) => {
                ply = p.ply;
                made = tl
                    .replay
                    .position_after(p.ply.saturating_sub(tl.replay.first_ply) as usize);
                &made
            }
            Data::Start => {
                ply = tl.replay.first_ply.saturating_sub(1);
                &tl.replay.start
            }
            _ => return Value::None,
        };
        let n = pos.board().occupied().count();
        if n > 7 {
            return Value::None; // no Syzygy table exists for it
        }
        if !pos.castles().castling_rights().is_empty() {
            return Value::None; // no Syzygy table exists for it
        }
        let Some(tb) = &self.run.detectors.tablebase else {
            self.notes.push(Note::NoTables {
                pieces: n as u32,
                ply,
            });
            return Value::Unknown;
        };
        let fifty = params
            .iter()
            .find(|(k, _)| *k == "fifty_move_rule")
            .is_none_or(|(_, v)| truthy(v));
        let stm = pos.turn();
        let side = |c: shakmaty::Color| {
            Value::Str(
                if c == shakmaty::Color::White {
                    "white"
                } else {
                    "black"
                }
                .into(),
            )
        };
        match self.run.detectors.probe(tb, pos) {
            Probe::Wdl(w) => match w {
                AmbiguousWdl::Win => side(stm),
                AmbiguousWdl::Loss => side(!stm),
                AmbiguousWdl::Draw => Value::Str("draw".into()),
                AmbiguousWdl::CursedWin => {
                    if fifty {
                        Value::Str("draw".into())
                    } else {
                        side(stm)
                    }
                }
                AmbiguousWdl::BlessedLoss => {
                    if fifty {
                        Value::Str("draw".into())
                    } else {
                        side(!stm)
                    }
                }
                AmbiguousWdl::MaybeWin | AmbiguousWdl::MaybeLoss => {
                    self.notes.push(Note::Text(format!(
                        "the tablebase value at ply {} is ambiguous (DTZ rounding near the fifty-move limit)",
                        ply
                    )));
                    Value::Unknown
                }
            },
            Probe::TooManyPieces => {
                let n = pos.board().occupied().count();
                if n > 7 {
                    Value::None // no Syzygy table exists for this many pieces
                } else {
                    self.notes.push(Note::Text(format!(
                        "no table for {n} pieces: the tables given cover at most {} (ply {})",
                        tb.max_pieces(),
                        ply
                    )));
                    Value::Unknown
                }
            }
            Probe::Castling => Value::None,
            Probe::MissingTable(what) => {
                self.notes.push(Note::Text(format!(
                    "the {}-piece position at ply {} could not be probed: {what}",
                    pos.board().occupied().count(),
                    ply
                )));
                Value::Unknown
            }
            Probe::Unreadable { table, why } => {
                self.notes.push(Note::Text(format!(
                    "the {}-piece position at ply {} could not be probed: the table {table} is {why}",
                    pos.board().occupied().count(),
                    ply
                )));
                Value::Unknown
            }
        }
    }

    /// Whether the move is flagged as hidden book use (then with its
    /// evidence).
    fn detect_hidden_book(&mut self, params: &[(&str, Value)]) -> Value {
        let Some(tl) = self.run.tl else {
            return Value::None;
        };
        let Data::Move(p) = &tl.events[self.i].data else {
            return Value::None;
        };
        let found = self.hidden_book(tl, params);
        // one assessment per replayed ply, in order
        match at_ply(&found, tl.replay.first_ply, p.ply, |a| a.ply) {
            Some(a) if a.flagged => {
                let place = a
                    .search
                    .as_ref()
                    .and_then(|s| s.place.as_deref().cloned())
                    .map(|(path, span, timestamp)| Evidence {
                        path,
                        span,
                        ply: Some(a.ply),
                        timestamp,
                        note: "the engine's search for this move (`go`)".into(),
                    });
                self.evidence.push((a.evidence(&p.san_text()), place));
                Value::Bool(true)
            }
            a => hidden_book_value(a),
        }
    }

    /// Whether a similarity report names one of the game's players as too
    /// close to another engine, by moves or by evaluation (then with its
    /// evidence).
    fn detect_similarity(&mut self, params: &[(&str, Value)]) -> Value {
        let Some(tl) = self.run.tl else {
            return Value::None;
        };
        let Some(sim) = &self.run.detectors.similarity else {
            return Value::None;
        };
        let num = |k: &str| num_param(params, k);
        let threshold = num("threshold").unwrap_or(5.0);
        let min_positions = num("min_positions").unwrap_or(0.0);
        let string = |k: &str| {
            params.iter().find_map(|(n, v)| match v {
                Value::Str(s) if *n == k => Some(s.clone()),
                _ => None,
            })
        };
        let against = string("against");
        let signal = string("signal").unwrap_or_else(|| "moves".into());
        let players: Vec<String> = ["White", "Black"]
            .iter()
            .filter_map(|t| tl.game.tag(t).map(str::to_string))
            .collect();
        let plays = |name: &str| {
            players
                .iter()
                .any(|p| crate::facts::similarity::names_engine(name, p))
        };
        let other = |name: &str| {
            against
                .as_deref()
                .is_none_or(|a| crate::facts::similarity::names_engine(a, name) || a == name)
        };
        let r = &sim.report;
        let short = &sim.sha256[..12.min(sim.sha256.len())];
        let mut hit = false;
        if signal == "evaluation" {
            // the evaluation-signature verdict, at the rule's
            // false-positive rate (default: the report's)
            let Some(sig) = &r.signature else {
                return Value::None;
            };
            let set = sig.settings.clone().unwrap_or_default();
            let alpha = num("false_positive_rate").unwrap_or(set.false_positive_rate);
            // a pair with a p-value is held whole
            for p in &sig.pairs.held {
                let (mine, theirs) = if plays(&p.a) {
                    (&p.a, &p.b)
                } else if plays(&p.b) {
                    (&p.b, &p.a)
                } else {
                    continue;
                };
                if !other(theirs) || (p.moves.positions as f64) < min_positions {
                    continue;
                }
                let (Some(pv), Some(mz), Some(rv), Some(ci)) =
                    (p.p_value, p.moves.z, p.residual.value, p.residual.ci)
                else {
                    continue;
                };
                if pv <= alpha && mz >= set.moves_floor {
                    hit = true;
                    self.evidence.push((format!(
                        "{mine} and {theirs} are wrong in the same positions: residual score correlation r = {rv:.2} (95% interval {:.2} to {:.2}) over {} positions, p = {pv:.1e} against the field's other pairs resampled (false-positive rate {alpha}); move match {:.1}% (z {mz:.1}) ({}, sha256 {short})",
                        ci[0],
                        ci[1],
                        p.residual.positions,
                        100.0 * p.moves.value.unwrap_or(0.0),
                        sim.path,
                    ), None));
                }
            }
            return Value::Bool(hit);
        }
        // otherwise "moves" (the analyzer admits no other signal)
        for i in 0..r.engines.len() {
            if !plays(&r.engines[i]) {
                continue;
            }
            for j in 0..r.engines.len() {
                if i == j || !other(&r.engines[j]) {
                    continue;
                }
                let (Some(z), Some(m)) = (r.z[i][j], r.matches[i][j]) else {
                    continue;
                };
                if z >= threshold && r.common[i][j] as f64 >= min_positions {
                    hit = true;
                    self.evidence.push((format!(
                        "{} and {} chose the same move in {:.1}% of {} positions, z = {:.2} against the other pairs ({}, sha256 {short})",
                        r.engines[i],
                        r.engines[j],
                        100.0 * m,
                        r.common[i][j],
                        z,
                        sim.path,
                    ), None));
                }
            }
        }
        Value::Bool(hit)
    }

    /// Whether the event game's pairing was an accelerated one the rules
    /// forbade (then with why).
    fn detect_accelerated_pairing(&mut self, params: &[(&str, Value)]) -> Value {
        let Some(case) = self.run.scope else {
            return Value::None;
        };
        let Some(gi) = case.items.get(self.i).and_then(|it| it.game) else {
            return Value::None;
        };
        let num = |k: &str, d: f64| num_param(params, k).unwrap_or(d);
        match case.accelerated_pairing(gi, num("until_round", 3.0), num("high_score", 0.5)) {
            Ok(Some(why)) => {
                self.evidence.push((why, None));
                Value::Bool(true)
            }
            Ok(None) => Value::Bool(false),
            Err(why) => {
                self.notes.push(Note::Text(why.to_string()));
                Value::Unknown
            }
        }
    }
}

impl Ctx<'_, '_> {
    /// The hidden-book detector's assessment of the game under the
    /// parameters given, made once per game for each set of them.
    pub(super) fn hidden_book(
        &self,
        tl: &Timeline<'_>,
        params: &[(&str, Value)],
    ) -> std::rc::Rc<Vec<crate::facts::hidden_book::Assessment>> {
        let params = crate::facts::hidden_book::params(params);
        let mut c = self.run.cache.hidden_book.borrow_mut();
        match c.iter().find(|(k, _)| *k == params) {
            Some((_, v)) => v.clone(),
            None => {
                let v = std::rc::Rc::new(crate::facts::hidden_book::assess(tl, &params));
                c.push((params, v.clone()));
                v
            }
        }
    }
}

/// What the hidden-book detector gives for a move's assessment (`None`:
/// the move has none): `true` where it is flagged (then the detector also
/// gives its evidence), `false` for a move without search that is not, none
/// for the others.
pub(super) fn hidden_book_value(a: Option<&crate::facts::hidden_book::Assessment>) -> Value {
    match a {
        Some(a) if a.flagged => Value::Bool(true),
        Some(a) if a.searchless.is_some() => Value::Bool(false),
        _ => Value::None,
    }
}

/// The number a detector's call gives for parameter `name`, if it gives
/// one.
fn num_param(params: &[(&str, Value)], name: &str) -> Option<f64> {
    params
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, v)| match v {
            Value::Num(x) => Some(*x),
            _ => None,
        })
}

/// A number as text writes it: an optional sign, digits and at most one
/// point with digits on both sides; none for anything else (`1e3`, `inf`,
/// `.5`).
fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    let unsigned = t.strip_prefix(['-', '+']).unwrap_or(t);
    let (whole, frac) = unsigned.split_once('.').unwrap_or((unsigned, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(frac) || t.len() > 40 {
        return None;
    }
    t.parse().ok().filter(|x: &f64| x.is_finite())
}
