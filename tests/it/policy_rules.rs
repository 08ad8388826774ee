//! Per-value rules in a policy (issue 31, item 2), end to end on real files:
//! a host pattern at R0 lets CI trust a config that asks only for internal
//! hosts and leaves one that asks for another host to a person; strict
//! loading refuses malformed or conflicting rules, naming the rule.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::TestEnv;

const RULES_POLICY: &str = r#"{
  "approved_workspaces": ["."],
  "personal_data_roots": ["~"],
  "denied_roots": ["~/.ssh"],
  "grants": {
    "READ_ONLY": "allow",
    "WORKSPACE_WRITE": "allow",
    "EXTERNAL_EFFECT": "needs_auth",
    "DESTRUCTIVE": "deny"
  },
  "risk_to_level": {
    "R0": "READ_ONLY",
    "R1": "WORKSPACE_WRITE",
    "R2": "EXTERNAL_EFFECT",
    "R3": "DESTRUCTIVE"
  },
  "rules": {
    "allow-net": {
      "*.internal.example.com": "R0",
      "evil.internal.example.com": "deny"
    },
    "allow-read": {
      "./secrets": "deny"
    }
  }
}
"#;

fn write_policy(t: &TestEnv, text: &str) -> String {
    let path = t.root.join("ci/policy.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    path.to_str().unwrap().to_string()
}

fn checkout(t: &TestEnv) {
    t.mkdir(".git");
    t.write(
        "internal/goccia.json",
        r#"{ "permissions": { "allow-net": ["api.internal.example.com", "db.eu.internal.example.com:5432"] } }"#,
    );
    t.write(
        "outside/goccia.json",
        r#"{ "permissions": { "allow-net": ["api.internal.example.com", "api.attacker.io"] } }"#,
    );
}

fn store_keys(t: &TestEnv) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(t.default_store()) else {
        return Vec::new();
    };
    let v: serde_json::Value = serde_json::from_str(&t.redact(&text)).unwrap();
    v["trusted"].as_object().unwrap().keys().cloned().collect()
}

#[test]
fn a_host_rule_trusts_internal_hosts_and_leaves_others_to_a_person() {
    let t = TestEnv::new();
    checkout(&t);
    let policy = write_policy(&t, RULES_POLICY);
    let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
    assert_eq!(out.code, 4, "{out}");
    assert!(
        out.stdout.contains(
            "allow-net api.internal.example.com: R0 - ALLOWED — READ_ONLY granted at R0 (rule allow-net \"*.internal.example.com\" -> R0)"
        ),
        "{out}"
    );
    assert!(
        out.stdout.contains(
            "allow-net api.attacker.io: R2 - NEEDS_AUTH — EXTERNAL_EFFECT requires explicit authorization at R2"
        ),
        "{out}"
    );
    assert!(
        out.stdout
            .contains("goccia-trust --trust outside/goccia.json"),
        "{out}"
    );
    assert_eq!(store_keys(&t), vec!["$ROOT/work/internal/goccia.json"]);
}

#[test]
fn a_deny_rule_wins_over_a_broader_allow_and_carves_paths() {
    let t = TestEnv::new();
    t.mkdir(".git");
    t.write(
        "evil/goccia.json",
        r#"{ "permissions": { "allow-net": ["evil.internal.example.com"] } }"#,
    );
    t.write(
        "reader/goccia.json",
        r#"{ "permissions": { "allow-read": ["../secrets/key"] } }"#,
    );
    t.write(
        "wide/goccia.json",
        r#"{ "permissions": { "allow-read": [".."] } }"#,
    );
    let policy = write_policy(&t, RULES_POLICY);
    let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.contains(
            "allow-net evil.internal.example.com: R2 - DENIED — reaches evil.internal.example.com, denied by rule allow-net \"evil.internal.example.com\" -> deny"
        ),
        "{out}"
    );
    assert!(
        out.stdout
            .contains("DENIED — denied by rule allow-read \"./secrets\" -> deny"),
        "{out}"
    );
    // Reading `..` (the checkout) covers ./secrets: denied too.
    assert!(!out.stdout.contains("ALLOWED"), "{out}");
    assert!(store_keys(&t).is_empty());
}

#[test]
fn without_rules_a_policy_decides_as_before() {
    let t = TestEnv::new();
    checkout(&t);
    let policy = write_policy(&t, common::CI_POLICY);
    let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
    assert_eq!(out.code, 4, "{out}");
    assert!(!out.stdout.contains("rule"), "{out}");
    assert!(store_keys(&t).is_empty());
}

