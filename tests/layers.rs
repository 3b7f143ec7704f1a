//! The data flows one way: each stage of `src/` imports only the stages
//! before it, and the modules inside a stage import each other without a
//! loop; and no file is longer than a newcomer can hold (700 lines, 250
//! for the command line's). This test reads every source file's paths
//! (comments and strings left out): every `use` item, `pub` or not, its
//! groups nested or over several lines, renames and paths relative to the
//! module, and every `crate::`, `super::` and `self::` path in the code.
//! It follows a re-export to the module that defines the item, refuses a
//! glob import of the crate's modules outside the tests (a glob hides
//! which modules a file depends on), and fails on an import that runs
//! back up the pipeline or closes a loop, naming the file and line. It
//! also draws the stages and their imports, and holds
//! `docs/architecture.md` to that picture: run it with `ARBITER_BLESS=1`
//! to rewrite the picture after a change of the structure.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The stages in the pipeline's order: each may import those before it.
const STAGES: &[&str] = &[
    "base", "findings", "ingest", "replay", "timeline", "facts", "checks", "rules", "pipeline",
    "report", "engines", "commands", "cli",
];

/// Files outside the stages: the crate root (declares the stages), the
/// binary (calls the CLI) and the tests' random numbers.
const OUTSIDE: &[&str] = &["lib.rs", "main.rs", "test_rng.rs"];

