//! The progress bars of long runs, on standard error: drawn on a terminal
//! and hidden when standard error is not one (piped or redirected), so
//! that nothing but the results reaches a file or another program.

use std::io::IsTerminal;

/// Whether a bar would be seen: standard error is a terminal.
pub fn on_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// A bar of `len` steps in `template` (indicatif's), drawn only when
/// `show`; hidden otherwise, so that every call on it costs nothing.
pub fn bar(len: u64, template: &str, show: bool) -> indicatif::ProgressBar {
    let bar = if show {
        indicatif::ProgressBar::new(len)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
