//! The rules a column at a time: each `let` on moves, and each condition of
//! a rule on moves, whose every part a column can hold (literals,
//! constants, switches, the game's fields, the move's fields, the `let`s
//! that are columns themselves, operators, `if`, the builtins of numbers,
//! and the stateful calls over them) is evaluated over all of a game's
//! moves at once, node by node. What an expression costs to interpret (its
//! dispatch, its closures, its `Value`s) is paid once per node per game,
//! and each node's work is a loop over the moves; the per-move pass then
//! reads the columns.
//!
//! Each node gives, at every move, what the walk ([`Ctx::eval`],
//! [`Ctx::num`], [`Ctx::truth`]) gives on the same expression at that move:
//! the methods of [`Cols`] follow the walk's arms one by one, with the same
//! [`Num`] and [`Truth`] operations; a stateful call steps through the
//! same [`Slot::step`]. `tests` holds them to the walk on thousands of
//! generated expressions at each move of a game; on whole archives,
//! `tests/identical.rs` holds the outputs of S15 and of `samples/`, and
//! `tests/switches.rs` the switches' shadows.
//!
//! A column whose every move has the same value (as [`identical`] tells
//! values apart) is held as that one value, as a literal is: a field the
//! same throughout the game, a count that never moves, and any node over
//! such columns is then worked out once, not at every move.
//!
//! A switch's shadow is a set of columns too: a `let` or condition that
//! reads the flipped switch, or a shadow column, is evaluated again with the
//! switch flipped; where the result is the real pass's at every move, the
//! shadow keeps none, and what reads it is not evaluated again either.
//!
//! The parts: `column` (a column and its pooled buffer), `col` (a node's
//! column in its exact form), `prepared` (a game's moves, and what a
//! search keeps of a game between runs), `game` (a game's columns and
//! shadows; which `let`s and conditions are columns is the plan's, in
//! `eval::columnar`),
//! `cols` (the view an expression is evaluated in, and its leaves),
//! `fields` (the move's fields), `values` and `truths` (the nodes) and
//! `stateful` (the stateful calls).

mod col;
mod column;
mod cols;
mod fields;
mod game;
mod prepared;
mod stateful;
#[cfg(test)]
mod tests;
mod truths;
mod values;

// the parts' own items that the evaluator reads (the parts import each
// other's items from where they are defined)
pub(super) use col::Col;
pub(super) use game::{GameColumns, Given, evaluate, rows};
pub(super) use prepared::Moves;
pub use prepared::Prepared;
