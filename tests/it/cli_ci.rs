//! `scan` and `check` where CI looks (issue 14 item 3): `--format sarif`
//! validated against the SARIF 2.1.0 schema (vendored under
//! tests/schemas/), `--format github` workflow commands that a hostile path
//! cannot break, the request's line, and the shipped pre-commit hook and
//! Action, all over the real binary.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::TestEnv;
use serde_json::Value;

const SARIF_SCHEMA: &str = include_str!("../schemas/sarif-2.1.0-rtm.5.json");

pub(crate) fn assert_valid_sarif(text: &str) -> Value {
    let schema: Value = serde_json::from_str(SARIF_SCHEMA).unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles");
    let log: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{text}");
    log
}

/// A tree with one config of each kind: never trusted (its first
/// request, `allow-net`, on line 3), changed, trusted, and one that fails to load.
pub(crate) fn project(t: &TestEnv) {
    t.write(
        "new/goccia.json",
        "{\n  \"unsafe-function-constructor\": true,\n  \"permissions\": { \"allow-net\": [\"example.com\"] }\n}\n",
    );
    t.write(
        "old/goccia.toml",
        "# trusted once\n[permissions]\nallow-read = [\"./data\"]\n",
    );
    t.write(
        "ok/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    let out = t.run(&["trust", "old", "ok", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    t.write(
        "old/goccia.toml",
        "# trusted once\n[permissions]\nallow-read = [\"./data\"]\n\nallow-net = [\"evil.test\"]\n",
    );
    t.write(
        "bad/goccia.json",
        r#"{"permissions": {"allow-nett": ["x"]}}"#,
    );
}

pub(crate) fn results(log: &Value) -> Vec<(String, String, Option<u64>)> {
    log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            (
                r["ruleId"].as_str().unwrap().to_string(),
                loc["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                loc["region"]["startLine"].as_u64(),
            )
        })
        .collect()
}

#[test]
fn scan_sarif_has_one_result_per_config_needing_review_and_validates() {
    let t = TestEnv::new();
    project(&t);
    let out = t.run(&["scan", "--format", "sarif"]);
    // scan's own exit code: the worst load error (an unknown key is 2).
    assert_eq!(out.code, 2, "{out}");
    let log = assert_valid_sarif(&out.stdout);
    assert_eq!(log["version"], "2.1.0");
    let rules: Vec<&str> = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        ["never-trusted", "changed", "error", "policy-denied"]
    );
    assert_eq!(
        results(&log),
        [
            // No line is known: the file's first (code scanning requires
            // a region).
            ("error".to_string(), "bad/goccia.json".to_string(), Some(1)),
            ("never-trusted".into(), "new/goccia.json".into(), Some(3)),
            // The added request's line, not the first request's.
            ("changed".into(), "old/goccia.toml".into(), Some(5)),
        ]
    );
    let first = &log["runs"][0]["results"][1];
    assert_eq!(first["level"], "warning");
    assert!(
        first["message"]["text"]
            .as_str()
            .unwrap()
            .contains("allow-net: example.com"),
        "{first}"
    );
    assert_eq!(
        log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        "file://$ROOT/work/"
    );
}

