//! The verdicts do not change when the code does: every file that `audit
//! --out` and `batch --out` write for the shipped samples and, under
//! `ARBITER_CORPUS` (and `ARBITER_SYZYGY` for the audit), for the TCEC S15
//! archive has the SHA-256 recorded in `tests/fixtures/identical/`.
//!
//! The runs happen in a scratch folder where `samples`, `rulesets`,
//! `tcec-s15` and `syzygy` are links, so the paths the reports record are
//! the same on every machine. `scripts/record_identical.sh` writes the
//! manifests; it is run only when an output is meant to change.
//!
//! S15 is also audited with every `{…}` comment removed (`tcec-s15-bare`,
//! made in the scratch folder by [`without_comments`], as the script makes
//! it): a record as most archives outside TCEC are, without engine
//! output, where the rules' columns are most often one value throughout a
//! game. And S15 is audited with its comments rewritten into the forms of
//! cutechess-cli, fastchess and lichess (`tcec-s15-cutechess` and so on,
//! by [`super::gui_forms::rewrite`]; the script makes them with
//! `scripts/gui_forms.py`): the archives arbiter is judged on are not all
//! TCEC's, and each form's comments take a path of their own.

use std::collections::BTreeMap;

use super::gui_forms::{Form, rewrite};
use std::path::{Path, PathBuf};

fn manifest(name: &str) -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/identical")
        .join(format!("{name}.sha256"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| {
            let (hash, file) = l
                .split_once("  ")
                .unwrap_or_else(|| panic!("{}: not a sha256sum line: {l:?}", path.display()));
            (file.to_string(), hash.to_string())
        })
        .collect()
}

fn files_under(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(root, &p, out);
        } else {
            let rel = p.strip_prefix(root).unwrap().display().to_string();
            let bytes = std::fs::read(&p).unwrap();
            out.insert(
                format!("./{rel}"),
                arbiter::base::digest::sha256_hex(&bytes),
            );
        }
    }
}

/// A scratch folder with the links the manifests were recorded through.
fn scratch(corpus: Option<&Path>, syzygy: Option<&Path>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let link = |target: PathBuf, name: &str| {
        std::os::unix::fs::symlink(target, dir.path().join(name)).unwrap();
    };
    link(here.join("samples"), "samples");
    link(here.join("rulesets"), "rulesets");
    if let Some(c) = corpus {
        link(c.canonicalize().unwrap(), "tcec-s15");
    }
    if let Some(s) = syzygy {
        link(s.canonicalize().unwrap(), "syzygy");
    }
    dir
}

/// Run arbiter with `args --out out/NAME` in `dir` and compare every file
/// it wrote with the manifest `NAME`.
fn check(dir: &Path, name: &str, args: &[&str]) {
    let out = format!("out/{name}");
    let mut with_out = args.to_vec();
    with_out.extend(["--out", &out]);
    let o = super::arbiter_in(dir, &with_out);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{name}: arbiter could not run: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut got = BTreeMap::new();
    files_under(&dir.join(&out), &dir.join(&out), &mut got);
    // ARBITER_BLESS=1 records the outputs as they are now (after a change
    // that is meant to change them, such as an edited ruleset: review the
    // difference before committing the manifest)
    if std::env::var_os("ARBITER_BLESS").is_some() {
        let lines: String = got.iter().map(|(f, h)| format!("{h}  {f}\n")).collect();
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/identical")
            .join(format!("{name}.sha256"));
        std::fs::write(&path, lines).unwrap();
    }
    let want = manifest(name);
    let missing: Vec<&String> = want.keys().filter(|f| !got.contains_key(*f)).collect();
    let extra: Vec<&String> = got.keys().filter(|f| !want.contains_key(*f)).collect();
    let changed: Vec<&String> = want
        .iter()
        .filter(|(f, h)| got.get(*f).is_some_and(|g| g != *h))
        .map(|(f, _)| f)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && changed.is_empty(),
        "{name}: the outputs differ from tests/fixtures/identical/{name}.sha256\n  changed: {changed:?}\n  missing: {missing:?}\n  new: {extra:?}"
    );
    assert!(!want.is_empty(), "{name}: the manifest lists files");
}

#[test]
fn the_samples_reports_are_byte_identical_to_the_recorded_ones() {
    let dir = scratch(None, None);
    check(dir.path(), "samples-audit", &["audit", "samples"]);
    check(dir.path(), "samples-batch", &["batch", "samples"]);
}

/// `text` with every `{…}` removed (from a `{` to the first `}` after it;
/// an unclosed `{` stays), then the spaces and tabs left at each line's
/// end: what `scripts/record_identical.sh` does with Python's
/// `re.sub(rb'\{[^}]*\}', b'', t)` and `re.sub(rb'[ \t]+\n', b'\n', t)` on
/// the file's bytes.
fn without_comments(text: &[u8]) -> Vec<u8> {
    let mut cut = Vec::with_capacity(text.len());
    let mut at = 0;
    while at < text.len() {
        match text[at..].iter().position(|&b| b == b'{') {
            Some(open) => {
                let open = at + open;
                cut.extend_from_slice(&text[at..open]);
                match text[open..].iter().position(|&b| b == b'}') {
                    Some(close) => at = open + close + 1,
                    None => {
                        cut.extend_from_slice(&text[open..]);
                        at = text.len();
                    }
                }
            }
            None => {
                cut.extend_from_slice(&text[at..]);
                at = text.len();
            }
        }
    }
    let mut out = Vec::with_capacity(cut.len());
    for &b in &cut {
        if b == b'\n' {
            while matches!(out.last(), Some(b' ' | b'\t')) {
                out.pop();
            }
        }
        out.push(b);
    }
    out
}

