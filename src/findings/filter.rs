//! Which findings a run reports: `--select` and `--ignore` by code or
//! prefix, and `--min-severity`. A finding left out is not counted in the
//! summary nor in the exit status, and the report records the filter, so
//! that `arbiter verify` runs it again.

use super::{Finding, Severity};

/// The findings kept: those whose code (a built-in code, or a rule's id)
/// one `select` pattern names (all, where none is given), that no `ignore`
/// pattern names, and whose severity is at least `min_severity`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub min_severity: Option<Severity>,
}

/// Whether `pattern` names `code`: the code itself, or a prefix of it that
/// ends where a part of it ends (`engine-log` names `engine-log-gap`,
/// `tcec.` and `tcec` name `tcec.draw-rule`; `engine-lo` names nothing).
pub fn names(pattern: &str, code: &str) -> bool {
    let Some(rest) = code.strip_prefix(pattern) else {
        return false;
    };
    rest.is_empty() || pattern.ends_with(['-', '.']) || rest.starts_with(['-', '.'])
}

/// A severity's rank for `--min-severity`: error over warning over info;
/// a clause for manual review ranks with info (neither is a violation).
fn rank(s: Severity) -> u8 {
    match s {
        Severity::Error => 2,
        Severity::Warning => 1,
        Severity::Info | Severity::ManualReview => 0,
    }
}

impl Filter {
    /// Whether it keeps every finding.
    pub fn is_empty(&self) -> bool {
        self.select.is_empty() && self.ignore.is_empty() && self.min_severity.is_none()
    }

    /// Whether it keeps `f`.
    pub fn keeps(&self, f: &Finding) -> bool {
        let selected = self.select.is_empty() || self.select.iter().any(|p| names(p, &f.code));
        selected
            && !self.ignore.iter().any(|p| names(p, &f.code))
            && self
                .min_severity
                .is_none_or(|m| rank(f.severity) >= rank(m))
    }

    /// The patterns that name none of `codes`, each with its flag.
    pub fn unknown<'a>(&'a self, codes: &[&str]) -> Vec<(&'static str, &'a str)> {
        let flagged = (self.select.iter().map(|p| ("--select", p)))
            .chain(self.ignore.iter().map(|p| ("--ignore", p)));
        flagged
            .filter(|(_, p)| !codes.iter().any(|c| names(p, c)))
            .map(|(flag, p)| (flag, p.as_str()))
            .collect()
    }
}

/// `--min-severity`'s values, as written.
pub fn parse_severity(s: &str) -> Option<Severity> {
    match s {
        "error" => Some(Severity::Error),
        "warning" => Some(Severity::Warning),
        "info" => Some(Severity::Info),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::codes;

    fn finding(code: &str, severity: Severity) -> Finding {
        Finding::builtin(code, severity, "", String::new())
    }

    #[test]
    fn a_pattern_names_a_code_or_the_parts_it_starts_with() {
        assert!(names(codes::ENGINE_LOG_GAP.id, codes::ENGINE_LOG_GAP.id));
        assert!(names("engine-log", codes::ENGINE_LOG_GAP.id));
        assert!(names("engine-log-", codes::ENGINE_LOG_GAP.id));
        assert!(names("tcec", "tcec.draw-rule"));
        assert!(names("tcec.", "tcec.draw-rule"));
        assert!(!names("engine-lo", codes::ENGINE_LOG_GAP.id));
        assert!(!names("result", "results"));
        assert!(!names("tcec.draw-rule", "tcec.draw"));
    }

    #[test]
    fn select_then_ignore_then_severity() {
        let f = Filter {
            select: vec!["result".into(), "tcec".into()],
            ignore: vec![codes::RESULT_MARKER_MISSING.id.into()],
            min_severity: Some(Severity::Warning),
        };
        assert!(f.keeps(&finding(codes::RESULT_INVALID.id, Severity::Error)));
        assert!(f.keeps(&finding("tcec.draw-rule", Severity::Warning)));
        assert!(!f.keeps(&finding(codes::RESULT_MARKER_MISSING.id, Severity::Warning)));
        assert!(!f.keeps(&finding(codes::PLYCOUNT_MISMATCH.id, Severity::Error)));
        assert!(!f.keeps(&finding("tcec.book", Severity::Info)));
        assert!(Filter::default().keeps(&finding("x", Severity::Info)));
        assert_eq!(
            f.unknown(&[
                codes::RESULT_INVALID.id,
                codes::RESULT_MARKER_MISSING.id,
                "tcec.draw-rule"
            ]),
            Vec::<(&str, &str)>::new()
        );
        let g = Filter {
            ignore: vec!["no-such".into()],
            ..Filter::default()
        };
        assert_eq!(
            g.unknown(&[codes::RESULT_INVALID.id]),
            vec![("--ignore", "no-such")]
        );
    }
}
