//! The TUI's real backend and the store's owner checks (issue 10): the
//! banner's warnings come from the same core check as the CLI's, and a
//! commit refuses what `trust` refuses.

use std::fs;
use std::ops::ControlFlow;
use std::os::unix::fs::PermissionsExt;

use goccia_trust::core::env::Env;
use goccia_trust::core::review::report::ConfigReport;
use goccia_trust::core::store::StoreLocation;
use goccia_trust::tui::backend::{CommitError, ScanEvent, TuiBackend};
use goccia_trust::tui::core_backend::CoreBackend;

fn scan(backend: &CoreBackend, root: &str) -> Vec<ConfigReport> {
    let mut found = Vec::new();
    backend.scan(root, &mut |e| {
        if let ScanEvent::Found(r) = e {
            found.push(*r);
        }
        ControlFlow::Continue(())
    });
    found
}

fn setup() -> (tempfile::TempDir, std::path::PathBuf, Env) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    fs::create_dir_all(root.join("p")).unwrap();
    fs::write(
        root.join("p/goccia.json"),
        r#"{"permissions": {"allow-net": ["example.com"]}}"#,
    )
    .unwrap();
    let env = Env {
        cwd: root.to_str().unwrap().into(),
        home: root.join("home").to_str().unwrap().into(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
    };
    (t, root, env)
}

#[test]
fn a_store_directory_others_can_write_is_a_banner_and_a_refused_commit() {
    let (_t, root, env) = setup();
    let dir = root.join("s");
    fs::create_dir(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
    let loc = StoreLocation {
        path: dir.join("trust.json").to_str().unwrap().into(),
        is_default: false,
        as_typed: None,
    };
    let backend = CoreBackend::new(env, Ok(loc));
    let p = root.join("p");
    let p = p.to_str().unwrap();
    let d = dir.display();
    let warning = format!(
        "the trust store directory {d} is writable by others (mode 0777); run chmod 700 {d}"
    );
    assert_eq!(backend.store_warnings(p), std::slice::from_ref(&warning));
    let shown = scan(&backend, p);
    assert_eq!(shown.len(), 1);
    match backend.trust(&shown) {
        Err(CommitError::Failed(m)) => assert_eq!(m, warning),
        other => panic!("{other:?}"),
    }
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "nothing written");
    // Made private, the same store takes the commit and the banner goes.
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
    assert_eq!(backend.store_warnings(p), Vec::<String>::new());
    assert!(backend.trust(&shown).is_ok());
}

#[test]
fn a_trust_store_inside_the_reviewed_tree_is_a_banner_and_a_refused_commit() {
    let (_t, root, env) = setup();
    let store = root.join("p/trust.json");
    let loc = StoreLocation {
        path: store.to_str().unwrap().into(),
        is_default: false,
        as_typed: Some("p/trust.json".into()),
    };
    let backend = CoreBackend::new(env, Ok(loc));
    let p = root.join("p");
    let p = p.to_str().unwrap();
    let warning = format!(
        "the trust store {} is inside {p}, a tree under review: a repository could ship a store that trusts its own configs; keep the store outside it",
        store.display()
    );
    assert_eq!(backend.store_warnings(p), std::slice::from_ref(&warning));
    let shown = scan(&backend, p);
    match backend.trust(&shown) {
        Err(CommitError::Failed(m)) => assert_eq!(m, warning),
        other => panic!("{other:?}"),
    }
    assert!(!store.exists());
}
