//! Value-level diffs over the real binary (issue 12): a config allowing 30
//! hosts, one swapped for an attacker's and one appended, shows exactly the
//! three values that changed, on a terminal and in `scan --json`; piped,
//! `scan` keeps GocciaScript's lines.

use std::process::{Command, Stdio};

use crate::common::TestEnv;

fn net_config(hosts: &[String]) -> String {
    let quoted: Vec<String> = hosts.iter().map(|h| format!("\"{h}\"")).collect();
    format!(
        r#"{{"permissions": {{"allow-net": [{}]}}}}"#,
        quoted.join(", ")
    )
}

/// Trusts 30 hosts, then swaps host17 and appends zz.example.com.
fn swapped(env: &TestEnv) {
    let mut hosts: Vec<String> = (0..30).map(|i| format!("host{i:02}.example.com")).collect();
    env.write("p/goccia.json", &net_config(&hosts));
    assert_eq!(env.run(&["trust", "--yes", "p"]).code, 0);
    hosts[17] = "host17.attacker.io".into();
    hosts.push("zz.example.com".into());
    env.write("p/goccia.json", &net_config(&hosts));
}

/// `scan` on a pseudo-terminal (`script`), its screen text.
fn scan_on_terminal(env: &TestEnv, args: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    let out = Command::new("script")
        .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .current_dir(&env.work)
        .env_clear()
        .env("HOME", &env.home)
        .env("PATH", "/usr/bin:/bin")
        // Text and escaping are read here; colour on a terminal is
        // tested in cli_conventions.rs.
        .env("NO_COLOR", "1")
        .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
        .stdin(Stdio::null())
        .output()
        .expect("script(1) from util-linux");
    env.redact(&String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"))
}

#[test]
fn scan_on_a_terminal_shows_the_three_values_that_changed() {
    let env = TestEnv::new();
    swapped(&env);
    let screen = scan_on_terminal(&env, "scan");
    assert!(
        screen.contains("changed        p/goccia.json  +2 -1\n"),
        "{screen}"
    );
    let shown: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.starts_with("changed"))
        .skip(1)
        .collect();
    assert_eq!(
        shown,
        [
            "  allow-net",
            "      … 17 unchanged",
            "    - host17.example.com",
            "    + host17.attacker.io",
            "      … 12 unchanged",
            "    + zz.example.com",
            // Who changed it (issue 26): not known outside a repository.
            "  no provenance: not in a git repository",
        ],
        "{screen}"
    );
}

#[test]
fn scan_json_lists_each_changed_value_as_an_item() {
    let env = TestEnv::new();
    swapped(&env);
    let out = env.run(&["scan", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let config = &json["configs"][0];
    assert_eq!(config["state"], "changed");
    // Schema 1: the value-level items are the config's `diff`.
    let values = config["diff"].as_array().unwrap();
    assert_eq!(values.len(), 32, "{config}");
    let changed: Vec<(String, String, String)> = values
        .iter()
        .filter(|v| v["change"] != "unchanged")
        .map(|v| {
            (
                v["request"].as_str().unwrap().to_string(),
                v["change"].as_str().unwrap().to_string(),
                v["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let item = |c: &str, v: &str| ("allow-net".to_string(), c.to_string(), v.to_string());
    assert_eq!(
        changed,
        [
            item("removed", "host17.example.com"),
            item("added", "host17.attacker.io"),
            item("added", "zz.example.com"),
        ]
    );
}

#[test]
fn piped_scan_keeps_gocciascripts_lines_and_counts_values() {
    let env = TestEnv::new();
    swapped(&env);
    let out = env.run(&["scan"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[1], "changed        p/goccia.json  +2 -1");
    assert!(lines[2].starts_with("  - allow-net: host00.example.com, "));
    assert!(lines[3].starts_with("  + allow-net: host00.example.com, "));
    assert_eq!(lines.len(), 4);
}

#[test]
fn a_retargeted_scope_carries_its_destination() {
    let env = TestEnv::new();
    env.mkdir("p/real");
    env.mkdir("p/other");
    env.symlink("real", "p/data");
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-read": ["./data"], "allow-net": ["a.test"]}}"#,
    );
    assert_eq!(env.run(&["trust", "--yes", "p"]).code, 0);
    std::fs::remove_file(env.work.join("p/data")).unwrap();
    env.symlink("other", "p/data");
    let out = env.run(&["scan", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let values = json["configs"][0]["diff"].as_array().unwrap().clone();
    let read: Vec<&serde_json::Value> = values
        .iter()
        .filter(|v| v["request"] == "allow-read")
        .collect();
    assert_eq!(read.len(), 1, "{values:?}");
    assert_eq!(read[0]["change"], "retargeted");
    assert_eq!(
        env.redact(read[0]["destination"].as_str().unwrap()),
        "$ROOT/work/p/other"
    );
    let screen = scan_on_terminal(&env, "scan");
    assert!(
        screen.contains("changed        p/goccia.json  ~1\n"),
        "{screen}"
    );
    assert!(
        screen.contains("    ~ $ROOT/work/p/data (now resolves to $ROOT/work/p/other)\n"),
        "{screen}"
    );
}

#[test]
fn inspect_json_and_terminal_show_the_values() {
    let env = TestEnv::new();
    swapped(&env);
    let out = env.run(&["inspect", "--json", "p/goccia.json"]);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let added: Vec<&str> = json["diff"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["change"] == "added")
        .map(|v| v["value"].as_str().unwrap())
        .collect();
    assert_eq!(added, ["host17.attacker.io", "zz.example.com"]);
    let screen = scan_on_terminal(&env, "inspect p/goccia.json");
    assert!(
        screen.contains("Changes:\n  allow-net\n      host00.example.com\n"),
        "{screen}"
    );
    assert!(
        screen.contains("    - host17.example.com\n    + host17.attacker.io\n"),
        "{screen}"
    );
}
