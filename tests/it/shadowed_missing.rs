//! Every config the tree has, said once (issue 30 item 3): a config file
//! shadowed by a higher-priority one in the same directory (GocciaScript
//! reads `goccia.toml`, else `goccia.json5`, else `goccia.json`) is reported
//! as shadowed, never trusted nor hashed; a config deleted while the store
//! still trusts it is reported as missing where people review, with the
//! command that prunes it.

use serde_json::Value;

use crate::common::TestEnv;
use crate::common::git::perms;
use crate::diff::Repo;

fn toml(body: &str) -> String {
    format!("[permissions]\n{body}\n")
}

#[test]
fn a_shadowed_config_is_reported_by_scan_in_text_and_json() {
    let t = TestEnv::new();
    t.write("app/goccia.toml", &toml(r#""allow-net" = ["a.test"]"#));
    t.write("app/goccia.json", &perms(r#""allow-ffi": true"#));
    t.write("app/goccia.json5", "{permissions: {}}");
    let out = t.run(&["scan"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .contains("shadowed: app/goccia.json5 by app/goccia.toml (GocciaScript reads only goccia.toml here; this file is neither trusted nor hashed)\n"),
        "{out}"
    );
    assert!(
        out.stdout
            .contains("shadowed: app/goccia.json by app/goccia.toml"),
        "{out}"
    );
    // The shadowed file's request is nowhere in the listing.
    assert!(!out.stdout.contains("allow-ffi"), "{out}");
    let json = t.run(&["scan", "--json"]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["configs"].as_array().unwrap().len(), 1, "{v}");
    let shadowed = v["shadowed"].as_array().unwrap();
    assert_eq!(shadowed.len(), 2, "{v}");
    assert_eq!(shadowed[0]["path"], "$ROOT/work/app/goccia.json");
    assert_eq!(shadowed[0]["by"], "$ROOT/work/app/goccia.toml");
    // inspect of the shadowed file says what GocciaScript reads instead.
    let inspect = t.run(&["inspect", "app/goccia.json"]);
    assert!(
        inspect.stdout.contains(
            "Shadowed: by $ROOT/work/app/goccia.toml: GocciaScript reads that file here, never this one\n"
        ),
        "{inspect}"
    );
    let v: Value =
        serde_json::from_str(&t.run(&["inspect", "--json", "app/goccia.json"]).stdout).unwrap();
    assert_eq!(v["shadowedBy"], "$ROOT/work/app/goccia.toml");
    // The trust listing says so too, and trusts only the effective file.
    let trust = t.run(&["trust", "--yes", "."]);
    assert_eq!(trust.code, 0, "{trust}");
    assert!(
        trust
            .stdout
            .contains("shadowed: app/goccia.json by app/goccia.toml"),
        "{trust}"
    );
    assert!(
        !t.read_store().contains("goccia.json\""),
        "{}",
        t.read_store()
    );
}

#[test]
fn a_deleted_config_the_store_trusts_is_reported_as_missing() {
    let t = TestEnv::new();
    t.write(
        "tools/release/goccia.json",
        &perms(r#""allow-net": ["a.test"]"#),
    );
    t.write("app/goccia.json", &perms(r#""allow-net": ["b.test"]"#));
    assert_eq!(t.run(&["trust", "--yes", "."]).code, 0);
    std::fs::remove_file(t.work.join("tools/release/goccia.json")).unwrap();
    let out = t.run(&["scan"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains(
            "missing: tools/release/goccia.json (trusted, now gone; goccia-trust untrust --missing removes the entry)\n"
        ),
        "{out}"
    );
    let json = t.run(&["scan", "--json"]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        v["missing"][0]["key"], "$ROOT/work/tools/release/goccia.json",
        "{v}"
    );
    assert!(v["missing"][0]["trustedAt"].is_string(), "{v}");
    // Only entries under the scanned path: a scan of app/ says nothing.
    let app = t.run(&["scan", "app"]);
    assert!(!app.stdout.contains("missing:"), "{app}");
    // The trust listing of the tree says it as well.
    let trust = t.run(&["trust", "--yes", "."]);
    assert!(
        trust.stdout.contains("missing: tools/release/goccia.json"),
        "{trust}"
    );
}

#[test]
fn diff_notes_a_config_added_beside_a_higher_priority_one() {
    let r = Repo::new();
    r.write("app/goccia.toml", &toml(r#""allow-net" = ["a.test"]"#));
    r.commit("base");
    r.write("app/goccia.json", &perms(r#""allow-ffi": true"#));
    r.commit("shadowed");
    for args in [&["HEAD~1", "HEAD"][..], &["HEAD~1"]] {
        let out = r.diff(args);
        assert_eq!(out.code, 0, "{args:?}: {out}");
        assert!(
            out.stdout
                .contains(": shadowed by goccia.toml, not read: app/goccia.json\n"),
            "{args:?}: {out}"
        );
        let md = r.diff(&[args, &["--format", "markdown"]].concat());
        assert!(
            md.stdout
                .contains("`shadowed by goccia.toml, not read: app/goccia.json`"),
            "{md}"
        );
    }
}

/// `scan --policy` is a scan too: its text and its `--json` name the
/// shadowed file and the missing entry as `scan` does (they said nothing).
#[test]
fn scan_with_a_policy_names_shadowed_and_missing_configs() {
    let t = TestEnv::new();
    t.write("gone/goccia.json", &perms(r#""allow-net": ["a.test"]"#));
    assert_eq!(t.run(&["trust", "--yes", "gone"]).code, 0);
    std::fs::remove_dir_all(t.work.join("gone")).unwrap();
    t.write("app/goccia.toml", &toml(r#""allow-net" = ["a.test"]"#));
    t.write("app/goccia.json", &perms(r#""allow-ffi": true"#));
    let policy = t.root.join("policy.json");
    std::fs::write(
        &policy,
        r#"{
  "approved_workspaces": ["."],
  "personal_data_roots": [],
  "denied_roots": [],
  "grants": {"READ_ONLY": "allow", "WORKSPACE_WRITE": "allow", "EXTERNAL_EFFECT": "needs_auth", "DESTRUCTIVE": "deny"},
  "risk_to_level": {"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE", "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE"}
}"#,
    )
    .unwrap();
    let policy = policy.to_str().unwrap();
    let out = t.run(&["scan", "--policy", policy]);
    assert!(
        out.stdout
            .contains("\nshadowed: app/goccia.json by app/goccia.toml (GocciaScript reads only goccia.toml here; this file is neither trusted nor hashed)\n"),
        "{out}"
    );
    assert!(
        out.stdout.contains(
            "\nmissing: gone/goccia.json (trusted, now gone; goccia-trust untrust --missing removes the entry)\n"
        ),
        "{out}"
    );
    let json = t.run(&["scan", "--json", "--policy", policy]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        v["shadowed"][0]["path"], "$ROOT/work/app/goccia.json",
        "{v}"
    );
    assert_eq!(v["shadowed"][0]["by"], "$ROOT/work/app/goccia.toml", "{v}");
    assert_eq!(v["missing"][0]["key"], "$ROOT/work/gone/goccia.json", "{v}");
    assert!(v["missing"][0]["trustedAt"].is_string(), "{v}");
    assert!(v["policy"]["sha256"].is_string(), "{v}");
}
