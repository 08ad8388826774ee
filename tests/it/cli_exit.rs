//! One error path and one exit table for the whole CLI (issue 9 item 7,
//! README "Exit codes"): a closed stdout ends every command quietly with
//! exit 141 and nothing more is written; when several exit codes apply in
//! one run, one precedence decides (3, then 4, then 2, then 1).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{TestEnv, open_for_unprivileged, run_unprivileged};

const REQUEST: &str = r#"{"permissions": {"allow-net": ["example.com"]}}"#;

/// Runs the binary with `args` (split at spaces) into a pipe whose reader
/// has already gone; returns stderr, then `exit=<code>`.
fn with_closed_stdout(env: &TestEnv, args: &str) -> String {
    let (reader, writer) = std::io::pipe().unwrap();
    // No reader: every write to the pipe fails with EPIPE.
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_goccia-trust"))
        .args(args.split(' '))
        .env_clear()
        .env("HOME", &env.home)
        .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
        .current_dir(&env.work)
        .stdin(Stdio::null())
        .stdout(writer)
        .output()
        .unwrap();
    format!(
        "{}exit={}\n",
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1)
    )
}

#[test]
fn a_closed_stdout_ends_every_command_quietly_with_141() {
    let env = TestEnv::new();
    // Enough configs that every listing is more than one line.
    for d in ["a", "b", "c"] {
        env.write(&format!("{d}/goccia.json"), REQUEST);
    }
    let trusted = env.run(&["trust", "a", "--yes"]);
    assert_eq!(trusted.code, 0, "{trusted}");
    for args in [
        "scan",
        "scan --json",
        "list",
        "list --json",
        "--list-trusted",
        "check a",
        "check --json a",
        "inspect a/goccia.json",
        "inspect --json a/goccia.json",
        "trust b --dry-run",
        "--help",
        "--version",
        "policy show",
    ] {
        let err = with_closed_stdout(&env, args);
        assert_eq!(err, "exit=141\n", "{args}: {err}");
    }
}

/// The listing of `trust --yes` cannot be written: the command stops there
/// and records nothing (the reader of what was trusted has gone).
#[test]
fn a_closed_stdout_stops_trust_before_anything_is_written() {
    let env = TestEnv::new();
    env.write("b/goccia.json", REQUEST);
    let err = with_closed_stdout(&env, "trust b --yes");
    assert_eq!(err, "exit=141\n");
    assert!(!env.default_store().exists(), "the store was written");
}

/// A stdout that cannot be written for another reason (a full disk) is an
/// error, exit 1, and nothing is trusted.
#[test]
fn a_full_stdout_is_an_error_and_trusts_nothing() {
    let env = TestEnv::new();
    env.write("b/goccia.json", REQUEST);
    let out = Command::new(env!("CARGO_BIN_EXE_goccia-trust"))
        .args(["trust", "b", "--yes"])
        .env_clear()
        .env("HOME", &env.home)
        .current_dir(&env.work)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "Error: cannot write to stdout: No space left on device (os error 28)\n"
    );
    assert!(!env.default_store().exists(), "the store was written");
}

/// The CI operator's policy (as tests/policy_trust.rs): reads allowed,
/// network effects need a person, private networks (R3) denied.
const POLICY: &str = r#"{
  "approved_workspaces": ["."],
  "personal_data_roots": ["~"],
  "denied_roots": [],
  "grants": {
    "READ_ONLY": "allow",
    "WORKSPACE_WRITE": "allow",
    "EXTERNAL_EFFECT": "needs_auth",
    "DESTRUCTIVE": "deny"
  },
  "risk_to_level": {
    "R0": "READ_ONLY",
    "R1": "WORKSPACE_WRITE",
    "R2": "EXTERNAL_EFFECT",
    "R3": "DESTRUCTIVE"
  }
}
"#;

