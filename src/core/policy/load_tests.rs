use super::*;
use crate::core::policy::test_support::env_at;

const MINIMAL: &str = r#"{"grants": {}, "risk_to_level": {}}"#;

fn parse(text: &str) -> Result<Policy, PolicyError> {
    parse_policy(
        text.as_bytes(),
        PolicySource::File("/p/policy.json".into()),
        &env_at("/cwd", "/home/u"),
        &["/cwd".to_string()],
        Path::new(""),
    )
}

fn ctx<'a>(env: &'a Env, anchors: &'a [String], store: &'a Path) -> LoadContext<'a> {
    LoadContext {
        env,
        anchors,
        store_dir: store,
        state_dir: None,
    }
}

fn error(text: &str) -> String {
    parse(text).map(|_| ()).unwrap_err().to_string()
}

#[test]
fn a_missing_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let env = env_at(&dir.path().display().to_string(), "/home/u");
    let e = load_policy(
        Some("nope.json"),
        &ctx(&env, std::slice::from_ref(&env.cwd), Path::new("")),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("policy not found: {}/nope.json", dir.path().display())
    );
}

#[test]
fn a_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let env = env_at("/", "/home/u");
    let e = load_policy(
        Some(&dir.path().display().to_string()),
        &ctx(&env, &["/".to_string()], Path::new("")),
    );
    assert!(
        matches!(
            e,
            Err(PolicyError::NotRegular {
                kind: "a directory",
                ..
            })
        ),
        "{e:?}"
    );
}

#[test]
fn every_load_error_names_the_file_and_the_problem() {
    let cases: &[(&str, &str)] = &[
        ("", "policy invalid JSON: /p/policy.json (Empty JSON input"),
        ("{\"grants\": {},}", "policy invalid JSON: /p/policy.json ("),
        (
            "\u{feff}{\"grants\": {}, \"risk_to_level\": {}}",
            "policy invalid JSON: /p/policy.json (starts with a UTF-8 byte order mark)",
        ),
        (
            "null",
            "policy invalid: /p/policy.json (the top level must be an object)",
        ),
        (
            "[]",
            "policy invalid: /p/policy.json (the top level must be an object)",
        ),
        (
            r#"{"risk_to_level": {}}"#,
            "policy missing grants: /p/policy.json",
        ),
        (
            r#"{"grants": {}}"#,
            "policy missing risk_to_level: /p/policy.json",
        ),
        (
            r#"{"grants": null, "risk_to_level": {}}"#,
            "policy invalid: /p/policy.json (grants must be an object of strings)",
        ),
        (
            r#"{"grants": [], "risk_to_level": {}}"#,
            "policy invalid: /p/policy.json (grants must be an object of strings)",
        ),
        (
            r#"{"grants": {}, "risk_to_level": "R0"}"#,
            "policy invalid: /p/policy.json (risk_to_level must be an object of strings)",
        ),
        (
            r#"{"grants": {}, "risk_to_level": {"R0": ""}}"#,
            "policy invalid: /p/policy.json (risk_to_level.\"R0\" must be a non-empty string)",
        ),
        (
            r#"{"grants": {"READ_ONLY": "Allow"}, "risk_to_level": {}}"#,
            "policy invalid: /p/policy.json (grant \"Allow\" for READ_ONLY must be allow, needs_auth or deny)",
        ),
        (
            r#"{"grants": {"READ_ONLY": "needs-auth"}, "risk_to_level": {}}"#,
            "policy invalid: /p/policy.json (grant \"needs-auth\" for READ_ONLY must be allow, needs_auth or deny)",
        ),
        (
            r#"{"grants": {"READ_ONLY": true}, "risk_to_level": {}}"#,
            "policy invalid: /p/policy.json (grants.\"READ_ONLY\" must be a non-empty string)",
        ),
        (
            r#"{"grants": {}, "risk_to_level": {}, "approved_workspaces": "."}"#,
            "policy invalid: /p/policy.json (approved_workspaces must be an array of non-empty strings)",
        ),
        (
            r#"{"grants": {}, "risk_to_level": {}, "denied_roots": [""]}"#,
            "policy invalid: /p/policy.json (denied_roots must be an array of non-empty strings)",
        ),
        (
            r#"{"grants": {}, "risk_to_level": {}, "personal_data_roots": [5]}"#,
            "policy invalid: /p/policy.json (personal_data_roots must be an array of non-empty strings)",
        ),
        (
            r#"{"grants": {}, "risk_to_level": {}, "system_read_only_roots": [null]}"#,
            "policy invalid: /p/policy.json (system_read_only_roots must be an array of non-empty strings)",
        ),
        (
            r#"{"grants": {}, "risk_to_level": {}, "personal_data_roots": ["C:\\Users"]}"#,
            "policy invalid: /p/policy.json (root \"C:\\\\Users\" is a Windows path; this platform needs POSIX roots)",
        ),
        (
            r#"{"grants": {}, "risk_to_level": {}, "extra": 1}"#,
            "policy invalid: /p/policy.json (unknown key \"extra\" (known keys: schema_version, approved_workspaces, system_read_only_roots, personal_data_roots, denied_roots, grants, risk_to_level, requests, rules))",
        ),
        (
            r#"{"grants": {}, "grants": {}, "risk_to_level": {}}"#,
            "policy invalid: /p/policy.json (duplicate key \"grants\")",
        ),
        (
            r#"{"grants": {"READ_ONLY": "deny", "READ_ONLY": "allow"}, "risk_to_level": {}}"#,
            "policy invalid: /p/policy.json (duplicate key \"READ_ONLY\")",
        ),
        (
            r#"{"grants": {}, "risk_to_level": {}, "requests": {"allow-reed": "R0"}}"#,
            "policy invalid: /p/policy.json (requests: unknown request kind \"allow-reed\" (known: allow-read, ",
        ),
        (
            r#"{"grants": {}, "risk_to_level": {}, "requests": {"allow-read": 0}}"#,
            "policy invalid: /p/policy.json (requests.\"allow-read\" must be a non-empty string)",
        ),
    ];
    for (text, want) in cases {
        let got = error(text);
        assert!(got.starts_with(want), "{text}\n got: {got}\nwant: {want}");
    }
}

