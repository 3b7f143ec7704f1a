//! An engine option's texts as values: made the first time a rule reads
//! them, one copy a thread for the texts an archive repeats.

use crate::base::interner::Interner;
use crate::base::value::Text;

/// An engine option's texts as values, each made the first time a rule
/// reads it and shared by the reads after (a ruleset reads an option's name
/// in several rules: one copy, not one a read).
#[derive(Debug, Clone, Default)]
pub struct OptionTexts {
    pub(super) name: std::sync::OnceLock<Text>,
    pub(super) value: std::sync::OnceLock<Text>,
    pub(super) raw: std::sync::OnceLock<Text>,
}

/// The most option texts a thread keeps one copy of, and the longest (in
/// bytes): past them, a text is made anew for its option, so that a file
/// of ever new or huge options keeps at most about a megabyte a thread.
const OPTION_TEXTS_KEPT: usize = 4096;
const OPTION_TEXT_LONGEST: usize = 256;

/// An option's text as a value: the thread's one copy of it. The engines of
/// an archive set the same options game after game, so that a game's
/// options make no new text once their engines have played.
pub(super) fn option_text(s: &str) -> Text {
    if s.len() > OPTION_TEXT_LONGEST {
        return s.into();
    }
    thread_local! {
        static KEPT: std::cell::RefCell<Interner> = std::cell::RefCell::new(Interner::default());
    }
    KEPT.try_with(|kept| {
        let mut kept = kept.try_borrow_mut().ok()?;
        kept.get_within(s, OPTION_TEXTS_KEPT).map(Text::Shared)
    })
    .ok()
    .flatten()
    .unwrap_or_else(|| s.into())
}

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    use super::*;
    use crate::base::value::Value;
    use crate::timeline::{Kind, Timeline, side_str};

    fn shared(t: &Text) -> &std::sync::Arc<str> {
        match t {
            Text::Shared(a) => a,
            Text::Static(s) => panic!("{s:?} is not a shared text"),
        }
    }

    #[test]
    fn an_interner_past_its_bound_gives_only_what_it_keeps() {
        let mut kept: Interner = Interner::default();
        let a = kept.get_within("Hash", 1).expect("room for one");
        assert_eq!(kept.get_within("Threads", 1), None);
        let b = kept.get_within("Hash", 1).expect("kept");
        assert!(std::sync::Arc::ptr_eq(&a, &b));
        // without a bound, every text is kept
        assert_eq!(&*kept.get("Threads"), "Threads");
        assert!(kept.get_within("Threads", 1).is_some());
    }

    /// Each option event gives its own option's side, name, value and raw
    /// text, and a text read twice is the one made the first time (kept
    /// beside the events), even one too long for the thread's copies.
    #[test]
    fn an_option_events_texts_are_its_options_and_made_once() {
        let long = "x".repeat(OPTION_TEXT_LONGEST + 1);
        let pgn = format!(
            "[Event \"E\"]\n\n{{WhiteEngineOptions: Threads=4; SyzygyPath={long};, BlackEngineOptions: Hash=128; Ponder=true;}}\n1. e4 e5 *\n\n"
        );
        let (game, replay) = crate::replay::tests::replayed(&pgn);
        let tl = Timeline::build(&game, &replay);
        let options: Vec<usize> = (0..tl.events.len())
            .filter(|&i| tl.events[i].kind == Kind::Option)
            .collect();
        let read = |i: usize, f: &str| tl.field(i, Kind::Option, f);
        let seen: Vec<(Value, Value, Value)> = options
            .iter()
            .map(|&i| (read(i, "side"), read(i, "name"), read(i, "value")))
            .collect();
        assert_eq!(
            seen,
            [
                (
                    side_str(Color::White),
                    Value::Str("Threads".into()),
                    Value::Num(4.0)
                ),
                (
                    side_str(Color::White),
                    Value::Str("SyzygyPath".into()),
                    Value::Str(long.as_str().into())
                ),
                (
                    side_str(Color::Black),
                    Value::Str("Hash".into()),
                    Value::Num(128.0)
                ),
                (
                    side_str(Color::Black),
                    Value::Str("Ponder".into()),
                    Value::Bool(true)
                ),
            ]
        );
        let (Value::Str(a), Value::Str(b)) = (read(options[1], "value"), read(options[1], "value"))
        else {
            panic!("the path is a text");
        };
        assert!(std::sync::Arc::ptr_eq(shared(&a), shared(&b)));
        assert_eq!(read(options[2], "raw"), Value::Str("128".into()));
    }

    #[test]
    fn an_option_text_is_kept_once_a_thread_unless_it_is_long() {
        let (a, b) = (option_text("Hash"), option_text("Hash"));
        assert_eq!(a, "Hash");
        assert!(std::sync::Arc::ptr_eq(shared(&a), shared(&b)));
        let long = "x".repeat(OPTION_TEXT_LONGEST + 1);
        let (c, d) = (option_text(&long), option_text(&long));
        assert_eq!(c, long.as_str());
        assert!(!std::sync::Arc::ptr_eq(shared(&c), shared(&d)));
        // another thread keeps its own copy
        let other = std::thread::spawn(|| option_text("Hash")).join().unwrap();
        assert_eq!(other, "Hash");
        assert!(!std::sync::Arc::ptr_eq(shared(&a), shared(&other)));
    }
}
