//! What the library tells its user while a run goes on: an input it could
//! not read, a link it skipped, a fit it could not use, an engine's own
//! words. The library never writes to a terminal; it hands each notice, a
//! line of text, to the sink its caller installed. The command line
//! installs one that writes to standard error (`crate::cli`); a program
//! that installs none gets none, and finds the same facts in what each
//! command returns (the inputs that could not be read are in every report).

use std::sync::OnceLock;

/// Where notices go: one line at a time, from any thread.
pub type Sink = dyn Fn(&str) + Send + Sync;

static SINK: OnceLock<Box<Sink>> = OnceLock::new();

/// Install the sink, once per process; a second call is refused (`false`).
pub fn install(sink: Box<Sink>) -> bool {
    SINK.set(sink).is_ok()
}

/// Tell the user `line`, through the installed sink (none: dropped).
pub fn tell(line: &str) {
    if let Some(sink) = SINK.get() {
        sink(line);
    }
}
