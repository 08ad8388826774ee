//! Who changed what in the TUI's detail pane under `--since BASE` (issue
//! 26 item 3): the commits of `BASE..HEAD` that touched the config's files,
//! and for each value added since BASE the commit of that range that
//! introduced its line, or `not committed`; on real repositories built
//! here, through the real backend driven by the TUI's own `update`.

use std::sync::Arc;

use goccia_trust::core::env::Env;
use goccia_trust::core::revision::provenance::{
    Absent, CommitsSince, ConfigProvenance, Since, ValueOrigin,
};
use goccia_trust::sanitize::is_unsafe;
use goccia_trust::tui::Theme;
use goccia_trust::tui::core_backend::CoreBackend;
use goccia_trust::tui::state::State;

use crate::provenance::{APP, APP_BOB, BASE, BASE_CAROL, Repo, hostile_repo};
use crate::tui_common::core::review;
use crate::tui_common::{draw, text};
use crate::tui_provenance::{review_at_80x24, scroll_to_changes};

/// Alice writes a config and the base it extends (BASE, `HEAD~2`); Bob
/// adds a host to the config, Carol a path to the base; a working-tree
/// edit adds one more host.
fn two_authors_after_base() -> (Repo, String, String) {
    let r = Repo::new();
    r.write("app/goccia.json", APP);
    r.write("base.json", BASE);
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    r.write("app/goccia.json", APP_BOB);
    let bob = r.commit_as("Bob", "2026-03-01T09:00:00Z", "bump deps");
    r.write("base.json", BASE_CAROL);
    let carol = r.commit_as("Carol", "2026-03-02T09:00:00Z", "share more");
    r.write(
        "app/goccia.json",
        &APP_BOB.replace("\"b.test\"", "\"b.test\",\n      \"c.test\""),
    );
    (r, bob[..7].to_string(), carol[..7].to_string())
}

/// The real backend reviewing `r` since `rev`, no store.
fn backend(r: &Repo, rev: &str) -> Arc<CoreBackend> {
    let env = Env {
        cwd: r.root.clone(),
        home: r.t.home.to_str().unwrap().into(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    };
    let mut b = CoreBackend::new(env, Err("no store".into()));
    b.since = Some((rev.into(), r.root.clone()));
    Arc::new(b)
}

/// The selected config's provenance, as the pane holds it.
fn held(state: &State) -> &Result<ConfigProvenance, Absent> {
    let r = state.selected_config().expect("a config");
    goccia_trust::tui::provenance::slot(state, r)
        .and_then(|s| s.data.as_ref())
        .expect("provenance read for the selected config")
}

#[test]
fn under_since_the_pane_lists_base_s_commits_and_who_added_each_value() {
    let (r, bob, carol) = two_authors_after_base();
    let b = backend(&r, "HEAD~2");
    let state = review(&b, &r.root);
    let p = held(&state).as_ref().expect("provenance");
    assert_eq!(p.since, Since::Revision("HEAD~2".into()));
    let commits = p.commits.as_ref().expect("commits");
    let authors: Vec<&str> = commits.commits.iter().map(|c| c.author.as_str()).collect();
    assert_eq!(authors, ["Carol", "Bob"], "newest first");
    let origin = |request: &str, value: &str| match p.origin(request, value) {
        Some(ValueOrigin::Committed(c)) => c.author.clone(),
        Some(ValueOrigin::NotCommitted) => "not committed".into(),
        other => format!("{other:?}"),
    };
    assert_eq!(origin("allow-net", "b.test"), "Bob");
    assert_eq!(origin("allow-net", "c.test"), "not committed");
    assert_eq!(origin("allow-read", &r.path("shared")), "Carol");
    // Already at BASE: not added, not asked about.
    assert_eq!(p.origin("allow-net", "a.test"), None);

    let screen = text(&draw(&state, &Theme::mono(), 160, 50));
    assert!(
        screen.contains("changes  2 commits since HEAD~2"),
        "{screen}"
    );
    let carol_at = screen.find(&format!("  {carol} 2026-03-02 Carol  share more"));
    let bob_at = screen.find(&format!("  {bob} 2026-03-01 Bob  bump deps"));
    assert!(
        matches!((carol_at, bob_at), (Some(c), Some(b)) if c < b),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("+ b.test · {bob} Bob 2026-03-01")),
        "{screen}"
    );
    assert!(screen.contains("+ c.test · not committed"), "{screen}");
    assert!(
        screen.contains(&format!("shared · {carol} Carol 2026-03-02")),
        "{screen}"
    );
    assert!(!screen.contains("+ a.test"), "{screen}");
    assert!(!screen.contains("since trusted"), "{screen}");
}

