//! `update` driven by keys and worker messages, with effects run against
//! the fake backend: navigation, filters, marks, confirmations, refusals.

use crate::tui_common as common;

use common::Harness;
use goccia_trust::core::error::ConfigError;
use goccia_trust::core::review::report::{ConfigState, DiffLine, Outcome};
use goccia_trust::tui::backend::CommitError;
use goccia_trust::tui::fixtures;
use goccia_trust::tui::msg::{Effect, Msg, Pending};
use goccia_trust::tui::state::{Mode, View};

const ORDER: [&str; 7] = [
    "packages/api/goccia.toml",
    "packages/web/goccia.json5",
    "scripts/goccia.toml",
    "tools/goccia.json",
    "goccia.json",
    "bench/goccia.json",
    "docs/goccia.json",
];

#[test]
fn needs_review_first_then_key_order() {
    let h = Harness::new(fixtures::sample());
    assert_eq!(h.visible_paths(), ORDER);
    assert!(!h.state.scan.running);
    assert_eq!(h.state.store.entries.len(), 4);
}

#[test]
fn navigation_moves_and_clamps() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("j");
    assert_eq!(h.selected_path(), ORDER[1]);
    h.keys("<down><down>");
    assert_eq!(h.selected_path(), ORDER[3]);
    h.keys("G");
    assert_eq!(h.selected_path(), ORDER[6]);
    h.keys("j");
    assert_eq!(h.selected_path(), ORDER[6], "stays on the last row");
    h.keys("gk");
    assert_eq!(h.selected_path(), ORDER[0], "stays on the first row");
    h.keys("<pgdn>");
    assert_eq!(
        h.selected_path(),
        ORDER[6],
        "a page is longer than the list"
    );
    h.keys("<pgup>");
    assert_eq!(h.selected_path(), ORDER[0]);
}

#[test]
fn page_moves_scroll_a_long_list() {
    let mut h = Harness::new(fixtures::generated(1000));
    h.send(Msg::Resize(120, 35));
    h.keys("<pgdn><pgdn>");
    let c = h.state.cursor;
    assert!(c.selected > 40 && c.selected < 80, "{c:?}");
    assert!(
        c.offset <= c.selected && c.selected < c.offset + 35,
        "{c:?}"
    );
    h.keys("G");
    assert_eq!(h.state.cursor.selected, 999);
}

#[test]
fn path_filter_and_state_filter() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("/packages");
    assert_eq!(h.state.mode, Mode::Filter);
    assert_eq!(h.visible_paths(), &ORDER[..2]);
    h.keys("<bs><bs><bs><bs><bs><bs><bs><bs>web<enter>");
    assert_eq!(h.state.mode, Mode::Normal);
    assert_eq!(h.visible_paths(), [ORDER[1]]);
    // `q` typed in the query is text, not quit.
    h.keys("/q");
    assert!(!h.state.quit);
    assert!(h.visible_paths().is_empty());
    h.keys("<esc>");
    assert_eq!(h.state.query, "");
    assert_eq!(h.visible_paths().len(), 7);

    h.keys("s");
    assert_eq!(h.state.state_filter, Some(ConfigState::Changed));
    assert_eq!(h.visible_paths(), [ORDER[0]]);
    h.keys("s");
    assert_eq!(h.visible_paths(), &ORDER[1..3]);
    h.keys("<esc>");
    assert_eq!(h.state.state_filter, None);
}

#[test]
fn filter_keeps_the_selection_on_the_same_config() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("jj");
    assert_eq!(h.selected_path(), "scripts/goccia.toml");
    h.keys("/s<enter>");
    assert_eq!(h.selected_path(), "scripts/goccia.toml");
}

