//! The git hooks in real git (issue 41 items 3, 4, 5): they never break
//! git, go where they run, leave hook managers' generated files alone, and
//! read the store named at install.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use crate::common::TestEnv;
use crate::common::git::{GIT_ENV, git, perms};
use crate::prompt_clients::{blocks, search_path, snippet};

/// git in `dir` with `path` as PATH; (exit code, stdout and stderr).
pub(crate) fn git_with_path(env: &TestEnv, dir: &Path, path: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new("git")
        .current_dir(dir)
        .env_clear()
        .env("PATH", path)
        .env("HOME", &env.home)
        .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
        .envs(GIT_ENV.iter().copied())
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), env.redact(&text))
}

/// PATH without goccia-trust: a GUI client's, or after an uninstall.
pub(crate) const BARE_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// A repository with two commits: the first adds `goccia.json`, the
/// second widens it.
pub(crate) fn repo(env: &TestEnv) -> std::path::PathBuf {
    let dir = env.work.join("repo");
    std::fs::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("goccia.json"), perms(r#""allow-net": ["a.test"]"#)).unwrap();
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "config"]);
    std::fs::write(
        dir.join("goccia.json"),
        perms(r#""allow-net": ["a.test", "b.test"]"#),
    )
    .unwrap();
    git(&dir, &["commit", "-q", "-am", "widen"]);
    dir
}

fn install(env: &TestEnv, dir: &Path, global: &[&str]) -> crate::common::Output {
    let mut args = global.to_vec();
    args.extend(["hook", "install"]);
    env.run_in(dir, &args, GIT_ENV)
}