#[test]
fn check_sarif_and_github_keep_checks_exit_code() {
    let t = TestEnv::new();
    project(&t);
    let out = t.run(&["check", "ok", "--format", "sarif"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(results(&assert_valid_sarif(&out.stdout)), []);
    let out = t.run(&["check", "new", "ok", "--format", "sarif"]);
    assert_eq!(out.code, 2, "blocked: {out}");
    assert_eq!(
        results(&assert_valid_sarif(&out.stdout)),
        [(
            "never-trusted".to_string(),
            "new/goccia.json".to_string(),
            Some(3)
        )]
    );
    let out = t.run(&["check", "new", "--format", "github"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stdout.starts_with(
            "::warning file=new/goccia.json,line=3,title=goccia-trust%3A never trusted::new/goccia.json (never trusted)%0A"
        ),
        "{out}"
    );
    // `--json` stays `--format json`; the two together are refused, and
    // as `--json` was asked for, stdout is the failure document.
    let out = t.run(&["check", "new", "--json", "--format", "sarif"]);
    assert_eq!(out.code, 2, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["error"]["exit"], 2, "{out}");
    assert!(!out.stdout.contains("runs"), "{out}");
}

#[test]
fn scan_policy_sarif_marks_denied_configs() {
    let t = TestEnv::new();
    t.mkdir(".git");
    t.write(
        "lan/goccia.json",
        "{\n  \"permissions\": {\n    \"allow-net\": [\"192.168.0.0/16\"]\n  }\n}\n",
    );
    t.write(
        "docs/goccia.json",
        r#"{"permissions": {"allow-read": ["."]}}"#,
    );
    let policy = t.root.join("ci/policy.json");
    std::fs::create_dir_all(policy.parent().unwrap()).unwrap();
    std::fs::write(
        &policy,
        r#"{"approved_workspaces": ["."], "personal_data_roots": ["~"], "denied_roots": [],
           "grants": {"READ_ONLY": "allow", "WORKSPACE_WRITE": "allow", "EXTERNAL_EFFECT": "needs_auth", "DESTRUCTIVE": "deny"},
           "risk_to_level": {"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE", "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE"}}"#,
    )
    .unwrap();
    std::fs::set_permissions(&policy, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = t.run(&[
        "scan",
        "--policy",
        policy.to_str().unwrap(),
        "--format",
        "sarif",
    ]);
    assert_eq!(out.code, 0, "{out}");
    let log = assert_valid_sarif(&out.stdout);
    assert_eq!(
        results(&log),
        [
            (
                "never-trusted".to_string(),
                "docs/goccia.json".to_string(),
                Some(1)
            ),
            ("policy-denied".into(), "lan/goccia.json".into(), Some(3)),
        ]
    );
    assert_eq!(log["runs"][0]["results"][1]["level"], "error");
}

/// Splits a workflow command into its level, properties (unescaped) and
/// message (unescaped), failing on anything that is not one well-formed
/// command.
pub(crate) fn parse_command(line: &str) -> (String, Vec<(String, String)>, String) {
    let rest = line.strip_prefix("::").expect(line);
    let (head, message) = rest.split_once("::").expect(line);
    let (level, props) = head.split_once(' ').expect(line);
    let unescape = |s: &str| {
        s.replace("%0D", "\r")
            .replace("%0A", "\n")
            .replace("%3A", ":")
            .replace("%2C", ",")
            .replace("%25", "%")
    };
    let props = props
        .split(',')
        .map(|p| {
            let (k, v) = p.split_once('=').expect(line);
            assert!(!v.contains(':'), "a raw ':' in a property: {line}");
            (k.to_string(), unescape(v))
        })
        .collect();
    (level.to_string(), props, unescape(message))
}

#[test]
fn github_commands_survive_a_hostile_path() {
    let t = TestEnv::new();
    let hostile = "a,b:c%25d::warning file=x::forged\nline=9";
    t.write(
        &format!("{hostile}/goccia.json"),
        "{\"permissions\": {\n\"allow-read\": true}}",
    );
    t.write(
        "plain/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    let out = t.run(&["scan", "--format", "github"]);
    assert_eq!(out.code, 0, "{out}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "one command per config: {out}");
    let (level, props, message) = parse_command(lines[0]);
    assert_eq!(level, "warning");
    assert_eq!(
        props,
        [
            // On one line: the line break is shown, never sent.
            (
                "file".to_string(),
                format!("{}/goccia.json", hostile.replace('\n', "^J"))
            ),
            ("line".into(), "2".into()),
            ("title".into(), "goccia-trust: never trusted".into()),
        ]
    );
    assert!(
        message.starts_with(&format!(
            "{}/goccia.json (never trusted)\n",
            hostile.replace('\n', "^J")
        )),
        "{message:?}"
    );
    // No `%` other than an escape, no line break inside the command, raw or
    // as the runner's %0A: the path's is shown.
    assert!(lines[0].contains("a%2Cb%3Ac%2525d%3A%3Awarning file=x%3A%3Aforged^Jline=9"));
    let (_, props, _) = parse_command(lines[1]);
    assert_eq!(props[0].1, "plain/goccia.json");
}

#[test]
fn sarif_uris_are_percent_encoded_relative_references() {
    let t = TestEnv::new();
    let hostile = "sp ace#h?q:c%é";
    t.write(
        &format!("{hostile}/goccia.json"),
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    let out = t.run(&["scan", "--format", "sarif"]);
    let log = assert_valid_sarif(&out.stdout);
    assert_eq!(
        results(&log)[0].1,
        "sp%20ace%23h%3Fq%3Ac%25%C3%A9/goccia.json"
    );
    // A config outside the working directory: an absolute file URI (a `:`
    // inside an absolute path needs no escape).
    let out = t.run_in(
        &t.home,
        &["scan", "--format", "sarif", t.work.to_str().unwrap()],
        &[],
    );
    let log = assert_valid_sarif(&out.stdout);
    assert_eq!(
        results(&log)[0].1,
        "file://$ROOT/work/sp%20ace%23h%3Fq:c%25%C3%A9/goccia.json"
    );
}

#[test]
fn the_pre_commit_hook_runs_check_over_staged_configs() {
    let hooks = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/.pre-commit-hooks.yaml"
    ))
    .unwrap();
    assert!(hooks.contains("- id: goccia-trust-check"), "{hooks}");
    // Two hooks, one check: built from the pinned rev, or the binary on
    // PATH (issue 29); both serial, both with the same entry and files.
    let hook = |id: &str| -> Vec<String> {
        let start = hooks.find(&format!("- id: {id}\n")).expect(id);
        hooks[start..]
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("- "))
            .map(|l| l.trim().to_string())
            .filter(|l| !l.starts_with('#'))
            .filter(|l| !l.starts_with("name:") && !l.starts_with("description:"))
            .collect()
    };
    let built = hook("goccia-trust-check");
    let system = hook("goccia-trust-check-system");
    // The built hook runs a script that installs with --locked (issue 44
    // try 9: `language: rust` built without it).
    assert!(built.contains(&"language: script".to_string()), "{built:?}");
    assert!(
        built.contains(&"entry: scripts/pre-commit-check.sh".to_string()),
        "{built:?}"
    );
    assert!(
        system.contains(&"language: system".to_string()),
        "{system:?}"
    );
    let rest = |h: &[String]| -> Vec<String> {
        h.iter()
            .filter(|l| !l.starts_with("language:") && !l.starts_with("entry:"))
            .cloned()
            .collect()
    };
    assert_eq!(rest(&built), rest(&system));
    assert!(
        built.contains(&"require_serial: true".to_string()),
        "{built:?}"
    );
    let entry = hooks
        .lines()
        .filter_map(|l| l.trim().strip_prefix("entry: "))
        .find(|e| e.starts_with("goccia-trust "))
        .expect("an entry");
    let mut words = entry.split_whitespace();
    assert_eq!(words.next(), Some("goccia-trust"));
    let args: Vec<&str> = words.collect();
    assert!(hooks.contains("pass_filenames: true"));
    let files = hooks
        .lines()
        .find_map(|l| l.trim().strip_prefix("files: "))
        .expect("a files pattern");
    assert!(files.contains("goccia"), "{files}");
    // What pre-commit runs for a staged untrusted config fails; once
    // trusted, it passes; changed, it fails again.
    let t = TestEnv::new();
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    let run = |t: &TestEnv| {
        let mut argv = args.clone();
        argv.push("app/goccia.json");
        t.run(&argv)
    };
    assert_eq!(run(&t).code, 2);
    assert_eq!(t.run(&["trust", "app", "--yes"]).code, 0);
    assert_eq!(run(&t).code, 0, "{}", run(&t));
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["b.test"]}}"#,
    );
    assert_eq!(run(&t).code, 2);
}