#[test]
fn marking_and_trusting_several() {
    let mut h = Harness::new(fixtures::sample());
    // Mark api (changed), web (never trusted) and tools (error).
    h.keys("  j ");
    assert_eq!(h.state.marked.len(), 3);
    h.keys("t");
    let Mode::Confirm(c) = &h.state.mode else {
        panic!("expected a confirmation, got {:?}", h.state.mode)
    };
    let Pending::Trust(shown) = &c.pending else {
        panic!()
    };
    let keys: Vec<_> = shown.iter().map(|r| r.display_path.as_str()).collect();
    assert_eq!(keys, [ORDER[0], ORDER[1]]);
    assert_eq!(c.skipped, [(ORDER[3].to_string(), "does not load")]);

    h.keys("y");
    assert_eq!(h.state.mode, Mode::Normal);
    assert!(h.state.marked.is_empty());
    let status = h.state.status.clone().unwrap();
    assert!(!status.is_error);
    assert_eq!(status.text, "Trusted 2 config files in /fake/trust.json");
    // The rescan after the commit shows both as trusted.
    let trusted = h
        .state
        .configs
        .iter()
        .filter(|c| c.state == ConfigState::Trusted)
        .count();
    assert_eq!(trusted, 3);
    assert_eq!(h.state.store.entries.len(), 5);
}

#[test]
fn cancel_writes_nothing() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("t");
    assert!(matches!(h.state.mode, Mode::Confirm(_)));
    h.keys("n");
    assert_eq!(h.state.mode, Mode::Normal);
    h.keys("t<esc>");
    assert_eq!(h.state.mode, Mode::Normal);
    assert!(h.backend.data().calls.is_empty());
    assert!(!h.effects.iter().any(|e| matches!(e, Effect::Commit(_))));
}

#[test]
fn trusting_a_trusted_config_does_nothing() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("jjjjt");
    assert_eq!(h.selected_path(), "goccia.json");
    assert_eq!(h.state.mode, Mode::Normal);
    assert!(
        h.state
            .status
            .as_ref()
            .unwrap()
            .text
            .contains("already trusted")
    );
}

#[test]
fn stale_commit_is_refused_and_the_new_state_shown() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("j");
    h.keys("t");
    assert!(matches!(h.state.mode, Mode::Confirm(_)));
    // While the confirmation is open, the config changes on disk.
    {
        let mut d = h.backend.data();
        let web = d
            .fixture
            .configs
            .iter_mut()
            .find(|c| c.display_path == ORDER[1])
            .unwrap();
        web.lines
            .push(DiffLine::Unchanged("allow-read: any path".into()));
        web.loaded_mut().unwrap().sha256 = "0".repeat(64);
    }
    h.keys("y");
    assert_eq!(h.state.mode, Mode::Normal);
    let status = h.state.status.clone().unwrap();
    assert!(status.is_error);
    assert!(status.text.starts_with("Refused:"), "{}", status.text);
    assert!(status.text.contains(ORDER[1]));
    // Nothing was recorded, and the list shows what is on disk now.
    assert!(
        h.state
            .store
            .entries
            .iter()
            .all(|e| e.display_path != ORDER[1])
    );
    let web = h
        .state
        .configs
        .iter()
        .find(|c| c.display_path == ORDER[1])
        .unwrap();
    assert_eq!(web.state, ConfigState::NeverTrusted);
    assert_eq!(web.lines.len(), 5);
    assert_eq!(web.sha256(), Some("0".repeat(64).as_str()));
}

#[test]
fn a_held_lock_is_a_status_not_a_crash() {
    let mut h = Harness::new(fixtures::sample());
    h.backend.data().fail_next_commit = Some(CommitError::Locked(
        "trust.json.lock is held by pid 4242".into(),
    ));
    h.keys(" t");
    h.keys("y");
    let status = h.state.status.clone().unwrap();
    assert!(status.is_error);
    assert_eq!(
        status.text,
        "Nothing was written: store is locked: trust.json.lock is held by pid 4242"
    );
    assert_eq!(h.state.marked.len(), 1, "marks survive for a retry");
}

#[test]
fn an_unreadable_store_is_shown() {
    let mut h = Harness::new(fixtures::sample());
    h.backend.data().store_error = Some("trust.json: expected `{` at line 1".into());
    h.keys("r");
    assert_eq!(
        h.state.store.error.as_deref(),
        Some("trust.json: expected `{` at line 1")
    );
    assert!(h.state.status.as_ref().unwrap().is_error);
}

