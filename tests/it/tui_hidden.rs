//! Issue 30 item 2: nothing hidden by state. A filter restored from a saved
//! session is said on the status line, with how many of the rows it hides
//! need review; any filter that hides a row needing review says how many;
//! a `--since` review keeps its own session, so the store review's filter
//! (whose states mean something else there) does not carry into it.

use crate::tui_common as common;

use common::{Harness, draw, text};
use goccia_trust::core::review::progress::Session;
use goccia_trust::core::review::report::ConfigState;
use goccia_trust::tui::Theme;
use goccia_trust::tui::fake::FakeBackend;
use goccia_trust::tui::fixtures::{self, Fixture};

const TREE: &str = "/home/dev/shop";

/// The sample's configs that need review, in list order.
const ORDER_NEEDS_REVIEW: [&str; 3] = [
    "packages/api/goccia.toml",
    "packages/web/goccia.json5",
    "scripts/goccia.toml",
];

/// The review of `fixture` resumed from a session that saved `state` as
/// its filter in the store review.
fn resumed(fixture: Fixture, state: &str) -> Harness {
    let backend = FakeBackend::new(fixture);
    backend.data().progress.sessions.insert(
        TREE.to_string(),
        Session {
            state: Some(state.to_string()),
            ..Session::default()
        },
    );
    Harness::with_backend(backend)
}

/// The status line (the row above the key hints) at `w`x`h`.
fn status_line(h: &Harness, w: u16, ht: u16) -> String {
    let screen = text(&draw(&h.state, &Theme::default(), w, ht));
    screen.lines().nth(usize::from(ht) - 2).unwrap().to_string()
}

#[test]
fn a_saved_filter_is_said_with_the_rows_it_hides_that_need_review() {
    let mut h = resumed(fixtures::sample(), "changed");
    assert_eq!(h.state.state_filter, Some(ConfigState::Changed));
    assert_eq!(h.visible_paths(), ["packages/api/goccia.toml"]);
    // Two never-trusted configs are hidden: said, at both sizes.
    for (w, ht) in [(120, 35), (80, 24)] {
        let status = status_line(&h, w, ht);
        assert!(
            status.contains("filter: state changed (saved) · esc clears · 2 hidden need review"),
            "{w}x{ht}: {status}"
        );
    }
    // esc clears it, and with it the note.
    h.keys("<esc>");
    assert_eq!(h.state.state_filter, None);
    assert_eq!(h.visible_paths().len(), 7);
    let status = status_line(&h, 120, 35);
    assert!(!status.contains("filter:"), "{status}");
    assert!(!status.contains("hidden"), "{status}");
}

#[test]
fn one_hidden_row_needing_review_is_counted_in_the_singular() {
    // `never-trusted` hides the changed config.
    let h = resumed(fixtures::sample(), "never-trusted");
    assert_eq!(h.visible_paths().len(), 2);
    let status = status_line(&h, 80, 24);
    assert!(
        status.contains("filter: state never trusted (saved) · esc clears · 1 hidden needs review"),
        "{status}"
    );
}

#[test]
fn a_filter_set_now_still_counts_what_it_hides() {
    let mut h = Harness::new(fixtures::sample());
    // `s` then `s`: never trusted, which hides the changed config.
    h.keys("ss");
    let status = status_line(&h, 80, 24);
    assert!(
        status.contains("filter: state never trusted · esc clears · 1 hidden needs review"),
        "{status}"
    );
    assert!(!status.contains("(saved)"), "{status}");
    // A path query that hides every config needing review says so too.
    h.keys("<esc>/docs<enter>");
    let status = status_line(&h, 120, 35);
    assert!(
        status.contains("filter: path docs · esc clears · 3 hidden need review"),
        "{status}"
    );
    h.keys("<esc>/packages<enter>");
    let status = status_line(&h, 120, 35);
    assert!(
        status.contains("filter: path packages · esc clears · 1 hidden needs review"),
        "{status}"
    );
    // A filter that hides no row needing review needs no note.
    h.keys("<esc>/p<enter>");
    assert_eq!(h.visible_paths(), &ORDER_NEEDS_REVIEW);
    let status = status_line(&h, 120, 35);
    assert!(!status.contains("hidden"), "{status}");
}

#[test]
fn a_filter_saved_by_the_store_review_does_not_carry_into_since() {
    let mut h = resumed(fixtures::sample_since(), "changed");
    assert!(h.state.since.is_some());
    assert_eq!(
        h.state.state_filter, None,
        "no filter from the store review"
    );
    assert_eq!(h.visible_paths().len(), 7);
    assert!(!status_line(&h, 120, 35).contains("filter:"));
    // The since review's own filter is saved apart from the store review's.
    h.keys("ss");
    let saved = h.state.progress_to_save();
    assert_eq!(
        saved.sessions[TREE].state.as_deref(),
        Some("changed"),
        "the store review's session is left as it was"
    );
    assert_eq!(
        saved.since_sessions[TREE].state.as_deref(),
        Some("never-trusted")
    );
}

#[test]
fn a_since_review_resumes_its_own_saved_filter() {
    let backend = FakeBackend::new(fixtures::sample_since());
    backend.data().progress.since_sessions.insert(
        TREE.to_string(),
        Session {
            state: Some("changed".to_string()),
            ..Session::default()
        },
    );
    let h = Harness::with_backend(backend);
    assert_eq!(h.state.state_filter, Some(ConfigState::Changed));
    let status = status_line(&h, 80, 24);
    assert!(
        status.contains("filter: state changed (saved) · esc clears · 2 hidden need review"),
        "{status}"
    );
}
