//! Whole reports compared with their snapshots (`tests/snapshots/`,
//! reviewed with `cargo insta review`): the text report and the JSON lines
//! of one case whose engine log has a line cut short, so that an input
//! error as a report shows it (a finding at the line) is pinned too.
//! `tests/identical.rs` pins the reports of whole archives by digest.

use super::{arbiter, json_lines, stdout};

const CASE: &str = "samples/kasparov-deep-junior-2003/truncated-line";

#[test]
fn text_report() {
    let o = arbiter(&["audit", CASE]);
    assert_eq!(o.status.code(), Some(1), "errors found");
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    // the snapshot's comparison ignores a final line ending: checked here
    assert!(stdout(&o).ends_with("\n"));
    insta::assert_snapshot!("text_report", stdout(&o));
}

#[test]
fn json_lines_report() {
    let o = arbiter(&["audit", "--format", "json", CASE]);
    assert_eq!(o.status.code(), Some(1), "errors found");
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    // every line is JSON, the last the summary
    let lines = json_lines(&o);
    assert_eq!(lines.last().map(|l| &l["type"]), Some(&"summary".into()));
    assert!(stdout(&o).ends_with("}\n"));
    insta::assert_snapshot!("json_lines_report", stdout(&o));
}