#[test]
fn untrust_and_prune_from_the_store_view() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("<tab>");
    assert_eq!(h.state.view, View::Store);
    // Store order is key order: notes, old-shop (missing), shop/goccia.json, api.
    h.keys("G u");
    let Mode::Confirm(c) = &h.state.mode else {
        panic!()
    };
    assert_eq!(
        c.pending.keys(),
        ["/home/dev/shop/packages/api/goccia.toml"]
    );
    h.keys("y");
    assert_eq!(h.state.store.entries.len(), 3);

    h.keys("p");
    let Mode::Confirm(c) = &h.state.mode else {
        panic!()
    };
    assert!(matches!(c.pending, Pending::Prune(_)));
    assert_eq!(c.pending.keys(), ["/home/dev/old-shop/goccia.json"]);
    h.keys("y");
    assert_eq!(h.state.store.entries.len(), 2);
    assert_eq!(
        h.state.status.as_ref().unwrap().text,
        "Pruned 1 missing entry"
    );
}

#[test]
fn results_of_a_superseded_scan_are_ignored() {
    let mut h = Harness::new(fixtures::sample());
    let old_job = h.state.scan.job;
    h.keys("r");
    assert!(h.state.scan.job > old_job);
    let before = h.state.configs.len();
    h.send(Msg::ScanFound {
        job: old_job,
        reports: fixtures::generated(3).configs,
    });
    h.send(Msg::ScanDone {
        job: old_job,
        dirs: 1,
        configs: 3,
    });
    assert_eq!(h.state.configs.len(), before);
}

#[test]
fn help_and_inspect_open_and_close() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("?");
    assert!(matches!(h.state.mode, Mode::Help { .. }));
    h.keys("jjG");
    h.keys("q");
    assert_eq!(h.state.mode, Mode::Normal);
    assert!(!h.state.quit);
    h.keys("j<enter>");
    let Mode::Inspect(iv) = &h.state.mode else {
        panic!()
    };
    let data = iv.data.clone().unwrap().unwrap();
    assert_eq!(data.files.len(), 2, "the config and the file it extends");
    h.keys("<esc>q");
    assert!(h.state.quit);
}

#[test]
fn a_rescan_keeps_the_selection_however_its_results_are_batched() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use goccia_trust::tui::step;
    let mut h = Harness::new(fixtures::sample());
    h.keys("jjjj");
    let selected = h.selected_path();
    assert_eq!(selected, ORDER[4]);
    let all = h.state.configs.clone();
    // `r`, with the scan's results delivered by hand: first a batch without
    // the selected config, then the rest.
    let r = KeyEvent::new(KeyCode::Char('r'), KeyModifiers::NONE);
    let effects = step(&mut h.state, Msg::Key(r));
    let Some(Effect::Scan { job, .. }) = effects.first().cloned() else {
        panic!("{effects:?}")
    };
    let (with, without): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|c| c.display_path == selected);
    let (first, rest) = without.split_at(2);
    h.send(Msg::ScanFound {
        job,
        reports: first.to_vec(),
    });
    let mut rest = rest.to_vec();
    rest.extend(with);
    h.send(Msg::ScanFound { job, reports: rest });
    assert_eq!(h.selected_path(), selected);
    h.send(Msg::ScanDone {
        job,
        dirs: 1,
        configs: h.state.configs.len() as u64,
    });
    assert_eq!(h.selected_path(), selected);

    // A row the user picks while the scan runs is not taken back.
    let effects = step(&mut h.state, Msg::Key(r));
    let Some(Effect::Scan { job, .. }) = effects.first().cloned() else {
        panic!("{effects:?}")
    };
    let all = h.state.configs.clone();
    let (with, without): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|c| c.display_path == selected);
    h.send(Msg::ScanFound {
        job,
        reports: without,
    });
    h.keys("g");
    let picked = h.selected_path();
    h.send(Msg::ScanFound { job, reports: with });
    assert_eq!(h.selected_path(), picked);
}

#[test]
fn the_first_scan_keeps_the_top_row_selected_whatever_arrives_first() {
    use goccia_trust::tui::state::State;
    use goccia_trust::tui::{start, step};
    let all = Harness::new(fixtures::sample()).state.configs;
    let mut state = State::new("/home/dev/shop");
    let effects = start(&mut state);
    // (init also asks for the saved review progress.)
    let Some(Effect::Scan { job, .. }) = effects
        .iter()
        .find(|e| matches!(e, Effect::Scan { .. }))
        .cloned()
    else {
        panic!("{effects:?}")
    };
    // The top row's config arrives last.
    let (top, rest): (Vec<_>, Vec<_>) = all.into_iter().partition(|c| c.display_path == ORDER[0]);
    for batch in [rest, top] {
        step(
            &mut state,
            Msg::ScanFound {
                job,
                reports: batch,
            },
        );
    }
    let selected = state.selected_config().unwrap().display_path.clone();
    assert_eq!(selected, ORDER[0]);
}

