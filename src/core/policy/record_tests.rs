use super::*;
use crate::core::policy::requests::{Operation, RequestKind, evaluate_config};
use crate::core::policy::test_support::{env_at, policy};

fn env_with(xdg: &str, home: &str) -> Env {
    Env {
        xdg_state_home: xdg.into(),
        ..env_at("/cwd", home)
    }
}

#[test]
fn state_dir_precedence() {
    let env = env_with("/xdg", "/home/u");
    let p = |flag, var: Option<&str>, env: &Env| {
        let env = Env {
            state_dir: var.unwrap_or_default().into(),
            ..env.clone()
        };
        state_dir(flag, &env).unwrap()
    };
    assert_eq!(p(Some("st"), Some("/v"), &env), PathBuf::from("/cwd/st"));
    assert_eq!(p(Some(""), Some("/v"), &env), PathBuf::from("/v"));
    assert_eq!(p(None, Some("rel"), &env), PathBuf::from("/cwd/rel"));
    assert_eq!(p(None, Some(""), &env), PathBuf::from("/xdg/goccia-trust"));
    assert_eq!(
        p(None, None, &env_with("relative", "/home/u")),
        PathBuf::from("/home/u/.local/state/goccia-trust")
    );
    assert!(matches!(
        state_dir(None, &env_with("", "")),
        Err(RecordError::NoStateDir)
    ));
}

#[derive(Serialize)]
struct Body {
    op: &'static str,
    verdict: Verdict,
}

#[test]
fn records_are_pretty_named_and_enforced() {
    let dir = tempfile::tempdir().unwrap();
    let h = write_record(
        dir.path(),
        &Body {
            op: "read",
            verdict: Verdict::Denied,
        },
    )
    .unwrap();
    let name = h.path.file_name().unwrap().to_str().unwrap().to_string();
    assert_eq!(h.path.parent().unwrap(), dir.path().join("decisions"));
    // <YYYY-MM-DDTHH-MM-SS-mmmZ>-<pid>-<6 base36>.json
    let (stamp, rest) = name.split_at(24);
    assert!(
        stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T',
        "{name}"
    );
    let rest = rest.strip_suffix(".json").unwrap();
    let (pid, rand) = rest[1..].split_once('-').unwrap();
    assert_eq!(pid, std::process::id().to_string());
    assert_eq!(rand.len(), 6);
    assert!(
        rand.bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
    );
    let text = std::fs::read_to_string(&h.path).unwrap();
    assert_eq!(
        text,
        format!(
            "{{\n  \"id\": \"{}\",\n  \"enforced_before_execution\": true,\n  \"op\": \"read\",\n  \"verdict\": \"DENIED\"\n}}\n",
            h.id
        )
    );
    // Two records never share a file.
    let h2 = write_record(
        dir.path(),
        &Body {
            op: "read",
            verdict: Verdict::Allowed,
        },
    )
    .unwrap();
    assert_ne!(h.path, h2.path);
    h2.update(&Body {
        op: "spawn",
        verdict: Verdict::Allowed,
    })
    .unwrap();
    assert!(
        std::fs::read_to_string(&h2.path)
            .unwrap()
            .contains("\"spawn\"")
    );
    // No temporary file is left behind.
    assert_eq!(
        std::fs::read_dir(dir.path().join("decisions"))
            .unwrap()
            .count(),
        2
    );
}

#[test]
fn a_record_that_cannot_be_written_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("state");
    std::fs::write(&file, "not a directory").unwrap();
    let e = write_record(
        &file,
        &Body {
            op: "read",
            verdict: Verdict::Denied,
        },
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("cannot write decision record in "),
        "{e}"
    );
}

#[test]
fn config_records_carry_hashes_and_every_request() {
    let dir = tempfile::tempdir().unwrap();
    let env = env_at("/pg-rec/repo", "/pg-rec/home");
    let pol = policy(
        r#"{"approved_workspaces": ["."], "denied_roots": ["~/.ssh"],
            "grants": {"READ_ONLY": "allow", "EXTERNAL_EFFECT": "needs_auth"},
            "risk_to_level": {"R0": "READ_ONLY", "R2": "EXTERNAL_EFFECT"}}"#,
        &env,
    );
    let ops = [
        Operation::for_request(
            RequestKind::AllowRead,
            Some("data"),
            Path::new("/pg-rec/repo"),
        ),
        Operation::for_request(
            RequestKind::AllowNet,
            Some("example.com"),
            Path::new("/pg-rec/repo"),
        ),
        Operation::for_request(
            RequestKind::AllowRead,
            Some("/pg-rec/home/.ssh"),
            Path::new("/pg-rec/repo"),
        ),
    ];
    let decision = evaluate_config(&pol, &ops, &env);
    let path = record_config_decision(
        dir.path(),
        "/pg-rec/repo/goccia.json",
        "abc123",
        &pol,
        &decision,
    )
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.ends_with("}\n"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["enforced_before_execution"], true);
    assert_eq!(v["op"], "config-trust");
    assert_eq!(v["config_key"], "/pg-rec/repo/goccia.json");
    assert_eq!(v["block_sha256"], "abc123");
    assert_eq!(v["policy_sha256"], pol.sha256.as_str());
    assert_eq!(v["verdict"], "DENIED");
    assert_eq!(v["risk"], "R0");
    assert_eq!(
        v["reason"],
        "allow-read: target classified DENIED_ROOT \u{2014} denied at any risk level (denied root ~/.ssh)"
    );
    assert_eq!(v["executed"], false);
    let reqs = v["requests"].as_array().unwrap();
    assert_eq!(reqs.len(), 3);
    assert_eq!(reqs[0]["kind"], "allow-read");
    assert_eq!(reqs[0]["scope"], "data");
    assert_eq!(reqs[0]["verdict"], "ALLOWED");
    assert_eq!(reqs[0]["resolved_target"]["lexical"], "/pg-rec/repo/data");
    assert_eq!(reqs[1]["verdict"], "NEEDS_AUTH");
    assert_eq!(reqs[1]["target"], serde_json::Value::Null);
    assert_eq!(reqs[2]["classification"], "DENIED_ROOT");
    // Key order: id first, then the enforcement flag.
    assert!(text.starts_with("{\n  \"id\": "));
}
