//! The trust store against the disk: exact bytes, atomic locked updates and
//! file modes here; real concurrency, crashes and locks in `processes`.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use goccia_trust::core::config::json::{self, Json};
use goccia_trust::core::store::{
    Sha256, Store, StoreError, StoreLocation, StoredEntry, parse_store, read_store,
    serialize_store, update_store, update_store_with_timeout,
};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/store")
        .join(name);
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn entry(sha256: &str, block: &str, targets: &[(&str, &str)], at: &str, by: &str) -> StoredEntry {
    StoredEntry {
        sha256: Sha256::from_hex(sha256).unwrap(),
        block: json::parse(block).unwrap().into(),
        targets: StoredEntry::boxed_targets(
            targets.iter().map(|(s, t)| (s.to_string(), t.to_string())),
        ),
        trusted_at: at.into(),
        trusted_by: by.into(),
    }
}

fn location(path: &Path, is_default: bool) -> StoreLocation {
    StoreLocation {
        path: path.to_str().unwrap().into(),
        is_default,
        as_typed: None,
    }
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn dir_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// An entry whose every field is derived from its key, so a reader can
/// tell a whole entry from a torn or mixed one.
fn derived_entry(key: &str, padding: usize) -> StoredEntry {
    let digest = format!(
        "{:064x}",
        key.bytes()
            .fold(0u128, |h, b| h.wrapping_mul(131).wrapping_add(b as u128))
    );
    let scopes: Vec<Json> = (0..padding)
        .map(|i| Json::String(format!("{key}/scope-{i}")))
        .collect();
    StoredEntry {
        sha256: Sha256::from_hex(&digest).unwrap(),
        block: Json::Object(vec![
            (
                "permissions".into(),
                Json::Object(vec![("allow-read".into(), Json::Array(scopes))]),
            ),
            ("version".into(), Json::Number("1".into())),
        ])
        .into(),
        targets: StoredEntry::boxed_targets([(format!("{key}/scope-0"), format!("/real{key}"))]),
        trusted_at: "2026-09-25T10:12:03Z".into(),
        trusted_by: "goccia-trust 0.1.0".into(),
    }
}

fn put_derived(store: &mut Store, key: &str, padding: usize) -> Result<(), StoreError> {
    store.put(key, derived_entry(key, padding));
    Ok(())
}

// ── Exact bytes ─────────────────────────────────────────────────────

#[test]
fn entries_given_out_of_order_serialize_to_the_expected_bytes() {
    let by = "goccia-trust 0.1.0";
    let ctl = "/home/u/ctl\u{1}\u{8}\t\n\u{c}\r\u{1f}\u{7f}/goccia.json";
    let mut store = Store::new();
    store.put(
        "/home/u/é/日本/goccia.json",
        entry(
            &"a".repeat(64),
            r#"{"permissions":{"allow-read":["/home/u/é/日本/data"]},"sandbox":{"copy":["/home/u/é/src=/app","/home/u/é/src=/app"],"diff":true},"version":1}"#,
            &[("/home/u/é/日本/data", "/home/u/é/日本/data"), ("/x/😀", "/y/😀")],
            "2026-09-25T10:12:07Z",
            by,
        ),
    );
    store.put(
        "/home/u/z/goccia.json",
        entry(
            "4ba5043ddf965d0c60e5b1f80f8942c8abb3d5fe38dfd0eff92854c0839f29a2",
            r#"{"permissions":{"allow-net":["127.0.0.1","example.com"],"deny-net":["10.0.0.0\/8"]},"unsafe":{"unsafe-function-constructor":true},"version":1}"#,
            &[],
            "2026-09-25T10:12:06Z",
            by,
        ),
    );
    store.put(
        ctl,
        entry(
            "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210",
            r#"{"permissions":{"allow-read":["/home/u/ctl\u0001\t/a","/home/u/ctl\u0001\t/b"]},"version":1}"#,
            &[("/home/u/ctl\u{1}\t/a", "/home/u/ctl\u{1}\t/a"), ("/home/u/ctl\u{1}\t/b", "/mnt/b\u{1b}[31m")],
            "2026-09-25T10:12:05Z",
            "GocciaTestRunner 0.14.0",
        ),
    );
    store.put(
        "/home/u/\"quoted\"\\back\\slash/goccia.json",
        entry(
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            r#"{"permissions":{"allow-read":["/home/u/\"quoted\"\\back\\slash/data"]},"version":1}"#,
            &[("/home/u/\"quoted\"\\back\\slash/data", "/srv/\"real\"\\data")],
            "2026-09-25T10:12:04Z",
            by,
        ),
    );
    store.put(
        "/home/U/goccia.json",
        entry(
            "82f6b42e27b9fa1a64ec278150885bf545e7cce4574dda23b78de05f17d954a6",
            r#"{"permissions":{"allow-net":["0.0.0.0","127.0.0.1","example.com"]},"version":1}"#,
            &[],
            "2026-09-25T10:12:03Z",
            by,
        ),
    );
    let expected = fixture("escapes.expected.json");
    assert_eq!(
        serialize_store(&store),
        String::from_utf8(expected.clone()).unwrap()
    );
    // And back: reading the bytes gives the same entries (in sorted order).
    let reread = parse_store("P", &expected).unwrap();
    assert_eq!(reread.get(ctl), store.get(ctl));
    assert_eq!(serialize_store(&reread).as_bytes(), expected);
}

#[test]
fn the_empty_store_bytes() {
    assert_eq!(
        serialize_store(&Store::new()).as_bytes(),
        fixture("empty.expected.json")
    );
    assert!(
        parse_store("P", &fixture("empty.expected.json"))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_goccia_written_store_round_trips_byte_for_byte() {
    let bytes = fixture("goccia-written.json");
    let store = parse_store("P", &bytes).unwrap();
    assert_eq!(store.len(), 2);
    assert_eq!(
        store
            .get("/home/u/project/goccia.json")
            .unwrap()
            .targets
            .len(),
        3
    );
    assert_eq!(serialize_store(&store).as_bytes(), bytes);
}

// ── Updating ────────────────────────────────────────────────────────

#[test]
fn an_update_writes_only_when_something_changed() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("a/b");
    let path = dir.join("trust.json");
    let loc = location(&path, false);

    // Nothing to change: nothing is created, not even the directory.
    let up = update_store(&loc, |s| Ok(s.remove("/x").is_some())).unwrap();
    assert!(!up.written && !up.value);
    assert!(!root.path().join("a").exists());

    let up = update_store(&loc, |s| put_derived(s, "/p/goccia.json", 2)).unwrap();
    assert!(up.written);
    assert_eq!(dir_names(&dir), ["trust.json", "trust.json.lock"]);
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&dir.join("trust.json.lock")), 0o600);
    assert_eq!(
        mode(&root.path().join("a")),
        0o700,
        "created directories are private"
    );
    assert_eq!(mode(&dir), 0o700);
    let written = fs::read(&path).unwrap();
    assert_eq!(
        written,
        serialize_store(&read_store(loc.path.as_str()).unwrap()).as_bytes()
    );

    // The same entry again is no change: the file is not rewritten.
    let before = fs::metadata(&path).unwrap().modified().unwrap();
    let up = update_store(&loc, |s| put_derived(s, "/p/goccia.json", 2)).unwrap();
    assert!(!up.written);
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);

    let up = update_store(&loc, |s| Ok(s.retain(|k, _| !k.starts_with("/p/")))).unwrap();
    assert!(up.written);
    assert_eq!(up.value, ["/p/goccia.json"]);
    assert_eq!(fs::read(&path).unwrap(), fixture("empty.expected.json"));
}