// ---------------------------------------------------------------------------
// Issue 12: the list behaves, and the keys users of lazygit, tig and k9s
// expect.

#[test]
fn a_marks_every_visible_row_then_clears_them_and_capital_a_inverts() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("/pack<enter>");
    assert_eq!(h.visible_paths().len(), 2);
    h.keys("a");
    assert_eq!(h.state.marked.len(), 2, "only the visible rows");
    h.keys("a");
    assert!(
        h.state.marked.is_empty(),
        "a again: all were marked, so none"
    );
    h.keys(" A");
    let marked: Vec<&str> = h.state.marked.iter().map(String::as_str).collect();
    assert_eq!(marked, ["/home/dev/shop/packages/web/goccia.json5"]);
}

#[test]
fn n_and_capital_n_move_between_configs_needing_review() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("G");
    h.keys("n");
    assert_eq!(h.selected_path(), ORDER[0], "wraps to the first");
    h.keys("n");
    assert_eq!(h.selected_path(), ORDER[1]);
    h.keys("n");
    assert_eq!(h.selected_path(), ORDER[2]);
    h.keys("n");
    assert_eq!(h.selected_path(), ORDER[0], "tools (error) is skipped");
    h.keys("N");
    assert_eq!(h.selected_path(), ORDER[2]);
}

#[test]
fn ctrl_d_and_ctrl_u_page() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut h = Harness::new(fixtures::generated(1000));
    h.send(Msg::Resize(120, 35));
    let ctrl = |c| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    h.send(ctrl('d'));
    let page = h.state.cursor.selected;
    assert!(page > 10, "{page}");
    h.send(ctrl('u'));
    assert_eq!(h.state.cursor.selected, 0);
}

#[test]
fn a_click_selects_the_row_under_it() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut h = Harness::new(fixtures::sample());
    h.send(Msg::Resize(120, 35));
    // Row 0 is the title, row 1 the list's border, row 2 its first row.
    let click = |row| {
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: 10,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    h.send(click(5));
    assert_eq!(h.selected_path(), ORDER[3]);
    h.send(click(2));
    assert_eq!(h.selected_path(), ORDER[0]);
    h.send(click(30));
    assert_eq!(h.selected_path(), ORDER[0], "below the last row: no change");
}

#[test]
fn a_rescan_clears_the_previous_message() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("<tab>p<esc><tab>");
    h.keys("t<esc>");
    h.state.status = Some(goccia_trust::tui::state::Status {
        text: "Trusted 1 config file".into(),
        is_error: false,
    });
    h.keys("r");
    assert_eq!(h.state.status, None);
}

#[test]
fn after_trust_the_cursor_stays_at_the_row_index() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("j");
    assert_eq!(h.selected_path(), ORDER[1]);
    h.keys("ty");
    // web moved down among the trusted; the row it left holds the next one.
    assert_eq!(h.state.cursor.selected, 1);
    assert_eq!(h.selected_path(), ORDER[2]);
}

// ---------------------------------------------------------------------------
// Issue 12: review progress that survives a restart.

