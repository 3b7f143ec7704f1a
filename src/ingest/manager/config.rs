//! fastchess's `config.json` (the settings file it writes after a run,
//! and reads back with `-config file=…`) read as the adjudication flags
//! it stands for, in the form `--manager-args` takes: `draw`, `resign`,
//! `maxmoves` and `tb_adjudication` where `enabled`, and the engines'
//! shared `limit.tc` as `-each tc=… timemargin=…`. fastchess does not
//! write `-tbadjudicate` into the file (its `result_type` is not
//! serialised): the flags carry none, so the ruleset's default holds.
//!
//! fishtest's task JSON (a run's record, `{"args": {"tc": "60+0.6", …}}`)
//! is read too: its run's `tc` as `-each tc=…` (the control its workers
//! scale to their speed), and `adjudication: false` as no `-draw` and no
//! `-resign`. With `adjudication: true` the flags carry none: the
//! ruleset's `fishtest` variant holds the worker's.

use serde_json::Value as Json;

/// Why a `config.json` could not be read as settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigFileError {
    #[error("not JSON ({0}): a fastchess config.json or a fishtest task JSON was expected")]
    NotJson(String),
    #[error("`{key}`: {expected}")]
    Field { key: String, expected: String },
}

fn field(key: &str, expected: &str) -> ConfigFileError {
    ConfigFileError::Field {
        key: key.to_string(),
        expected: expected.to_string(),
    }
}

/// The object at `key` of `root` (`draw`), if there is one.
fn object<'j>(root: &'j Json, key: &str) -> Result<Option<&'j Json>, ConfigFileError> {
    match root.get(key) {
        None => Ok(None),
        Some(v) if v.is_object() => Ok(Some(v)),
        Some(_) => Err(field(key, "expected an object")),
    }
}

/// `obj.key` as a whole number.
fn int(obj: &Json, at: &str, key: &str) -> Result<i64, ConfigFileError> {
    obj.get(key)
        .and_then(Json::as_i64)
        .ok_or_else(|| field(&format!("{at}.{key}"), "expected a whole number"))
}

/// `obj.key` as true or false.
fn boolean(obj: &Json, at: &str, key: &str) -> Result<bool, ConfigFileError> {
    obj.get(key)
        .and_then(Json::as_bool)
        .ok_or_else(|| field(&format!("{at}.{key}"), "expected true or false"))
}

/// Whether section `at` is switched on (`enabled`; a section with no
/// `enabled` is refused: fastchess always writes it).
fn enabled(obj: &Json, at: &str) -> Result<bool, ConfigFileError> {
    boolean(obj, at, "enabled")
}

/// The flags `text` (a fastchess `config.json`) stands for, as
/// `--manager-args` takes them.
pub fn flags(text: &str) -> Result<String, ConfigFileError> {
    let root: Json =
        serde_json::from_str(text).map_err(|e| ConfigFileError::NotJson(e.to_string()))?;
    if !root.is_object() {
        return Err(ConfigFileError::NotJson("not an object".into()));
    }
    if let Some(args) = root.get("args")
        && args.get("tc").is_some()
    {
        return fishtest(args);
    }
    let mut out: Vec<String> = Vec::new();
    if let Some(d) = object(&root, "draw")?
        && enabled(d, "draw")?
    {
        out.push(format!(
            "-draw movenumber={} movecount={} score={}",
            int(d, "draw", "move_number")?,
            int(d, "draw", "move_count")?,
            int(d, "draw", "score")?
        ));
    }
    if let Some(r) = object(&root, "resign")?
        && enabled(r, "resign")?
    {
        out.push(format!(
            "-resign movecount={} score={} twosided={}",
            int(r, "resign", "move_count")?,
            int(r, "resign", "score")?,
            boolean(r, "resign", "twosided")?
        ));
    }
    if let Some(m) = object(&root, "maxmoves")?
        && enabled(m, "maxmoves")?
    {
        out.push(format!("-maxmoves {}", int(m, "maxmoves", "move_count")?));
    }
    if let Some(t) = object(&root, "tb_adjudication")?
        && enabled(t, "tb_adjudication")?
    {
        let at = "tb_adjudication";
        // 0: no limit (fastchess probes whatever the tables hold)
        match int(t, at, "max_pieces")? {
            0 => out.push("-tb TABLES".into()),
            n => out.push(format!("-tb TABLES -tbpieces {n}")),
        }
        if boolean(t, at, "ignore_50_move_rule")? {
            out.push("-tbignore50".into());
        }
    }
    out.extend(time_control(&root)?);
    Ok(out.join(" "))
}

/// The flags of a fishtest run's `args`: its `tc` (a run whose new engine
/// plays another, `new_tc`, is refused: the rules read one control), and
/// no adjudication where `adjudication` is false.
fn fishtest(args: &Json) -> Result<String, ConfigFileError> {
    let text = |key: &str| {
        args.get(key)
            .map(|v| {
                v.as_str()
                    .filter(|s| !s.is_empty() && !s.contains(char::is_whitespace))
                    .ok_or_else(|| field(&format!("args.{key}"), "expected a time control"))
            })
            .transpose()
    };
    let Some(tc) = text("tc")? else {
        return Ok(String::new());
    };
    if let Some(new) = text("new_tc")?
        && new != tc
    {
        return Err(field(
            "args.new_tc",
            "the engines' clocks differ; arbiter judges a match under one time control",
        ));
    }
    let mut out = Vec::new();
    if args.get("adjudication").is_some() && !boolean(args, "args", "adjudication")? {
        out.push("-draw movenumber=0 movecount=0 score=0 -resign movecount=0 score=0".to_string());
    }
    out.push(format!("-each tc={tc}"));
    Ok(out.join(" "))
}