/// One path a file names: the module path it resolves to, and where.
#[derive(Debug, Default)]
struct Use {
    path: Vec<String>,
    line: usize,
    /// Inside a test module (`mod tests`, `#[cfg(test)] mod …`, a
    /// `tests.rs`): a unit test may drive the stage's own upper modules,
    /// so it is not counted in the loops (it is in the order), and it may
    /// keep `use super::*` for the module under test.
    in_test: bool,
    /// A glob (`use super::*`): what it brings in cannot be read.
    glob: bool,
    /// In a `use` item, the name it binds (`Col` for `use col::Col`, `C`
    /// for `use a::B as C`): the re-exports [`follow`] goes through.
    binds: Option<String>,
    /// The module it is written in (the file's, or an inline one's).
    module: Vec<String>,
    /// Written from its module (`use ctx::Ctx`): a child module's path, or
    /// another crate's, which [`resolve`] leaves out.
    relative: bool,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, in sorted order.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file: `src/ingest/pgn/mod.rs` is `[ingest, pgn]`.
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    if last != "mod.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// The code of a line without its comment and with its strings emptied, as
/// far as one line shows them (`tests/layers.rs` reads code, not prose).
fn code_of(line: &str, in_block_comment: &mut bool) -> String {
    let b = line.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        if *in_block_comment {
            if b[i..].starts_with(b"*/") {
                *in_block_comment = false;
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
                out.push('"');
            }
            i += 1;
            continue;
        }
        if b[i..].starts_with(b"//") {
            break;
        }
        if b[i..].starts_with(b"/*") {
            *in_block_comment = true;
            i += 2;
            continue;
        }
        if c == b'"' {
            in_str = true;
            out.push('"');
            i += 1;
            continue;
        }
        // a character literal: '"' or '{' must not count
        if c == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            let end = b[i + 1..]
                .iter()
                .position(|&x| x == b'\'')
                .map_or(i + 1, |p| i + 2 + p);
            out.push_str("' '");
            i = end;
            continue;
        }
        out.push(c as char);
        i += 1;
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// One path as written: its segments, whether it ends in a glob (`*`),
/// and the name it binds in a `use` item (`C` for `a::B as C`).
#[derive(Debug)]
struct Written {
    segs: Vec<String>,
    glob: bool,
    binds: Option<String>,
}

/// The paths that start at `start` in `code`: `a::b::C`, each branch of a
/// `{…}` group, nested or over several lines (`a::{b, c::{D, E}}` gives
/// `a::b`, `a::c::D` and `a::c::E`), `self` in a group (`a::{self, B}`
/// gives `a` and `a::B`), a rename (`a::B as C`) and a glob (`a::*`).
fn paths_at(code: &str, start: usize) -> Vec<Written> {
    fn skip(s: &[char], mut i: usize, also: &[char]) -> usize {
        while i < s.len() && (s[i].is_whitespace() || also.contains(&s[i])) {
            i += 1;
        }
        i
    }
    fn walk(s: &[char], mut i: usize, prefix: Vec<String>, out: &mut Vec<Written>) -> usize {
        let mut path = prefix;
        loop {
            let from = i;
            while i < s.len() && is_ident(s[i]) {
                i += 1;
            }
            if i > from {
                path.push(s[from..i].iter().collect());
            }
            if i < s.len() && s[i] == '*' {
                out.push(Written {
                    segs: path,
                    glob: true,
                    binds: None,
                });
                return i + 1;
            }
            if i + 1 < s.len() && s[i] == ':' && s[i + 1] == ':' {
                i += 2;
                if i < s.len() && s[i] == '{' {
                    i += 1;
                    loop {
                        i = skip(s, i, &[',']);
                        if i >= s.len() || s[i] == '}' {
                            return i + 1;
                        }
                        let next = walk(s, i, path.clone(), out);
                        // a character no path has: step over it
                        i = next.max(i + 1);
                    }
                }
                continue;
            }
            if path.last().is_some_and(|l| l == "self") && path.len() > 1 {
                path.pop();
            }
            let mut binds = path.last().cloned();
            let j = skip(s, i, &[]);
            if s[j..].starts_with(&['a', 's']) && s.get(j + 2).is_some_and(|c| c.is_whitespace()) {
                let k = skip(s, j + 2, &[]);
                let mut e = k;
                while e < s.len() && is_ident(s[e]) {
                    e += 1;
                }
                binds = Some(s[k..e].iter().collect());
                i = e;
            }
            out.push(Written {
                segs: path,
                glob: false,
                binds,
            });
            return i;
        }
    }
    let s: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    walk(&s, start, Vec::new(), &mut out);
    out
}

/// Every path of a file that names a module of the crate, resolved to a
/// module path from the root (see [`uses_in`]).
fn uses(file: &Path) -> Vec<Use> {
    uses_in(&std::fs::read_to_string(file).unwrap(), &module_of(file))
}

/// Whether an inline or file module of this name is a test module.
fn is_test_module(name: &str) -> bool {
    name == "tests" || name.ends_with("_tests")
}

/// The paths of the text of module `module`: every path of a `use` item
/// (`pub` or not, a group over several lines, a rename, a glob, one
/// relative to the module: `use ctx::Ctx`), and every `crate::`,
/// `super::` and `self::` path in the code (`super::columns::f(…)`).
/// Comments and strings are left out.
fn uses_in(text: &str, module: &[String]) -> Vec<Use> {
    // each line's code, joined, with the module each line is in and
    // whether it is a test's
    let mut code = String::new();
    let mut lines: Vec<(usize, Vec<String>, bool)> = Vec::new();
    let file_test = module.iter().any(|m| is_test_module(m));
    // inline modules (`mod tests { … }`): their names, the depth they close
    // at and whether they are tests
    let mut inline: Vec<(String, i64, bool)> = Vec::new();
    let mut depth: i64 = 0;
    let mut in_block_comment = false;
    let mut cfg_test = false;
    for line in text.lines() {
        let line_code = code_of(line, &mut in_block_comment);
        let here: Vec<String> = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(m, _, _)| m.clone()))
            .collect();
        let in_test = file_test || inline.iter().any(|(_, _, t)| *t);
        lines.push((code.len(), here, in_test));
        code.push_str(&line_code);
        code.push('\n');
        let trimmed = line_code.trim_start();
        if let Some(name) = trimmed
            .strip_prefix("pub mod ")
            .or_else(|| trimmed.strip_prefix("mod "))
            .and_then(|r| r.split_once('{'))
            .map(|(name, _)| name.trim().to_string())
        {
            let test = cfg_test || is_test_module(&name);
            inline.push((name, depth, test));
        }
        if !trimmed.is_empty() {
            cfg_test = trimmed.starts_with("#[cfg(test)]");
        }
        depth += line_code.matches('{').count() as i64 - line_code.matches('}').count() as i64;
        while inline.last().is_some_and(|(_, d, _)| depth <= *d) {
            inline.pop();
        }
    }
    let line_at = |at: usize| lines.partition_point(|(start, _, _)| *start <= at) - 1;
    let mut out = Vec::new();
    let mut push = |w: Written, at: usize, in_use: bool| {
        let (_, here, in_test) = &lines[line_at(at)];
        let mut base = here.clone();
        let mut rest = w.segs.into_iter().peekable();
        let mut relative = false;
        match rest.peek().map(String::as_str) {
            Some("crate") => {
                rest.next();
                base.clear();
            }
            Some("self") => {
                rest.next();
            }
            Some("super") => {}
            _ => relative = true,
        }
        while rest.peek().map(String::as_str) == Some("super") {
            rest.next();
            base.pop();
        }
        let module = here.clone();
        base.extend(rest);
        out.push(Use {
            path: base,
            line: line_at(at) + 1,
            in_test: *in_test,
            glob: w.glob,
            binds: if in_use { w.binds } else { None },
            module,
            relative,
        });
    };
    // `use` items, from `use` to their `;`
    let mut items: Vec<(usize, usize)> = Vec::new();
    for (at, _) in code.match_indices("use") {
        let before = code[..at].chars().next_back();
        let after = code[at + 3..].chars().next();
        if before.is_some_and(is_ident) || !after.is_some_and(char::is_whitespace) {
            continue;
        }
        let Some(end) = code[at..].find(';').map(|e| at + e) else {
            continue;
        };
        let start = at + 3 + code[at + 3..].len() - code[at + 3..].trim_start().len();
        items.push((at, end));
        for w in paths_at(&code[..end], start) {
            push(w, at, true);
        }
    }
    // paths in the code outside `use` items
    for (at, _) in code.match_indices("::") {
        if items.iter().any(|(a, b)| (*a..*b).contains(&at)) {
            continue;
        }
        // the word before `::`, where it starts a path
        let before = &code[..at];
        let word_start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_ident(*c))
            .last()
            .map_or(at, |(i, _)| i);
        let word = &code[word_start..at];
        if word_start > 0 && code[..word_start].ends_with("::") {
            continue;
        }
        if !matches!(word, "crate" | "super" | "self") {
            continue;
        }
        for w in paths_at(&code, word_start) {
            push(w, word_start, false);
        }
    }
    out.sort_by_key(|u| u.line);
    out
}

