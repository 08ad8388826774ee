//! `trust --reviewed-by` with the policy gate and as JSON (issue 43 item
//! 4): both gates must pass, the decision records name the reviewers, and
//! `--json` gives the same listing as one document.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::Value;

use crate::team_reviews::{ALICE, BOB, Team, team};

/// `b.example.com` and `api.example.com` allowed, `c.example.com` denied;
/// without `allowed`, `b.example.com` needs authorization (the CI policy's
/// grant for network requests).
pub(crate) fn policy(t: &Team, name: &str, allow_b: bool) -> String {
    let b = if allow_b {
        r#", "b.example.com": "R0""#
    } else {
        ""
    };
    let text = crate::common::CI_POLICY.replace(
        "  \"risk_to_level\"",
        &format!(
            "  \"rules\": {{ \"allow-net\": {{ \"api.example.com\": \"R0\"{b}, \"c.example.com\": \"deny\" }} }},\n  \"risk_to_level\""
        ),
    );
    let path = t.env.root.join("ci").join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    path.to_str().unwrap().to_string()
}

fn sha256_of(path: &Path) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(std::fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The decision records under the test's state directory, by config.
fn decisions(t: &Team) -> Vec<Value> {
    let dir = t.env.root.join("state/decisions");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    entries
        .map(|e| {
            serde_json::from_str(&std::fs::read_to_string(e.unwrap().path()).unwrap()).unwrap()
        })
        .collect()
}

fn decision<'a>(records: &'a [Value], config: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["config_key"].as_str().unwrap().ends_with(config))
        .unwrap_or_else(|| panic!("no record of {config}: {records:?}"))
}

/// Alice signs a, b and c in the origin; bob signs a in the clone.
pub(crate) fn signed_team() -> Team {
    let t = team();
    assert_eq!(t.sign(&t.origin, &t.alice, ALICE, &["a", "b", "c"]).code, 0);
    t.share(&t.origin, &t.clone);
    assert_eq!(t.sign(&t.clone, &t.bob, BOB, &["a"]).code, 0);
    t
}

/// With `--policy` both gates must pass: a config the policy denies is
/// left whatever its reviews (exit 3, and never in the hand-off), one the
/// policy allows with too few reviews is left (exit 4); the decision
/// records carry who reviewed and the allowed signers' SHA-256.
#[test]
fn reviewed_by_with_policy_trusts_only_what_both_gates_pass() {
    let t = signed_team();
    let policy = policy(&t, "policy.json", true);
    let gated = ["--policy", policy.as_str(), "--min-reviews", "2", "."];
    // A dry run writes no record.
    let dry = t.trust(&t.clone, &[&["--dry-run"][..], &gated[..]].concat());
    assert_eq!(dry.code, 3, "{dry}");
    assert!(decisions(&t).is_empty(), "{dry}");
    let out = t.trust(&t.clone, &[&["--yes"][..], &gated[..]].concat());
    assert_eq!(out.code, 3, "{out}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    // The output names the test's root as `$ROOT`.
    assert!(
        lines[0].starts_with("Judged by policy $ROOT/ci/policy.json (sha256 "),
        "{out}"
    );
    assert_eq!(
        lines[1],
        format!("trusted  a/goccia.json  reviewed by {ALICE}, {BOB} (2 of 2)"),
        "{out}"
    );
    assert_eq!(
        lines[2],
        format!("left  b/goccia.json  1 of 2 reviews: {ALICE}; needs 1 more"),
        "{out}"
    );
    assert_eq!(
        lines[3],
        format!(
            "left  c/goccia.json  denied by the policy; not trusted; 1 of 2 reviews: {ALICE}; needs 1 more"
        ),
        "{out}"
    );
    assert!(
        lines[4].starts_with("    allow-net c.example.com: R2 - DENIED"),
        "{out}"
    );
    let end = lines[lines.len() - 2..].join("\n");
    assert!(
        end.contains("Trusted 1 config file by review in ")
            && end.contains("; 1 left for a person to review: goccia-trust trust b/goccia.json\n")
            && end.ends_with("1 config file denied by the policy; not trusted"),
        "{out}"
    );
    let store = t.env.run_in(&t.clone, &["list"], &[]);
    assert!(store.stdout.contains("a/goccia.json"), "{store}");
    assert!(!store.stdout.contains("b/goccia.json"), "{store}");
    assert!(!store.stdout.contains("c/goccia.json"), "{store}");
    // Every decision recorded, each naming who reviewed it.
    let records = decisions(&t);
    assert_eq!(records.len(), 3, "{records:?}");
    let signers = sha256_of(&t.allowed);
    let a = decision(&records, "a/goccia.json");
    assert_eq!(a["verdict"], "ALLOWED");
    assert_eq!(a["executed"], true, "{a}");
    assert_eq!(a["reviewedBy"], serde_json::json!([ALICE, BOB]), "{a}");
    assert_eq!(a["allowedSigners"]["sha256"], signers.as_str(), "{a}");
    assert_eq!(a["minReviews"], 2, "{a}");
    let b = decision(&records, "b/goccia.json");
    assert_eq!(b["verdict"], "ALLOWED");
    assert_eq!(b["executed"], false, "{b}");
    assert_eq!(b["reviewedBy"], serde_json::json!([ALICE]), "{b}");
    let c = decision(&records, "c/goccia.json");
    assert_eq!(c["verdict"], "DENIED");
    assert_eq!(c["executed"], false, "{c}");
    // One review each now: b passes both gates; c never does.
    let out = t.trust(&t.clone, &["--yes", "--policy", &policy, "."]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.contains(&format!(
            "\ntrusted  b/goccia.json  reviewed by {ALICE} (1 of 1)\n"
        )),
        "{out}"
    );
    assert!(!out.stdout.contains("left for a person to review"), "{out}");
}

/// A config its reviews pass but the policy leaves for a person is left
/// (exit 4); `--expect` with another hash denies it (exit 3).
#[test]
fn reviewed_by_with_policy_leaves_what_the_policy_leaves() {
    let t = signed_team();
    let policy = policy(&t, "strict.json", false);
    let out = t.trust(&t.clone, &["--dry-run", "--policy", &policy, "b"]);
    assert_eq!(out.code, 4, "{out}");
    assert!(
        out.stdout.contains(
            "\nleft  b/goccia.json  NEEDS_AUTH by the policy: a person reviews and trusts it\n"
        ),
        "{out}"
    );
    assert!(
        out.stdout
            .contains("; 1 left for a person to review: goccia-trust trust b/goccia.json"),
        "{out}"
    );
    let wrong = "0".repeat(64);
    let out = t.trust(&t.clone, &["--yes", "--expect", &wrong, "a"]);
    assert_eq!(out.code, 3, "{out}");
    assert!(
        out.stdout.contains("left  a/goccia.json  block sha256 ")
            && out.stdout.contains(" is not one of --expect"),
        "{out}"
    );
    let store = t.env.run_in(&t.clone, &["list"], &[]);
    assert!(!store.stdout.contains("goccia.json"), "{store}");
}
