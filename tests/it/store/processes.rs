//! Real processes: concurrent writers and readers, writers killed with
//! SIGKILL, and locks held by another process.
//!
//! This test binary re-runs itself with `--exact store::processes::child_process`
//! and the child's role in `CHILD_ENV`; without that variable
//! `child_process` returns at once.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use goccia_trust::core::store::{
    LOCK_TIMEOUT, StoreError, read_store, serialize_store, update_store, update_store_with_timeout,
};

use super::{derived_entry, dir_names, location, put_derived};

const CHILD_ENV: &str = "GOCCIA_TRUST_STORE_TEST_CHILD";

/// The body of every child process; a no-op in an ordinary test run.
#[test]
fn child_process() {
    let Ok(spec) = std::env::var(CHILD_ENV) else {
        return;
    };
    let args: Vec<&str> = spec.split('|').collect();
    match args.as_slice() {
        ["writer", store, id, count] => {
            let loc = location(Path::new(store), false);
            for i in 0..count.parse().unwrap() {
                let key = format!("/w{id}/{i}/goccia.json");
                update_store(&loc, |s| put_derived(s, &key, 3)).unwrap();
            }
        }
        ["reader", store, stop] => {
            let mut reads = 0usize;
            let mut last = 0;
            while !Path::new(stop).exists() || reads == 0 {
                let s = read_store(store).unwrap_or_else(|e| panic!("read {reads}: {e}"));
                for (k, e) in s.iter() {
                    assert_eq!(e, &derived_entry(k, 3), "{k}");
                }
                assert!(
                    s.len() >= last,
                    "a read lost entries: {} after {last}",
                    s.len()
                );
                last = s.len();
                reads += 1;
            }
            println!("READS {reads}");
        }
        ["holder", lock, marker, hold_ms] => {
            let file = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(lock)
                .unwrap();
            fs4::FileExt::lock(&file).unwrap();
            fs::write(marker, "").unwrap();
            std::thread::sleep(Duration::from_millis(hold_ms.parse().unwrap()));
        }
        ["crasher", store] => {
            // Adds bulky entries one update at a time until killed.
            let loc = location(Path::new(store), false);
            let mut next = read_store(store)
                .unwrap()
                .iter()
                .filter(|(k, _)| k.starts_with("/c/"))
                .count();
            loop {
                let key = format!("/c/{next:05}");
                update_store(&loc, |s| put_derived(s, &key, 40)).unwrap();
                next += 1;
            }
        }
        _ => panic!("unknown child role {spec:?}"),
    }
}

