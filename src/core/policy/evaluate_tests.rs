//! The reference's verdict table (docs/src/compatibility.md#reference-the-decision), every cell, with #every-grant-applies
//! (the grant of a read level applies too).

use super::*;
use crate::core::policy::test_support::{env_at, policy};

const ROOTS: &str = r#"
    "approved_workspaces": ["/pg-t/ws"],
    "system_read_only_roots": ["/pg-t/sys"],
    "personal_data_roots": ["/pg-t/home"],
    "denied_roots": ["/pg-t/home/secret"],
    "risk_to_level": {"RR": "READ_ONLY", "RD": "DISCOVERY_ONLY", "RW": "WORKSPACE_WRITE", "RN": "NET_CALL"}
"#;

fn policy_with_grant(grant: Option<&str>) -> Policy {
    let grants = match grant {
        Some(g) => format!(
            r#"{{"READ_ONLY": "{g}", "DISCOVERY_ONLY": "{g}", "WORKSPACE_WRITE": "{g}", "NET_CALL": "{g}"}}"#
        ),
        None => "{}".to_string(),
    };
    policy(&format!("{{{ROOTS}, \"grants\": {grants}}}"), &env())
}

fn env() -> Env {
    env_at("/pg-t/ws", "/pg-t/home")
}

/// (target, class name)
const TARGETS: [(&str, &str); 5] = [
    ("/pg-t/ws/file", "APPROVED_WORKSPACE"),
    ("/pg-t/sys/lib.so", "SYSTEM_PATH"),
    ("/pg-t/home/notes", "PERSONAL_DATA_PATH"),
    ("/pg-t/home/secret/key", "DENIED_ROOT"),
    ("/pg-t/elsewhere", "EXTERNAL_PATH"),
];

const ANY: &str = "target classified {cls} \u{2014} denied at any risk level";
const NOT_READABLE: &str = "{cls} not readable at {risk}";
const READ: &str = "{cls} read at {risk}";
const OUTSIDE: &str =
    "{cls} outside approved workspace \u{2014} writes/effects only inside workspace";
const GRANTED: &str = "{level} granted at {risk}";
const NEEDS: &str = "{level} requires explicit authorization at {risk}";
const UNKNOWN: &str = "unknown grant \"{grant}\" for {level} (default denial)";
const DENY: &str = "{level} denied by its grant \"deny\" at {risk}";
const DENIED_ROOT: &str =
    "target classified {cls} \u{2014} denied at any risk level (denied root /pg-t/home/secret)";

/// (class, read level?, grant or None for missing, verdict, reason)
#[rustfmt::skip]
const TABLE: &[(&str, bool, Option<&str>, Verdict, &str)] = {
    use Verdict::*;
    &[
        ("APPROVED_WORKSPACE", true,  Some("allow"),      Allowed,   READ),
        ("APPROVED_WORKSPACE", true,  Some("needs_auth"), NeedsAuth, NEEDS),
        ("APPROVED_WORKSPACE", true,  Some("deny"),       Denied,    DENY),   
        ("APPROVED_WORKSPACE", true,  None,               Denied,    UNKNOWN),
        ("APPROVED_WORKSPACE", false, Some("allow"),      Allowed,   GRANTED),
        ("APPROVED_WORKSPACE", false, Some("needs_auth"), NeedsAuth, NEEDS),
        ("APPROVED_WORKSPACE", false, Some("deny"),       Denied,    DENY),   
        ("APPROVED_WORKSPACE", false, None,               Denied,    UNKNOWN),
        ("SYSTEM_PATH",        true,  Some("allow"),      Allowed,   READ),
        ("SYSTEM_PATH",        true,  Some("needs_auth"), NeedsAuth, NEEDS),
        ("SYSTEM_PATH",        true,  Some("deny"),       Denied,    DENY),   
        ("SYSTEM_PATH",        true,  None,               Denied,    UNKNOWN),
        ("SYSTEM_PATH",        false, Some("allow"),      Denied,    OUTSIDE),
        ("SYSTEM_PATH",        false, Some("needs_auth"), Denied,    OUTSIDE),
        ("SYSTEM_PATH",        false, Some("deny"),       Denied,    OUTSIDE),
        ("SYSTEM_PATH",        false, None,               Denied,    OUTSIDE),
        ("PERSONAL_DATA_PATH", true,  Some("allow"),      Denied,    ANY),
        ("PERSONAL_DATA_PATH", true,  Some("needs_auth"), Denied,    ANY),
        ("PERSONAL_DATA_PATH", true,  Some("deny"),       Denied,    ANY),
        ("PERSONAL_DATA_PATH", true,  None,               Denied,    ANY),
        ("PERSONAL_DATA_PATH", false, Some("allow"),      Denied,    ANY),
        ("PERSONAL_DATA_PATH", false, Some("needs_auth"), Denied,    ANY),
        ("PERSONAL_DATA_PATH", false, Some("deny"),       Denied,    ANY),
        ("PERSONAL_DATA_PATH", false, None,               Denied,    ANY),
        ("DENIED_ROOT",        true,  Some("allow"),      Denied,    DENIED_ROOT),
        ("DENIED_ROOT",        true,  Some("needs_auth"), Denied,    DENIED_ROOT),
        ("DENIED_ROOT",        true,  Some("deny"),       Denied,    DENIED_ROOT),
        ("DENIED_ROOT",        true,  None,               Denied,    DENIED_ROOT),
        ("DENIED_ROOT",        false, Some("allow"),      Denied,    DENIED_ROOT),
        ("DENIED_ROOT",        false, Some("needs_auth"), Denied,    DENIED_ROOT),
        ("DENIED_ROOT",        false, Some("deny"),       Denied,    DENIED_ROOT),
        ("DENIED_ROOT",        false, None,               Denied,    DENIED_ROOT),
        ("EXTERNAL_PATH",      true,  Some("allow"),      Denied,    NOT_READABLE),
        ("EXTERNAL_PATH",      true,  Some("needs_auth"), Denied,    NOT_READABLE),
        ("EXTERNAL_PATH",      true,  Some("deny"),       Denied,    NOT_READABLE),
        ("EXTERNAL_PATH",      true,  None,               Denied,    NOT_READABLE),
        ("EXTERNAL_PATH",      false, Some("allow"),      Denied,    OUTSIDE),
        ("EXTERNAL_PATH",      false, Some("needs_auth"), Denied,    OUTSIDE),
        ("EXTERNAL_PATH",      false, Some("deny"),       Denied,    OUTSIDE),
        ("EXTERNAL_PATH",      false, None,               Denied,    OUTSIDE),
    ]
};

