//! The operator-log parser, then its merge into a real game's timeline and
//! the rules that read operator events.
#![no_main]

#[path = "common.rs"]
#[allow(dead_code)]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return; // the reader refuses non-UTF-8 logs before parsing
    };
    let log = arbiter::ingest::operator::parse(text);
    let config = arbiter::pipeline::Config {
        ruleset: Some(common::ruleset()),
        operator_logs: vec![arbiter::ingest::logs::LoadedLog {
            path: "fuzz.log".into(),
            sha256: String::new(),
            log,
            round: None,
        }],
        clocks: true,
        ..Default::default()
    };
    common::audit(vec![common::game()], &config);
});