#[test]
fn v_marks_viewed_saves_and_s_filters_to_not_viewed() {
    use goccia_trust::tui::fake::FakeBackend;
    let mut h = Harness::new(fixtures::sample());
    h.keys("v");
    assert_eq!(h.selected_path(), ORDER[1], "v moves on");
    assert_eq!(h.state.viewed_count(), 1);
    let saved = h.backend.data().progress.clone();
    let api = "/home/dev/shop/packages/api/goccia.toml";
    assert_eq!(
        saved.viewed.get(api),
        h.state
            .configs
            .iter()
            .find(|c| c.key == api)
            .unwrap()
            .sha256()
            .map(str::to_owned)
            .as_ref()
    );
    // s cycles through the six states (`ignored` the last), `missing` and
    // `shadowed`, then "not viewed".
    h.keys("sssssssss");
    assert!(h.state.unviewed_only);
    assert!(!h.visible_paths().contains(&ORDER[0].to_string()));
    assert_eq!(h.visible_paths().len(), 6);
    h.keys("s");
    assert!(!h.state.unviewed_only);
    assert_eq!(h.visible_paths().len(), 7);

    // Reopened on the same data: the mark, the filter and the place are back.
    h.keys("/web<enter> ");
    h.state.quit = true;
    let progress = h.state.progress_to_save();
    let backend = FakeBackend::new(fixtures::sample());
    backend.data().progress = progress;
    let again = Harness::with_backend(backend);
    assert_eq!(again.state.viewed_count(), 1);
    assert_eq!(again.state.query, "web");
    assert_eq!(again.selected_path(), ORDER[1]);
    assert_eq!(again.state.marked.len(), 1);
}

#[test]
fn a_viewed_mark_is_lost_when_the_config_changes() {
    use goccia_trust::tui::fake::FakeBackend;
    let mut h = Harness::new(fixtures::sample());
    h.keys("v");
    let progress = h.backend.data().progress.clone();
    let mut changed = fixtures::sample();
    for c in &mut changed.configs {
        if c.display_path == ORDER[0] {
            c.loaded_mut().unwrap().sha256 = "0".repeat(64);
        }
    }
    let backend = FakeBackend::new(changed);
    backend.data().progress = progress;
    let again = Harness::with_backend(backend);
    assert_eq!(again.state.viewed_count(), 0);
}

#[test]
fn corrupt_progress_is_reported_and_ignored() {
    use goccia_trust::tui::fake::FakeBackend;
    let backend = FakeBackend::new(fixtures::sample());
    backend.data().progress_problem =
        Some("review progress /s/review-progress.json is corrupt (x); ignored".into());
    let h = Harness::with_backend(backend);
    let status = h.state.status.clone().unwrap();
    assert!(
        status.is_error && status.text.contains("is corrupt"),
        "{status:?}"
    );
    assert_eq!(h.visible_paths(), ORDER, "the review goes on");
}

#[test]
fn too_many_directories_turns_auto_refresh_off_and_says_so() {
    use goccia_trust::tui::update::TOO_MANY;
    let mut h = Harness::new(fixtures::sample());
    assert!(
        h.effects.iter().any(|e| matches!(e, Effect::Watch { dirs } if dirs.contains(&"/home/dev/shop/packages/api".to_string()))),
        "{:?}",
        h.effects
    );
    h.send(Msg::WatchOff(TOO_MANY.to_string()));
    assert_eq!(
        h.state.status.clone().unwrap().text,
        "auto-refresh off: too many directories (press r)"
    );
    // A change on disk rescans, keeping the selection and the marks.
    h.keys(" j");
    let before = h.selected_path();
    let scans = h
        .effects
        .iter()
        .filter(|e| matches!(e, Effect::Scan { .. }))
        .count();
    h.send(Msg::FilesChanged(vec![]));
    assert_eq!(
        h.effects
            .iter()
            .filter(|e| matches!(e, Effect::Scan { .. }))
            .count(),
        scans + 1
    );
    assert_eq!(h.selected_path(), before);
    assert_eq!(h.state.marked.len(), 1);
}

// ---------------------------------------------------------------------------
// Issue 12 item 6: the policy's verdicts, from the scan that made the rows.

/// The verdict of the config at `path`, as the state shows it.
fn verdict_of(h: &Harness, path: &str) -> Option<&'static str> {
    let r = h
        .state
        .configs
        .iter()
        .find(|c| c.display_path == path)
        .unwrap_or_else(|| panic!("no {path}"));
    h.state.decision(r).map(|d| d.verdict.as_str())
}

