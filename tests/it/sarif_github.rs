//! SARIF for GitHub code scanning (issue 33 item 2): every log `scan`,
//! `check` and `diff` write carries what code scanning needs and what the
//! SARIF Multitool's `Sarif;Gh` rules check (GH2012: a `fullDescription`
//! per rule; SARIF1001: a rule `name` distinct from its id; a region on
//! every file location; `partialFingerprints` so an alert follows its
//! finding from one commit to the next), and the Multitool itself finds no
//! error in them where it is installed (`.ci/run` installs it from npm).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::cli_ci::{assert_valid_sarif, project};
use crate::common::{self, TestEnv};
use crate::diff_ci::changed_repo;

/// The partialFingerprints key (`cli::ci_out::FINGERPRINT_KEY`).
const KEY: &str = "gocciaTrustFinding/v1";

/// Every SARIF log the commands write over the test trees, with a name:
/// scan and check over a tree with every scan rule, scan with a policy
/// that denies, diff between two commits and against the working tree.
fn logs() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let t = TestEnv::new();
    project(&t);
    let root = "$ROOT/work".to_string();
    for args in [
        &["scan", "--format", "sarif"][..],
        &["check", "new", "old", "bad", "--format", "sarif"][..],
    ] {
        let run = t.run(args);
        assert!(run.stdout.starts_with('{'), "{args:?}: {run}");
        out.push((args.join(" "), run.stdout, root.clone()));
    }
    let policy = t.root.join("deny.json");
    std::fs::write(
        &policy,
        r#"{"approved_workspaces": ["."], "personal_data_roots": ["~"], "denied_roots": [],
           "grants": {"READ_ONLY": "allow", "WORKSPACE_WRITE": "allow", "EXTERNAL_EFFECT": "deny", "DESTRUCTIVE": "deny"},
           "risk_to_level": {"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE", "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE"}}"#,
    )
    .unwrap();
    let run = t.run(&[
        "scan",
        "--format",
        "sarif",
        "--policy",
        policy.to_str().unwrap(),
    ]);
    assert!(run.stdout.contains("\"policy-denied\""), "{run}");
    out.push(("scan --policy".into(), run.stdout, root.clone()));

    let r = changed_repo();
    let run = r.diff(&["HEAD~1", "HEAD", "--format", "sarif"]);
    out.push(("diff HEAD~1 HEAD".into(), run.stdout, root.clone()));
    r.write(
        "new/goccia.toml",
        "[permissions]\nallow-net = [\"x.test\"]\n",
    );
    let run = r.diff(&["HEAD~1", "--format", "sarif"]);
    out.push(("diff HEAD~1".into(), run.stdout, root.clone()));
    out
}

