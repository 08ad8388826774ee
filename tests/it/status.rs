//! `status [PATH] [--tree]` (issue 26 item 1) and the git hooks that run it
//! after a pull, checkout or rebase (`hook install | uninstall | status`,
//! item 2), on real trees and real repositories built here.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::TestEnv;
use crate::common::git::{GIT_ENV, git, perms};

const NET: &str = r#"{"permissions": {"allow-net": ["a.test"]}}"#;

#[test]
fn nothing_when_trusted_one_line_and_exit_1_otherwise() {
    let env = TestEnv::new();
    // No config at all: nothing to say.
    let out = env.run(&["status"]);
    assert_eq!((out.stdout.as_str(), out.code), ("", 0), "{out}");
    // A config that only denies needs no trust.
    env.write("goccia.json", r#"{"permissions": {"deny-net": true}}"#);
    assert_eq!(env.run(&["status"]).code, 0);
    // Never trusted, from a subdirectory without a config of its own.
    env.write("goccia.json", NET);
    env.mkdir("src/deep");
    let out = env.run(&["status", "src/deep"]);
    assert_eq!(
        out.to_string(),
        "goccia: 1 never trusted (run goccia-trust to review)\n[exit status: 1]"
    );
    assert_eq!(env.run(&["trust", "--yes", "goccia.json"]).code, 0);
    let out = env.run(&["status", "src/deep"]);
    assert_eq!(out.to_string(), "[exit status: 0]");
}

#[test]
fn a_changed_extends_base_changes_the_governing_config() {
    let env = TestEnv::new();
    env.write("base.json", r#"{"permissions": {"allow-read": ["."]}}"#);
    env.write(
        "goccia.json",
        r#"{"extends": "./base.json", "permissions": {"allow-net": ["a.test"]}}"#,
    );
    assert_eq!(env.run(&["trust", "--yes", "goccia.json"]).code, 0);
    assert_eq!(env.run(&["status"]).code, 0);
    env.write("base.json", r#"{"permissions": {"allow-read": ["/"]}}"#);
    let out = env.run(&["status"]);
    assert_eq!(
        out.to_string(),
        "goccia: 1 changed (run goccia-trust to review)\n[exit status: 1]"
    );
}

#[test]
fn without_tree_nothing_below_is_read_with_tree_everything_is() {
    let env = TestEnv::new();
    env.write("goccia.json", r#"{"permissions": {"deny-net": true}}"#);
    env.write("a/goccia.json", NET);
    env.write("b/goccia.toml", "[permissions]\nallow-net = [\"b.test\"]\n");
    // The configs below the working directory do not govern it.
    assert_eq!(env.run(&["status"]).code, 0);
    let out = env.run(&["status", "--tree"]);
    assert_eq!(
        out.to_string(),
        "goccia: 2 never trusted (run goccia-trust to review)\n[exit status: 1]"
    );
    // A config that does not load is said, on both streams: fail closed.
    env.write("a/goccia.json", "{");
    let out = env.run(&["status", "--tree"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(
        out.stdout,
        "goccia: 1 never trusted, 1 config error (run goccia-trust to review)\n"
    );
    assert!(
        out.stderr
            .starts_with("Warning: $ROOT/work/a/goccia.json: "),
        "{out}"
    );
}

#[test]
fn an_unreadable_store_is_not_an_all_clear() {
    let env = TestEnv::new();
    env.write("goccia.json", NET);
    assert_eq!(env.run(&["trust", "--yes", "goccia.json"]).code, 0);
    std::fs::write(env.default_store(), "{ not json").unwrap();
    let out = env.run(&["status"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(
        out.stdout,
        "goccia: trust store unreadable (run goccia-trust to review)\n"
    );
    assert!(out.stderr.starts_with("Warning: "), "{out}");
    assert!(out.stderr.contains("no config can be judged"), "{out}");
    // Nor is a store that cannot be located.
    let out = env.run_with_env(&["status"], &[("HOME", "")]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stdout.contains("trust store unreadable"), "{out}");
}

/// The directory holding the binary under test, for a PATH.
fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_goccia-trust"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn search_path() -> String {
    format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

// ---------------------------------------------------------------------------
// Hooks.

fn run_in(env: &TestEnv, dir: &Path, args: &[&str]) -> crate::common::Output {
    env.run_in(dir, args, GIT_ENV)
}

fn hooks_snapshot(dir: &Path) -> Vec<(String, Vec<u8>, u32)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| {
                let p = e.unwrap().path();
                let mode = std::fs::metadata(&p).unwrap().permissions().mode();
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                    mode,
                )
            })
            .collect()
        })
        .unwrap_or_default();
    all.sort();
    all
}

#[test]
fn install_beside_an_existing_hook_then_uninstall_byte_exact() {
    let env = TestEnv::new();
    git(&env.work, &["init", "-q", "-b", "main"]);
    let hooks = env.work.join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    // An existing shell hook without a final newline, and a hook in
    // another language.
    let own = b"#!/bin/bash\nset -e\necho merged".to_vec();
    std::fs::write(hooks.join("post-merge"), &own).unwrap();
    std::fs::set_permissions(
        hooks.join("post-merge"),
        std::fs::Permissions::from_mode(0o750),
    )
    .unwrap();
    std::fs::write(hooks.join("pre-commit.sample"), "#!/bin/sh\n").unwrap();
    let before = hooks_snapshot(&hooks);

    let out = run_in(&env, &env.work, &["hook", "install"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        out.stdout,
        "hooks directory: $ROOT/work/.git/hooks\n\
         post-merge: added to $ROOT/work/.git/hooks/post-merge\n\
         post-checkout: created $ROOT/work/.git/hooks/post-checkout\n\
         post-rewrite: created $ROOT/work/.git/hooks/post-rewrite\n"
    );
    let merged = std::fs::read(hooks.join("post-merge")).unwrap();
    assert!(merged.starts_with(&own));
    assert!(String::from_utf8_lossy(&merged).contains("goccia-trust hook run post-merge \"$@\""));
    let status = run_in(&env, &env.work, &["hook", "status"]);
    assert_eq!(status.stdout.matches(": installed ").count(), 3, "{status}");
    // Installing again changes nothing.
    let again = run_in(&env, &env.work, &["hook", "install"]);
    assert_eq!(again.stdout.matches("already in").count(), 3, "{again}");
    assert_eq!(std::fs::read(hooks.join("post-merge")).unwrap(), merged);

    let out = run_in(&env, &env.work, &["hook", "uninstall"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(hooks_snapshot(&hooks), before);
}

/// Beside a hook in another language, install does the others and says
/// what to add to that one (issue 41 item 4; before, it refused all three).
#[test]
fn beside_a_hook_that_is_not_a_shell_script_the_others_are_installed() {
    let env = TestEnv::new();
    git(&env.work, &["init", "-q", "-b", "main"]);
    let hooks = env.work.join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let python = "#!/usr/bin/env python3\nprint(1)\n";
    std::fs::write(hooks.join("post-rewrite"), python).unwrap();
    let out = run_in(&env, &env.work, &["hook", "install"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(
        out.stdout,
        "hooks directory: $ROOT/work/.git/hooks\n\
         post-merge: created $ROOT/work/.git/hooks/post-merge\n\
         post-checkout: created $ROOT/work/.git/hooks/post-checkout\n\
         post-rewrite: $ROOT/work/.git/hooks/post-rewrite left as it is (it is not a shell script); add this line to it:\n  \
         { command -v goccia-trust >/dev/null 2>&1 && GOCCIA_TRUST_STATE_DIR=$ROOT/state goccia-trust hook run post-rewrite \"$@\"; } || :\n"
    );
    assert!(out.stderr.contains("1 hook(s) left as they are"), "{out}");
    assert_eq!(
        std::fs::read_to_string(hooks.join("post-rewrite")).unwrap(),
        python
    );
    let status = run_in(&env, &env.work, &["hook", "status"]);
    assert_eq!(status.stdout.matches(": installed ").count(), 2, "{status}");
    // With the line added by hand, install leaves that hook be; uninstall
    // leaves the hand-made line.
    let by_hand = "#!/usr/bin/env python3\nprint(1)\n# goccia-trust hook run post-rewrite\n";
    std::fs::write(hooks.join("post-rewrite"), by_hand).unwrap();
    let out = run_in(&env, &env.work, &["hook", "install"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .contains("post-rewrite: run by a line of its own in"),
        "{out}"
    );
    assert_eq!(run_in(&env, &env.work, &["hook", "uninstall"]).code, 0);
    assert_eq!(
        std::fs::read_to_string(hooks.join("post-rewrite")).unwrap(),
        by_hand
    );
    assert!(!hooks.join("post-merge").exists());
}

#[test]
fn core_hooks_path_is_where_the_hooks_go() {
    let env = TestEnv::new();
    git(&env.work, &["init", "-q", "-b", "main"]);
    git(&env.work, &["config", "core.hooksPath", ".githooks"]);
    let hooks = env.work.join(".githooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::write(hooks.join("post-checkout"), "#!/bin/sh\necho checked out\n").unwrap();
    let before = hooks_snapshot(&hooks);
    let out = run_in(&env, &env.work, &["hook", "install"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .starts_with("hooks directory: $ROOT/work/.githooks (core.hooksPath)\n"),
        "{out}"
    );
    assert!(hooks.join("post-merge").exists());
    assert!(!env.work.join(".git/hooks/post-merge").exists());
    assert_eq!(run_in(&env, &env.work, &["hook", "uninstall"]).code, 0);
    assert_eq!(hooks_snapshot(&hooks), before);
}

#[test]
fn a_pull_that_widens_a_trusted_config_prints_the_notice() {
    let env = TestEnv::new();
    let origin = env.work.join("origin");
    std::fs::create_dir_all(&origin).unwrap();
    git(&origin, &["init", "-q", "-b", "main"]);
    std::fs::write(
        origin.join("goccia.json"),
        perms(r#""allow-net": ["a.test"]"#),
    )
    .unwrap();
    git(&origin, &["add", "-A"]);
    git(&origin, &["commit", "-q", "-m", "config"]);
    git(&env.work, &["clone", "-q", "origin", "clone"]);
    let clone = env.work.join("clone");
    assert_eq!(
        run_in(&env, &clone, &["trust", "--yes", "goccia.json"]).code,
        0
    );
    assert_eq!(run_in(&env, &clone, &["hook", "install"]).code, 0);

    // The origin widens the config; the clone pulls, with the binary
    // under test on PATH as a user's would be.
    std::fs::write(
        origin.join("goccia.json"),
        perms(r#""allow-net": ["a.test", "cdn.evil.example"]"#),
    )
    .unwrap();
    git(&origin, &["commit", "-q", "-am", "widen"]);
    let pull = |args: &[&str]| {
        Command::new("git")
            .current_dir(&clone)
            .env_clear()
            .env("PATH", search_path())
            .env("HOME", &env.home)
            .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
            .envs(GIT_ENV.iter().copied())
            .args(args)
            .output()
            .unwrap()
    };
    // (git shows a hook's stdout on its stderr.)
    let both = |out: std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let shown = both(pull(&["pull", "-q", "--no-rebase"]));
    assert!(
        shown.contains(
            "goccia: 1 config to review after this merge: goccia.json (changed) (run goccia-trust to review)"
        ),
        "{shown}"
    );
    // Trusted again: a checkout back and forth says nothing.
    assert_eq!(
        run_in(&env, &clone, &["trust", "--yes", "goccia.json"]).code,
        0
    );
    let shown = both(pull(&["checkout", "-q", "HEAD~1"]));
    assert!(shown.contains("goccia.json (changed)"), "{shown}");
    assert_eq!(both(pull(&["checkout", "-q", "main"])), "");
}

#[test]
fn the_hook_gives_up_at_its_time_limit_and_still_exits_0() {
    let env = TestEnv::new();
    git(&env.work, &["init", "-q", "-b", "main"]);
    env.write("goccia.json", NET);
    let out = env.run_in(
        &env.work,
        &["hook", "run", "post-merge", "0"],
        &[("GOCCIA_TRUST_HOOK_TIME_LIMIT_MS", "0")],
    );
    assert_eq!(
        out.to_string(),
        "goccia: trust check skipped after 0 ms (run goccia-trust status --tree)\n[exit status: 0]"
    );
    let out = env.run_in(&env.work, &["hook", "run", "post-merge", "0"], &[]);
    assert_eq!(
        out.to_string(),
        "goccia: 1 never trusted (run goccia-trust to review)\n[exit status: 0]"
    );
}

/// An ignored config is still refused by GocciaScript: `status` counts it
/// (issue 41 item 7; before, it printed nothing and exited 0); `--json`
/// says it is ignored. Changed since it was ignored, it is asked about as
/// before.
#[test]
fn an_ignored_config_is_counted_since_a_run_would_refuse_it() {
    let t = TestEnv::new();
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    let out = t.run(&["status", "app"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(t.run(&["ignore", "app"]).code, 0);
    // GocciaScript's own answer: `check` refuses it.
    assert_eq!(t.run(&["check", "app/goccia.json"]).code, 2);
    let out = t.run(&["status", "app"]);
    assert_eq!(
        out.to_string(),
        "goccia: 1 ignored (run goccia-trust to review)\n[exit status: 1]"
    );
    let out = t.run(&["status", "--tree", "--json", "."]);
    assert!(out.stdout.contains("\"state\": \"ignored\""), "{out}");
    assert!(out.stdout.contains("\"ignored\": 1,"), "{out}");
    assert!(out.stdout.contains("\"needsReview\": true,"), "{out}");
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["b.test"]}}"#,
    );
    let out = t.run(&["status", "app"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stdout.contains("1 never trusted"), "{out}");
}

/// A store others can write is not an all clear (issue 41 item 7): the
/// line says so on stdout, where a prompt shows it, and the exit is 1.
#[test]
fn a_store_others_can_write_is_a_problem_on_stdout() {
    let t = TestEnv::new();
    t.write("goccia.json", NET);
    assert_eq!(t.run(&["trust", "--yes", "goccia.json"]).code, 0);
    assert_eq!(t.run(&["status"]).to_string(), "[exit status: 0]");
    let dir = t.default_store().parent().unwrap().to_path_buf();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = t.run(&["status"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(
        out.stdout,
        "goccia: trust store unsafe (run goccia-trust to review)\n"
    );
    assert!(out.stderr.contains("writable by others"), "{out}");
    let out = t.run(&["status", "--prompt"]);
    assert_eq!(
        out.to_string(),
        "goccia: trust store unsafe (run goccia-trust to review)\n[exit status: 0]"
    );
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    // An ignore list others can write is not used, and said.
    let state = t.root.join("state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::write(state.join("ignored.json"), r#"{"ignored": {}}"#).unwrap();
    std::fs::set_permissions(
        state.join("ignored.json"),
        std::fs::Permissions::from_mode(0o666),
    )
    .unwrap();
    let out = t.run(&["status"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(
        out.stdout,
        "goccia: ignore list unusable (run goccia-trust to review)\n"
    );
}
