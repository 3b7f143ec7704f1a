//! Events and the [`Timeline`]: a game's events in order (the game, its
//! options, the logs' events among the moves, the end), and the value of
//! an event's field by name.

use shakmaty::Color;

use std::collections::BTreeMap;

use crate::base::span::Span;
use crate::base::value::{Text, Value};
use crate::ingest::comments::{MoveComments, OptionValue};
use crate::ingest::operator::OpEvent;
use crate::ingest::pgn::PgnGame;
use crate::replay::{Ply, Replay};
use crate::timeline::align::EngEvent;
use crate::timeline::kind::Kind;
use crate::timeline::move_facts::{MoveFacts, side_str, tag_value};
use crate::timeline::move_field::MoveField;
use crate::timeline::options::{OptionTexts, option_text};
use crate::timeline::placement::{field_value, place_operator_events};

/// One event of the timeline.
#[derive(Debug, Clone)]
pub struct Event<'a> {
    pub kind: Kind,
    pub ply: Option<u32>,
    pub span: Option<Span>,
    pub data: Data<'a>,
}

#[derive(Debug, Clone)]
pub enum Data<'a> {
    Game,
    Option {
        side: Color,
        name: &'a str,
        value: &'a OptionValue,
        raw: &'a str,
        /// Its texts as values, in [`Timeline`]'s list beside the events
        /// (kept there, an event is half the size it would be).
        texts: u32,
    },
    Move(&'a Ply),
    /// The game's start position, as a `move` event
    /// ([`Timeline::start_position`]); never in a game's own timeline.
    Start,
    End,
    Op {
        event: &'a OpEvent,
        derived: BTreeMap<&'static str, Value>,
    },
    Engine(&'a EngEvent),
}

/// A game's timeline, borrowing the game and its replay.
#[derive(Debug)]
pub struct Timeline<'a> {
    pub game: &'a PgnGame,
    pub replay: &'a Replay,
    pub events: Vec<Event<'a>>,
    /// The texts of each option event, made as the rules read them.
    pub(super) option_texts: Vec<OptionTexts>,
}