#[test]
fn the_default_store_directory_is_made_private_on_every_save() {
    let root = tempfile::tempdir().unwrap();
    for (is_default, want) in [(true, 0o700), (false, 0o755)] {
        let dir = root.path().join(format!("default-{is_default}"));
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        let loc = location(&dir.join("trust.json"), is_default);
        update_store(&loc, |s| put_derived(s, "/k", 1)).unwrap();
        assert_eq!(mode(&dir), want, "is_default {is_default}");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        update_store(&loc, |s| put_derived(s, "/k2", 1)).unwrap();
        assert_eq!(mode(&dir), want, "again, is_default {is_default}");
    }
}

#[test]
fn an_invalid_store_is_never_overwritten() {
    let root = tempfile::tempdir().unwrap();
    let path = root.path().join("trust.json");
    for bad in [
        "not json",
        r#"{"version": 2, "trusted": {}}"#,
        r#"{"version": 1}"#,
    ] {
        fs::write(&path, bad).unwrap();
        let err = update_store(&location(&path, true), |s| put_derived(s, "/k", 1)).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("trust store {}", path.display())),
            "{err}"
        );
        assert_eq!(err.exit_code(), 1);
        assert_eq!(fs::read_to_string(&path).unwrap(), bad);
        assert_eq!(dir_names(root.path()), ["trust.json"]);
    }
}

#[test]
fn an_error_from_the_change_writes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let path = root.path().join("trust.json");
    let loc = location(&path, false);
    update_store(&loc, |s| put_derived(s, "/a", 1)).unwrap();
    let before = fs::read(&path).unwrap();
    let mut calls = 0;
    let err = update_store(&loc, |s| {
        calls += 1;
        put_derived(s, "/b", 1)?;
        // Fails only under the lock, after the dry run said "write".
        if calls == 2 {
            Err(StoreError::Invalid {
                path: "x".into(),
                problem: "y".into(),
            })
        } else {
            Ok(())
        }
    })
    .unwrap_err();
    assert!(matches!(err, StoreError::Invalid { .. }));
    assert_eq!(fs::read(&path).unwrap(), before);
    assert_eq!(dir_names(root.path()), ["trust.json", "trust.json.lock"]);
}