#[test]
fn the_action_trusts_with_an_outside_policy_and_uploads_sarif() {
    if !crate::common::in_checkout() {
        return;
    }
    let action =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/action.yml")).unwrap();
    assert!(action.contains("using: composite"), "{action}");
    assert!(action.contains("trust --yes --policy"), "{action}");
    assert!(action.contains("--format sarif"), "{action}");
    assert!(
        action.contains("github/codeql-action/upload-sarif"),
        "{action}"
    );
    // Inputs reach the shell through the environment, never spliced into
    // the script (a policy path from a PR title must not run).
    assert!(!action.contains("run: ${{"), "{action}");
    for line in action.lines().filter(|l| l.contains("goccia-trust ")) {
        assert!(
            !line.contains("${{"),
            "input spliced into a command: {line}"
        );
    }
    let ci =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/ci.md")).unwrap();
    // The example runs on pull_request (read-only token, no secrets) and
    // takes the policy from the base branch's checkout, not the PR's.
    assert!(ci.contains("\non: pull_request\n"), "{ci}");
    let policy = ci
        .lines()
        .find_map(|l| l.trim().strip_prefix("policy: "))
        .expect("the example passes a policy");
    assert!(policy.contains("/base/"), "{policy}");
    assert!(!policy.contains("/pr/"), "{policy}");
}

