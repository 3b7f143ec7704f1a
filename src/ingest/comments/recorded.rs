//! Every value parsed from a move's comments, raw, in each form's own keys:
//! the JSON report's `recorded` object (its schema in
//! `docs/findings-schema.md`, §7.1).

use serde_json::{Map, Value, json};

use super::Comment;

/// The `recorded` object of a move with these comments: TCEC's keys
/// flattened, `cutechess`, `gui`, `clk`, `emt`, `eval`, `commands` and the
/// texts not understood (a later comment's value of a key replaces an
/// earlier one's).
pub fn recorded_values(comments: &[Comment]) -> Map<String, Value> {
    let mut map = Map::new();
    let mut texts = Vec::new();
    for c in comments {
        let a = &c.annotations;
        if let Some(t) = a.tcec()
            && let Value::Object(o) = json!(t)
        {
            map.extend(o);
        }
        if let Some(cc) = a.cutechess() {
            map.insert("cutechess".into(), json!(cc));
        }
        if let Some(e) = a.gui() {
            map.insert("gui".into(), json!(e));
        }
        if let Some(v) = a.clk {
            map.insert("clk".into(), json!(v));
        }
        if let Some(v) = a.emt {
            map.insert("emt".into(), json!(v));
        }
        if let Some(v) = &a.eval {
            map.insert("eval".into(), json!(v));
        }
        if !a.commands.is_empty() {
            map.insert("commands".into(), json!(a.commands));
        }
        if !a.text.is_empty() {
            texts.push(a.text.clone());
        }
    }
    if !texts.is_empty() {
        map.insert("text".into(), json!(texts));
    }
    map
}