/// Every file's stage and module, and what it names.
struct Tree {
    files: Vec<(PathBuf, Vec<String>, Vec<Use>)>,
    /// Every module of the crate, as a path from the root.
    modules: BTreeSet<Vec<String>>,
}

fn tree() -> Tree {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    let mut modules = BTreeSet::new();
    let mut files = Vec::new();
    for p in paths {
        let m = module_of(&p);
        for k in 1..=m.len() {
            modules.insert(m[..k].to_vec());
        }
        let u = uses(&p);
        files.push((p, m, u));
    }
    let mut t = Tree { files, modules };
    resolve(&mut t);
    t
}

/// Keep the paths that name the crate's modules, and follow each through
/// the re-exports on its way: `use super::Ctx`, where the parent imports
/// `ctx::Ctx`, names `ctx`, the module the item comes from, and a sibling
/// importing an item its parent re-exports depends on the module that
/// defines it.
fn resolve(t: &mut Tree) {
    let modules = &t.modules;
    // a relative path of a `use` item names a module of the crate when it
    // starts with a child of its module; otherwise it is another crate's
    for (_, _, uses) in &mut t.files {
        uses.retain(|u| {
            !u.relative
                || u.path
                    .get(..=u.module.len())
                    .is_some_and(|p| modules.contains(p))
        });
    }
    let mut names: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
    for (_, _, uses) in &t.files {
        for u in uses {
            if let Some(name) = &u.binds {
                names.insert((u.module.clone(), name.clone()), u.path.clone());
            }
        }
    }
    for (_, _, uses) in &mut t.files {
        for u in uses.iter_mut() {
            u.path = follow(std::mem::take(&mut u.path), &names, modules);
        }
    }
}

/// `path` followed through the names its modules import (`names`: a
/// module and a name to the path it stands for), until it reaches the
/// module that defines the item.
fn follow(
    mut path: Vec<String>,
    names: &BTreeMap<(Vec<String>, String), Vec<String>>,
    modules: &BTreeSet<Vec<String>>,
) -> Vec<String> {
    // a chain of re-exports is short; a loop of them is not Rust's
    for _ in 0..16 {
        let Some(k) = (1..path.len())
            .rev()
            .find(|&k| modules.contains(&path[..k]))
        else {
            break;
        };
        match names.get(&(path[..k].to_vec(), path[k].clone())) {
            Some(to) if to[..] != path[..=k] => {
                let mut p = to.clone();
                p.extend_from_slice(&path[k + 1..]);
                path = p;
            }
            _ => break,
        }
    }
    path
}

