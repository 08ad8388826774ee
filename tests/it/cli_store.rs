//! The store under concurrent use of the real binary: writers that merge,
//! readers that always see a whole store, and a lock that makes writers wait
//! and, held too long, fail without changing anything.

use crate::common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::TestEnv;
use goccia_trust::core::store::read_store;

fn spawn(env: &TestEnv, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_goccia-trust"))
        .current_dir(&env.work)
        .env_clear()
        .env("HOME", &env.home)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn concurrent_trusts_merge_while_checks_read_whole_stores() {
    let env = TestEnv::new();
    let n = 8;
    for i in 0..n {
        env.write(
            &format!("c{i}/goccia.json"),
            &format!(r#"{{"permissions": {{"allow-net": ["h{i}.test"]}}}}"#),
        );
        env.write(&format!("c{i}/main.js"), "");
    }
    let store_path = env.default_store();
    let store_str = store_path.to_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);

    // Readers: `check` in a loop over every config, plus direct reads of the
    // file, while the writers run.
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        let checker = s.spawn(|| {
            let mut runs = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) && Instant::now() < deadline {
                let inputs: Vec<String> = (0..n).map(|i| format!("c{i}/main.js")).collect();
                let mut args = vec!["check"];
                args.extend(inputs.iter().map(String::as_str));
                let out = spawn(&env, &args).wait_with_output().unwrap();
                let code = out.status.code().unwrap();
                assert!(
                    code == 0 || code == 2,
                    "check saw a broken store: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                runs += 1;
            }
            runs
        });
        let reader = s.spawn(|| {
            let mut reads = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) && Instant::now() < deadline {
                let store = read_store(&store_str).expect("every read sees a whole, valid store");
                assert!(store.len() <= n);
                reads += 1;
            }
            reads
        });

        let writers: Vec<Child> = (0..n)
            .map(|i| spawn(&env, &["trust", "--yes", &format!("c{i}")]))
            .collect();
        for w in writers {
            let out = w.wait_with_output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(checker.join().unwrap() > 0);
        assert!(reader.join().unwrap() > 0);
    });

    let store = read_store(&store_str).unwrap();
    assert_eq!(store.len(), n, "no writer lost another's entry");
    let out = env.run(&["check", "c0/main.js", "c7/main.js"]);
    assert_eq!(out.code, 0, "{out}");
}

/// Holds an exclusive flock on the store's lock file, as another writer would.
fn hold_lock(env: &TestEnv) -> std::fs::File {
    let lock = env.default_store().with_extension("json.lock");
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .unwrap();
    fs4::FileExt::try_lock(&f).unwrap();
    f
}

#[test]
fn a_held_lock_makes_a_writer_wait_then_succeed() {
    let env = TestEnv::new();
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    let lock = hold_lock(&env);
    let child = spawn(&env, &["trust", "--yes", "p"]);
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        !env.default_store().exists(),
        "the writer must wait for the lock"
    );
    drop(lock);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        read_store(env.default_store().to_str().unwrap())
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn a_lock_held_past_ten_seconds_fails_the_writer_and_changes_nothing() {
    let env = TestEnv::new();
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    env.write(
        "q/goccia.json",
        r#"{"permissions": {"allow-net": ["y.test"]}}"#,
    );
    assert_eq!(env.run(&["trust", "--yes", "q"]).code, 0);
    let before = std::fs::read(env.default_store()).unwrap();
    let _lock = hold_lock(&env);
    let started = Instant::now();
    let out = env.run(&["trust", "--yes", "p"]);
    assert!(
        started.elapsed() >= Duration::from_secs(10),
        "gave up after {:?}",
        started.elapsed()
    );
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr
            .contains("$ROOT/home/.config/goccia/trust.json.lock"),
        "the message names the lock file: {out}"
    );
    assert!(!out.stdout.contains("Trusted"), "{out}");
    assert_eq!(std::fs::read(env.default_store()).unwrap(), before);
    // Untrust too: no "Removed" line when the save fails.
    let out = env.run(&["untrust", "q"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(!out.stdout.contains("Removed"), "{out}");
    assert_eq!(std::fs::read(env.default_store()).unwrap(), before);
}

#[test]
fn store_and_directory_modes() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    assert_eq!(env.run(&["trust", "--yes", "p"]).code, 0);
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&env.default_store()), 0o600);
    assert_eq!(mode(env.default_store().parent().unwrap()), 0o700);
    // The store's directory holds only the store and its lock file.
    let mut names: Vec<String> = std::fs::read_dir(env.default_store().parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["trust.json", "trust.json.lock"]);
}
