//! What a release is made of (issue 29): `--version` names the commit for a
//! build from git, while the store's `trustedBy` keeps the plain version.

use std::path::Path;
use std::process::Command;

use crate::common::TestEnv;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// `abc1234 2026-12-04` for HEAD of this checkout, asked of git as a
/// person would (not as build.rs does); None for the published crate.
fn head_commit() -> Option<String> {
    let dir = Path::new(MANIFEST_DIR);
    if dir.join(".cargo_vcs_info.json").exists() || !dir.join(".git").exists() {
        return None;
    }
    let out = Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args(["log", "-1", "--abbrev=7", "--format=%h %cs"])
        .output()
        .expect("git runs in a checkout");
    assert!(out.status.success(), "{out:?}");
    Some(String::from_utf8(out.stdout).unwrap().trim().to_string())
}

#[test]
fn version_names_the_commit_and_its_date_for_a_build_from_git() {
    let t = TestEnv::new();
    let version = env!("CARGO_PKG_VERSION");
    let expected = match head_commit() {
        Some(commit) => {
            let (sha, date) = commit.split_once(' ').unwrap();
            assert_eq!(sha.len(), 7, "{commit}");
            assert!(sha.bytes().all(|b| b.is_ascii_hexdigit()), "{commit}");
            assert_eq!(date.len(), 10, "{commit}");
            format!("goccia-trust {version} ({commit})\n")
        }
        None => format!("goccia-trust {version}\n"),
    };
    for flag in ["--version", "-V"] {
        let out = t.run(&[flag]);
        assert_eq!(out.code, 0, "{out}");
        assert_eq!(out.stdout, expected, "{out}");
    }
}

#[test]
fn trusted_by_keeps_the_plain_version() {
    let t = TestEnv::new();
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    let out = t.run(&["trust", "app", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    let store: serde_json::Value = serde_json::from_str(&t.read_store()).unwrap();
    let entries = store["trusted"].as_object().unwrap();
    assert_eq!(entries.len(), 1);
    for entry in entries.values() {
        assert_eq!(
            entry["trustedBy"],
            format!("goccia-trust {}", env!("CARGO_PKG_VERSION"))
        );
    }
}