fn stage_rank(name: &str) -> Option<usize> {
    STAGES.iter().position(|s| *s == name)
}

fn shown(p: &Path) -> String {
    p.strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .display()
        .to_string()
}

/// Glob imports of the crate's modules outside the tests: `use super::*`
/// brings in everything the parent declares and imports, so a file that
/// writes it depends on every sibling the parent names, and which it uses
/// cannot be read from the file; a loop through it would not be seen.
fn globs(t: &Tree) -> Vec<String> {
    let mut bad = Vec::new();
    for (file, _, uses) in &t.files {
        for u in uses.iter().filter(|u| u.glob && !u.in_test) {
            bad.push(format!(
                "{}:{}: a glob import of `{}` (`…::*`): name the items it brings in",
                shown(file),
                u.line,
                u.path.join("::")
            ));
        }
    }
    bad
}

/// Imports that run back up the pipeline: a stage naming a later one.
fn upward(t: &Tree) -> Vec<String> {
    let mut bad = Vec::new();
    for (file, module, uses) in &t.files {
        let Some(here) = module.first() else { continue };
        if OUTSIDE.contains(&shown(file).trim_start_matches("src/")) {
            continue;
        }
        let Some(rank) = stage_rank(here) else {
            bad.push(format!(
                "{}: `{here}` is not a stage: add it to STAGES in tests/layers.rs, in the pipeline's order",
                shown(file)
            ));
            continue;
        };
        for u in uses {
            let Some(to) = u.path.first() else { continue };
            if let Some(r) = stage_rank(to)
                && r > rank
            {
                bad.push(format!(
                    "{}:{}: `{here}` imports `{}`, a later stage (`{}`): data flows {} first",
                    shown(file),
                    u.line,
                    u.path.join("::"),
                    to,
                    here
                ));
            }
        }
    }
    bad
}

/// The imports between sibling modules: for each parent module, the edges
/// `from -> to` between its children, with one place that shows each.
fn sibling_edges(t: &Tree) -> BTreeMap<Vec<String>, BTreeMap<(String, String), String>> {
    let mut edges: BTreeMap<Vec<String>, BTreeMap<(String, String), String>> = BTreeMap::new();
    for (file, module, uses) in &t.files {
        for u in uses.iter().filter(|u| !u.in_test) {
            let common = module
                .iter()
                .zip(&u.path)
                .take_while(|(a, b)| a == b)
                .count();
            if common >= module.len() || common >= u.path.len() {
                continue;
            }
            let parent = module[..common].to_vec();
            let (from, to) = (&module[common], &u.path[common]);
            let mut target = parent.clone();
            target.push(to.clone());
            if !t.modules.contains(&target) {
                continue;
            }
            edges
                .entry(parent)
                .or_default()
                .entry((from.clone(), to.clone()))
                .or_insert_with(|| format!("{}:{}", shown(file), u.line));
        }
    }
    edges
}

/// Loops among sibling modules: for each, the modules on it and a place
/// for each of its imports.
fn loops(t: &Tree) -> Vec<String> {
    let mut found = Vec::new();
    for (parent, edges) in sibling_edges(t) {
        if parent.is_empty() {
            // between stages: the order check covers it
            continue;
        }
        let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (a, b) in edges.keys() {
            next.entry(a).or_default().push(b);
        }
        // depth-first search for a back edge
        fn visit<'a>(
            n: &'a str,
            next: &BTreeMap<&'a str, Vec<&'a str>>,
            state: &mut BTreeMap<&'a str, u8>,
            stack: &mut Vec<&'a str>,
            out: &mut Vec<Vec<&'a str>>,
        ) {
            state.insert(n, 1);
            stack.push(n);
            for &m in next.get(n).into_iter().flatten() {
                match state.get(m) {
                    Some(1) => {
                        let at = stack.iter().position(|x| *x == m).unwrap();
                        out.push(stack[at..].to_vec());
                    }
                    Some(_) => {}
                    None => visit(m, next, state, stack, out),
                }
            }
            stack.pop();
            state.insert(n, 2);
        }
        let mut state = BTreeMap::new();
        let mut cycles = Vec::new();
        let keys: Vec<&str> = next.keys().copied().collect();
        for n in keys {
            if !state.contains_key(n) {
                visit(n, &next, &mut state, &mut Vec::new(), &mut cycles);
            }
        }
        for c in cycles {
            let mut text = format!("a loop in `{}`: {}", parent.join("::"), c.join(" -> "));
            text.push_str(&format!(" -> {}", c[0]));
            for (k, a) in c.iter().enumerate() {
                let b = c[(k + 1) % c.len()];
                if let Some(place) = edges.get(&(a.to_string(), b.to_string())) {
                    text.push_str(&format!("\n    {a} -> {b} at {place}"));
                }
            }
            found.push(text);
        }
    }
    found
}

