//! `i` in the interactive review (issue 31 item 1), over real files through
//! the real core: it ignores the selected (or marked) configs in the state
//! directory's ignore list, the footer stops counting them, and a restart
//! shows them ignored again; the store is never written.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use goccia_trust::core::env::Env;
use goccia_trust::core::review::report::ConfigState;
use goccia_trust::core::store::StoreLocation;
use goccia_trust::style::theme::Theme;
use goccia_trust::tui::core_backend::CoreBackend;
use goccia_trust::tui::state::State;

use crate::common::TestEnv;
use crate::tui_common::core::{keys, review};
use crate::tui_common::{draw, text};

fn setup() -> (TestEnv, CoreBackend, String) {
    let t = TestEnv::new();
    for d in ["a", "b", "c"] {
        t.write(
            &format!("repo/{d}/goccia.json"),
            &format!(r#"{{"permissions": {{"allow-net": ["{d}.test"]}}}}"#),
        );
    }
    let backend = backend_at(&t);
    let root = t.work.join("repo").to_str().unwrap().to_string();
    (t, backend, root)
}

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

fn state_of(state: &State, dir: &str) -> ConfigState {
    state
        .configs
        .iter()
        .find(|r| r.key.ends_with(&format!("/{dir}/goccia.json")))
        .unwrap()
        .state
}

#[test]
fn i_ignores_the_selected_config_and_it_stays_ignored_after_a_restart() {
    let (t, backend, root) = setup();
    let mut state = review(&backend, &root);
    assert_eq!(state.needs_review_count(), 3);
    keys(&backend, &mut state, "i");
    assert_eq!(state_of(&state, "a"), ConfigState::Ignored);
    assert_eq!(state.needs_review_count(), 2, "left out of the count");
    let status = state.status.clone().unwrap();
    assert!(!status.is_error, "{status:?}");
    assert!(
        status.text.contains("GocciaScript still refuses"),
        "{status:?}"
    );
    // The row shows it, and the hint bar offers the key where the bar has
    // room for every key (`enter` and `tab` outlast it when it has not).
    let screen = text(&draw(&state, &Theme::mono(), 160, 20));
    assert!(screen.contains("- ignored"), "{screen}");
    assert!(screen.contains("i ignore"), "{screen}");
    assert!(screen.contains("2 need review"), "{screen}");
    let list = fs::read_to_string(t.root.join("state/ignored.json")).unwrap();
    assert!(list.contains("/repo/a/goccia.json"), "{list}");
    assert!(
        !t.root.join("store/trust.json").exists(),
        "the store is not written"
    );

    // Restarted: still ignored.
    let again = review(&backend_at(&t), &root);
    assert_eq!(state_of(&again, "a"), ConfigState::Ignored);
    assert_eq!(state_of(&again, "b"), ConfigState::NeverTrusted);
    assert_eq!(again.needs_review_count(), 2);

    // Changed since: asks again.
    t.write(
        "repo/a/goccia.json",
        r#"{"permissions": {"allow-net": ["z.test"]}}"#,
    );
    let changed = review(&backend_at(&t), &root);
    assert_eq!(state_of(&changed, "a"), ConfigState::NeverTrusted);
}

#[test]
fn i_on_marked_configs_ignores_them_all_and_again_asks_again() {
    let (t, backend, root) = setup();
    let mut state = review(&backend, &root);
    keys(&backend, &mut state, "  i");
    assert_eq!(state_of(&state, "a"), ConfigState::Ignored);
    assert_eq!(state_of(&state, "b"), ConfigState::Ignored);
    assert_eq!(state_of(&state, "c"), ConfigState::NeverTrusted);
    // Both marked and ignored: `i` unignores them.
    keys(&backend, &mut state, "i");
    assert_eq!(state_of(&state, "a"), ConfigState::NeverTrusted);
    assert_eq!(state_of(&state, "b"), ConfigState::NeverTrusted);
    let again = review(&backend_at(&t), &root);
    assert_eq!(again.needs_review_count(), 3);
    // `t` on an ignored config leaves it out.
    let mut state = review(&backend, &root);
    keys(&backend, &mut state, "ig");
    assert_eq!(state_of(&state, "a"), ConfigState::Ignored);
    keys(&backend, &mut state, "G");
    assert_eq!(state.selected_config().unwrap().state, ConfigState::Ignored);
    keys(&backend, &mut state, "t");
    let status = state.status.clone().unwrap();
    assert!(status.text.contains("ignored"), "{status:?}");
    assert!(!t.root.join("store/trust.json").exists(), "nothing trusted");
}

#[test]
fn an_unsafe_ignore_list_is_reported_and_hides_nothing() {
    let (t, backend, root) = setup();
    let mut state = review(&backend, &root);
    keys(&backend, &mut state, "i");
    let file = t.root.join("state/ignored.json");
    fs::set_permissions(&file, fs::Permissions::from_mode(0o666)).unwrap();
    let again = review(&backend_at(&t), &root);
    assert_eq!(again.needs_review_count(), 3, "nothing hidden");
    let status = again.status.clone().unwrap();
    assert!(
        status.is_error && status.text.contains("nothing is treated as ignored"),
        "{status:?}"
    );
    // `i` now fails without writing over it, and says so.
    let mut again = again;
    keys(&backend, &mut again, "i");
    let status = again.status.clone().unwrap();
    assert!(
        status.is_error && status.text.starts_with("Ignore list not changed: "),
        "{status:?}"
    );
    assert_eq!(
        again.needs_review_count(),
        3,
        "shown as the list on disk says"
    );
}

/// Issue 41 item 8: an ignore is kept with where the config's path scopes
/// resolved; a link re-pointed since ends it in the review, `scan` and
/// `status` alike.
#[test]
fn a_re_pointed_link_ends_the_ignore_everywhere() {
    let t = TestEnv::new();
    t.mkdir("shared/assets-v1");
    t.mkdir("secret");
    t.write(
        "repo/a/goccia.json",
        r#"{"permissions": {"allow-read": ["./static"]}}"#,
    );
    t.symlink("../../shared/assets-v1", "repo/a/static");
    let root = t.work.join("repo").to_str().unwrap().to_string();
    let backend = backend_at(&t);
    let mut state = review(&backend, &root);
    keys(&backend, &mut state, "i");
    assert_eq!(state_of(&state, "a"), ConfigState::Ignored);
    let status_args = ["status", "repo/a"];
    let ignored = "goccia: 1 ignored (run goccia-trust to review)\n";
    assert_eq!(t.run(&status_args).stdout, ignored);
    // The same block, its link pointed at another directory.
    fs::remove_file(t.work.join("repo/a/static")).unwrap();
    t.symlink("../../secret", "repo/a/static");
    let again = review(&backend_at(&t), &root);
    assert_eq!(state_of(&again, "a"), ConfigState::NeverTrusted);
    let out = t.run(&status_args);
    assert_eq!(
        out.stdout, "goccia: 1 never trusted (run goccia-trust to review)\n",
        "{out}"
    );
    let out = t.run(&["scan", "--json", "repo"]);
    assert!(out.stdout.contains("\"state\": \"never-trusted\""), "{out}");
    // Pointed back: ignored again.
    fs::remove_file(t.work.join("repo/a/static")).unwrap();
    t.symlink("../../shared/assets-v1", "repo/a/static");
    assert_eq!(t.run(&status_args).stdout, ignored);
}