#[test]
fn each_scan_brings_the_policy_verdicts_of_its_configs() {
    let h = Harness::new(fixtures::sample_judged());
    assert_eq!(
        h.state
            .policy
            .as_deref()
            .map(|l| l.starts_with("/etc/ci/trust-policy.json (sha256 ")),
        Some(true)
    );
    let verdicts: Vec<(&str, Option<&str>)> =
        ORDER.iter().map(|p| (*p, verdict_of(&h, p))).collect();
    assert_eq!(
        verdicts,
        [
            ("packages/api/goccia.toml", Some("NEEDS_AUTH")),
            ("packages/web/goccia.json5", Some("NEEDS_AUTH")),
            ("scripts/goccia.toml", Some("DENIED")),
            ("tools/goccia.json", None),
            ("goccia.json", Some("ALLOWED")),
            ("bench/goccia.json", None),
            ("docs/goccia.json", None),
        ]
    );
    // Without a policy nothing is judged.
    let plain = Harness::new(fixtures::sample());
    assert_eq!(plain.state.policy, None);
    assert!(plain.state.verdicts.is_empty());
}

#[test]
fn a_rescan_judges_again_and_drops_what_is_no_longer_judged() {
    let mut h = Harness::new(fixtures::sample_judged());
    // On disk now: scripts no longer asks for ffi of any library (the
    // policy allows what it asks), and goccia.json fails to load.
    {
        let mut d = h.backend.data();
        let scripts = d.fixture.configs[3].key.clone();
        let allowed = d.fixture.decisions[&d.fixture.configs[0].key].clone();
        d.fixture.decisions.insert(scripts, allowed);
        let root = &mut d.fixture.configs[0];
        assert_eq!(root.display_path, "goccia.json");
        root.state = ConfigState::Error;
        root.outcome = Outcome::Failed(ConfigError::usage("goccia.json: not valid JSON"));
    }
    h.keys("r");
    assert_eq!(verdict_of(&h, "scripts/goccia.toml"), Some("ALLOWED"));
    assert_eq!(verdict_of(&h, "goccia.json"), None);
    assert!(
        !h.state.verdicts.contains_key(
            &h.state
                .configs
                .iter()
                .find(|c| c.display_path == "goccia.json")
                .unwrap()
                .key
        )
    );
    // Auto-refresh and the editor rescan the same way.
    h.backend.data().fixture.decisions.clear();
    h.send(Msg::FilesChanged(vec![]));
    assert_eq!(verdict_of(&h, "scripts/goccia.toml"), None);
}

#[test]
fn a_verdict_is_shown_only_beside_the_block_it_judged() {
    let mut h = Harness::new(fixtures::sample_judged());
    assert_eq!(verdict_of(&h, "scripts/goccia.toml"), Some("DENIED"));
    // A refused commit brings the config's fresh report (another block):
    // the verdict made on the old block is not shown beside it.
    let i = h
        .state
        .configs
        .iter()
        .position(|c| c.display_path == "scripts/goccia.toml")
        .unwrap();
    h.state.configs[i].loaded_mut().unwrap().sha256 = "0".repeat(64);
    assert_eq!(verdict_of(&h, "scripts/goccia.toml"), None);
}

#[test]
fn the_confirmation_carries_what_the_policy_says() {
    let mut h = Harness::new(fixtures::sample_judged());
    // Mark api (NEEDS_AUTH), web (NEEDS_AUTH), scripts (DENIED); trust.
    h.keys("   t");
    let Mode::Confirm(c) = &h.state.mode else {
        panic!("{:?}", h.state.mode)
    };
    let p = c.policy.as_ref().expect("the policy's word");
    assert_eq!(Some(&p.label), h.state.policy.as_ref());
    let mut verdicts: Vec<&str> = p.decisions.values().map(|d| d.verdict.as_str()).collect();
    verdicts.sort();
    assert_eq!(verdicts, ["DENIED", "NEEDS_AUTH", "NEEDS_AUTH"]);
    // The person still decides: y trusts all three.
    h.keys("y");
    let calls = h.backend.data().calls.clone();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert!(
        calls[0].starts_with("trust ") && calls[0].contains("scripts/goccia.toml"),
        "{calls:?}"
    );
}

// ---------------------------------------------------------------------------
// `e` and auto-refresh read again only the configs a change concerns.

fn count_scans(h: &Harness) -> usize {
    h.effects
        .iter()
        .filter(|e| matches!(e, Effect::Scan { .. }))
        .count()
}

fn key_of(h: &Harness, path: &str) -> String {
    h.state
        .configs
        .iter()
        .find(|c| c.display_path == path)
        .unwrap_or_else(|| panic!("no {path}"))
        .key
        .clone()
}

