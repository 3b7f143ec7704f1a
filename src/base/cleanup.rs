//! What a signal must not leave behind: the temporary files of reports
//! being written and the scratch folders of a run. Each is listed while it
//! exists ([`Leftover`]); the one signal handler removes every listed path
//! ([`remove_all`]) before the process exits, since an exit runs no
//! destructor.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

fn listed() -> MutexGuard<'static, BTreeMap<u64, PathBuf>> {
    static LISTED: OnceLock<Mutex<BTreeMap<u64, PathBuf>>> = OnceLock::new();
    LISTED
        .get_or_init(|| Mutex::new(BTreeMap::new()))
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// A path on the list while this lives: dropped, it leaves the list (the
/// owner removes the path itself, or keeps it on purpose).
#[derive(Debug)]
pub struct Leftover(u64);

impl Leftover {
    /// Make a file or a folder with `make` (which gives back what it made
    /// and its path) and list it, with the list held: a signal cannot come
    /// between the two and leave it behind.
    pub fn make<T, E>(make: impl FnOnce() -> Result<(T, PathBuf), E>) -> Result<(T, Leftover), E> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let mut list = listed();
        let (made, path) = make()?;
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        list.insert(id, path);
        Ok((made, Leftover(id)))
    }
}

impl Drop for Leftover {
    fn drop(&mut self) {
        listed().remove(&self.0);
    }
}

/// Make `dir` and its missing parents, with the list held: once a signal's
/// handler holds the list, this waits for the exit, so a folder it removed
/// (a run's scratch folder, or one inside it) is never made again.
pub fn make_dir_all(dir: &std::path::Path) -> std::io::Result<()> {
    let _list = listed();
    std::fs::create_dir_all(dir)
}

/// Remove every listed path; the number removed. Called by the signal
/// handler only: the list stays locked, so nothing is listed after it.
pub fn remove_all() -> usize {
    let mut list = listed();
    let removed = remove(std::mem::take(&mut *list).into_values());
    // held to the exit: a path listed now would never be removed
    std::mem::forget(list);
    removed
}

/// Remove each of `paths` (a folder with what it holds, never through a
/// link); the number removed.
fn remove(paths: impl IntoIterator<Item = PathBuf>) -> usize {
    let mut removed = 0;
    for path in paths {
        // another thread may still make a folder inside a folder being
        // removed (files wait for the list, which the handler holds): a
        // few more tries, a moment apart, then find it empty
        let mut gone = false;
        for _ in 0..50 {
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => {
                    let _ = std::fs::remove_dir_all(&path);
                }
                Ok(_) => {
                    let _ = std::fs::remove_file(&path);
                }
                Err(_) => break,
            }
            gone = std::fs::symlink_metadata(&path).is_err();
            if gone {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        removed += usize::from(gone);
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A listed file and folder are removed; one whose owner dropped its
    /// listing is kept.
    #[test]
    fn removes_what_is_listed_only() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.part");
        let folder = dir.path().join("scratch");
        let kept = dir.path().join("kept");
        std::fs::write(&file, "x").unwrap();
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("inner"), "y").unwrap();
        std::fs::write(&kept, "z").unwrap();
        let list = |p: &Path| {
            Leftover::make(|| Ok::<_, ()>(((), p.to_path_buf())))
                .unwrap()
                .1
        };
        let _a = list(&file);
        let _b = list(&folder);
        drop(list(&kept));
        // the listed paths of this test (other tests may list theirs)
        let paths: Vec<PathBuf> = listed()
            .values()
            .filter(|p| p.starts_with(dir.path()))
            .cloned()
            .collect();
        assert_eq!(paths.len(), 2, "{paths:?}");
        assert_eq!(remove(paths), 2);
        assert!(!file.exists() && !folder.exists());
        assert!(kept.exists());
    }
}
