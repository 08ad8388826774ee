//! A policy, a store or an ignore list that does not exist, cannot be read
//! for lack of permission, or is not a regular file: each its own message,
//! naming the file (issue 39 item 5). A permission problem runs the binary
//! as `nobody` when the suite runs as root (root reads everything).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::{TestEnv, open_for_unprivileged, run_unprivileged};

const POLICY: &str = r#"{"grants": {"READ_ONLY": "allow"}, "risk_to_level": {"R0": "READ_ONLY"}}"#;

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// A tree with one config asking for a host, open to the unprivileged user.
fn tree() -> TestEnv {
    let t = TestEnv::new();
    t.write(
        "goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    open_for_unprivileged(&t, &["work"]);
    std::fs::set_permissions(
        t.work.join("goccia.json"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    t
}

/// `path` made unreadable: mode 0000 (owned by root when the suite runs as
/// root, and the binary then runs as `nobody`).
fn unreadable(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o000)).unwrap();
}

/// `dir` and its parents up to `home`, owned by the unprivileged user and
/// private, as the tool's own directories must be.
fn own_dirs(t: &TestEnv, dir: &Path) {
    let mut d = Some(dir);
    while let Some(p) = d {
        if !p.starts_with(&t.home) {
            break;
        }
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(p, Some(65534), Some(65534)).unwrap();
        }
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o700)).unwrap();
        d = p.parent();
    }
}

#[test]
fn a_policy_missing_unreadable_or_not_a_file_says_which() {
    let t = tree();
    let given = t.root.join("given");
    std::fs::create_dir_all(&given).unwrap();
    std::fs::set_permissions(&given, std::fs::Permissions::from_mode(0o755)).unwrap();
    let fifo = given.join("fifo.json");
    mkfifo(&fifo);
    let denied = given.join("denied.json");
    unreadable(&denied, POLICY);
    let cases = [
        ("missing.json", "policy not found: $ROOT/given/missing.json"),
        (
            "denied.json",
            "policy not readable: $ROOT/given/denied.json (permission denied)",
        ),
        (
            "fifo.json",
            "policy not a regular file: $ROOT/given/fifo.json (a FIFO)",
        ),
        ("", "policy not a regular file: $ROOT/given (a directory)"),
    ];
    for (name, message) in cases {
        let file = if name.is_empty() {
            given.clone()
        } else {
            given.join(name)
        };
        let file = file.to_str().unwrap();
        for args in [
            vec!["trust", "--yes", "--policy", file, "."],
            vec!["policy", "show", "--policy", file],
        ] {
            let start = std::time::Instant::now();
            let (out, err, code) = run_unprivileged(&t, &args);
            assert!(start.elapsed().as_secs() < 10, "{args:?} waited");
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert!(
                err.contains(&format!("Error: {message}\n")),
                "{args:?}: {err}"
            );
        }
    }
    assert!(!t.default_store().exists(), "nothing trusted");
}

#[test]
fn a_store_unreadable_or_not_a_file_says_which() {
    let t = tree();
    let store = t.default_store();
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    own_dirs(&t, store.parent().unwrap());
    // Missing: GocciaScript's empty store.
    let (_, err, code) = run_unprivileged(&t, &["list"]);
    assert_eq!((err.as_str(), code), ("", 0));
    unreadable(&store, "{\"version\": 1, \"trusted\": {}}");
    let (_, err, code) = run_unprivileged(&t, &["trust", "--yes", "."]);
    assert_eq!(
        (err.as_str(), code),
        (
            "Error: cannot read trust store $ROOT/home/.config/goccia/trust.json: Permission denied\n",
            1
        )
    );
    std::fs::remove_file(&store).unwrap();
    mkfifo(&store);
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::chown(&store, Some(65534), Some(65534)).unwrap();
    }
    let (_, err, code) = run_unprivileged(&t, &["trust", "--yes", "."]);
    assert_eq!(
        (err.as_str(), code),
        (
            "Error: cannot read trust store $ROOT/home/.config/goccia/trust.json: not a regular file (a FIFO)\n",
            1
        )
    );
}

#[test]
fn an_ignore_list_unreadable_or_not_a_file_says_which() {
    let t = tree();
    let state = t.home.join(".local/state/goccia-trust");
    std::fs::create_dir_all(&state).unwrap();
    own_dirs(&t, &state);
    let list = state.join("ignored.json");
    let shown = "$ROOT/home/.local/state/goccia-trust/ignored.json";
    // Missing: nothing ignored, nothing said.
    let (_, err, code) = run_unprivileged(&t, &["scan", "."]);
    assert_eq!((err.as_str(), code), ("", 0));
    unreadable(&list, "{\"ignored\": {}}");
    let (_, err, _) = run_unprivileged(&t, &["scan", "."]);
    assert_eq!(
        err,
        format!(
            "Warning: ignore list {shown} cannot be read (permission denied); nothing is treated as ignored\n"
        )
    );
    let (_, err, code) = run_unprivileged(&t, &["ignore", "goccia.json"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "ignore list {shown} cannot be read (permission denied); not changed"
        )),
        "{err}"
    );
    std::fs::remove_file(&list).unwrap();
    mkfifo(&list);
    let (_, err, _) = run_unprivileged(&t, &["scan", "."]);
    assert_eq!(
        err,
        format!(
            "Warning: ignore list {shown} is not a regular file (a FIFO); nothing is treated as ignored\n"
        )
    );
    std::fs::remove_file(&list).unwrap();
    std::fs::create_dir(&list).unwrap();
    let (_, err, _) = run_unprivileged(&t, &["scan", "."]);
    assert_eq!(
        err,
        format!(
            "Warning: ignore list {shown} is not a regular file (a directory); nothing is treated as ignored\n"
        )
    );
}