#[test]
fn an_edit_reads_again_only_the_edited_config() {
    let mut h = Harness::new(fixtures::sample());
    h.keys("jj");
    assert_eq!(h.selected_path(), "scripts/goccia.toml");
    let (scripts, web) = (
        key_of(&h, "scripts/goccia.toml"),
        key_of(&h, "packages/web/goccia.json5"),
    );
    // On disk now: the edited config, and another one changed meanwhile.
    {
        let mut d = h.backend.data();
        for c in d.fixture.configs.iter_mut() {
            if c.key == scripts {
                c.lines = vec![DiffLine::Unchanged("allow-ffi: /opt/lib.so".into())];
            } else if c.key == web {
                c.lines.truncate(1);
            }
        }
    }
    let scans = count_scans(&h);
    h.send(Msg::Edited {
        key: scripts.clone(),
        result: Ok(()),
    });
    assert_eq!(count_scans(&h), scans, "no walk of the tree");
    assert!(h.effects.contains(&Effect::RescanConfigs {
        keys: vec![scripts.clone()]
    }));
    let shown = |h: &Harness, key: &str| {
        h.state
            .configs
            .iter()
            .find(|c| c.key == key)
            .unwrap()
            .lines
            .len()
    };
    assert_eq!(
        h.state.selected_config().unwrap().lines,
        [DiffLine::Unchanged("allow-ffi: /opt/lib.so".into())]
    );
    assert_eq!(h.selected_path(), "scripts/goccia.toml", "selection kept");
    assert_eq!(shown(&h, &web), 4, "the other config is not read again");
    // r still reads everything.
    h.keys("r");
    assert_eq!(shown(&h, &web), 1);
}

