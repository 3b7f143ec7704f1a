//! `arbiter merge`: the folders of a batch's shards (`batch --shard K/N`)
//! give, merged, the folder one batch over the whole input writes, byte
//! for byte (docs/batch.md, "Shards"); shards that are not one batch's are
//! refused, saying why.

use std::path::{Path, PathBuf};

use super::{arbiter, tcec_s15};

/// Every file of a folder, by its path in it, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Run `batch` over `inputs` (with `extra`) whole and in `n` shards, merge
/// the shards (given in reverse order), and check that the merged folder
/// holds the same files as the whole one, byte for byte, and no shard's
/// part; the merged folder's path.
fn whole_and_merged(inputs: &[&str], extra: &[&str], n: u64) -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let run = |out: &Path, shard: Option<String>| {
        let mut a: Vec<String> = vec!["batch".into()];
        a.extend(inputs.iter().map(|s| s.to_string()));
        a.extend(extra.iter().map(|s| s.to_string()));
        a.extend(["--out".into(), out.display().to_string(), "-q".into()]);
        if let Some(s) = shard {
            a.extend(["--shard".into(), s]);
        }
        let args: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = arbiter(&args);
        assert!(
            o.status.code().is_some_and(|c| c <= 2),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        o.status.code()
    };
    let whole = t.path().join("whole");
    let status = run(&whole, None);
    let mut shards = Vec::new();
    for k in 1..=n {
        let dir = t.path().join(format!("shard-{k}"));
        run(&dir, Some(format!("{k}/{n}")));
        assert!(dir.join("shard.jsonl").is_file());
        shards.push(dir.display().to_string());
    }
    shards.reverse();
    let merged = t.path().join("merged");
    let mut a = vec!["merge".to_string()];
    a.extend(shards);
    a.extend(["--out".into(), merged.display().to_string()]);
    let args: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = arbiter(&args);
    assert_eq!(
        o.status.code(),
        status,
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (w, m) = (files(&whole), files(&merged));
    assert_eq!(w, m, "the same files");
    assert!(!w.iter().any(|f| f.ends_with("shard.jsonl")));
    for f in &w {
        let (x, y) = (
            std::fs::read(whole.join(f)).unwrap(),
            std::fs::read(merged.join(f)).unwrap(),
        );
        assert!(x == y, "{} differs", f.display());
    }
    (t, merged)
}

/// The samples (PGN files, case folders with their own rulesets and logs,
/// a broken game and a missing file among them) in three shards: merged,
/// the whole batch's folder, which `verify` then reruns as one batch.
#[test]
fn the_samples_shards_merge_into_the_whole_batch() {
    let t = tempfile::tempdir().unwrap();
    let broken = t.path().join("broken.pgn");
    std::fs::write(
        &broken,
        "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"y\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
    )
    .unwrap();
    let missing = t.path().join("missing.pgn");
    let inputs = [
        "samples",
        broken.to_str().unwrap(),
        missing.to_str().unwrap(),
    ];
    let (_t, merged) = whole_and_merged(&inputs, &["--rules", "rulesets/tcec-s15.rules"], 3);
    let o = arbiter(&["verify", merged.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    // more shards than games in a file, and one shard
    whole_and_merged(
        &["samples/tcec-s15"],
        &["--rules", "rulesets/tcec-s15.rules"],
        7,
    );
    whole_and_merged(
        &["samples/tcec-s15"],
        &["--rules", "rulesets/tcec-s15.rules"],
        1,
    );
}

/// Under `--fit`, and under a folder of rulesets.
#[test]
fn fitted_and_chosen_shards_merge_into_the_whole_batch() {
    let fit = ["--rules", "rulesets/tcec-s15.rules", "--fit"];
    whole_and_merged(&["samples/tcec-s15", "samples/tcec-style.pgn"], &fit, 2);
    let shelf = tempfile::tempdir().unwrap();
    for f in ["tcec-s15.rules", "icga-2008.rules"] {
        std::fs::copy(Path::new("rulesets").join(f), shelf.path().join(f)).unwrap();
    }
    let rules = shelf.path().to_str().unwrap();
    whole_and_merged(
        &["samples/tcec-s15", "samples/icga-2008.pgn"],
        &["--rules", rules],
        2,
    );
}

/// Season 15, whole and in three shards: the same tables, standings and
/// event-level findings.
#[test]
fn season_15_in_three_shards_merges_into_the_whole_batch() {
    let Some(s15) = tcec_s15() else {
        return;
    };
    let s15 = s15.display().to_string();
    whole_and_merged(&[&s15], &["--rules", "rulesets/tcec-s15.rules"], 3);
}

/// Shards that are not one batch's, or not all of them, are refused: the
/// message says why, and no folder is written.
#[test]
fn shards_that_are_not_one_batch_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let dir = |name: &str| t.path().join(name).display().to_string();
    let batch = |out: &str, extra: &[&str]| {
        let mut a = vec!["batch", "samples/tcec-s15", "--out", out, "-q"];
        a.extend_from_slice(extra);
        arbiter(&a)
    };
    let r = ["--rules", "rulesets/tcec-s15.rules"];
    for k in 1..=3 {
        let mut a = r.to_vec();
        let s = format!("{k}/3");
        a.extend(["--shard", &s]);
        batch(&dir(&format!("s{k}")), &a);
    }
    batch(&dir("whole"), &r);
    let mut other = r.to_vec();
    other.extend(["--shard", "3/3", "--min-severity", "error"]);
    batch(&dir("other3"), &other);
    let merge = |shards: &[&str]| {
        let out = dir("merged");
        let mut a = vec!["merge"];
        a.extend_from_slice(shards);
        a.extend(["--out", &out]);
        let o = arbiter(&a);
        assert_eq!(o.status.code(), Some(2));
        assert!(!Path::new(&out).join("audit.jsonl").exists());
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let (s1, s2, s3) = (dir("s1"), dir("s2"), dir("s3"));
    let e = merge(&[&s1, &s2]);
    assert!(e.contains("missing 3/3"), "{e}");
    let e = merge(&[&s1, &s2, &s2, &s3]);
    assert!(e.contains("given twice 2/3"), "{e}");
    let e = merge(&[&s1, &s2, &dir("whole")]);
    assert!(e.contains("not a shard's folder"), "{e}");
    let e = merge(&[&s1, &s2, &dir("other3")]);
    assert!(e.contains("invocations differ"), "{e}");
    // a part cut short
    let part = Path::new(&s3).join("shard.jsonl");
    let text = std::fs::read_to_string(&part).unwrap();
    let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&part, cut).unwrap();
    let e = merge(&[&s1, &s2, &s3]);
    assert!(e.contains("shard.jsonl") && e.contains("games"), "{e}");
}

/// A corrupt table probed in games of different shards, at the same
/// position: the merge counts each position once, as one batch does.
#[test]
fn positions_the_tables_could_not_probe_are_counted_once() {
    let t = tempfile::tempdir().unwrap();
    let tables = t.path().join("tb");
    std::fs::create_dir(&tables).unwrap();
    if super::bounds::copy_tables(&tables).is_none() {
        return;
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(tables.join("KQRvKR.rtbw"))
        .unwrap()
        .set_len(4096 + 16)
        .unwrap();
    // the KQRvKR game twice: games 3 and 4, in shards 1/2 and 2/2
    let games = super::bounds::endgames();
    let last = games.rfind("[Event").unwrap();
    let pgn = t.path().join("endgames.pgn");
    std::fs::write(&pgn, format!("{games}{}", &games[last..])).unwrap();
    let (_t, merged) = whole_and_merged(
        &[pgn.to_str().unwrap()],
        &[
            "--rules",
            "rulesets/tcec-s15.rules",
            "--syzygy",
            tables.to_str().unwrap(),
        ],
        2,
    );
    let summary = std::fs::read_to_string(merged.join("audit.jsonl")).unwrap();
    assert!(summary.contains("could not be probed"), "{summary}");
}
