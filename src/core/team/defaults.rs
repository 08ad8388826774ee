//! Which key and which principal `review sign` uses when it is not told
//! (docs/src/signed-reviews.md#sign): the ones git already signs commits
//! with, read from git's *global* configuration only.
//!
//! - key: git's `user.signingKey` when it names a file (`~/` expanded),
//!   else `~/.ssh/id_ed25519`;
//! - principal: the principals of that key's line in git's
//!   `gpg.ssh.allowedSignersFile` (read with the strict parser), else
//!   git's `user.email`.
//!
//! The repository being signed never steers this: its own `.git/config`
//! (or an `includeIf "gitdir:…"` matching it) could name another key or
//! someone else. So git runs with `--global` (only `~/.gitconfig` and
//! `$XDG_CONFIG_HOME/git/config`), from `/` (no repository is discovered,
//! so no `includeIf "gitdir:"` matches one), and with an environment of
//! HOME, XDG_CONFIG_HOME and PATH alone (no `GIT_DIR`, `GIT_CONFIG_*` or
//! `GIT_CONFIG_PARAMETERS` a hook or the caller left set), through the one
//! bounded spawner.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::signers::{AllowedSigners, parse_allowed_signers};
use crate::core::env::Env;
use crate::core::paths::expand_file_name;
use crate::core::process::{Limits, capture};

/// How long `git config` may take.
const GIT_CONFIG_TIMEOUT: Duration = Duration::from_secs(30);

/// The most of a value kept (a path, an address).
const VALUE_MAX: u64 = 64 << 10;

/// `git config --global --get KEY`: `None` when it is not set.
pub fn git_global(key: &str, env: &Env) -> Result<Option<String>, String> {
    let mut cmd = Command::new("git");
    cmd.args(["config", "--global", "--get", key])
        .env_clear()
        .current_dir("/")
        .stdin(Stdio::null())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("LC_ALL", "C");
    for (name, value) in [
        ("HOME", env.home.clone()),
        ("XDG_CONFIG_HOME", env.xdg_config_home.clone()),
        ("PATH", crate::core::env::PATH.read()),
    ] {
        if !value.is_empty() {
            cmd.env(name, value);
        }
    }
    let limits = Limits {
        timeout: GIT_CONFIG_TIMEOUT,
        grace: Duration::ZERO,
    };
    let cannot = |why: String| format!("cannot read git's global {key}: {why}");
    let run = capture(&mut cmd, limits, VALUE_MAX, 16 << 10).map_err(|e| cannot(e.to_string()))?;
    if run.timed_out {
        return Err(cannot("git config did not finish within 30 s".to_string()));
    }
    if run.overflowed {
        return Err(cannot("the value is over 64 KiB".to_string()));
    }
    match run.status.code() {
        Some(0) => {}
        // git's "the key is not set".
        Some(1) => return Ok(None),
        _ => {
            let said = String::from_utf8_lossy(&run.stderr).trim().to_string();
            return Err(cannot(if said.is_empty() {
                format!("git config failed ({})", run.status)
            } else {
                said
            }));
        }
    }
    let mut value = String::from_utf8(run.stdout).map_err(|_| cannot("not UTF-8".to_string()))?;
    if value.ends_with('\n') {
        value.pop();
    }
    Ok(Some(value))
}

/// The signing key when `--key` is not given, and a warning when git's
/// `user.signingKey` holds a key itself rather than naming a file.
pub fn default_key(env: &Env) -> Result<(PathBuf, Option<String>), String> {
    let fallback = PathBuf::from(&env.home).join(".ssh/id_ed25519");
    let Some(value) = git_global("user.signingKey", env)? else {
        return Ok((fallback, None));
    };
    if value.starts_with("key::") || is_literal_key(&value) {
        let warning = "git's user.signingKey is a key, not a file; signing with ~/.ssh/id_ed25519 (pass --key to choose)";
        return Ok((fallback, Some(warning.to_string())));
    }
    if value.is_empty() {
        return Ok((fallback, None));
    }
    Ok((
        PathBuf::from(expand_file_name(&value, &env.cwd, &env.home)),
        None,
    ))
}

/// git also takes a public key written out (`ssh-ed25519 AAAA…`).
fn is_literal_key(value: &str) -> bool {
    ["ssh-", "ecdsa-", "sk-"]
        .iter()
        .any(|p| value.starts_with(p) && value.contains(' '))
}

/// The principal when `--principal` is not given: the first plain name
/// (no `*`, `?` or `!`) of the line for `fingerprint` in git's
/// `gpg.ssh.allowedSignersFile`, else git's `user.email`. An allowed
/// signers file that is set but cannot be read or parsed is an error:
/// guessing past it could sign under the wrong name.
pub fn default_principal(fingerprint: &str, env: &Env) -> Result<String, String> {
    if let Some(file) = git_global("gpg.ssh.allowedSignersFile", env)?.filter(|f| !f.is_empty()) {
        let file = expand_file_name(&file, &env.cwd, &env.home);
        let signers = read_signers(&file)?;
        if let Some(name) = principal_of(&signers, fingerprint) {
            return Ok(name);
        }
    }
    match git_global("user.email", env)? {
        Some(email) if !email.is_empty() => Ok(email),
        _ => Err(
            "review sign needs a principal: pass --principal NAME, or set git's user.email (git config --global user.email NAME)"
                .to_string(),
        ),
    }
}

fn read_signers(file: &str) -> Result<AllowedSigners, String> {
    let bytes = crate::core::paths::bounded::read_regular(file, 1 << 20).map_err(|e| {
        format!(
            "git's gpg.ssh.allowedSignersFile {file}: {}; pass --principal",
            e.describe()
        )
    })?;
    parse_allowed_signers(file, &bytes).map_err(|e| format!("{e}; pass --principal"))
}

fn principal_of(signers: &AllowedSigners, fingerprint: &str) -> Option<String> {
    signers
        .signers
        .iter()
        .filter(|s| s.fingerprint == fingerprint && s.allows_namespace())
        .flat_map(|s| s.principals.split(','))
        .find(|p| !p.is_empty() && !p.contains(['*', '?', '!']))
        .map(str::to_string)
}
