//! The data flows one way: each stage of `src/` imports only the stages
//! before it, and the modules inside a stage import each other without a
//! loop; and no file is longer than a newcomer can hold (700 lines, 250
//! for the command line's). This test reads every source file's `crate::`, `super::` and
//! `self::` paths (comments and strings left out) and fails on an import
//! that runs back up the pipeline or closes a loop, naming the file and
//! line. It also draws the stages and their imports, and holds
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
#[derive(Debug)]
struct Use {
    path: Vec<String>,
    line: usize,
    /// Inside a `mod tests` block: a unit test may drive the stage's own
    /// upper modules, so it is not counted in the loops (it is in the order).
    in_test: bool,
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

/// The paths that start at `start` in `code`: `a::b::C`, and each branch
/// of a `{…}` group (`a::{b, c::D}` gives `a::b` and `a::c::D`).
fn paths_at(code: &str, start: usize) -> Vec<Vec<String>> {
    fn walk(s: &[char], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
        let mut path = prefix;
        loop {
            let from = i;
            while i < s.len() && is_ident(s[i]) {
                i += 1;
            }
            if i > from {
                path.push(s[from..i].iter().collect());
            }
            if i + 1 < s.len() && s[i] == ':' && s[i + 1] == ':' {
                i += 2;
                if i < s.len() && s[i] == '{' {
                    i += 1;
                    loop {
                        while i < s.len() && (s[i] == ' ' || s[i] == ',') {
                            i += 1;
                        }
                        if i >= s.len() || s[i] == '}' {
                            return i + 1;
                        }
                        i = walk(s, i, path.clone(), out);
                    }
                }
                continue;
            }
            out.push(path);
            return i;
        }
    }
    let s: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    walk(&s, start, Vec::new(), &mut out);
    out
}

/// Every `crate::`, `super::` and `self::` path of a file, resolved to a
/// module path from the crate root.
fn uses(file: &Path) -> Vec<Use> {
    uses_in(&std::fs::read_to_string(file).unwrap(), &module_of(file))
}

/// [`uses`] of the text of module `module`.
fn uses_in(text: &str, module: &[String]) -> Vec<Use> {
    let mut out = Vec::new();
    // inline modules (`mod tests { … }`): their names and the depth they
    // close at
    let mut inline: Vec<(String, i64)> = Vec::new();
    let mut depth: i64 = 0;
    let mut in_block_comment = false;
    for (n, line) in text.lines().enumerate() {
        let code = code_of(line, &mut in_block_comment);
        let here: Vec<String> = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(m, _)| m.clone()))
            .collect();
        for (at, _) in code.match_indices("::") {
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
            for p in paths_at(&code, word_start) {
                let mut resolved: Vec<String> = Vec::new();
                let mut base = here.clone();
                let mut rest = p.into_iter().peekable();
                match rest.peek().map(String::as_str) {
                    Some("crate") => {
                        rest.next();
                        base.clear();
                    }
                    Some("self") => {
                        rest.next();
                    }
                    _ => {}
                }
                while rest.peek().map(String::as_str) == Some("super") {
                    rest.next();
                    base.pop();
                }
                resolved.extend(base);
                resolved.extend(rest);
                out.push(Use {
                    path: resolved,
                    line: n + 1,
                    in_test: inline.iter().any(|(m, _)| m == "tests"),
                });
            }
        }
        let trimmed = code.trim_start();
        let opens = code.matches('{').count() as i64;
        let closes = code.matches('}').count() as i64;
        if let Some(name) = trimmed
            .strip_prefix("pub mod ")
            .or_else(|| trimmed.strip_prefix("mod "))
            .and_then(|r| r.split_once('{'))
            .map(|(name, _)| name.trim().to_string())
        {
            inline.push((name, depth));
        }
        depth += opens - closes;
        while inline.last().is_some_and(|(_, d)| depth <= *d) {
            inline.pop();
        }
    }
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
    Tree { files, modules }
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
        in_test: false,
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