fn fill(template: &str, cls: &str, risk: &str, level: &str, grant: Option<&str>) -> String {
    template
        .replace("{cls}", cls)
        .replace("{risk}", risk)
        .replace("{level}", level)
        .replace("{grant}", grant.unwrap_or("undefined"))
}

#[test]
fn every_cell_of_the_verdict_table() {
    assert_eq!(TABLE.len(), 40);
    for &(cls, read, grant, verdict, reason) in TABLE {
        let pol = policy_with_grant(grant);
        let target = TARGETS.iter().find(|t| t.1 == cls).unwrap().0;
        let risks: &[(&str, &str)] = if read {
            &[("RR", "READ_ONLY"), ("RD", "DISCOVERY_ONLY")]
        } else {
            &[("RW", "WORKSPACE_WRITE"), ("RN", "NET_CALL")]
        };
        for &(risk, level) in risks {
            let d = evaluate(&pol, risk, Some(target), &env());
            let cell = format!("{cls} {level} {grant:?}");
            assert_eq!(d.verdict, verdict, "{cell}");
            assert_eq!(d.reason, fill(reason, cls, risk, level, grant), "{cell}");
            assert_eq!(d.risk, risk);
            assert_eq!(d.level.as_deref(), Some(level), "{cell}");
            assert_eq!(d.classification.map(Class::as_str), Some(cls), "{cell}");
        }
    }
}

/// Without a target only the grant decides; the class is reported as
/// APPROVED_WORKSPACE, or null when DENIED (the reference's rule).
#[rustfmt::skip]
#[test]
fn no_target_rows() {
    use Verdict::*;
    let rows: &[(Option<&str>, Verdict, &str, Option<Class>)] = &[
        (Some("allow"),      Allowed,   GRANTED, Some(Class::ApprovedWorkspace)),
        (Some("needs_auth"), NeedsAuth, NEEDS,   Some(Class::ApprovedWorkspace)),
        (Some("deny"),       Denied,    DENY,    None),
        (None,               Denied,    UNKNOWN, None),
    ];
    for &(grant, verdict, reason, class) in rows {
        let pol = policy_with_grant(grant);
        for (risk, level) in [("RR", "READ_ONLY"), ("RD", "DISCOVERY_ONLY"), ("RW", "WORKSPACE_WRITE"), ("RN", "NET_CALL")] {
            let d = evaluate(&pol, risk, None, &env());
            assert_eq!(d.verdict, verdict, "{level} {grant:?}");
            assert_eq!(d.reason, fill(reason, "", risk, level, grant));
            assert_eq!(d.classification, class, "{level} {grant:?}");
            assert_eq!(d.target, None);
        }
    }
}

#[test]
fn unknown_risks_are_denied_with_null_level() {
    let pol = policy_with_grant(Some("allow"));
    for risk in [
        "R9",
        "rr",
        "RR ",
        "constructor",
        "__proto__",
        "toString",
        "hasOwnProperty",
    ] {
        let d = evaluate(&pol, risk, None, &env());
        assert_eq!(d.verdict, Verdict::Denied);
        assert_eq!(
            d.reason,
            format!("unknown risk class \"{risk}\" (default denial)")
        );
        assert_eq!(d.level, None);
        assert_eq!(d.classification, None);
        // With a target the class is still reported.
        let d = evaluate(&pol, risk, Some("/pg-t/home/secret"), &env());
        assert_eq!(d.classification, Some(Class::DeniedRoot));
    }
}

#[test]
fn read_only_deny_denies_workspace_reads() {
    let pol = policy(
        &format!(r#"{{{ROOTS}, "grants": {{"READ_ONLY": "deny", "WORKSPACE_WRITE": "allow"}}}}"#),
        &env(),
    );
    let d = evaluate(&pol, "RR", Some("file"), &env());
    assert_eq!(d.verdict, Verdict::Denied);
    assert_eq!(d.reason, "READ_ONLY denied by its grant \"deny\" at RR");
    assert_eq!(
        evaluate(&pol, "RW", Some("file"), &env()).verdict,
        Verdict::Allowed
    );
}

#[test]
fn decision_json_keeps_the_reference_key_order() {
    let pol = policy_with_grant(Some("needs_auth"));
    let d = evaluate(&pol, "RN", Some("README.md"), &env());
    assert_eq!(
        serde_json::to_string(&d).unwrap(),
        r#"{"verdict":"NEEDS_AUTH","reason":"NET_CALL requires explicit authorization at RN","risk":"RN","level":"NET_CALL","classification":"APPROVED_WORKSPACE"}"#
    );
    let d = evaluate(&pol, "nope", None, &env());
    assert_eq!(
        serde_json::to_string(&d).unwrap(),
        r#"{"verdict":"DENIED","reason":"unknown risk class \"nope\" (default denial)","risk":"nope","level":null,"classification":null}"#
    );
}