impl<'a> Timeline<'a> {
    pub fn build(game: &'a PgnGame, replay: &'a Replay) -> Timeline<'a> {
        Timeline::with_operator_log(game, replay, &[])
    }

    /// The game's events merged with its operator log. Operator events are
    /// placed after the move they follow: by their `ply` field when given,
    /// else after the last move the log itself has entered or executed.
    pub fn with_operator_log(
        game: &'a PgnGame,
        replay: &'a Replay,
        ops: &'a [OpEvent],
    ) -> Timeline<'a> {
        Timeline::with_logs(game, replay, ops, &[])
    }

    /// The game with its operator log and its engine-log events, each placed
    /// after the move it follows; at the same place, events with real
    /// timestamps are ordered by time.
    pub fn with_logs(
        game: &'a PgnGame,
        replay: &'a Replay,
        ops: &'a [OpEvent],
        engine: &'a [EngEvent],
    ) -> Timeline<'a> {
        let placed = place_operator_events(replay, ops);
        // Merge the two logs: operator events keep their order; an engine
        // event goes before the first operator event placed later, or at
        // the same place but later in time.
        let mut side: Vec<(u32, Event<'a>)> = Vec::with_capacity(placed.len() + engine.len());
        let mut eng = engine.iter().peekable();
        for (completed, e, derived) in placed {
            while let Some(x) = eng.peek() {
                let before = x.placed < completed
                    || (x.placed == completed && x.absolute && x.time <= e.time);
                if !before {
                    break;
                }
                side.push((x.placed, engine_event(x)));
                eng.next();
            }
            side.push((
                completed,
                Event {
                    kind: Kind::Op(e.kind),
                    ply: Some(completed),
                    span: Some(e.span),
                    data: Data::Op { event: e, derived },
                },
            ));
        }
        side.extend(eng.map(|x| (x.placed, engine_event(x))));
        // the game, its options, the logs' events, the moves and the end:
        // one allocation for the list, not one per doubling
        let options: usize = game
            .preamble
            .iter()
            .filter_map(|c| c.annotations.engine_options.as_ref())
            .map(|o| o.white.len() + o.black.len())
            .sum();
        let mut events = Vec::with_capacity(2 + options + side.len() + replay.plies.len());
        let mut option_texts = Vec::with_capacity(options);
        events.push(Event {
            kind: Kind::Game,
            ply: None,
            span: None,
            data: Data::Game,
        });
        for c in &game.preamble {
            if let Some(opts) = &c.annotations.engine_options {
                for (color, list) in [(Color::White, &opts.white), (Color::Black, &opts.black)] {
                    for o in list {
                        events.push(Event {
                            kind: Kind::Option,
                            ply: None,
                            span: Some(c.span),
                            data: Data::Option {
                                side: color,
                                name: &o.name,
                                value: &o.value,
                                raw: &o.raw,
                                texts: option_texts.len() as u32,
                            },
                        });
                        option_texts.push(OptionTexts::default());
                    }
                }
            }
        }
        let mut next_op = 0;
        let first = replay.first_ply.saturating_sub(1);
        let flush = |events: &mut Vec<Event<'a>>, next_op: &mut usize, upto: u32| {
            while *next_op < side.len() && side[*next_op].0 <= upto {
                events.push(side[*next_op].1.clone());
                *next_op += 1;
            }
        };
        flush(&mut events, &mut next_op, first);
        for p in &replay.plies {
            events.push(Event {
                kind: Kind::Move,
                ply: Some(p.ply),
                span: game.moves[p.move_index].span,
                data: Data::Move(p),
            });
            flush(&mut events, &mut next_op, p.ply);
        }
        flush(&mut events, &mut next_op, u32::MAX);
        events.push(Event {
            kind: Kind::End,
            ply: replay.plies.last().map(|p| p.ply),
            span: None,
            data: Data::End,
        });
        Timeline {
            game,
            replay,
            events,
            option_texts,
        }
    }

    fn tag(&self, name: &str) -> Value {
        tag_value(self.game, name)
    }

    /// The termination the record states: TerminationDetails, else a match
    /// manager's text after the last move's comment.
    fn details(&self) -> Value {
        match self.game.tag_entry("TerminationDetails") {
            Some(_) => self.tag("TerminationDetails"),
            None => self
                .game
                .recorded_ending()
                .map_or(Value::None, |e| Value::Str(e.text.into())),
        }
    }

    /// The value of `kind.field` at event `i`. `Value::None` when the event
    /// is of another kind or the source does not record it.
    pub fn field(&self, i: usize, kind: Kind, name: &str) -> Value {
        if kind == Kind::Game {
            if let Some(tag) = game_field_tag(name) {
                return self.tag(tag);
            }
            return match name {
                "details" => self.details(),
                "plies" => Value::Num(self.game.moves.len() as f64),
                "start_time" => opt_ms(self.game.start_time_ms()),
                "end_time" => opt_ms(self.game.end_time_ms()),
                "duration" => opt_ms(self.game.duration_ms()),
                _ => Value::None,
            };
        }
        let ev = &self.events[i];
        if ev.kind != kind {
            return Value::None;
        }
        match &ev.data {
            Data::Option {
                side,
                name: n,
                value,
                raw,
                texts,
            } => {
                // the option's text, made once for the event (an event made
                // by hand, without its texts, makes it anew)
                let kept = self.option_texts.get(*texts as usize);
                let text = |cell: fn(&OptionTexts) -> &std::sync::OnceLock<Text>, s: &str| {
                    Value::Str(match kept {
                        Some(k) => cell(k).get_or_init(|| option_text(s)).clone(),
                        None => option_text(s),
                    })
                };
                match name {
                    "side" => side_str(*side),
                    "name" => text(|k| &k.name, n),
                    "value" => match value {
                        OptionValue::Int(i) => Value::Num(*i as f64),
                        OptionValue::Bool(b) => Value::Bool(*b),
                        OptionValue::Text(t) => text(|k| &k.value, t),
                    },
                    "raw" => text(|k| &k.raw, raw),
                    "source" => Value::Str(Text::from_static("pgn-engine-options")),
                    _ => Value::None,
                }
            }
            Data::Move(p) => self.move_field(p, name),
            Data::Start => self.start_field(name),
            Data::End => {
                let pos = self.replay.final_position();
                use shakmaty::Position;
                match name {
                    "result" => self.tag("Result"),
                    "details" => self.details(),
                    "plies" => Value::Num(self.replay.plies.len() as f64),
                    "pieces" => Value::Num(f64::from(pos.board().occupied().count() as u32)),
                    "checkmate" => Value::Bool(pos.is_checkmate()),
                    "stalemate" => Value::Bool(pos.is_stalemate()),
                    "complete" => Value::Bool(self.replay.stop.is_none()),
                    _ => Value::None,
                }
            }
            Data::Op { event, derived } => {
                if let Some(v) = derived.get(name) {
                    return v.clone();
                }
                match name {
                    "time" => Value::Num(event.time as f64),
                    "at" => Value::Str(event.at.as_str().into()),
                    "operator" => Value::Str(event.operator.as_str().into()),
                    "role" => event
                        .fields
                        .get("role")
                        .map_or(Value::Str("operator".into()), field_value),
                    _ => event.fields.get(name).map_or(Value::None, field_value),
                }
            }
            Data::Engine(e) => e.fields.get(name).cloned().unwrap_or(Value::None),
            Data::Game => Value::None,
        }
    }

    fn move_field(&self, p: &'a Ply, name: &str) -> Value {
        match MoveField::from_name(name) {
            Some(f) => self.move_facts(p).get(f),
            None => Value::None,
        }
    }

    /// The typed facts of one move, read from its comments once.
    pub fn move_facts(&self, p: &'a Ply) -> MoveFacts<'a> {
        let mv = &self.game.moves[p.move_index];
        let comments = MoveComments::of(self.game.comments_of(mv));
        MoveFacts {
            game: self.game,
            ply: p,
            comments,
            white_score: comments.white_eval(p.side),
            depth: comments.depth(),
        }
    }
}

fn engine_event(e: &EngEvent) -> Event<'_> {
    Event {
        kind: Kind::Engine(e.kind),
        ply: Some(e.placed),
        span: Some(e.span),
        data: Data::Engine(e),
    }
}

/// A time in ms as a rule's number, `none` where the record gives none.
/// The tag a field of `game` is, where it is one tag (`time_control` is
/// `TimeControl`); `details` is not: it is the TerminationDetails tag or a
/// manager's text after the last move.
pub fn game_field_tag(name: &str) -> Option<&'static str> {
    Some(match name {
        "white" => "White",
        "black" => "Black",
        "event" => "Event",
        "round" => "Round",
        "result" => "Result",
        "termination" => "Termination",
        "time_control" => "TimeControl",
        _ => return None,
    })
}

fn opt_ms(ms: Option<i64>) -> Value {
    ms.map_or(Value::None, |ms| Value::Num(ms as f64))
}
