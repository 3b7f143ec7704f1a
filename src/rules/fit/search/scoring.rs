//! What a point of the fit is scored on: the counter rules, the clock
//! rules and the adjudications of the ruleset, and of those only the ones
//! some move of the games can make fire.

use crate::base::value::Value;
use crate::rules::analysis::{CExpr, Check, Ruleset};
use crate::rules::syntax::ast::BinOp;
use crate::timeline::{ClockField, Data, MoveField, Timeline};

/// The counter rules: `(rule id, the recorded field it compares)`.
pub(super) fn counter_rules(rs: &Ruleset) -> Vec<(String, MoveField)> {
    fn recorded(e: &CExpr, out: &mut Option<MoveField>) {
        match e {
            CExpr::Move(
                f @ (MoveField::RecordedR50
                | MoveField::RecordedRd
                | MoveField::RecordedRr
                | MoveField::RecordedLeft),
                _,
            ) => *out = Some(*f),
            _ => e.each_child(&mut |x| recorded(x, out)),
        }
    }
    rs.rules
        .iter()
        .filter_map(|r| match &r.check {
            Check::Forbid { when: Some(w), .. } => {
                let mut f = None;
                recorded(w, &mut f);
                f.map(|f| (r.id.clone(), f))
            }
            _ => None,
        })
        .collect()
}

/// The ruleset a point is scored on: `rs` with only its adjudications,
/// its counter rules and its clock rules (what [`Search::evaluate`]
/// counts), so that a point evaluates nothing it does not score; and of
/// those, none that no move of the games `presence` saw can make fire
/// ([`Presence::never_firing`]). Its constants, switches, `let`s and
/// variants are `rs`'s, at the same places.
pub(in crate::rules::fit) fn scoring_ruleset(rs: &Ruleset, presence: &Presence) -> Ruleset {
    let counters: Vec<String> = counter_rules(rs).into_iter().map(|(id, _)| id).collect();
    let clocks = clock_rules(rs);
    let never = presence.never_firing();
    let mut out = rs.clone();
    out.rules.retain(|r| {
        (matches!(r.check, Check::Adjudicate { .. })
            || counters.contains(&r.id)
            || clocks.contains(&r.id))
            && !never.contains(&r.id)
    });
    // a point counts the counter and clock rules' findings and reads none:
    // their messages are not written (each would be formatted at every
    // point, for every reading that disagrees)
    for r in &mut out.rules {
        if !matches!(r.check, Check::Adjudicate { .. }) {
            r.message = None;
            r.cites.truncate(1);
        }
    }
    // the evaluator's plan is made for the rules it has
    crate::rules::fit::partial::prune_lets(&mut out);
    out
}

/// The `forbid` rules whose condition is a conjunction one of whose terms
/// is `move.F != none`, and whether some move of the games seen so far has
/// each such field F. A rule whose field no move has cannot fire (a counter
/// rule of an archive that does not record the counter: `move.recorded_rd
/// != none and …` where no move records Rd); left out of the scoring, it
/// changes no point's score: it counts no disagreement at any value.
pub(in crate::rules::fit) struct Presence {
    wanted: Vec<(String, Vec<MoveField>)>,
    fields: Vec<MoveField>,
    present: Vec<bool>,
}

