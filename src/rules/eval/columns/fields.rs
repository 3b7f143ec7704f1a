//! The fields of the move as columns, each field its own loop.

use std::borrow::Cow;

use shakmaty::Color;

use super::col::{Col, Dict, coded, typed};
use super::column::settled;
use crate::rules::eval::ctx::{Run, clock_value};
use crate::rules::eval::typed::{Num, Truth};
use crate::timeline::{ClockField, MoveFacts, MoveField};

/// A field of the move over the moves, typed where every move's value is a
/// number (or none, or unknown), or a truth (or unknown).
pub(super) fn field_column(run: &Run<'_, '_>, rows: &[MoveFacts<'_>], f: MoveField) -> Col {
    // each field of numbers and truths its own loop (the field is not
    // asked again at every move): a closure of its own for each, so that
    // the loop is made for that field
    macro_rules! each {
        ($($field:ident),* $(,)?) => {
            match f {
                $(MoveField::$field => field_loop(
                    run,
                    rows,
                    f,
                    |m| m.number(MoveField::$field),
                    |m| m.flag(MoveField::$field),
                ),)*
                // the side: two names, coded by the side
                MoveField::Side => Col::D(Dict {
                    values: [Color::White, Color::Black]
                        .into_iter()
                        .map(crate::timeline::side_str)
                        .collect(),
                    codes: rows.iter().map(|m| u8::from(m.ply.side == Color::Black)).collect(),
                }),
                f => field_loop(run, rows, f, |m| m.number(f), |m| m.flag(f)),
            }
        };
    }
    each!(
        // the fields of numbers
        Depth,
        HalfmoveClock,
        Hashfull,
        Mate,
        Mt,
        Nodes,
        Nps,
        Number,
        Pieces,
        Pawns,
        MinorsAndMajors,
        Ply,
        Ponderhit,
        RecordedLeft,
        RecordedR50,
        RecordedRd,
        RecordedRr,
        Repetition,
        Score,
        Seldepth,
        Tbhits,
        Tl,
        Wv,
        // the fields of truths
        Book,
        Capture,
        Castling,
        CastlingRightsLost,
        Check,
        Checkmate,
        Commented,
        InsufficientMaterial,
        Irreversible,
        PawnMove,
        Promotion,
        RookCastlingLost,
        Stalemate,
    )
}

/// [`field_column`] for one field, `number` and `flag` its
/// [`MoveFacts::number`] and [`MoveFacts::flag`].
#[inline(always)]
fn field_loop<'t>(
    run: &Run<'_, '_>,
    rows: &[MoveFacts<'t>],
    f: MoveField,
    number: impl Fn(&MoveFacts<'t>) -> Option<Option<f64>>,
    flag: impl Fn(&MoveFacts<'t>) -> Option<bool>,
) -> Col {
    let first = rows.first();
    match f {
        // a clock's numbers (or none), as they are
        MoveField::Clock(
            c @ (ClockField::Used
            | ClockField::TimedUsed
            | ClockField::ClockJump
            | ClockField::ClockExpected
            | ClockField::ClockStopped
            | ClockField::ClockLeft
            | ClockField::ClockAtMove
            | ClockField::ClockPeriod),
        ) => Col::N(settled(
            rows.iter()
                .map(|m| Num::of(&clock_value(run, m.ply.ply, c)))
                .collect(),
        )),
        MoveField::Clock(c) => coded(
            rows.iter()
                .map(|m| Cow::Owned(clock_value(run, m.ply.ply, c))),
        ),
        _ if first.is_some_and(|m| number(m).is_some()) => numbers(rows, f, number),
        _ if first.is_some_and(|m| flag(m).is_some()) => flags(rows, f, flag),
        _ => typed(rows.iter().map(|m| m.get(f))),
    }
}

/// A field of numbers at every move, `number` its
/// [`MoveFacts::number`].
#[inline(always)]
fn numbers<'t>(
    rows: &[MoveFacts<'t>],
    f: MoveField,
    number: impl Fn(&MoveFacts<'t>) -> Option<Option<f64>>,
) -> Col {
    Col::N(settled(
        rows.iter()
            .map(|m| match number(m) {
                Some(Some(x)) => Num::Is(x),
                Some(None) => Num::Other,
                None => Num::of(&m.get(f)),
            })
            .collect(),
    ))
}

/// A field of truths at every move, `flag` its [`MoveFacts::flag`].
#[inline(always)]
fn flags<'t>(
    rows: &[MoveFacts<'t>],
    f: MoveField,
    flag: impl Fn(&MoveFacts<'t>) -> Option<bool>,
) -> Col {
    Col::T(settled(
        rows.iter()
            .map(|m| match flag(m) {
                Some(b) => Truth::from(b),
                None => Truth::of(&m.get(f)),
            })
            .collect(),
    ))
}
