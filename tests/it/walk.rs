//! The walk over a tree under review: links out of the tree are reported
//! and not walked, nothing unreadable is skipped in silence, and inputs
//! must exist.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::{TestEnv, run_unprivileged};

const REQUEST: &str = r#"{"permissions": {"allow-net": ["a.test"]}}"#;

#[test]
fn links_out_of_the_tree_are_reported_not_walked_nor_trusted() {
    let env = TestEnv::new();
    env.write("repo/goccia.json", REQUEST);
    env.write("elsewhere/goccia.json", REQUEST);
    env.symlink("/", "repo/root");
    let elsewhere = env.work.join("elsewhere");
    env.symlink(elsewhere.to_str().unwrap(), "repo/vendor");
    // A link inside the tree is followed as GocciaScript follows it.
    env.write("repo/inner/goccia.json", REQUEST);
    env.symlink("inner", "repo/also-inner");

    let out = env.run(&["scan", "repo"]);
    assert_eq!(
        out.to_string(),
        "STATE          CONFIG                  SUMMARY\n\
         never trusted  repo/goccia.json        1 request\n\
         never trusted  repo/inner/goccia.json  1 request\n\
         not followed: repo/root -> / (outside repo/)\n\
         not followed: repo/vendor -> $ROOT/work/elsewhere (outside repo/)\n\
         [exit status: 0]"
    );

    let out = env.run(&["scan", "repo", "--json"]);
    assert_eq!(out.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["configs"].as_array().unwrap().len(), 2);
    assert_eq!(
        doc["notFollowed"],
        serde_json::json!([
            {"link": "$ROOT/work/repo/root", "target": "/"},
            {"link": "$ROOT/work/repo/vendor", "target": "$ROOT/work/elsewhere"},
        ])
    );
    assert_eq!(doc["unreadable"], serde_json::json!([]));

    let out = env.run(&["trust", "repo", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains(
            "\n  not followed: repo/root -> / (outside repo/)\n  \
             not followed: repo/vendor -> $ROOT/work/elsewhere (outside repo/)\n"
        ),
        "{out}"
    );
    assert!(
        out.stdout
            .ends_with("Trusted 2 config files in $ROOT/home/.config/goccia/trust.json\n")
    );
    let store: serde_json::Value = serde_json::from_str(&env.read_store()).unwrap();
    let keys: Vec<&String> = store["trusted"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "$ROOT/work/repo/goccia.json",
            "$ROOT/work/repo/inner/goccia.json"
        ]
    );

    // Reviewed on its own, the destination is trusted as any tree.
    let out = env.run(&["trust", "elsewhere", "--yes"]);
    assert_eq!(out.code, 0, "{out}");

    // Judged by a policy, the walk is the same.
    let policy = concat!(env!("CARGO_MANIFEST_DIR"), "/policies/default-linux.json");
    let out = env.run(&["scan", "--policy", policy, "repo"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .contains("not followed: repo/vendor -> $ROOT/work/elsewhere (outside repo/)\n"),
        "{out}"
    );
    assert!(!out.stdout.contains("elsewhere/goccia.json"), "{out}");

    // Nothing left: the links are still named.
    let out = env.run(&["trust", "repo", "--yes"]);
    assert_eq!(
        out.to_string(),
        "All 2 config files under repo/ are already trusted\n\
         not followed: repo/root -> / (outside repo/)\n\
         not followed: repo/vendor -> $ROOT/work/elsewhere (outside repo/)\n\
         [exit status: 0]"
    );
}

#[test]
fn unreadable_directories_are_reported_and_fail_the_command() {
    let env = TestEnv::new();
    env.write("p/ok/goccia.json", REQUEST);
    env.write("p/locked/goccia.json", REQUEST);
    crate::common::open_for_unprivileged(&env, &["work", "work/p", "work/p/ok", "work/p/locked"]);
    for f in ["work/p/ok/goccia.json", "work/p/locked/goccia.json"] {
        let p = env.root.join(f);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let locked = env.work.join("p/locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();

    let warning = "Warning: cannot read p/locked: Permission denied\n";
    let (out, err, code) = run_unprivileged(&env, &["scan", "p"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("p/ok/goccia.json"), "{out}");
    assert_eq!(
        err,
        format!(
            "{warning}Warning: 1 path under p/ could not be read; a config there was not reviewed\n"
        )
    );

    let (out, err, code) = run_unprivileged(&env, &["scan", "--json", "p"]);
    assert_eq!(code, 1, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        doc["unreadable"],
        serde_json::json!([{"path": "$ROOT/work/p/locked", "reason": "Permission denied"}])
    );

    // The policy as a file `nobody` was handed: the checkout may be private.
    let policy = crate::common::hand_to_unprivileged(&env, "policies/default-linux.json");
    let policy = policy.to_str().unwrap();
    let (out, err, code) = run_unprivileged(&env, &["scan", "--policy", policy, "p"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.starts_with(warning), "{err}");

    let (out, err, code) = run_unprivileged(&env, &["check", "--json", "p"]);
    assert_eq!(code, 2, "blocked wins over unreadable: {err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["unreadable"].as_array().unwrap().len(), 1);
    assert!(err.starts_with(warning), "{err}");

    let (out, err, code) = run_unprivileged(&env, &["trust", "p", "--dry-run"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        err,
        format!("{warning}Error: 1 path under p/ could not be read; nothing was trusted\n")
    );
    let (_, _, code) = run_unprivileged(&env, &["trust", "p", "--yes"]);
    assert_eq!(code, 1);
    assert!(!env.default_store().exists());

    // Trusted, the readable config no longer blocks; the unreadable part
    // still fails the check.
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::rename(&locked, env.work.join("moved")).unwrap();
    let (_, err, code) = run_unprivileged(&env, &["trust", "p", "--yes"]);
    assert_eq!(code, 0, "{err}");
    std::fs::rename(env.work.join("moved"), &locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let (out, err, code) = run_unprivileged(&env, &["check", "p"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.starts_with(warning), "{err}");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_config_under_a_name_that_is_not_utf8_is_shown_escaped_not_dropped() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    env.write("p/goccia.json", REQUEST);
    let odd = env.work.join("p").join(OsStr::from_bytes(b"n\xffx"));
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("goccia.json"), REQUEST).unwrap();
    let out = env.run(&["scan", "p"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr.starts_with(
            "Warning: cannot read p/n\\xffx/goccia.json: the path is not UTF-8, so no trust key can name this config\n"
        ),
        "{out}"
    );
}

#[test]
fn check_refuses_an_input_that_does_not_exist() {
    let env = TestEnv::new();
    env.write("p/goccia.json", "{}");
    env.write("p/a.js", "");
    for args in [
        &["check", "nonexistent.js"][..],
        &["check", "p/a.js", "nonexistent.js"],
    ] {
        let out = env.run(args);
        assert_eq!(
            out.to_string(),
            "--- stderr ---\nError: nonexistent.js: no such file or directory\n[exit status: 1]",
            "{args:?}"
        );
    }
    // With --json, stdout also carries the failure document (schema 1).
    let out = env.run(&["check", "--json", "nonexistent.js"]);
    assert_eq!(
        out.stderr,
        "Error: nonexistent.js: no such file or directory\n"
    );
    assert_eq!(out.code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        doc,
        serde_json::json!({"schema": 1, "error": {
            "message": "nonexistent.js: no such file or directory", "exit": 1}})
    );
    env.symlink("gone", "dangling.js");
    let out = env.run(&["check", "dangling.js"]);
    assert_eq!(
        out.stderr,
        "Error: dangling.js: no such file or directory\n"
    );
    assert_eq!(env.run(&["check", "p/a.js"]).code, 0);
}

#[test]
fn inspect_a_directory_inspects_the_config_governing_it() {
    let env = TestEnv::new();
    env.write("p/goccia.json", REQUEST);
    env.mkdir("p/sub/deeper");
    let of_config = env.run(&["inspect", "p/goccia.json"]);
    assert_eq!(of_config.code, 0);
    for dir in ["p", "p/", "p/sub/deeper"] {
        let out = env.run(&["inspect", dir]);
        assert_eq!(out.to_string(), of_config.to_string(), "{dir}");
    }
    env.mkdir("bare");
    let out = env.run(&["inspect", "bare"]);
    // The temporary tree has no config above it (unless the machine's root
    // does, which would govern it).
    if out.code != 0 {
        assert_eq!(
            out.to_string(),
            "--- stderr ---\nError: bare is a directory; no config governs it\n[exit status: 1]"
        );
    }
    let out = env.run(&["inspect", "missing"]);
    assert_eq!(out.stderr, "Error: config file not found: missing\n");
}
