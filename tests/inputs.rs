//! Inputs as people pass them around: `.pgn.gz` and `.pgn.zst` (told by
//! their bytes), standard input (`-`), and what is not a game at all: an
//! empty folder, an empty file, a file that is not PGN (README, "Exit
//! codes").

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use super::{arbiter_in, stdout};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every sample PGN file, one after the other, and a game with an illegal
/// move: games with findings of each kind the samples have.
fn text() -> Vec<u8> {
    let mut text = Vec::new();
    for f in super::files_with(&root().join("samples"), "pgn") {
        text.extend(std::fs::read(f).unwrap());
        text.extend(b"\n");
    }
    text.extend(b"[Event \"planted\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n");
    text
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(bytes, 3).unwrap()
}

/// arbiter in `dir` with `input` on standard input.
fn with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A report with what names and hashes the input made the plain file's:
/// `name` (and `-` where the invocation names it) read `g.pgn`, the inputs'
/// SHA-256 and size blanked. The hashes taken out, in order.
fn as_plain(report: &str, name: &str) -> (String, Vec<(String, u64)>) {
    let mut hashes = Vec::new();
    let mut out = String::new();
    for line in report.lines() {
        let line = line.replace(name, "g.pgn");
        let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&line) else {
            // the text form: its SHA-256 line
            match line.trim_start().strip_prefix("sha256 ") {
                Some(rest) => {
                    let (h, _) = rest.split_once(' ').unwrap();
                    hashes.push((h.to_string(), 0));
                    out.push_str("  sha256 -  g.pgn\n");
                }
                None => out.push_str(&format!("{line}\n")),
            }
            continue;
        };
        if v["type"] == "summary" {
            for p in v["invocation"]["paths"].as_array_mut().unwrap() {
                if p == "-" {
                    *p = "g.pgn".into();
                }
            }
            for i in v["inputs"].as_array_mut().unwrap() {
                hashes.push((
                    i["sha256"].as_str().unwrap().to_string(),
                    i["bytes"].as_u64().unwrap(),
                ));
                i["sha256"] = "-".into();
                i["bytes"] = 0.into();
            }
        }
        out.push_str(&format!("{v}\n"));
    }
    (out, hashes)
}

fn sha256(bytes: &[u8]) -> String {
    arbiter::base::digest::sha256_hex(bytes)
}

/// The same games gzipped, zstd-compressed and on standard input give the
/// plain file's reports byte for byte, JSON and text, but for the name and
/// the hash of what was read: the compressed file's bytes as stored, and
/// standard input's as piped.
#[test]
fn compressed_files_and_standard_input_give_the_plain_report() {
    let dir = tempfile::tempdir().unwrap();
    let text = text();
    let gz = gzip(&text);
    let zst = zstd(&text);
    std::fs::write(dir.path().join("g.pgn"), &text).unwrap();
    std::fs::write(dir.path().join("g.pgn.gz"), &gz).unwrap();
    std::fs::write(dir.path().join("g.pgn.zst"), &zst).unwrap();
    let rules = root().join("rulesets/tcec-s15.rules");
    let rules = rules.to_str().unwrap();
    for form in [&["--format", "json"][..], &["--verbose"]] {
        let args = |input: &'static str| {
            let mut a = vec!["audit", input, "--rules", rules];
            a.extend_from_slice(form);
            a
        };
        let plain = arbiter_in(dir.path(), &args("g.pgn"));
        assert_eq!(plain.status.code(), Some(1), "{}", stderr(&plain));
        let (want, hashes) = as_plain(&stdout(&plain), "g.pgn");
        assert_eq!(hashes[0].0, sha256(&text));
        let runs = [
            ("g.pgn.gz", arbiter_in(dir.path(), &args("g.pgn.gz")), &gz),
            (
                "g.pgn.zst",
                arbiter_in(dir.path(), &args("g.pgn.zst")),
                &zst,
            ),
            ("<stdin>", with_stdin(dir.path(), &args("-"), &text), &text),
        ];
        for (name, o, bytes) in runs {
            assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
            let (got, hashes) = as_plain(&stdout(&o), name);
            assert_eq!(got, want, "{name}");
            assert_eq!(
                hashes[0].0,
                sha256(bytes),
                "{name}: the hash of what was read"
            );
            if form[0] == "--format" {
                assert_eq!(hashes[0].1, bytes.len() as u64, "{name}");
            }
        }
    }
}

