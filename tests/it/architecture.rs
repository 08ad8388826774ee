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
    if !crate::common::in_checkout() {
        return;
    }
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
    if !crate::common::in_checkout() {
        return;
    }
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

/// The crates of the shipped binary's graph on Linux (`cargo tree`, normal
/// dependencies only, each crate version once), without `prune`'s subtree
/// where one is named.
#[cfg(target_os = "linux")]
fn normal_graph(prune: Option<&str>) -> BTreeSet<String> {
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let mut args = vec!["tree", "--locked", "-e", "normal", "--prefix", "none"];
    if let Some(p) = prune {
        args.extend(["--prune", p]);
    }
    let out = std::process::Command::new(cargo)
        .args(&args)
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
    crates
}

/// The shipped binary's dependency graph on Linux stays small: at most 120
/// crates for everything but signed reviews, and at most 37 more for
/// `ssh-key`, which verifies them in process (SSHSIG, ed25519 and ECDSA
/// P-256/P-384: RustCrypto's curves, signature, sha2 0.10, der/pem). A new
/// dependency of anything else counts against the 120.
#[cfg(target_os = "linux")]
#[test]
fn the_normal_dependency_graph_stays_small() {
    if !crate::common::in_checkout() {
        return;
    }
    let without = normal_graph(Some("ssh-key"));
    assert!(
        without.len() <= 120,
        "{} crates in the normal dependency graph without ssh-key (at most 120): {without:?}",
        without.len()
    );
    let all = normal_graph(None);
    let added: Vec<&String> = all.difference(&without).collect();
    assert!(
        added.len() <= 37,
        "ssh-key brings {} crates (at most 37): {added:?}",
        added.len()
    );
}

/// The files whose comments and strings a contributor reads.
fn source_files() -> Vec<std::path::PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| {
                ["rs", "sh", "py", "toml", "pas"].contains(&e.to_str().unwrap_or(""))
            }) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for dir in ["src", "tests", "benches", "scripts", "tools", "examples"] {
        walk(&root().join(dir), &mut out);
    }
    out.push(root().join("build.rs"));
    out.push(root().join(".ci/run"));
    out
}

/// Comments cite only what a contributor can open: no document of the
/// team's own notes outside the repository, and no bare section number.
#[test]
fn no_source_cites_a_document_outside_the_repository() {
    if !crate::common::in_checkout() {
        return;
    }
    let outside = [
        "goccia-reference",
        "policy-reference",
        "goccia-permissions",
        "policy-gate",
        "team-reviews",
        "DESIGN",
        "CRATES",
        "STYLE",
    ]
    .map(|name| format!("{name}.md"));
    let this_file = root().join("tests/it/architecture.rs");
    let mut faults = Vec::new();
    for path in source_files().into_iter().filter(|p| *p != this_file) {
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            let bare_section = line
                .match_indices('§')
                .any(|(i, _)| line[i + '§'.len_utf8()..].starts_with(|c: char| c.is_ascii_digit()));
            if bare_section || outside.iter().any(|name| line.contains(name.as_str())) {
                faults.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        faults.is_empty(),
        "cite the repository's own documents (docs/src/compatibility.md for GocciaScript's \
         behaviour):\n{}",
        faults.join("\n")
    );
}

/// Every `docs/src/PAGE.md#anchor` a source cites (and each `, #anchor`
/// after it) is a section of that page.
#[test]
fn every_cited_book_section_exists() {
    if !crate::common::in_checkout() {
        return;
    }
    let mut cited = 0;
    let mut faults = Vec::new();
    for path in source_files() {
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for (at, _) in line.match_indices("docs/src/") {
                let rest = &line[at..];
                let page_end = rest.find(".md").map(|i| i + 3);
                let Some(page_end) = page_end else { continue };
                let page = &rest[..page_end];
                // A pattern (`docs/src/*.md`, `PAGE.md`) names no page.
                let named = page["docs/src/".len()..page.len() - 3]
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                if !named {
                    continue;
                }
                if !root().join(page).is_file() {
                    faults.push(format!("{}:{}: no page {page}", path.display(), n + 1));
                    continue;
                }
                let anchors = crate::docs::anchors(&fs::read_to_string(root().join(page)).unwrap());
                let mut tail = &rest[page_end..];
                while let Some(after) = tail.strip_prefix('#').or_else(|| tail.strip_prefix(", #"))
                {
                    let id: String = after
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                        .collect();
                    if id.is_empty() {
                        // `#{id}`: an anchor a format string fills in.
                        break;
                    }
                    cited += 1;
                    if !anchors.contains(&id) {
                        faults.push(format!("{}:{}: {page} has no #{id}", path.display(), n + 1));
                    }
                    tail = &after[id.len()..];
                }
            }
        }
    }
    assert!(cited > 100, "only {cited} cited sections found");
    assert!(
        faults.is_empty(),
        "cited sections that do not exist:\n{}",
        faults.join("\n")
    );
}
