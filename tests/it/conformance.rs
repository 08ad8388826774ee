//! The data-driven conformance suite: each directory under
//! `tests/fixtures/conformance/` is one case that pins one rule of
//! docs/src/compatibility.md through the real binary's two conformance interfaces,
//! `inspect --json CONFIG` and `scan --json PATH...`.
//!
//! A case is a small tree (configs, their extends bases, data directories)
//! plus `case.toml`:
//!
//! ```toml
//! about = "the rule this case pins"
//! command = "inspect"            # or "scan"
//! config = "goccia.json"         # inspect: the argument
//! paths = ["."]                  # scan: the arguments
//! cwd = "sub"                    # optional; relative to the work dir
//! symlinks = [["link", "target"]]  # created by the runner: link ← target as written
//! mkdirs = ["empty"]             # directories git cannot hold
//! renames = [["dot-git", ".git"]]  # names git cannot hold
//! # a `_home/` subdirectory is copied into the temporary HOME
//!
//! [expect]                       # inspect, success
//! key = "$ROOT/work/goccia.json"
//! files = ["$ROOT/work/goccia.json"]
//! block = '{"version":1}'
//! sha256 = "…"                   # optional, see below
//! targets = {}
//! lines = []
//!
//! [expect]                       # inspect, failure
//! error = "$ROOT/work/goccia.json: …"
//! exit = 2
//!
//! [expect]                       # scan
//! exit = 0                       # optional, default 0
//! [[expect.configs]]
//! key = "…"
//! state = "never-trusted"
//! sha256 = "…"                   # optional
//! error = "…"                    # optional
//! exit = 2                       # optional
//! ```
//!
//! The runner copies the case into a fresh `TestEnv` work directory (so keys
//! are canonical temporary paths), replaces `$ROOT` in every copied file by
//! the temporary root, runs the binary there with `HOME` set and
//! `XDG_CONFIG_HOME` unset, and compares. `$ROOT` in expectations stands for
//! the same root.
//!
//! Expected blocks were derived by hand from the spec's rules. A literal
//! `sha256` was computed outside this code base (`sha256sum`/hashlib) from
//! the expected block; the runner checks it against the expected block (so
//! a case cannot contradict itself) and the program's hash against both. A
//! block holding `$ROOT` cannot carry a literal hash; its expected hash is
//! computed here from the expected block with the `sha2` crate, never taken
//! from the program.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use common::TestEnv;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// A case's subdirectory copied into the temporary HOME instead of the work
/// directory.
const HOME_DIR: &str = "_home";