/// Issue 44 try 9: the built hook's script installs with `cargo install
/// --locked` from the hook's own checkout, once, then runs `check` over the
/// files pre-commit passes. Run for real with a `cargo` on PATH that
/// records its arguments and puts the test's binary where `cargo install
/// --root` would.
#[test]
fn the_built_pre_commit_hook_installs_locked_once_then_checks() {
    let t = TestEnv::new();
    // The hook repository as pre-commit clones it: the script in scripts/.
    let repo = t.root.join("hook-repo");
    std::fs::create_dir_all(repo.join("scripts")).unwrap();
    let script = repo.join("scripts/pre-commit-check.sh");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pre-commit-check.sh"),
        &script,
    )
    .unwrap();
    let stubs = t.root.join("stubs");
    std::fs::create_dir_all(&stubs).unwrap();
    let log = t.root.join("cargo.log");
    let cargo = format!(
        "#!/bin/sh\necho \"$@\" >> '{log}'\nwhile [ $# -gt 0 ]; do [ \"$1\" = --root ] && root=$2; shift; done\nmkdir -p \"$root/bin\" && cp '{bin}' \"$root/bin/goccia-trust\"\n",
        log = log.display(),
        bin = env!("CARGO_BIN_EXE_goccia-trust"),
    );
    std::fs::write(stubs.join("cargo"), cargo).unwrap();
    std::fs::set_permissions(stubs.join("cargo"), std::fs::Permissions::from_mode(0o755)).unwrap();
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    let path = format!("{}:/usr/bin:/bin", stubs.display());
    let hook = || {
        std::process::Command::new(&script)
            .arg("app/goccia.json")
            .current_dir(&t.work)
            .env_clear()
            .env("HOME", &t.home)
            .env("PATH", &path)
            .output()
            .unwrap()
    };
    let first = hook();
    assert_eq!(first.status.code(), Some(2), "{first:?}");
    assert!(
        String::from_utf8_lossy(&first.stderr).contains("app/goccia.json (never trusted)"),
        "{first:?}"
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    assert_eq!(calls.lines().count(), 1, "{calls}");
    assert!(calls.contains("install --locked"), "{calls}");
    assert!(
        calls.contains(&format!("--path {}", repo.display())),
        "{calls}"
    );
    // Installed once: the next commit only checks.
    assert_eq!(hook().status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), calls);
}
