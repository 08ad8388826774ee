//! `trust --yes --policy` / `--expect` and `scan --policy` end to end: a CI
//! bootstrap over a fixture repository, through the real binary, checking
//! the output, the exit code, the store and the decision records.

use crate::common;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::CI_POLICY as POLICY;
use common::{TestEnv, redact_timestamps};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The repository under review (the working directory, a git checkout) and the policy,
/// outside it at `$ROOT/ci/policy.json`. Returns the policy's path.
fn fixture(t: &TestEnv) -> String {
    // A checkout: `.` in the policy is this repository's root, whichever
    // PATHs under it are reviewed.
    t.mkdir(".git");
    std::fs::create_dir_all(t.home.join(".ssh")).unwrap();
    std::fs::write(t.home.join(".ssh/id_ed25519"), "secret").unwrap();

    // Reads inside the repo: allowed.
    t.write(
        "app/goccia.json",
        r#"{ "permissions": { "allow-read": ["./data", "../shared"] } }"#,
    );
    t.mkdir("app/data");
    t.mkdir("shared");
    // A read through a link that leaves the repo for ~/.ssh: denied.
    t.write(
        "vendored/goccia.json",
        r#"{ "permissions": { "allow-read": ["./vendor"] } }"#,
    );
    t.symlink(t.home.join(".ssh").to_str().unwrap(), "vendored/vendor");
    // A public host: needs authorization.
    t.write(
        "web/goccia.json",
        r#"{ "permissions": { "allow-net": ["api.example.com"] } }"#,
    );
    // A private range: R3, denied.
    t.write(
        "lan/goccia.json",
        r#"{ "permissions": { "allow-net": ["192.168.0.0/16"] } }"#,
    );
    // Native code: R3, denied.
    t.write(
        "native/goccia.json",
        r#"{ "permissions": { "allow-ffi": ["./libfast.so"] } }"#,
    );
    // An unsafe key: R3, denied.
    t.write("legacy/goccia.json", r#"{ "unsafe-shadowrealm": true }"#);
    // Sandbox inputs inside the repo: allowed.
    t.write(
        "sandboxed/goccia.json",
        r#"{ "sandbox": { "copy": ["src"], "copy-rw": ["out"] } }"#,
    );
    t.mkdir("sandboxed/src");
    t.mkdir("sandboxed/out");
    // Third-party code from the repo's node_modules: allowed (R1).
    t.write(
        "frontend/goccia.toml",
        "[permissions]\nallow-import = [\"node_modules\"]\n",
    );
    // Only a deny: needs no trust, never judged.
    t.write(
        "docs/goccia.json",
        r#"{ "permissions": { "deny-net": ["example.org"] } }"#,
    );

    write_policy(t, POLICY)
}

fn write_policy(t: &TestEnv, text: &str) -> String {
    let path = t.root.join("ci/policy.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    // Whatever the umask: a policy others may write is refused.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    path.to_str().unwrap().to_string()
}

/// The policy's hash, shown beside its path wherever it gates, as `…`: the
/// hash itself is checked in `a_policy_from_the_reviewed_tree_is_refused_unless_pinned`.
fn policy_sha_redacted(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("(sha256 ") {
        let (head, tail) = rest.split_at(i + "(sha256 ".len());
        out.push_str(head);
        let hex = tail
            .get(..64)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match hex {
            Some(_) if tail[64..].starts_with(')') => {
                out.push('…');
                rest = &tail[64..];
            }
            _ => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn state(t: &TestEnv) -> PathBuf {
    t.root.join("state")
}

/// Every decision record, each checked for its name and envelope, by
/// config key (redacted).
fn records_in(t: &TestEnv, state: &Path) -> Vec<Value> {
    let Ok(rd) = std::fs::read_dir(state.join("decisions")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in rd {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        // <YYYY-MM-DDTHH-MM-SS-mmmZ>-<pid>-<6 base36>.json
        let id = name.strip_suffix(".json").expect(&name);
        let (stamp, rest) = id.split_at(24);
        assert!(
            stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T',
            "{name}"
        );
        let (pid, rand) = rest[1..].split_once('-').expect(&name);
        assert!(pid.bytes().all(|b| b.is_ascii_digit()), "{name}");
        assert!(rand.len() == 6 && rand.bytes().all(|b| b.is_ascii_alphanumeric()));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with("}\n"), "{name}");
        let v: Value = serde_json::from_str(&t.redact(&text)).unwrap();
        assert_eq!(v["id"], id);
        assert_eq!(v["enforced_before_execution"], true);
        assert_eq!(v["op"], "config-trust");
        // Written before the trust; rewritten once the store holds it.
        assert_eq!(v["executed"], v["verdict"] == "ALLOWED", "{name}");
        out.push(v);
    }
    out
}

fn records(t: &TestEnv) -> BTreeMap<String, Value> {
    let mut by_key = BTreeMap::new();
    for v in records_in(t, &state(t)) {
        let key = v["config_key"].as_str().unwrap().to_string();
        assert!(
            by_key.insert(key, v).is_none(),
            "two records for one config"
        );
    }
    by_key
}

/// The store's entries, by key (redacted).
fn store_entries(t: &TestEnv) -> BTreeMap<String, Value> {
    let v: Value = serde_json::from_str(&t.read_store()).unwrap();
    v["trusted"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn assert_nothing_written(t: &TestEnv) {
    assert!(!t.default_store().exists(), "the store was written");
    assert!(!state(t).exists(), "the state dir was written");
}

/// `(kind, scope, target, canonical, classification, verdict)` of each
/// request of a record.
fn requests(record: &Value) -> Vec<[String; 6]> {
    let s = |v: &Value| match v {
        Value::Null => "null".to_string(),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    record["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            [
                s(&r["kind"]),
                s(&r["scope"]),
                s(&r["target"]),
                s(&r["resolved_target"]["canonical"]),
                s(&r["classification"]),
                s(&r["verdict"]),
            ]
        })
        .collect()
}

fn row(parts: [&str; 6]) -> [String; 6] {
    parts.map(str::to_string)
}

const BOOTSTRAP_OUT: &str = "\
Permission requests under ./, judged by policy $ROOT/ci/policy.json (sha256 …):

  app/goccia.json (new): ALLOWED
    allow-read $ROOT/work/app/data, $ROOT/work/shared: R0 APPROVED_WORKSPACE ALLOWED — APPROVED_WORKSPACE read at R0

  frontend/goccia.toml (new): ALLOWED
    allow-import-node-modules node_modules -> $ROOT/work/frontend/node_modules: R1 APPROVED_WORKSPACE ALLOWED — WORKSPACE_WRITE granted at R1

  lan/goccia.json (new): DENIED
    allow-net-private 192.168.0.0/16: R3 - DENIED — DESTRUCTIVE denied by its grant \"deny\" at R3

  legacy/goccia.json (new): DENIED
    unsafe-shadowrealm (unscoped): R3 - DENIED — DESTRUCTIVE denied by its grant \"deny\" at R3

  native/goccia.json (new): DENIED
    allow-ffi $ROOT/work/native/libfast.so: R3 APPROVED_WORKSPACE DENIED — DESTRUCTIVE denied by its grant \"deny\" at R3

  sandboxed/goccia.json (new): ALLOWED
    sandbox-copy $ROOT/work/sandboxed/src: R0 APPROVED_WORKSPACE ALLOWED — APPROVED_WORKSPACE read at R0
    sandbox-copy-rw $ROOT/work/sandboxed/out: R1 APPROVED_WORKSPACE ALLOWED — WORKSPACE_WRITE granted at R1

  vendored/goccia.json (new): DENIED
    allow-read $ROOT/work/vendored/vendor -> $ROOT/home/.ssh: R0 DENIED_ROOT DENIED — target classified DENIED_ROOT — denied at any risk level (denied root ~/.ssh)

  web/goccia.json (new): NEEDS_AUTH
    allow-net api.example.com: R2 - NEEDS_AUTH — EXTERNAL_EFFECT requires explicit authorization at R2

  not followed: vendored/vendor -> $ROOT/home/.ssh (outside ./)

Trusted 3 config files in $ROOT/home/.config/goccia/trust.json
1 config file needs authorization; a person reviews and trusts it with:
  goccia-trust --trust web/goccia.json
4 config files denied by the policy; not trusted
[exit status: 3]";

#[test]
fn ci_bootstrap_trusts_exactly_what_the_policy_allows() {
    let t = TestEnv::new();
    let policy = fixture(&t);
    let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
    assert_eq!(policy_sha_redacted(&out.to_string()), BOOTSTRAP_OUT);

    // The store holds the three allowed configs and nothing else.
    let store = store_entries(&t);
    assert_eq!(
        store.keys().collect::<Vec<_>>(),
        [
            "$ROOT/work/app/goccia.json",
            "$ROOT/work/frontend/goccia.toml",
            "$ROOT/work/sandboxed/goccia.json",
        ]
    );
    // One entry byte for byte: what plain `trust --yes` would record.
    let text = redact_timestamps(&t.read_store());
    let app = concat!(
        "    \"$ROOT/work/app/goccia.json\": {
      \"sha256\": \"APP_SHA\",
      \"block\": {\"permissions\":{\"allow-read\":[\"$ROOT/work/app/data\",\"$ROOT/work/shared\"]},\"version\":1},
      \"targets\": {\"$ROOT/work/app/data\": \"$ROOT/work/app/data\", \"$ROOT/work/shared\": \"$ROOT/work/shared\"},
      \"trustedAt\": \"<TS>\",
      \"trustedBy\": \"goccia-trust ",
        env!("CARGO_PKG_VERSION"),
        "\"
    },
"
    );
    let app_sha = store["$ROOT/work/app/goccia.json"]["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text.contains(&app.replace("APP_SHA", &app_sha)),
        "store:\n{text}"
    );
    assert!(text.starts_with("{\n  \"version\": 1,\n  \"trusted\": {\n"));

    // One record per judged config (the deny-only one asks for nothing).
    let recs = records(&t);
    assert_eq!(
        recs.keys().collect::<Vec<_>>(),
        [
            "$ROOT/work/app/goccia.json",
            "$ROOT/work/frontend/goccia.toml",
            "$ROOT/work/lan/goccia.json",
            "$ROOT/work/legacy/goccia.json",
            "$ROOT/work/native/goccia.json",
            "$ROOT/work/sandboxed/goccia.json",
            "$ROOT/work/vendored/goccia.json",
            "$ROOT/work/web/goccia.json",
        ]
    );
    let policy_sha = sha256(POLICY.as_bytes());
    let scanned = scan_json(&t, &[]);
    for (key, rec) in &recs {
        assert_eq!(rec["policy"], "$ROOT/ci/policy.json", "{key}");
        assert_eq!(rec["policy_sha256"], policy_sha.as_str(), "{key}");
        // The block hash is the one scan reports, and the store's when trusted.
        assert_eq!(rec["block_sha256"], scanned[key]["sha256"], "{key}");
        if let Some(entry) = store.get(key) {
            assert_eq!(rec["block_sha256"], entry["sha256"], "{key}");
            assert_eq!(rec["verdict"], "ALLOWED", "{key}");
        } else {
            assert_ne!(rec["verdict"], "ALLOWED", "{key}");
        }
        assert!(rec.get("expect").is_none());
    }

    let app = &recs["$ROOT/work/app/goccia.json"];
    assert_eq!(app["verdict"], "ALLOWED");
    assert_eq!(app["risk"], "R0");
    assert_eq!(app["reason"], "allow-read: APPROVED_WORKSPACE read at R0");
    assert_eq!(
        requests(app),
        [
            row([
                "allow-read",
                "$ROOT/work/app/data",
                "$ROOT/work/app/data",
                "$ROOT/work/app/data",
                "APPROVED_WORKSPACE",
                "ALLOWED"
            ]),
            row([
                "allow-read",
                "$ROOT/work/shared",
                "$ROOT/work/shared",
                "$ROOT/work/shared",
                "APPROVED_WORKSPACE",
                "ALLOWED"
            ]),
        ]
    );
    assert_eq!(app["requests"][0]["risk"], "R0");
    assert_eq!(app["requests"][0]["level"], "READ_ONLY");
    assert_eq!(
        app["requests"][0]["reason"],
        "APPROVED_WORKSPACE read at R0"
    );

    // The symlink escape: judged where the link leads.
    let vendored = &recs["$ROOT/work/vendored/goccia.json"];
    assert_eq!(vendored["verdict"], "DENIED");
    assert_eq!(
        vendored["reason"],
        "allow-read: target classified DENIED_ROOT — denied at any risk level (denied root ~/.ssh)"
    );
    assert_eq!(
        requests(vendored),
        [row([
            "allow-read",
            "$ROOT/work/vendored/vendor",
            "$ROOT/work/vendored/vendor",
            "$ROOT/home/.ssh",
            "DENIED_ROOT",
            "DENIED"
        ])]
    );
    assert_eq!(
        vendored["requests"][0]["resolved_target"]["lexical"],
        "$ROOT/work/vendored/vendor"
    );

    let web = &recs["$ROOT/work/web/goccia.json"];
    assert_eq!(web["verdict"], "NEEDS_AUTH");
    assert_eq!(web["risk"], "R2");
    assert_eq!(
        requests(web),
        [row([
            "allow-net",
            "api.example.com",
            "null",
            "null",
            "null",
            "NEEDS_AUTH"
        ])]
    );
    assert_eq!(web["requests"][0]["resolved_target"], Value::Null);

    let lan = &recs["$ROOT/work/lan/goccia.json"];
    assert_eq!(
        (&lan["verdict"], &lan["risk"]),
        (&"DENIED".into(), &"R3".into())
    );
    assert_eq!(lan["requests"][0]["kind"], "allow-net-private");

    let native = &recs["$ROOT/work/native/goccia.json"];
    assert_eq!(
        requests(native),
        [row([
            "allow-ffi",
            "$ROOT/work/native/libfast.so",
            "$ROOT/work/native/libfast.so",
            "$ROOT/work/native/libfast.so",
            "APPROVED_WORKSPACE",
            "DENIED"
        ])]
    );
    assert_eq!(
        requests(&recs["$ROOT/work/legacy/goccia.json"]),
        [row([
            "unsafe-shadowrealm",
            "null",
            "null",
            "null",
            "null",
            "DENIED"
        ])]
    );
    assert_eq!(
        requests(&recs["$ROOT/work/sandboxed/goccia.json"]),
        [
            row([
                "sandbox-copy",
                "$ROOT/work/sandboxed/src",
                "$ROOT/work/sandboxed/src",
                "$ROOT/work/sandboxed/src",
                "APPROVED_WORKSPACE",
                "ALLOWED"
            ]),
            row([
                "sandbox-copy-rw",
                "$ROOT/work/sandboxed/out",
                "$ROOT/work/sandboxed/out",
                "$ROOT/work/sandboxed/out",
                "APPROVED_WORKSPACE",
                "ALLOWED"
            ]),
        ]
    );
    assert_eq!(
        requests(&recs["$ROOT/work/frontend/goccia.toml"]),
        [row([
            "allow-import-node-modules",
            "node_modules",
            "$ROOT/work/frontend/node_modules",
            "$ROOT/work/frontend/node_modules",
            "APPROVED_WORKSPACE",
            "ALLOWED"
        ])]
    );

    // A second run judges only what is not trusted yet, and records those.
    let again = t.run(&["trust", "--yes", "--policy", &policy, "."]);
    assert_eq!(again.code, 3);
    assert!(
        again
            .stdout
            .contains("\n  3 more already trusted and unchanged.\n"),
        "{again}"
    );
    assert!(again.stdout.contains("Nothing was trusted.\n"), "{again}");
    assert_eq!(records_in(&t, &state(&t)).len(), 8 + 5);
    assert_eq!(store_entries(&t), store);
}

/// `scan --json` configs by key (redacted).
fn scan_json(t: &TestEnv, extra: &[&str]) -> BTreeMap<String, Value> {
    let mut args = vec!["scan", "--json"];
    args.extend_from_slice(extra);
    let out = t.run(&args);
    assert_eq!(out.code, 0, "{out}");
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    v["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["key"].as_str().unwrap().to_string(), c.clone()))
        .collect()
}

#[test]
fn exit_codes_follow_the_worst_verdict() {
    // All allowed: 0, all trusted.
    let t = TestEnv::new();
    let policy = fixture(&t);
    let out = t.run(&[
        "trust",
        "--yes",
        "--policy",
        &policy,
        "app",
        "sandboxed",
        "frontend",
    ]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .ends_with("\nTrusted 3 config files in $ROOT/home/.config/goccia/trust.json\n"),
        "{out}"
    );
    assert_eq!(store_entries(&t).len(), 3);
    assert_eq!(records(&t).len(), 3);

    // Some need authorization, none denied: 4, the rest trusted, and the
    // command a person runs (with the store as typed).
    let t = TestEnv::new();
    let policy = fixture(&t);
    let store = t.root.join("ci/trust.json");
    let store_flag = format!("--trust-store={}", store.display());
    let out = t.run(&["trust", "--yes", "--policy", &policy, "app", "web"]);
    let out_with_store = t.run(&[&store_flag, "trust", "--yes", "--policy", &policy, "web"]);
    assert_eq!(
        policy_sha_redacted(&out.to_string()),
        "\
Permission requests under app/, web/, judged by policy $ROOT/ci/policy.json (sha256 …):

  app/goccia.json (new): ALLOWED
    allow-read $ROOT/work/app/data, $ROOT/work/shared: R0 APPROVED_WORKSPACE ALLOWED — APPROVED_WORKSPACE read at R0

  web/goccia.json (new): NEEDS_AUTH
    allow-net api.example.com: R2 - NEEDS_AUTH — EXTERNAL_EFFECT requires explicit authorization at R2

Trusted 1 config file in $ROOT/home/.config/goccia/trust.json
1 config file needs authorization; a person reviews and trusts it with:
  goccia-trust --trust web/goccia.json
[exit status: 4]"
    );
    assert_eq!(
        store_entries(&t).keys().collect::<Vec<_>>(),
        ["$ROOT/work/app/goccia.json"]
    );
    assert_eq!(out_with_store.code, 4, "{out_with_store}");
    assert!(
        out_with_store.stdout.ends_with(
            "Nothing was trusted.\n1 config file needs authorization; a person reviews and trusts it with:\n  goccia-trust --trust-store=$ROOT/ci/trust.json --trust web/goccia.json\n"
        ),
        "{out_with_store}"
    );
    assert!(!store.exists());
    // app once, web once per run.
    let recs = records_in(&t, &state(&t));
    let verdicts: Vec<(&str, &str)> = recs
        .iter()
        .map(|r| {
            (
                r["config_key"].as_str().unwrap(),
                r["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(recs.len(), 3, "{verdicts:?}");
    for (key, verdict) in verdicts {
        let want = if key.ends_with("/web/goccia.json") {
            "NEEDS_AUTH"
        } else {
            "ALLOWED"
        };
        assert_eq!(verdict, want, "{key}");
    }

    // Any denial: 3, even beside a config needing authorization.
    let t = TestEnv::new();
    let policy = fixture(&t);
    let out = t.run(&["trust", "--yes", "--policy", &policy, "web", "vendored"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.ends_with(
            "Nothing was trusted.\n\
             1 config file needs authorization; a person reviews and trusts it with:\n  goccia-trust --trust web/goccia.json\n\
             1 config file denied by the policy; not trusted\n"
        ),
        "{out}"
    );
    assert!(!t.default_store().exists());
    assert_eq!(records(&t).len(), 2);
}

#[test]
fn expect_trusts_only_the_reviewed_hashes() {
    let t = TestEnv::new();
    let policy = fixture(&t);
    let scanned = scan_json(&t, &["app", "sandboxed"]);
    let app_sha = scanned["$ROOT/work/app/goccia.json"]["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    let sandboxed_sha = scanned["$ROOT/work/sandboxed/goccia.json"]["sha256"]
        .as_str()
        .unwrap()
        .to_string();

    // Both allowed by the policy; only the reviewed one is trusted. The
    // hash is accepted in upper case too.
    let out = t.run(&[
        "trust",
        "--yes",
        "--policy",
        &policy,
        "--expect",
        &app_sha.to_uppercase(),
        "app",
        "sandboxed",
    ]);
    assert_eq!(
        policy_sha_redacted(&out.to_string()),
        format!(
            "\
Permission requests under app/, sandboxed/, judged by policy $ROOT/ci/policy.json (sha256 …):

  app/goccia.json (new): ALLOWED
    allow-read $ROOT/work/app/data, $ROOT/work/shared: R0 APPROVED_WORKSPACE ALLOWED — APPROVED_WORKSPACE read at R0

  sandboxed/goccia.json (new): DENIED
    block sha256 {sandboxed_sha} is not one of --expect
    sandbox-copy $ROOT/work/sandboxed/src: R0 APPROVED_WORKSPACE ALLOWED — APPROVED_WORKSPACE read at R0
    sandbox-copy-rw $ROOT/work/sandboxed/out: R1 APPROVED_WORKSPACE ALLOWED — WORKSPACE_WRITE granted at R1

Trusted 1 config file in $ROOT/home/.config/goccia/trust.json
1 config file with a block sha256 not among --expect; not trusted
[exit status: 3]"
        )
    );
    let store = store_entries(&t);
    assert_eq!(
        store.keys().collect::<Vec<_>>(),
        ["$ROOT/work/app/goccia.json"]
    );
    assert_eq!(
        store["$ROOT/work/app/goccia.json"]["sha256"],
        app_sha.as_str()
    );

    let recs = records(&t);
    let refused = &recs["$ROOT/work/sandboxed/goccia.json"];
    assert_eq!(refused["verdict"], "DENIED");
    assert_eq!(refused["risk"], Value::Null);
    assert_eq!(
        refused["reason"],
        format!("block sha256 {sandboxed_sha} is not one of --expect").as_str()
    );
    assert_eq!(refused["expect"], serde_json::json!([app_sha]));
    assert_eq!(refused["block_sha256"], sandboxed_sha.as_str());
    assert_eq!(refused["policy_sha256"], sha256(POLICY.as_bytes()).as_str());
    // The policy's own verdicts are kept.
    assert_eq!(refused["requests"].as_array().unwrap().len(), 2);
    assert_eq!(refused["requests"][1]["verdict"], "ALLOWED");
    let matched = &recs["$ROOT/work/app/goccia.json"];
    assert_eq!(matched["verdict"], "ALLOWED");
    assert_eq!(matched["expect"], serde_json::json!([app_sha]));

    // A matching hash does not override the policy.
    let t = TestEnv::new();
    let policy = fixture(&t);
    let web = scan_json(&t, &["web"]);
    let web_sha = web["$ROOT/work/web/goccia.json"]["sha256"]
        .as_str()
        .unwrap();
    let out = t.run(&[
        "trust", "--yes", "--policy", &policy, "--expect", web_sha, "web",
    ]);
    assert_eq!(out.code, 4, "{out}");
    assert!(!t.default_store().exists());

    // Something that is not a hash is a usage error; nothing is judged.
    let before = records(&t);
    let out = t.run(&[
        "trust", "--yes", "--policy", &policy, "--expect", "abc123", "web",
    ]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: --expect needs a block SHA-256 (64 hex digits), got abc123\n[exit status: 2]"
    );
    assert!(!t.default_store().exists());
    assert_eq!(records(&t), before);
}

#[test]
fn dry_run_writes_neither_store_nor_records() {
    let t = TestEnv::new();
    let policy = fixture(&t);
    let out = t.run(&["trust", "--dry-run", "--policy", &policy, "."]);
    assert_eq!(
        policy_sha_redacted(&out.to_string()),
        BOOTSTRAP_OUT.replace(
            "Trusted 3 config files in $ROOT/home/.config/goccia/trust.json",
            "Dry run: 3 config files would be trusted in $ROOT/home/.config/goccia/trust.json; nothing was written"
        )
    );
    assert_nothing_written(&t);
    // --yes does not turn a dry run into a real one.
    let out = t.run(&["trust", "--yes", "--dry-run", "--policy", &policy, "app"]);
    assert_eq!(out.code, 0, "{out}");
    assert_nothing_written(&t);
}

#[test]
fn scan_with_a_policy_shows_verdicts_and_writes_nothing() {
    let t = TestEnv::new();
    let policy = fixture(&t);
    let out = t.run(&[
        "scan", "--policy", &policy, "app", "vendored", "web", "docs",
    ]);
    assert_eq!(
        policy_sha_redacted(&out.to_string()),
        "\
Policy: $ROOT/ci/policy.json (sha256 …)
STATE          CONFIG                SUMMARY
never trusted  app/goccia.json       1 request
no request     docs/goccia.json      only denies
never trusted  vendored/goccia.json  1 request
      -> allow-read $ROOT/work/vendored/vendor resolves to $ROOT/home/.ssh
never trusted  web/goccia.json       1 request
app/goccia.json: ALLOWED
    allow-read $ROOT/work/app/data: R0 APPROVED_WORKSPACE ALLOWED — APPROVED_WORKSPACE read at R0
    allow-read $ROOT/work/shared: R0 APPROVED_WORKSPACE ALLOWED — APPROVED_WORKSPACE read at R0
vendored/goccia.json: DENIED
    allow-read $ROOT/work/vendored/vendor -> $ROOT/home/.ssh: R0 DENIED_ROOT DENIED — target classified DENIED_ROOT — denied at any risk level (denied root ~/.ssh)
web/goccia.json: NEEDS_AUTH
    allow-net api.example.com: R2 - NEEDS_AUTH — EXTERNAL_EFFECT requires explicit authorization at R2
not followed: vendored/vendor -> $ROOT/home/.ssh (outside app/, vendored/, web/, docs/)
[exit status: 0]"
    );
    assert_nothing_written(&t);

    let configs = scan_json(&t, &["--policy", &policy, "vendored", "docs", "web"]);
    assert_nothing_written(&t);
    assert!(
        configs["$ROOT/work/docs/goccia.json"]
            .get("policy")
            .is_none()
    );
    assert_eq!(
        configs["$ROOT/work/vendored/goccia.json"]["policy"],
        serde_json::json!({
            "verdict": "DENIED",
            "requests": [{
                "kind": "allow-read",
                "scope": "$ROOT/work/vendored/vendor",
                "target": "$ROOT/work/vendored/vendor",
                "resolvedTarget": {
                    "lexical": "$ROOT/work/vendored/vendor",
                    "canonical": "$ROOT/home/.ssh"
                },
                "risk": "R0",
                "level": "READ_ONLY",
                "classification": "DENIED_ROOT",
                "verdict": "DENIED",
                "reason": "target classified DENIED_ROOT — denied at any risk level (denied root ~/.ssh)"
            }]
        })
    );
    let web = &configs["$ROOT/work/web/goccia.json"]["policy"];
    assert_eq!(web["verdict"], "NEEDS_AUTH");
    assert_eq!(web["requests"][0]["classification"], Value::Null);
    assert_eq!(web["requests"][0]["target"], Value::Null);

    // The JSON keys come in a stable, documented order.
    let raw = t
        .run(&["scan", "--json", "--policy", &policy, "web"])
        .stdout;
    // From the config's `policy` object on (schema 1 lists the config's
    // own `requests` before it).
    let raw = &raw[raw.find("\"policy\"").expect("policy")..];
    let order = [
        "\"policy\"",
        "\"verdict\"",
        "\"requests\"",
        "\"kind\"",
        "\"scope\"",
        "\"target\"",
        "\"resolvedTarget\"",
        "\"risk\"",
        "\"level\"",
        "\"classification\"",
        "\"reason\"",
    ];
    let at: Vec<usize> = order.iter().map(|k| raw.find(k).expect(k)).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{raw}");
}

#[test]
fn an_unwritable_state_dir_is_exit_1_and_nothing_is_trusted() {
    let t = TestEnv::new();
    let policy = fixture(&t);
    let file = t.root.join("not-a-dir");
    std::fs::write(&file, "").unwrap();
    let file = file.to_str().unwrap();
    let out = t.run(&[
        "trust",
        "--yes",
        "--policy",
        &policy,
        "--state-dir",
        file,
        "app",
    ]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .starts_with("Error: cannot write decision record in $ROOT/not-a-dir/decisions: ")
            && out.stderr.ends_with("; nothing was trusted\n"),
        "{out}"
    );
    assert!(!t.default_store().exists());
    assert_eq!(std::fs::read(file).unwrap(), b"");

    // The same through the environment.
    let out = t.run_with_env(
        &["trust", "--yes", "--policy", &policy, "app"],
        &[("GOCCIA_TRUST_STATE_DIR", file)],
    );
    assert_eq!(out.code, 1, "{out}");
    assert!(!t.default_store().exists());
}

#[test]
fn a_bad_policy_is_exit_2_naming_the_file() {
    let t = TestEnv::new();
    fixture(&t);
    let cases = [
        ("{", "Error: policy invalid JSON: $ROOT/ci/policy.json ("),
        (
            r#"{"grants": {}, "risk_to_level": {}, "approved": ["."]}"#,
            "Error: policy invalid: $ROOT/ci/policy.json (unknown key \"approved\"",
        ),
        (
            r#"{"risk_to_level": {}}"#,
            "Error: policy missing grants: $ROOT/ci/policy.json\n",
        ),
        (
            r#"{"grants": {"READ_ONLY": "yes"}, "risk_to_level": {}}"#,
            "Error: policy invalid: $ROOT/ci/policy.json (grant \"yes\" for READ_ONLY must be allow, needs_auth or deny)\n",
        ),
    ];
    for (text, want) in cases {
        let policy = write_policy(&t, text);
        for args in [
            vec!["trust", "--yes", "--policy", &policy, "app"],
            vec!["trust", "--dry-run", "--policy", &policy, "app"],
            vec!["scan", "--policy", &policy, "app"],
        ] {
            let out = t.run(&args);
            assert_eq!((out.code, out.stdout.as_str()), (2, ""), "{text}: {out}");
            assert!(out.stderr.starts_with(want), "{text}: {out}");
            assert_nothing_written(&t);
        }
    }
    // A policy file that does not exist (relative to the working directory).
    let out = t.run(&["trust", "--yes", "--policy", "ci.json", "app"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: policy not found: $ROOT/work/ci.json\n[exit status: 2]"
    );
    assert_nothing_written(&t);
}

#[test]
fn the_store_directory_is_always_denied() {
    // The store under a system root the policy makes readable: the store's
    // directory is denied all the same, whatever the policy says.
    let t = TestEnv::new();
    fixture(&t);
    let sys = t.root.join("sys");
    std::fs::create_dir_all(sys.join("goccia")).unwrap();
    let policy = write_policy(
        &t,
        &POLICY.replace(
            r#""personal_data_roots": ["~"],"#,
            &format!(
                r#""personal_data_roots": ["~"], "system_read_only_roots": ["{}"],"#,
                sys.display()
            ),
        ),
    );
    t.write(
        "peek/goccia.json",
        &format!(
            r#"{{ "permissions": {{ "allow-read": ["{}", "{}"] }} }}"#,
            sys.join("notes").display(),
            sys.join("goccia").display()
        ),
    );
    let flag = format!("--trust-store={}", sys.join("goccia/trust.json").display());
    let out = t.run(&[&flag, "trust", "--yes", "--policy", &policy, "peek", "app"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.contains(
            "\n  peek/goccia.json (new): DENIED\n    allow-read $ROOT/sys/notes: R0 SYSTEM_PATH ALLOWED — SYSTEM_PATH read at R0\n    allow-read $ROOT/sys/goccia: R0 DENIED_ROOT DENIED — target classified DENIED_ROOT — denied at any risk level (denied root $ROOT/sys/goccia)\n"
        ),
        "{out}"
    );
    let store: Value =
        serde_json::from_str(&std::fs::read_to_string(sys.join("goccia/trust.json")).unwrap())
            .unwrap();
    let keys: Vec<&String> = store["trusted"].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 1);
    assert!(keys[0].ends_with("/work/app/goccia.json"));
    let recs = records(&t);
    assert_eq!(
        recs["$ROOT/work/peek/goccia.json"]["requests"][1]["classification"],
        "DENIED_ROOT"
    );
}

#[test]
fn a_workspace_covering_the_store_or_home_is_refused() {
    // A store kept inside the repository under review: `.` would approve
    // it. The policy is refused before anything is judged or written.
    let t = TestEnv::new();
    let policy = fixture(&t);
    t.mkdir(".trust");
    let flag = format!(
        "--trust-store={}",
        t.work.join(".trust/trust.json").display()
    );
    // `trust` refuses such a store before it reads the policy (a store
    // inside the reviewed tree is never written); `scan` only warns about
    // the store, and then refuses the policy.
    let out = t.run(&[flag.as_str(), "trust", "--yes", "--policy", &policy, "app"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: the trust store $ROOT/work/.trust/trust.json is inside $ROOT/work, a tree under review: a repository could ship a store that trusts its own configs; keep the store outside it\n[exit status: 1]"
    );
    let out = t.run(&[flag.as_str(), "scan", "--policy", &policy, "app"]);
    assert!(
        out.to_string().ends_with(
            "Error: policy too broad: $ROOT/ci/policy.json (approved workspace \".\" resolves to $ROOT/work, which covers the trust store directory $ROOT/work/.trust; denied roots outrank an approved workspace, but a workspace must not hold what decides trust)\n[exit status: 2]"
        ),
        "{out}"
    );
    assert!(!t.work.join(".trust/trust.json").exists());
    assert_nothing_written(&t);

    // A policy that approves all of home.
    let policy = write_policy(
        &t,
        &POLICY.replace(
            r#""approved_workspaces": ["."]"#,
            r#""approved_workspaces": [".", "~"]"#,
        ),
    );
    let out = t.run(&["trust", "--yes", "--policy", &policy, "app"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: policy too broad: $ROOT/ci/policy.json (approved workspace \"~\" resolves to $ROOT/home, which covers $HOME ($ROOT/home); an approved workspace outranks personal data and system roots)\n[exit status: 2]"
    );
    assert_nothing_written(&t);
}

#[test]
fn the_state_directory_is_denied_too() {
    // The records' directory under a readable system root: denied anyway.
    let t = TestEnv::new();
    fixture(&t);
    let sys = t.root.join("sys");
    std::fs::create_dir_all(&sys).unwrap();
    let policy = write_policy(
        &t,
        &POLICY.replace(
            r#""personal_data_roots": ["~"],"#,
            &format!(
                r#""personal_data_roots": ["~"], "system_read_only_roots": ["{}"],"#,
                sys.display()
            ),
        ),
    );
    t.write(
        "audit/goccia.json",
        &format!(
            r#"{{ "permissions": {{ "allow-read": ["{}"] }} }}"#,
            sys.join("ci-state").display()
        ),
    );
    let state = sys.join("ci-state");
    let out = t.run(&[
        "trust",
        "--yes",
        "--policy",
        &policy,
        "--state-dir",
        state.to_str().unwrap(),
        "audit",
    ]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.contains(
            "    allow-read $ROOT/sys/ci-state: R0 DENIED_ROOT DENIED — target classified DENIED_ROOT — denied at any risk level (denied root $ROOT/sys/ci-state)\n"
        ),
        "{out}"
    );
    assert_eq!(records_in(&t, &state).len(), 1);
    // scan judges alike (the state dir from the environment).
    let out = t.run_with_env(
        &["scan", "--policy", &policy, "audit"],
        &[("GOCCIA_TRUST_STATE_DIR", state.to_str().unwrap())],
    );
    assert!(out.stdout.contains("audit/goccia.json: DENIED\n"), "{out}");

    // Inside the tree under review, the records' directory would be
    // approved by `.`: the policy is refused.
    let out = t.run(&[
        "trust",
        "--yes",
        "--policy",
        &policy,
        "--state-dir",
        ".ci-state",
        "audit",
    ]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: policy too broad: $ROOT/ci/policy.json (approved workspace \".\" resolves to $ROOT/work, which covers the decision records' directory $ROOT/work/.ci-state; denied roots outrank an approved workspace, but a workspace must not hold what decides trust)\n[exit status: 2]"
    );
    assert!(!t.work.join(".ci-state").exists());
}

#[test]
fn policy_without_yes_or_dry_run_is_a_usage_error() {
    let t = TestEnv::new();
    let policy = fixture(&t);
    for args in [
        vec!["trust", "--policy", policy.as_str(), "app"],
        vec!["trust", "--expect", &"a".repeat(64), "app"],
    ] {
        let out = t.run(&args);
        assert_eq!(
            out.to_string(),
            "--- stderr ---\nError: --policy and --expect gate unattended trust; add --yes (or --dry-run to see the verdicts)\n[exit status: 2]"
        );
        assert_nothing_written(&t);
    }
}

#[test]
#[cfg_attr(
    target_os = "macos",
    ignore = "names and hashes the Linux default policy"
)]
fn unscoped_read_is_judged_on_the_root_and_not_auto_trusted_by_default() {
    let t = TestEnv::new();
    t.write(
        "all/goccia.json",
        r#"{ "permissions": { "allow-read": true } }"#,
    );
    let scanned = scan_json(&t, &["all"]);
    let sha = scanned["$ROOT/work/all/goccia.json"]["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    // --expect without --policy: the shipped default policy judges.
    let out = t.run(&["trust", "--yes", "--expect", &sha, "all"]);
    assert_eq!(
        policy_sha_redacted(&out.to_string()),
        "\
Permission requests under all/, judged by policy <built-in default-linux.json> (sha256 …):

  all/goccia.json (new): DENIED
    allow-read (unscoped) -> /: R0 EXTERNAL_PATH DENIED — EXTERNAL_PATH not readable at R0

Nothing was trusted.
1 config file denied by the policy; not trusted
[exit status: 3]"
    );
    assert!(!t.default_store().exists());
    let rec = &records(&t)["$ROOT/work/all/goccia.json"];
    assert_eq!(rec["policy"], "<built-in default-linux.json>");
    assert_eq!(
        rec["policy_sha256"],
        sha256(include_bytes!("../../policies/default-linux.json")).as_str()
    );
    assert_eq!(
        requests(rec),
        [row([
            "allow-read",
            "null",
            "/",
            "/",
            "EXTERNAL_PATH",
            "DENIED"
        ])]
    );

    // Same with the shipped file given explicitly, and for ffi.
    let policy = write_policy(
        &t,
        std::str::from_utf8(include_bytes!("../../policies/default-linux.json")).unwrap(),
    );
    t.write(
        "ffi/goccia.json",
        r#"{ "permissions": { "allow-ffi": true } }"#,
    );
    let out = t.run(&["trust", "--yes", "--policy", &policy, "all", "ffi"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.contains(
            "    allow-ffi (unscoped) -> /: R3 EXTERNAL_PATH DENIED — EXTERNAL_PATH outside approved workspace — writes/effects only inside workspace\n"
        ),
        "{out}"
    );
    assert!(!t.default_store().exists());
}

#[test]
fn read_only_deny_stops_even_workspace_reads() {
    let t = TestEnv::new();
    fixture(&t);
    let policy = write_policy(
        &t,
        &POLICY.replace(r#""READ_ONLY": "allow""#, r#""READ_ONLY": "deny""#),
    );
    let out = t.run(&["trust", "--yes", "--policy", &policy, "app", "frontend"]);
    assert_eq!(
        policy_sha_redacted(&out.to_string()),
        "\
Permission requests under app/, frontend/, judged by policy $ROOT/ci/policy.json (sha256 …):

  app/goccia.json (new): DENIED
    allow-read $ROOT/work/app/data, $ROOT/work/shared: R0 APPROVED_WORKSPACE DENIED — READ_ONLY denied by its grant \"deny\" at R0

  frontend/goccia.toml (new): ALLOWED
    allow-import-node-modules node_modules -> $ROOT/work/frontend/node_modules: R1 APPROVED_WORKSPACE ALLOWED — WORKSPACE_WRITE granted at R1

Trusted 1 config file in $ROOT/home/.config/goccia/trust.json
1 config file denied by the policy; not trusted
[exit status: 3]"
    );
    assert_eq!(
        store_entries(&t).keys().collect::<Vec<_>>(),
        ["$ROOT/work/frontend/goccia.toml"]
    );
    let sha = sha256(std::fs::read(&policy).unwrap().as_slice());
    assert_eq!(
        records(&t)["$ROOT/work/app/goccia.json"]["policy_sha256"],
        sha.as_str()
    );
}

/// With no locatable store (no HOME) there is no store directory to deny;
/// the gate must not fall back to denying `/`, which would deny everything.
#[test]
fn without_a_store_nothing_extra_is_denied() {
    let t = TestEnv::new();
    t.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-read": ["./d"]}}"#,
    );
    let policy = t.write(
        "../policy.json",
        r#"{"approved_workspaces": ["."], "grants": {"READ_ONLY": "allow"}, "risk_to_level": {"R0": "READ_ONLY"}}"#,
    );
    std::fs::set_permissions(&policy, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = t.run_with_env(
        &["scan", "--policy", policy.to_str().unwrap()],
        &[("HOME", "")],
    );
    assert!(out.stdout.contains("p/goccia.json: ALLOWED"), "{out}");
    assert!(!out.stdout.contains("DENIED_ROOT"), "{out}");
}

/// Issue 9: `.` is the tree under review, never the working directory. Run
/// from `/` (a common CI default) or from `$HOME`, the policy approves only
/// the repository being reviewed, so nothing outside it is allowed.
#[test]
fn from_root_or_home_the_policy_allows_nothing_outside_the_tree() {
    let t = TestEnv::new();
    let policy = fixture(&t);
    std::fs::create_dir_all(t.home.join("Documents")).unwrap();
    t.write(
        "grab/goccia.json",
        &format!(
            r#"{{ "permissions": {{ "allow-read": ["/etc/shadow", "{}", "../shared"] }},
                 "sandbox": {{ "copy-rw": ["/etc"] }} }}"#,
            t.home.join("Documents").display()
        ),
    );
    let repo = t.work.display().to_string();
    let grab = t.work.join("grab").display().to_string();
    let sha = scan_json(&t, &["grab"])["$ROOT/work/grab/goccia.json"]["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    let home = t.home.clone();
    for cwd in [Path::new("/"), home.as_path()] {
        for args in [
            vec!["trust", "--dry-run", "--policy", &policy, &grab],
            // The shipped default policy.
            vec!["trust", "--dry-run", "--expect", &sha, &grab],
            vec!["trust", "--dry-run", "--policy", &policy, &repo],
        ] {
            let out = t.run_in(cwd, &args, &[]);
            assert_eq!(out.code, 3, "{cwd:?} {args:?}\n{out}");
            let judged = |line: &str| {
                out.stdout
                    .lines()
                    .find(|l| l.trim_start().starts_with(line))
                    .unwrap_or_else(|| panic!("{line}\n{out}"))
                    .to_string()
            };
            assert!(
                judged("allow-read $ROOT/work/shared:").contains("APPROVED_WORKSPACE ALLOWED"),
                "{out}"
            );
            for outside in [
                "allow-read /etc/shadow:",
                "allow-read $ROOT/home/Documents:",
                "sandbox-copy-rw /etc:",
            ] {
                let line = judged(outside);
                assert!(line.contains(" DENIED — "), "{cwd:?} {args:?}: {line}");
                assert!(!line.contains("APPROVED_WORKSPACE"), "{line}");
            }
            assert!(
                out.stdout.contains("work/grab/goccia.json (new): DENIED\n"),
                "{out}"
            );
        }
    }
    assert_nothing_written(&t);

    // Reviewing `/` or `$HOME` itself: the workspace would be everything.
    for (cwd, resolved, why) in [
        ("/", "/", "the filesystem root, which covers every path"),
        (
            t.home.to_str().unwrap(),
            "$ROOT/home",
            "which covers $HOME ($ROOT/home); an approved workspace outranks personal data and system roots",
        ),
    ] {
        for args in [
            &["trust", "--dry-run", "--policy", &policy, "."][..],
            // scan's default PATH is `.` too.
            &["scan", "--policy", &policy][..],
        ] {
            let out = t.run_in(Path::new(cwd), args, &[]);
            assert_eq!(
                out.to_string(),
                format!(
                    "--- stderr ---\nError: policy too broad: $ROOT/ci/policy.json (approved workspace \".\" resolves to {resolved}, {why})\n[exit status: 2]"
                ),
                "{cwd} {args:?}"
            );
        }
    }
}

/// Issue 10: the repository under review cannot supply the policy that
/// judges it, unless the operator pins the policy's exact content.
#[test]
fn a_policy_from_the_reviewed_tree_is_refused_unless_pinned() {
    let t = TestEnv::new();
    let outside = fixture(&t);
    let text = std::fs::read(&outside).unwrap();
    let sha = sha256(&text);
    // The pull request ships a policy that approves everything it asks.
    let inside = t.write("ci/trust-policy.json", std::str::from_utf8(&text).unwrap());
    std::fs::set_permissions(&inside, std::fs::Permissions::from_mode(0o644)).unwrap();
    let inside = inside.to_str().unwrap().to_string();
    // Reaching it through a link from outside changes nothing.
    let link = t.root.join("ci/linked.json");
    std::os::unix::fs::symlink(&inside, &link).unwrap();
    let link = link.to_str().unwrap().to_string();
    for policy in [&inside, &link] {
        for args in [
            vec!["trust", "--yes", "--policy", policy, "app"],
            vec!["trust", "--dry-run", "--policy", policy, "."],
            vec!["scan", "--policy", policy, "app"],
        ] {
            let out = t.run(&args);
            assert_eq!(
                out.to_string(),
                format!(
                    "--- stderr ---\nError: policy {} lies inside $ROOT/work, a tree under review; the policy must come from outside the reviewed tree (or pin its content with --policy-sha256)\n[exit status: 2]",
                    policy.replace(t.root.to_str().unwrap(), "$ROOT")
                ),
                "{args:?}"
            );
        }
    }
    assert_nothing_written(&t);

    // Pinned by the operator: accepted wherever it lives, and the listing
    // names the policy and its hash.
    let upper = sha.to_ascii_uppercase();
    for pin in [&sha, &upper] {
        let out = t.run(&[
            "trust",
            "--dry-run",
            "--policy",
            &inside,
            "--policy-sha256",
            pin,
            "app",
        ]);
        assert_eq!(out.code, 0, "{out}");
        assert!(
            out.stdout.starts_with(&format!(
                "Permission requests under app/, judged by policy $ROOT/work/ci/trust-policy.json (sha256 {sha}):\n"
            )),
            "{out}"
        );
    }
    let out = t.run(&["scan", "--policy", &inside, "--policy-sha256", &sha, "app"]);
    assert!(
        out.stdout.starts_with(&format!(
            "Policy: $ROOT/work/ci/trust-policy.json (sha256 {sha})\n"
        )),
        "{out}"
    );
    let out = t.run(&[
        "scan",
        "--json",
        "--policy",
        &inside,
        "--policy-sha256",
        &sha,
        "app",
    ]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        v["policy"],
        serde_json::json!({"path": "$ROOT/work/ci/trust-policy.json", "sha256": sha})
    );
    let out = t.run(&[
        "trust",
        "--yes",
        "--policy",
        &inside,
        "--policy-sha256",
        &sha,
        "app",
    ]);
    assert_eq!(out.code, 0, "{out}");
    let rec = &records(&t)["$ROOT/work/app/goccia.json"];
    assert_eq!(rec["policy"], "$ROOT/work/ci/trust-policy.json");
    assert_eq!(rec["policy_sha256"], sha.as_str());

    // Any other content is refused, inside the tree or out.
    let t = TestEnv::new();
    let outside = fixture(&t);
    let wrong = "0".repeat(64);
    let out = t.run(&[
        "trust",
        "--yes",
        "--policy",
        &outside,
        "--policy-sha256",
        &wrong,
        "app",
    ]);
    assert_eq!(
        out.to_string(),
        format!(
            "--- stderr ---\nError: policy $ROOT/ci/policy.json has sha256 {sha}, not the pinned --policy-sha256 {wrong}; no other content is accepted\n[exit status: 2]"
        )
    );
    for bad in [
        &["--policy-sha256", "abc"][..],
        &["--policy-sha256", &"z".repeat(64)][..],
    ] {
        let mut args = vec!["trust", "--yes", "--policy", &outside];
        args.extend_from_slice(bad);
        args.push("app");
        let out = t.run(&args);
        assert_eq!(out.code, 2, "{out}");
        assert!(
            out.stderr
                .starts_with("Error: --policy-sha256 needs the policy file's SHA-256"),
            "{out}"
        );
    }
    // A pin pins a file: not without --policy.
    let out = t.run(&["trust", "--yes", "--policy-sha256", &sha, "app"]);
    assert_eq!(out.code, 2, "{out}");
    assert_nothing_written(&t);
}

/// Issue 10: a policy that group or others may write is refused.
#[test]
fn a_group_or_world_writable_policy_is_refused() {
    let t = TestEnv::new();
    let policy = fixture(&t);
    for (mode, who) in [
        (0o664, "its group"),
        (0o666, "group and others"),
        (0o602, "others"),
    ] {
        std::fs::set_permissions(&policy, std::fs::Permissions::from_mode(mode)).unwrap();
        for args in [
            vec!["trust", "--yes", "--policy", &policy, "app"],
            vec!["scan", "--policy", &policy, "app"],
        ] {
            let out = t.run(&args);
            assert_eq!(
                out.to_string(),
                format!(
                    "--- stderr ---\nError: policy $ROOT/ci/policy.json is writable by {who} (mode {mode:04o}); run chmod go-w $ROOT/ci/policy.json, or pin its content with --policy-sha256\n[exit status: 2]"
                ),
                "{args:?}"
            );
        }
    }
    assert_nothing_written(&t);
    // Pinned, its content is what counts.
    let sha = sha256(&std::fs::read(&policy).unwrap());
    let out = t.run(&[
        "trust",
        "--yes",
        "--policy",
        &policy,
        "--policy-sha256",
        &sha,
        "app",
    ]);
    assert_eq!(out.code, 0, "{out}");
}
