//! `--manager-args`: a match's adjudication settings given as the flags the
//! match manager ran with (`-draw movenumber=34 movecount=8 score=20
//! -resign movecount=3 score=600`), turned into the values of the
//! ruleset's constants named after them (`rulesets/managers.rules`:
//! `draw_movenumber`, `resign_score`, …).
//!
//! The flags fastchess and cutechess-cli share are read: `-draw`,
//! `-resign` (with `twosided=`), `-maxmoves`, `-tb`, `-tbpieces`,
//! `-tbignore50`, fastchess's `-tbadjudicate`, and the time control and
//! margin of `-each tc=TC timemargin=MS` (or `-engine …`). Any other flag or setting is an
//! error that names it: the audit must not look as if it ran under a
//! setting it did not read.

use crate::base::value::Value;
use crate::rules::analysis::Ruleset;
use crate::rules::eval::Overrides;

/// Why `--manager-args` could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManagerArgsError {
    #[error(
        "--manager-args: {flag:?} is not an adjudication flag arbiter reads (it reads -draw, -resign, -maxmoves, -tb, -tbpieces, -tbignore50, -tbadjudicate and -each tc= timemargin=; give only those)"
    )]
    UnknownFlag { flag: String },
    #[error("--manager-args: {flag} {item:?}: {expected}")]
    BadValue {
        flag: String,
        item: String,
        expected: String,
    },
    #[error(
        "--manager-args: ruleset {ruleset} has no constant `{name}` for {flag}: use a ruleset that models the managers' options (rulesets/managers.rules)"
    )]
    NoConstant {
        ruleset: String,
        name: String,
        flag: String,
    },
}

