//! Files a hostile repository can ship in place of a config, an `extends`
//! target, the store, a policy or the lock file: FIFOs, devices, endless
//! files. Each command ends at once with a clear error instead of hanging
//! or exhausting memory.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::TestEnv;

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// Runs the binary in `env.work`, killing it after 10 s; returns stdout,
/// stderr, exit code and how long it took.
fn run_timed(env: &TestEnv, args: &[&str]) -> (String, String, i32, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_goccia-trust"))
        .current_dir(&env.work)
        .env_clear()
        .env("HOME", &env.home)
        .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("{args:?} still running after 10 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let elapsed = start.elapsed();
    let out = child.wait_with_output().unwrap();
    (
        env.redact(&String::from_utf8_lossy(&out.stdout)),
        env.redact(&String::from_utf8_lossy(&out.stderr)),
        out.status.code().unwrap_or(-1),
        elapsed,
    )
}

/// A tree `p/` whose `goccia.json` is `make`'s special file.
fn tree_with(make: impl Fn(&Path)) -> TestEnv {
    let env = TestEnv::new();
    env.mkdir("p");
    make(&env.work.join("p/goccia.json"));
    env
}

fn special_configs() -> Vec<(&'static str, TestEnv)> {
    vec![
        ("fifo", tree_with(mkfifo)),
        (
            "/dev/zero",
            tree_with(|p| std::os::unix::fs::symlink("/dev/zero", p).unwrap()),
        ),
        (
            "/dev/tty",
            tree_with(|p| std::os::unix::fs::symlink("/dev/tty", p).unwrap()),
        ),
    ]
}

#[test]
fn special_file_configs_end_at_once_with_a_clear_error() {
    let msg = "Error: $ROOT/work/p/goccia.json: not a regular file\n";
    for (what, env) in special_configs() {
        let (out, err, code, took) = run_timed(&env, &["scan", "p"]);
        assert!(took < Duration::from_secs(1), "scan {what}: {took:?}");
        assert_eq!(code, 1, "scan {what}: {out}{err}");
        assert!(
            out.contains("$ROOT/work/p/goccia.json: not a regular file")
                || out.contains("p/goccia.json: not a regular file"),
            "scan {what}: {out}"
        );

        let (out, err, code, took) = run_timed(&env, &["trust", "p", "--yes"]);
        assert!(took < Duration::from_secs(1), "trust {what}: {took:?}");
        assert_eq!((code, err.as_str()), (1, msg), "trust {what}: {out}");
        assert!(!env.default_store().exists());

        let (out, err, code, took) = run_timed(&env, &["inspect", "p/goccia.json"]);
        assert!(took < Duration::from_secs(1), "inspect {what}: {took:?}");
        assert_eq!((code, err.as_str()), (1, msg), "inspect {what}: {out}");

        // The config governing an input is never passed over for its type.
        std::fs::write(env.work.join("p/a.js"), "").unwrap();
        let (out, err, code, took) = run_timed(&env, &["check", "p/a.js"]);
        assert!(took < Duration::from_secs(1), "check {what}: {took:?}");
        assert_eq!((code, err.as_str()), (1, msg), "check {what}: {out}");
    }
}

#[test]
fn a_fifo_extends_target_is_refused_at_once() {
    let env = TestEnv::new();
    env.write(
        "p/goccia.json",
        r#"{"extends": "base.json", "permissions": {"allow-net": ["a.test"]}}"#,
    );
    mkfifo(&env.work.join("p/base.json"));
    let (out, err, code, took) = run_timed(&env, &["trust", "p", "--yes"]);
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(
        (code, err.as_str()),
        (1, "Error: $ROOT/work/p/base.json: not a regular file\n"),
        "{out}"
    );
}

#[test]
fn a_fifo_store_is_refused_at_once() {
    let env = TestEnv::new();
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    let store = env.root.join("fifo-store.json");
    mkfifo(&store);
    let flag = format!("--trust-store={}", store.display());
    let expected =
        "Error: cannot read trust store $ROOT/fifo-store.json: not a regular file (a FIFO)\n";
    for args in [
        vec![flag.as_str(), "trust", "p", "--yes"],
        vec![flag.as_str(), "list"],
    ] {
        let (out, err, code, took) = run_timed(&env, &args);
        assert!(took < Duration::from_secs(1), "{args:?}: {took:?}");
        assert_eq!((code, err.as_str()), (1, expected), "{args:?}: {out}");
    }
    let (out, err, code, took) = run_timed(&env, &[flag.as_str(), "scan", "p"]);
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn a_fifo_lock_file_fails_at_once_and_writes_nothing() {
    let env = TestEnv::new();
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    let store = env.root.join("s/trust.json");
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    mkfifo(&env.root.join("s/trust.json.lock"));
    let flag = format!("--trust-store={}", store.display());
    let (out, err, code, took) = run_timed(&env, &[flag.as_str(), "trust", "p", "--yes"]);
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("$ROOT/s/trust.json.lock: not a regular file"),
        "{err}"
    );
    assert!(!store.exists());
}

/// `list` opens a config on a path with no link in one call and takes the
/// stat-first way otherwise; both answer as before. A config whose
/// directory became a link is read through it, and its scope, resolved
/// afresh, is shown moved (the directory was not taken for its own
/// canonical path); a directory at a key is missing; a FIFO at a key is
/// missing at once, not waited on.
#[test]
fn list_reads_configs_behind_links_and_refuses_what_is_not_a_file_at_once() {
    let env = TestEnv::new();
    let scoped = r#"{"permissions": {"allow-read": ["./secret"]}}"#;
    env.write("p/goccia.json", scoped);
    env.mkdir("p/secret");
    env.write("l/sub/goccia.json", scoped);
    env.mkdir("l/sub/secret");
    env.mkdir("other");
    for (dir, host) in [("q", "q.test"), ("d", "d.test"), ("f", "f.test")] {
        let text = format!(r#"{{"permissions": {{"allow-net": ["{host}"]}}}}"#);
        env.write(&format!("{dir}/goccia.json"), &text);
    }
    let (out, err, code, _) = run_timed(&env, &["trust", "p", "q", "d", "f", "l", "--yes"]);
    assert_eq!(code, 0, "{out}{err}");
    let w = |p: &str| env.work.join(p);
    for dir in ["p", "q"] {
        std::fs::rename(w(dir), w(&format!("{dir}-real"))).unwrap();
        env.symlink(&format!("{dir}-real"), dir);
    }
    std::fs::rename(w("l/sub"), w("l/sub2")).unwrap();
    env.symlink("sub2", "l/sub");
    std::fs::remove_dir(w("l/sub2/secret")).unwrap();
    env.symlink("../../other", "l/sub2/secret");
    std::fs::remove_file(w("d/goccia.json")).unwrap();
    env.mkdir("d/goccia.json");
    std::fs::remove_file(w("f/goccia.json")).unwrap();
    mkfifo(&w("f/goccia.json"));
    let (out, err, code, took) = run_timed(&env, &["list"]);
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(
        (common::redact_timestamps(&out).as_str(), err.as_str(), code),
        (
            "Trust store: $ROOT/home/.config/goccia/trust.json\n\
             $ROOT/work/d/goccia.json  trusted <TS>  allow-net  (missing)\n\
             $ROOT/work/f/goccia.json  trusted <TS>  allow-net  (missing)\n\
             $ROOT/work/l/sub/goccia.json  trusted <TS>  allow-read  (changed)\n  \
             ~ target of $ROOT/work/l/sub/secret: $ROOT/work/l/sub/secret -> $ROOT/work/other\n\
             $ROOT/work/p/goccia.json  trusted <TS>  allow-read  (changed)\n  \
             ~ target of $ROOT/work/p/secret: $ROOT/work/p/secret -> $ROOT/work/p-real/secret\n\
             $ROOT/work/q/goccia.json  trusted <TS>  allow-net\n",
            "",
            0
        )
    );
}
