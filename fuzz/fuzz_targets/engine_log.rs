//! The engine-log parser, then its alignment with a real game and the
//! rules that read engine events.
#![no_main]

#[path = "common.rs"]
#[allow(dead_code)]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let log = arbiter::ingest::engine::parse(&text);
    let config = arbiter::pipeline::Config {
        ruleset: Some(common::ruleset()),
        engine_logs: vec![arbiter::ingest::logs::LoadedEngineLog {
            path: "fuzz.log".into(),
            sha256: String::new(),
            log,
        }],
        clocks: true,
        ..Default::default()
    };
    common::audit(vec![common::game()], &config);
});
