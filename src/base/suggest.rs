//! "Did you mean": the closest known name to one mistyped, for the
//! diagnostics of the rule language and of the logs.

/// The closest candidate to `name` (Levenshtein distance over characters,
/// from `strsim`, at most 1/3 of its length and at least 1; of candidates
/// as close, the first in alphabetical order), for "did you mean".
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (strsim::levenshtein(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(
            suggest("scor", ["score", "side"]).as_deref(),
            Some("did you mean `score`?")
        );
        assert_eq!(suggest("xyz", ["score", "side"]), None);
    }
}
