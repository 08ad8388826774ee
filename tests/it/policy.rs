//! `goccia-trust policy ...` end to end, in a fixed environment: a temp
//! HOME, a temp workspace as the working directory, a temp state dir.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

struct Env {
    _dir: tempfile::TempDir,
    home: PathBuf,
    ws: PathBuf,
    state: PathBuf,
}

fn setup() -> Env {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let (home, ws, state) = (root.join("home"), root.join("ws"), root.join("state"));
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "secret").unwrap();
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("README.md"), "héllo\n").unwrap();
    Env {
        _dir: dir,
        home,
        ws,
        state,
    }
}

impl Env {
    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::cargo_bin("goccia-trust").unwrap();
        c.env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("GOCCIA_TRUST_STATE_DIR", &self.state)
            .current_dir(&self.ws)
            .arg("policy")
            .args(args);
        c
    }

    /// (exit code, stdout, stderr)
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.cmd(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    fn records(&self) -> Vec<serde_json::Value> {
        let Ok(rd) = std::fs::read_dir(self.state.join("decisions")) else {
            return Vec::new();
        };
        let mut paths: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
        paths.sort();
        paths
            .iter()
            .map(|p| {
                let text = std::fs::read_to_string(p).unwrap();
                assert!(text.ends_with("}\n"));
                serde_json::from_str(&text).unwrap()
            })
            .collect()
    }

    fn write(&self, name: &str, text: &str) -> String {
        std::fs::write(self.ws.join(name), text).unwrap();
        name.to_string()
    }
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

#[test]
fn evaluate_prints_the_reference_object() {
    let e = setup();
    let (code, out, _) = e.run(&["evaluate", "--risk", "R2", "--target", "README.md"]);
    assert_eq!(code, 4);
    assert_eq!(
        out,
        "{\"verdict\":\"NEEDS_AUTH\",\"reason\":\"EXTERNAL_EFFECT requires explicit authorization at R2\",\"risk\":\"R2\",\"level\":\"EXTERNAL_EFFECT\",\"classification\":\"APPROVED_WORKSPACE\"}\n"
    );
    let (code, out, _) = e.run(&[
        "evaluate",
        "--risk",
        "R0",
        "--target",
        "README.md",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\n  \"verdict\": \"ALLOWED\",\n  \"reason\": \"APPROVED_WORKSPACE read at R0\",\n  \"risk\": \"R0\",\n  \"level\": \"READ_ONLY\",\n  \"classification\": \"APPROVED_WORKSPACE\"\n}\n"
    );
    let (code, out, _) = e.run(&["evaluate", "--risk", "R9"]);
    assert_eq!(code, 3);
    assert_eq!(
        out,
        "{\"verdict\":\"DENIED\",\"reason\":\"unknown risk class \\\"R9\\\" (default denial)\",\"risk\":\"R9\",\"level\":null,\"classification\":null}\n"
    );
    // (/etc/hosts: the shipped default narrows /etc to what programs read.)
    let (code, out, _) = e.run(&["evaluate", "--risk", "R1", "--target", "/etc/hosts"]);
    assert_eq!(code, 3);
    assert_eq!(
        json(&out)["reason"],
        "SYSTEM_PATH outside approved workspace \u{2014} writes/effects only inside workspace"
    );
    let (code, out, _) = e.run(&["evaluate", "--risk", "R0", "--target", "/etc/hosts"]);
    assert_eq!(
        (code, json(&out)["classification"].clone()),
        (0, "SYSTEM_PATH".into())
    );
    // evaluate records nothing
    assert!(e.records().is_empty());
}

#[test]
fn a_workspace_link_to_ssh_is_denied() {
    let e = setup();
    symlink(e.home.join(".ssh"), e.ws.join("vendor")).unwrap();
    let (code, out, _) = e.run(&["evaluate", "--risk", "R0", "--target", "./vendor"]);
    assert_eq!(code, 3);
    assert_eq!(json(&out)["classification"], "DENIED_ROOT");
    let (code, out, _) = e.run(&[
        "run",
        "--risk",
        "R0",
        "--op",
        "read",
        "--target",
        "vendor/id_rsa",
    ]);
    assert_eq!(code, 3);
    let v = json(&out);
    assert_eq!(v["executed"], false);
    assert!(v.get("bytes").is_none());
}

#[test]
fn read_only_deny_denies_reads() {
    let e = setup();
    let p = e.write(
        "p.json",
        r#"{"approved_workspaces": ["."], "grants": {"READ_ONLY": "deny"}, "risk_to_level": {"R0": "READ_ONLY"}}"#,
    );
    let (code, out, _) = e.run(&[
        "evaluate",
        "--risk",
        "R0",
        "--target",
        "README.md",
        "--policy",
        &p,
    ]);
    assert_eq!(code, 3);
    assert_eq!(
        json(&out)["reason"],
        "READ_ONLY denied by its grant \"deny\" at R0"
    );
}

#[test]
fn policy_errors_exit_2_naming_the_file() {
    let e = setup();
    let ws = e.ws.display().to_string();
    let cases: &[(&str, &[u8], &str)] = &[
        (
            "bom.json",
            b"\xEF\xBB\xBF{\"grants\":{},\"risk_to_level\":{}}",
            "policy invalid JSON: WS/bom.json (starts with a UTF-8 byte order mark)",
        ),
        ("bad.json", b"{", "policy invalid JSON: WS/bad.json ("),
        (
            "nog.json",
            b"{\"risk_to_level\":{}}",
            "policy missing grants: WS/nog.json",
        ),
        (
            "nor.json",
            b"{\"grants\":{}}",
            "policy missing risk_to_level: WS/nor.json",
        ),
        (
            "dup.json",
            b"{\"grants\":{},\"grants\":{},\"risk_to_level\":{}}",
            "policy invalid: WS/dup.json (duplicate key \"grants\")",
        ),
        (
            "key.json",
            b"{\"grants\":{},\"risk_to_level\":{},\"x\":1}",
            "policy invalid: WS/key.json (unknown key \"x\"",
        ),
        (
            "root.json",
            b"{\"grants\":{},\"risk_to_level\":{},\"denied_roots\":\"/x\"}",
            "policy invalid: WS/root.json (denied_roots must be an array of non-empty strings)",
        ),
        (
            "empty.json",
            b"{\"grants\":{},\"risk_to_level\":{},\"denied_roots\":[\"\"]}",
            "policy invalid: WS/empty.json (denied_roots must be an array of non-empty strings)",
        ),
        (
            "grant.json",
            b"{\"grants\":{\"R\":\"yes\"},\"risk_to_level\":{}}",
            "policy invalid: WS/grant.json (grant \"yes\" for R must be allow, needs_auth or deny)",
        ),
    ];
    for (name, bytes, want) in cases {
        std::fs::write(e.ws.join(name), bytes).unwrap();
        let want = want.replace("WS", &ws);
        for verb in [&["evaluate", "--risk", "R0"][..], &["show"][..]] {
            let mut args = verb.to_vec();
            args.extend(["--policy", name]);
            let (code, out, err) = e.run(&args);
            assert_eq!(code, 2, "{name}");
            assert!(out.is_empty(), "{name}: {out}");
            assert!(err.starts_with(&format!("Error: {want}")), "{name}: {err}");
            args.push("--json");
            let (code, out, _) = e.run(&args);
            assert_eq!(code, 2);
            assert!(
                json(&out)["error"].as_str().unwrap().starts_with(&want),
                "{out}"
            );
        }
    }
    let (code, out, err) = e.run(&[
        "evaluate",
        "--risk",
        "R0",
        "--policy",
        "missing.json",
        "--json",
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        out,
        format!("{{\"error\":\"policy not found: {ws}/missing.json\"}}\n")
    );
    assert_eq!(err, format!("Error: policy not found: {ws}/missing.json\n"));
}

#[test]
fn show_prints_the_policy_in_force() {
    let e = setup();
    let (code, out, _) = e.run(&["show", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["approved_workspaces"], serde_json::json!(["."]));
    assert_eq!(v["personal_data_roots"], serde_json::json!(["~"]));
    assert!(
        v["denied_roots"]
            .as_array()
            .unwrap()
            .contains(&"~/.ssh".into())
    );
    assert!(
        v["system_read_only_roots"]
            .as_array()
            .unwrap()
            .contains(&"/usr".into())
    );
    assert_eq!(v["grants"]["READ_ONLY"], "allow");
    let (_, compact, _) = e.run(&["show"]);
    assert_eq!(compact.lines().count(), 1);
    assert!(compact.starts_with("{\"approved_workspaces\":"));
}

#[test]
fn run_read_records_bytes_and_hash() {
    let e = setup();
    let (code, out, _) = e.run(&[
        "run",
        "--risk",
        "R0",
        "--op",
        "read",
        "--target",
        "README.md",
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["executed"], true);
    assert_eq!(v["bytes"], 7);
    let want_sha = v["content_sha256"].as_str().unwrap().to_string();
    assert_eq!(want_sha.len(), 64);
    let recs = e.records();
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(
        v["record"],
        e.state
            .join("decisions")
            .join(format!("{}.json", r["id"].as_str().unwrap()))
            .display()
            .to_string()
    );
    assert_eq!(r["enforced_before_execution"], true);
    assert_eq!(r["op"], "read");
    assert_eq!(r["risk"], "R0");
    assert_eq!(r["verdict"], "ALLOWED");
    assert_eq!(r["reason"], "APPROVED_WORKSPACE read at R0");
    assert_eq!(r["target"], "README.md");
    assert_eq!(r["executed"], true);
    assert_eq!(r["bytes"], 7);
    assert_eq!(r["content_sha256"], want_sha.as_str());
    assert!(
        r["policy"]
            .as_str()
            .unwrap()
            .starts_with("<built-in default-")
    );

    // Not allowed: recorded, not executed.
    let (code, out, _) = e.run(&[
        "run",
        "--risk",
        "R2",
        "--op",
        "read",
        "--target",
        "README.md",
    ]);
    assert_eq!(code, 4);
    let v = json(&out);
    assert_eq!(v["verdict"], "NEEDS_AUTH");
    assert_eq!(v["executed"], false);
    let recs = e.records();
    assert_eq!(recs.len(), 2);
    assert!(recs.iter().any(|r| r["verdict"] == "NEEDS_AUTH"
        && r["executed"] == false
        && r.get("bytes").is_none()));
}

#[test]
fn run_read_failure_exits_1_and_is_recorded() {
    let e = setup();
    let (code, out, _) = e.run(&[
        "run", "--risk", "R0", "--op", "read", "--target", "nope.txt",
    ]);
    assert_eq!(code, 1);
    let v = json(&out);
    assert_eq!(v["executed"], false);
    assert!(v["error"].as_str().unwrap().contains("nope.txt"));
    assert!(e.records()[0]["execution_error"].is_string());
}

#[test]
fn run_read_refuses_a_fifo_or_device_at_once_exit_2() {
    // Issue 39 item 4: only regular files are opened, as scan opens
    // configs; a FIFO would wait for a writer forever, a device read on.
    let e = setup();
    let fifo = e.ws.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    // A policy approving /dev as well, so the device is ALLOWED and read.
    let policy = e.home.join("ci/policy.json");
    std::fs::create_dir_all(policy.parent().unwrap()).unwrap();
    std::fs::write(
        &policy,
        serde_json::json!({
            "approved_workspaces": [e.ws, "/dev"],
            "grants": {"READ_ONLY": "allow"},
            "risk_to_level": {"R0": "READ_ONLY"}
        })
        .to_string(),
    )
    .unwrap();
    let policy = policy.to_str().unwrap();
    for (target, kind) in [("fifo", "a FIFO"), ("/dev/zero", "a device")] {
        let start = std::time::Instant::now();
        let out = e
            .cmd(&[
                "run", "--policy", policy, "--risk", "R0", "--op", "read", "--target", target,
            ])
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        assert!(
            start.elapsed() < std::time::Duration::from_secs(5),
            "{target}: waited {:?}",
            start.elapsed()
        );
        assert_eq!(out.status.code(), Some(2), "{target}: {out:?}");
        let v = json(&String::from_utf8(out.stdout).unwrap());
        assert_eq!(v["executed"], false);
        let error = v["error"].as_str().unwrap();
        assert!(
            error.ends_with(&format!(
                ": not a regular file ({kind}); only regular files are read"
            )),
            "{error}"
        );
    }
    // Recorded as ALLOWED and not executed, with why.
    let recs = e.records();
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(
            (&r["verdict"], &r["executed"]),
            (&"ALLOWED".into(), &false.into())
        );
        assert!(r["execution_error"].is_string(), "{r}");
    }
}

#[test]
fn run_read_streams_a_large_file() {
    // A file larger than any buffer the read keeps: its size and digest,
    // as a whole read would give them.
    let e = setup();
    let big: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(e.ws.join("big.bin"), &big).unwrap();
    let (code, out, err) = e.run(&["run", "--risk", "R0", "--op", "read", "--target", "big.bin"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["bytes"], 3_000_000);
    use sha2::Digest;
    let want: String = sha2::Sha256::digest(&big)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(v["content_sha256"], want.as_str());
}

#[test]
fn run_spawn_propagates_the_exit_code_and_digests_output() {
    let e = setup();
    let (code, out, _) = e.run(&[
        "run",
        "--risk",
        "R1",
        "--op",
        "spawn",
        "--",
        "sh",
        "-c",
        "printf 'é a'; printf x >&2; pwd > where; exit 7",
    ]);
    assert_eq!(code, 7);
    let v = json(&out);
    assert_eq!(v["executed"], true);
    assert_eq!(v["exit_code"], 7);
    assert_eq!(v["signal"], serde_json::Value::Null);
    // It ran in the working directory.
    assert_eq!(
        std::fs::read_to_string(e.ws.join("where")).unwrap().trim(),
        e.ws.display().to_string()
    );
    let r = &e.records()[0];
    assert_eq!(r["op"], "spawn");
    assert_eq!(r["command"], "sh");
    assert_eq!(
        r["args"][1],
        "printf 'é a'; printf x >&2; pwd > where; exit 7"
    );
    assert_eq!(r["stdout_bytes"], 4); // é is two bytes
    assert_eq!(r["stderr_bytes"], 1);
    assert_eq!(
        r["stderr_sha256"],
        "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
    );
    assert_eq!(r["timed_out"], false);
    assert!(r["started"].is_string() && r["ended"].is_string());
}

#[test]
fn run_spawn_timeout_kills_a_child_that_ignores_sigterm() {
    let e = setup();
    let start = std::time::Instant::now();
    let (code, out, _) = e.run(&[
        "run",
        "--risk",
        "R1",
        "--op",
        "spawn",
        "--timeout-ms",
        "300",
        "--kill-grace-ms",
        "300",
        "--",
        "sh",
        "-c",
        "trap '' TERM; sleep 30; touch survived",
    ]);
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(code, 1);
    let v = json(&out);
    assert_eq!(v["signal"], "SIGKILL");
    assert_eq!(v["exit_code"], serde_json::Value::Null);
    assert_eq!(v["timed_out"], true);
    assert_eq!(e.records()[0]["timed_out"], true);
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(!e.ws.join("survived").exists());
}

#[test]
fn a_record_write_failure_exits_1_and_runs_nothing() {
    let e = setup();
    // Outside the workspace: a records' directory inside it is refused.
    std::fs::write(e.ws.join("../statefile"), "").unwrap();
    let (code, out, err) = e.run(&[
        "run",
        "--risk",
        "R1",
        "--op",
        "spawn",
        "--state-dir",
        "../statefile",
        "--",
        "sh",
        "-c",
        "touch ran",
    ]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.starts_with("Error: cannot write decision record in "),
        "{err}"
    );
    assert!(!e.ws.join("ran").exists());
    // Denied decisions are not silently unrecorded either.
    let (code, _, _) = e.run(&[
        "run",
        "--risk",
        "R2",
        "--op",
        "read",
        "--target",
        "README.md",
        "--state-dir",
        "../statefile",
    ]);
    assert_eq!(code, 1);
}

#[test]
fn run_usage_errors_exit_2_without_a_record() {
    let e = setup();
    for args in [
        &["run", "--risk", "R0", "--op", "read"][..],
        &["run", "--risk", "R0", "--op", "spawn"][..],
        &["run", "--risk", "R0", "--op", "write", "--target", "x"][..],
        &["run", "--risk", "", "--op", "read", "--target", "x"][..],
    ] {
        let (code, _, err) = e.run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.starts_with("Error: "));
    }
    assert!(e.records().is_empty());
}

#[test]
fn state_dir_falls_back_to_xdg_then_home() {
    let e = setup();
    let xdg = e.home.join("xdg");
    let mut c = e.cmd(&[
        "run",
        "--risk",
        "R2",
        "--op",
        "read",
        "--target",
        "README.md",
    ]);
    c.env_remove("GOCCIA_TRUST_STATE_DIR")
        .env("XDG_STATE_HOME", &xdg);
    assert_eq!(c.output().unwrap().status.code(), Some(4));
    assert_eq!(
        std::fs::read_dir(xdg.join("goccia-trust/decisions"))
            .unwrap()
            .count(),
        1
    );
    let mut c = e.cmd(&[
        "run",
        "--risk",
        "R2",
        "--op",
        "read",
        "--target",
        "README.md",
    ]);
    c.env_remove("GOCCIA_TRUST_STATE_DIR")
        .env("XDG_STATE_HOME", "relative");
    assert_eq!(c.output().unwrap().status.code(), Some(4));
    let home_state: &Path = &e.home.join(".local/state/goccia-trust/decisions");
    assert_eq!(std::fs::read_dir(home_state).unwrap().count(), 1);
}

#[test]
fn a_policy_files_relative_roots_resolve_against_its_directory() {
    let e = setup();
    let dir = e.ws.parent().unwrap().join("ops");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mine.txt"), "x").unwrap();
    std::fs::write(
        dir.join("p.json"),
        r#"{"approved_workspaces": ["."], "grants": {"READ_ONLY": "allow"}, "risk_to_level": {"R0": "READ_ONLY"}}"#,
    )
    .unwrap();
    // `.` is ../ops, not the working directory.
    let (code, out, _) = e.run(&[
        "evaluate",
        "--risk",
        "R0",
        "--target",
        "README.md",
        "--policy",
        "../ops/p.json",
    ]);
    assert_eq!(code, 3, "{out}");
    assert_eq!(json(&out)["classification"], "EXTERNAL_PATH");
    let (code, out, _) = e.run(&[
        "evaluate",
        "--risk",
        "R0",
        "--target",
        "../ops/mine.txt",
        "--policy",
        "../ops/p.json",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json(&out)["classification"], "APPROVED_WORKSPACE");
    // --workspace is for the built-in policy only.
    let (code, _, err) = e.run(&["show", "--policy", "../ops/p.json", "--workspace", "."]);
    assert_eq!(code, 2);
    assert!(err.contains("--workspace"), "{err}");
}

#[test]
fn the_builtin_policy_is_anchored_to_the_repository_or_workspace_never_to_root() {
    let e = setup();
    // From `/`, `.` would be everything: refused, naming the root and why.
    let (code, out, err) = e
        .cmd(&["evaluate", "--risk", "R0", "--target", "/etc/hostname"])
        .current_dir("/")
        .output()
        .map(|o| {
            (
                o.status.code().unwrap(),
                String::from_utf8(o.stdout).unwrap(),
                String::from_utf8(o.stderr).unwrap(),
            )
        })
        .unwrap();
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("Error: policy too broad: <built-in default-")
            && err.contains("(approved workspace \".\" resolves to /, the filesystem root"),
        "{err}"
    );
    // With --workspace it judges that tree.
    let ws = e.ws.display().to_string();
    let out = e
        .cmd(&[
            "evaluate",
            "--risk",
            "R0",
            "--target",
            &format!("{ws}/README.md"),
            "--workspace",
            &ws,
        ])
        .current_dir("/")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // Inside a repository, `.` is its root, wherever in it the command runs.
    std::fs::create_dir_all(e.ws.join(".git")).unwrap();
    std::fs::create_dir_all(e.ws.join("deep/er")).unwrap();
    let out = e
        .cmd(&["evaluate", "--risk", "R0", "--target", "../../README.md"])
        .current_dir(e.ws.join("deep/er"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn show_prints_every_root_as_resolved() {
    let e = setup();
    let (code, out, err) = e.run(&["show"]);
    assert_eq!(code, 0);
    // stdout stays the policy as read.
    assert_eq!(out.lines().count(), 1);
    let ws = e.ws.display();
    let home = e.home.display();
    assert!(
        err.starts_with(&format!(
            "Roots resolved against {ws} (the working directory, which no repository contains):\n  approved_workspaces \".\" -> {ws}\n"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("\n  personal_data_roots \"~\" -> {home}\n")),
        "{err}"
    );
    assert!(
        err.contains(&format!("\n  denied_roots \"~/.ssh\" -> {home}/.ssh\n")),
        "{err}"
    );
}

/// Issue 9: `policy show | true` panicked (`failed printing to stdout:
/// Broken pipe`, exit 101). A closed stdout now ends the command quietly,
/// with exit 141 as every command (README "Exit codes").
#[test]
fn a_closed_stdout_ends_the_policy_verbs_quietly() {
    let e = setup();
    let bin = assert_cmd::cargo::cargo_bin("goccia-trust");
    for verb in [
        "show",
        "evaluate --risk R2 --target README.md",
        "records",
        "run --risk R0 --op read --target README.md",
    ] {
        // `true` exits at once; the binary writes 0.3 s later into a pipe
        // nobody reads.
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                r#"(sleep 0.3; "$0" policy {verb}; echo "exit=$?" >&2) | true"#
            ))
            .arg(&bin)
            .env_clear()
            .env("HOME", &e.home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("GOCCIA_TRUST_STATE_DIR", &e.state)
            .current_dir(&e.ws)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.ends_with("exit=141\n"), "{verb}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("Error"),
            "{verb}: {err}"
        );
    }
}

/// Issue 46: a reader that stops early (`head -c 10`) closes the pipe
/// only for output larger than the pipe holds (64 KiB on Linux); then
/// every `policy` verb with that much to say ends quietly with 141: `show`
/// of a policy of 5,000 denied roots, `records` after 600 runs, `records
/// --last` of a run over 300 configs (the summary a real `trust --yes
/// --policy` wrote).
#[test]
fn a_policy_verb_cut_short_by_head_ends_quietly_with_141() {
    let e = setup();
    let bin = assert_cmd::cargo::cargo_bin("goccia-trust");
    let root = e.ws.parent().unwrap().to_path_buf();
    // The policy, outside the reviewed tree.
    let roots: Vec<String> = (0..5000).map(|i| format!("/usr/share/x{i:05}")).collect();
    let big = serde_json::json!({
        "approved_workspaces": ["."],
        "system_read_only_roots": ["/usr"],
        "personal_data_roots": ["~"],
        "denied_roots": roots,
        "grants": {"READ_ONLY": "allow", "WORKSPACE_WRITE": "allow",
                   "EXTERNAL_EFFECT": "needs_auth", "DESTRUCTIVE": "deny"},
        "risk_to_level": {"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE",
                          "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE"},
    });
    std::fs::create_dir_all(root.join("ci")).unwrap();
    std::fs::write(root.join("ci/big.json"), big.to_string()).unwrap();
    let mut small = big.clone();
    small["denied_roots"] = serde_json::json!(["~/.ssh"]);
    std::fs::write(root.join("ci/small.json"), small.to_string()).unwrap();
    // One real run over 300 configs, its summary then kept 600 times.
    for i in 0..300 {
        let dir = e.ws.join(format!("p{i:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("goccia.json"),
            r#"{"permissions": {"allow-read": ["./data"]}}"#,
        )
        .unwrap();
    }
    let trust = std::process::Command::new(&bin)
        .args([
            "trust",
            ".",
            "--yes",
            "--policy",
            "../ci/small.json",
            "--state-dir",
        ])
        .arg(&e.state)
        .env_clear()
        .env("HOME", &e.home)
        .current_dir(&e.ws)
        .output()
        .unwrap();
    let runs = e.state.join("runs");
    let written: Vec<PathBuf> = std::fs::read_dir(&runs)
        .unwrap_or_else(|err| panic!("{err}: {trust:?}"))
        .map(|d| d.unwrap().path())
        .collect();
    assert_eq!(written.len(), 1, "{trust:?}");
    let summary = std::fs::read_to_string(&written[0]).unwrap();
    assert!(summary.len() > 80 * 1024, "{} bytes", summary.len());
    for i in 0..600 {
        std::fs::write(
            runs.join(format!("2026-01-01T00-00-00-{i:03}Z-1-old.json")),
            &summary,
        )
        .unwrap();
    }
    for verb in ["show --policy ../ci/big.json", "records", "records --last"] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                r#"{{ "$0" policy {verb} 2>/dev/null; echo "exit=$?" >&2; }} | head -c 10 >/dev/null"#
            ))
            .arg(&bin)
            .env_clear()
            .env("HOME", &e.home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("GOCCIA_TRUST_STATE_DIR", &e.state)
            .current_dir(&e.ws)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err, "exit=141\n", "{verb}");
        // What it would have written is more than a pipe holds.
        let whole = e.run(&verb.split(' ').collect::<Vec<_>>());
        assert!(whole.1.len() > 80 * 1024, "{verb}: {} bytes", whole.1.len());
    }
}

/// Issue 9: the shipped default denies the usual secret locations, names
/// the root that matched, and keeps `/etc` to what programs legitimately
/// read.
#[test]
#[cfg_attr(target_os = "macos", ignore = "the Linux default policy's roots")]
fn the_default_policy_denies_secret_locations() {
    let e = setup();
    let denied: &[(&str, &str)] = &[
        ("/etc/shadow", "/etc/shadow"),
        ("/proc/1/environ", "/proc"),
        ("/proc/self/environ", "/proc"),
        ("/run/secrets/db", "/run/secrets"),
        (
            "/var/run/secrets/kubernetes.io/serviceaccount/token",
            // /var/run is usually a link to /run: either root may match.
            "/var/run/secrets|/run/secrets",
        ),
        ("/etc/ssl/private/server.key", "/etc/ssl/private"),
        ("~/.docker/config.json", "~/.docker"),
        ("~/.kube/config", "~/.kube"),
        ("~/.netrc", "~/.netrc"),
        ("~/.npmrc", "~/.npmrc"),
        ("~/.pypirc", "~/.pypirc"),
        ("~/.git-credentials", "~/.git-credentials"),
        ("~/.config/gh/hosts.yml", "~/.config/gh"),
        ("~/.config/gcloud/credentials.db", "~/.config/gcloud"),
        ("~/.azure/accessTokens.json", "~/.azure"),
        ("~/.ssh/id_rsa", "~/.ssh"),
    ];
    let home = e.home.display().to_string();
    for (target, root) in denied {
        let target = target.replacen('~', &home, 1);
        for risk in ["R0", "R1"] {
            let (code, out, _) = e.run(&["evaluate", "--risk", risk, "--target", &target]);
            assert_eq!(code, 3, "{target} {risk}: {out}");
            let v = json(&out);
            assert_eq!(v["classification"], "DENIED_ROOT", "{target}: {out}");
            let reason = v["reason"].as_str().unwrap();
            assert!(
                root.split('|').any(|root| reason
                    == format!(
                        "target classified DENIED_ROOT \u{2014} denied at any risk level (denied root {root})"
                    )),
                "{target}: {reason}"
            );
        }
    }
    // /etc is narrowed: name resolution and CA certificates are readable,
    // the rest of /etc is not.
    for readable in [
        "/etc/hosts",
        "/etc/resolv.conf",
        "/etc/ssl/certs/ca-certificates.crt",
    ] {
        let (code, out, _) = e.run(&["evaluate", "--risk", "R0", "--target", readable]);
        assert_eq!(
            (code, json(&out)["classification"].clone()),
            (0, "SYSTEM_PATH".into()),
            "{readable}"
        );
    }
    for other in ["/etc/passwd", "/etc/machine-id", "/etc"] {
        let (code, out, _) = e.run(&["evaluate", "--risk", "R0", "--target", other]);
        assert_eq!(code, 3, "{other}: {out}");
    }
}

#[test]
fn a_denied_root_inside_an_approved_workspace_is_a_carve_out_in_every_spelling() {
    // denied > approved (docs/src/compatibility.md#reference-classification): "approve the workspace,
    // except its secrets directory" is a narrowing policy, however the
    // secrets directory is spelled.
    let e = setup();
    let r = e.ws.parent().unwrap().to_path_buf();
    std::fs::create_dir_all(e.ws.join("secret")).unwrap();
    std::fs::write(e.ws.join("secret/x"), "k").unwrap();
    symlink(&e.ws, r.join("wslink")).unwrap();
    let ws = e.ws.display().to_string();
    let rs = r.display().to_string();
    let spellings = [
        format!("{ws}/secret"),
        "ws/secret".to_string(),
        "ws/../ws/secret".to_string(),
        format!("{rs}/ws/../ws/secret"),
        format!("{rs}/wslink/secret"),
        "wslink/secret".to_string(),
        // The whole workspace denied: narrower still.
        ws.clone(),
    ];
    for denied in &spellings {
        std::fs::write(
            r.join("p.json"),
            format!(
                r#"{{"approved_workspaces": ["{ws}"], "denied_roots": ["{denied}"],
                    "grants": {{"READ_ONLY": "allow", "WRITE_LOCAL": "allow"}},
                    "risk_to_level": {{"R0": "READ_ONLY", "R1": "WRITE_LOCAL"}}}}"#
            ),
        )
        .unwrap();
        let policy = r.join("p.json").display().to_string();
        let target = format!("{ws}/secret/x");
        let (code, out, err) = e.run(&[
            "evaluate", "--risk", "R1", "--target", &target, "--policy", &policy,
        ]);
        assert_eq!(code, 3, "{denied}: {out}{err}");
        assert_eq!(
            out,
            format!(
                "{{\"verdict\":\"DENIED\",\"reason\":\"target classified DENIED_ROOT \u{2014} denied at any risk level (denied root {denied})\",\"risk\":\"R1\",\"level\":\"WRITE_LOCAL\",\"classification\":\"DENIED_ROOT\"}}\n"
            ),
            "{denied}"
        );
        if *denied != ws {
            let (code, out, err) = e.run(&[
                "evaluate",
                "--risk",
                "R1",
                "--target",
                "README.md",
                "--policy",
                &policy,
            ]);
            assert_eq!((code, err.as_str()), (0, ""), "{denied}: {out}");
            assert_eq!(json(&out)["classification"], "APPROVED_WORKSPACE");
        }
    }
}
