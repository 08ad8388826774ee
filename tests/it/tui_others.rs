//! Issue 30 item 3 in the interactive review: a deleted config the store
//! still holds and a config file shadowed by a higher-priority name are
//! rows of the Configs view (`missing`, `shadowed`), with a detail pane
//! saying what they are; keys that act on a config refuse them with a
//! reason (a shadowed file is never trusted), `u` on a missing row removes
//! its entry, and the state filter knows both states.

use crate::tui_common as common;

use common::{Harness, draw, missing, shadowed, text};
use goccia_trust::core::review::scan::NotReviewed;
use goccia_trust::tui::Theme;
use goccia_trust::tui::fixtures;
use goccia_trust::tui::msg::{Effect, Msg, Pending};
use goccia_trust::tui::state::{Mode, OtherState};

/// The sample's deleted config, whose entry the fake store holds as missing.
fn gone() -> NotReviewed {
    NotReviewed {
        key: "/home/dev/old-shop/goccia.json".into(),
        display_path: "/home/dev/old-shop/goccia.json".into(),
        by: None,
        trusted_at: Some("2025-11-03T09:12:44Z".into()),
        line: "missing: /home/dev/old-shop/goccia.json (…)".into(),
    }
}

fn with_walk(missing: Vec<NotReviewed>, shadowed: Vec<NotReviewed>) -> Harness {
    let mut h = Harness::new(fixtures::sample());
    let job = h.state.scan.job;
    h.send(Msg::ScanWalk {
        job,
        unreadable: vec![],
        not_followed: vec![],
        shadowed,
        missing,
    });
    h
}

fn sample() -> Harness {
    with_walk(
        vec![gone()],
        vec![shadowed("shop/web/goccia.json", "shop/web/goccia.toml")],
    )
}

/// Selects the row showing `path`.
fn select(h: &mut Harness, path: &str) {
    h.keys("g");
    for _ in 0..h.state.visible.len() {
        if h.visible_paths()[h.state.cursor.selected] == path {
            return;
        }
        h.keys("j");
    }
    panic!("no row {path}: {:?}", h.visible_paths());
}

fn commits(h: &Harness) -> usize {
    h.effects
        .iter()
        .filter(|e| matches!(e, Effect::Commit(_) | Effect::SetIgnored(_)))
        .count()
}

#[test]
fn missing_and_shadowed_files_are_rows_with_their_state() {
    let h = sample();
    let configs = h.state.configs.len();
    let paths = h.visible_paths();
    assert_eq!(paths.len(), configs + 2, "{paths:?}");
    // After the configs, which they are not.
    assert_eq!(
        &paths[configs..],
        ["/home/dev/old-shop/goccia.json", "shop/web/goccia.json"]
    );
    for (w, ht) in [(120, 35), (80, 24)] {
        let screen = text(&draw(&h.state, &Theme::default(), w, ht));
        let total = configs + 2;
        assert!(
            screen.contains(&format!(" Configs {total}/{total} ")),
            "{w}x{ht}:\n{screen}"
        );
        let row = |needle: &str| {
            screen
                .lines()
                .find(|l| l.contains(needle))
                .unwrap_or_else(|| panic!("{w}x{ht}: no {needle}:\n{screen}"))
                .to_string()
        };
        assert!(row("/home/dev/old-shop/").contains("✗ missing"), "{screen}");
        let shadow = row("shop/web/goccia.json");
        assert!(shadow.contains("- shadowed"), "{shadow}");
        if w == 80 {
            assert!(shadow.contains("by goccia.toml"), "{shadow}");
            assert!(
                row("/home/dev/old-shop/").contains("gone · u removes the entry"),
                "{screen}"
            );
        }
    }
    // They count neither as configs nor as needing review.
    assert_eq!(h.state.needs_review_count(), 3);
}

/// The detail pane's text at `w`x`h` (beside or below the list), without
/// its border.
fn detail(h: &Harness, w: u16, ht: u16) -> String {
    let screen = text(&draw(&h.state, &Theme::default(), w, ht));
    let mut out = Vec::new();
    let mut col = None;
    for line in screen.lines() {
        let chars: Vec<char> = line.chars().collect();
        match col {
            None => {
                if let Some(i) = line.find("┌ Detail") {
                    col = Some(line[..i].chars().count());
                }
            }
            Some(c) => {
                if chars.get(c) == Some(&'└') {
                    break;
                }
                let inner: String = chars.iter().skip(c + 1).collect();
                out.push(
                    inner
                        .trim_end()
                        .trim_end_matches('│')
                        .trim_end()
                        .to_string(),
                );
            }
        }
    }
    out.join("\n")
}

#[test]
fn the_detail_pane_says_what_each_is_and_what_to_do() {
    let mut h = sample();
    select(&mut h, "/home/dev/old-shop/goccia.json");
    let screen = detail(&h, 120, 35);
    assert!(screen.contains("✗ missing"), "{screen}");
    assert!(screen.contains("2025-11-03T09:12:44Z"), "{screen}");
    assert!(screen.contains("The file is gone"), "{screen}");
    assert!(screen.contains("u removes this entry"), "{screen}");
    assert!(screen.contains("untrust --missing"), "{screen}");

    select(&mut h, "shop/web/goccia.json");
    for (w, ht) in [(120, 35), (80, 24)] {
        let screen = detail(&h, w, ht);
        let flat = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("Shadowed by shop/web/goccia.toml"),
            "{w}x{ht}:\n{screen}"
        );
        assert!(
            flat.contains("never trusted and never hashed"),
            "{w}x{ht}:\n{screen}"
        );
    }
}