#[test]
fn an_unreadable_store_is_an_error_naming_it() {
    // Root reads any file whatever its mode, so as root the reader is the
    // real binary run as `nobody`, on a tree `nobody` can reach.
    let root = tempfile::tempdir().unwrap();
    fs::set_permissions(root.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let path = root.path().join("trust.json");
    fs::write(&path, fixture("empty.expected.json")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
    let p = path.to_str().unwrap();
    let expected = format!("cannot read trust store {p}: Permission denied");
    let as_root = unsafe { libc::geteuid() } == 0;
    if !as_root {
        assert_eq!(read_store(p).unwrap_err().to_string(), expected);
    }
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    let mut cmd = if as_root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    } else {
        std::process::Command::new(bin)
    };
    let out = cmd
        .current_dir(root.path())
        .env_clear()
        .env("HOME", root.path())
        .args(["list", &format!("--trust-store={p}")])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("Error: {expected}\n")
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn leftovers_of_a_dead_writer_never_block_the_next_one() {
    let root = tempfile::tempdir().unwrap();
    let path = root.path().join("trust.json");
    fs::write(root.path().join("trust.json.lock"), "").unwrap();
    fs::write(root.path().join("trust.json.999999999.tmp"), "{\"ver").unwrap();
    let start = Instant::now();
    let up = update_store_with_timeout(&location(&path, false), Duration::from_millis(200), |s| {
        put_derived(s, "/k", 1)
    })
    .unwrap();
    assert!(up.written && start.elapsed() < Duration::from_millis(200));
    assert_eq!(dir_names(root.path()), ["trust.json", "trust.json.lock"]);
}

// ── Links and modes (issue 9 item 5, issue 10 item 1) ──────────────

#[test]
fn a_store_reached_through_a_link_keeps_its_link_and_the_real_file_is_replaced() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path().canonicalize().unwrap();
    // A dotfile manager links the store into a repository of dotfiles.
    let dotfiles = root.join("dotfiles/goccia");
    fs::create_dir_all(&dotfiles).unwrap();
    fs::write(dotfiles.join("trust.json"), fixture("empty.expected.json")).unwrap();
    let config = root.join("config/goccia");
    fs::create_dir_all(&config).unwrap();
    let link = config.join("trust.json");
    std::os::unix::fs::symlink("../../dotfiles/goccia/trust.json", &link).unwrap();
    let loc = location(&link, true);
    update_store(&loc, |s| put_derived(s, "/k", 1)).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read_link(&link).unwrap(),
        Path::new("../../dotfiles/goccia/trust.json")
    );
    let mut want = Store::new();
    put_derived(&mut want, "/k", 1).unwrap();
    assert_eq!(
        fs::read_to_string(dotfiles.join("trust.json")).unwrap(),
        serialize_store(&want)
    );
    // The lock is `<store as given>.lock`, as GocciaScript takes it; the
    // temp file was renamed away beside the real file.
    assert_eq!(dir_names(&config), ["trust.json", "trust.json.lock"]);
    assert_eq!(dir_names(&dotfiles), ["trust.json"]);
}

#[test]
fn a_dangling_store_link_is_an_error_not_a_new_store() {
    let root = tempfile::tempdir().unwrap();
    let link = root.path().join("trust.json");
    std::os::unix::fs::symlink("gone/trust.json", &link).unwrap();
    let p = link.to_str().unwrap();
    let want = format!(
        "trust store {p} is a symbolic link to gone/trust.json, which does not exist; restore the file it points to or remove the link"
    );
    assert_eq!(read_store(p).unwrap_err().to_string(), want);
    let err = update_store(&location(&link, false), |s| put_derived(s, "/k", 1)).unwrap_err();
    assert_eq!(err.to_string(), want);
    assert_eq!(dir_names(root.path()), ["trust.json"]);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_store_others_can_write_is_never_written() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("goccia");
    fs::create_dir(&dir).unwrap();
    let path = dir.join("trust.json");
    let bytes = fixture("empty.expected.json");
    fs::write(&path, &bytes).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o666)).unwrap();
    let p = path.to_str().unwrap();
    let err = update_store(&location(&path, true), |s| put_derived(s, "/k", 1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("the trust store {p} is writable by others (mode 0666); run chmod 600 {p}")
    );
    assert_eq!(err.exit_code(), 1);
    assert_eq!(fs::read(&path).unwrap(), bytes);
    assert_eq!(dir_names(&dir), ["trust.json"]);

    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
    let d = dir.to_str().unwrap();
    let err = update_store(&location(&path, true), |s| put_derived(s, "/k", 1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the trust store directory {d} is writable by others (mode 0777); run chmod 700 {d}"
        )
    );
    // Not even the default directory is quietly made private: the user
    // has to know someone could have written there.
    assert_eq!(mode(&dir), 0o777);
    assert_eq!(fs::read(&path).unwrap(), bytes);
    assert_eq!(dir_names(&dir), ["trust.json"]);
}

mod processes;
