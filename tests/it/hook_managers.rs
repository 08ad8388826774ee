//! The git hooks under the real hook managers (issue 41 item 4): husky 9,
//! lefthook and pre-commit install their own hook files; `hook install`
//! leaves those alone and prints what to add to the manager's own file, and
//! what it prints, added there, runs: a checkout or merge names the config
//! it made need review, and git succeeds with goccia-trust off the PATH.
//! `.ci/run` installs the three tools (pre-commit from PyPI, husky and
//! lefthook from npm) and puts them on PATH.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::git::{GIT_ENV, git};
use crate::common::{TestEnv, tool_available};
use crate::hook_clients::{BARE_PATH, git_with_path, repo};
use crate::prompt_clients::{search_path, snippet};

/// The directory of `tool` on this process's PATH.
fn dir_of(tool: &str) -> PathBuf {
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .find(|d| d.join(tool).is_file())
        .unwrap_or_else(|| panic!("{tool} not on PATH"))
}

/// Runs `tool args` in `dir` as the user whose HOME the test owns.
fn run_tool(env: &TestEnv, dir: &Path, tool: &str, args: &[&str]) {
    let out = Command::new(dir_of(tool).join(tool))
        .current_dir(dir)
        .env("HOME", &env.home)
        .envs(GIT_ENV.iter().copied())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{tool} {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `repo`'s two commits, with HEAD on a branch `old` at the first one,
/// whose config is trusted: going to `main` widens it.
fn trusted_at_old(env: &TestEnv) -> PathBuf {
    let dir = repo(env);
    git(&dir, &["checkout", "-q", "-b", "old", "HEAD~1"]);
    assert_eq!(
        env.run_in(&dir, &["trust", "--yes", "goccia.json"], GIT_ENV)
            .code,
        0
    );
    dir
}

/// A PATH with goccia-trust and `tool` on it, or only `tool`.
fn path_with(tool: &str, goccia: bool) -> String {
    let tool_dir = dir_of(tool).display().to_string();
    if goccia {
        format!("{tool_dir}:{}", search_path())
    } else {
        format!("{tool_dir}:{BARE_PATH}")
    }
}

fn assert_named_after(text: &str, code: i32) {
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("goccia: ") && text.contains("goccia.json (changed)"),
        "the notice does not name the config: {text}"
    );
}

#[test]
fn under_real_pre_commit_the_printed_entry_runs_on_a_merge() {
    if !crate::common::in_checkout() {
        return;
    }
    if !tool_available("pre-commit", "--version") {
        return;
    }
    let env = TestEnv::new();
    let dir = trusted_at_old(&env);
    std::fs::write(
        dir.join(".pre-commit-config.yaml"),
        format!("repos:\n{}", snippet("pre-commit")),
    )
    .unwrap();
    run_tool(
        &env,
        &dir,
        "pre-commit",
        &["install", "--hook-type", "post-merge"],
    );
    let generated = std::fs::read(dir.join(".git/hooks/post-merge")).unwrap();
    let out = env.run_in(&dir, &["hook", "install"], GIT_ENV);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stdout.contains("is pre-commit's"), "{out}");
    assert_eq!(
        std::fs::read(dir.join(".git/hooks/post-merge")).unwrap(),
        generated
    );
    let (code, text) = git_with_path(
        &env,
        &dir,
        &path_with("pre-commit", true),
        &["merge", "-q", "--ff-only", "main"],
    );
    assert_named_after(&text, code);
    // Without goccia-trust on the PATH, the merge back and forth succeeds.
    git(&dir, &["reset", "-q", "--hard", "HEAD~1"]);
    let (code, text) = git_with_path(
        &env,
        &dir,
        &path_with("pre-commit", false),
        &["merge", "-q", "--ff-only", "main"],
    );
    assert_eq!(code, 0, "{text}");
}

#[test]
fn under_real_lefthook_the_printed_entry_runs_on_a_checkout() {
    if !crate::common::in_checkout() {
        return;
    }
    if !tool_available("lefthook", "version") {
        return;
    }
    let env = TestEnv::new();
    let dir = trusted_at_old(&env);
    std::fs::write(dir.join("lefthook.yml"), snippet("lefthook")).unwrap();
    run_tool(&env, &dir, "lefthook", &["install"]);
    let generated = std::fs::read(dir.join(".git/hooks/post-checkout")).unwrap();
    let out = env.run_in(&dir, &["hook", "install"], GIT_ENV);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stdout.contains("is lefthook's"), "{out}");
    assert_eq!(
        std::fs::read(dir.join(".git/hooks/post-checkout")).unwrap(),
        generated
    );
    let (code, text) = git_with_path(
        &env,
        &dir,
        &path_with("lefthook", true),
        &["checkout", "-q", "main"],
    );
    assert_named_after(&text, code);
    let (code, text) = git_with_path(
        &env,
        &dir,
        &path_with("lefthook", false),
        &["checkout", "-q", "old"],
    );
    assert_eq!(code, 0, "{text}");
}

#[test]
fn under_real_husky_the_printed_line_runs_on_a_checkout() {
    if !crate::common::in_checkout() {
        return;
    }
    // husky has no version flag that does not also install: look it up.
    let path = std::env::var("PATH").unwrap_or_default();
    if !std::env::split_paths(&path).any(|d| d.join("husky").is_file()) {
        crate::common::skip_outside_ci("husky is not installed");
        return;
    }
    let env = TestEnv::new();
    let dir = trusted_at_old(&env);
    // `husky` (9) points core.hooksPath at .husky/_ and writes its scripts.
    run_tool(&env, &dir, "husky", &[]);
    let generated = std::fs::read(dir.join(".husky/_/post-checkout")).unwrap();
    let out = env.run_in(&dir, &["hook", "install"], GIT_ENV);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stdout.contains("is husky's"), "{out}");
    assert_eq!(
        std::fs::read(dir.join(".husky/_/post-checkout")).unwrap(),
        generated
    );
    let line = out
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("post-checkout: "))
        .nth(1)
        .expect("the line to add")
        .trim()
        .replace("$ROOT", &env.root.display().to_string());
    assert!(
        line.ends_with("goccia-trust hook run post-checkout \"$@\"; } || :"),
        "{out}"
    );
    std::fs::write(dir.join(".husky/post-checkout"), format!("{line}\n")).unwrap();
    let status = env.run_in(&dir, &["hook", "status"], GIT_ENV);
    assert!(
        status.stdout.contains("post-checkout: installed"),
        "{status}"
    );
    let (code, text) = git_with_path(
        &env,
        &dir,
        &path_with("husky", true),
        &["checkout", "-q", "main"],
    );
    assert_named_after(&text, code);
    let (code, text) = git_with_path(
        &env,
        &dir,
        &path_with("husky", false),
        &["checkout", "-q", "old"],
    );
    assert_eq!(code, 0, "{text}");
}