/// The picture of the stages: each with its modules, and an arrow for each
/// stage it imports that no longer way through other stages implies
/// (Mermaid, which GitHub draws).
fn picture(t: &Tree) -> String {
    let mut children: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for m in &t.modules {
        if m.len() == 2 && stage_rank(&m[0]).is_some() {
            children.entry(&m[0]).or_default().insert(m[1].clone());
        }
    }
    let mut arrows: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (_, module, uses) in &t.files {
        let Some(from) = module.first().and_then(|m| stage_rank(m)) else {
            continue;
        };
        for u in uses {
            if let Some(to) = u.path.first().and_then(|m| stage_rank(m))
                && to != from
            {
                arrows.insert((from, to));
            }
        }
    }
    // an arrow that a longer way implies is left out: the picture shows
    // the pipeline, not every import
    let implied = |from: usize, to: usize| {
        let mut seen = vec![false; STAGES.len()];
        let mut todo: Vec<usize> = arrows
            .iter()
            .filter(|(a, b)| *a == from && *b != to)
            .map(|(_, b)| *b)
            .collect();
        while let Some(n) = todo.pop() {
            if n == to {
                return true;
            }
            if !std::mem::replace(&mut seen[n], true) {
                todo.extend(arrows.iter().filter(|(a, _)| *a == n).map(|(_, b)| *b));
            }
        }
        false
    };
    let drawn: Vec<(usize, usize)> = arrows
        .iter()
        .copied()
        .filter(|&(a, b)| !implied(a, b))
        .collect();
    let mut s = String::from("```mermaid\nflowchart BT\n");
    for (i, stage) in STAGES.iter().enumerate() {
        let inside: Vec<String> = children
            .get(stage)
            .map(|c| c.iter().filter(|m| *m != "tests").cloned().collect())
            .unwrap_or_default();
        let label = if inside.is_empty() {
            format!("{i}. {stage}")
        } else {
            format!("{i}. {stage}<br/><small>{}</small>", inside.join(" · "))
        };
        s.push_str(&format!("  {stage}[\"{label}\"]\n"));
    }
    for (from, to) in &drawn {
        s.push_str(&format!("  {} --> {}\n", STAGES[*from], STAGES[*to]));
    }
    s.push_str("```\n");
    s
}

/// The most lines a file of `src/` may have, and a file of the command
/// line (`src/cli/`): a file a newcomer can hold.
const FILE_LINES: usize = 700;
const CLI_FILE_LINES: usize = 250;

/// Files over their limit: `path: lines`.
fn oversized() -> Vec<String> {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    let mut over = Vec::new();
    for p in paths {
        let lines = std::fs::read_to_string(&p).unwrap().lines().count();
        let limit = if p.starts_with(src().join("cli")) {
            CLI_FILE_LINES
        } else {
            FILE_LINES
        };
        if lines > limit {
            over.push(format!("{}: {lines} lines (at most {limit})", shown(&p)));
        }
    }
    over
}

const BEGIN: &str =
    "<!-- module picture: made by tests/layers.rs (ARBITER_BLESS=1 to redraw) -->\n";
const END: &str = "<!-- end of the module picture -->\n";

