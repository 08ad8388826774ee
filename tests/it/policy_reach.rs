//! The gate judges an `allow-net` value by what GocciaScript would let it
//! reach (issue 39, items 1, 2, 5 and 6), not by its text: one table of
//! values, each with GocciaScript's parse and the expected verdict under a
//! fixed policy, run through `policy evaluate --kind allow-net --value` and
//! end to end through `trust --yes --policy` on a real checkout, whose store
//! must never gain a denied (or undecided) config.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::TestEnv;

/// The policy of most rows: two private addresses denied, a private range
/// at R1, a port of a domain denied beside the domain at R0, one port of a
/// host at R0, a public host and range denied, an IPv6 range at R0.
/// Everything else keeps its kind's class: public hosts R2, private R3, both
/// NEEDS_AUTH.
const POLICY_A: &str = r#"{
  "approved_workspaces": ["."],
  "grants": {
    "READ_ONLY": "allow",
    "WORKSPACE_WRITE": "allow",
    "EXTERNAL_EFFECT": "needs_auth",
    "DESTRUCTIVE": "needs_auth"
  },
  "risk_to_level": { "R0": "READ_ONLY", "R1": "WORKSPACE_WRITE", "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE" },
  "rules": {
    "allow-net-private": { "169.254.169.254": "deny", "::1": "deny", "10.9.0.0/16": "R1" },
    "allow-net": {
      "*.example.org:22": "deny",
      "*.example.org": "R0",
      "api.example.com:443": "R0",
      "blocked.example.net": "deny",
      "203.0.113.0/24": "deny",
      "2001:db8::/32": "R0"
    }
  }
}
"#;

/// A policy denying `private` outright, every other host at R0.
const POLICY_B: &str = r#"{
  "approved_workspaces": ["."],
  "grants": { "READ_ONLY": "allow", "EXTERNAL_EFFECT": "needs_auth", "DESTRUCTIVE": "needs_auth" },
  "risk_to_level": { "R0": "READ_ONLY", "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE" },
  "rules": {
    "allow-net-private": { "private": "deny" },
    "allow-net": { "*": "R0" }
  }
}
"#;

/// (policy, value as a config writes it, what it reaches as `policy evaluate`
/// lists it, risk, verdict).
type Case = (char, &'static str, &'static str, &'static str, &'static str);

