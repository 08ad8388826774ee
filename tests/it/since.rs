//! The review's `--since BASE [PATH]` (issue 15) over a real git repository
//! built in the test: the command line's refusals (as `diff`'s, before any
//! terminal is taken), and the real backend's comparison of each config on
//! disk with its version at BASE, driven through the TUI's own `update`;
//! trusting still records the current config against the store.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;

use goccia_trust::core::env::Env;
use goccia_trust::core::revision::compare::{Status, Verdict};
use goccia_trust::core::store::StoreLocation;
use goccia_trust::tui::backend::TuiBackend;
use goccia_trust::tui::core_backend::CoreBackend;
use goccia_trust::tui::msg::Effect;
use goccia_trust::tui::since::SinceOf;
use goccia_trust::tui::state::State;
use goccia_trust::tui::step;

use crate::common::TestEnv;
use crate::common::git::{GIT_ENV, git, perms};
use crate::tui_common::core::{review, run};

/// BASE (the first commit): `wide/` allows one host, `narrow/` reads two
/// paths, `same/` and `breaks/` allow a host each, `gone/` exists. The
/// working tree then widens `wide/`, narrows `narrow/`, breaks `breaks/`,
/// deletes `gone/` and adds `new/`.
fn repo() -> TestEnv {
    let t = TestEnv::new();
    git(&t.work, &["init", "-q", "-b", "main"]);
    t.write("wide/goccia.json", &perms(r#""allow-net": ["a.test"]"#));
    t.write(
        "narrow/goccia.json",
        &perms(r#""allow-read": ["/x", "/y"]"#),
    );
    t.write("same/goccia.json", &perms(r#""allow-net": ["same.test"]"#));
    t.write("breaks/goccia.json", &perms(r#""allow-net": ["b.test"]"#));
    t.write("gone/goccia.json", &perms(r#""allow-net": ["g.test"]"#));
    git(&t.work, &["add", "-A"]);
    git(&t.work, &["commit", "-q", "-m", "base"]);
    t.write(
        "wide/goccia.json",
        &perms(r#""allow-net": ["a.test", "evil.test"]"#),
    );
    t.write("narrow/goccia.json", &perms(r#""allow-read": ["/x"]"#));
    t.write("breaks/goccia.json", "{ not json");
    fs::remove_file(t.work.join("gone/goccia.json")).unwrap();
    t.write("new/goccia.json", &perms(r#""allow-net": ["new.test"]"#));
    t
}

#[test]
fn bad_revisions_and_places_exit_2_with_diffs_message_before_the_review() {
    let t = repo();
    // The same refusal, word for word, as `diff` gives for the revision.
    let diff = t.run_in(&t.work, &["diff", "no-such-rev"], GIT_ENV);
    let since = t.run_in(&t.work, &["--since", "no-such-rev"], GIT_ENV);
    assert_eq!(diff.code, 2, "{diff}");
    assert_eq!(since.code, 2, "{since}");
    assert!(since.stderr.contains("no-such-rev"), "{since}");
    assert_eq!(since.stderr, diff.stderr);
    assert_eq!(since.stdout, "");

    // PATH names the repository: from outside it, a path inside works as
    // well as the working directory would.
    let outside = t.root.join("home");
    let out = t.run_in(
        &outside,
        &["--since", "no-such-rev", "../work/wide"],
        GIT_ENV,
    );
    assert_eq!(out.code, 2, "{out}");
    assert_eq!(out.stderr, diff.stderr);
    let out = t.run_in(&outside, &["--since", "HEAD"], GIT_ENV);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("not a git repository"), "{out}");

    // A revision that reads as an option is never passed to git as one.
    let out = t.run_in(&t.work, &["--since", "--output=/tmp/x"], GIT_ENV);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("not a revision"), "{out}");

    // A PATH that does not exist is the review's own error, as without
    // --since.
    let out = t.run_in(&t.work, &["--since", "HEAD", "no/such/dir"], GIT_ENV);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("path not found: no/such/dir"), "{out}");

    // A good revision without a terminal: refused with what to run instead
    // (a `scan` would silently drop the comparison asked for).
    let out = t.run_in(&t.work, &["--since", "HEAD", "wide"], GIT_ENV);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .contains("needs a terminal; without one, run: goccia-trust diff HEAD"),
        "{out}"
    );
    assert_eq!(out.stdout, "");
}

fn env_at(t: &TestEnv) -> Env {
    Env {
        cwd: t.work.to_str().unwrap().into(),
        home: t.home.to_str().unwrap().into(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    }
}

fn store_at(t: &TestEnv) -> StoreLocation {
    let dir = t.root.join("store");
    fs::create_dir_all(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
    StoreLocation {
        path: dir.join("trust.json").to_str().unwrap().into(),
        is_default: false,
        as_typed: None,
    }
}

fn row<'a>(state: &'a State, dir: &str) -> &'a goccia_trust::core::review::report::ConfigReport {
    state
        .configs
        .iter()
        .find(|r| r.key.ends_with(&format!("/{dir}/goccia.json")))
        .unwrap_or_else(|| panic!("no {dir} in {:?}", state.configs))
}

#[test]
fn each_config_is_compared_with_base_and_trusting_records_it_against_the_store() {
    let t = repo();
    let root = t.work.canonicalize().unwrap();
    let mut backend = CoreBackend::new(env_at(&t), Ok(store_at(&t)));
    backend.since = Some(("HEAD".into(), root.to_str().unwrap().into()));
    let backend = Arc::new(backend);
    assert_eq!(backend.since_rev().as_deref(), Some("HEAD"));
    let state = review(&backend, root.to_str().unwrap());
    assert_eq!(state.since.as_ref().unwrap().rev, "HEAD");

    let compared = |dir: &str| match state.since_of(row(&state, dir)) {
        Some(SinceOf::Compared(d)) => d.clone(),
        other => panic!("{dir}: {other:?}"),
    };
    let wide = compared("wide");
    assert_eq!(
        (wide.status, wide.verdict),
        (Status::Changed, Verdict::Widened)
    );
    assert_eq!(state.summary_of(row(&state, "wide")), "+1");
    assert_eq!(compared("narrow").verdict, Verdict::Narrowed);
    assert_eq!(state.summary_of(row(&state, "narrow")), "-1");
    assert_eq!(compared("same").verdict, Verdict::Same);
    assert_eq!(
        state.summary_of(row(&state, "same")),
        "unchanged · 1 request"
    );
    let added = compared("new");
    assert_eq!(
        (added.status, added.verdict),
        (Status::Added, Verdict::Widened)
    );
    let broken = compared("breaks");
    assert_eq!(broken.verdict, Verdict::Broken);
    assert!(broken.head_error.is_some());
    // Removed since BASE: not on disk, so not a row (`diff BASE` lists it).
    assert!(
        !state
            .configs
            .iter()
            .any(|r| r.key.ends_with("/gone/goccia.json"))
    );
    // The store's state is still each row's: nothing is trusted yet.
    assert!(state.configs.iter().all(|r| r.stored.is_none()
        && r.state != goccia_trust::core::review::report::ConfigState::Trusted));

    // Trusting records the config as it is now, against the store.
    let shown = row(&state, "wide").clone();
    let outcome = backend.trust(std::slice::from_ref(&shown)).unwrap();
    assert_eq!(outcome.count, 1);
    let store: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(t.root.join("store/trust.json")).unwrap())
            .unwrap();
    let text = store.to_string();
    assert!(text.contains(shown.sha256().unwrap()), "{text}");
    assert!(text.contains(&shown.key), "{text}");

    // BASE is read once: a commit that moves HEAD after the review started
    // does not move what the review compares with (`r` rescans the disk).
    git(&t.work, &["add", "-A"]);
    git(&t.work, &["commit", "-q", "-m", "head moved"]);
    let mut state = state;
    let key = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('r'),
        crossterm::event::KeyModifiers::NONE,
    );
    let effects = step(&mut state, goccia_trust::tui::msg::Msg::Key(key));
    assert!(effects.iter().any(|e| matches!(e, Effect::Scan { .. })));
    run(&backend, &mut state, effects);
    let wide = row(&state, "wide");
    assert_eq!(
        wide.state,
        goccia_trust::core::review::report::ConfigState::Trusted
    );
    match state.since_of(wide) {
        Some(SinceOf::Compared(d)) => assert_eq!(d.verdict, Verdict::Widened),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_config_outside_the_repository_has_no_base_and_says_so() {
    // PATH is the repository's `wide/`, reached through a link from outside
    // the repository: its key still lies inside, and is found at BASE.
    let t = repo();
    let root = t.work.canonicalize().unwrap();
    let mut backend = CoreBackend::new(env_at(&t), Err("no store".into()));
    // A base read of another repository: every key here is outside it.
    let other = t.root.join("other");
    fs::create_dir_all(&other).unwrap();
    git(&other, &["init", "-q", "-b", "main"]);
    git(&other, &["commit", "-q", "--allow-empty", "-m", "empty"]);
    backend.since = Some((
        "HEAD".into(),
        other.canonicalize().unwrap().to_str().unwrap().into(),
    ));
    let state = review(&backend, root.to_str().unwrap());
    assert_eq!(state.since_of(row(&state, "wide")), Some(SinceOf::Outside));
}

#[test]
fn a_base_that_cannot_be_read_is_said_on_every_row() {
    let t = repo();
    let root = t.work.canonicalize().unwrap();
    let mut backend = CoreBackend::new(env_at(&t), Err("no store".into()));
    backend.since = Some(("no-such-rev".into(), root.to_str().unwrap().into()));
    let state = review(&backend, root.to_str().unwrap());
    match state.since_of(row(&state, "wide")) {
        Some(SinceOf::Unreadable(why)) => {
            assert!(why.starts_with("cannot read no-such-rev: "), "{why}")
        }
        other => panic!("{other:?}"),
    }
}

// ---- The TUI over the fake backend: `update` and the views. ----

mod with_the_fake {
    use std::sync::Arc;

    use goccia_trust::core::review::report::ConfigState;
    use goccia_trust::core::revision::compare::Verdict;
    use goccia_trust::tui::Theme;
    use goccia_trust::tui::fixtures;
    use goccia_trust::tui::msg::{Msg, Pending};
    use goccia_trust::tui::since::{SinceOf, marker};
    use goccia_trust::tui::state::{Mode, State};

    use crate::tui_common::{Harness, draw, text};

    fn marker_of(state: &State, path: &str) -> &'static str {
        let r = state
            .configs
            .iter()
            .find(|c| c.display_path == path)
            .unwrap_or_else(|| panic!("no {path}"));
        marker(state.since_of(r).expect("--since")).0
    }

    fn summary(state: &State, path: &str) -> String {
        let r = state
            .configs
            .iter()
            .find(|c| c.display_path == path)
            .unwrap();
        state.summary_of(r).into_owned()
    }

    #[test]
    fn rows_say_what_changed_since_base_and_keep_the_store_state() {
        let h = Harness::new(fixtures::sample_since());
        let s = &h.state;
        assert_eq!(s.since.as_ref().unwrap().rev, "main");
        assert_eq!(marker_of(s, "packages/api/goccia.toml"), "▲ widened");
        assert_eq!(summary(s, "packages/api/goccia.toml"), "+2");
        assert_eq!(marker_of(s, "packages/web/goccia.json5"), "+ added");
        assert_eq!(summary(s, "packages/web/goccia.json5"), "+4");
        assert_eq!(marker_of(s, "scripts/goccia.toml"), "▲ widened");
        assert_eq!(summary(s, "scripts/goccia.toml"), "+1 did not load at main");
        assert_eq!(marker_of(s, "tools/goccia.json"), "✗ broken");
        assert_eq!(marker_of(s, "goccia.json"), "= unchanged");
        assert_eq!(summary(s, "goccia.json"), "unchanged · 2 requests");
        assert_eq!(marker_of(s, "docs/goccia.json"), "= unchanged");
        // The store's states are untouched, and still order the list.
        assert_eq!(h.visible_paths()[0], "packages/api/goccia.toml");
        let api = &s.configs[s.visible[0]];
        assert_eq!(api.state, ConfigState::Changed);
        // The base was asked for once, by the one scan.
        let calls = h.backend.data().calls.clone();
        assert_eq!(calls, ["since_base"]);
    }

    #[test]
    fn a_rescan_compares_again_with_the_same_base() {
        let mut h = Harness::new(fixtures::sample_since());
        // api is narrowed back to what main had (its stored block).
        {
            let mut d = h.backend.data();
            let api = d
                .fixture
                .configs
                .iter_mut()
                .find(|c| c.display_path == "packages/api/goccia.toml")
                .unwrap();
            let stored = api.stored.clone().unwrap().block;
            api.loaded_mut().unwrap().block = stored;
        }
        h.keys("r");
        assert_eq!(
            marker_of(&h.state, "packages/api/goccia.toml"),
            "= unchanged"
        );
        let r = h
            .state
            .configs
            .iter()
            .find(|c| c.display_path == "packages/api/goccia.toml")
            .unwrap();
        match h.state.since_of(r) {
            Some(SinceOf::Compared(d)) => assert_eq!(d.verdict, Verdict::Same),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn trusting_still_records_the_current_config_against_the_store() {
        let mut h = Harness::new(fixtures::sample_since());
        assert_eq!(h.selected_path(), "packages/api/goccia.toml");
        let now = h.state.selected_config().unwrap().clone();
        h.keys("t");
        let Mode::Confirm(c) = &h.state.mode else {
            panic!("expected a confirmation, got {:?}", h.state.mode)
        };
        let Pending::Trust(shown) = &c.pending else {
            panic!()
        };
        // Exactly the report as scanned: its current block, its diff
        // against the store (not against main).
        assert_eq!(shown, &vec![now]);
        // The confirmation shows what is written: the current block's
        // requests against the store entry.
        let lines: Vec<String> = goccia_trust::tui::views::confirm::content(c, 120)
            .iter()
            .map(|l| l.iter().map(|(_, t)| t.as_str()).collect())
            .collect();
        let all = lines.join("\n");
        assert!(all.contains("payments.example"), "{all}");
        assert!(
            all.contains("each config as it is now (the list compares with main; these lines compare with the store)"),
            "{all}"
        );
        // Its lines are the store diff, value by value (issue 30): the
        // host added since trusted, and the link re-pointed since the
        // store recorded its target.
        assert!(all.contains("    + payments.example"), "{all}");
        assert!(
            all.contains("    ~ /home/dev/shop/data → /tmp/shop-data"),
            "{all}"
        );
        h.keys("y");
        assert_eq!(
            h.backend.data().calls,
            [
                "since_base",
                "trust [\"/home/dev/shop/packages/api/goccia.toml\"]",
                "since_base"
            ]
        );
        let api = h
            .state
            .configs
            .iter()
            .find(|c| c.display_path == "packages/api/goccia.toml")
            .unwrap();
        assert_eq!(api.state, ConfigState::Trusted);
        // Trusted in the store, still widened since main.
        assert_eq!(marker_of(&h.state, "packages/api/goccia.toml"), "▲ widened");
    }

    #[test]
    fn a_base_that_could_not_be_read_is_on_every_row_and_in_the_detail() {
        let mut f = fixtures::sample_since();
        f.since = Some((
            "main".into(),
            Err("cannot read main: fatal: bad object".into()),
        ));
        let h = Harness::new(f);
        assert!(h.state.configs.iter().all(|r| h.state.since_of(r)
            == Some(SinceOf::Unreadable("cannot read main: fatal: bad object"))));
        let t = text(&draw(&h.state, &Theme::mono(), 120, 35));
        assert!(t.contains("? no base"), "{t}");
        assert!(t.contains("cannot read main: fatal: bad object"), "{t}");
    }

    #[test]
    fn the_title_names_base_and_the_detail_shows_what_was_added_since() {
        let mut h = Harness::new(fixtures::sample_since());
        h.send(Msg::Resize(120, 35));
        let t = text(&draw(&h.state, &Theme::mono(), 120, 35));
        let title = t.lines().next().unwrap();
        assert!(title.contains("since main"), "{t}");
        // api, selected: widened since main, changed in the store (`~`),
        // each value gained since main a `+` line.
        assert!(
            t.contains("▶ ▲ widened    ~  packages/api/goccia.toml"),
            "{t}"
        );
        assert!(t.contains("since    main  ▲ widened"), "{t}");
        assert!(t.contains("  + payments.example"), "{t}");
        assert!(t.contains("  + true"), "{t}");
        assert!(t.contains("store    ~ changed"), "{t}");
        // web: added since main, every value `+`.
        h.keys("j");
        let t = text(&draw(&h.state, &Theme::mono(), 120, 35));
        assert!(t.contains("since    main  + added"), "{t}");
        assert!(t.contains("  + any public host"), "{t}");
        // scripts: main's error is shown, with what loads now.
        h.keys("j");
        let t = text(&draw(&h.state, &Theme::mono(), 120, 35));
        assert!(t.contains("does not load at main"), "{t}");
        // (wrapped where the detail pane's width puts it)
        assert!(t.contains("goccia.toml: Unexpected character"), "{t}");
        assert!(t.contains(" at line 1 "), "{t}");
        assert!(t.contains("  + any library"), "{t}");
        // At 80x24 the title still says it, and the `+` line shows.
        h.keys("gg");
        h.send(Msg::Resize(80, 24));
        let t = text(&draw(&h.state, &Theme::mono(), 80, 24));
        assert!(t.lines().next().unwrap().contains("since main"), "{t}");
        assert!(t.contains("+ payments.example"), "{t}");
    }

    #[test]
    fn a_hostile_revision_name_is_escaped_in_the_title() {
        let mut f = fixtures::sample_since();
        let base = match &f.since {
            Some((_, Ok(b))) => b.as_ref().clone(),
            _ => unreachable!(),
        };
        let rev = "main\u{1b}]0;pwned\u{7}";
        let base = goccia_trust::core::revision::since::SinceBase {
            rev: rev.into(),
            ..base
        };
        f.since = Some((rev.into(), Ok(Arc::new(base))));
        let h = Harness::new(f);
        let buf = draw(&h.state, &Theme::default(), 120, 35);
        let t = text(&buf);
        assert!(
            t.lines().next().unwrap().contains("since main^[]0;pwned^G"),
            "{t}"
        );
        assert!(!t.contains('\u{1b}') && !t.contains('\u{7}'), "{t}");

        // A very long one is cut, and the tabs stay on the title line.
        let mut f = fixtures::sample_since();
        let long = "x".repeat(200);
        if let Some((rev, _)) = &mut f.since {
            *rev = long.clone();
        }
        let mut h = Harness::new(f);
        h.state.since.as_mut().unwrap().rev = long;
        let t = text(&draw(&h.state, &Theme::default(), 120, 35));
        let title = t.lines().next().unwrap();
        assert!(
            title.contains(&format!("since {}… ", "x".repeat(31))),
            "{t}"
        );
        assert!(
            title.contains("Configs 7") && title.contains("Store 4"),
            "{t}"
        );
    }
}
