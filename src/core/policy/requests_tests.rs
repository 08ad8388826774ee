use std::path::Path;

use super::*;
use crate::core::policy::evaluate;
use crate::core::policy::test_support::{env_at, policy};

fn default_like(extra: &str) -> Policy {
    policy(
        &format!(
            r#"{{"approved_workspaces": ["."], "personal_data_roots": ["~"],
                 "system_read_only_roots": ["/usr"], "denied_roots": ["~/.ssh"],
                 "grants": {{"READ_ONLY": "allow", "WORKSPACE_WRITE": "allow",
                            "EXTERNAL_EFFECT": "needs_auth", "DESTRUCTIVE": "needs_auth"}},
                 "risk_to_level": {{"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE",
                                   "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE"}}{extra}}}"#
        ),
        &env(),
    )
}

fn env() -> Env {
    env_at("/pg-r/home/u/repo", "/pg-r/home/u")
}

const DIR: &str = "/pg-r/home/u/repo/pkg";

#[test]
fn default_risks_and_names() {
    use RequestKind::*;
    let table = [
        (AllowRead, "allow-read", "R0"),
        (SandboxCopy, "sandbox-copy", "R0"),
        (AllowImportNodeModules, "allow-import-node-modules", "R1"),
        (SandboxCopyRw, "sandbox-copy-rw", "R1"),
        (DiffFile, "diff-file", "R1"),
        (AllowNet, "allow-net", "R2"),
        (AllowImportGithub, "allow-import-github", "R2"),
        (AllowNetPrivate, "allow-net-private", "R3"),
        (AllowFfi, "allow-ffi", "R3"),
        (
            UnsafeFunctionConstructor,
            "unsafe-function-constructor",
            "R3",
        ),
        (UnsafeShadowrealm, "unsafe-shadowrealm", "R3"),
    ];
    assert_eq!(table.len(), RequestKind::ALL.len());
    for (kind, name, risk) in table {
        assert_eq!(kind.name(), name);
        assert_eq!(RequestKind::from_name(name), Some(kind));
        assert_eq!(kind.default_risk(), risk);
        assert_eq!(default_like("").risk_for(kind), risk);
    }
    assert_eq!(RequestKind::from_name("constructor"), None);
}

#[test]
fn targets_per_request() {
    use RequestKind::*;
    let dir = Path::new(DIR);
    let t = |k, s: Option<&str>| Operation::for_request(k, s, dir).target;
    assert_eq!(
        t(AllowRead, Some("../fixtures")),
        Some("/pg-r/home/u/repo/fixtures".into())
    );
    assert_eq!(t(AllowRead, Some("/data/x")), Some("/data/x".into()));
    assert_eq!(t(AllowRead, None), Some("/".into()));
    assert_eq!(t(AllowFfi, None), Some("/".into()));
    assert_eq!(
        t(AllowFfi, Some("/usr/lib/libz.so")),
        Some("/usr/lib/libz.so".into())
    );
    assert_eq!(t(SandboxCopy, Some("src")), Some(format!("{DIR}/src")));
    assert_eq!(t(SandboxCopyRw, Some("out")), Some(format!("{DIR}/out")));
    assert_eq!(
        t(DiffFile, Some("changes.diff")),
        Some(format!("{DIR}/changes.diff"))
    );
    assert_eq!(
        t(AllowImportNodeModules, Some("node_modules")),
        Some(format!("{DIR}/node_modules"))
    );
    assert_eq!(
        t(AllowImportNodeModules, Some("node_modules=..")),
        Some("/pg-r/home/u/repo".into())
    );
    assert_eq!(t(AllowNet, Some("example.com")), None);
    assert_eq!(t(AllowImportGithub, Some("github:o/r")), None);
    assert_eq!(t(UnsafeShadowrealm, None), None);
    assert_eq!(
        RequestKind::for_import_scope("node_modules=vendor"),
        AllowImportNodeModules
    );
    assert_eq!(
        RequestKind::for_import_scope("github:owner"),
        AllowImportGithub
    );
    assert_eq!(RequestKind::for_net_scope(Some("example.com")), AllowNet);
    assert_eq!(RequestKind::for_net_scope(None), AllowNet);
    assert_eq!(RequestKind::for_net_scope(Some("private")), AllowNetPrivate);
    assert_eq!(
        RequestKind::for_net_scope(Some("0.0.0.0/0")),
        AllowNetPrivate
    );
    assert_eq!(
        RequestKind::for_net_scope(Some("[::ffff:127.0.0.1]:80")),
        AllowNetPrivate
    );
    assert!(crate::core::policy::net::reaches_private("10.0.0.0/8"));
    assert!(!crate::core::policy::net::reaches_private(
        "api.example.com"
    ));
}