/// The constants' values the flags in `text` give, by name, in the order
/// given (a later flag wins), with the flag each came from.
pub fn parse(text: &str) -> Result<Vec<(&'static str, Value, String)>, ManagerArgsError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    let mut tb_given = false;
    let mut pieces_given = false;
    let mut i = 0;
    while i < words.len() {
        let flag = words[i];
        i += 1;
        // the key=value items that follow the flag
        let mut items = Vec::new();
        while i < words.len() && !words[i].starts_with('-') {
            items.push(words[i]);
            i += 1;
        }
        match flag {
            "-draw" | "-resign" => {
                let keys: &[(&str, &'static str)] = if flag == "-draw" {
                    &[
                        ("movenumber", "draw_movenumber"),
                        ("movecount", "draw_movecount"),
                        ("score", "draw_score"),
                    ]
                } else {
                    &[
                        ("movecount", "resign_movecount"),
                        ("score", "resign_score"),
                        ("twosided", "resign_twosided"),
                    ]
                };
                for item in items {
                    let bad = |expected: &str| ManagerArgsError::BadValue {
                        flag: flag.to_string(),
                        item: item.to_string(),
                        expected: expected.to_string(),
                    };
                    let (k, v) = item
                        .split_once('=')
                        .ok_or_else(|| bad("expected KEY=VALUE"))?;
                    let Some((_, name)) = keys.iter().find(|(key, _)| *key == k) else {
                        let known: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
                        return Err(bad(&format!(
                            "expected one of the keys {}",
                            known.join(", ")
                        )));
                    };
                    let value = if k == "twosided" {
                        Value::Bool(boolean(v).ok_or_else(|| bad("expected true or false"))?)
                    } else {
                        number(v).ok_or_else(|| bad("expected a whole number"))?
                    };
                    out.push((*name, value, flag.to_string()));
                }
            }
            "-maxmoves" | "-tbpieces" => {
                let name = if flag == "-maxmoves" {
                    "maxmoves"
                } else {
                    pieces_given = true;
                    "tb_pieces"
                };
                let value = match items.as_slice() {
                    [v] => number(v),
                    _ => None,
                };
                let value = value.ok_or_else(|| ManagerArgsError::BadValue {
                    flag: flag.to_string(),
                    item: items.join(" "),
                    expected: "expected one whole number".into(),
                })?;
                out.push((name, value, flag.to_string()));
            }
            // the engines' settings: only the time control is read
            "-each" | "-engine" => {
                for item in items {
                    if let Some(ms) = item.strip_prefix("timemargin=") {
                        let value = number(ms).ok_or_else(|| ManagerArgsError::BadValue {
                            flag: flag.to_string(),
                            item: item.to_string(),
                            expected: "expected a whole number of milliseconds".into(),
                        })?;
                        out.push(("timemargin", value, flag.to_string()));
                        continue;
                    }
                    match item.strip_prefix("tc=") {
                        Some(tc) if !tc.is_empty() => {
                            out.push(("time_control", Value::Str(tc.into()), flag.to_string()));
                        }
                        _ => {
                            return Err(ManagerArgsError::BadValue {
                                flag: flag.to_string(),
                                item: item.to_string(),
                                expected: "expected tc=TC or timemargin=MS (the only engine settings arbiter reads)".into(),
                            });
                        }
                    }
                }
            }
            // the tables' folder: arbiter reads its own (--syzygy)
            "-tb" => tb_given = true,
            "-tbignore50" if items.is_empty() => {
                out.push(("tb_ignore50", Value::Bool(true), flag.to_string()));
            }
            "-tbadjudicate" => {
                let v = match items.as_slice() {
                    [v] => match v.to_ascii_uppercase().as_str() {
                        "BOTH" => Some("BOTH"),
                        // man.md writes WON_LOST, the program reads WIN_LOSS
                        "WIN_LOSS" | "WON_LOST" => Some("WIN_LOSS"),
                        "DRAW" => Some("DRAW"),
                        _ => None,
                    },
                    _ => None,
                };
                let v = v.ok_or_else(|| ManagerArgsError::BadValue {
                    flag: flag.to_string(),
                    item: items.join(" "),
                    expected: "expected BOTH, WIN_LOSS or DRAW".into(),
                })?;
                out.push(("tb_adjudicate", Value::Str(v.into()), flag.to_string()));
            }
            _ => {
                return Err(ManagerArgsError::UnknownFlag {
                    flag: std::iter::once(flag)
                        .chain(items.iter().copied())
                        .collect::<Vec<_>>()
                        .join(" "),
                });
            }
        }
    }
    // `-tb` without `-tbpieces`: every table the folder holds (7 pieces)
    if tb_given && !pieces_given {
        out.push(("tb_pieces", Value::Num(7.0), "-tb".to_string()));
    }
    Ok(out)
}

/// The overrides the flags in `text` give `rs`'s constants.
pub fn overrides(rs: &Ruleset, text: &str) -> Result<Overrides, ManagerArgsError> {
    let mut over = Overrides::default();
    for (name, value, flag) in parse(text)? {
        let Some(i) = rs.consts.iter().position(|(n, _)| n == name) else {
            return Err(ManagerArgsError::NoConstant {
                ruleset: rs.id.clone(),
                name: name.to_string(),
                flag,
            });
        };
        over.consts.retain(|(j, _)| *j != i);
        over.consts.push((i, value));
    }
    over.consts.sort_by_key(|(i, _)| *i);
    Ok(over)
}

fn number(v: &str) -> Option<Value> {
    let n: i64 = v.parse().ok()?;
    Some(Value::Num(n as f64))
}

fn boolean(v: &str) -> Option<bool> {
    match v {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_of_fishtest_become_constants() {
        let got = parse("-draw movenumber=34 movecount=8 score=20 -resign movecount=3 score=600")
            .unwrap();
        let names: Vec<(&str, Value)> = got.into_iter().map(|(n, v, _)| (n, v)).collect();
        assert_eq!(
            names,
            vec![
                ("draw_movenumber", Value::Num(34.0)),
                ("draw_movecount", Value::Num(8.0)),
                ("draw_score", Value::Num(20.0)),
                ("resign_movecount", Value::Num(3.0)),
                ("resign_score", Value::Num(600.0)),
            ]
        );
    }

    #[test]
    fn tables_twosided_and_a_move_limit() {
        let got = parse("-resign movecount=3 score=500 twosided=true -maxmoves 120 -tb /s -tbadjudicate won_lost -tbignore50").unwrap();
        let names: Vec<(&str, Value)> = got.into_iter().map(|(n, v, _)| (n, v)).collect();
        assert!(names.contains(&("resign_twosided", Value::Bool(true))));
        assert!(names.contains(&("maxmoves", Value::Num(120.0))));
        assert!(names.contains(&("tb_adjudicate", Value::Str("WIN_LOSS".into()))));
        assert!(names.contains(&("tb_ignore50", Value::Bool(true))));
        assert!(names.contains(&("tb_pieces", Value::Num(7.0))));
        let with_pieces = parse("-tb /s -tbpieces 5").unwrap();
        assert_eq!(with_pieces.len(), 1);
        assert_eq!(with_pieces[0].1, Value::Num(5.0));
    }

    #[test]
    fn what_is_not_read_is_refused_by_name() {
        let e = parse("-draw movenumber=34 -concurrency 4").unwrap_err();
        assert!(e.to_string().contains("\"-concurrency 4\""), "{e}");
        let e = parse("-draw movenumber=x").unwrap_err();
        assert!(
            e.to_string().contains("movenumber=x") && e.to_string().contains("whole number"),
            "{e}"
        );
        let e = parse("-draw moves=3").unwrap_err();
        assert!(
            e.to_string().contains("movenumber, movecount, score"),
            "{e}"
        );
        let e = parse("-resign twosided=yes").unwrap_err();
        assert!(e.to_string().contains("true or false"), "{e}");
        let e = parse("-each tc=10+0.1 option.Hash=64").unwrap_err();
        assert!(
            e.to_string().contains("option.Hash=64") && e.to_string().contains("tc=TC"),
            "{e}"
        );
        let tc = parse("-each tc=60+0.6 timemargin=250").unwrap();
        assert_eq!(tc[0].0, "time_control");
        assert_eq!(tc[0].1, Value::Str("60+0.6".into()));
        assert_eq!((tc[1].0, &tc[1].1), ("timemargin", &Value::Num(250.0)));
        let e = parse("-each timemargin=fast").unwrap_err();
        assert!(e.to_string().contains("milliseconds"), "{e}");
        let e = parse("-maxmoves").unwrap_err();
        assert!(e.to_string().contains("one whole number"), "{e}");
    }
}
