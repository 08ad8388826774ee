//! `schemas/goccia-config.schema.json`, the configs' own schema for editors
//! (issue 44 item 10), against every case of the conformance suite
//! (`tests/fixtures/conformance/`): each config a case loads without error
//! validates; each case that fails is refused by the schema (some file of
//! it does not validate, or does not parse), except the rules the schema
//! cannot express, listed below with why. With the `jsonschema` crate and,
//! for the JSON and TOML files, `check-jsonschema` as an editor's CI would
//! run it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/conformance");
const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/schemas/goccia-config.schema.json"
);

/// Failing cases whose rule is beyond a schema: what a scope means (its
/// grammar, a port, an IP), where an extends path leads, and the file's
/// name.
const INEXPRESSIBLE: &[(&str, &str)] = &[
    ("extends_cycle", "a cycle runs through other files"),
    ("extends_depth_12_fails", "the depth of a chain of files"),
    ("extends_directory", "what the extends path names on disk"),
    ("extends_missing", "what the extends path names on disk"),
    (
        "extends_overridden_base_still_validated",
        "the base's scope grammar",
    ),
    (
        "extends_tilde_not_home",
        "what the extends path names on disk",
    ),
    ("invalid_cidr", "a scope's grammar"),
    ("invalid_import_empty_dir", "a scope's grammar"),
    ("invalid_import_provider", "a scope's grammar"),
    ("invalid_net_backslash", "a scope's grammar"),
    ("invalid_net_non_ascii", "a scope's grammar"),
    ("invalid_net_port", "a scope's grammar"),
    ("invalid_net_port_sign", "a scope's grammar"),
    ("invalid_net_scope_as_written", "a scope's grammar"),
    ("invalid_net_url", "a scope's grammar"),
    ("unknown_extension", "the file's name, not its content"),
];

/// The case's config files, parsed as an editor would read them: `None`
/// for a file that does not parse.
fn parse(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
        "json" => serde_json::from_str(&text).ok(),
        "json5" => json5::from_str(&text).ok(),
        "toml" => toml::from_str::<toml::Value>(&text)
            .ok()
            .and_then(|v| serde_json::to_value(v).ok()),
        _ => None,
    }
}

fn config_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            config_files(&path, out);
        } else if path.file_name().is_some_and(|n| n != "case.toml")
            && path.extension().is_some_and(|e| {
                let e = e.to_ascii_lowercase();
                e == "json" || e == "json5" || e == "toml"
            })
        {
            out.push(path);
        }
    }
}

/// `$ROOT/work/x` or `$ROOT/home/x` as the case's file.
fn case_file(case: &Path, key: &str) -> Option<PathBuf> {
    let rel = key
        .strip_prefix("$ROOT/work/")
        .map(|r| case.join(r))
        .or_else(|| {
            key.strip_prefix("$ROOT/home/")
                .map(|r| case.join("_home").join(r))
        })?;
    rel.is_file().then_some(rel)
}

struct Sorted {
    valid: BTreeSet<PathBuf>,
    /// Per failing case, its config files.
    failing: Vec<(String, Vec<PathBuf>)>,
}

fn sort_cases() -> Sorted {
    let mut valid = BTreeSet::new();
    let mut failing = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(CASES)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let dir = Path::new(CASES).join(&name);
        let case: toml::Value =
            toml::from_str(&std::fs::read_to_string(dir.join("case.toml")).unwrap()).unwrap();
        let expect = &case["expect"];
        if case["command"].as_str() == Some("inspect") {
            if expect.get("error").is_some() {
                let mut files = Vec::new();
                config_files(&dir, &mut files);
                failing.push((name, files));
            } else {
                for f in expect["files"].as_array().unwrap() {
                    valid.extend(case_file(&dir, f.as_str().unwrap()));
                }
            }
        } else {
            for c in expect["configs"].as_array().into_iter().flatten() {
                if c.get("error").is_none() {
                    valid.extend(case_file(&dir, c["key"].as_str().unwrap()));
                }
            }
        }
    }
    Sorted { valid, failing }
}

fn validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(SCHEMA).unwrap()).unwrap();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{SCHEMA}: {e}"))
}

#[test]
fn every_valid_conformance_config_validates_and_every_failing_case_is_refused() {
    let v = validator();
    let sorted = sort_cases();
    assert!(sorted.valid.len() > 50, "{}", sorted.valid.len());
    for file in &sorted.valid {
        let doc = parse(file).unwrap_or_else(|| panic!("{} does not parse", file.display()));
        let errors: Vec<String> = v
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", file.display());
    }
    // INEXPRESSIBLE lists exactly the failing cases the schema accepts.
    let accepted: Vec<&str> = sorted
        .failing
        .iter()
        .filter(|(_, files)| {
            files
                .iter()
                .all(|f| parse(f).is_some_and(|doc| v.is_valid(&doc)))
        })
        .map(|(name, _)| name.as_str())
        .collect();
    let listed: Vec<&str> = INEXPRESSIBLE.iter().map(|(n, _)| *n).collect();
    assert_eq!(accepted, listed);
}

/// check-jsonschema (PyPI) over the same files, as a repository's CI or a
/// pre-commit hook would validate its configs: the valid ones pass, and it
/// refuses each failing case's file the schema refuses.
#[test]
fn check_jsonschema_agrees() {
    if !crate::common::tool_available("check-jsonschema", "--version") {
        return;
    }
    let sorted = sort_cases();
    let editor_formats = |f: &&PathBuf| f.extension().is_some_and(|e| e == "json" || e == "toml");
    let valid: Vec<&PathBuf> = sorted.valid.iter().filter(editor_formats).collect();
    let out = Command::new("check-jsonschema")
        .arg("--schemafile")
        .arg(SCHEMA)
        .args(&valid)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let v = validator();
    for (name, files) in &sorted.failing {
        for f in files.iter().filter(editor_formats) {
            let Some(doc) = parse(f) else { continue };
            if v.is_valid(&doc) {
                continue;
            }
            let out = Command::new("check-jsonschema")
                .arg("--schemafile")
                .arg(SCHEMA)
                .arg(f)
                .output()
                .unwrap();
            assert!(
                !out.status.success(),
                "{name}: check-jsonschema accepted {}",
                f.display()
            );
        }
    }
}

/// Getting started's editor settings and SchemaStore entry point at this
/// schema, at the repository Cargo.toml names, for every config name.
#[test]
fn the_documented_editor_settings_name_this_schema() {
    if !crate::common::in_checkout() {
        return;
    }
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/src/getting-started.md"
    ))
    .unwrap();
    let section = page
        .split("## Your editor and the configs")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the section");
    let repo = env!("CARGO_PKG_REPOSITORY").trim_start_matches("https://github.com/");
    let url =
        format!("https://raw.githubusercontent.com/{repo}/main/schemas/goccia-config.schema.json");
    assert_eq!(section.matches(url.as_str()).count(), 3, "{section}");
    let blocks: Vec<&str> = section
        .split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    let entry: Value = serde_json::from_str(blocks[1]).unwrap();
    let names: Vec<&str> = entry["fileMatch"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(names, ["goccia.json", "goccia.json5", "goccia.toml"]);
    let vscode: Value = serde_json::from_str(blocks[0]).unwrap();
    assert_eq!(vscode["json.schemas"][0]["url"], url.as_str());
    assert!(
        section.contains("include = [\"**/goccia.toml\"]"),
        "{section}"
    );
}