fn spawn_child(role: &[&str]) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "store::processes::child_process",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, role.join("|"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

fn finish(child: Child, what: &str) -> String {
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{what} failed: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn wait_for(path: &Path) {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn concurrent_writers_lose_nothing_and_readers_see_whole_stores() {
    const WRITERS: usize = 4;
    const PUTS: usize = 20;
    let root = tempfile::tempdir().unwrap();
    let store = root.path().join("trust.json");
    let stop = root.path().join("stop");
    let (s, st) = (store.to_str().unwrap(), stop.to_str().unwrap());
    let readers: Vec<_> = (0..2).map(|_| spawn_child(&["reader", s, st])).collect();
    let count = PUTS.to_string();
    let writers: Vec<_> = (0..WRITERS)
        .map(|id| spawn_child(&["writer", s, &id.to_string(), &count]))
        .collect();
    for w in writers {
        finish(w, "writer");
    }
    fs::write(&stop, "").unwrap();
    for r in readers {
        let out = finish(r, "reader");
        // The harness prints the line after its own `test child_process ... `.
        let reads = out
            .split("READS ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next());
        let reads = reads.unwrap_or_else(|| panic!("no count from the reader: {out}"));
        eprintln!("a reader read {reads} whole stores while the writers ran");
    }
    let final_store = read_store(s).unwrap();
    assert_eq!(final_store.len(), WRITERS * PUTS);
    for id in 0..WRITERS {
        for i in 0..PUTS {
            let key = format!("/w{id}/{i}/goccia.json");
            assert_eq!(
                final_store.get(&key),
                Some(&derived_entry(&key, 3)),
                "{key}"
            );
        }
    }
    assert_eq!(
        serialize_store(&final_store).as_bytes(),
        fs::read(&store).unwrap()
    );
}

#[test]
fn a_writer_killed_at_random_moments_leaves_the_old_or_the_new_store() {
    let root = tempfile::tempdir().unwrap();
    let store = root.path().join("trust.json");
    let s = store.to_str().unwrap();
    let loc = location(&store, false);
    let mut seed = std::process::id() as u64 ^ 0x9e37_79b9_7f4a_7c15;
    let mut seen = 0;
    let (mut torn_temp_files, mut kills) = (0, 0);
    while kills < 40 {
        let mut child = spawn_child(&["crasher", s]);
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        std::thread::sleep(Duration::from_millis(20 + seed % 60));
        child.kill().unwrap(); // SIGKILL: no destructor, no unlock, no cleanup
        child.wait().unwrap();
        kills += 1;

        let current = read_store(s).unwrap_or_else(|e| panic!("after kill {kills}: {e}"));
        let crashed: Vec<_> = current
            .iter()
            .filter(|(k, _)| k.starts_with("/c/"))
            .collect();
        // Entries are added one per update, so a whole store holds exactly
        // /c/00000 .. /c/<n-1>, each one complete, and never fewer than before.
        for (i, (k, e)) in crashed.iter().enumerate() {
            assert_eq!(*k, format!("/c/{i:05}"));
            assert_eq!(*e, &derived_entry(k, 40));
        }
        assert!(crashed.len() >= seen);
        seen = crashed.len();

        if dir_names(root.path()).iter().any(|n| n.ends_with(".tmp")) {
            torn_temp_files += 1;
        }
        // The killed writer's lock and temp file do not hold up the next writer.
        let start = Instant::now();
        let marker = format!("{kills}");
        update_store_with_timeout(&loc, Duration::from_secs(2), |st| {
            st.put("/parent", derived_entry(&marker, 1));
            Ok(())
        })
        .unwrap();
        assert!(start.elapsed() < Duration::from_secs(1));
        assert_eq!(
            read_store(s).unwrap().get("/parent"),
            Some(&derived_entry(&marker, 1))
        );
        let names = dir_names(root.path());
        assert!(
            names
                .iter()
                .all(|n| n == "trust.json" || n == "trust.json.lock"),
            "{names:?}"
        );
    }
    eprintln!("{kills} kills, {seen} entries written, {torn_temp_files} kills left a temp file");
    assert!(seen > 0, "the writer never got to write");
}

// ── Locking ─────────────────────────────────────────────────────────

fn hold_lock(root: &Path, store: &Path, hold_ms: u64) -> (Child, PathBuf) {
    let marker = root.join(format!("locked-{hold_ms}"));
    let lock = format!("{}.lock", store.display());
    let child = spawn_child(&[
        "holder",
        &lock,
        marker.to_str().unwrap(),
        &hold_ms.to_string(),
    ]);
    wait_for(&marker);
    (child, marker)
}

#[test]
fn a_held_lock_makes_a_writer_wait_until_it_is_released() {
    let root = tempfile::tempdir().unwrap();
    let store = root.path().join("trust.json");
    let (holder, _) = hold_lock(root.path(), &store, 700);
    let start = Instant::now();
    let up = update_store_with_timeout(&location(&store, false), Duration::from_secs(8), |s| {
        put_derived(s, "/k", 1)
    });
    let waited = start.elapsed();
    assert!(up.unwrap().written);
    assert!(
        waited >= Duration::from_millis(400),
        "did not wait: {waited:?}"
    );
    finish(holder, "holder");
}

fn assert_locked_out(timeout: Option<Duration>) {
    let root = tempfile::tempdir().unwrap();
    let store = root.path().join("trust.json");
    let loc = location(&store, false);
    update_store(&loc, |s| put_derived(s, "/old", 1)).unwrap();
    let before = fs::read(&store).unwrap();
    let limit = timeout.unwrap_or(LOCK_TIMEOUT);
    let (mut holder, marker) = hold_lock(root.path(), &store, limit.as_millis() as u64 + 5000);
    let start = Instant::now();
    let result = match timeout {
        Some(t) => update_store_with_timeout(&loc, t, |s| put_derived(s, "/new", 1)),
        None => update_store(&loc, |s| put_derived(s, "/new", 1)),
    };
    let waited = start.elapsed();
    holder.kill().unwrap();
    holder.wait().unwrap();
    let err = result.unwrap_err();
    assert!(
        waited >= limit && waited < limit + Duration::from_secs(2),
        "{waited:?}"
    );
    assert!(matches!(err, StoreError::Locked { .. }));
    assert_eq!(err.exit_code(), 1);
    let lock = format!("{}.lock", store.display());
    assert!(
        err.to_string().contains(&format!("({lock} was held for ")),
        "{err}"
    );
    assert_eq!(fs::read(&store).unwrap(), before, "the store is unchanged");
    fs::remove_file(marker).unwrap();
    assert_eq!(dir_names(root.path()), ["trust.json", "trust.json.lock"]);
}

#[test]
fn a_lock_held_past_the_timeout_fails_naming_the_lock_file() {
    assert_locked_out(Some(Duration::from_millis(300)));
}

/// The real 10-second wait: it costs ten seconds of sleeping, no CPU, and
/// runs alongside the other tests.
#[test]
fn the_default_lock_timeout_is_ten_seconds() {
    assert_eq!(LOCK_TIMEOUT, Duration::from_secs(10));
    assert_locked_out(None);
}