/// Waits until `file` holds `needle` (the binary writes line by line).
fn wait_for(file: &Path, needle: &str) -> String {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if text.contains(needle) {
            return text;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "never saw {needle:?}: {text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// One run where three codes apply: a config denied by the policy (3), one
/// needing authorization (4), and the one allowed config refused under the
/// store lock as changed since it was judged and listed (1). Denied wins;
/// the other two are still reported.
#[test]
fn denied_wins_over_needs_authorization_and_changed_since_shown() {
    let env = TestEnv::new();
    env.mkdir(".git");
    env.write(
        "app/goccia.json",
        r#"{ "permissions": { "allow-read": ["./data"] } }"#,
    );
    env.mkdir("app/data");
    env.write(
        "web/goccia.json",
        r#"{ "permissions": { "allow-net": ["api.example.com"] } }"#,
    );
    env.write(
        "lan/goccia.json",
        r#"{ "permissions": { "allow-net": ["192.168.0.0/16"] } }"#,
    );
    let policy = env.root.join("ci/policy.json");
    std::fs::create_dir_all(policy.parent().unwrap()).unwrap();
    std::fs::write(&policy, POLICY).unwrap();
    std::fs::set_permissions(&policy, std::fs::Permissions::from_mode(0o644)).unwrap();
    // The store's lock is held (as another writer holds it): the command
    // judges, records and lists, then waits for the lock; meanwhile `app`
    // changes.
    let store_dir = env.home.join(".config/goccia");
    std::fs::create_dir_all(&store_dir).unwrap();
    std::fs::set_permissions(&store_dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let lock = std::fs::File::create(store_dir.join("trust.json.lock")).unwrap();
    // SAFETY: flock on a file descriptor this test owns.
    assert_eq!(
        unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) },
        0
    );
    let stdout = env.root.join("out.txt");
    let stderr = env.root.join("err.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_goccia-trust"))
        .args(["trust", "--yes", "--policy"])
        .arg(&policy)
        .args(["app", "web", "lan"])
        .env_clear()
        .env("HOME", &env.home)
        .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
        .current_dir(&env.work)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .unwrap();
    wait_for(&stdout, "web/goccia.json (new): NEEDS_AUTH");
    // The listing's last line is out; the lock wait starts right after.
    std::thread::sleep(Duration::from_millis(300));
    env.write(
        "app/goccia.json",
        r#"{ "permissions": { "allow-read": ["./data", "/etc"] } }"#,
    );
    drop(lock);
    let status = child.wait().unwrap();
    let out = std::fs::read_to_string(&stdout).unwrap();
    let err = std::fs::read_to_string(&stderr).unwrap();
    assert_eq!(status.code(), Some(3), "{out}{err}");
    assert_eq!(
        err,
        "Refused: app/goccia.json changed since shown; not trusted\n"
    );
    assert!(out.contains("Nothing was trusted.\n"), "{out}");
    assert!(
        out.contains("1 config file needs authorization; a person reviews and trusts it with:\n  goccia-trust --trust web/goccia.json\n"),
        "{out}"
    );
    assert!(
        out.contains("1 config file denied by the policy; not trusted\n"),
        "{out}"
    );
}