#[test]
fn policy_evaluate_takes_a_value_and_names_the_rule() {
    let t = TestEnv::new();
    let policy = write_policy(&t, RULES_POLICY);
    let out = t.run(&[
        "policy",
        "evaluate",
        "--policy",
        &policy,
        "--kind",
        "allow-net",
        "--value",
        "api.internal.example.com",
    ]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        out.stdout,
        "{\"verdict\":\"ALLOWED\",\"reason\":\"READ_ONLY granted at R0 (rule allow-net \\\"*.internal.example.com\\\" -> R0)\",\"risk\":\"R0\",\"level\":\"READ_ONLY\",\"classification\":null,\"rule\":\"allow-net \\\"*.internal.example.com\\\" -> R0\",\"reach\":[\"api.internal.example.com\"]}\n"
    );
    let out = t.run(&[
        "policy",
        "evaluate",
        "--policy",
        &policy,
        "--kind",
        "allow-net",
        "--value",
        "api.attacker.io",
    ]);
    assert_eq!(out.code, 4, "{out}");
    assert!(out.stdout.contains("\"risk\":\"R2\""), "{out}");
    assert!(!out.stdout.contains("\"rule\""), "{out}");
    // `policy show` lists the rules as resolved.
    let out = t.run(&["policy", "show", "--policy", &policy]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stderr
            .contains("  allow-net \"*.internal.example.com\" -> R0"),
        "{out}"
    );
    assert!(
        out.stderr
            .contains("  allow-read \"./secrets\" -> deny ($ROOT/ci/secrets)"),
        "{out}"
    );
}

#[test]
fn malformed_or_conflicting_rules_are_refused_naming_the_rule() {
    let t = TestEnv::new();
    let cases = [
        (
            r#""rules": {"allow-net": {"a.*.example.com": "R0"}}"#,
            "rule allow-net \"a.*.example.com\" could never match: a wildcard stands only for whole leading labels (\"*.example.com\")",
        ),
        (
            r#""rules": {"allow-net": {"API.example.com": "R0", "api.example.com": "deny"}}"#,
            "rules allow-net \"API.example.com\" and \"api.example.com\" match the same values with equal specificity but differ (R0, deny)",
        ),
        (
            r#""rules": {"unsafe-shadowrealm": {"x": "deny"}}"#,
            "rule unsafe-shadowrealm \"x\" could never match: a unsafe-shadowrealm request has no value",
        ),
        (
            r#""rules": {"allow-net": {"example.com": "R9"}}"#,
            "rule allow-net \"example.com\" maps to \"R9\", neither a risk class of risk_to_level nor allow, needs_auth or deny",
        ),
        (
            r#""rules": {"allow-nett": {"example.com": "R0"}}"#,
            "rules: unknown request kind \"allow-nett\"",
        ),
        (
            r#""rules": {"allow-net": {"example.com:0": "R0"}}"#,
            "rule allow-net \"example.com:0\" could never match: port 0 is not 1 to 65535",
        ),
    ];
    for (rules, want) in cases {
        let text = common::CI_POLICY.replacen('{', &format!("{{ {rules},"), 1);
        let policy = write_policy(&t, &text);
        let out = t.run(&["policy", "show", "--policy", &policy]);
        assert_eq!(out.code, 2, "{rules}: {out}");
        assert!(
            out.stderr
                .starts_with("Error: policy invalid: $ROOT/ci/policy.json ("),
            "{out}"
        );
        assert!(out.stderr.contains(want), "{rules}: want {want}\n{out}");
    }
}

#[test]
fn a_path_rule_holds_for_a_path_only_when_its_links_stay_inside() {
    let t = TestEnv::new();
    t.mkdir(".git");
    t.mkdir("vendor/lib");
    t.mkdir("elsewhere");
    t.write("vendor/lib/libfast.so", "");
    t.write("elsewhere/libevil.so", "");
    // Inside ./vendor as written, in ./elsewhere once the link is followed.
    t.symlink("../../elsewhere", "vendor/lib/escape");
    t.write(
        "fast/goccia.json",
        r#"{ "permissions": { "allow-ffi": ["../vendor/lib/libfast.so"] } }"#,
    );
    t.write(
        "escape/goccia.json",
        r#"{ "permissions": { "allow-ffi": ["../vendor/lib/escape/libevil.so"] } }"#,
    );
    let text = common::CI_POLICY.replacen(
        '{',
        r#"{ "rules": { "allow-ffi": { "./vendor": "R0" } },"#,
        1,
    );
    let policy = write_policy(&t, &text);
    let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.contains(
            "allow-ffi $ROOT/work/vendor/lib/libfast.so: R0 APPROVED_WORKSPACE ALLOWED — APPROVED_WORKSPACE read at R0 (rule allow-ffi \"./vendor\" -> R0)"
        ),
        "{out}"
    );
    assert!(
        out.stdout.contains(
            "allow-ffi $ROOT/work/vendor/lib/escape/libevil.so -> $ROOT/work/elsewhere/libevil.so: R3 APPROVED_WORKSPACE DENIED — DESTRUCTIVE denied by its grant \"deny\" at R3\n"
        ),
        "{out}"
    );
    assert_eq!(store_keys(&t), vec!["$ROOT/work/fast/goccia.json"]);
}
