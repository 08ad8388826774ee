//! A JSON file of this tool's own in the per-user state directory (review
//! progress, the ignore list): written whole or not at all, private from
//! its first byte, and only where the state directory is safe to use.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::core::paths::portable::create_private_dir_all;

/// Writes `value` as pretty JSON to `state_dir/name` atomically (a private
/// temporary file beside it, synced, renamed into place), creating the
/// directory private (0700) when needed. Refused, with the reason, where
/// the state directory is not safe to use; `what` names the file in
/// errors (`review progress`, `ignore list`).
pub fn write_state_file<T: Serialize>(
    state_dir: &Path,
    name: &str,
    what: &str,
    value: &T,
) -> Result<(), String> {
    let user = crate::core::store::User::current();
    if let Some(issue) =
        crate::core::store::refusal(&crate::core::store::check_state_dir(state_dir, &user))
    {
        return Err(issue.text.clone());
    }
    let path = state_dir.join(name);
    let fail = |e: std::io::Error| format!("cannot write {what} {}: {e}", path.display());
    create_private_dir_all(state_dir).map_err(fail)?;
    // tempfile creates the file 0600: private before a byte is written.
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{}.", name.trim_end_matches(".json")))
        .tempfile_in(state_dir)
        .map_err(fail)?;
    let text = serde_json::to_string_pretty(value).map_err(|e| fail(e.into()))?;
    tmp.write_all(text.as_bytes()).map_err(fail)?;
    tmp.write_all(b"\n").map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(&path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// How long a change of a state file waits for another one to finish.
const LOCK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The exclusive lock `state_dir/lock_name` (`review-progress.json.lock`),
/// held while the returned file is open, so two changes of the file it
/// guards (two reviews open at once) read, change and write it one after
/// the other. Refused where the state directory is not safe, as writing
/// is. A lock file left by an earlier change is opened without waiting
/// and only if regular (a FIFO there would block the open forever).
pub fn lock_state_file(state_dir: &Path, lock_name: &str) -> Result<std::fs::File, String> {
    use std::io::ErrorKind;
    let user = crate::core::store::User::current();
    if let Some(issue) =
        crate::core::store::refusal(&crate::core::store::check_state_dir(state_dir, &user))
    {
        return Err(issue.text.clone());
    }
    let path = state_dir.join(lock_name);
    let fail = |e: &dyn std::fmt::Display| format!("cannot lock {}: {e}", path.display());
    create_private_dir_all(state_dir).map_err(|e| fail(&e))?;
    let file = match crate::core::paths::portable::create_with_mode(
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true),
        0o600,
    )
    .open(&path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            let f = crate::core::paths::bounded::open_nonblocking(&path).map_err(|e| fail(&e))?;
            if !f.metadata().map_err(|e| fail(&e))?.is_file() {
                return Err(fail(&"not a regular file"));
            }
            f
        }
        Err(e) => return Err(fail(&e)),
    };
    let start = std::time::Instant::now();
    loop {
        // By its full path: std's `File::try_lock` would shadow fs4's.
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => return Ok(file),
            Err(fs4::TryLockError::WouldBlock) => {}
            Err(fs4::TryLockError::Error(e)) if e.kind() == ErrorKind::Interrupted => {}
            Err(fs4::TryLockError::Error(e)) => return Err(fail(&e)),
        }
        if start.elapsed() >= LOCK_TIMEOUT {
            return Err(fail(&format!(
                "held by another change for {}s",
                LOCK_TIMEOUT.as_secs()
            )));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
