//! Changing the store: lock, re-read, apply, replace in one rename.
//!
//! What survives a crash at any moment:
//! * The store file is only ever replaced by `rename`, which is atomic: a
//!   reader or a later writer sees the old store or the new one, never a
//!   mix. The new bytes are `fsync`ed before the rename, so after a power
//!   loss the name points at complete data.
//! * A writer killed mid-write leaves at most its `<store>.<pid>.tmp`; the
//!   next writer removes it under the lock.
//! * The lock is an OS `flock` on `<store>.lock`, released by the kernel
//!   when its holder exits however it exits, so the lock file left on disk
//!   never blocks anyone. It is never deleted: deleting it would let a
//!   writer lock an unlinked inode while another locks a fresh file.

use std::fs::{self, File, OpenOptions};
use std::io::ErrorKind;
use std::path::Path;
use std::time::{Duration, Instant};

use super::error::StoreError;
use super::error::io_cause;
use super::location::StoreLocation;
use super::model::Store;
use super::read::read_store;
use super::safety::{User, check_store, refusal, store_destination};
use super::write::write_store;
use crate::core::paths::portable::{create_with_mode, dir_builder, set_file_mode, set_mode};

/// How long a writer waits for another writer's lock (docs/src/compatibility.md#locking).
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(10);
/// Writers hold the lock for milliseconds; polling this often costs nothing.
const LOCK_RETRY: Duration = Duration::from_millis(20);
const PRIVATE_DIR: u32 = 0o700;
const PRIVATE_FILE: u32 = 0o600;

/// What the caller's change returned, and whether the file was replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Updated<R> {
    pub value: R,
    pub written: bool,
}

/// [`update_store_with_timeout`] with the documented 10-second wait.
pub fn update_store<R>(
    loc: &StoreLocation,
    apply: impl FnMut(&mut Store) -> Result<R, StoreError>,
) -> Result<Updated<R>, StoreError> {
    update_store_with_timeout(loc, LOCK_TIMEOUT, apply)
}

/// Applies `apply` to the store as it is on disk and saves the result when
/// `apply` changed anything (`Store::is_modified`).
///
/// `apply` runs first on the store read without the lock, as GocciaScript
/// decides from its first read whether to save at all: when nothing changes
/// (an `--untrust` that matches nothing, a `--trust` of trusted configs) no
/// directory, lock or file is touched. Otherwise it runs again, under the
/// lock, on the store re-read from disk, so it must derive its changes from
/// the store it is given; its second result is returned. An unreadable
/// store is an error and is never overwritten.
pub fn update_store_with_timeout<R>(
    loc: &StoreLocation,
    timeout: Duration,
    apply: impl FnMut(&mut Store) -> Result<R, StoreError>,
) -> Result<Updated<R>, StoreError> {
    let store = read_store(&loc.path)?;
    update_read_store(loc, store, timeout, apply)
}

/// [`update_store_with_timeout`] for a caller that has just read the store
/// itself: `read` serves as the unlocked first pass, saving one read of the
/// file (a 10,000-entry store is megabytes).
pub fn update_read_store<R>(
    loc: &StoreLocation,
    mut read: Store,
    timeout: Duration,
    mut apply: impl FnMut(&mut Store) -> Result<R, StoreError>,
) -> Result<Updated<R>, StoreError> {
    let value = apply(&mut read)?;
    if !read.is_modified() {
        return Ok(Updated {
            value,
            written: false,
        });
    }
    update_store_locked(loc, timeout, apply)
}

/// Applies `apply` once, under the lock, to the store re-read from disk,
/// and saves the result when `apply` changed anything. Unlike
/// [`update_read_store`] there is no unlocked first pass: for a caller
/// whose change is costly to work out (re-reading every config it records)
/// and is wanted, so the directory and lock file are created and the lock
/// taken even when `apply` ends up changing nothing (the store file is then
/// left as it is).
pub fn update_store_locked<R>(
    loc: &StoreLocation,
    timeout: Duration,
    mut apply: impl FnMut(&mut Store) -> Result<R, StoreError>,
) -> Result<Updated<R>, StoreError> {
    // Whoever else can write the store or its directories decides what
    // its owner trusts: refuse before anything is created or locked.
    if let Some(issue) = refusal(&check_store(loc, &User::current())) {
        return Err(StoreError::Unsafe {
            problem: issue.text.clone(),
        });
    }
    let dir = store_dir(&loc.path);
    prepare_dir(&loc.path, dir, loc.is_default)?;
    let _lock = acquire_lock(loc, timeout)?;
    let mut store = read_store(&loc.path)?;
    let value = apply(&mut store)?;
    if !store.is_modified() {
        return Ok(Updated {
            value,
            written: false,
        });
    }
    // A store reached through a link (stow, chezmoi) keeps its link: the
    // file the link leads to is replaced, from a temp file beside it.
    let target = write_target(&loc.path)?;
    let target_dir = store_dir(&target);
    remove_leftover_temp_files(&target);
    persist(&target, target_dir, |out| write_store(&store, out))?;
    Ok(Updated {
        value,
        written: true,
    })
    // `_lock` drops here, after the rename: the next writer re-reads the
    // store this one wrote.
}