#[test]
fn removing_comments_leaves_the_moves_and_lines() {
    let text =
        b"[Event \"E\"]\n\n1. e4 {d=20, wv=0.3,} e5 {book} \n2. Nf3 {a\nb} Nc6 \t\n{open *\n";
    assert_eq!(
        String::from_utf8(without_comments(text)).unwrap(),
        "[Event \"E\"]\n\n1. e4  e5\n2. Nf3  Nc6\n{open *\n"
    );
}

/// What [`rewrite`] makes of a TCEC game, in each form.
#[test]
fn a_tcec_game_is_rewritten_into_each_form() {
    let text = b"[Event \"E\"]\n[Result \"*\"]\n\n{WhiteEngineOptions: Hash=1;}\n1. e4 {book, mb=+0+0+0+0+0,} e5 {d=30, sd=44, mt=90906, tl=3509094, s=41641210, n=3784769610, pv=Nf3, tb=null, h=37.0, ph=0.0, wv=0.27, R50=50, Rd=-11, Rr=-11, mb=+0+0+0+0+0,}\n2. Nf3 {d=1, mt=5, tl=65, wv=-M9,} 2... Nc6 {d=2, wv=-1.5, mt=0, tl=1000} *\n";
    let got = |f| String::from_utf8(rewrite(text, f)).unwrap();
    assert_eq!(
        got(Form::Cutechess),
        "[Event \"E\"]\n[Result \"*\"]\n\n\n1. e4 {book} e5 {-0.27/30 90.906s}\n2. Nf3 {-M9/1 0.005s} 2... Nc6 {+1.50/2 0.000s} *\n"
    );
    assert_eq!(
        got(Form::Fastchess),
        "[Event \"E\"]\n[Result \"*\"]\n\n\n1. e4 {book} e5 {-0.27/30, 90.906s, n=3784769610, sd=44, nps=41641210}\n2. Nf3 {-M9/1, 0.005s, n=0, sd=0, nps=0} 2... Nc6 {+1.50/2, 0.000s, n=0, sd=0, nps=0} *\n"
    );
    assert_eq!(
        got(Form::Lichess),
        "[Event \"E\"]\n[Result \"*\"]\n\n\n1. e4  e5 { [%eval 0.27] [%clk 0:58:29] }\n2. Nf3 { [%eval #-9] [%clk 0:00:00] } 2... Nc6 { [%eval -1.50] [%clk 0:00:01] } *\n"
    );
    // a position with Black to move: the first move is Black's
    let fen = b"[Event \"E\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 b - - 0 1\"]\n\n1... Kc2 {d=5, wv=0.10, mt=1000} 2. Ka2 {d=5, wv=0.10, mt=1000} *\n";
    assert_eq!(
        String::from_utf8(rewrite(fen, Form::Cutechess)).unwrap(),
        "[Event \"E\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 b - - 0 1\"]\n\n1... Kc2 {-0.10/5 1.000s} 2. Ka2 {+0.10/5 1.000s} *\n"
    );
}

#[test]
fn the_s15_reports_are_byte_identical_to_the_recorded_ones() {
    let Some(s15) = super::tcec_s15() else {
        return;
    };
    let syzygy = std::env::var_os("ARBITER_SYZYGY").map(PathBuf::from);
    let dir = scratch(Some(&s15), syzygy.as_deref());
    check(
        dir.path(),
        "s15-batch",
        &["batch", "tcec-s15", "--rules", "rulesets/tcec-s15.rules"],
    );
    let bare = dir.path().join("tcec-s15-bare");
    std::fs::create_dir(&bare).unwrap();
    for e in std::fs::read_dir(&s15).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "pgn") {
            let text = std::fs::read(&p).unwrap();
            std::fs::write(bare.join(p.file_name().unwrap()), without_comments(&text)).unwrap();
        }
    }
    check(
        dir.path(),
        "s15-bare-batch",
        &[
            "batch",
            "tcec-s15-bare",
            "--rules",
            "rulesets/tcec-s15.rules",
        ],
    );
    for form in Form::ALL {
        let name = format!("tcec-s15-{}", form.name());
        let folder = dir.path().join(&name);
        std::fs::create_dir(&folder).unwrap();
        for e in std::fs::read_dir(&s15).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "pgn") {
                let text = std::fs::read(&p).unwrap();
                let rewritten = rewrite(&text, form);
                std::fs::write(folder.join(p.file_name().unwrap()), rewritten).unwrap();
            }
        }
        check(
            dir.path(),
            &format!("s15-{}-batch", form.name()),
            &["batch", &name, "--rules", "rulesets/tcec-s15.rules"],
        );
    }
    if syzygy.is_none() {
        eprintln!(
            "skipping the S15 audit: ARBITER_SYZYGY is not set (the manifest is of a run with the tables)"
        );
        return;
    }
    check(
        dir.path(),
        "s15-audit",
        &[
            "audit",
            "tcec-s15",
            "--rules",
            "rulesets/tcec-s15.rules",
            "--syzygy",
            "syzygy",
        ],
    );
}
