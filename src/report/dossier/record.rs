//! The record of inputs every report ends with: the version, the command
//! to run it again, and every file read with its SHA-256.

use std::fmt::Write as _;

use super::{escape_html, md};

/// What a report records of how it was made: its appendix.
#[derive(Debug, Clone, Default)]
pub struct Record {
    pub version: String,
    /// The command that made the report, when recorded.
    pub command: Option<String>,
    /// The ruleset: "title (id)".
    pub ruleset: Option<String>,
    /// Other lines: (what, value), e.g. the shard.
    pub notes: Vec<(String, String)>,
    /// Every file hashed: (kind, path, its SHA-256 or why it could not be
    /// read).
    pub files: Vec<(String, String, FileHash)>,
}

/// What a report records of a file it read: its SHA-256, or why it could
/// not be read (the reason as the audit said it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileHash {
    Sha256(String),
    Unreadable(String),
}

impl FileHash {
    pub fn is_unreadable(&self) -> bool {
        matches!(self, FileHash::Unreadable(_))
    }

    /// Why the file could not be read, when it could not.
    pub fn unreadable(&self) -> Option<&str> {
        match self {
            FileHash::Sha256(_) => None,
            FileHash::Unreadable(why) => Some(why),
        }
    }
}

/// The line on top of the record.
const RECORD_NOTE: &str = "Every input, log and ruleset the audit read is hashed (SHA-256) below. `arbiter verify DIR` (DIR: the folder of this report) checks every hash again, reruns the audit and compares its output with this report byte for byte.";

/// The record of inputs as HTML: one line, then the details, collapsed.
pub fn record_html(r: &Record) -> String {
    let mut o = String::from(
        "<section id=\"record\" class=\"appendix\"><h2>Appendix: record of inputs</h2>",
    );
    let _ = write!(
        o,
        "<p>{}</p>",
        escape_html(RECORD_NOTE)
            .replacen("`", "<code>", 1)
            .replacen("`", "</code>", 1)
    );
    let unreadable: Vec<_> = r.files.iter().filter(|f| f.2.is_unreadable()).collect();
    if !unreadable.is_empty() {
        o.push_str("<p class=\"error\">Could not be read:</p><ul>");
        for (kind, path, e) in unreadable {
            let _ = write!(
                o,
                "<li>{} ({}): {}</li>",
                escape_html(path),
                escape_html(kind),
                escape_html(e.unreadable().unwrap_or(""))
            );
        }
        o.push_str("</ul>");
    }
    let _ = write!(
        o,
        "<details><summary>{} file{} hashed; arbiter {}; the command</summary><table class=\"record\">",
        r.files.len(),
        if r.files.len() == 1 { "" } else { "s" },
        escape_html(&r.version)
    );
    let _ = write!(
        o,
        "<tr><th>arbiter</th><td>{}</td></tr>",
        escape_html(&r.version)
    );
    if let Some(c) = &r.command {
        let _ = write!(
            o,
            "<tr><th>command</th><td><code>{}</code></td></tr>",
            escape_html(c)
        );
    }
    if let Some(rs) = &r.ruleset {
        let _ = write!(o, "<tr><th>ruleset</th><td>{}</td></tr>", escape_html(rs));
    }
    for (k, v) in &r.notes {
        let _ = write!(
            o,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape_html(k),
            escape_html(v)
        );
    }
    o.push_str("</table><table class=\"record\"><thead><tr><th>kind</th><th>file</th><th>SHA-256</th></tr></thead><tbody>");
    for (kind, path, h) in &r.files {
        let value = match h {
            FileHash::Sha256(h) => format!("<code class=\"hash\">{}</code>", escape_html(h)),
            FileHash::Unreadable(e) => format!("unreadable: {}", escape_html(e)),
        };
        let _ = write!(
            o,
            "<tr><td>{}</td><td class=\"file\">{}</td><td>{value}</td></tr>",
            escape_html(kind),
            escape_html(path)
        );
    }
    o.push_str("</tbody></table></details></section>\n");
    o
}

/// The record of inputs as Markdown.
pub fn record_md(r: &Record) -> String {
    let mut o = String::from("<a id=\"record\"></a>\n\n## Appendix: record of inputs\n\n");
    let _ = writeln!(o, "{}\n", RECORD_NOTE);
    let _ = writeln!(o, "- arbiter {}", md(&r.version));
    if let Some(c) = &r.command {
        let c: String = c
            .chars()
            .map(|c| if c.is_control() || c == '`' { ' ' } else { c })
            .collect();
        let _ = writeln!(o, "- command: `{c}`");
    }
    if let Some(rs) = &r.ruleset {
        let _ = writeln!(o, "- ruleset: {}", md(rs));
    }
    for (k, v) in &r.notes {
        let _ = writeln!(o, "- {}: {}", md(k), md(v));
    }
    o.push_str("\n| kind | file | SHA-256 |\n|---|---|---|\n");
    for (kind, path, h) in &r.files {
        let value = match h {
            FileHash::Sha256(h) => format!("`{}`", h.replace('`', "'")),
            FileHash::Unreadable(e) => format!("unreadable: {}", md(e)),
        };
        let _ = writeln!(o, "| {} | {} | {value} |", md(kind), md(path));
    }
    o
}

/// An invocation as the command line that repeats it (arguments with
/// characters a shell would read are single-quoted).
pub fn command_line(inv: &crate::pipeline::Invocation) -> String {
    let q = |s: &str| {
        if !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c))
        {
            s.to_string()
        } else {
            format!("'{}'", s.replace('\'', "'\\''"))
        }
    };
    let mut v = vec![
        "arbiter".to_string(),
        if inv.batch.is_some() {
            "batch"
        } else {
            "audit"
        }
        .to_string(),
    ];
    v.extend(inv.paths.iter().map(|p| q(p)));
    let mut flag = |name: &str, value: &Option<String>| {
        if let Some(x) = value {
            v.push(format!("--{name}"));
            v.push(q(x));
        }
    };
    flag("rules", &inv.rules);
    flag("variant", &inv.variant);
    flag("syzygy", &inv.syzygy);
    flag("similarity", &inv.similarity);
    flag("shard", &inv.batch.as_ref().and_then(|b| b.shard.clone()));
    flag("manager-args", &inv.manager_args);
    flag("manager-config", &inv.manager_config);
    for l in &inv.manager_stdout {
        v.push("--manager-stdout".into());
        v.push(q(l));
    }
    for l in &inv.operator_logs {
        v.push("--operator-log".into());
        v.push(q(l));
    }
    for l in &inv.engine_logs {
        v.push("--engine-log".into());
        v.push(q(l));
    }
    if inv.fit {
        v.push("--fit".into());
    }
    v.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_is_quoted_for_a_shell() {
        let inv = crate::pipeline::Invocation {
            paths: vec!["samples".into(), "it's here.pgn".into()],
            rules: Some("rulesets/tcec-s15.rules".into()),
            engine_logs: vec!["e.log".into()],
            ..Default::default()
        };
        assert_eq!(
            command_line(&inv),
            "arbiter audit samples 'it'\\''s here.pgn' --rules rulesets/tcec-s15.rules --engine-log e.log"
        );
    }
}