#[test]
fn under_since_head_nothing_committed_is_listed_and_the_edit_is_not_committed() {
    let (r, _, _) = two_authors_after_base();
    let b = backend(&r, "HEAD");
    let state = review(&b, &r.root);
    let screen = text(&draw(&state, &Theme::mono(), 160, 50));
    assert!(screen.contains("changes  no commit since HEAD"), "{screen}");
    assert!(screen.contains("+ c.test · not committed"), "{screen}");
    assert!(!screen.contains("+ b.test"), "{screen}");
}

/// A value new since BASE on a line BASE already held (the config did not
/// load there, and a later commit fixed it) is the fix's: by content, the
/// fix made it a grant (blame would say the line is BASE's).
#[test]
fn under_since_a_value_on_a_line_of_base_is_the_commit_that_made_it_a_grant() {
    let r = Repo::new();
    let fixed = "{\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\"\n    ]\n  }\n}\n";
    r.write("goccia.json", fixed.trim_end().trim_end_matches('}'));
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "broken");
    r.write("goccia.json", fixed);
    let fix = r.commit_as("Bob", "2026-03-01T09:00:00Z", "fix the brace");
    let b = backend(&r, "HEAD~1");
    let state = review(&b, &r.root);
    let p = held(&state).as_ref().expect("provenance");
    let Some(ValueOrigin::Committed(c)) = p.origin("allow-net", "a.test") else {
        panic!("{p:?}")
    };
    assert_eq!(c.sha, fix);
    let screen = text(&draw(&state, &Theme::mono(), 160, 50));
    assert!(
        screen.contains(&format!("+ a.test · {} Bob 2026-03-01", &fix[..7])),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("  {} 2026-03-01 Bob  fix the brace", &fix[..7])),
        "{screen}"
    );
}

/// An author, an email and a subject that would repaint a terminal,
/// reverse the line or hide text.
const EVIL_NAME: &str = "Mallory\u{1b}[2J\u{202e}\u{200b}";
const EVIL_SUBJECT: &str = "bump\u{1b}[31m deps\u{202e}\u{200b}\r fake line";

#[test]
fn under_since_hostile_commit_text_stays_escaped_in_the_pane() {
    let r = Repo::new();
    r.write("app/goccia.json", APP);
    r.write("base.json", BASE);
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    r.write("app/goccia.json", APP_BOB);
    r.commit_as(EVIL_NAME, "2026-03-01T09:00:00Z", EVIL_SUBJECT);
    let b = backend(&r, "HEAD~1");
    let state = review(&b, &r.root);
    let buf = draw(&state, &Theme::default(), 240, 50);
    let screen = text(&buf);
    let raw: Vec<char> = buf
        .content()
        .iter()
        .flat_map(|cell| cell.symbol().chars())
        .filter(|&c| is_unsafe(c))
        .collect();
    assert!(raw.is_empty(), "{raw:?}\n{screen}");
    assert!(
        screen.contains("changes  1 commit since HEAD~1"),
        "{screen}"
    );
    assert!(screen.contains("Mallory^[[2J"), "{screen}");
    assert!(screen.contains("bump^[[31m deps"), "{screen}");
    assert!(screen.contains("+ b.test · "), "{screen}");
}

/// The heading names BASE as the user wrote it: untrusted text, escaped.
#[test]
fn under_since_a_hostile_base_name_is_escaped_in_the_heading() {
    use crate::tui_common::Harness;
    use goccia_trust::tui::fake::FakeBackend;
    use goccia_trust::tui::fixtures;
    let rev = "main\u{1b}]0;pwned\u{7}";
    let backend = FakeBackend::new(fixtures::sample_since());
    backend.data().provenance = Some(Ok(ConfigProvenance {
        root: "/home/dev/shop".into(),
        since: Since::Revision(rev.into()),
        commits: Ok(CommitsSince {
            commits: Vec::new(),
            more: false,
            outside: Vec::new(),
            ..CommitsSince::default()
        }),
        origins: Ok(vec![(
            "allow-net".into(),
            "payments.example".into(),
            ValueOrigin::NotCommitted,
        )]),
        retargets: Vec::new(),
    }));
    let h = Harness::with_backend(backend);
    assert_eq!(h.selected_path(), "packages/api/goccia.toml");
    let screen = text(&draw(&h.state, &Theme::mono(), 120, 35));
    assert!(
        screen.contains("changes  no commit since main^[]0;pwned^G"),
        "{screen}"
    );
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'));
    assert!(
        screen.contains("+ payments.example · not committed"),
        "{screen}"
    );
}