#[test]
fn every_import_points_down_the_pipeline() {
    let t = tree();
    let bad = upward(&t);
    assert!(
        bad.is_empty(),
        "imports against the flow:\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_modules_import_each_other_in_a_loop() {
    let t = tree();
    let found = loops(&t);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_import_names_its_items() {
    let bad = globs(&tree());
    assert!(
        bad.is_empty(),
        "a glob import hides which modules a file depends on (a file that writes `use super::*` \
         depends on every sibling its parent declares or imports), so the loop check cannot see \
         them; import each item from the module that defines it (a test module may keep \
         `use super::*` for the module under test):\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_file_is_one_a_newcomer_can_hold() {
    let over = oversized();
    assert!(
        over.is_empty(),
        "split these along their nouns (docs/architecture.md):\n{}",
        over.join("\n")
    );
}

#[test]
fn the_architecture_page_shows_the_structure_as_it_is() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md");
    let text = std::fs::read_to_string(&page).unwrap();
    let (Some(a), Some(b)) = (text.find(BEGIN), text.find(END)) else {
        panic!("docs/architecture.md: no module picture between its markers");
    };
    let now = picture(&tree());
    let was = &text[a + BEGIN.len()..b];
    if std::env::var_os("ARBITER_BLESS").is_some() {
        let redrawn = format!("{}{BEGIN}{now}{}", &text[..a], &text[b..]);
        std::fs::write(&page, redrawn).unwrap();
        return;
    }
    assert_eq!(
        was, now,
        "docs/architecture.md's module picture is not the code's: run `ARBITER_BLESS=1 cargo test layers` and commit the page"
    );
}

/// The check sees what it must: a stage that names a later one, through a
/// `use` group or a path in the code, is caught, and a loop too.
#[test]
fn the_check_catches_an_upward_import_and_a_loop() {
    let text = "use crate::{base::span::Span, report::json};\nfn f() { crate::cli::run(); } // crate::rules\nconst S: &str = \"crate::pipeline\";\nuse super::pgn::X;\nmod tests {\n    use super::super::pgn::Z;\n}\n";
    // read as the text of src/ingest/probe.rs
    let found = uses_in(text, &["ingest".to_string(), "probe".to_string()]);
    let paths: Vec<String> = found.iter().map(|u| u.path.join("::")).collect();
    assert_eq!(
        paths,
        [
            "base::span::Span",
            "report::json",
            "cli::run",
            "ingest::pgn::X",
            "ingest::pgn::Z"
        ],
        "the paths read"
    );
    // as a stage, `ingest` naming `report` and `cli` is against the flow
    let t = Tree {
        files: vec![(
            src().join("ingest/probe.rs"),
            vec!["ingest".into(), "probe".into()],
            found,
        )],
        modules: [
            vec!["ingest".to_string()],
            vec!["ingest".into(), "pgn".into()],
        ]
        .into_iter()
        .collect(),
    };
    let bad = upward(&t);
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(
        bad[0].contains("imports `report::json`, a later stage"),
        "{bad:?}"
    );
    // a loop between two modules of a stage
    let pgn_uses = vec![Use {
        path: vec!["ingest".into(), "probe".into(), "Y".into()],
        line: 3,
        ..Use::default()
    }];
    let mut t = t;
    t.modules.insert(vec!["ingest".into(), "probe".into()]);
    t.files.push((
        src().join("ingest/pgn.rs"),
        vec!["ingest".into(), "pgn".into()],
        pgn_uses,
    ));
    let l = loops(&t);
    assert_eq!(l.len(), 1, "{l:?}");
    assert!(l[0].contains("a loop in `ingest`"), "{l:?}");
}

/// The library never writes to a terminal: it hands what it has to say to
/// the sink its caller installed (`notice!`, `base::notice`), and returns
/// its errors as values; only the command line (`src/cli`) prints. A
/// print macro anywhere else fails, naming the file and line.
#[test]
fn only_the_command_line_prints() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let cli = src().join("cli");
    let mut found = Vec::new();
    for f in files {
        if f.starts_with(&cli) || f == src().join("lib.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for m in [
                "say!(",
                "println!(",
                "print!(",
                "eprintln!(",
                "eprint!(",
                "dbg!(",
            ] {
                let at = code.find(m);
                // `eprintln!(` holds `println!(`: the longest name is reported once
                if at.is_some_and(|a| a == 0 || !code.as_bytes()[a - 1].is_ascii_alphanumeric()) {
                    found.push(format!("{}:{}: {m}", f.display(), i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the library prints (use notice! or return an error):\n{}",
        found.join("\n")
    );
}

/// The check reads every form of a path: a `use` group over several
/// lines, nested groups, `self` in a group, a rename, `pub(…) use`, a path
/// relative to the module, a glob, and a path in an expression; it
/// refuses a glob outside the tests, and follows a re-export to the
/// module that defines the item.
#[test]
fn the_check_reads_every_form_of_import() {
    let text = "use super::{\n    compiled::Code,\n    reads::{Depends, Inputs as In},\n    columns::{self, Col},\n};\npub(crate) use crate::x::{y::{z::W}};\nuse ctx::Thing;\nuse super::*;\nfn f() -> u8 { super::columnar::scalar(1) as u8 } // super::nope\n#[cfg(test)]\nmod checks {\n    use super::*;\n}\n";
    let plan: Vec<String> = ["rules", "eval", "plan"].map(String::from).to_vec();
    let found = uses_in(text, &plan);
    let read: Vec<(String, usize, bool, bool, Option<&str>)> = found
        .iter()
        .map(|u| {
            (
                u.path.join("::"),
                u.line,
                u.glob,
                u.in_test,
                u.binds.as_deref(),
            )
        })
        .collect();
    let want: Vec<(String, usize, bool, bool, Option<&str>)> = vec![
        (
            "rules::eval::compiled::Code".into(),
            1,
            false,
            false,
            Some("Code"),
        ),
        (
            "rules::eval::reads::Depends".into(),
            1,
            false,
            false,
            Some("Depends"),
        ),
        (
            "rules::eval::reads::Inputs".into(),
            1,
            false,
            false,
            Some("In"),
        ),
        (
            "rules::eval::columns".into(),
            1,
            false,
            false,
            Some("columns"),
        ),
        (
            "rules::eval::columns::Col".into(),
            1,
            false,
            false,
            Some("Col"),
        ),
        ("x::y::z::W".into(), 6, false, false, Some("W")),
        (
            "rules::eval::plan::ctx::Thing".into(),
            7,
            false,
            false,
            Some("Thing"),
        ),
        ("rules::eval".into(), 8, true, false, None),
        (
            "rules::eval::columnar::scalar".into(),
            9,
            false,
            false,
            None,
        ),
        ("rules::eval::plan".into(), 12, true, true, None),
    ];
    assert_eq!(read, want, "the paths read");
    // the parent imports `Ctx` from `ctx` and `Thing` from another crate;
    // the plan imports `Ctx` through it
    let eval: Vec<String> = ["rules", "eval"].map(String::from).to_vec();
    let parent = uses_in("use ctx::Ctx;\nuse std::fmt::Thing;\n", &eval);
    let more = uses_in("use super::Ctx;\n", &plan);
    let mut t = Tree {
        files: vec![
            (src().join("rules/eval/plan.rs"), plan.clone(), found),
            (src().join("rules/eval/mod.rs"), eval.clone(), parent),
            (src().join("rules/eval/start.rs"), plan.clone(), more),
        ],
        modules: [
            vec!["rules"],
            vec!["rules", "eval"],
            vec!["rules", "eval", "ctx"],
            vec!["rules", "eval", "plan"],
            vec!["rules", "eval", "columns"],
        ]
        .into_iter()
        .map(|m| m.into_iter().map(String::from).collect())
        .collect(),
    };
    resolve(&mut t);
    // a relative path that names no child module is another crate's
    let kept: Vec<String> = t.files[1].2.iter().map(|u| u.path.join("::")).collect();
    assert_eq!(kept, ["rules::eval::ctx::Ctx"], "the parent's paths kept");
    assert!(
        !t.files[0]
            .2
            .iter()
            .any(|u| u.path.ends_with(&["Thing".to_string()])),
        "a relative path to no module is left out"
    );
    assert_eq!(
        t.files[2].2[0].path.join("::"),
        "rules::eval::ctx::Ctx",
        "a re-export followed to the module that defines it"
    );
    // the glob outside the tests is refused, naming the file and line
    let bad = globs(&t);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].starts_with("src/rules/eval/plan.rs:8: a glob import of `rules::eval`"),
        "{bad:?}"
    );
}
