//! The tree under review, defined once: for each PATH a command reviews,
//! the root of the repository containing it (the nearest ancestor holding a
//! `.git` directory or file), else the PATH itself (a file's directory),
//! links resolved. A policy's `.` means it (`policy::anchor`), and a
//! `--trust-store` inside it is refused (`store::safety`): whoever writes the
//! repository must not also supply what judges or records it.

use std::path::{Path, PathBuf};

use crate::core::env::Env;
use crate::core::paths::{expand_file_name, lexical_path};

/// The nearest directory at or above `dir` that holds a `.git` directory or
/// file (a worktree or submodule has a file), or `None`.
pub fn repository_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| {
            std::fs::symlink_metadata(d.join(".git"))
                .map(|m| m.is_dir() || m.is_file())
                .unwrap_or(false)
        })
        .map(Path::to_path_buf)
}

/// `path` made absolute as GocciaScript expands a command-line path (`~`,
/// the working directory), with links resolved; lexically normalized when it
/// does not exist.
pub(crate) fn resolved(path: &str, env: &Env) -> PathBuf {
    let expanded = expand_file_name(path, &env.cwd, &env.home);
    let lexical = lexical_path(&expanded, &env.cwd);
    std::fs::canonicalize(&lexical).unwrap_or_else(|_| PathBuf::from(lexical))
}

/// The tree under review for each PATH, in order, without repeats.
pub fn trees_under_review(paths: &[String], env: &Env) -> Vec<String> {
    let mut trees: Vec<String> = Vec::new();
    for path in paths {
        let real = resolved(path, env);
        // A config file's tree is its directory's; a PATH that does not
        // exist stands for itself (the command reports it).
        let dir = if real.exists() && !real.is_dir() {
            real.parent().map_or(real.clone(), Path::to_path_buf)
        } else {
            real
        };
        let tree = repository_root(&dir)
            .unwrap_or(dir)
            .to_string_lossy()
            .into_owned();
        if !trees.contains(&tree) {
            trees.push(tree);
        }
    }
    trees
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_anchors_to_its_repository_root_else_itself() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let repo = root.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("pkg/a")).unwrap();
        std::fs::write(repo.join("pkg/a/goccia.json"), "{}").unwrap();
        // A submodule or worktree has a `.git` file.
        std::fs::create_dir_all(repo.join("sub")).unwrap();
        std::fs::write(repo.join("sub/.git"), "gitdir: ../.git/modules/sub").unwrap();
        std::fs::create_dir_all(root.join("plain/x")).unwrap();
        std::os::unix::fs::symlink(repo.join("pkg"), root.join("link")).unwrap();
        let env = Env {
            cwd: root.to_string_lossy().into_owned(),
            home: "/nonexistent-home".into(),
            xdg_config_home: String::new(),
            xdg_state_home: String::new(),
        };
        let s = |p: &Path| p.to_string_lossy().into_owned();
        let trees = trees_under_review(
            &[
                "repo/pkg/a".into(),
                "repo/pkg/a/goccia.json".into(),
                "link".into(),
                "repo/sub".into(),
                "plain/x".into(),
                "missing".into(),
            ],
            &env,
        );
        assert_eq!(
            trees,
            [
                s(&repo),
                s(&repo.join("sub")),
                s(&root.join("plain/x")),
                s(&root.join("missing")),
            ]
        );
    }
}