/// The file a save replaces: the store path itself, or, when it is a
/// symbolic link, the file at the end of the link (never a dangling link).
fn write_target(path: &str) -> Result<String, StoreError> {
    match store_destination(path)? {
        None => Ok(path.to_string()),
        Some(dest) if dest.is_dir() => Err(StoreError::IsDirectory {
            path: dest.display().to_string(),
        }),
        Some(dest) => dest
            .into_os_string()
            .into_string()
            .map_err(|dest| StoreError::Write {
                path: path.to_string(),
                cause: format!(
                    "the link leads to {}, whose name is not UTF-8",
                    dest.to_string_lossy()
                ),
            }),
    }
}

fn store_dir(path: &str) -> &Path {
    match Path::new(path).parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Creates missing directories 0700 (explicitly, whatever the umask) and
/// makes the per-user default directory private again on every save.
fn prepare_dir(store_path: &str, dir: &Path, is_default: bool) -> Result<(), StoreError> {
    let fail = |d: &Path, e: &std::io::Error| StoreError::CreateDir {
        dir: d.display().to_string(),
        cause: io_cause(e),
    };
    if !dir.is_dir() {
        let mut missing = vec![dir];
        let mut cur = dir;
        while let Some(parent) = cur.parent() {
            if parent.as_os_str().is_empty() || parent.is_dir() {
                break;
            }
            missing.push(parent);
            cur = parent;
        }
        for d in missing.into_iter().rev() {
            match dir_builder(PRIVATE_DIR).create(d) {
                Ok(()) => set_mode(d, PRIVATE_DIR).map_err(|e| fail(d, &e))?,
                // Another writer may have created it a moment ago.
                Err(e) if e.kind() == ErrorKind::AlreadyExists && d.is_dir() => {}
                Err(e) => return Err(fail(d, &e)),
            }
        }
    }
    if is_default {
        set_mode(dir, PRIVATE_DIR).map_err(|e| StoreError::Write {
            path: store_path.to_string(),
            cause: format!("making {} private: {}", dir.display(), io_cause(&e)),
        })?;
    }
    Ok(())
}

/// The exclusive lock, held for as long as the returned file is open.
/// `fs4::FileExt` is called by its full path: std's `File::try_lock`
/// (Rust 1.89) would otherwise shadow it (docs/src/compatibility.md#locking).
fn acquire_lock(loc: &StoreLocation, timeout: Duration) -> Result<File, StoreError> {
    let lock_path = loc.lock_path();
    let failed = |e: &std::io::Error| StoreError::LockFailed {
        path: loc.path.clone(),
        lock_path: lock_path.clone(),
        cause: io_cause(e),
    };
    let file = match create_with_mode(
        OpenOptions::new().read(true).write(true).create_new(true),
        PRIVATE_FILE,
    )
    .open(&lock_path)
    {
        Ok(f) => {
            set_file_mode(&f, PRIVATE_FILE).map_err(|e| failed(&e))?;
            f
        }
        // A lock file left by an earlier writer: only its lock matters,
        // and flock needs no write access.
        // Opened without waiting and only if regular: a FIFO there would
        // block the open forever, bypassing the lock timeout.
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            let f = crate::core::paths::bounded::open_nonblocking(Path::new(&lock_path))
                .map_err(|e| failed(&e))?;
            if !f.metadata().map_err(|e| failed(&e))?.is_file() {
                return Err(StoreError::LockFailed {
                    path: loc.path.clone(),
                    lock_path: lock_path.clone(),
                    cause: "not a regular file".into(),
                });
            }
            f
        }
        Err(e) => return Err(failed(&e)),
    };
    let start = Instant::now();
    loop {
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => return Ok(file),
            Err(fs4::TryLockError::WouldBlock) => {}
            Err(fs4::TryLockError::Error(e)) if e.kind() == ErrorKind::Interrupted => {}
            Err(fs4::TryLockError::Error(e)) => return Err(failed(&e)),
        }
        let waited = start.elapsed();
        if waited >= timeout {
            return Err(StoreError::Locked {
                path: loc.path.clone(),
                lock_path,
                waited: timeout,
            });
        }
        std::thread::sleep(LOCK_RETRY.min(timeout - waited));
    }
}

