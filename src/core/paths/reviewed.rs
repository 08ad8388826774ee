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
    dir.ancestors().find(|d| has_git(d)).map(Path::to_path_buf)
}

/// Whether `dir` holds a `.git` directory or file.
fn has_git(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(".git")).is_ok_and(|m| m.is_dir() || m.is_file())
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
///
/// `check` may name thousands of files: the PATHs are resolved on every
/// thread, each ancestor is asked for `.git` once however many PATHs share
/// it, and repeats are found by hashing, not by comparing with every tree
/// kept so far.
pub fn trees_under_review(paths: &[String], env: &Env) -> Vec<String> {
    use rayon::prelude::*;
    use std::collections::{HashMap, HashSet};
    let dirs: Vec<PathBuf> = paths
        .par_iter()
        .map(|path| {
            let real = resolved(path, env);
            // A config file's tree is its directory's; a PATH that does not
            // exist stands for itself (the command reports it).
            if real.exists() && !real.is_dir() {
                real.parent().map_or(real.clone(), Path::to_path_buf)
            } else {
                real
            }
        })
        .collect();
    let mut holds_git: HashMap<PathBuf, bool> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut trees: Vec<String> = Vec::new();
    for dir in dirs {
        let root = dir.ancestors().find(|d| match holds_git.get(*d) {
            Some(&known) => known,
            None => {
                let found = has_git(d);
                holds_git.insert(d.to_path_buf(), found);
                found
            }
        });
        let tree = root.unwrap_or(&dir).to_string_lossy().into_owned();
        if seen.insert(tree.clone()) {
            trees.push(tree);
        }
    }
    trees
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
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
            ..Env::default()
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

    /// Many PATHs (as `check` gets them): each tree once, in the order its
    /// first PATH came, whether the PATHs share a repository or not.
    #[test]
    fn many_paths_give_each_tree_once_in_first_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        for r in ["r1", "r2"] {
            std::fs::create_dir_all(root.join(r).join(".git")).unwrap();
        }
        let mut paths = Vec::new();
        for i in 0..300 {
            let p = match i % 3 {
                0 => format!("r{}/d{i}", 2 - i % 2),
                1 => format!("plain/d{}", i % 50),
                _ => format!("r1/x/d{i}/f.js"),
            };
            std::fs::create_dir_all(root.join(&p)).unwrap();
            paths.push(p);
        }
        let env = Env {
            cwd: root.to_string_lossy().into_owned(),
            home: "/nonexistent-home".into(),
            ..Env::default()
        };
        let mut expected: Vec<String> = Vec::new();
        for p in &paths {
            let tree = match p.split('/').next() {
                Some(r @ ("r1" | "r2")) => root.join(r),
                _ => root.join(p),
            };
            let tree = tree.to_string_lossy().into_owned();
            if !expected.contains(&tree) {
                expected.push(tree);
            }
        }
        assert_eq!(
            expected[..3],
            [
                s_of(&root, "r2"),
                s_of(&root, "plain/d1"),
                s_of(&root, "r1")
            ]
        );
        assert_eq!(trees_under_review(&paths, &env), expected);
    }

    fn s_of(root: &Path, rel: &str) -> String {
        root.join(rel).to_string_lossy().into_owned()
    }
}