/// A tree with a malformed config (2), a config with an invalid scope (1),
/// an untrusted config (`check` blocks: 2) and a directory that cannot be
/// read (1), reviewed by an unprivileged user.
fn mixed_tree(env: &TestEnv) {
    env.write("p/ok/goccia.json", REQUEST);
    env.write("p/locked/goccia.json", REQUEST);
    env.write(
        "q/malformed/goccia.json",
        r#"{"permissions": {"allow-nett": ["x.test"]}}"#,
    );
    env.write(
        "q/invalid/goccia.json",
        r#"{"permissions": {"allow-net": [""]}}"#,
    );
    open_for_unprivileged(
        env,
        &[
            "work",
            "work/p",
            "work/p/ok",
            "work/p/locked",
            "work/q",
            "work/q/malformed",
            "work/q/invalid",
        ],
    );
    for f in [
        "p/ok/goccia.json",
        "p/locked/goccia.json",
        "q/malformed/goccia.json",
        "q/invalid/goccia.json",
    ] {
        let p = env.work.join(f);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let locked = env.work.join("p/locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
}

#[test]
fn scan_a_malformed_config_wins_over_an_invalid_scope_and_an_unreadable_directory() {
    let env = TestEnv::new();
    mixed_tree(&env);
    let (out, err, code) = run_unprivileged(&env, &["scan", "p", "q"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("q/malformed/goccia.json"), "{out}");
    assert!(out.contains("q/invalid/goccia.json"), "{out}");
    assert!(
        err.contains("Warning: cannot read p/locked: Permission denied\n"),
        "{err}"
    );
    // Without the malformed config: the invalid scope and the unreadable
    // directory are both 1.
    let (out, err, code) = run_unprivileged(&env, &["scan", "p", "q/invalid"]);
    assert_eq!(code, 1, "{out}{err}");
    // `scan --json` exits as `scan` does.
    let (out, err, code) = run_unprivileged(&env, &["scan", "--json", "p", "q"]);
    assert_eq!(code, 2, "{out}{err}");
}

#[test]
fn check_blocked_wins_over_an_unreadable_directory() {
    let env = TestEnv::new();
    mixed_tree(&env);
    let (out, err, code) = run_unprivileged(&env, &["check", "p"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("Warning: cannot read p/locked: Permission denied\n"),
        "{err}"
    );
    assert!(err.contains("Error: "), "{err}");
    let (out, err, code) = run_unprivileged(&env, &["check", "--json", "p"]);
    assert_eq!(code, 2, "{out}{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["blocked"], true);
    assert_eq!(doc["unreadable"].as_array().unwrap().len(), 1);
}

/// The exit class of a config that fails to load is GocciaScript's (see
/// docs/src/compatibility.md#reading-a-config to #scope-validation, #uncertain-points): a syntax error, like every invalid
/// value, is 1; a malformed block is 2. `trust` and `inspect` end with it,
/// `scan` lists the row and exits with the worst class.
#[test]
fn a_json_syntax_error_is_exit_1_and_a_malformed_block_exit_2() {
    let env = TestEnv::new();
    let cases = [
        ("json/goccia.json", "{\"permissions\": ", 1),
        ("toml/goccia.toml", "permissions = [\n", 1),
        ("empty/goccia.json", "", 1),
        (
            "scope/goccia.json",
            r#"{"permissions": {"allow-net": ["a b"]}}"#,
            1,
        ),
        ("extends/goccia.json", r#"{"extends": "nope.json"}"#, 1),
        ("perm/goccia.json", r#"{"permissions": true}"#, 2),
        ("cli/goccia.json", r#"{"trust-store": "x"}"#, 2),
    ];
    for (file, text, code) in cases {
        env.write(file, text);
        let dir = file.split('/').next().unwrap();
        let out = env.run(&["inspect", file]);
        assert_eq!(out.code, code, "inspect {file}: {out}");
        assert!(out.stderr.starts_with("Error: "), "{out}");
        let out = env.run(&["trust", dir, "--yes"]);
        assert_eq!(out.code, code, "trust {file}: {out}");
        assert!(
            !env.default_store().exists(),
            "trust {file} wrote the store"
        );
        let out = env.run(&["scan", dir]);
        assert_eq!(out.code, code, "scan {file}: {out}");
    }
    let out = env.run(&["scan", "json", "perm"]);
    assert_eq!(out.code, 2, "{out}");
}

/// Every line reaches the terminal through a command's `Io` and every exit
/// code through `cli::app::finish`: no `println!` (which panics on a closed
/// stdout) and no `process::exit` (which would leave a lock or temp file
/// behind) anywhere in the program's own code. Test code is exempt.
#[test]
fn nothing_prints_or_exits_outside_the_one_path() {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
                continue;
            }
            let name = path.file_name().unwrap().to_str().unwrap();
            if !name.ends_with(".rs") || name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            // The live demo's binary (README's first command) is not the
            // program: it writes its own few lines around a run of it.
            if path.ends_with("src/bin/goccia-trust-demo.rs") {
                continue;
            }
            // A module its parent declares under `#[cfg(test)]` (the Free
            // Pascal oracle) is test code as a whole.
            let stem = name.trim_end_matches(".rs");
            let parent = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
            if parent.contains(&format!("#[cfg(test)]\nmod {stem};")) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // The program's code ends where its test module starts.
            let code = text.split("#[cfg(test)]").next().unwrap();
            for (n, line) in code.lines().enumerate() {
                let line = line.trim_start();
                if line.starts_with("//") {
                    continue;
                }
                for banned in [
                    "println!(",
                    "print!(",
                    "eprintln!(",
                    "eprint!(",
                    "process::exit(",
                    "dbg!(",
                ] {
                    if line.contains(banned) {
                        found.push(format!("{}:{}: {line}", path.display(), n + 1));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut found,
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}
