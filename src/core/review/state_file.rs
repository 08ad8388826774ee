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
    let text = serde_json::to_string_pretty(value).expect("serializable");
    tmp.write_all(text.as_bytes()).map_err(fail)?;
    tmp.write_all(b"\n").map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(&path).map_err(|e| fail(e.error))?;
    Ok(())
}
