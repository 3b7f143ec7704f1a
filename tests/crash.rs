//! A panic (a bug in arbiter) ends the run with exit status 2, the status
//! of a run that could not finish, whether the build unwinds (the tests'
//! build) or aborts (the release build): `cli::exit_on_panic`, which `main`
//! installs first.

use std::process::Command;

/// The child's switch: set, the test panics on a thread of its own (as a
/// batch's worker would) under the hook; unset, it runs itself as that
/// child and checks how the child ended.
const CHILD: &str = "ARBITER_PANIC_CHILD";

#[test]
fn a_panic_ends_the_run_with_status_2() {
    if std::env::var_os(CHILD).is_some() {
        arbiter::cli::exit_on_panic();
        let joined = std::thread::spawn(|| panic!("a deliberate panic, in a test")).join();
        // reached only where the hook did not end the process: status 0,
        // which the parent refuses
        eprintln!("the panic was caught by join: {}", joined.is_err());
        std::process::exit(0);
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args([
            "crash::a_panic_ends_the_run_with_status_2",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs again");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "the child's status; its stderr:\n{err}"
    );
    assert!(
        err.contains("a deliberate panic, in a test"),
        "the panic's own message: {err}"
    );
    assert!(
        err.contains("arbiter: internal error (a bug in arbiter, not a fault of the input)"),
        "what it is: {err}"
    );
}
