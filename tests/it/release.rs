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

/// The compiled build script (build.rs) of this test build: the newest
/// `target/<profile>/build/goccia-trust-*/build-script-build`.
fn build_script() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().unwrap().parent().unwrap();
    std::fs::read_dir(profile.join("build"))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path().join("build-script-build");
            let name = p.parent()?.file_name()?.to_str()?.to_string();
            let modified = std::fs::metadata(&p).ok()?.modified().ok()?;
            name.starts_with("goccia-trust-").then_some((modified, p))
        })
        .max()
        .expect("a compiled build script")
        .1
}

/// Runs the build script for a crate at `dir`; its `cargo:` lines.
fn run_build_script(dir: &Path, path: Option<&std::ffi::OsStr>) -> Vec<String> {
    let mut cmd = Command::new(build_script());
    cmd.current_dir(dir)
        .env_clear()
        .env("CARGO_PKG_VERSION", "9.8.7")
        .env("CARGO_MANIFEST_DIR", dir)
        .env("HOME", dir);
    if let Some(path) = path {
        cmd.env("PATH", path);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn version_line(lines: &[String]) -> &str {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("cargo:rustc-env=GOCCIA_TRUST_VERSION="))
        .unwrap_or_else(|| panic!("{lines:?}"))
}

#[test]
fn the_build_script_names_a_commit_only_in_the_crates_own_checkout() {
    use crate::common::git::git;
    let t = TestEnv::new();
    let path = std::env::var_os("PATH");

    // Not in git (a crate unpacked somewhere): the version alone.
    let plain = t.root.join("plain");
    std::fs::create_dir(&plain).unwrap();
    let lines = run_build_script(&plain, path.as_deref());
    assert_eq!(version_line(&lines), "9.8.7");

    // A checkout of the crate: the commit, its date, and reruns on HEAD
    // and the branch's ref (not on every build).
    let repo = t.root.join("repo");
    std::fs::create_dir(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("Cargo.toml"), "").unwrap();
    git(&repo, &["add", "Cargo.toml"]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    let sha = git(&repo, &["rev-parse", "--short=7", "HEAD"]);
    let lines = run_build_script(&repo, path.as_deref());
    assert_eq!(
        version_line(&lines),
        format!("9.8.7 ({} 2026-01-01)", sha.trim())
    );
    let git_dir = repo.canonicalize().unwrap().join(".git");
    for watched in ["HEAD", "refs/heads/main"] {
        let line = format!("cargo:rerun-if-changed={}", git_dir.join(watched).display());
        assert!(lines.contains(&line), "{line} not in {lines:?}");
    }

    // Without git on PATH: the version alone, and the build still works.
    let lines = run_build_script(&repo, Some(t.root.join("no-bin").as_os_str()));
    assert_eq!(version_line(&lines), "9.8.7");

    // The published crate (cargo package writes .cargo_vcs_info.json),
    // even unpacked inside a repository: the version alone.
    std::fs::write(repo.join(".cargo_vcs_info.json"), "{}").unwrap();
    let lines = run_build_script(&repo, path.as_deref());
    assert_eq!(version_line(&lines), "9.8.7");

    // A crate in a subdirectory of some other repository (a home directory
    // kept in git): not its commit.
    let inner = repo.join("registry/goccia-trust-9.8.7");
    std::fs::create_dir_all(&inner).unwrap();
    let lines = run_build_script(&inner, path.as_deref());
    assert_eq!(version_line(&lines), "9.8.7");
}

/// Issue 44 try 9: `cargo binstall` takes only this repository's release
/// archives (no third-party `quick-install` fallback) and overrides only
/// targets the release workflow builds (a windows-gnu override named an
/// archive no release has).
#[test]
fn binstall_fetches_only_the_release_archives_of_real_targets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest: toml::Value =
        toml::from_str(&std::fs::read_to_string(root.join("Cargo.toml")).unwrap()).unwrap();
    let binstall = &manifest["package"]["metadata"]["binstall"];
    let disabled: Vec<&str> = binstall["disabled-strategies"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    assert!(disabled.contains(&"quick-install"), "{disabled:?}");
    assert!(
        binstall["pkg-url"]
            .as_str()
            .unwrap()
            .starts_with("{ repo }/releases/download/v{ version }/"),
        "{binstall}"
    );
    if !crate::common::in_checkout() {
        return;
    }
    let release = std::fs::read_to_string(root.join(".github/workflows/release.yml")).unwrap();
    let built: Vec<&str> = release
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- target: "))
        .collect();
    assert!(built.contains(&"x86_64-pc-windows-msvc"), "{built:?}");
    for target in binstall["overrides"].as_table().unwrap().keys() {
        assert!(
            built.contains(&target.as_str()),
            "binstall overrides {target}, which the release does not build ({built:?})"
        );
    }
}

/// Issue 44 try 6: `scripts/dist.sh` finds the build where cargo puts it
/// (`CARGO_TARGET_DIR`, via `cargo metadata`) instead of `target/`; and
/// the archive's completion scripts call `goccia-trust` from PATH, not the
/// path of the binary that wrote them. Run for real over a copy of the
/// files it packs, with a `cargo` on PATH that answers `metadata` and
/// `build` as cargo would (the build is the test's binary) and a `rustup`
/// that has the target.
#[test]
fn dist_reads_the_target_dir_from_cargo_metadata() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !crate::common::in_checkout() {
        return;
    }
    let dist = std::fs::read_to_string(src.join("scripts/dist.sh")).unwrap();
    let t = TestEnv::new();
    let root = t.root.join("checkout");
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    std::fs::write(root.join("scripts/dist.sh"), dist).unwrap();
    for f in ["Cargo.toml", "LICENSE", "README.md", "CHANGELOG.md"] {
        std::fs::copy(src.join(f), root.join(f)).unwrap();
    }
    let target_dir = t.root.join("elsewhere");
    let stubs = t.root.join("stubs");
    std::fs::create_dir_all(&stubs).unwrap();
    let script = |name: &str, body: String| {
        use std::os::unix::fs::PermissionsExt;
        let path = stubs.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    script(
        "cargo",
        format!(
            r#"case "$1" in
  metadata) printf '{{"packages":[],"target_directory":"%s","version":1}}\n' "$CARGO_TARGET_DIR" ;;
  build)
    while [ $# -gt 0 ]; do [ "$1" = --target ] && target=$2; shift; done
    mkdir -p "$CARGO_TARGET_DIR/$target/release"
    cp '{bin}' "$CARGO_TARGET_DIR/$target/release/goccia-trust" ;;
  *) exit 1 ;;
esac
"#,
            bin = env!("CARGO_BIN_EXE_goccia-trust")
        ),
    );
    script("rustup", "echo x86_64-unknown-linux-musl\n".into());
    script("rustc", "echo 'host: x86_64-unknown-linux-gnu'\n".into());
    let out = Command::new("bash")
        .arg(root.join("scripts/dist.sh"))
        .arg("x86_64-unknown-linux-musl")
        .env_clear()
        .env("HOME", &t.home)
        .env("PATH", format!("{}:/usr/bin:/bin", stubs.display()))
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .unwrap();
    assert!(out.status.success(), "dist.sh: {out:?}");
    let version = env!("CARGO_PKG_VERSION");
    let name = format!("goccia-trust-{version}-x86_64-unknown-linux-musl");
    let archive = root.join(format!("target/dist/{name}.tar.gz"));
    assert!(archive.exists(), "no {}: {out:?}", archive.display());
    let unpacked = t.root.join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    let tar = Command::new("tar")
        .arg("xzf")
        .arg(&archive)
        .arg("-C")
        .arg(&unpacked)
        .status()
        .unwrap();
    assert!(tar.success());
    let bash = std::fs::read_to_string(unpacked.join(format!("{name}/complete/goccia-trust.bash")))
        .unwrap();
    assert!(bash.contains("goccia-trust -- \"${words[@]}\""), "{bash}");
    assert!(!bash.contains(&*t.root.to_string_lossy()), "{bash}");
}

