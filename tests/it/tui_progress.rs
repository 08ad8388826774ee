//! Review progress (viewed marks) shared by two reviews open at once
//! (issue 39 item 7), over real files through the real core: each `v`
//! changes the file under its lock and merges with what the other review
//! wrote, so neither review's marks are lost.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use goccia_trust::core::env::Env;
use goccia_trust::core::store::StoreLocation;
use goccia_trust::tui::core_backend::CoreBackend;
use goccia_trust::tui::state::State;

use crate::common::TestEnv;
use crate::tui_common::core::{keys, review};

/// A review's own backend (a window of its own) over the tree's state
/// directory.
fn backend_at(t: &TestEnv) -> CoreBackend {
    let dir = t.root.join("store");
    fs::create_dir_all(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
    let env = Env {
        cwd: t.work.to_str().unwrap().into(),
        home: t.home.to_str().unwrap().into(),
        state_dir: t.root.join("state").to_str().unwrap().into(),
        ..Env::default()
    };
    CoreBackend::new(
        env,
        Ok(StoreLocation {
            path: dir.join("trust.json").to_str().unwrap().into(),
            is_default: false,
            as_typed: None,
        }),
    )
}

fn viewed(state: &State) -> Vec<String> {
    let mut v: Vec<String> = state
        .configs
        .iter()
        .filter(|r| state.is_viewed(r))
        .map(|r| r.key.rsplit('/').nth(1).unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn two_reviews_open_at_once_keep_each_others_viewed_marks() {
    let t = TestEnv::new();
    for d in ["a", "b", "c"] {
        t.write(
            &format!("repo/{d}/goccia.json"),
            &format!(r#"{{"permissions": {{"allow-net": ["{d}.test"]}}}}"#),
        );
    }
    let root = t.work.join("repo").to_str().unwrap().to_string();
    // Both windows open before either marks anything.
    let (one, two) = (backend_at(&t), backend_at(&t));
    let mut first = review(&one, &root);
    let mut second = review(&two, &root);
    keys(&one, &mut first, "v");
    keys(&two, &mut second, "jv");
    assert_eq!(viewed(&first), ["a"]);
    assert_eq!(viewed(&second), ["b"]);
    // The first window unmarks `a` and marks `c`: its own change, the
    // second's mark kept.
    keys(&one, &mut first, "gv");
    keys(&one, &mut first, "Gv");
    let again = review(&backend_at(&t), &root);
    assert_eq!(viewed(&again), ["b", "c"]);
    assert!(
        !t.root.join("state/review-progress.json.lock").is_dir(),
        "a lock file, never a directory"
    );
}