/// A folder walk takes `.pgn.gz` and `.pgn.zst` files; a `.pgn` file that
/// is gzipped is read as gzip (the bytes tell, not the name), and `batch`
/// reads them too.
#[test]
fn a_folder_of_compressed_files_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let games = std::fs::read(root().join("samples/tcec-style.pgn")).unwrap();
    let d = dir.path().join("games");
    std::fs::create_dir(&d).unwrap();
    std::fs::write(d.join("a.pgn.gz"), gzip(&games)).unwrap();
    std::fs::write(d.join("b.pgn.zst"), zstd(&games)).unwrap();
    std::fs::write(d.join("c.pgn"), gzip(&games)).unwrap();
    std::fs::write(d.join("notes.txt.gz"), gzip(b"not a game")).unwrap();
    let o = arbiter_in(dir.path(), &["audit", "games"]);
    let out = stdout(&o);
    assert!(out.contains("6 games in 3 files"), "{out}{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{out}");
    let o = arbiter_in(dir.path(), &["batch", "games", "--out", "b"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let jsonl = std::fs::read_to_string(dir.path().join("b/audit.jsonl")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(jsonl.lines().last().unwrap()).unwrap();
    let files: Vec<(&str, u64)> = summary["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["path"].as_str().unwrap(), i["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        files,
        [
            ("games/a.pgn.gz", 2),
            ("games/b.pgn.zst", 2),
            ("games/c.pgn", 2)
        ]
    );
}

/// `batch` of a gzipped archive under a ruleset with variants and event
/// rules (which read an event's first header again, decoded again) writes
/// the plain archive's audit.jsonl, but for the input's name and hash.
#[test]
fn a_batch_of_a_gzipped_file_matches_the_plain_one() {
    let dir = tempfile::tempdir().unwrap();
    let text = text();
    std::fs::write(dir.path().join("g.pgn"), &text).unwrap();
    std::fs::write(dir.path().join("g.pgn.gz"), gzip(&text)).unwrap();
    let rules = root().join("rulesets/tcec-s15.rules");
    let rules = rules.to_str().unwrap();
    let mut reports = Vec::new();
    for (name, out) in [("g.pgn", "a"), ("g.pgn.gz", "b")] {
        let o = arbiter_in(dir.path(), &["batch", name, "--rules", rules, "--out", out]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        let jsonl = std::fs::read_to_string(dir.path().join(out).join("audit.jsonl")).unwrap();
        reports.push(as_plain(&jsonl, name).0);
    }
    assert!(reports[0].contains("\"type\":\"event\""), "{}", reports[0]);
    assert_eq!(reports[0], reports[1]);
}

/// Reading no game is never "no violations": an empty folder, an empty
/// file and a folder with no PGN file exit 2, saying "nothing to audit"; so
/// does `batch`.
#[test]
fn nothing_read_is_not_clean() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    std::fs::create_dir(dir.path().join("other")).unwrap();
    std::fs::write(dir.path().join("other/notes.txt"), "1. e4").unwrap();
    std::fs::write(dir.path().join("e.pgn"), "").unwrap();
    std::fs::write(dir.path().join("blank.pgn.gz"), gzip(b"\n\n")).unwrap();
    for (input, said) in [
        (
            "empty",
            "arbiter: nothing to audit: no PGN file read from empty",
        ),
        (
            "other",
            "arbiter: nothing to audit: no PGN file read from other",
        ),
        ("e.pgn", "arbiter: nothing to audit: no game in e.pgn\n"),
        (
            "blank.pgn.gz",
            "arbiter: nothing to audit: no game in blank.pgn.gz\n",
        ),
    ] {
        let o = arbiter_in(dir.path(), &["audit", input]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(2), "{input}: {out}");
        assert!(stderr(&o).contains(said), "{input}: {}", stderr(&o));
        assert!(
            out.ends_with("exit status 2: nothing to audit (no game read; said above)\n"),
            "{input}: {out}"
        );
    }
    let o = arbiter_in(dir.path(), &["batch", "empty", "--out", "b"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("arbiter batch: nothing to audit: no PGN file read from empty"),
        "{}",
        stderr(&o)
    );
}

/// A file that is not PGN is refused, named, with what was expected, and
/// not read as games: a Cargo.toml, a binary, the same gzipped; xz and
/// bzip2 are refused by name. Exit status 2, as for any unreadable input.
#[test]
fn what_is_not_pgn_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cargo = std::fs::read(root().join("Cargo.toml")).unwrap();
    let binary: Vec<u8> = (0..100_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
        .collect();
    std::fs::write(dir.path().join("Cargo.toml"), &cargo).unwrap();
    std::fs::write(dir.path().join("prog.pgn"), &binary).unwrap();
    std::fs::write(dir.path().join("cargo.pgn.gz"), gzip(&cargo)).unwrap();
    std::fs::write(
        dir.path().join("g.pgn.xz"),
        b"\xFD7zXZ\0\0\x04\xE6\xD6\xB4\x46",
    )
    .unwrap();
    std::fs::write(dir.path().join("g.pgn.bz2"), b"BZh91AY&SY\x01\x02").unwrap();
    let expected = "expected a tag pair such as [Event \"...\"] or movetext such as 1. e4 in the first 64 KiB, found neither; refused";
    for (input, said) in [
        ("Cargo.toml", format!("arbiter: Cargo.toml: not a PGN file: {expected}")),
        ("prog.pgn", format!("arbiter: prog.pgn: not a PGN file: {expected}")),
        (
            "cargo.pgn.gz",
            format!("arbiter: cargo.pgn.gz: not a PGN file (decoded from gzip): {expected}"),
        ),
        (
            "g.pgn.xz",
            "arbiter: g.pgn.xz: xz is not supported (arbiter reads PGN text, gzip and zstd); refused: decompress it first".into(),
        ),
        ("g.pgn.bz2", "arbiter: g.pgn.bz2: bzip2 is not supported".into()),
    ] {
        let o = arbiter_in(dir.path(), &["audit", input, "--format", "json"]);
        assert_eq!(o.status.code(), Some(2), "{input}");
        assert!(stderr(&o).contains(&said), "{input}: {}", stderr(&o));
        let out = stdout(&o);
        let summary: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(summary["games"], 0, "{input}: {out}");
        assert_eq!(summary["unreadable"][0]["path"], input, "{input}: {out}");
    }
}

/// A report of a gzipped file is verified against the file as stored and
/// rerun byte for byte. A report of standard input cannot be rerun:
/// `verify` refuses it, saying why, and exits 2.
#[test]
fn verify_reruns_a_gzipped_report_and_refuses_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let games = std::fs::read(root().join("samples/tcec-style.pgn")).unwrap();
    std::fs::write(dir.path().join("g.pgn.gz"), gzip(&games)).unwrap();
    let o = arbiter_in(dir.path(), &["audit", "g.pgn.gz", "--out", "z"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = arbiter_in(dir.path(), &["verify", "z"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("  same     input g.pgn.gz\n"), "{out}");
    assert!(out.contains("verdict: reproduced"), "{out}");
    let o = with_stdin(dir.path(), &["audit", "-", "--out", "r"], &games);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = arbiter_in(dir.path(), &["verify", "r"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains(
            "the report's input was standard input (<stdin>), which cannot be read again; refused"
        ),
        "{e}"
    );
}

/// A small gzipped file whose one game decodes to 10 MiB is streamed under
/// the plain file's cap: that game is cut at 8 MiB and said, the next game
/// is read.
#[test]
fn a_gzip_bomb_keeps_the_game_cap() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(b"[Event \"bomb\"]\n[Result \"*\"]\n\n")
        .unwrap();
    let line = [b"{".as_slice(), &[b'x'; 1022], b"}\n"].concat();
    for _ in 0..10 << 10 {
        e.write_all(&line).unwrap();
    }
    e.write_all(b"*\n\n[Event \"next\"]\n[Result \"*\"]\n\n1. e4 *\n")
        .unwrap();
    let gz = e.finish().unwrap();
    assert!(gz.len() < 200_000, "{}", gz.len());
    std::fs::write(dir.path().join("b.pgn.gz"), &gz).unwrap();
    let o = arbiter_in(dir.path(), &["audit", "b.pgn.gz"]);
    let out = stdout(&o);
    assert!(
        out.contains("more than the 8388608 bytes arbiter reads for one game"),
        "{out}"
    );
    assert!(out.contains("2 games in 1 files"), "{out}");
}
