//! The timeline: one ordered case file per game.
//!
//! Every fact the rules can see is an [`Event`] with a kind, a place in the
//! game (ply) and the span of the source it came from. This stage orders
//! events and exposes their fields by name ([`Event::field`]); it does not
//! judge them. The vocabulary of kinds and fields is [`VOCABULARY`], which
//! the rule analyzer checks names against.

pub mod align;
mod event;
mod kind;
mod move_facts;
mod move_field;
mod options;
mod placement;
mod start;
mod vocabulary;

pub use event::{Data, Event, Timeline, game_field_tag};
pub use kind::{Kind, ScopeKind};
pub(crate) use move_facts::side_str;
pub use move_facts::{MoveFacts, score_pawns};
pub use move_field::{ClockField, MoveField};
pub use options::OptionTexts;
pub use vocabulary::{VOCABULARY, field_type, fields, fields_of};
