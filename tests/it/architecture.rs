//! ARCHITECTURE.md tells the truth: every path it names exists, and its
//! Dependencies section gives a reason for exactly the crates Cargo.toml
//! depends on, whose normal graph stays small.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn architecture() -> String {
    fs::read_to_string(root().join("ARCHITECTURE.md")).expect("read ARCHITECTURE.md")
}

/// The crates of `[dependencies]` and of every `[target.….dependencies]`.
fn direct_dependencies() -> BTreeSet<String> {
    let text = fs::read_to_string(root().join("Cargo.toml")).expect("read Cargo.toml");
    let manifest: toml::Table = text.parse().expect("Cargo.toml is TOML");
    let mut names = BTreeSet::new();
    let mut add = |table: Option<&toml::Value>| {
        if let Some(deps) = table.and_then(toml::Value::as_table) {
            names.extend(deps.keys().cloned());
        }
    };
    add(manifest.get("dependencies"));
    if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
        for target in targets.values() {
            add(target.get("dependencies"));
        }
    }
    names
}

/// The crates the Dependencies table names: every `name` in backticks in
/// a row's first cell.
fn documented_dependencies(map: &str) -> BTreeSet<String> {
    let section = map
        .split("\n## Dependencies\n")
        .nth(1)
        .expect("ARCHITECTURE.md has a Dependencies section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut names = BTreeSet::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let first_cell = row.split('|').nth(1).unwrap_or("");
        for (i, part) in first_cell.split('`').enumerate() {
            if i % 2 == 1 {
                names.insert(part.to_string());
            }
        }
    }
    names
}

#[test]
fn every_direct_dependency_has_its_reason_and_no_other_is_named() {
    let map = architecture();
    assert_eq!(
        documented_dependencies(&map),
        direct_dependencies(),
        "ARCHITECTURE.md's Dependencies table and Cargo.toml's dependencies differ"
    );
}

/// Paths in backticks or links that start at the repository's top folders.
fn named_paths(map: &str) -> Vec<String> {
    const TOP: [&str; 11] = [
        "src/",
        "tests/",
        "docs/",
        "scripts/",
        "schemas/",
        "themes/",
        "policies/",
        "examples/",
        "benches/",
        "tools/",
        ".ci/",
    ];
    let mut paths = Vec::new();
    for (i, part) in map.split('`').enumerate() {
        if i % 2 == 1 && TOP.iter().any(|t| part.starts_with(t)) && !part.contains(' ') {
            paths.push(part.to_string());
        }
    }
    for link in map.split("](").skip(1) {
        let target = link.split(')').next().unwrap_or("");
        let target = target.split('#').next().unwrap_or("");
        if !target.is_empty() && !target.contains("://") {
            paths.push(target.to_string());
        }
    }
    paths
}

#[test]
fn every_path_the_map_names_exists() {
    let map = architecture();
    let paths = named_paths(&map);
    assert!(paths.len() > 20, "too few paths found: {paths:?}");
    let missing: Vec<&String> = paths
        .iter()
        .filter(|p| !root().join(p.trim_end_matches('/')).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

/// The shipped binary's dependency graph on Linux: at most 120 crates
/// (`cargo tree`, normal dependencies only, each crate version once).
#[cfg(target_os = "linux")]
#[test]
fn the_normal_dependency_graph_stays_small() {
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let out = std::process::Command::new(cargo)
        .args(["tree", "--locked", "-e", "normal", "--prefix", "none"])
        .current_dir(root())
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let crates: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            Some(format!("{} {}", words.next()?, words.next()?))
        })
        .collect();
    assert!(
        crates.len() > 50,
        "cargo tree listed too little: {crates:?}"
    );
    assert!(
        crates.len() <= 120,
        "{} crates in the normal dependency graph (at most 120): {crates:?}",
        crates.len()
    );
}