/// Issue 44 try 14: one repository everywhere. Every GitHub address of
/// goccia-trust in the documents, the Actions, the workflows and the
/// manifest (`github.com/X/goccia-trust`, `--repo X/goccia-trust`,
/// `uses: X/goccia-trust…@`) names the repository Cargo.toml names; none is
/// a placeholder (`OWNER/goccia-trust`).
#[test]
fn every_document_names_the_one_repository() {
    if !crate::common::in_checkout() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = env!("CARGO_PKG_REPOSITORY")
        .strip_prefix("https://github.com/")
        .expect("a GitHub repository in Cargo.toml");
    let mut files: Vec<std::path::PathBuf> = [
        "README.md",
        "CHANGELOG.md",
        "SECURITY.md",
        "CONTRIBUTING.md",
        "ARCHITECTURE.md",
        "Cargo.toml",
        "action.yml",
        "diff/action.yml",
        ".pre-commit-hooks.yaml",
    ]
    .iter()
    .map(|f| root.join(f))
    .collect();
    for dir in ["docs/src", ".github/workflows", "examples/workflows"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md" || e == "yml") {
                files.push(path);
            }
        }
    }
    let mut named = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (i, _) in text.match_indices("/goccia-trust") {
            // The owner: the word before `/goccia-trust`.
            let before = &text[..i];
            let start = before
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.'))
                .map_or(0, |s| s + 1);
            let owner = &before[start..];
            let lead = &before[..start];
            let github = lead.ends_with("github.com/")
                || lead.ends_with("--repo ")
                || lead.trim_end().ends_with("uses:");
            if !github {
                continue;
            }
            named += 1;
            assert_eq!(
                format!("{owner}/goccia-trust"),
                repo,
                "{}: {}",
                file.display(),
                text[start..].lines().next().unwrap_or("")
            );
        }
        assert!(!text.contains("OWNER/goccia-trust"), "{}", file.display());
    }
    assert!(named >= 8, "{named}");
}
