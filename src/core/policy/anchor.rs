//! What `.` in a policy means. The reference resolves relative roots against
//! its skill root; run from a CI container's `/` or from `$HOME`, a policy
//! anchored to the working directory would approve everything there. So `.`
//! is never the working directory by accident:
//!
//! - for config requests (`trust --policy`, `scan --policy`), it is the tree
//!   under review: for each PATH, the root of the repository containing it
//!   (the nearest ancestor holding a `.git` directory or file), else the
//!   PATH itself (a file's directory), links resolved; so a package reading
//!   `../shared` inside the same repository stays inside the workspace;
//! - for `policy evaluate|run|show` with a policy file, it is that file's
//!   directory (the reference's skill root, docs/src/compatibility.md#relative-paths);
//! - with the built-in policy, it is `--workspace DIR`, else the repository
//!   root containing the working directory, else the working directory.

use std::path::PathBuf;

use crate::core::env::Env;
use crate::core::paths::reviewed::{repository_root, resolved};

/// Where the built-in policy's `.` points for the `policy` verbs, and why
/// (for `policy show`).
pub fn workspace_for_builtin(flag: Option<&str>, env: &Env) -> (String, &'static str) {
    if let Some(dir) = flag {
        return (
            resolved(dir, env).to_string_lossy().into_owned(),
            "--workspace",
        );
    }
    let cwd = PathBuf::from(&env.cwd);
    match repository_root(&cwd) {
        Some(root) => (
            root.to_string_lossy().into_owned(),
            "the repository root containing the working directory",
        ),
        None => (
            env.cwd.clone(),
            "the working directory, which no repository contains",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::policy::test_support::env_at;

    #[test]
    fn the_builtin_policy_anchors_to_the_flag_else_the_repository_else_cwd() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("repo/.git")).unwrap();
        std::fs::create_dir_all(root.join("repo/deep")).unwrap();
        let s = |p: &std::path::Path| p.to_string_lossy().into_owned();
        let env = env_at(&s(&root.join("repo/deep")), "/h");
        assert_eq!(workspace_for_builtin(None, &env).0, s(&root.join("repo")));
        assert_eq!(
            workspace_for_builtin(Some(".."), &env).0,
            s(&root.join("repo"))
        );
        let env = env_at(&s(&root), "/h");
        assert_eq!(workspace_for_builtin(None, &env).0, s(&root));
    }
}