#[test]
fn a_home_root_needs_an_absolute_home() {
    let e = parse_policy(
        br#"{"grants": {}, "risk_to_level": {}, "personal_data_roots": ["~"]}"#,
        PolicySource::Default("t"),
        &env_at("/cwd", ""),
        &["/cwd".to_string()],
        Path::new(""),
    )
    .unwrap_err();
    assert!(e.to_string().contains("needs $HOME"), "{e}");
}

#[test]
fn roots_expand_home_and_the_working_directory() {
    let pol = parse(
        r#"{"grants": {"READ_ONLY": "allow"}, "risk_to_level": {"R0": "READ_ONLY"},
            "approved_workspaces": [".", "sub/../x"], "personal_data_roots": ["~", "~/docs/", "~user"]}"#,
    )
    .unwrap();
    let lex = |r: &[Root]| r.iter().map(|r| r.lexical.clone()).collect::<Vec<_>>();
    assert_eq!(lex(&pol.approved_workspaces), ["/cwd", "/cwd/x"]);
    assert_eq!(
        lex(&pol.personal_data_roots),
        ["/home/u", "/home/u/docs", "/cwd/~user"]
    );
    assert_eq!(pol.grants.get("READ_ONLY"), Some(&Grant::Allow));
    assert_eq!(
        pol.risk_to_level.get("R0").map(String::as_str),
        Some("READ_ONLY")
    );
}

#[test]
fn the_store_directory_is_always_denied_and_shown() {
    let env = env_at("/cwd", "/home/u");
    let pol = parse_policy(
        MINIMAL.as_bytes(),
        PolicySource::Default("t"),
        &env,
        &[],
        Path::new("/st/goccia"),
    )
    .unwrap();
    assert_eq!(pol.denied_roots.len(), 1);
    assert_eq!(pol.denied_roots[0].lexical, "/st/goccia");
    assert_eq!(
        pol.to_json(false),
        r#"{"grants":{},"risk_to_level":{},"denied_roots":["/st/goccia"]}"#
    );
}

#[test]
fn the_default_policy_loads_and_prints_in_document_order() {
    let env = env_at("/home/u/repo", "/home/u");
    let anchors = ["/home/u/repo".to_string()];
    let pol = load_policy(
        None,
        &ctx(&env, &anchors, Path::new("/home/u/.config/goccia")),
    )
    .unwrap();
    assert!(matches!(pol.source, PolicySource::Default(_)));
    let shown = pol.to_json(true);
    assert!(
        shown.starts_with("{\n  \"approved_workspaces\": [\n    \".\"\n  ],\n"),
        "{shown}"
    );
    // `~/.config/goccia` is the store directory here: listed once.
    assert_eq!(shown.matches(".config/goccia").count(), 1, "{shown}");
    assert!(pol.denied_roots.iter().any(|r| r.lexical == "/home/u/.ssh"));
    assert_eq!(pol.risk_for(RequestKind::AllowNet), "R2");
    let reparsed: serde_json::Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(reparsed["grants"]["EXTERNAL_EFFECT"], "needs_auth");
}

#[test]
fn the_policy_hash_is_of_the_file_bytes() {
    let pol = parse(MINIMAL).unwrap();
    assert_eq!(
        pol.sha256,
        crate::core::config::block::sha256_hex(MINIMAL.as_bytes())
    );
}