/// `-each tc=… timemargin=…` from the engines' `limit.tc`, when they all
/// have the same and it is a clock (`time` above 0); engines with
/// different clocks are refused (the rules read one control).
fn time_control(root: &Json) -> Result<Option<String>, ConfigFileError> {
    let Some(engines) = root.get("engines") else {
        return Ok(None);
    };
    let engines = engines
        .as_array()
        .ok_or_else(|| field("engines", "expected a list"))?;
    let mut seen: Option<(i64, i64, i64, i64)> = None;
    for (i, e) in engines.iter().enumerate() {
        let at = format!("engines[{i}].limit.tc");
        let tc = e
            .get("limit")
            .and_then(|l| l.get("tc"))
            .ok_or_else(|| field(&at, "expected an object"))?;
        let this = (
            int(tc, &at, "moves")?,
            int(tc, &at, "time")?,
            int(tc, &at, "increment")?,
            int(tc, &at, "timemargin")?,
        );
        if seen.is_some_and(|s| s != this) {
            return Err(field(
                &at,
                "the engines' clocks differ; arbiter judges a match under one time control",
            ));
        }
        seen = Some(this);
    }
    let Some((moves, time, inc, margin)) = seen.filter(|s| s.1 > 0) else {
        return Ok(None);
    };
    let secs = |ms: i64| crate::base::value::fmt_num(ms as f64 / 1000.0);
    let mut tc = String::new();
    if moves > 0 {
        tc.push_str(&format!("{moves}/"));
    }
    tc.push_str(&secs(time));
    if inc > 0 {
        tc.push_str(&format!("+{}", secs(inc)));
    }
    Ok(Some(format!("-each tc={tc} timemargin={margin}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enabled_sections_become_flags() {
        let text = r#"{"draw": {"move_number": 20, "move_count": 2, "score": 30, "enabled": true},
            "resign": {"move_count": 1, "score": 0, "twosided": false, "enabled": false},
            "maxmoves": {"move_count": 60, "enabled": true},
            "tb_adjudication": {"syzygy_dirs": "", "max_pieces": 5, "ignore_50_move_rule": true, "enabled": true},
            "engines": [{"limit": {"tc": {"increment": 29, "fixed_time": 0, "time": 3000, "moves": 0, "timemargin": 50}}},
                        {"limit": {"tc": {"increment": 29, "fixed_time": 0, "time": 3000, "moves": 0, "timemargin": 50}}}]}"#;
        assert_eq!(
            flags(text).unwrap(),
            "-draw movenumber=20 movecount=2 score=30 -maxmoves 60 -tb TABLES -tbpieces 5 -tbignore50 -each tc=3+0.029 timemargin=50"
        );
    }

    #[test]
    fn a_fishtest_task_gives_its_runs_tc() {
        let task = r#"{"_id": "65a3aca1", "args": {"adjudication": true, "tc": "60+0.6", "new_tc": "60+0.6", "threads": 1}, "tc_base": 60.0}"#;
        assert_eq!(flags(task).unwrap(), "-each tc=60+0.6");
        let off = r#"{"args": {"adjudication": false, "tc": "10+0.1"}}"#;
        assert_eq!(
            flags(off).unwrap(),
            "-draw movenumber=0 movecount=0 score=0 -resign movecount=0 score=0 -each tc=10+0.1"
        );
        let odds = r#"{"args": {"tc": "10+0.1", "new_tc": "20+0.2"}}"#;
        assert!(flags(odds).unwrap_err().to_string().contains("args.new_tc"));
        let bad = r#"{"args": {"tc": 60}}"#;
        assert_eq!(
            flags(bad).unwrap_err().to_string(),
            "`args.tc`: expected a time control"
        );
    }

    #[test]
    fn what_is_not_a_config_is_refused_by_key() {
        assert!(matches!(flags("[1]"), Err(ConfigFileError::NotJson(_))));
        assert!(matches!(flags("{"), Err(ConfigFileError::NotJson(_))));
        let e = flags(
            r#"{"draw": {"move_number": "x", "move_count": 2, "score": 30, "enabled": true}}"#,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "`draw.move_number`: expected a whole number");
        let e = flags(r#"{"resign": {"enabled": 1}}"#).unwrap_err();
        assert_eq!(e.to_string(), "`resign.enabled`: expected true or false");
        let two = r#"{"engines": [{"limit": {"tc": {"increment": 0, "time": 1000, "moves": 0, "timemargin": 0}}},
            {"limit": {"tc": {"increment": 0, "time": 2000, "moves": 0, "timemargin": 0}}}]}"#;
        let e = flags(two).unwrap_err();
        assert!(e.to_string().contains("engines[1].limit.tc"), "{e}");
        assert_eq!(flags("{}").unwrap(), "");
    }
}
