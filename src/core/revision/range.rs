//! What a pull, checkout or rebase changed: the paths that differ between
//! the commit before and the commit after (`git diff-tree`, through the
//! hardened read-only [`git`](crate::core::revision::git::git)), for the
//! hooks' notice to name only the configs the operation touched.

use std::collections::HashMap;

use crate::core::revision::git::{GitError, commit_of, git, output};

/// The most a `diff-tree --name-status` prints.
const DIFF_OUTPUT: usize = 64 * 1024 * 1024;

/// A commit id git passes to `post-checkout` for "no commit" (a clone).
pub fn is_null_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b == b'0')
}

/// The paths (absolute, under `root`) that differ between the commits
/// `old` and `new`, each with whether `new` added it.
pub fn changed_paths(root: &str, old: &str, new: &str) -> Result<HashMap<String, bool>, GitError> {
    let (old, new) = (commit_of(root, old)?, commit_of(root, new)?);
    let mut cmd = git(root);
    cmd.args([
        "diff-tree",
        "-r",
        "-z",
        "--no-renames",
        "--name-status",
        "--end-of-options",
        &old,
        &new,
    ]);
    let out = output(cmd, "diff-tree", DIFF_OUTPUT)?;
    let mut fields = out.split(|b| *b == 0).filter(|f| !f.is_empty());
    let mut paths = HashMap::new();
    while let (Some(status), Some(path)) = (fields.next(), fields.next()) {
        // A path that is not UTF-8 cannot name a config (a key is a JSON
        // string).
        if let Ok(path) = std::str::from_utf8(path) {
            paths.insert(format!("{root}/{path}"), status == b"A");
        }
    }
    Ok(paths)
}