#[test]
fn under_since_reading_provenance_runs_nothing_the_repository_configures() {
    // Bob and Carol after Alice's BASE (HEAD~3), a working-tree edit
    // adding c.test; fsmonitor, external diff, textconv, filters, hooks.
    let (r, marker) = hostile_repo();
    let b = backend(&r, "HEAD~3");
    let state = review(&b, &r.root);
    let p = held(&state).as_ref().expect("provenance");
    let commits = p.commits.as_ref().expect("commits");
    let authors: Vec<&str> = commits.commits.iter().map(|c| c.author.as_str()).collect();
    assert_eq!(authors, ["Carol", "Bob"]);
    assert!(
        matches!(
            p.origin("allow-net", "c.test"),
            Some(ValueOrigin::NotCommitted)
        ),
        "{p:?}"
    );
    assert!(
        matches!(p.origin("allow-net", "b.test"), Some(ValueOrigin::Committed(c)) if c.author == "Bob"),
        "ignore-revs is ignored: {p:?}"
    );
    assert!(
        !marker.exists(),
        "a program of the repository's configuration ran: {}",
        std::fs::read_to_string(&marker).unwrap_or_default()
    );
}

/// A BASE git cannot resolve any more is said in the pane, never an error.
#[test]
fn under_since_git_failing_is_said_not_an_error() {
    let (r, _, _) = two_authors_after_base();
    let b = backend(&r, "HEAD~2");
    let state = review(&b, &r.root);
    assert!(held(&state).is_ok());
    let report = state.selected_config().unwrap().clone();
    // The repository is gone: git fails; the base was read already.
    std::fs::remove_dir_all(format!("{}/.git", r.root)).unwrap();
    let p = goccia_trust::tui::backend::TuiBackend::provenance(&*b, &report);
    let said = match &p {
        Err(a) => a.describe(),
        Ok(p) => match (&p.commits, &p.origins) {
            (Err(a), Err(_)) => a.describe(),
            other => panic!("{other:?}"),
        },
    };
    assert!(said.starts_with("no provenance: "), "{said}");
}

/// The real binary in a real terminal at 80x24 with `--since HEAD~2`: the
/// value Bob added since BASE names his commit.
#[test]
fn the_real_review_since_a_revision_names_who_added_a_value_at_80x24() {
    use crate::tui_tmux::Tmux;
    use std::time::Duration;
    if !Tmux::available() {
        return;
    }
    let (r, bob, carol) = two_authors_after_base();
    let home = r.t.work.parent().unwrap().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let store = format!(
        "--trust-store={}",
        r.t.work.parent().unwrap().join("trust.json").display()
    );
    let t = review_at_80x24("since-provenance", &r, &home, &store, "--since HEAD~2 .");
    let bobs = format!("+ b.test · {bob} Bob 2026-03-01");
    let screen = t.wait_for_all(
        &[bobs.as_str(), "+ c.test · not committed"],
        Duration::from_secs(10),
    );
    assert!(!screen.contains('\u{1b}'), "{screen}");
    let first = format!("{carol} 2026-03-02 Carol  share more");
    scroll_to_changes(&t, "changes  2 commits since HEAD~2", &first);
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", Duration::from_secs(10));
}

/// Under `--since BASE`, a link re-pointed by a commit of `BASE..HEAD`
/// names that commit on its `~` line (not `no commit since BASE`).
#[test]
fn under_since_a_re_pointed_link_names_its_commit() {
    let r = Repo::new();
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-read\": [\"./shared\"]}}\n",
    );
    r.write("v1/x", "x");
    r.write("v2/x", "x");
    r.t.symlink("v1", "shared");
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    r.t.symlink("v2", "shared");
    let carol = r.commit_as("Carol", "2026-03-01T09:00:00Z", "move shared");
    let b = backend(&r, "HEAD~1");
    let state = review(&b, &r.root);
    let p = held(&state).as_ref().expect("provenance");
    let Some(ValueOrigin::Committed(c)) = p.origin("allow-read", &r.path("shared")) else {
        panic!("{p:?}")
    };
    assert_eq!(c.sha, carol);
    let screen = text(&draw(&state, &Theme::mono(), 160, 50));
    assert!(
        screen.contains(&format!("· {} Carol", &carol[..7])),
        "{screen}"
    );
    // What the link led to at BASE, and now.
    assert!(screen.contains("targets (at HEAD~1 -> now)"), "{screen}");
    let root = &r.root;
    assert!(
        screen.contains(&format!("  {root}/shared: {root}/v1 -> {root}/v2")),
        "{screen}"
    );
    // The block is the same (its SHA-256 too): the row says a target moved.
    assert!(screen.contains("goccia.json  ~1"), "{screen}");
    assert!(!screen.contains("block changed"), "{screen}");
}

/// The open confirmation's lines, as text.
fn confirmation_text(state: &State) -> String {
    let goccia_trust::tui::state::Mode::Confirm(c) = &state.mode else {
        panic!("no confirmation")
    };
    goccia_trust::tui::views::confirm::content(c, 120)
        .iter()
        .map(|l| l.iter().map(|(_, t)| t.as_str()).collect::<String>() + "\n")
        .collect()
}

