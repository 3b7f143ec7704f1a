//! The rule language on hostile shapes (`shapes.rs`): the fuzzer's bytes
//! choose up to 8 layers of operator chains and nesting, each up to 65,535
//! long; the ruleset is compiled, and evaluated on a real game when it
//! compiles. A crash is a stack overflow or a panic; a diagnostic must lie
//! inside the source.
#![no_main]

#[path = "common.rs"]
#[allow(dead_code)]
mod common;
#[path = "shapes.rs"]
mod shapes;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = shapes::ruleset(&shapes::layers(data));
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
            assert!(
                e.pos.offset + e.pos.len <= text.len(),
                "{:?} outside the source",
                e.pos
            );
            std::hint::black_box(e.render("fuzz.rules", &text));
        }
    }
});
