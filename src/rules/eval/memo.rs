//! Engine options already judged. The engines of an archive are set up the
//! same way game after game, so a side's list of options (a TCEC game's
//! `WhiteEngineOptions`, a dozen or more items) is judged again and again
//! with the same result. Where the ruleset's `option` rules and `let`s read
//! nothing but the option events themselves, a side's list that held under
//! every rule once is known to hold again, and is not walked a second time.
//!
//! The memo is sound only for what it can prove from the ruleset, found
//! once ([`OptionMemo::of`]):
//!
//! - the `let`s and rules `on option` read only the option's own fields,
//!   literals, constants, the pure builtins, each other's `let`s, and
//!   stateful calls kept `per: option.side` (so a side's state is its own);
//!   no switch, no game tag or field, no move, no detector;
//! - nothing else (a `let` or rule of another kind) reads a `let on
//!   option` (an option rule's message may: it is made only where the
//!   rule does not hold, and such a run is walked every time).
//!
//! Then a side's option events, one run of them in the game, give the same
//! verdicts wherever they appear, given the program's constants. The memo
//! keeps only runs at which every rule held: a run with a finding or an
//! undecided verdict is walked every time, so its findings, evidence and
//! messages are made as before. Each run is keyed by its content (side,
//! then each option's name, raw text and value) and the constants it was
//! judged with.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use super::reads::Inputs;
use crate::base::value::Value;
use crate::ingest::comments::OptionValue;
use crate::rules::analysis::{Builtin, CExpr, Check, RuleDef, Ruleset};
use crate::timeline::{Data, Kind, Timeline};

/// The runs' keys kept take at most this many bytes in all (a TCEC side's
/// run of 15 options is about 500); past it, a run not yet known is walked
/// as before.
const MAX_BYTES: usize = 1 << 20;
/// At most this many sets of constants are held for the keys.
const MAX_CONSTS: usize = 64;

/// What a ruleset's plan keeps to skip option runs already judged.
#[derive(Debug, Default)]
pub(crate) struct OptionMemo {
    known: Mutex<Known>,
}

#[derive(Debug, Default)]
struct Known {
    runs: HashSet<Vec<u8>>,
    /// The bytes of `runs`' keys.
    bytes: usize,
    /// The constants the runs were judged with, held so that the address
    /// each key begins with is not given to other constants while a key
    /// names it.
    consts: Vec<Arc<[Value]>>,
}

thread_local! {
    /// The thread's buffer for the runs' keys, kept from game to game.
    static KEY: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A buffer for a run's key, taken from the thread and given back to it
/// when dropped, so that a game's keys allocate nothing once the thread has
/// made one as long (one not longer than [`MAX_BYTES`] is kept).
pub(super) struct Key(Vec<u8>);

impl Key {
    pub(super) fn take() -> Key {
        Key(KEY
            .try_with(|k| std::mem::take(&mut *k.borrow_mut()))
            .unwrap_or_default())
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.0);
        if v.capacity() <= MAX_BYTES {
            v.clear();
            let _ = KEY.try_with(|k| *k.borrow_mut() = v);
        }
    }
}

/// A run of consecutive option events of one side: `start..end`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct OptionRun {
    pub(super) start: usize,
    pub(super) end: usize,
}

impl OptionMemo {
    /// The memo for a ruleset whose option `let`s and rules can be skipped
    /// as above; `None` for any other (or one without any).
    pub(super) fn of(rs: &Ruleset) -> Option<OptionMemo> {
        let on_option = |k: Kind| k == Kind::Option;
        let lets: Vec<usize> = (0..rs.lets.len())
            .filter(|&j| on_option(rs.lets[j].on))
            .collect();
        let is_option_rule = |r: &RuleDef| matches!(&r.check, Check::Forbid { on, .. } | Check::Require { on, .. } if on_option(*on));
        if lets.is_empty() && !rs.rules.iter().any(is_option_rule) {
            return None;
        }
        // what option `let`s and rules evaluate reads the event alone
        let own = rs
            .lets
            .iter()
            .filter(|l| on_option(l.on))
            .map(|l| &l.expr)
            .chain(
                rs.rules
                    .iter()
                    .filter(|r| is_option_rule(r))
                    .flat_map(RuleDef::evaluated),
            )
            .all(|e| reads_the_option_alone(e, &lets));
        // and nothing else reads an option `let` (an option rule's message
        // may: it is made where the rule does not hold, and such a run is
        // walked every time)
        let elsewhere = Inputs::of(
            rs.lets
                .iter()
                .filter(|l| !on_option(l.on))
                .map(|l| &l.expr)
                .chain(
                    rs.rules
                        .iter()
                        .filter(|r| !is_option_rule(r))
                        .flat_map(RuleDef::expressions),
                ),
        );
        let read_elsewhere = elsewhere.lets.iter().any(|l| lets.contains(l));
        (own && !read_elsewhere).then(OptionMemo::default)
    }

