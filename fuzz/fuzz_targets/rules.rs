//! The rule language: lexer, parser, analyzer on arbitrary text; a ruleset
//! that compiles is then evaluated on a real game.
#![no_main]

#[path = "common.rs"]
#[allow(dead_code)]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match arbiter::rules::compile("fuzz.rules", &text) {
        Ok(rs) => {
            let config = arbiter::pipeline::Config {
                ruleset: Some(std::sync::Arc::new(rs)),
                clocks: true,
                ..Default::default()
            };
            common::audit(vec![common::game()], &config);
        }
        Err(e) => {
            // the diagnostic renders without panicking, whatever its position
            std::hint::black_box(e.render("fuzz.rules", &text));
        }
    }
});