/// The command's stdout as written (not redacted: the roots differ).
fn raw(t: &TestEnv, args: &[&str]) -> String {
    use assert_cmd::cargo::CommandCargoExt;
    let out = Command::cargo_bin("goccia-trust")
        .unwrap()
        .current_dir(&t.work)
        .env_clear()
        .env("HOME", &t.home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("GOCCIA_TRUST_STATE_DIR", t.root.join("state"))
        .envs(crate::common::git::GIT_ENV.iter().copied())
        .args(args)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn is_pascal_case(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_alphanumeric())
}

#[test]
fn every_log_carries_what_code_scanning_requires() {
    for (name, text, root) in logs() {
        let log = assert_valid_sarif(&text);
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert!(!rules.is_empty(), "{name}");
        for rule in rules {
            let id = rule["id"].as_str().unwrap();
            let rname = rule["name"].as_str().unwrap_or("");
            assert!(is_pascal_case(rname), "{name}: rule {id} name {rname:?}");
            assert_ne!(rname, id, "{name}");
            for field in ["shortDescription", "fullDescription", "help"] {
                let t = rule[field]["text"].as_str().unwrap_or("");
                assert!(!t.is_empty(), "{name}: rule {id} has no {field}");
            }
            assert_ranked_and_linked(&name, rule);
        }
        // Each rule links to its own section.
        let mut uris: Vec<&str> = rules.iter().filter_map(|r| r["helpUri"].as_str()).collect();
        uris.sort();
        uris.dedup();
        assert_eq!(uris.len(), rules.len(), "{name}: helpUri shared: {uris:?}");
        let results = run["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{name} reported nothing");
        for r in results {
            let loc = &r["locations"][0]["physicalLocation"];
            let line = loc["region"]["startLine"].as_u64();
            assert!(line.is_some_and(|l| l >= 1), "{name}: no region in {r}");
            let fp = r["partialFingerprints"][KEY].as_str().unwrap_or("");
            assert_eq!(fp.len(), 64, "{name}: fingerprint {fp:?} in {r}");
            assert!(fp.chars().all(|c| c.is_ascii_hexdigit()), "{name}");
            // The config is named by its path under the root, never by
            // the runner's absolute checkout path.
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            let message = r["message"]["text"].as_str().unwrap();
            assert!(
                !message.contains(&format!("{root}/{uri}")),
                "{name}: {message}"
            );
        }
        // Two results of one rule on one file are two alerts only when
        // they are about different things.
        let mut seen = std::collections::HashSet::new();
        for r in results {
            let key = (
                r["ruleId"].to_string(),
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].to_string(),
                r["partialFingerprints"][KEY].to_string(),
            );
            assert!(seen.insert(key), "{name}: fingerprint repeated in {r}");
        }
    }
}