impl Presence {
    /// The fields `rs`'s rules need, none seen yet.
    pub(in crate::rules::fit) fn of(rs: &Ruleset) -> Presence {
        fn required(e: &CExpr, out: &mut Vec<MoveField>) {
            match e {
                CExpr::Binary(BinOp::And, a, b) | CExpr::Short(BinOp::And, a, b) => {
                    required(a, out);
                    required(b, out);
                }
                CExpr::Binary(BinOp::Ne, a, b) => match (&**a, &**b) {
                    (CExpr::Move(f, _), CExpr::Lit(Value::None))
                    | (CExpr::Lit(Value::None), CExpr::Move(f, _))
                        if !matches!(f, MoveField::Clock(_)) =>
                    {
                        out.push(*f);
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        let wanted: Vec<(String, Vec<MoveField>)> = (rs.rules.iter())
            .filter_map(|r| match &r.check {
                Check::Forbid { when: Some(w), .. } => {
                    let mut f = Vec::new();
                    required(w, &mut f);
                    (!f.is_empty()).then(|| (r.id.clone(), f))
                }
                _ => None,
            })
            .collect();
        let mut fields: Vec<MoveField> = wanted.iter().flat_map(|(_, f)| f.clone()).collect();
        fields.dedup();
        let present = vec![false; fields.len()];
        Presence {
            wanted,
            fields,
            present,
        }
    }

    /// Add the moves of one game.
    pub(in crate::rules::fit) fn add(&mut self, tl: &Timeline<'_>) {
        if self.present.iter().all(|x| *x) {
            return;
        }
        for e in &tl.events {
            if let Data::Move(p) = &e.data {
                let m = tl.move_facts(p);
                for (f, seen) in self.fields.iter().zip(self.present.iter_mut()) {
                    *seen = *seen || m.get(*f) != Value::None;
                }
            }
        }
    }

    /// The rules no move seen can make fire.
    fn never_firing(&self) -> Vec<String> {
        if self.present.iter().all(|x| *x) {
            return Vec::new();
        }
        (self.wanted.iter())
            .filter(|(_, f)| {
                f.iter()
                    .any(|x| !self.present[self.fields.iter().position(|y| y == x).unwrap_or(0)])
            })
            .map(|(id, _)| id.clone())
            .collect()
    }
}

/// The clock rules: the ids of the `forbid` rules whose condition reads a
/// clock's arithmetic (`move.clock_jump`) or its flag (`move.clock_flag`).
/// A reading on which none fires agrees with the time control.
pub(super) fn clock_rules(rs: &Ruleset) -> Vec<String> {
    fn reads(e: &CExpr) -> bool {
        let mut found = matches!(
            e,
            CExpr::Move(
                MoveField::Clock(ClockField::ClockJump | ClockField::ClockFlag),
                _
            )
        );
        e.each_child(&mut |x| found |= reads(x));
        found
    }
    rs.rules
        .iter()
        .filter(|r| matches!(&r.check, Check::Forbid { when: Some(w), .. } if reads(w)))
        .map(|r| r.id.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::pgn::{GameChunk, parse_game};
    use crate::rules::fit::Game;

    fn game(movetext: &str) -> Game {
        let text = format!(
            "[Event \"E\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n{movetext} *\n"
        );
        let pgn = parse_game(&GameChunk::of_text(0, 0, 1, text.into_bytes()));
        let replay = crate::replay::replay(&pgn);
        Game {
            path: "g.pgn".into(),
            pgn,
            replay,
        }
    }

    /// A counter rule that needs a field no move of the games has is left
    /// out of the scoring; one move that has it keeps the rule in.
    #[test]
    fn a_rule_no_move_can_make_fire_is_not_scored() {
        let src = r#"ruleset t "t" {
  regulation "r"
}
const base = 0 fit -1 to 1 step 1
let left on move = base + 10
rule t.rd "Rd as recorded" {
  cite "1" "a count"
  severity warning
  forbid on move when move.recorded_rd != none and move.recorded_rd != left
}
rule t.r50 "R50 as recorded" {
  cite "1" "a count"
  severity warning
  forbid on move when move.recorded_r50 != none and move.recorded_r50 != 50
}
"#;
        let rs = crate::rules::compile("t.rules", src).unwrap();
        let without = game("1. e4 {d=20, wv=0.30, R50=50} e5 {d=20, wv=0.30, R50=50}");
        let with = game("1. e4 {d=20, wv=0.30, R50=50, Rd=-11} e5 {d=20, wv=0.30, R50=50}");
        let seen = |games: &[&Game]| {
            let mut p = Presence::of(&rs);
            for g in games {
                p.add(&Timeline::build(&g.pgn, &g.replay));
            }
            p
        };
        assert_eq!(seen(&[&without]).never_firing(), vec!["t.rd".to_string()]);
        let ids = |s: &Ruleset| s.rules.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&scoring_ruleset(&rs, &seen(&[&without]))), ["t.r50"]);
        assert!(seen(&[&without, &with]).never_firing().is_empty());
        assert_eq!(
            ids(&scoring_ruleset(&rs, &seen(&[&without, &with]))),
            ["t.rd", "t.r50"]
        );
    }
}
