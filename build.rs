//! The version `--version` prints (`GOCCIA_TRUST_VERSION`): for a build from
//! a git checkout of this repository, the crate version with the commit and
//! its date (`0.1.0 (abc1234 2026-12-04)`); for a build from the published
//! crate, or where git is missing or fails, the crate version alone.
//!
//! Only `--version` uses it: `trustedBy` in the store stays
//! `goccia-trust <CARGO_PKG_VERSION>` (core::review::trust).
//!
//! Also the build's date for the manual page's `.TH` line
//! (`GOCCIA_TRUST_BUILD_DATE`, `YYYY-MM-DD`): `SOURCE_DATE_EPOCH` when set
//! (reproducible builds), else the commit's date, else none (the page then
//! leaves the date empty).
//!
//! git runs hardened, since the checkout may be anyone's: no system config,
//! no fsmonitor (a configured fsmonitor is a command git would run), no
//! hooks, no optional locks, and none of the GIT_* variables that would point
//! it at another repository.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let version = env("CARGO_PKG_VERSION");
    let dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let commit = commit(&dir);
    let long = match &commit {
        Some(commit) => format!("{version} ({commit})"),
        None => version,
    };
    println!("cargo:rustc-env=GOCCIA_TRUST_VERSION={long}");
    let commit_date = commit.and_then(|c| c.split(' ').nth(1).map(str::to_string));
    if let Some(date) = epoch_date().or(commit_date) {
        println!("cargo:rustc-env=GOCCIA_TRUST_BUILD_DATE={date}");
    }
}

/// `SOURCE_DATE_EPOCH` (seconds since 1970, UTC) as a date.
fn epoch_date() -> Option<String> {
    let secs: i64 = std::env::var("SOURCE_DATE_EPOCH")
        .ok()?
        .trim()
        .parse()
        .ok()?;
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("cargo sets {name}"))
}

/// `abc1234 2026-12-04` for the checked-out commit, with rerun-if-changed on
/// what moves when it changes; None outside a checkout of this crate.
fn commit(dir: &Path) -> Option<String> {
    // cargo package writes this file: a published crate, even one unpacked
    // inside some other repository (a home directory kept in git).
    if dir.join(".cargo_vcs_info.json").exists() {
        return None;
    }
    // The repository must be this crate's own, not one around it.
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    // HEAD, the branch it names (a loose ref, or the directory a new loose
    // ref would appear in), packed-refs, and reftable's tables: a commit,
    // a checkout or a pack moves one of them. Only paths that exist (cargo
    // reruns on every build for a missing one).
    let mut watch = vec![git_path(dir, "HEAD")?];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        let loose = git_path(dir, &branch)?;
        if !loose.exists() {
            watch.extend(loose.parent().map(Path::to_path_buf));
        }
        watch.push(loose);
    }
    watch.push(git_path(dir, "packed-refs")?);
    watch.push(git_path(dir, "reftable")?);
    for path in watch.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    git(
        dir,
        &[
            "log",
            "-1",
            "--no-show-signature",
            "--abbrev=7",
            "--format=%h %cs",
        ],
    )
    .filter(|line| line.split(' ').count() == 2)
}

fn git_path(dir: &Path, name: &str) -> Option<PathBuf> {
    git(
        dir,
        &["rev-parse", "--path-format=absolute", "--git-path", name],
    )
    .map(PathBuf::from)
}

/// One line of git's stdout, or None when git is missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .args([
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(["--no-pager", "--no-replace-objects"])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0");
    for var in [
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_COMMON_DIR",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_CEILING_DIRECTORIES",
        "GIT_CONFIG",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_EXTERNAL_DIFF",
        "GIT_PAGER",
    ] {
        cmd.env_remove(var);
    }
    let out = cmd.stderr(std::process::Stdio::null()).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let line = text.trim_end_matches(['\n', '\r']);
    (!line.is_empty() && !line.contains('\n')).then(|| line.to_string())
}