fn op(kind: RequestKind, scope: Option<&str>) -> Operation {
    Operation::for_request(kind, scope, Path::new(DIR))
}

#[test]
fn the_config_verdict_is_the_worst_and_every_decision_is_kept() {
    use RequestKind::*;
    let pol = default_like("");
    let ops = [
        op(AllowRead, Some("../fixtures")),
        op(AllowImportNodeModules, Some("node_modules")),
    ];
    let d = evaluate_config(&pol, &ops, &env());
    assert_eq!(d.verdict, Verdict::Allowed);
    assert_eq!(d.operations.len(), 2);

    let ops = [
        op(AllowRead, Some("../fixtures")),
        op(AllowNet, Some("example.com")),
    ];
    let d = evaluate_config(&pol, &ops, &env());
    assert_eq!(d.verdict, Verdict::NeedsAuth);
    assert_eq!(
        d.operations[1].decision.reason,
        "EXTERNAL_EFFECT requires explicit authorization at R2"
    );
    // A host is in no path class.
    assert_eq!(d.operations[1].class(), None);

    let ops = [
        op(AllowNet, Some("example.com")),
        op(AllowRead, Some("/pg-r/home/u/.ssh")),
    ];
    let d = evaluate_config(&pol, &ops, &env());
    assert_eq!(d.verdict, Verdict::Denied);
    let read = &d.operations[1];
    assert_eq!(read.class(), Some(Class::DeniedRoot));
    assert_eq!(
        read.decision.target.as_ref().unwrap().lexical,
        "/pg-r/home/u/.ssh"
    );

    assert_eq!(evaluate_config(&pol, &[], &env()).verdict, Verdict::Allowed);
}

#[test]
fn unscoped_path_grants_are_judged_on_the_root() {
    let pol = default_like("");
    // `allow-read: true` reaches ~/.ssh too: never auto-trusted.
    let d = evaluate_config(&pol, &[op(RequestKind::AllowRead, None)], &env());
    assert_eq!(d.verdict, Verdict::Denied);
    assert_eq!(
        d.operations[0].decision.reason,
        "EXTERNAL_PATH not readable at R0"
    );
    // Even an operation built without a target is never target-less.
    let bare = Operation {
        kind: RequestKind::AllowFfi,
        scope: None,
        target: None,
    };
    let d = evaluate_config(&pol, &[bare], &env());
    assert_eq!(d.operations[0].class(), Some(Class::ExternalPath));
}

#[test]
fn private_net_is_r3_and_workspace_imports_are_r1() {
    let pol = default_like("");
    let d = evaluate_config(
        &pol,
        &[op(
            RequestKind::for_net_scope(Some("192.168.0.0/16")),
            Some("192.168.0.0/16"),
        )],
        &env(),
    );
    assert_eq!(d.operations[0].decision.risk, "R3");
    assert_eq!(
        d.operations[0].decision.reason,
        "DESTRUCTIVE requires explicit authorization at R3"
    );
    // node_modules outside the workspace is not auto-trusted.
    let d = evaluate_config(
        &pol,
        &[op(
            RequestKind::AllowImportNodeModules,
            Some("node_modules=/opt/x"),
        )],
        &env(),
    );
    assert_eq!(d.verdict, Verdict::Denied);
}

