//! The house's layering, read from the sources: `core/` folders (and its
//! top-level modules) import each other without a cycle, so does each
//! `cli/` module, `core` knows nothing of the faces (`cli`, `tui`, clap,
//! crossterm, ratatui), and the TUI's pure `update` does not reach into the
//! drawing code (`views`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The text of a source file without comments (a doc comment may name a
/// module without importing it).
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("read source");
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every first path segment after `prefix` (e.g. `crate::core::`), with
/// brace groups opened: `crate::core::{paths::x, store}` gives `paths` and
/// `store`.
fn segments_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        rest = &rest[i + prefix.len()..];
        let body: &str = rest.trim_start();
        if let Some(group) = body.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            let mut at_top = true;
            for c in group.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        at_top = false;
                    }
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        out.insert(std::mem::take(&mut item));
                        at_top = true;
                    }
                    c if at_top && (c.is_alphanumeric() || c == '_') => item.push(c),
                    c if at_top && !c.is_whitespace() => at_top = false,
                    _ => {}
                }
            }
            out.insert(item);
        } else {
            let name: String = body
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.insert(name);
        }
    }
    out.remove("");
    out.remove("self");
    out
}

/// `unit(file)` names the unit a source file belongs to; the graph maps
/// each unit to the units it imports (through `prefix`).
fn graph(
    files: &[PathBuf],
    prefix: &str,
    unit: impl Fn(&Path) -> String,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let from = unit(f);
        let deps = segments_after(&code(f), prefix);
        let entry = g.entry(from.clone()).or_default();
        entry.extend(deps.into_iter().filter(|d| *d != from));
    }
    g
}

/// A cycle in the graph, as the path that closes it, if there is one.
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|s| s == n) {
            let mut cycle = stack[i..].to_vec();
            cycle.push(n.to_string());
            return Some(cycle);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_string());
        for d in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(d, g, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in g.keys() {
        if let Some(c) = visit(n, g, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

fn relative(f: &Path, base: &Path) -> Vec<String> {
    f.strip_prefix(base)
        .expect("under base")
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect()
}

#[test]
fn core_folders_import_each_other_without_a_cycle() {
    let base = src().join("core");
    let files = sources(&base);
    assert!(files.len() > 20, "{files:?}");
    let g = graph(&files, "crate::core::", |f| relative(f, &base)[0].clone());
    for folder in ["config", "paths", "store", "review", "policy"] {
        assert!(g.contains_key(folder), "core/{folder}/ is gone: {g:?}");
    }
    assert_eq!(find_cycle(&g), None, "{g:#?}");
}

/// A test module (`tests.rs`, `*_tests.rs`) sees everything of its parent:
/// not part of the layering.
fn is_test_file(f: &Path) -> bool {
    let name = f.file_stem().map(|n| n.to_string_lossy().into_owned());
    name.is_some_and(|n| n == "tests" || n.ends_with("_tests"))
}

/// Inside each folder of `core`, its files (a subfolder counts as one)
/// import each other without a cycle, so each concept has a lower file
/// that the others build on.
#[test]
fn files_inside_each_core_folder_import_each_other_without_a_cycle() {
    let core = src().join("core");
    let mut folders = 0;
    for entry in fs::read_dir(&core).expect("read core") {
        let dir = entry.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        folders += 1;
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let files: Vec<PathBuf> = sources(&dir)
            .into_iter()
            .filter(|f| !is_test_file(f))
            .collect();
        let unit = |f: &Path| relative(f, &dir)[0].clone();
        let mut g = graph(&files, &format!("crate::core::{name}::"), unit);
        // `super::x` from a file directly in the folder, `self::x` from its
        // mod.rs, name a sibling too.
        for f in &files {
            let rel = relative(f, &dir);
            let from = rel[0].clone();
            let mut deps = BTreeSet::new();
            if rel.len() == 1 {
                deps.extend(segments_after(&code(f), "super::"));
                if from == "mod" {
                    deps.extend(segments_after(&code(f), "self::"));
                }
            }
            deps.retain(|d| {
                *d != from && dir.join(format!("{d}.rs")).exists() || dir.join(d).is_dir()
            });
            g.entry(from).or_default().extend(deps);
        }
        // mod.rs declares every file: only its own imports count.
        if let Some(m) = g.get_mut("mod") {
            m.retain(|d| d != "mod");
        }
        assert_eq!(find_cycle(&g), None, "core/{name}/");
    }
    assert!(folders >= 5);
}

#[test]
fn cli_modules_import_each_other_without_a_cycle() {
    let base = src().join("cli");
    let files = sources(&base);
    let g = graph(&files, "crate::cli::", |f| relative(f, &base)[0].clone());
    assert!(g.len() > 10, "{g:?}");
    assert_eq!(find_cycle(&g), None, "{g:#?}");
}

#[test]
fn core_knows_nothing_of_the_terminal_or_the_command_line() {
    let base = src().join("core");
    for f in sources(&base) {
        let code = code(&f);
        for face in ["crate::cli", "crate::tui", "clap::", "crossterm", "ratatui"] {
            assert!(!code.contains(face), "{} uses {face}", f.display());
        }
    }
}

#[test]
fn the_pure_update_does_not_reach_into_the_views() {
    let tui = src().join("tui");
    let mut files = vec![
        tui.join("update.rs"),
        tui.join("state.rs"),
        tui.join("msg.rs"),
    ];
    files.extend(sources(&tui.join("update")));
    for f in files {
        let code = code(&f);
        assert!(
            !segments_after(&code, "crate::tui::").contains("views") && !code.contains("views::"),
            "{} uses the views",
            f.display()
        );
    }
}

/// The checker itself: it must see an import hidden in a brace group, and
/// must find a cycle where there is one.
#[test]
fn the_checker_sees_grouped_imports_and_cycles() {
    let code = "use crate::core::{paths::key::{a, b}, store, review::x};\nfn f() { crate::core::env::Env::load(); }";
    let seen = segments_after(code, "crate::core::");
    let want: BTreeSet<String> = ["paths", "store", "review", "env"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(seen, want);
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    assert_eq!(find_cycle(&g), None);
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(
        find_cycle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}