    /// Whether `run` of `tl`'s events, judged with `consts`, held under
    /// every rule before. `key` is left holding the run's key, for
    /// [`OptionMemo::keep`].
    pub(super) fn held(
        &self,
        tl: &Timeline<'_>,
        run: OptionRun,
        consts: &Arc<[Value]>,
        key: &mut Key,
    ) -> bool {
        let key = &mut key.0;
        key.clear();
        key.extend_from_slice(&(Arc::as_ptr(consts).cast::<u8>() as usize).to_le_bytes());
        for ev in &tl.events[run.start..run.end] {
            let Data::Option {
                side,
                name,
                value,
                raw,
                ..
            } = &ev.data
            else {
                continue;
            };
            key.push(u8::from(side.is_white()));
            for text in [*name, *raw] {
                key.extend_from_slice(&(text.len() as u32).to_le_bytes());
                key.extend_from_slice(text.as_bytes());
            }
            match value {
                OptionValue::Int(i) => {
                    key.push(0);
                    key.extend_from_slice(&i.to_le_bytes());
                }
                OptionValue::Bool(b) => key.extend_from_slice(&[1, u8::from(*b)]),
                OptionValue::Text(t) => {
                    key.push(2);
                    key.extend_from_slice(&(t.len() as u32).to_le_bytes());
                    key.extend_from_slice(t.as_bytes());
                }
            }
        }
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known.runs.contains(key.as_slice())
    }

    /// Keep the run whose key [`OptionMemo::held`] left in `key`, at which
    /// every rule held.
    pub(super) fn keep(&self, consts: &Arc<[Value]>, key: &Key) {
        let key = key.0.as_slice();
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.bytes + key.len() > MAX_BYTES {
            return;
        }
        if !known.consts.iter().any(|c| Arc::ptr_eq(c, consts)) {
            if known.consts.len() >= MAX_CONSTS {
                return;
            }
            known.consts.push(Arc::clone(consts));
        }
        if known.runs.insert(key.to_vec()) {
            known.bytes += key.len();
        }
    }
}

/// A game's runs of option events, one per side at most (`None` when a
/// side has two runs, whose second would start from the first's state, or
/// when there are no option events).
pub(super) fn runs(tl: &Timeline<'_>) -> Option<[Option<OptionRun>; 2]> {
    let mut runs: [Option<OptionRun>; 2] = [None, None];
    let white_at =
        |i: usize| matches!(&tl.events[i].data, Data::Option { side, .. } if side.is_white());
    let mut n = 0;
    let mut i = 0;
    while i < tl.events.len() {
        let Data::Option { side, .. } = &tl.events[i].data else {
            i += 1;
            continue;
        };
        let white = side.is_white();
        let start = i;
        while i < tl.events.len()
            && matches!(&tl.events[i].data, Data::Option { side, .. } if side.is_white() == white)
        {
            i += 1;
        }
        if n == 2
            || runs[..n]
                .iter()
                .flatten()
                .any(|r| white_at(r.start) == white)
        {
            return None;
        }
        runs[n] = Some(OptionRun { start, end: i });
        n += 1;
    }
    (n > 0).then_some(runs)
}

