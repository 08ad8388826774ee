//! The policy loader and the gate behind it: mutated shipped policies and
//! generated policy documents load or are refused naming the file; a
//! loaded policy shows as JSON, and judges any target without panicking;
//! the trust store's directory is denied whatever the policy says.

use std::path::PathBuf;

use goccia_trust::core::config::json::{self, Json};
use goccia_trust::core::policy::{Verdict, evaluate};
use proptest::prelude::*;

use crate::api;
use crate::harness::{self, bounded};

const LEVELS: &[&str] = &[
    "READ_ONLY",
    "DISCOVERY_ONLY",
    "WORKSPACE_WRITE",
    "EXTERNAL_EFFECT",
    "DESTRUCTIVE",
    "IRREVERSIBLE",
];
const RISKS: &[&str] = &["R0", "R1", "R2", "R3", "R4", "r0", "R0 ", "constructor", ""];

fn root() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(&[
            "/", ".", "..", "~", "~/", "~/x", "~user", "/usr", "/etc", "/proc",
            "rel/dir", "./a/../b", "/a//b/", "C:\\Users", "\\\\server", "", " ",
            "/tmp/\u{202e}x", "~/.config/goccia",
        ][..]).prop_map(str::to_string),
        1 => harness::text(10),
    ]
}

fn string_or_junk(choices: &'static [&'static str]) -> impl Strategy<Value = Json> {
    prop_oneof![
        4 => proptest::sample::select(choices).prop_map(|s| Json::String(s.to_string())),
        1 => harness::text(6).prop_map(Json::String),
        1 => Just(Json::Null),
        1 => Just(Json::Number("1".into())),
    ]
}

fn member() -> impl Strategy<Value = (String, Json)> {
    let roots = |key: &'static str| {
        prop::collection::vec(root().prop_map(Json::String), 0..4)
            .prop_map(move |items| (key.to_string(), Json::Array(items)))
    };
    prop_oneof![
        1 => roots("approved_workspaces"),
        1 => roots("system_read_only_roots"),
        1 => roots("personal_data_roots"),
        1 => roots("denied_roots"),
        3 => prop::collection::vec(
            (
                proptest::sample::select(LEVELS).prop_map(str::to_string),
                string_or_junk(&["allow", "needs_auth", "deny", "ALLOW"]),
            ),
            0..6,
        )
        .prop_map(|m| ("grants".to_string(), Json::Object(m))),
        3 => prop::collection::vec(
            (
                proptest::sample::select(RISKS).prop_map(str::to_string),
                string_or_junk(LEVELS),
            ),
            0..6,
        )
        .prop_map(|m| ("risk_to_level".to_string(), Json::Object(m))),
        1 => prop::collection::vec(
            (
                proptest::sample::select(&["allow-read", "allow-net", "sandbox-copy-rw", "bogus"][..])
                    .prop_map(str::to_string),
                string_or_junk(RISKS),
            ),
            0..3,
        )
        .prop_map(|m| ("requests".to_string(), Json::Object(m))),
        1 => Just(("schema_version".to_string(), Json::String("1".into()))),
        1 => (harness::text(8), crate::json::json_value()),
    ]
}

/// Loads `bytes` as the policy file `<dir>/policy.json`; a loaded policy is
/// shown both ways and judges every risk on every target.
fn load_and_judge(bytes: Vec<u8>, targets: Vec<String>) -> Result<(String, String), String> {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let file: PathBuf = root.join("policy.json");
    bounded("policy", move || {
        let env = api::env_with_home_inside(&root);
        let policy = api::policy_from_bytes(&bytes, &file, &env).map_err(|e| e.to_string())?;
        let compact = policy.to_json(false);
        let pretty = policy.to_json(true);
        let a = json::parse(&compact).expect("policy show prints JSON");
        let b = json::parse(&pretty).expect("policy show --json prints JSON");
        assert_eq!(a, b, "compact and pretty disagree");
        let store = format!("{}/.config/goccia/trust.json", env.home);
        for risk in RISKS {
            for target in targets.iter().map(Some).chain([None]) {
                let d = evaluate(&policy, risk, target.map(String::as_str), &env);
                assert_eq!(d.risk, *risk);
                assert!(!d.reason.is_empty());
                if !policy.risk_to_level.contains_key(*risk) {
                    assert_eq!(d.verdict, Verdict::Denied, "{risk}");
                }
            }
            // The store that decides trust is never reachable by a policy.
            let d = evaluate(&policy, risk, Some(&store), &env);
            assert_eq!(
                d.verdict,
                Verdict::Denied,
                "{risk} on the store: {}",
                d.reason
            );
        }
        Ok((compact, policy.sha256.clone()))
    })
}

/// A loaded policy shows as an object and carries its file's hash; a
/// refused one names the file.
fn check(outcome: Result<(String, String), String>) -> Result<(), TestCaseError> {
    match outcome {
        Ok((compact, sha)) => {
            prop_assert!(compact.starts_with('{'), "{}", compact);
            prop_assert_eq!(sha.len(), 64);
        }
        Err(message) => prop_assert!(message.contains("policy.json"), "{}", message),
    }
    Ok(())
}

fn target() -> impl Strategy<Value = String> {
    prop_oneof![
        root(),
        Just("~/.ssh/id_rsa".to_string()),
        Just("/etc/shadow".to_string()),
        harness::text(12),
    ]
}

proptest! {
    #![proptest_config(harness::config(128))]

    /// The shipped policies, mutated.
    #[test]
    fn mutated_policies_load_or_are_refused_by_name(
        seed in any::<proptest::sample::Index>(),
        edits in harness::mutations(),
        targets in prop::collection::vec(target(), 0..3),
    ) {
        let seeds = harness::seeds(&harness::repo().join("policies"), &[".json"]);
        let (_, bytes) = &seeds[seed.index(seeds.len())];
        check(load_and_judge(harness::apply(bytes, &edits), targets))?;
    }

    /// Generated policy documents: a valid base (every level granted, every
    /// risk mapped) with members added or replaced, right and wrong values;
    /// sometimes a required key goes missing.
    #[test]
    fn generated_policies_load_or_are_refused_by_name(
        changes in prop::collection::vec(member(), 0..6),
        drop_required in proptest::option::weighted(0.1, 0usize..2),
        targets in prop::collection::vec(target(), 0..3),
    ) {
        let grant = |g: &str| Json::String(g.to_string());
        // `.` is the directory holding $HOME here, so the workspace covers
        // the trust store: only the store's own denial keeps it out.
        let mut members = vec![
            (
                "approved_workspaces".to_string(),
                Json::Array(vec![grant(".")]),
            ),
            (
                "grants".to_string(),
                Json::Object(LEVELS.iter().map(|l| (l.to_string(), grant("allow"))).collect()),
            ),
            (
                "risk_to_level".to_string(),
                Json::Object(
                    ["R0", "R1", "R2", "R3", "R4"]
                        .iter()
                        .zip(LEVELS)
                        .map(|(r, l)| (r.to_string(), grant(l)))
                        .collect(),
                ),
            ),
        ];
        for (key, value) in changes {
            match members.iter_mut().find(|(k, _)| *k == key) {
                Some(member) => member.1 = value,
                None => members.push((key, value)),
            }
        }
        if let Some(i) = drop_required {
            members.remove(i + 1);
        }
        let doc = Json::Object(members).to_compact();
        check(load_and_judge(doc.into_bytes(), targets))?;
    }

    #[test]
    fn random_policy_files_are_refused_by_name(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        check(load_and_judge(bytes, Vec::new()))?;
    }
}
