//! Which files of a working tree differ from its HEAD commit, for `review
//! sign`'s warning that a review covers what is on disk, not what is
//! committed (docs/src/signed-reviews.md#sign).
//!
//! `git status` is not used: to compare a file whose timestamps changed it
//! re-hashes the file through the clean filter the repository's
//! attributes name, and a filter is a program. Here git only lists HEAD's
//! entries (`ls-tree`) and hands over their blobs (`cat-file --batch`,
//! no filters), through the hardened runner of `super::git`; the bytes
//! on disk (a link's target text for a link) are compared in this
//! process. A file git would store converted (line endings) reads as
//! changed: the warning errs on the side of saying so.

use std::path::Path;

use super::git::{
    BlobReader, EntryMode, GitError, commit_of, git, output, parse_ls_tree, toplevel,
};
use crate::core::paths::bounded::CONFIG_MAX_BYTES;

/// The most `ls-tree` prints for the paths asked about.
const LIST_MAX: usize = 16 << 20;

/// Of `paths` (relative to the repository at `root`, `/`-separated),
/// those whose content on disk is not HEAD's: changed, staged but not
/// committed, or not in HEAD at all (every one, before the first commit).
/// An error when git cannot read the repository.
pub fn uncommitted(root: &str, paths: &[String]) -> Result<Vec<String>, GitError> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    // git works here at all; then a HEAD that names no commit is a
    // repository before its first commit.
    toplevel(root)?;
    let Ok(head) = commit_of(root, "HEAD") else {
        return Ok(paths.to_vec());
    };
    let mut cmd = git(root);
    // Paths are data, never patterns.
    cmd.env("GIT_LITERAL_PATHSPECS", "1")
        .args(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options"])
        .arg(&head)
        .arg("--")
        .args(paths);
    let entries = parse_ls_tree(&output(cmd, "ls-tree", LIST_MAX)?)?;
    let mut reader = BlobReader::spawn(root)?;
    let oids: Vec<&str> = entries.iter().map(|e| e.oid.as_str()).collect();
    let blobs = reader.read_many(&oids)?;
    let mut changed = Vec::new();
    for path in paths {
        let at_head = entries
            .iter()
            .zip(&blobs)
            .find(|(e, _)| e.path == path.as_bytes());
        let same = match at_head {
            Some((e, Some(blob))) => on_disk_is(&Path::new(root).join(path), e.mode, blob),
            _ => false,
        };
        if !same {
            changed.push(path.clone());
        }
    }
    Ok(changed)
}

/// Whether the file at `file` is what HEAD holds: a link with that target
/// text, or a regular file with those bytes.
fn on_disk_is(file: &Path, mode: EntryMode, blob: &[u8]) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(file) else {
        return false;
    };
    match mode {
        EntryMode::Link => {
            meta.file_type().is_symlink()
                && std::fs::read_link(file).is_ok_and(|t| t.as_os_str().as_encoded_bytes() == blob)
        }
        EntryMode::File => {
            meta.is_file()
                && meta.len() == blob.len() as u64
                && crate::core::paths::bounded::read_regular(file, CONFIG_MAX_BYTES)
                    .is_ok_and(|bytes| bytes == blob)
        }
        EntryMode::Submodule => false,
    }
}