const CASES_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/conformance");

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Case {
    about: String,
    command: String,
    config: Option<String>,
    #[serde(default)]
    paths: Vec<String>,
    cwd: Option<String>,
    #[serde(default)]
    symlinks: Vec<(String, String)>,
    #[serde(default)]
    mkdirs: Vec<String>,
    #[serde(default)]
    renames: Vec<(String, String)>,
    expect: Expect,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Expect {
    key: Option<String>,
    files: Option<Vec<String>>,
    block: Option<String>,
    sha256: Option<String>,
    targets: Option<BTreeMap<String, String>>,
    lines: Option<Vec<String>>,
    error: Option<String>,
    exit: Option<i32>,
    configs: Option<Vec<ExpectConfig>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ExpectConfig {
    key: String,
    state: String,
    sha256: Option<String>,
    block: Option<String>,
    lines: Option<Vec<String>>,
    error: Option<String>,
    exit: Option<u8>,
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Copies `from` into `to`, replacing `$ROOT` in file contents. The case's
/// own `case.toml` stays behind.
fn copy_tree(from: &Path, to: &Path, root: &str, top: bool) {
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if top && (name == "case.toml" || name == HOME_DIR) {
            continue;
        }
        let src = entry.path();
        let dst = to.join(&name);
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            fs::create_dir_all(&dst).unwrap();
            copy_tree(&src, &dst, root, false);
        } else if kind.is_symlink() {
            panic!(
                "{}: declare symlinks in case.toml, not in git",
                src.display()
            );
        } else {
            let bytes = fs::read(&src).unwrap();
            let bytes = match String::from_utf8(bytes) {
                Ok(text) => text.replace("$ROOT", root).into_bytes(),
                Err(e) => e.into_bytes(),
            };
            fs::write(&dst, bytes).unwrap();
        }
    }
}

fn load_case(name: &str) -> Case {
    let path = Path::new(CASES_DIR).join(name).join("case.toml");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs one case and panics with a readable report on any difference.
fn run_case(name: &str) {
    let case = load_case(name);
    assert!(!case.about.trim().is_empty(), "{name}: `about` is empty");
    let env = TestEnv::new();
    let root = env.root.to_str().unwrap().to_string();
    let sub = |s: &str| s.replace("$ROOT", &root);
    let case_dir = Path::new(CASES_DIR).join(name);
    copy_tree(&case_dir, &env.work, &root, true);
    if case_dir.join(HOME_DIR).is_dir() {
        copy_tree(&case_dir.join(HOME_DIR), &env.home, &root, false);
    }
    for dir in &case.mkdirs {
        fs::create_dir_all(env.work.join(dir)).unwrap();
    }
    for (from, to) in &case.renames {
        fs::rename(env.work.join(from), env.work.join(to)).unwrap();
    }
    for (link, target) in &case.symlinks {
        let link = env.work.join(link);
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(sub(target), link).unwrap();
    }
    let cwd = match &case.cwd {
        Some(c) => env.work.join(c),
        None => env.work.clone(),
    };

    let mut args: Vec<String> = vec![case.command.clone(), "--json".into()];
    match case.command.as_str() {
        "inspect" => args.push(case.config.clone().expect("inspect needs `config`")),
        "scan" => args.extend(case.paths.iter().cloned()),
        other => panic!("{name}: unknown command {other:?}"),
    }
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = env.run_in(&cwd, &argv, &[]);
    let context = format!("case {name} ({})\n--- output ---\n{out}", case.about);

    match case.command.as_str() {
        "inspect" => check_inspect(&case.expect, &out, &root, &context),
        _ => check_scan(&case.expect, &out, &root, &context),
    }
}

/// The expected hash of a case's block: its literal `sha256` (checked against
/// the block), else the block's hash computed here.
fn expected_sha(block: &str, literal: Option<&str>, root: &str, context: &str) -> String {
    let computed = sha256_hex(block.replace("$ROOT", root).as_bytes());
    if let Some(literal) = literal {
        assert!(
            !block.contains("$ROOT"),
            "{context}\na block with $ROOT cannot carry a literal sha256"
        );
        assert_eq!(
            literal, computed,
            "{context}\nthe case's sha256 does not match its own block"
        );
    }
    computed
}

fn check_inspect(expect: &Expect, out: &common::Output, root: &str, context: &str) {
    assert!(expect.configs.is_none(), "{context}\n`configs` is for scan");
    if let Some(error) = &expect.error {
        let code = expect.exit.expect("an error case needs `exit`");
        // JSON contract: a `--json` command that fails prints the failure
        // document, GocciaScript's exact message in it.
        let doc: serde_json::Value = serde_json::from_str(&out.stdout)
            .unwrap_or_else(|e| panic!("{context}\nstdout is not the failure document: {e}"));
        assert_eq!(
            doc,
            serde_json::json!({"schema": 1, "error": {"message": error, "exit": code}}),
            "{context}\nfailure document"
        );
        assert_eq!(out.stderr, format!("Error: {error}\n"), "{context}");
        assert_eq!(out.code, code, "{context}");
        return;
    }
    assert_eq!(out.code, expect.exit.unwrap_or(0), "{context}");
    assert_eq!(out.stderr, "", "{context}");
    let doc: serde_json::Value =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{context}\nnot JSON: {e}"));
    let field = |k: &str| {
        doc.get(k)
            .unwrap_or_else(|| panic!("{context}\nno {k:?} in the output"))
    };
    let key = expect.key.as_ref().expect("an inspect case needs `key`");
    assert_eq!(field("key"), key, "{context}\nkey");
    let block = expect
        .block
        .as_ref()
        .expect("an inspect case needs `block`");
    assert_eq!(field("blockText"), block, "{context}\nblockText");
    let sha = expected_sha(block, expect.sha256.as_deref(), root, context);
    assert_eq!(
        field("sha256").as_str(),
        Some(sha.as_str()),
        "{context}\nsha256"
    );
    let files = expect
        .files
        .as_ref()
        .expect("an inspect case needs `files`");
    assert_eq!(
        field("files"),
        &serde_json::json!(files),
        "{context}\nfiles"
    );
    let targets = expect.targets.clone().unwrap_or_default();
    assert_eq!(
        field("targets"),
        &serde_json::json!(targets),
        "{context}\ntargets"
    );
    let lines = expect
        .lines
        .as_ref()
        .expect("an inspect case needs `lines`");
    assert_eq!(
        field("lines"),
        &serde_json::json!(lines),
        "{context}\nlines"
    );
}

fn check_scan(expect: &Expect, out: &common::Output, root: &str, context: &str) {
    assert!(
        expect.key.is_none() && expect.block.is_none() && expect.error.is_none(),
        "{context}\nscan cases list `configs`"
    );
    assert_eq!(out.code, expect.exit.unwrap_or(0), "{context}\nexit");
    let doc: serde_json::Value =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{context}\nnot JSON: {e}"));
    let got = doc["configs"]
        .as_array()
        .unwrap_or_else(|| panic!("{context}\nno configs array"));
    let want = expect
        .configs
        .as_ref()
        .expect("a scan case needs `configs`");
    let got_keys: Vec<&str> = got.iter().map(|c| c["key"].as_str().unwrap()).collect();
    let want_keys: Vec<&str> = want.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(got_keys, want_keys, "{context}\nkeys and their order");
    for (g, w) in got.iter().zip(want) {
        let ctx = format!("{context}\nconfig {}", w.key);
        assert_eq!(g["state"], w.state.as_str(), "{ctx}\nstate");
        if let Some(block) = &w.block {
            let sha = expected_sha(block, w.sha256.as_deref(), root, &ctx);
            assert_eq!(g["sha256"].as_str(), Some(sha.as_str()), "{ctx}\nsha256");
        } else if let Some(sha) = &w.sha256 {
            assert_eq!(g["sha256"].as_str(), Some(sha.as_str()), "{ctx}\nsha256");
        }
        if let Some(lines) = &w.lines {
            assert_eq!(g["lines"], serde_json::json!(lines), "{ctx}\nlines");
        }
        match &w.error {
            Some(error) => {
                assert_eq!(
                    g["error"]["message"].as_str(),
                    Some(error.as_str()),
                    "{ctx}\nerror"
                );
                let code = w.exit.expect("an error row needs `exit`");
                assert_eq!(
                    g["error"]["exit"].as_u64(),
                    Some(u64::from(code)),
                    "{ctx}\nexit"
                );
            }
            None => {
                assert!(g.get("error").is_none(), "{ctx}\nunexpected error");
                assert!(w.exit.is_none(), "{ctx}\n`exit` belongs to an error row");
            }
        }
    }
}

macro_rules! cases {
    ($($name:ident),* $(,)?) => {
        const CASES: &[&str] = &[$(stringify!($name)),*];
        $(
            #[test]
            fn $name() {
                run_case(stringify!($name));
            }
        )*
    };
}

cases! {
command_line_only_permission_key,
    command_line_only_trust_store,
    config_argument_tilde,
    empty_request,
    empty_scope,
    empty_toml,
    escaping,
    extends_absolute_mixed_formats,
    extends_backslash,
    extends_child_cancels,
    extends_child_null,
    extends_cycle,
    extends_depth_11_ok,
    extends_depth_12_fails,
    extends_directory,
    extends_missing,
    extends_not_a_path,
    extends_only_first_counts,
    extends_overridden_base_still_validated,
    extends_overridden_targets,
    extends_relative_base_scopes,
    extends_through_link_is_lexical,
    extends_tilde_not_home,
    extends_unsafe_nearest,
    extension_case_insensitive,
    golden_doc,
    golden_unit,
    import_normalization,
    import_targets_allow_and_deny,
    import_true,
    invalid_cidr,
    invalid_import_empty_dir,
    invalid_import_provider,
    invalid_net_backslash,
    invalid_net_non_ascii,
    invalid_net_port,
    invalid_net_port_sign,
    invalid_net_scope_as_written,
    invalid_net_url,
    json5_index_keys_first,
    json5_last_value_wins,
    json5_non_object_top_level,
    json5_repeated_key_first_position,
    json_dotted_top_level_key,
    json_duplicate_false_keeps_scopes,
    json_duplicate_unscoped_collapse,
    json_duplicates_accumulate,
    malformed_nested_array,
    malformed_number_element,
    malformed_scalar_string,
    net_normalization,
    net_port_spellings,
    path_dot_and_dotdot,
    path_expansion,
    paths_with_spaces_quotes,
    permissions_not_object,
    relative_config_argument,
    removed_key,
    sandbox_child_false_cancels_diff,
    sandbox_copy_no_host,
    sandbox_diff_file_empty,
    sandbox_diff_invalid,
    sandbox_dotted_and_single_string,
    sandbox_empty,
    sandbox_extends,
    sandbox_files_removed,
    sandbox_not_object,
    sandbox_overridden_base_still_checked,
    sandbox_section,
    sandbox_unknown_key,
    scan_file_arguments,
    scan_follows_directory_links,
    scan_link_argument,
    scan_order,
    scan_priority,
    scan_root_named_node_modules,
    scan_skips_node_modules_and_git,
    scan_states,
    scan_symlinked_config_file,
    scan_tilde_and_backslash_arguments,
    surrogate_pair,
    symlink_config_dir,
    symlink_config_file,
    symlink_dir_extends_dotdot,
    targets_through_symlinks,
    toml_dotted_keys,
    toml_inline_table,
    toml_key_order,
    toml_subtable_unsupported,
    toml_table_order,
    toml_tables,
    trim_only_c0_and_space,
    unknown_extension,
    unknown_permission_case_sensitive,
    unsafe_first_occurrence,
    unsafe_in_array,
    unsafe_null,
    unsafe_string_true,
    unscoped_lines,
    validation_before_request,
}

/// Every case directory is run by a test above, and every test has its
/// directory: no forgotten or stale case.
#[test]
fn every_case_directory_is_listed() {
    let mut dirs: Vec<String> = fs::read_dir(CASES_DIR)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    dirs.sort();
    let mut listed: Vec<String> = CASES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(dirs, listed, "case directories vs. the cases! list");
    for name in CASES {
        let case = load_case(name);
        assert!(
            matches!(case.command.as_str(), "inspect" | "scan"),
            "{name}: command"
        );
    }
}