/// Issue 44 try 8: what code scanning ranks and links a rule by:
/// `properties.tags` with `security`, a `security-severity` score (a
/// string holding a number from 0 to 10), a SARIF `precision`, and a
/// `helpUri` into the book's section for that rule (the anchor is a
/// heading of docs/src/sarif-rules.md), at the binary's version, under the
/// repository Cargo.toml names.
fn assert_ranked_and_linked(name: &str, rule: &Value) {
    let id = rule["id"].as_str().unwrap();
    let props = &rule["properties"];
    let tags: Vec<&str> = props["tags"]
        .as_array()
        .map(|t| t.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(
        tags.contains(&"security"),
        "{name}: rule {id} tags {tags:?}"
    );
    let severity = props["security-severity"].as_str().unwrap_or("");
    let score: f64 = severity
        .parse()
        .unwrap_or_else(|_| panic!("{name}: rule {id} security-severity {severity:?}"));
    assert!((0.0..=10.0).contains(&score), "{name}: rule {id}: {score}");
    let precision = props["precision"].as_str().unwrap_or("");
    assert!(
        ["very-high", "high", "medium", "low"].contains(&precision),
        "{name}: rule {id} precision {precision:?}"
    );
    let uri = rule["helpUri"].as_str().unwrap_or("");
    let page = format!(
        "{}/blob/v{}/docs/src/sarif-rules.md#{id}",
        env!("CARGO_PKG_REPOSITORY"),
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(uri, page, "{name}: rule {id}");
    if !common::in_checkout() {
        return;
    }
    let book = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/sarif-rules.md"),
    )
    .unwrap();
    assert!(
        book.lines().any(|l| l == format!("## {id}")),
        "docs/src/sarif-rules.md has no section for {id}"
    );
}

fn fingerprints(text: &str) -> Vec<(String, String)> {
    let log: Value = serde_json::from_str(text).unwrap();
    log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["partialFingerprints"][KEY].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The same findings in a checkout at another absolute path, and with the
/// requests moved down a few lines, keep their fingerprints; a different
/// request gives a different one.
#[test]
fn fingerprints_follow_the_finding_not_the_checkout_or_the_line() {
    let a = TestEnv::new();
    project(&a);
    let b = TestEnv::new();
    project(&b);
    assert_ne!(a.work, b.work);
    let first = raw(&a, &["scan", "--format", "sarif"]);
    let fa = fingerprints(&first);
    assert_eq!(fa, fingerprints(&raw(&b, &["scan", "--format", "sarif"])));
    assert!(
        first.contains(a.work.to_str().unwrap()),
        "the root is named"
    );

    // Lines added above the request: a new line number, the same alert.
    let text = std::fs::read_to_string(a.work.join("new/goccia.json")).unwrap();
    a.write("new/goccia.json", &format!("\n\n\n{text}"));
    let moved = raw(&a, &["scan", "--format", "sarif"]);
    let line = |t: &str| {
        let log: Value = serde_json::from_str(t).unwrap();
        log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["region"]["startLine"]
            .as_u64()
    };
    assert_eq!(line(&first), Some(3));
    assert_eq!(line(&moved), Some(6));
    assert_eq!(fa, fingerprints(&moved));

    // Another request: another alert.
    a.write(
        "new/goccia.json",
        r#"{"permissions": {"allow-net": ["other.test"]}}"#,
    );
    let other = fingerprints(&raw(&a, &["scan", "--format", "sarif"]));
    assert_eq!(other[0], fa[0], "the load error is the same");
    assert_ne!(other[1], fa[1]);

    // diff: the same change in two repositories at different paths.
    let r1 = changed_repo();
    let r2 = changed_repo();
    let d1 = raw(&r1.t, &["diff", "HEAD~1", "HEAD", "--format", "sarif"]);
    let d2 = raw(&r2.t, &["diff", "HEAD~1", "HEAD", "--format", "sarif"]);
    assert_ne!(d1, d2, "the roots differ");
    assert_eq!(fingerprints(&d1), fingerprints(&d2));
    // Compared with another base name for the same commit: the same alerts.
    let id = crate::common::git::git(&r1.t.work, &["rev-parse", "HEAD~1"]);
    let d3 = raw(&r1.t, &["diff", id.trim(), "HEAD", "--format", "sarif"]);
    assert_eq!(fingerprints(&d1), fingerprints(&d3));
}

/// The SARIF Multitool (npm `@microsoft/sarif-multitool`), its `Sarif` and
/// `Gh` (GitHub code scanning) rules: no error on any log.
#[test]
fn the_sarif_multitool_finds_no_error() {
    const TOOL: &str = "Sarif.Multitool";
    if !common::tool_available(TOOL, "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, (_, text, _)) in logs().into_iter().enumerate() {
        let path = dir.path().join(format!("log{i}.sarif"));
        std::fs::write(&path, text).unwrap();
        files.push(path);
    }
    let report = dir.path().join("multitool.sarif");
    let out = Command::new(TOOL)
        .args([
            "validate",
            "--rule-kind",
            "Sarif;Gh",
            "--log",
            "ForceOverwrite",
        ])
        .arg("-o")
        .arg(&report)
        .args(&files)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("{} files scanned", files.len())),
        "{stdout}"
    );
    let errors = multitool_results(&report, "error");
    assert!(errors.is_empty(), "{errors:#?}");
    // The warnings left: only that the tool has no informationUri, which
    // is given when Cargo.toml names a repository.
    let warnings = multitool_results(&report, "warning");
    let expected: &[&str] = if env!("CARGO_PKG_REPOSITORY").is_empty() {
        &["SARIF2005"]
    } else {
        &[]
    };
    for (rule, text) in &warnings {
        assert!(expected.contains(&rule.as_str()), "{rule}: {text}");
    }
}

/// The Multitool's findings of `level` as (rule id, message).
fn multitool_results(report: &Path, level: &str) -> Vec<(String, String)> {
    let log: Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    let mut out = Vec::new();
    for run in log["runs"].as_array().unwrap() {
        for r in run["results"].as_array().into_iter().flatten() {
            // A result without a level has its rule's default, and the
            // Multitool's rules give theirs.
            let rule_level = r["ruleIndex"]
                .as_u64()
                .and_then(|i| run["tool"]["driver"]["rules"].get(i as usize))
                .and_then(|rule| rule["defaultConfiguration"]["level"].as_str())
                .unwrap_or("warning");
            let l = r["level"].as_str().unwrap_or(rule_level);
            if l == level {
                out.push((
                    r["ruleId"].as_str().unwrap_or("").to_string(),
                    r["message"].to_string(),
                ))
            }
        }
    }
    out
}
