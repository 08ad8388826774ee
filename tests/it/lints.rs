//! The lints that keep panics out of product code: Cargo.toml denies
//! clippy's `unwrap_used` and `expect_used`, clippy.toml allows them in
//! tests, and every `allow` of them in the sources says why. A whole-file
//! allow is only for code that is not product code (tests, benches,
//! examples, the TUI's test-support fixtures).

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn unwrap_and_expect_are_denied_and_allowed_in_tests() {
    let manifest: toml::Table = fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let clippy = &manifest["lints"]["clippy"];
    assert_eq!(clippy["unwrap_used"].as_str(), Some("deny"));
    assert_eq!(clippy["expect_used"].as_str(), Some("deny"));
    let config: toml::Table = fs::read_to_string(root().join("clippy.toml"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(config["allow-unwrap-in-tests"].as_bool(), Some(true));
    assert_eq!(config["allow-expect-in-tests"].as_bool(), Some(true));
}

/// A `//` comment line (a doc comment says what an item is, not why a
/// lint is allowed on it).
fn is_plain_comment(line: &str) -> bool {
    let l = line.trim_start();
    l.starts_with("//") && !l.starts_with("///") && !l.starts_with("//!")
}

/// Files that may allow both lints whole: not product code.
const WHOLE_FILE: &[&str] = &[
    "src/tui/fake.rs",
    "src/tui/fixtures.rs",
    "tests/it/main.rs",
    "benches/core.rs",
    "examples/screenshots.rs",
    "examples/tui_demo.rs",
];

#[test]
fn every_allow_of_unwrap_or_expect_says_why() {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "examples"] {
        rust_files(&root().join(dir), &mut files);
    }
    let mut bad = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel == "tests/it/lints.rs" {
            continue;
        }
        let text = fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if !(code.contains("clippy::unwrap_used") || code.contains("clippy::expect_used")) {
                continue;
            }
            let at = format!("{rel}:{}: {}", i + 1, line.trim());
            let reason = line
                .split_once("//")
                .is_some_and(|(_, r)| !r.trim().is_empty())
                || (i > 0 && is_plain_comment(lines[i - 1]));
            if !reason {
                bad.push(format!("{at} (no reason given)"));
            }
            let whole = code.contains("#![allow(");
            if whole && !WHOLE_FILE.contains(&rel.as_str()) {
                bad.push(format!("{at} (a whole-file allow in product code)"));
            }
            if code.contains("#![cfg_attr(") && !code.contains("#![cfg_attr(test,") {
                bad.push(format!("{at} (a whole-file allow outside tests)"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