/// Whether `e`, evaluated at an option event, reads nothing but that
/// event, the constants and the `lets` (themselves such), with its state
/// kept per side.
fn reads_the_option_alone(e: &CExpr, lets: &[usize]) -> bool {
    let own = match e {
        CExpr::Lit(_) | CExpr::Const(_) | CExpr::List(_) => true,
        CExpr::Field(kind, _) => *kind == Kind::Option,
        CExpr::Let(l) => lets.contains(l),
        CExpr::Unary(..) | CExpr::Binary(..) | CExpr::Short(..) | CExpr::If(..) => true,
        CExpr::Call(b, _) => !matches!(b, Builtin::Tag),
        CExpr::Stateful(s) => {
            s.on == Kind::Option && matches!(&s.per, Some(CExpr::Field(Kind::Option, "side")))
        }
        CExpr::Switch(_) | CExpr::Move(..) | CExpr::Detector(..) => false,
    };
    let mut children = true;
    e.each_child(&mut |x| children &= reads_the_option_alone(x, lets));
    own && children
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compile;
    use crate::rules::eval::Detectors;
    use crate::rules::eval::plan::Plan;
    use crate::timeline::Timeline;

    const HEAD: &str = "ruleset t \"T\" { regulation \"r\" }\nconst max_threads = 4\n";

    /// The rules `on option` of the test ruleset: a limit, and a `let`
    /// summing each side's hash options, which its message reads.
    const RULES: &str = "let hash_mb on option = sum(option.value, over: lower(option.name) == \"hash\", per: option.side)\n\
        rule t.threads \"Threads\" {\n  cite \"1\" \"x\"\n  message \"{option.side} runs {option.name}={option.raw}\"\n  forbid on option when option.name == \"Threads\" and option.value > max_threads\n}\n\
        rule t.hash \"Hash\" {\n  cite \"2\" \"y\"\n  message \"{option.side} hashes add up to {hash_mb}\"\n  forbid on option when hash_mb > 1024\n}\n";

    fn game(white: &str, black: &str, n: usize) -> String {
        format!(
            "[Event \"e\"]\n[Round \"{n}\"]\n[White \"w{n}\"]\n[Black \"b{n}\"]\n[Result \"*\"]\n\n\
             {{WhiteEngineOptions: {white};, BlackEngineOptions: {black};}}\n1. e4 e5 *\n\n"
        )
    }

    /// The findings of each game of `pgn` judged with `rs`, or with a
    /// ruleset compiled from `fresh` for each game (which has seen no other
    /// game), as JSON.
    fn findings(rs: &Ruleset, fresh: Option<&str>, pgn: &str) -> Vec<String> {
        let mut split = crate::ingest::pgn::GameSplitter::new(pgn.as_bytes());
        let mut out = Vec::new();
        while let Some(chunk) = split.next_chunk().expect("reads") {
            let game = crate::ingest::pgn::parse_game(&chunk);
            let replay = crate::replay::replay(&game);
            let tl = Timeline::build(&game, &replay);
            let own = fresh.map(|src| compile("t.rules", src).expect("compiles"));
            let j = crate::rules::judge::judge(
                own.as_ref().unwrap_or(rs),
                None,
                None,
                &tl,
                &Detectors::default(),
                "t.pgn",
                false,
            )
            .expect("judged");
            out.push(serde_json::to_string(&j.findings).expect("serialises"));
        }
        out
    }

    fn known(rs: &Ruleset) -> usize {
        let memo = Plan::of(rs).options.as_ref().expect("the memo applies");
        memo.known.lock().expect("not poisoned").runs.len()
    }

    /// A run that held once is skipped after, and every game's findings
    /// are those of the same game judged by a ruleset that has seen no
    /// other game: a run with a finding is found again each time, also
    /// beside a run of the other side skipped as held; a side's hash options
    /// add up within its own run only.
    #[test]
    fn skipped_runs_give_the_findings_of_a_fresh_walk() {
        let clean = "Threads=2; Hash=512";
        let games = [
            game(clean, "Threads=8; Hash=256", 1),
            game(clean, clean, 2),
            game(clean, "Threads=8; Hash=256", 3),
            game("Hash=600; hash=600", clean, 4),
            game("Hash=600; hash=600", clean, 5),
            game(clean, "Threads=2; Hash=512; Hash=512", 6),
            game("Threads=2; Hash=512; Threads=16", clean, 7),
        ];
        let pgn = games.concat();
        let src = format!("{HEAD}{RULES}");
        let shared = compile("t.rules", &src).expect("compiles");
        // twice: the second time every clean run is known
        let first = findings(&shared, None, &pgn);
        let runs = known(&shared);
        let second = findings(&shared, None, &pgn);
        assert_eq!(known(&shared), runs, "nothing new is kept the second time");
        // the clean runs: white's and black's `clean`, black's 1024 MB
        assert_eq!(runs, 3, "the runs at which every rule held");
        let fresh = findings(&shared, Some(&src), &pgn);
        assert_eq!(first, fresh);
        assert_eq!(second, fresh);
        let counts: Vec<usize> = fresh
            .iter()
            .map(|f| f.matches("\"rule\"").count())
            .collect();
        assert_eq!(
            counts,
            [1, 0, 1, 1, 1, 0, 1],
            "the findings each game must have"
        );
    }

    /// A run held under one variant's constants is walked again under
    /// another's: the same options break a stricter limit.
    #[test]
    fn a_run_held_with_one_constant_is_judged_again_with_another() {
        let strict = "variant strict {\n  applies when game.event == \"strict\"\n  const max_threads = 1\n}\n";
        let src = format!("{HEAD}{RULES}{strict}");
        let rs = compile("t.rules", &src).expect("compiles");
        let options = "Threads=2; Hash=512";
        let pgn = [game(options, options, 1), game(options, options, 2)]
            .concat()
            .replacen("[Event \"e\"]", "[Event \"strict\"]", 1);
        let pgn = format!("{}{}", game(options, options, 0), pgn);
        let got = findings(&rs, None, &pgn);
        assert_eq!(got, findings(&rs, Some(&src), &pgn));
        let counts: Vec<usize> = got.iter().map(|f| f.matches("\"rule\"").count()).collect();
        assert_eq!(counts, [0, 2, 0], "Threads=2 breaks the strict limit alone");
    }

    /// The keys kept stay within their bound: past it, a run is walked.
    #[test]
    fn the_memo_keeps_at_most_its_bound() {
        let memo = OptionMemo::default();
        let consts: Arc<[Value]> = Arc::from(vec![Value::Num(1.0)]);
        let key = |b: u8| vec![b; MAX_BYTES / 2];
        for k in [key(1), key(1), key(2), vec![3]] {
            memo.keep(&consts, &Key(k));
        }
        let known = memo.known.lock().expect("not poisoned");
        assert_eq!(known.bytes, MAX_BYTES);
        assert!(known.runs.contains(&key(1)) && known.runs.contains(&key(2)));
        assert!(!known.runs.contains(&[3][..]), "one byte past the bound");
    }

    /// The memo applies only where the option rules and `let`s read the
    /// event alone and nothing else reads their `let`s.
    #[test]
    fn the_memo_applies_only_to_rules_that_read_the_option_alone() {
        let applies = |extra: &str| {
            let src = format!("{HEAD}switch s = true fit \"f\"\n{RULES}{extra}");
            let rs = compile("t.rules", &src).expect("compiles");
            Plan::of(&rs).options.is_some()
        };
        assert!(applies(""));
        let rule = |cond: &str| {
            format!("rule t.x \"X\" {{\n  cite \"3\" \"z\"\n  forbid on option when {cond}\n}}\n")
        };
        assert!(applies(&rule(
            "contains(option.raw, \"x\") or option.value == none"
        )));
        assert!(!applies(&rule("option.name == game.white")), "a game field");
        assert!(!applies(&rule("option.name == tag(\"White\")")), "a tag");
        assert!(!applies(&rule("s and option.value == true")), "a switch");
        assert!(
            !applies(&rule("count(true) > 3")),
            "state shared by the sides"
        );
        assert!(
            !applies(&rule("count(true, per: option.name) > 3")),
            "state kept per name, across the sides"
        );
        let elsewhere =
            "rule t.m \"M\" {\n  cite \"4\" \"w\"\n  forbid on move when hash_mb > 0\n}\n";
        assert!(!applies(elsewhere), "a move rule reads an option `let`");
        assert!(
            !applies("let again on end = hash_mb\n"),
            "another kind's `let` reads one"
        );
    }
}
