//! The signature's tests: synthetic fields with a derivative, clipping,
//! PV overlap, reproducible intervals, a field too small to judge.

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::shared::pv_overlap;
use super::*;

/// A deterministic pseudo-random sequence for synthetic fields.
fn noise(seed: u64) -> impl FnMut() -> f64 {
    let mut rng = Pcg64::seed_from_u64(seed);
    move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5
}

/// A field of `k` unrelated engines and a derivative of engine 0 that
/// shares its evaluation errors (scaled by `shared`), over `n`
/// positions. Moves: every engine picks the "true" move with
/// probability `agree`, else a move of its own.
fn field(k: usize, n: usize, shared: f64, agree: f64) -> (Vec<String>, Vec<Vec<Said>>) {
    let mut r = noise(7);
    let truth: Vec<f64> = (0..n).map(|_| 400.0 * r()).collect();
    let mut names: Vec<String> = (0..k).map(|i| format!("e{i}")).collect();
    names.push("derivative".into());
    let mut said: Vec<Vec<Said>> = Vec::new();
    let mut parent_err = Vec::new();
    for e in 0..=k {
        let mut v = Vec::new();
        for p in 0..n {
            let own = 100.0 * r();
            let err = if e == k {
                shared * parent_err[p] + (1.0 - shared) * own
            } else {
                own
            };
            if e == 0 {
                parent_err.push(own);
            }
            let mv = if r() + 0.5 < agree {
                "best".to_string()
            } else {
                format!("m{e}-{p}")
            };
            v.push(Said {
                mv: Some(mv.clone()),
                score: Some(truth[p] + err),
                pv: vec![mv, "reply".into()],
            });
        }
        said.push(v);
    }
    (names, said)
}

#[test]
fn a_planted_derivative_stands_out_and_unrelated_pairs_do_not() {
    let (names, said) = field(6, 300, 0.9, 0.5);
    let s = analyze(&names, &said, &Settings::default());
    let top = &s.pairs.held[0];
    assert_eq!((top.a.as_str(), top.b.as_str()), ("e0", "derivative"));
    let r = top.residual.value.unwrap();
    assert!(r > 0.8, "{r}");
    let ci = top.residual.ci.unwrap();
    assert!(ci[0] < r && r < ci[1] && ci[0] > 0.6, "{ci:?}");
    assert!(top.flagged, "{top:?}");
    assert!(top.p_value.unwrap() < 1e-3, "{top:?}");
    assert!(
        top.resamples_flagged > 900 && top.resamples_judged == 1000,
        "{top:?}"
    );
    let (hits, n) = s.measured_false_positives.unwrap();
    assert_eq!(n, 20 * 1000, "the 20 unflagged pairs, resampled");
    assert!(hits < 200, "{hits}");
    // no replicate of the 20 other pairs reaches it
    assert_eq!(top.null_replicates, 20_000);
    assert_eq!(top.residual.null_share, Some(1.0 / 20_001.0));
    assert!((z_critical(0.001) - 3.0902).abs() < 1e-3);
    assert_eq!(top.null_pairs, 20, "the other 20 pairs of 7 engines");
    for p in &s.pairs.held[1..] {
        assert!(!p.flagged, "{p:?}");
        assert!(p.residual.value.unwrap() < 0.4, "{p:?}");
    }
}

#[test]
fn shared_moves_without_shared_evaluation_are_cleared() {
    // e1 and e2 pick the same moves as each other far more often than
    // the field, but their evaluations are unrelated
    let (names, mut said) = field(6, 300, 0.0, 0.4);
    let copied: Vec<Option<String>> = said[1].iter().map(|x| x.mv.clone()).collect();
    for (p, (x, mv)) in said[2].iter_mut().zip(copied).enumerate() {
        if p % 4 != 0 {
            x.mv = mv;
        }
    }
    let s = analyze(&names, &said, &Settings::default());
    let p = s.pairs.iter().find(|p| p.a == "e1" && p.b == "e2").unwrap();
    assert!(p.flagged_by_moves, "{p:?}");
    assert!(!p.flagged, "{p:?}");
    assert!(p.residual.z.unwrap() < 2.0, "{p:?}");
}

#[test]
fn mates_are_clipped_and_missing_scores_skipped() {
    assert_eq!(clip(Some(5000), None), Some(CLIP_CP));
    assert_eq!(clip(Some(-20), None), Some(-20.0));
    assert_eq!(clip(None, Some(-3)), Some(-CLIP_CP));
    assert_eq!(clip(Some(40), Some(2)), Some(CLIP_CP));
    assert_eq!(clip(None, None), None);
    let (names, mut said) = field(4, 100, 0.0, 0.5);
    for x in &mut said[1][..40] {
        x.score = None;
    }
    let s = analyze(&names, &said, &Settings::default());
    let p = s.pairs.iter().find(|p| p.a == "e0" && p.b == "e1").unwrap();
    assert_eq!(p.residual.positions, 60);
    assert_eq!(p.moves.positions, 100);
}