#[test]
fn the_policy_can_remap_request_kinds() {
    let pol = default_like(r#", "requests": {"allow-net": "R0", "allow-read": "R9"}"#);
    let d = evaluate_config(
        &pol,
        &[op(RequestKind::AllowNet, Some("example.com"))],
        &env(),
    );
    assert_eq!(d.verdict, Verdict::Allowed);
    assert_eq!(d.operations[0].decision.reason, "READ_ONLY granted at R0");
    let d = evaluate_config(&pol, &[op(RequestKind::AllowRead, Some("."))], &env());
    assert_eq!(d.verdict, Verdict::Denied);
    assert_eq!(
        d.operations[0].decision.reason,
        "unknown risk class \"R9\" (default denial)"
    );
}

#[test]
fn a_path_request_covering_a_denied_root_is_denied() {
    // The denied root sits inside the approved workspace, as a store or a
    // state directory kept in the checkout does.
    let pol = policy(
        r#"{"approved_workspaces": ["."], "denied_roots": ["./.state"],
            "grants": {"READ_ONLY": "allow", "WORKSPACE_WRITE": "allow"},
            "risk_to_level": {"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE"}}"#,
        &env(),
    );
    let d = evaluate_config(
        &pol,
        &[
            op(RequestKind::SandboxCopyRw, Some("/pg-r/home/u/repo")),
            op(RequestKind::AllowRead, Some("/pg-r/home/u/repo/src")),
        ],
        &env(),
    );
    assert_eq!(d.verdict, Verdict::Denied);
    let first = &d.operations[0].decision;
    assert_eq!(first.classification, Some(Class::DeniedRoot));
    assert_eq!(
        first.reason,
        "target contains the denied root ./.state — denied at any risk level"
    );
    // A sibling of the denied root is still allowed.
    assert_eq!(d.operations[1].decision.verdict, Verdict::Allowed);
    // `policy evaluate` keeps the reference's rule: the workspace itself is
    // approved.
    let e = evaluate(&pol, "R1", Some("/pg-r/home/u/repo"), &env());
    assert_eq!(e.verdict, Verdict::Allowed);
}

#[test]
fn a_host_value_whose_reach_cannot_be_told_is_never_allowed() {
    // Every host at R0; a value GocciaScript would refuse (only an
    // operation built by hand can hold one) is left to a person.
    let p = default_like(r#", "rules": {"allow-net": {"*": "R0"}}"#);
    let d = evaluate_operation(&p, &op(RequestKind::AllowNet, Some("a:b:c")), &env());
    assert_eq!(d.verdict, Verdict::NeedsAuth);
    assert_eq!(
        d.reason,
        "cannot tell what allow-net value \"a:b:c\" reaches; a person decides (EXTERNAL_EFFECT requires explicit authorization at R2)"
    );
    assert_eq!(d.reach, None);
    let d = evaluate_operation(&p, &op(RequestKind::AllowNet, Some("ok.example")), &env());
    assert_eq!(d.verdict, Verdict::Allowed);
}

#[test]
fn unscoped_net_meets_name_and_public_denies_but_not_private_ones() {
    let p = default_like(
        r#", "rules": {"allow-net": {"*": "R0", "169.254.169.254": "deny"},
                        "allow-net-private": {"10.0.0.0/8": "deny", "::1": "deny"}}"#,
    );
    let d = evaluate_operation(&p, &op(RequestKind::AllowNet, None), &env());
    assert_eq!(d.verdict, Verdict::Allowed, "{d:?}");
    assert_eq!(
        d.reach.as_deref(),
        Some(&["*".to_string(), "every public address".to_string()][..])
    );
    // Whether GocciaScript counts "this network" 0.0.0.0/8 as private is
    // not documented: unscoped is taken to reach it.
    let p = default_like(
        r#", "rules": {"allow-net": {"*": "R0"}, "allow-net-private": {"private": "deny"}}"#,
    );
    let d = evaluate_operation(&p, &op(RequestKind::AllowNet, None), &env());
    assert_eq!(
        d.reason,
        "reaches 0.0.0.0/8, denied by rule allow-net-private \"private\" -> deny"
    );
    let p = default_like(r#", "rules": {"allow-net": {"*": "R0", "8.8.8.0/24": "deny"}}"#);
    let d = evaluate_operation(&p, &op(RequestKind::AllowNet, None), &env());
    assert_eq!(d.verdict, Verdict::Denied);
    assert_eq!(
        d.reason,
        "reaches 8.8.8.0/24, denied by rule allow-net \"8.8.8.0/24\" -> deny"
    );
}