/// `<store>.<pid>.tmp` files are only written under the lock, which we
/// hold: any present now belongs to a writer that died mid-write.
fn remove_leftover_temp_files(store_path: &str) {
    let path = Path::new(store_path);
    let (Some(name), dir) = (
        path.file_name().and_then(|n| n.to_str()),
        store_dir(store_path),
    ) else {
        return;
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(name))
            .and_then(|rest| rest.strip_prefix('.'))
            .and_then(|rest| rest.strip_suffix(".tmp"))
        else {
            continue;
        };
        if !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Created exclusively and 0600 from the first instant, so the new store
/// is never readable by others, even before it replaces the old one.
pub(super) fn create_temp(tmp: &str) -> std::io::Result<File> {
    let file = create_with_mode(
        OpenOptions::new().write(true).create_new(true),
        PRIVATE_FILE,
    )
    .open(tmp)?;
    // The umask can only have removed bits; make the mode exact.
    set_file_mode(&file, PRIVATE_FILE)?;
    Ok(file)
}

/// Writes what `write` writes to `<store>.<pid>.tmp` (streamed through
/// a buffer, never whole in memory), syncs it and renames it over the
/// store. On any failure the temp file is removed and the old store is
/// untouched.
fn persist(
    store_path: &str,
    dir: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), StoreError> {
    let tmp = format!("{store_path}.{}.tmp", std::process::id());
    let fail = |what: &str, e: &std::io::Error| StoreError::Write {
        path: store_path.to_string(),
        cause: format!("{what} {tmp}: {}", io_cause(e)),
    };
    let file = create_temp(&tmp).map_err(|e| fail("creating", &e))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
    let written = write(&mut out)
        .and_then(|()| out.into_inner().map_err(|e| e.into_error()))
        .and_then(|file| file.sync_all())
        .map_err(|e| fail("writing", &e))
        .and_then(|()| fs::rename(&tmp, store_path).map_err(|e| fail("renaming", &e)));
    if let Err(err) = written {
        let _ = fs::remove_file(&tmp);
        return Err(err);
    }
    // Makes the rename itself durable across a power loss. Every reader
    // already sees the new store, and some file systems refuse to sync a
    // directory, so a failure here is not reported.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;

    fn loc_in(dir: &Path) -> StoreLocation {
        StoreLocation {
            path: dir.join("trust.json").to_str().unwrap().to_string(),
            is_default: false,
            as_typed: None,
        }
    }

    #[test]
    fn a_locked_update_applies_its_change_once_and_saves_it() {
        let dir = tempfile::tempdir().unwrap();
        let loc = loc_in(dir.path());
        let mut calls = 0;
        let done = update_store_locked(&loc, LOCK_TIMEOUT, |store| {
            calls += 1;
            store.put(
                "/r/goccia.json",
                crate::core::store::StoredEntry {
                    sha256: crate::core::store::Sha256::from_hex(&"1".repeat(64)).unwrap(),
                    block: crate::core::config::json::Json::Object(vec![]).into(),
                    targets: Box::new([]),
                    trusted_at: "2026-09-25T10:12:03Z".into(),
                    trusted_by: "goccia-trust 0.1.0".into(),
                },
            );
            Ok(calls)
        })
        .unwrap();
        assert_eq!((calls, done.value, done.written), (1, 1, true));
        let back = read_store(&loc.path).unwrap();
        assert!(back.get("/r/goccia.json").is_some());
    }

    #[test]
    fn a_locked_update_that_changes_nothing_leaves_the_store_unwritten() {
        let dir = tempfile::tempdir().unwrap();
        let loc = loc_in(dir.path());
        let mut calls = 0;
        let done = update_store_locked(&loc, LOCK_TIMEOUT, |_| {
            calls += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!((calls, done.written), (1, false));
        assert!(!Path::new(&loc.path).exists());
    }

    #[test]
    fn temp_file_is_private_and_exclusive() {
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join("trust.json.42.tmp");
        let tmp = tmp.to_str().unwrap();
        let f = create_temp(tmp).unwrap();
        assert_eq!(f.metadata().unwrap().mode() & 0o777, 0o600);
        assert_eq!(
            create_temp(tmp).unwrap_err().kind(),
            ErrorKind::AlreadyExists
        );
    }

    #[test]
    fn leftover_temp_files_of_this_store_only_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "trust.json.123.tmp",
            "trust.json.9.tmp",
            "trust.json.x1.tmp",
            "trust.json..tmp",
            "other.json.5.tmp",
            "trust.json.lock",
        ];
        for n in names {
            fs::write(dir.path().join(n), "").unwrap();
        }
        remove_leftover_temp_files(dir.path().join("trust.json").to_str().unwrap());
        let mut left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "other.json.5.tmp",
                "trust.json..tmp",
                "trust.json.lock",
                "trust.json.x1.tmp"
            ]
        );
    }

    #[test]
    fn a_failed_write_removes_the_temp_file_and_keeps_the_store() {
        let dir = tempfile::tempdir().unwrap();
        // The store path is a non-empty directory: the rename must fail.
        let store = dir.path().join("trust.json");
        fs::create_dir(&store).unwrap();
        fs::write(store.join("keep"), "x").unwrap();
        let store = store.to_str().unwrap();
        let err = persist(store, dir.path(), |out| out.write_all(b"{}")).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(&format!(
                "cannot write trust store {store}: renaming {store}."
            )),
            "{text}"
        );
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "only the store remains"
        );
        assert!(Path::new(store).join("keep").exists());
    }
}