/// `app` trusted at Alice's commit; Bob adds a host, Carol another (BASE
/// is Bob's commit); Dave adds `lib`, never trusted. Returns (repo, the
/// store, Bob's, Carol's and Dave's short ids).
fn trusted_then_three_authors() -> (Repo, String, [String; 3]) {
    let r = Repo::new();
    let hosts = |hs: &[&str]| {
        let list: Vec<String> = hs.iter().map(|h| format!("\"{h}\"")).collect();
        format!(
            "{{\n  \"permissions\": {{\n    \"allow-net\": [{}]\n  }}\n}}\n",
            list.join(", ")
        )
    };
    r.write("app/goccia.json", &hosts(&["a.test"]));
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    let store = r.t.home.join(".config/goccia/trust.json");
    let out = r.t.run_in(
        std::path::Path::new(&r.root),
        &["trust", "app", "--yes"],
        crate::common::git::GIT_ENV,
    );
    assert_eq!(out.code, 0, "{out}");
    assert!(store.is_file(), "{out}");
    r.write("app/goccia.json", &hosts(&["a.test", "b.test"]));
    let bob = r.commit_as("Bob", "2099-03-01T09:00:00Z", "bump deps");
    r.write("app/goccia.json", &hosts(&["a.test", "b.test", "c.test"]));
    let carol = r.commit_as("Carol", "2099-03-02T09:00:00Z", "add the edge");
    r.write("lib/goccia.json", &hosts(&["lib.test"]));
    let dave = r.commit_as("Dave", "2099-03-03T09:00:00Z", "add lib");
    let short = |s: &str| s[..7].to_string();
    (
        r,
        store.to_str().unwrap().to_string(),
        [short(&bob), short(&carol), short(&dave)],
    )
}

/// Under `--since BASE` the confirmation compares each config with the
/// store, and names the commit and author of each widening value as it
/// does without `--since` (issue 40 item 5): Bob's value, though BASE
/// holds it, and Carol's; a new config the commit that added it.
#[test]
fn under_since_the_confirmation_names_who_made_each_widening_value() {
    use goccia_trust::core::store::StoreLocation;
    let (r, store, [bob, carol, dave]) = trusted_then_three_authors();
    let env = Env {
        cwd: r.root.clone(),
        home: r.t.home.to_str().unwrap().into(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    };
    let loc = StoreLocation {
        path: store,
        is_default: false,
        as_typed: None,
    };
    let mut b = CoreBackend::new(env, Ok(loc));
    b.since = Some(("HEAD~2".into(), r.root.clone()));
    let b = Arc::new(b);
    let mut state = review(&b, &r.root);
    assert_eq!(
        state.selected_config().map(|c| c.display_path.as_str()),
        Some("app/goccia.json")
    );
    crate::tui_common::core::keys(&b, &mut state, "t");
    let screen = confirmation_text(&state);
    assert!(
        screen.contains("each config as it is now (the list compares with HEAD~2"),
        "{screen}"
    );
    for line in [
        format!("+ b.test · {bob} Bob 2099-03-01"),
        format!("+ c.test · {carol} Carol 2099-03-02"),
    ] {
        assert!(screen.contains(&line), "{line}\n{screen}");
    }
    // The pane behind it keeps BASE's provenance: Carol's commit only.
    let p = held(&state).as_ref().expect("provenance");
    assert_eq!(p.since, Since::Revision("HEAD~2".into()));
    crate::tui_common::core::keys(&b, &mut state, "njt");
    let screen = confirmation_text(&state);
    assert!(screen.contains("lib/goccia.json (new)"), "{screen}");
    assert!(
        screen.contains(&format!("added    {dave} Dave 2099-03-03")),
        "{screen}"
    );
}

/// The same in the real binary at 80x24: under `--since HEAD~2`, the
/// confirmation `t` opens names Bob's value (which BASE holds, the store
/// not) and Carol's.
#[test]
fn the_real_confirmation_under_since_names_who_made_each_value_at_80x24() {
    use crate::tui_tmux::Tmux;
    use std::time::Duration;
    if !Tmux::available() {
        return;
    }
    let (r, store, [bob, carol, _]) = trusted_then_three_authors();
    let store = format!("--trust-store={store}");
    let t = review_at_80x24("since-confirm", &r, &r.t.home, &store, "--since HEAD~2 .");
    t.wait_for(
        &format!("+ c.test · {carol} Carol"),
        Duration::from_secs(10),
    );
    t.send_keys(&["t"]);
    let (bobs, carols) = (
        format!("│    + b.test · {bob} Bob 2099-03-01"),
        format!("│    + c.test · {carol} Carol 2099-03-02"),
    );
    t.wait_for_all(&["(changed)", &bobs, &carols], Duration::from_secs(10));
    t.send_keys(&["n"]);
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", Duration::from_secs(10));
}