#[test]
fn two_engines_alone_say_what_is_missing() {
    let (names, said) = field(1, 100, 0.9, 0.5);
    let s = analyze(&names, &said, &Settings::default());
    assert_eq!(s.consensus_positions, 0);
    assert!(s.notes[0].contains("--reference"), "{:?}", s.notes);
    let p = &s.pairs.held[0];
    assert!(p.residual.z.is_none() && !p.flagged);
    assert!(p.notes.iter().any(|n| n.contains("no other pair")), "{p:?}");
}

#[test]
fn the_same_field_gives_the_same_intervals() {
    let (names, said) = field(4, 120, 0.5, 0.5);
    let a = analyze(&names, &said, &Settings::default());
    let b = analyze(&names, &said, &Settings::default());
    assert_eq!(a, b);
    let c = analyze(
        &names,
        &said,
        &Settings {
            seed: 1,
            ..Settings::default()
        },
    );
    assert_ne!(a.pairs.held[0].residual.ci, c.pairs.held[0].residual.ci);
}

#[test]
fn declared_relatives_stay_out_of_the_other_pairs_null() {
    let (names, said) = field(4, 150, 0.5, 0.5);
    let plain = analyze(&names, &said, &Settings::default());
    let other = |s: &Signature| {
        s.pairs
            .iter()
            .find(|p| p.a == "e1" && p.b == "e2")
            .unwrap()
            .into_owned()
    };
    // 5 engines, 10 pairs: 9 in the null of each
    assert_eq!(other(&plain).null_pairs, 9);
    let declared = analyze(
        &names,
        &said,
        &Settings {
            related: vec![("derivative".into(), "e0".into())],
            ..Settings::default()
        },
    );
    assert_eq!(other(&declared).null_pairs, 8);
    let p = declared
        .pairs
        .iter()
        .find(|p| p.a == "e0" && p.b == "derivative")
        .unwrap();
    assert!(p.declared_related);
    // the declared pair is still judged, against the others
    assert_eq!(p.null_pairs, 9);
    assert!(text(&declared).contains("e0 - derivative"));
    assert!(text(&declared).contains("(declared related)"));
}

#[test]
fn pv_overlap_is_a_common_prefix() {
    let v = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    assert_eq!(pv_overlap(&v("a b c d e"), &v("a b x d e")), Some(0.5));
    assert_eq!(pv_overlap(&v("a"), &v("a b c")), Some(1.0));
    assert_eq!(pv_overlap(&v("x b"), &v("a b")), Some(0.0));
    assert_eq!(pv_overlap(&[], &v("a")), None);
}

#[test]
fn pairs_without_a_verdict_are_held_as_numbers_and_listed_as_before() {
    // seven engines over 40 positions, and one that speaks in 10 only
    let (mut names, mut said) = field(6, 40, 0.9, 0.5);
    names.push("late".into());
    said.push(said[1][..10].to_vec());
    // the pairs left are resampled a batch at a time (one pair a batch
    // in the tests)
    let set = |min_positions| Settings {
        min_positions,
        ..Settings::default()
    };
    let s = analyze(&names, &said, &set(30));
    // 28 pairs: the 7 of `late` share 10 positions, and only their
    // numbers are held
    assert_eq!(
        (s.pairs.len(), s.pairs.held.len(), s.pairs.unheld()),
        (28, 21, 7)
    );
    assert!(s.pairs.held.iter().all(|p| p.moves.positions == 40));
    let listed: Vec<Pair> = s.pairs.iter().map(|p| p.into_owned()).collect();
    // with every pair judged, the same resamples give the same values and
    // intervals
    let all = analyze(&names, &said, &set(1));
    assert_eq!(all.pairs.unheld(), 0);
    let late: Vec<&Pair> = listed.iter().filter(|p| p.b == "late").collect();
    assert_eq!(late.len(), 7);
    for p in late {
        let q = all
            .pairs
            .held
            .iter()
            .find(|q| (&q.a, &q.b) == (&p.a, &p.b))
            .unwrap();
        assert_eq!(p.moves.positions, 10);
        assert!(p.moves.ci.is_some() && p.residual.ci.is_some(), "{p:?}");
        for (x, y) in [
            (&p.moves, &q.moves),
            (&p.residual, &q.residual),
            (&p.pv, &q.pv),
        ] {
            assert_eq!((x.value, x.ci, x.positions), (y.value, y.ci, y.positions));
        }
        assert!(p.moves.z.is_none() && p.residual.z.is_none() && p.p_value.is_none());
        assert_eq!(p.notes, ["10 shared positions, fewer than 30: no verdict"]);
        assert_eq!(
            p.null_pairs,
            21 - s.pairs.held.iter().filter(|p| p.flagged).count()
        );
    }
    // written as the pairs held whole would be
    let json = serde_json::to_string(&s.pairs).unwrap();
    assert_eq!(json, serde_json::to_string(&listed).unwrap());
    let back: Vec<Pair> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.len(), 28);
}