#[test]
fn a_shadowed_file_is_never_trusted_ignored_or_viewed() {
    let mut h = sample();
    select(&mut h, "shop/web/goccia.json");
    for key in ["t", "i", "v", "<enter>", " "] {
        h.state.status = None;
        h.keys(key);
        assert_eq!(h.state.mode, Mode::Normal, "{key}");
        let status = h.state.status.clone().expect("a reason");
        assert!(status.is_error, "{key}: {status:?}");
        // The reason first, then which file is read instead.
        assert!(
            status.text.starts_with("Shadowed")
                && status.text.contains(
                    "GocciaScript reads shop/web/goccia.toml, never shop/web/goccia.json"
                ),
            "{key}: {}",
            status.text
        );
        assert_eq!(
            h.visible_paths()[h.state.cursor.selected],
            "shop/web/goccia.json",
            "{key}"
        );
    }
    assert_eq!(commits(&h), 0);
    assert!(h.state.marked.is_empty());
    assert!(
        h.backend
            .data()
            .calls
            .iter()
            .all(|c| !c.starts_with("trust"))
    );
    // Not in the store: nothing to untrust.
    h.keys("u");
    assert_eq!(h.state.mode, Mode::Normal);
    assert_eq!(
        h.state.status.as_ref().unwrap().text,
        "Not in the store: shop/web/goccia.json"
    );
}

#[test]
fn u_on_a_missing_row_prunes_its_entry_and_nothing_else() {
    let mut h = sample();
    select(&mut h, "/home/dev/old-shop/goccia.json");
    for key in ["t", "i", "v"] {
        h.keys(key);
        assert_eq!(h.state.mode, Mode::Normal, "{key}");
        let status = h.state.status.clone().unwrap();
        assert!(
            status.text.starts_with("Gone: nothing to"),
            "{key}: {status:?}"
        );
        assert!(
            status
                .text
                .ends_with("u removes the store entry of /home/dev/old-shop/goccia.json"),
            "{key}: {status:?}"
        );
    }
    assert_eq!(commits(&h), 0);
    h.keys("u");
    let Mode::Confirm(c) = &h.state.mode else {
        panic!("no confirmation: {:?}", h.state.mode);
    };
    let Pending::Prune(removals) = &c.pending else {
        panic!("{:?}", c.pending);
    };
    assert_eq!(removals.len(), 1);
    assert_eq!(removals[0].key, "/home/dev/old-shop/goccia.json");
    h.keys("y");
    let calls = h.backend.data().calls.clone();
    assert!(
        calls.contains(&"prune [\"/home/dev/old-shop/goccia.json\"]".to_string()),
        "{calls:?}"
    );
    assert!(
        h.backend
            .data()
            .fixture
            .store
            .iter()
            .all(|e| e.key != "/home/dev/old-shop/goccia.json")
    );
}

#[test]
fn marks_and_t_act_on_the_marked_configs_not_on_a_missing_row() {
    let mut h = sample();
    // Mark every row: only configs are marked.
    h.keys("a");
    assert_eq!(h.state.marked.len(), h.state.configs.len());
    assert!(!h.state.marked.contains("/home/dev/old-shop/goccia.json"));
    select(&mut h, "shop/web/goccia.json");
    h.keys("t");
    let Mode::Confirm(c) = &h.state.mode else {
        panic!("no confirmation: {:?}", h.state.status);
    };
    let Pending::Trust(shown) = &c.pending else {
        panic!("{:?}", c.pending);
    };
    assert!(
        shown
            .iter()
            .all(|r| !r.key.ends_with("shop/web/goccia.json"))
    );
}

#[test]
fn the_state_filter_knows_missing_and_shadowed() {
    let mut h = with_walk(
        vec![missing("shop/gone/goccia.json")],
        vec![shadowed("shop/web/goccia.json", "shop/web/goccia.toml")],
    );
    // changed, never trusted, error, trusted, no request, ignored, missing.
    h.keys("sssssss");
    assert_eq!(h.state.other_filter, Some(OtherState::Missing));
    assert_eq!(h.visible_paths(), ["shop/gone/goccia.json"]);
    let screen = text(&draw(&h.state, &Theme::default(), 120, 35));
    assert!(screen.contains("Configs 1/"), "{screen}");
    assert!(screen.contains("state: missing"), "{screen}");
    // The configs needing review it hides are counted on the status line.
    assert!(
        screen.contains("filter: state missing · esc clears · 3 hidden need review"),
        "{screen}"
    );
    h.keys("s");
    assert_eq!(h.state.other_filter, Some(OtherState::Shadowed));
    assert_eq!(h.visible_paths(), ["shop/web/goccia.json"]);
    h.keys("s");
    assert_eq!(h.state.other_filter, None);
    assert!(h.state.unviewed_only);
    // Not viewed: configs only (a missing or shadowed file has nothing to view).
    assert!(
        h.visible_paths()
            .iter()
            .all(|p| !p.contains("shop/gone") && p != "shop/web/goccia.json")
    );
    h.keys("s");
    assert_eq!(h.visible_paths().len(), h.state.configs.len() + 2);
    // A path query finds them too.
    h.keys("/gone<enter>");
    assert_eq!(h.visible_paths(), ["shop/gone/goccia.json"]);
    h.keys("<esc>");
    // Saved and resumed like any state filter.
    h.keys("sssssss");
    let saved = h.state.progress_to_save();
    let session = saved.sessions.values().next().unwrap();
    assert_eq!(session.state.as_deref(), Some("missing"));
}

#[test]
fn a_rescan_without_them_drops_the_rows() {
    let mut h = sample();
    select(&mut h, "shop/web/goccia.json");
    h.keys("r");
    assert_eq!(h.visible_paths().len(), h.state.configs.len());
    assert!(h.state.others.is_empty());
    assert!(h.state.selected_config().is_some());
}
