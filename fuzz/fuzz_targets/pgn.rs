//! The PGN reader and annotation parser, then replay, timeline and the
//! TCEC rules, on arbitrary bytes.
#![no_main]

#[path = "common.rs"]
#[allow(dead_code)]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // the comment parser on its own, as text
    let text = String::from_utf8_lossy(data);
    std::hint::black_box(arbiter::ingest::comments::parse_comment(&text));
    let config = arbiter::pipeline::Config {
        ruleset: Some(common::ruleset()),
        clocks: true,
        ..Default::default()
    };
    common::audit(common::games(data), &config);
});