#[test]
fn a_schema_version_string_is_accepted_and_nothing_else_there() {
    let pol = parse(r#"{"schema_version": "1.0", "grants": {}, "risk_to_level": {}}"#).unwrap();
    assert_eq!(
        pol.to_json(false),
        r#"{"schema_version":"1.0","grants":{},"risk_to_level":{}}"#
    );
    assert_eq!(
        error(r#"{"schema_version": 1, "grants": {}, "risk_to_level": {}}"#),
        "policy invalid: /p/policy.json (schema_version must be a string)"
    );
}

fn load_with(
    json: &str,
    anchors: &[&str],
    store: &str,
    state: Option<&str>,
) -> Result<Policy, PolicyError> {
    let env = env_at("/pg-b/cwd", "/pg-b/home/u");
    let anchors: Vec<String> = anchors.iter().map(|a| a.to_string()).collect();
    let state = state.map(Path::new);
    let ctx = LoadContext {
        env: &env,
        anchors: &anchors,
        store_dir: Path::new(store),
        state_dir: state,
    };
    let pol = parse_policy(
        json.as_bytes(),
        PolicySource::File("/pg-b/p.json".into()),
        &env,
        &anchors,
        Path::new(store),
    )?;
    pol.check_breadth(&ctx)?;
    Ok(pol)
}

#[test]
fn relative_roots_stand_for_one_root_per_anchor() {
    let pol = load_with(
        r#"{"grants": {}, "risk_to_level": {}, "approved_workspaces": ["."],
            "denied_roots": ["secrets", "~/.ssh"]}"#,
        &["/pg-b/r1", "/pg-b/r2"],
        "",
        None,
    )
    .unwrap();
    let lex = |r: &[Root]| r.iter().map(|r| r.lexical.clone()).collect::<Vec<_>>();
    assert_eq!(lex(&pol.approved_workspaces), ["/pg-b/r1", "/pg-b/r2"]);
    // A relative denied root inside the workspace is a carve-out, not a
    // conflict.
    assert_eq!(
        lex(&pol.denied_roots),
        ["/pg-b/r1/secrets", "/pg-b/r2/secrets", "/pg-b/home/u/.ssh"]
    );
    assert_eq!(pol.anchors, ["/pg-b/r1", "/pg-b/r2"]);
}

#[test]
fn a_workspace_covering_what_the_policy_protects_is_refused() {
    let base = r#""grants": {}, "risk_to_level": {}, "personal_data_roots": ["~", "/pg-b/data"],
        "system_read_only_roots": ["/pg-b/usr"], "denied_roots": ["/pg-b/secret/keys"]"#;
    let cases: &[(&str, &str, &str)] = &[
        ("/", "/", "the filesystem root, which covers every path)"),
        (
            "/pg-b/home/u",
            "/pg-b/home/u",
            "which covers $HOME (/pg-b/home/u); an approved workspace outranks personal data and system roots)",
        ),
        (
            "/pg-b/home",
            "/pg-b/home",
            "which covers $HOME (/pg-b/home/u); an approved workspace outranks personal data and system roots)",
        ),
        (
            "/pg-b",
            "/pg-b",
            "which covers $HOME (/pg-b/home/u); an approved workspace outranks personal data and system roots)",
        ),
        (
            "/pg-b/data/..",
            "/pg-b",
            "which covers $HOME (/pg-b/home/u); an approved workspace outranks personal data and system roots)",
        ),
        (
            "/pg-b/data",
            "/pg-b/data",
            "which covers the personal data root /pg-b/data; an approved workspace outranks a personal data root)",
        ),
        (
            "/pg-b/usr",
            "/pg-b/usr",
            "which covers the system root /pg-b/usr; an approved workspace outranks a system root)",
        ),
        (
            "/pg-b/st",
            "/pg-b/st",
            "which covers the trust store directory /pg-b/st/goccia; denied roots outrank an approved workspace, but a workspace must not hold what decides trust)",
        ),
        (
            "/pg-b/var",
            "/pg-b/var",
            "which covers the decision records' directory /pg-b/var/state; denied roots outrank an approved workspace, but a workspace must not hold what decides trust)",
        ),
        (".", "/", "the filesystem root, which covers every path)"),
    ];
    for (ws, resolved, why) in cases {
        let json = format!(r#"{{{base}, "approved_workspaces": ["{ws}"]}}"#);
        let anchors: &[&str] = if *ws == "." { &["/"] } else { &["/pg-b/repo"] };
        let e = load_with(&json, anchors, "/pg-b/st/goccia", Some("/pg-b/var/state"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "policy too broad: /pg-b/p.json (approved workspace \"{ws}\" resolves to {resolved}, {why}"
            )),
            "{ws}: {e}"
        );
    }
    // Inside home, beside the protected roots: fine. So is a workspace
    // around a denied root, in any spelling: denied roots outrank it.
    let json = format!(
        r#"{{{base}, "approved_workspaces": [".", "/pg-b/usr/share/x", "/pg-b/secret",
            "/pg-b/secret/keys", "/pg-b/x/../secret/keys/.."]}}"#
    );
    load_with(
        &json,
        &["/pg-b/home/u/src/repo"],
        "/pg-b/st/goccia",
        Some("/pg-b/var/state"),
    )
    .unwrap();
}