#[rustfmt::skip]
const CASES: &[Case] = &[
    // Item 1: covering a denied address.
    ('A', "169.254.0.0/16", r#"["169.254.0.0/16"]"#, "R3", "DENIED"),
    ('A', "169.254.169.254/32", r#"["169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "0.0.0.0/0", r#"["0.0.0.0/0"]"#, "R3", "DENIED"),
    ('A', "[::ffff:169.254.169.254]", r#"["169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "[::ffff:a9fe:a9fe]:80", r#"["169.254.169.254:80"]"#, "R3", "DENIED"),
    ('A', "[0:0:0:0:0:0:0:1]", r#"["::1"]"#, "R3", "DENIED"),
    ('A', "::1/128", r#"["::1"]"#, "R3", "DENIED"),
    ('A', "169.254.169.254", r#"["169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "169.254.169.254.", r#"["169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "169.254.169.254:80", r#"["169.254.169.254:80"]"#, "R3", "DENIED"),
    ('A', "169.254.169.0/24", r#"["169.254.169.0/24"]"#, "R3", "DENIED"),
    ('A', "0:0:0:0:0:0:0:1", r#"["::1"]"#, "R3", "DENIED"),
    ('A', "0000:0000:0000:0000:0000:0000:0000:0001", r#"["::1"]"#, "R3", "DENIED"),
    ('A', "::0.0.0.1", r#"["::1"]"#, "R3", "DENIED"),
    ('A', "[::1]:6379", r#"["[::1]:6379"]"#, "R3", "DENIED"),
    ('A', "::/0", r#"["::/0"]"#, "R3", "DENIED"),
    ('A', "::ffff:0:0/96", r#"["0.0.0.0/0"]"#, "R3", "DENIED"),
    ('A', "[::ffff:a9fe:0]/112", r#"["169.254.0.0/16"]"#, "R3", "DENIED"),
    // NAT64, 6to4 and IPv4-compatible addresses reach the IPv4 host they embed.
    ('A', "64:ff9b::a9fe:a9fe", r#"["64:ff9b::a9fe:a9fe","169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "2002:a9fe:a9fe::1", r#"["2002:a9fe:a9fe::1","169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "::a9fe:a9fe", r#"["::a9fe:a9fe","169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "private", r#"["private"]"#, "R3", "DENIED"),
    // Item 5: host bits set, compared by value.
    ('A', "169.254.169.254/16", r#"["169.254.0.0/16"]"#, "R3", "DENIED"),
    ('A', "10.9.1.2/16", r#"["10.9.0.0/16"]"#, "R1", "ALLOWED"),
    ('A', "10.9.0.0/16", r#"["10.9.0.0/16"]"#, "R1", "ALLOWED"),
    ('A', "10.9.255.1", r#"["10.9.255.1"]"#, "R1", "ALLOWED"),
    ('A', "[::ffff:10.9.0.1]", r#"["10.9.0.1"]"#, "R1", "ALLOWED"),
    ('A', "10.9.0.1:8080", r#"["10.9.0.1:8080"]"#, "R1", "ALLOWED"),
    ('A', "10.9.0.0/15", r#"["10.8.0.0/15"]"#, "R3", "NEEDS_AUTH"),
    ('A', "10.0.0.0/8", r#"["10.0.0.0/8"]"#, "R3", "NEEDS_AUTH"),
    // Item 2: zone ids keep a private address private.
    ('A', "[::1%lo]:6379", r#"["[::1]:6379"]"#, "R3", "DENIED"),
    ('A', "::1%lo", r#"["::1"]"#, "R3", "DENIED"),
    ('A', "fe80::1%eth0", r#"["fe80::1"]"#, "R3", "NEEDS_AUTH"),
    ('A', "[fe80::1]", r#"["fe80::1"]"#, "R3", "NEEDS_AUTH"),
    ('A', "[fe80::a9fe:a9fe%eth0]:80", r#"["[fe80::a9fe:a9fe]:80"]"#, "R3", "NEEDS_AUTH"),
    ('A', "[::ffff:127.0.0.1%lo]", r#"["127.0.0.1"]"#, "R3", "NEEDS_AUTH"),
    ('A', "fc00::/7", r#"["fc00::/7"]"#, "R3", "NEEDS_AUTH"),
    // Item 3: ports read by TryStrToInt; no port is every port.
    ('A', "h.example.org:0x16", r#"["h.example.org:22"]"#, "R2", "DENIED"),
    ('A', "h.example.org:$16", r#"["h.example.org:22"]"#, "R2", "DENIED"),
    ('A', "h.example.org:&26", r#"["h.example.org:22"]"#, "R2", "DENIED"),
    ('A', "h.example.org:%10110", r#"["h.example.org:22"]"#, "R2", "DENIED"),
    ('A', "h.example.org:22", r#"["h.example.org:22"]"#, "R2", "DENIED"),
    ('A', "h.example.org", r#"["h.example.org"]"#, "R2", "DENIED"),
    ('A', "*.example.org", r#"["*.example.org"]"#, "R2", "DENIED"),
    ('A', "h.example.org:026", r#"["h.example.org:26"]"#, "R0", "ALLOWED"),
    ('A', "h.example.org:443", r#"["h.example.org:443"]"#, "R0", "ALLOWED"),
    ('A', "H.Example.ORG.:0x1BB", r#"["h.example.org:443"]"#, "R0", "ALLOWED"),
    ('A', "*.example.org:443", r#"["*.example.org:443"]"#, "R0", "ALLOWED"),
    ('A', "example.org:22", r#"["example.org:22"]"#, "R2", "NEEDS_AUTH"),
    ('A', "api.example.com:0x1bb", r#"["api.example.com:443"]"#, "R0", "ALLOWED"),
    ('A', "api.example.com:$1BB", r#"["api.example.com:443"]"#, "R0", "ALLOWED"),
    ('A', "api.example.com:443", r#"["api.example.com:443"]"#, "R0", "ALLOWED"),
    ('A', "api.example.com:0443", r#"["api.example.com:443"]"#, "R0", "ALLOWED"),
    ('A', "api.example.com.:443", r#"["api.example.com:443"]"#, "R0", "ALLOWED"),
    ('A', "api.example.com", r#"["api.example.com"]"#, "R2", "NEEDS_AUTH"),
    ('A', "api.example.com:8443", r#"["api.example.com:8443"]"#, "R2", "NEEDS_AUTH"),
    ('A', "www.example.net", r#"["www.example.net"]"#, "R2", "NEEDS_AUTH"),
    ('A', "blocked.example.net", r#"["blocked.example.net"]"#, "R2", "DENIED"),
    ('A', "Blocked.Example.Net.", r#"["blocked.example.net"]"#, "R2", "DENIED"),
    ('A', "blocked.example.net:8080", r#"["blocked.example.net:8080"]"#, "R2", "DENIED"),
    // Public addresses and ranges, by value.
    ('A', "203.0.113.7", r#"["203.0.113.7"]"#, "R2", "DENIED"),
    ('A', "203.0.113.0/25", r#"["203.0.113.0/25"]"#, "R2", "DENIED"),
    ('A', "203.0.0.0/16", r#"["203.0.0.0/16"]"#, "R2", "DENIED"),
    ('A', "[::ffff:203.0.113.9]:443", r#"["203.0.113.9:443"]"#, "R2", "DENIED"),
    ('A', "64:ff9b::cb00:7109", r#"["64:ff9b::cb00:7109","203.0.113.9"]"#, "R2", "DENIED"),
    ('A', "203.0.114.1", r#"["203.0.114.1"]"#, "R2", "NEEDS_AUTH"),
    ('A', "8.8.8.8", r#"["8.8.8.8"]"#, "R2", "NEEDS_AUTH"),
    ('A', "2001:db8::1", r#"["2001:db8::1"]"#, "R0", "ALLOWED"),
    ('A', "[2001:0db8:0000:0000:0000:0000:0000:0001]:8080", r#"["[2001:db8::1]:8080"]"#, "R0", "ALLOWED"),
    ('A', "2001:db8::/48", r#"["2001:db8::/48"]"#, "R0", "ALLOWED"),
    ('A', "2001:db8::/31", r#"["2001:db8::/31"]"#, "R2", "NEEDS_AUTH"),
    // Item 5: host names the system resolver reads as an IPv4 address.
    ('A', "2130706433", r#"["2130706433","127.0.0.1"]"#, "R3", "NEEDS_AUTH"),
    ('A', "2852039166", r#"["2852039166","169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "0xa9fea9fe", r#"["0xa9fea9fe","169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "169.254.43518", r#"["169.254.43518","169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "0251.0376.0251.0376", r#"["0251.0376.0251.0376","169.254.169.254"]"#, "R3", "DENIED"),
    ('A', "0177.0.0.1:8080", r#"["0177.0.0.1:8080","127.0.0.1:8080"]"#, "R3", "NEEDS_AUTH"),
    // GocciaScript reads 010.9.0.1 as 10.9.0.1, a resolver as 8.9.0.1.
    ('A', "010.9.0.1", r#"["10.9.0.1","8.9.0.1"]"#, "R3", "NEEDS_AUTH"),
    // An IPv4 tail GocciaScript reads as a strict (decimal) dotted quad.
    ('A', "::ffff:010.9.0.1", r#"["10.9.0.1"]"#, "R1", "ALLOWED"),
    ('A', "[::ffff:010.0.0.1]:80", r#"["10.0.0.1:80"]"#, "R3", "NEEDS_AUTH"),
    // Item 5: a rule denying `private` covers every private address asked for.
    ('B', "10.1.2.3", r#"["10.1.2.3"]"#, "R3", "DENIED"),
    ('B', "192.168.0.0/16", r#"["192.168.0.0/16"]"#, "R3", "DENIED"),
    ('B', "172.16.5.4:443", r#"["172.16.5.4:443"]"#, "R3", "DENIED"),
    ('B', "[::1]:8080", r#"["[::1]:8080"]"#, "R3", "DENIED"),
    ('B', "[fe80::1%eth0]:80", r#"["[fe80::1]:80"]"#, "R3", "DENIED"),
    ('B', "100.64.0.1", r#"["100.64.0.1"]"#, "R3", "DENIED"),
    ('B', "::ffff:c0a8:1", r#"["192.168.0.1"]"#, "R3", "DENIED"),
    ('B', "2002:c0a8:1::", r#"["2002:c0a8:1::","192.168.0.1"]"#, "R3", "DENIED"),
    ('B', "0.0.0.0/0", r#"["0.0.0.0/0"]"#, "R3", "DENIED"),
    ('B', "8.0.0.0/6", r#"["8.0.0.0/6"]"#, "R3", "DENIED"),
    ('B', "2130706433", r#"["2130706433","127.0.0.1"]"#, "R3", "DENIED"),
    ('B', "private", r#"["private"]"#, "R3", "DENIED"),
    // Controls: public hosts and ranges stay ALLOWED.
    ('B', "8.0.0.0/7", r#"["8.0.0.0/7"]"#, "R0", "ALLOWED"),
    ('B', "8.8.8.8", r#"["8.8.8.8"]"#, "R0", "ALLOWED"),
    ('B', "example.com", r#"["example.com"]"#, "R0", "ALLOWED"),
    ('B', "localhost:8080", r#"["localhost:8080"]"#, "R0", "ALLOWED"),
];

/// Values GocciaScript refuses: `policy evaluate` refuses them with its
/// message (exit 2), `trust` refuses the config (exit 1), nothing is trusted.
const INVALID: &[&str] = &[
    "h.example.org:0",
    "h.example.org:+22",
    "h.example.org:65536",
    "10.0.0.0/33",
    "a:b:c",
    "http://example.com",
];

fn write_policy(t: &TestEnv, text: &str) -> String {
    let path = t.root.join("ci/policy.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    path.to_str().unwrap().to_string()
}

fn policy_text(which: char) -> &'static str {
    match which {
        'A' => POLICY_A,
        _ => POLICY_B,
    }
}

fn config(value: &str) -> String {
    format!(
        "{{ \"permissions\": {{ \"allow-net\": [{}] }} }}\n",
        serde_json::to_string(value).unwrap()
    )
}

fn exit_of(verdict: &str) -> i32 {
    match verdict {
        "ALLOWED" => 0,
        "DENIED" => 3,
        _ => 4,
    }
}

fn store_keys(t: &TestEnv) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(t.default_store()) else {
        return Vec::new();
    };
    let v: serde_json::Value = serde_json::from_str(&t.redact(&text)).unwrap();
    v["trusted"].as_object().unwrap().keys().cloned().collect()
}

#[test]
fn the_table_holds_at_least_sixty_values() {
    assert!(CASES.len() >= 60, "{}", CASES.len());
}

#[test]
fn policy_evaluate_judges_each_value_by_its_reach() {
    let t = TestEnv::new();
    let mut failures = Vec::new();
    for which in ['A', 'B'] {
        let policy = write_policy(&t, policy_text(which));
        for &(p, value, reach, risk, verdict) in CASES.iter().filter(|c| c.0 == which) {
            let out = t.run(&[
                "policy",
                "evaluate",
                "--policy",
                &policy,
                "--kind",
                "allow-net",
                "--value",
                value,
            ]);
            let v: serde_json::Value = match serde_json::from_str(&out.stdout) {
                Ok(v) => v,
                Err(_) => {
                    failures.push(format!("{p} {value}: {out}"));
                    continue;
                }
            };
            let got_reach = serde_json::to_string(&v["reach"]).unwrap();
            if out.code != exit_of(verdict)
                || v["verdict"] != verdict
                || v["risk"] != risk
                || got_reach != reach
            {
                failures.push(format!(
                    "{p} {value}: want {risk} {verdict} {reach}, got {} {} {got_reach} ({})",
                    v["risk"], v["verdict"], v["reason"]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn trust_yes_records_only_what_the_table_allows() {
    let mut failures = Vec::new();
    for which in ['A', 'B'] {
        let t = TestEnv::new();
        t.mkdir(".git");
        let cases: Vec<&Case> = CASES.iter().filter(|c| c.0 == which).collect();
        for (i, (_, value, ..)) in cases.iter().enumerate() {
            t.write(&format!("c{i:03}/goccia.json"), &config(value));
        }
        let policy = write_policy(&t, policy_text(which));
        let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
        assert!([0, 3, 4].contains(&out.code), "{out}");
        let keys = store_keys(&t);
        for (i, (p, value, _, risk, verdict)) in cases.iter().enumerate() {
            let head = format!("  c{i:03}/goccia.json (new): {verdict}\n");
            let judged = out
                .stdout
                .split_once(&head)
                .and_then(|(_, rest)| rest.lines().next())
                .filter(|line| line.contains(&format!(": {risk} - {verdict} \u{2014} ")));
            let key = format!("$ROOT/work/c{i:03}/goccia.json");
            let trusted = keys.contains(&key);
            if judged.is_none() || trusted != (*verdict == "ALLOWED") {
                failures.push(format!(
                    "{p} {value}: want {risk} {verdict}, trusted {trusted}"
                ));
            }
        }
        if !failures.is_empty() {
            failures.push(out.to_string());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_value_goccia_refuses_is_refused_by_evaluate_and_trust_alike() {
    for value in INVALID {
        let t = TestEnv::new();
        t.mkdir(".git");
        let policy = write_policy(&t, POLICY_B);
        let out = t.run(&[
            "policy",
            "evaluate",
            "--policy",
            &policy,
            "--kind",
            "allow-net",
            "--value",
            value,
        ]);
        let message = format!(
            "invalid scope in \"permissions.allow-net\": \"{value}\" (use host, host:port, *.domain, an IP, a CIDR range, or private)"
        );
        assert_eq!(out.code, 2, "{value}: {out}");
        assert_eq!(out.stderr, format!("Error: {message}\n"), "{value}: {out}");
        t.write("c/goccia.json", &config(value));
        let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
        assert_eq!(out.code, 1, "{value}: {out}");
        assert!(out.stderr.contains(&message), "{value}: {out}");
        assert!(store_keys(&t).is_empty(), "{value}");
    }
}

/// The denial names what the value reaches and the rule that covers it.
#[test]
fn a_denial_names_what_is_reached_and_the_rule() {
    let t = TestEnv::new();
    let policy = write_policy(&t, POLICY_A);
    let reason = |value: &str| {
        let out = t.run(&[
            "policy",
            "evaluate",
            "--policy",
            &policy,
            "--kind",
            "allow-net",
            "--value",
            value,
        ]);
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap_or_default();
        v["reason"].as_str().unwrap_or_default().to_string()
    };
    assert_eq!(
        reason("169.254.0.0/16"),
        "reaches 169.254.169.254, denied by rule allow-net-private \"169.254.169.254\" -> deny"
    );
    assert_eq!(
        reason("h.example.org"),
        "reaches h.example.org:22, denied by rule allow-net \"*.example.org:22\" -> deny"
    );
    assert_eq!(
        reason("64:ff9b::a9fe:a9fe"),
        "reaches 169.254.169.254, denied by rule allow-net-private \"169.254.169.254\" -> deny"
    );
    assert_eq!(
        reason("[::ffff:203.0.113.9]:443"),
        "reaches 203.0.113.9:443, denied by rule allow-net \"203.0.113.0/24\" -> deny"
    );
}

/// Item 6: `policy evaluate --value` trims and normalizes a value as a
/// config's request is (GocciaScript's `Trim`, `\` as a separator, one
/// trailing `/` dropped), so both give one answer.
#[test]
fn evaluate_normalizes_paths_as_goccia_does() {
    let t = TestEnv::new();
    t.mkdir(".git");
    t.mkdir("secrets");
    let quote = |p: &std::path::Path| serde_json::to_string(p.to_str().unwrap()).unwrap();
    let policy = write_policy(
        &t,
        &format!(
            r#"{{ "approved_workspaces": [{}],
  "grants": {{ "READ_ONLY": "allow" }}, "risk_to_level": {{ "R0": "READ_ONLY" }},
  "rules": {{ "allow-read": {{ {}: "deny" }} }} }}"#,
            quote(&t.work),
            quote(&t.work.join("secrets"))
        ),
    );
    for value in [
        " secrets ",
        "secrets\\key",
        "./x/../secrets",
        "\tsecrets/",
        "secrets",
    ] {
        let out = t.run(&[
            "policy",
            "evaluate",
            "--policy",
            &policy,
            "--kind",
            "allow-read",
            "--value",
            value,
        ]);
        assert_eq!(out.code, 3, "{value:?}: {out}");
        assert!(
            out.stdout.contains("denied by rule allow-read"),
            "{value:?}: {out}"
        );
        t.write(
            "goccia.json",
            &format!(
                "{{ \"permissions\": {{ \"allow-read\": [{}] }} }}\n",
                serde_json::to_string(value).unwrap()
            ),
        );
        let out = t.run(&["trust", "--yes", "--policy", &policy, "."]);
        assert_eq!(out.code, 3, "{value:?}: {out}");
        assert!(
            out.stdout.contains("denied by rule allow-read"),
            "{value:?}: {out}"
        );
        assert!(store_keys(&t).is_empty(), "{value:?}");
    }
    // A control: a sibling of the denied root is read at R0.
    let out = t.run(&[
        "policy",
        "evaluate",
        "--policy",
        &policy,
        "--kind",
        "allow-read",
        "--value",
        " secrets2 ",
    ]);
    assert_eq!(out.code, 0, "{out}");
}