#[test]
fn without_goccia_trust_on_path_checkout_and_switch_still_succeed() {
    let env = TestEnv::new();
    let dir = repo(&env);
    // One hook of the user's own (its block is appended), two created.
    let hooks = dir.join(".git/hooks");
    std::fs::write(hooks.join("post-checkout"), "#!/bin/sh\necho mine\n").unwrap();
    std::fs::set_permissions(
        hooks.join("post-checkout"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    assert_eq!(install(&env, &dir, &[]).code, 0);
    for args in [
        &["checkout", "-q", "HEAD~1"][..],
        &["switch", "-q", "main"],
        &["checkout", "-q", "-b", "other", "HEAD~1"],
        &["merge", "-q", "--ff-only", "main"],
    ] {
        let (code, text) = git_with_path(&env, &dir, BARE_PATH, args);
        assert_eq!(code, 0, "git {args:?}: {text}");
        assert!(!text.contains("goccia"), "{text}");
    }
    // On PATH with a store that cannot be read: told, and git succeeds.
    std::fs::create_dir_all(env.default_store().parent().unwrap()).unwrap();
    std::fs::write(env.default_store(), "{ not json").unwrap();
    let (code, text) = git_with_path(&env, &dir, &search_path(), &["checkout", "-q", "HEAD~1"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("goccia: trust store unreadable"), "{text}");
    // Past its time limit: told, and git succeeds.
    let out = Command::new("git")
        .current_dir(&dir)
        .env_clear()
        .env("PATH", search_path())
        .env("HOME", &env.home)
        .env("GOCCIA_TRUST_HOOK_TIME_LIMIT_MS", "0")
        .envs(GIT_ENV.iter().copied())
        .args(["checkout", "-q", "main"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn the_hooks_read_the_store_named_at_install() {
    let env = TestEnv::new();
    let dir = repo(&env);
    let store = env.root.join("own/trust.json");
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    std::fs::set_permissions(
        store.parent().unwrap(),
        std::fs::Permissions::from_mode(0o700),
    )
    .unwrap();
    let flag = format!("--trust-store={}", store.display());
    // The widened config is trusted in that store only.
    let out = env.run_in(&dir, &[&flag, "trust", "--yes", "goccia.json"], GIT_ENV);
    assert_eq!(out.code, 0, "{out}");
    let out = install(&env, &dir, &[&flag]);
    assert_eq!(out.code, 0, "{out}");
    let hook = std::fs::read_to_string(dir.join(".git/hooks/post-checkout")).unwrap();
    assert!(
        hook.contains(&format!(
            "goccia-trust --trust-store={} hook run",
            store.display()
        )),
        "{hook}"
    );
    // Back and forth: the first version was never trusted, the second is.
    let (code, text) = git_with_path(&env, &dir, &search_path(), &["checkout", "-q", "HEAD~1"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("goccia: 1 config to review after this checkout: goccia.json (changed)"),
        "{text}"
    );
    let (code, text) = git_with_path(&env, &dir, &search_path(), &["checkout", "-q", "main"]);
    assert_eq!((code, text.as_str()), (0, ""));
    // `hook status` with the same store: installed.
    let out = env.run_in(&dir, &[&flag, "hook", "status"], GIT_ENV);
    assert_eq!(out.stdout.matches(": installed ").count(), 3, "{out}");
}

#[test]
fn the_block_goes_before_a_trailing_exit_and_status_says_when_it_would_not_run() {
    let env = TestEnv::new();
    let dir = repo(&env);
    let hooks = dir.join(".git/hooks");
    let own = "#!/bin/sh\necho mine\nexit 0\n";
    std::fs::write(hooks.join("post-checkout"), own).unwrap();
    std::fs::set_permissions(
        hooks.join("post-checkout"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let out = install(&env, &dir, &[]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains(
            "post-checkout: added before the exit on line 3 of $ROOT/work/repo/.git/hooks/post-checkout\n"
        ),
        "{out}"
    );
    let status = env.run_in(&dir, &["hook", "status"], GIT_ENV);
    assert_eq!(status.stdout.matches(": installed ").count(), 3, "{status}");
    // It runs: the checkout tells.
    let (code, text) = git_with_path(&env, &dir, &search_path(), &["checkout", "-q", "HEAD~1"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(
            "mine\ngoccia: 1 config to review after this checkout: goccia.json (never trusted)"
        ),
        "{text}"
    );
    // Uninstall gives the bytes back.
    assert_eq!(env.run_in(&dir, &["hook", "uninstall"], GIT_ENV).code, 0);
    assert_eq!(
        std::fs::read_to_string(hooks.join("post-checkout")).unwrap(),
        own
    );
    // A block after the exit (as earlier versions appended it) does not
    // run, and `hook status` says so; so does a hook that is not
    // executable.
    let old = format!(
        "{own}\n# >>> goccia-trust hook >>>\n# Added by `goccia-trust hook install`; `goccia-trust hook uninstall` removes it.\n\
         command -v goccia-trust >/dev/null 2>&1 && {{ goccia-trust hook run post-checkout \"$@\" || :; }}\n# <<< goccia-trust hook <<<\n"
    );
    std::fs::write(hooks.join("post-checkout"), &old).unwrap();
    let status = env.run_in(&dir, &["hook", "status"], GIT_ENV);
    assert!(
        status.stdout.contains(
            "post-checkout: not run (line 3 ends the script before it) $ROOT/work/repo/.git/hooks/post-checkout\n"
        ),
        "{status}"
    );
    // Installing again puts it where it runs.
    let out = install(&env, &dir, &[]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("post-checkout: updated in "), "{out}");
    let status = env.run_in(&dir, &["hook", "status"], GIT_ENV);
    assert_eq!(status.stdout.matches(": installed ").count(), 3, "{status}");
    let (code, text) = git_with_path(&env, &dir, &search_path(), &["checkout", "-q", "main"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(
            "mine\ngoccia: 1 config to review after this checkout: goccia.json (never trusted)"
        ),
        "{text}"
    );
    assert_eq!(env.run_in(&dir, &["hook", "uninstall"], GIT_ENV).code, 0);
    assert_eq!(
        std::fs::read_to_string(hooks.join("post-checkout")).unwrap(),
        own
    );
    assert_eq!(install(&env, &dir, &[]).code, 0);
    std::fs::set_permissions(
        hooks.join("post-checkout"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let status = env.run_in(&dir, &["hook", "status"], GIT_ENV);
    assert!(
        status
            .stdout
            .contains("post-checkout: not run (the file is not executable)"),
        "{status}"
    );
}

/// husky 9's layout as `husky` (9.1) writes it: `core.hooksPath` is
/// `.husky/_`, each generated hook sources `_/h`, and `h` runs the user's
/// `.husky/NAME` with `sh -e` and exits with its status (the script here
/// does what husky's does, minus its options).
fn husky(dir: &Path) {
    let generated = dir.join(".husky/_");
    std::fs::create_dir_all(&generated).unwrap();
    std::fs::write(generated.join(".gitignore"), "*").unwrap();
    std::fs::write(
        generated.join("h"),
        "#!/usr/bin/env sh\nn=$(basename \"$0\")\ns=$(dirname \"$(dirname \"$0\")\")/$n\n\
         [ ! -f \"$s\" ] && exit 0\nsh -e \"$s\" \"$@\"\nc=$?\nexit $c\n",
    )
    .unwrap();
    for name in ["post-merge", "post-checkout", "post-rewrite", "pre-commit"] {
        let p = generated.join(name);
        std::fs::write(&p, "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    git(dir, &["config", "core.hooksPath", ".husky/_"]);
}

#[test]
fn under_husky_the_line_goes_in_huskys_own_file_and_runs() {
    let env = TestEnv::new();
    let dir = repo(&env);
    husky(&dir);
    let before = std::fs::read(dir.join(".husky/_/post-checkout")).unwrap();
    let out = install(&env, &dir, &[]);
    assert_eq!(out.code, 1, "{out}");
    let line = "{ command -v goccia-trust >/dev/null 2>&1 && GOCCIA_TRUST_STATE_DIR=$ROOT/state goccia-trust hook run post-checkout \"$@\"; } || :";
    assert!(
        out.stdout.contains(&format!(
            "post-checkout: $ROOT/work/repo/.husky/_/post-checkout is husky's; add this line to $ROOT/work/repo/.husky/post-checkout (husky runs it):\n  {line}\n"
        )),
        "{out}"
    );
    assert_eq!(
        std::fs::read(dir.join(".husky/_/post-checkout")).unwrap(),
        before
    );
    // The line, added where husky runs it, runs; without goccia-trust on
    // PATH git still succeeds.
    std::fs::write(
        dir.join(".husky/post-checkout"),
        env.redact(line)
            .replace("$ROOT", env.root.to_str().unwrap())
            + "\n",
    )
    .unwrap();
    let (code, text) = git_with_path(&env, &dir, &search_path(), &["checkout", "-q", "HEAD~1"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("goccia.json (never trusted)"), "{text}");
    let (code, text) = git_with_path(&env, &dir, BARE_PATH, &["checkout", "-q", "main"]);
    assert_eq!((code, text.as_str()), (0, ""));
    let status = env.run_in(&dir, &["hook", "status"], GIT_ENV);
    assert!(
        status.stdout.contains(
            "post-checkout: installed (by a line of its own) $ROOT/work/repo/.husky/_/post-checkout\n"
        ),
        "{status}"
    );
    assert!(
        status
            .stdout
            .contains("post-merge: not installed (another hook)"),
        "{status}"
    ); // Installing again leaves it, and gives the line for the others.
    let out = install(&env, &dir, &[]);
    assert!(
        out.stdout.contains(
            "post-checkout: run by a line of its own in $ROOT/work/repo/.husky/_/post-checkout\n"
        ),
        "{out}"
    );
    assert!(out.stderr.contains("2 hook(s) left as they are"), "{out}");
}

#[test]
fn lefthook_and_pre_commit_files_are_left_and_their_config_is_given() {
    if !crate::common::in_checkout() {
        return;
    }
    let env = TestEnv::new();
    let dir = repo(&env);
    let hooks = dir.join(".git/hooks");
    // What `lefthook install` and `pre-commit install` write, in short.
    let lefthook = "#!/bin/sh\n\nif [ \"$LEFTHOOK\" = \"0\" ]; then\n  exit 0\nfi\n\ncall_lefthook()\n{\n  lefthook \"$@\"\n}\n\ncall_lefthook \"run post-checkout $@\"\n";
    let pre_commit = "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n# ID: 138fd403232d2ddd5efb44317e38bf03\nexec pre-commit hook-impl --hook-type=post-merge -- \"$@\"\n";
    std::fs::write(hooks.join("post-checkout"), lefthook).unwrap();
    std::fs::write(hooks.join("post-merge"), pre_commit).unwrap();
    // No state directory named: the lines are the documented ones.
    let out = env.run_in(
        &dir,
        &["hook", "install"],
        &[("GOCCIA_TRUST_STATE_DIR", "")],
    );
    assert_eq!(out.code, 1, "{out}");
    let indented = |block: String| {
        block
            .lines()
            .map(|l| format!("  {l}\n"))
            .collect::<String>()
    };
    assert!(
        out.stdout.contains(&format!(
            "post-checkout: $ROOT/work/repo/.git/hooks/post-checkout is lefthook's (lefthook install rewrites it); add to lefthook.yml:\n{}",
            indented(snippet("lefthook"))
        )),
        "{out}"
    );
    assert!(
        out.stdout.contains(&format!(
            "post-merge: $ROOT/work/repo/.git/hooks/post-merge is pre-commit's (pre-commit install rewrites it); add to the repos of .pre-commit-config.yaml:\n{}",
            indented(snippet("pre-commit"))
        )),
        "{out}"
    );
    assert!(out.stdout.contains("post-rewrite: created"), "{out}");
    assert_eq!(
        std::fs::read_to_string(hooks.join("post-checkout")).unwrap(),
        lefthook
    );
    assert_eq!(
        std::fs::read_to_string(hooks.join("post-merge")).unwrap(),
        pre_commit
    );
}

/// The block docs/src/prompt.md shows is the one `install` appends.
#[test]
fn the_documented_block_is_the_one_appended() {
    if !crate::common::in_checkout() {
        return;
    }
    let env = TestEnv::new();
    let dir = repo(&env);
    let hooks = dir.join(".git/hooks");
    std::fs::write(hooks.join("post-merge"), "#!/bin/sh\necho mine\n").unwrap();
    let out = env.run_in(
        &dir,
        &["hook", "install"],
        &[("GOCCIA_TRUST_STATE_DIR", "")],
    );
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(hooks.join("post-merge")).unwrap(),
        format!("#!/bin/sh\necho mine\n\n{}", snippet("hook-block"))
    );
}

/// The lines docs/src/prompt.md shows as output are what the commands
/// print.
#[test]
fn the_documented_lines_are_what_the_commands_print() {
    if !crate::common::in_checkout() {
        return;
    }
    let env = TestEnv::new();
    let mut printed = Vec::new();
    // status: one config changed since trusted, one never trusted.
    env.write("t/a/goccia.json", &perms(r#""allow-net": ["a.test"]"#));
    assert_eq!(env.run(&["trust", "--yes", "t/a"]).code, 0);
    env.write("t/a/goccia.json", &perms(r#""allow-net": ["b.test"]"#));
    env.write("t/b/goccia.json", &perms(r#""allow-net": ["a.test"]"#));
    printed.push(env.run(&["status", "--tree", "t"]).stdout);
    // status --prompt over its budget: 500 configs are not read in 1 ms.
    for i in 0..500 {
        env.write(
            &format!("many/p{i}/goccia.json"),
            &perms(r#""allow-net": ["a.test"]"#),
        );
    }
    printed.push(
        env.run_in(
            &env.work,
            &["status", "--prompt", "--tree", "many"],
            &[("GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS", "1")],
        )
        .stdout,
    );
    // The hooks after a pull that widens app and adds tools.
    let origin = env.work.join("origin");
    std::fs::create_dir_all(origin.join("app")).unwrap();
    git(&origin, &["init", "-q", "-b", "main"]);
    std::fs::write(
        origin.join("app/goccia.json"),
        perms(r#""allow-net": ["a.test"]"#),
    )
    .unwrap();
    git(&origin, &["add", "-A"]);
    git(&origin, &["commit", "-q", "-m", "start"]);
    git(&env.work, &["clone", "-q", "origin", "clone"]);
    let clone = env.work.join("clone");
    assert_eq!(
        env.run_in(&clone, &["trust", "--yes", "app"], GIT_ENV).code,
        0
    );
    assert_eq!(env.run_in(&clone, &["hook", "install"], GIT_ENV).code, 0);
    std::fs::write(
        origin.join("app/goccia.json"),
        perms(r#""allow-net": ["b.test"]"#),
    )
    .unwrap();
    std::fs::create_dir_all(origin.join("tools")).unwrap();
    std::fs::write(
        origin.join("tools/goccia.json"),
        perms(r#""allow-net": ["t.test"]"#),
    )
    .unwrap();
    git(&origin, &["add", "-A"]);
    git(&origin, &["commit", "-q", "-m", "more"]);
    let (code, text) = git_with_path(&env, &clone, &search_path(), &["pull", "-q", "--no-rebase"]);
    assert_eq!(code, 0, "{text}");
    printed.push(text);
    assert_eq!(printed, blocks("output"));
}

/// Issue 41 item 6: the notice names what the pull changed (five, then
/// `+N more`), how, and leaves out a config that needed review before and
/// that the pull did not touch.
#[test]
fn the_notice_names_what_the_pull_changed_and_nothing_else() {
    let env = TestEnv::new();
    let origin = env.work.join("origin");
    std::fs::create_dir_all(&origin).unwrap();
    git(&origin, &["init", "-q", "-b", "main"]);
    let write = |rel: &str, text: &str| {
        let p = origin.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("app/goccia.json", &perms(r#""allow-net": ["a.test"]"#));
    write("lib/base.json", &perms(r#""allow-read": ["."]"#));
    write(
        "lib/goccia.json",
        r#"{"extends": "./base.json", "permissions": {"allow-net": ["l.test"]}}"#,
    );
    write("old/goccia.json", &perms(r#""allow-net": ["o.test"]"#));
    git(&origin, &["add", "-A"]);
    git(&origin, &["commit", "-q", "-m", "start"]);
    git(&env.work, &["clone", "-q", "origin", "clone"]);
    let clone = env.work.join("clone");
    // app and lib are trusted; old never was, before the pull.
    for c in ["app/goccia.json", "lib/goccia.json"] {
        assert_eq!(env.run_in(&clone, &["trust", "--yes", c], GIT_ENV).code, 0);
    }
    assert_eq!(env.run_in(&clone, &["hook", "install"], GIT_ENV).code, 0);
    // The pull widens app, widens lib through its base, and adds six.
    write(
        "app/goccia.json",
        &perms(r#""allow-net": ["a.test", "evil.test"]"#),
    );
    write("lib/base.json", &perms(r#""allow-read": ["/"]"#));
    for i in 1..=6 {
        write(
            &format!("new{i}/goccia.json"),
            &perms(r#""allow-net": ["n.test"]"#),
        );
    }
    git(&origin, &["add", "-A"]);
    git(&origin, &["commit", "-q", "-m", "widen"]);
    let (code, text) = git_with_path(&env, &clone, &search_path(), &["pull", "-q", "--no-rebase"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(
        text,
        "goccia: 8 configs to review after this merge: app/goccia.json (changed), \
         lib/goccia.json (changed), new1/goccia.json (added), new2/goccia.json (added), \
         new3/goccia.json (added), +3 more (run goccia-trust to review)\n"
    );
    assert!(!text.contains("old/"), "{text}");
    // `status --tree` still counts everything, old included.
    let out = env.run_in(&clone, &["status", "--tree"], GIT_ENV);
    assert!(out.stdout.contains("2 changed, 7 never trusted"), "{out}");
}