#[test]
fn a_change_on_disk_reads_again_what_it_concerns_or_walks_the_tree() {
    let mut h = Harness::new(fixtures::sample());
    let scripts = key_of(&h, "scripts/goccia.toml");
    let web = key_of(&h, "packages/web/goccia.json5");
    let base = "/home/dev/shop/base.json5".to_string();
    let rescans = |h: &Harness| {
        h.effects
            .iter()
            .filter_map(|e| match e {
                Effect::RescanConfigs { keys } => Some(keys.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    // A config and an editor's scratch file beside it: that config alone.
    let scans = count_scans(&h);
    h.send(Msg::FilesChanged(vec![
        scripts.clone(),
        "/home/dev/shop/scripts/.goccia.toml.swp".into(),
        "/home/dev/shop/scripts/4913".into(),
        "/home/dev/shop/scripts/goccia.toml~".into(),
    ]));
    assert_eq!(rescans(&h), [vec![scripts.clone()]]);
    // A file a config extends: that config.
    h.send(Msg::FilesChanged(vec![base]));
    assert_eq!(rescans(&h)[1], [web]);
    // Scratch files alone: nothing to read.
    h.send(Msg::FilesChanged(vec![
        "/home/dev/shop/scripts/.goccia.toml.swp".into(),
    ]));
    assert_eq!(rescans(&h).len(), 2);
    assert_eq!(count_scans(&h), scans);
    // Anything else (a new directory, an unknown file, an unnamed change):
    // the tree is walked again.
    for paths in [
        vec!["/home/dev/shop/newpkg".to_string()],
        vec![scripts.clone(), "/home/dev/shop/scripts/goccia.json".into()],
        vec![],
    ] {
        let before = count_scans(&h);
        h.send(Msg::FilesChanged(paths.clone()));
        assert_eq!(count_scans(&h), before + 1, "{paths:?}");
    }
    // A config that is gone: only a walk says what is effective there now.
    h.backend
        .data()
        .fixture
        .configs
        .retain(|c| c.key != scripts);
    let before = count_scans(&h);
    h.send(Msg::FilesChanged(vec![scripts.clone()]));
    assert_eq!(count_scans(&h), before + 1);
    assert!(h.state.configs.iter().all(|c| c.key != scripts));
}

// ---------------------------------------------------------------------------
// A frame's work is the rows it draws: what it would compute from every row
// (summaries, the path column's width, the counts) is kept in state as the
// rows change, and must always equal what the rows say.

fn assert_rows_cache_fresh(h: &Harness, after: &str) {
    use goccia_trust::tui::state::{row_path, shown_width};
    let s = &h.state;
    for c in &s.configs {
        assert_eq!(s.summary_of(c), c.summary(), "{after}: {}", c.key);
        assert!(s.rows.summaries.contains_key(&c.key), "{after}: {}", c.key);
    }
    let widest = s
        .visible
        .iter()
        .map(|&i| shown_width(row_path(&s.root, &s.configs[i].display_path)))
        .max()
        .unwrap_or(0);
    assert_eq!(s.rows.path_width, widest, "{after}");
    let viewed = s.configs.iter().filter(|c| s.is_viewed(c)).count();
    let needs = s.configs.iter().filter(|c| c.state.needs_review()).count();
    let errors = s
        .configs
        .iter()
        .filter(|c| c.state == ConfigState::Error)
        .count();
    assert_eq!(
        (s.rows.viewed, s.rows.needs_review, s.rows.errors),
        (viewed, needs, errors),
        "{after}"
    );
}

#[test]
fn the_row_cache_follows_every_change_of_the_rows() {
    let mut h = Harness::new(fixtures::sample());
    assert_rows_cache_fresh(&h, "the first scan");
    for keys in ["v", "vv", "/web", "<esc>", "ss", "ssssss", "<esc>", " j t"] {
        h.keys(keys);
        assert_rows_cache_fresh(&h, keys);
    }
    h.keys("y");
    assert_rows_cache_fresh(&h, "after a trust");
    // A config changed on disk, read again alone.
    let scripts = key_of(&h, "scripts/goccia.toml");
    for c in h.backend.data().fixture.configs.iter_mut() {
        if c.key == scripts {
            c.lines
                .push(DiffLine::Unchanged("allow-net: more.example".into()));
        }
    }
    h.send(Msg::FilesChanged(vec![scripts]));
    assert_rows_cache_fresh(&h, "a config read again");
    assert!(h.state.configs.iter().any(|c| c.summary() == "2 requests"));
    // The store view's path column.
    let widest = h
        .state
        .store
        .entries
        .iter()
        .map(|e| goccia_trust::tui::state::shown_width(&e.display_path))
        .max()
        .unwrap_or(0);
    assert_eq!(h.state.store.path_width, widest);
    assert!(widest > 0);
}

/// The panes scroll exactly as far as what is drawn: `G` in help stops on
/// the page that shows help's last line, and a resize that makes room
/// pulls a scrolled detail pane back (the views measure after every step).
#[test]
fn scrolling_stops_at_what_is_drawn_and_a_resize_pulls_it_back() {
    use crate::tui_common::{draw, text};
    let theme = goccia_trust::tui::Theme::default();
    let mut h = Harness::new(fixtures::sample());
    h.send(Msg::Resize(80, 24));
    h.keys("?G");
    let Mode::Help { scroll } = h.state.mode else {
        panic!("{:?}", h.state.mode)
    };
    let limit = h.state.scroll_limits.help;
    assert!(limit > 0, "help is longer than its popup at 80x24");
    assert_eq!(scroll, limit);
    // One more line down changes nothing.
    h.keys("j");
    assert_eq!(h.state.mode, Mode::Help { scroll: limit });
    let screen = text(&draw(&h.state, &theme, 80, 24));
    let last = goccia_trust::tui::keymap::KEYMAP
        .last()
        .unwrap()
        .description;
    assert!(screen.contains(last), "{screen}");
    h.keys("<esc>");

    // The detail pane of the changed config, scrolled to its end at a
    // low terminal, then the terminal grows: the position follows.
    h.send(Msg::Resize(120, 12));
    let changed = h
        .state
        .visible
        .iter()
        .position(|&i| h.state.configs[i].state == ConfigState::Changed)
        .expect("the sample has a changed config");
    for _ in 0..changed {
        h.keys("j");
    }
    for _ in 0..50 {
        h.keys("J");
    }
    let low = h.state.scroll_limits.detail;
    assert!(low > 0, "the changed config's detail overflows 12 rows");
    assert_eq!(h.state.detail_scroll, low);
    h.send(Msg::Resize(120, 60));
    assert!(h.state.scroll_limits.detail < low);
    assert_eq!(h.state.detail_scroll, h.state.scroll_limits.detail);
}
