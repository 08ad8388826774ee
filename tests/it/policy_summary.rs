//! One summary per CI run (issue 31, item 3): the policy-gated trust
//! listing groups values that share a verdict and reason (`--verbose` shows
//! each), the hand-off names a common directory where GocciaScript's rule
//! for more than three configs allows it, and every run writes one summary
//! record next to the per-decision records, which `policy records` lists
//! and shows.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::TestEnv;
use serde_json::Value;

fn write_policy(t: &TestEnv) -> String {
    let path = t.root.join("ci/policy.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, common::CI_POLICY).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    path.to_str().unwrap().to_string()
}

/// 21 configs: 12 reading inside the checkout (ALLOWED), 5 asking for 10
/// public hosts each (NEEDS_AUTH), 4 asking for native code (DENIED).
fn tree(t: &TestEnv, denied_under_net: bool) {
    t.mkdir(".git");
    for i in 0..12 {
        t.write(
            &format!("apps/a{i:02}/goccia.json"),
            r#"{ "permissions": { "allow-read": ["./data", "./more", "./other"] } }"#,
        );
    }
    let hosts: Vec<String> = (0..10).map(|h| format!("\"h{h}.example.com\"")).collect();
    for i in 0..5 {
        t.write(
            &format!("net/n{i}/goccia.json"),
            &format!(
                r#"{{ "permissions": {{ "allow-net": [{}] }} }}"#,
                hosts.join(", ")
            ),
        );
    }
    for i in 0..4 {
        let dir = if denied_under_net && i == 0 {
            "net/native"
        } else {
            "native"
        };
        t.write(
            &format!("{dir}/f{i}/goccia.json"),
            r#"{ "permissions": { "allow-ffi": ["./libfast.so"] } }"#,
        );
    }
}

fn summaries(t: &TestEnv) -> Vec<Value> {
    let Ok(rd) = std::fs::read_dir(t.root.join("state/runs")) else {
        return Vec::new();
    };
    rd.map(|e| {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        serde_json::from_str(&t.redact(&text)).unwrap()
    })
    .collect()
}

#[test]
fn a_ci_run_prints_one_line_per_config_and_verdict_group_and_writes_one_summary() {
    let t = TestEnv::new();
    tree(&t, false);
    let policy = write_policy(&t);
    let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
    assert_eq!(out.code, 3, "{out}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    // A header per config, one line per group under it.
    let requests = lines.iter().filter(|l| l.starts_with("    ")).count();
    assert_eq!(requests, 21, "{out}");
    assert!(
        out.stdout.contains(
            "\n    allow-net: 10 hosts: R2 - NEEDS_AUTH — EXTERNAL_EFFECT requires explicit authorization at R2\n"
        ),
        "{out}"
    );
    assert!(
        out.stdout
            .contains("/apps/a00/data, $ROOT/work/apps/a00/more, $ROOT/work/apps/a00/other: R0 APPROVED_WORKSPACE ALLOWED — APPROVED_WORKSPACE read at R0\n"),
        "{out}"
    );
    // Five configs need a person, all under net/: one directory.
    assert!(
        out.stdout.contains(
            "5 config files need authorization; a person reviews and trusts them with:\n  goccia-trust --trust net/\n"
        ),
        "{out}"
    );

    let runs = summaries(&t);
    assert_eq!(runs.len(), 1, "{runs:?}");
    let run = &runs[0];
    assert_eq!(run["op"], "config-trust-run");
    assert_eq!(run["policy"], "$ROOT/ci/policy.json");
    assert_eq!(run["policy_sha256"].as_str().unwrap().len(), 64);
    assert_eq!(
        run["counts"],
        serde_json::json!({"ALLOWED": 12, "NEEDS_AUTH": 5, "DENIED": 4})
    );
    let configs = run["configs"].as_array().unwrap();
    assert_eq!(configs.len(), 21);
    for c in configs {
        let record = c["record"]
            .as_str()
            .unwrap()
            .replace("$ROOT", t.root.to_str().unwrap());
        let rec: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
        assert_eq!(rec["verdict"], c["verdict"]);
        assert_eq!(rec["block_sha256"], c["block_sha256"]);
        assert_eq!(
            t.redact(rec["config_key"].as_str().unwrap()),
            c["config_key"].as_str().unwrap()
        );
    }
    assert_eq!(run["trusted"].as_array().unwrap().len(), 12);

    // --verbose shows every value.
    let out = t.run(&[
        "trust",
        "--dry-run",
        "--verbose",
        "--policy",
        &policy,
        "net",
    ]);
    assert!(
        out.stdout
            .contains("    allow-net h7.example.com: R2 - NEEDS_AUTH"),
        "{out}"
    );
    assert_eq!(
        out.stdout.lines().filter(|l| l.starts_with("    ")).count(),
        50,
        "{out}"
    );
    // A dry run writes no summary.
    assert_eq!(summaries(&t).len(), 1);

    // `policy records` lists the runs; --last shows the newest.
    let state = t.root.join("state");
    let out = t.run(&["policy", "records", "--state-dir", state.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{out}");
    let list: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["counts"], run["counts"]);
    assert_eq!(list[0]["id"], run["id"]);
    let out = t.run(&[
        "policy",
        "records",
        "--last",
        "--state-dir",
        state.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{out}");
    let last: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(&last, run);
}

#[test]
fn the_hand_off_lists_each_config_when_the_common_directory_holds_a_denied_one() {
    let t = TestEnv::new();
    tree(&t, true);
    let policy = write_policy(&t);
    let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.contains(
            "  goccia-trust --trust net/n0/goccia.json --trust net/n1/goccia.json --trust net/n2/goccia.json --trust net/n3/goccia.json --trust net/n4/goccia.json\n"
        ),
        "{out}"
    );
}

#[test]
fn policy_records_without_runs_is_an_empty_list() {
    let t = TestEnv::new();
    let state = t.root.join("state");
    let out = t.run(&["policy", "records", "--state-dir", state.to_str().unwrap()]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "[]\n"), "{out}");
    let out = t.run(&[
        "policy",
        "records",
        "--last",
        "--state-dir",
        state.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr.contains("no run summary in $ROOT/state/runs"),
        "{out}"
    );
}

/// Issue 44 try 15: `policy records` and `policy records --last` give a
/// run's counts in the same order, the summary's own (ALLOWED, NEEDS_AUTH,
/// DENIED); the list sorted them by name.
#[test]
fn records_and_last_order_the_counts_alike() {
    let t = TestEnv::new();
    tree(&t, false);
    let policy = write_policy(&t);
    assert_eq!(t.run(&["trust", "--yes", "--policy", &policy, "."]).code, 3);
    let state = t.root.join("state");
    let state = state.to_str().unwrap();
    let order = |text: &str| -> Vec<usize> {
        ["\"ALLOWED\"", "\"NEEDS_AUTH\"", "\"DENIED\""]
            .iter()
            .map(|k| text.find(k).unwrap_or_else(|| panic!("{k} in {text}")))
            .collect()
    };
    let list = t.run(&["policy", "records", "--state-dir", state]).stdout;
    let last = t
        .run(&["policy", "records", "--last", "--state-dir", state])
        .stdout;
    for text in [&list, &last] {
        let at = order(text);
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
    }
}
