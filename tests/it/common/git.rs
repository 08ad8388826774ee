//! Git for the tests that build a repository (`diff`, its CI formats, the
//! review's `--since`): without the machine's configuration, with a fixed
//! identity and dates.

use std::path::Path;
use std::process::Command;

/// Git without the machine's configuration, with a fixed identity.
pub(crate) const GIT_ENV: &[(&str, &str)] = &[
    ("GIT_CONFIG_GLOBAL", "/dev/null"),
    ("GIT_CONFIG_NOSYSTEM", "1"),
    ("GIT_AUTHOR_NAME", "Test"),
    ("GIT_AUTHOR_EMAIL", "test@example.invalid"),
    ("GIT_COMMITTER_NAME", "Test"),
    ("GIT_COMMITTER_EMAIL", "test@example.invalid"),
    ("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"),
    ("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"),
];

/// Runs git in `dir` and returns its stdout; a failure fails the test.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    git_env(dir, args, &[])
}

/// [`git`] with `vars` set too (after [`GIT_ENV`]: they win).
pub(crate) fn git_env(dir: &Path, args: &[&str], vars: &[(&str, &str)]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .envs(GIT_ENV.iter().copied())
        .envs(vars.iter().copied())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A JSON config whose `permissions` object holds `body`.
pub(crate) fn perms(body: &str) -> String {
    format!(r#"{{"permissions": {{{body}}}}}"#)
}

/// A `git` in `dir/fakebin` that runs `prelude` (shell lines, `$REAL` the
/// real git) and then the real git with its arguments; returns a `PATH`
/// that finds it first. For git failing or speaking another language.
#[cfg(unix)]
pub(crate) fn fake_git(dir: &std::path::Path, prelude: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let real = String::from_utf8(
        std::process::Command::new("sh")
            .args(["-c", "command -v git"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let bin = dir.join("fakebin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("git");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nREAL='{}'\n{prelude}\nexec \"$REAL\" \"$@\"\n",
            real.trim()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}
