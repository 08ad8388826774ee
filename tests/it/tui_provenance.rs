//! Who changed what in the TUI's detail pane (issue 26 item 3): read on a
//! worker for the selected changed config only, shown on each added value's
//! line and as the commits since trusted, commit text escaped.

use crate::tui_common as common;

use common::{Harness, draw, text};
use goccia_trust::core::revision::provenance::{
    Absent, Commit, CommitsSince, ConfigProvenance, Since, ValueOrigin,
};
use goccia_trust::sanitize::is_unsafe;
use goccia_trust::tui::fake::FakeBackend;
use goccia_trust::tui::fixtures;
use goccia_trust::tui::msg::Effect;

const EVIL: &str = "\u{1b}[2J\u{202e}\u{200b}\r\n";

fn mallory() -> Commit {
    Commit {
        sha: format!("a1b2c3d{}", "0".repeat(33)),
        short: "a1b2c3d".into(),
        author: format!("Mallory{EVIL}"),
        email: "m@evil.example".into(),
        date: "2026-12-01T10:00:00+00:00".into(),
        subject: format!("bump deps{EVIL}fake line"),
    }
}

fn known() -> ConfigProvenance {
    ConfigProvenance {
        root: "/home/dev/shop".into(),
        since: Since::Trusted,
        commits: Ok(CommitsSince {
            commits: vec![mallory()],
            more: false,
            outside: Vec::new(),
            ..CommitsSince::default()
        }),
        origins: Ok(vec![
            (
                "allow-net".into(),
                "payments.example".into(),
                ValueOrigin::Committed(mallory()),
            ),
            (
                "unsafe-function-constructor".into(),
                "true".into(),
                ValueOrigin::NotCommitted,
            ),
        ]),
        retargets: Vec::new(),
    }
}

fn harness(provenance: Option<Result<ConfigProvenance, Absent>>) -> Harness {
    let backend = FakeBackend::new(fixtures::sample());
    backend.data().provenance = provenance;
    Harness::with_backend(backend)
}

fn provenance_calls(h: &Harness) -> Vec<String> {
    h.backend
        .data()
        .calls
        .iter()
        .filter(|c| c.starts_with("provenance "))
        .cloned()
        .collect()
}

#[test]
fn each_added_value_names_its_commit_and_the_commits_are_listed_escaped() {
    let h = harness(Some(Ok(known())));
    assert_eq!(h.selected_path(), "packages/api/goccia.toml");
    let buf = draw(&h.state, &goccia_trust::tui::Theme::mono(), 120, 35);
    let screen = text(&buf);
    assert!(screen.contains("+ payments.example · a1b2c3d"), "{screen}");
    assert!(screen.contains("Mallory^[[2J"), "escaped: {screen}");
    assert!(screen.contains("· not committed"), "{screen}");
    assert!(
        screen.contains("changes  1 commit since trusted"),
        "{screen}"
    );
    assert!(
        screen.contains("  a1b2c3d 2026-12-01 Mallory"),
        "one line per commit: {screen}"
    );
    // Commit text is escaped as config text is: nothing reaches the
    // terminal raw, and the subject's line break is shown, not obeyed.
    let raw: Vec<char> = buf
        .content()
        .iter()
        .flat_map(|cell| cell.symbol().chars())
        .filter(|&c| is_unsafe(c))
        .collect();
    assert!(raw.is_empty(), "{raw:?}\n{screen}");
    assert!(screen.contains("^M^Jfake line"), "{screen}");
}

#[test]
fn at_80x24_the_origin_is_on_the_value_line() {
    let h = harness(Some(Ok(known())));
    let screen = text(&draw(&h.state, &goccia_trust::tui::Theme::mono(), 80, 24));
    assert!(screen.contains("payments.example · a1b2c3d"), "{screen}");
}

#[test]
fn without_a_repository_the_pane_says_why() {
    let h = harness(Some(Err(Absent {
        reason: "not in a git repository".into(),
    })));
    let screen = text(&draw(&h.state, &goccia_trust::tui::Theme::mono(), 120, 35));
    assert!(
        screen.contains("changes  no provenance: not in a git repository"),
        "{screen}"
    );
    assert!(screen.contains("+ payments.example"), "{screen}");
    assert!(!screen.contains("payments.example ·"), "{screen}");
}

#[test]
fn provenance_is_read_for_the_selected_changed_config_once() {
    let mut h = harness(Some(Ok(known())));
    let api = "provenance /home/dev/shop/packages/api/goccia.toml";
    assert_eq!(provenance_calls(&h), [api]);
    // Down through the rows: only the changed ones are read, each once.
    let changed: Vec<String> = h
        .state
        .configs
        .iter()
        .filter(|r| r.state == goccia_trust::core::review::report::ConfigState::Changed)
        .map(|r| format!("provenance {}", r.key))
        .collect();
    h.keys("jjjjjjjj");
    h.keys("gg");
    assert_eq!(provenance_calls(&h), changed, "back at the top: kept");
    // A rescan forgets it: the selected config is read again.
    h.keys("r");
    assert_eq!(provenance_calls(&h).last().map(String::as_str), Some(api));
}

#[test]
fn a_backend_without_git_is_never_asked() {
    let mut h = harness(None);
    h.keys("jjj");
    assert!(provenance_calls(&h).is_empty());
    assert!(
        !h.effects.iter().any(|e| matches!(e, Effect::Provenance(_))),
        "{:?}",
        h.effects
    );
    let screen = text(&draw(&h.state, &goccia_trust::tui::Theme::mono(), 120, 35));
    assert!(!screen.contains("changes "), "{screen}");
}

/// The real binary in a real terminal at 80x24, on a real repository: a
/// config trusted, then widened by a commit of Mallory's and by a
/// working-tree edit; the pane names both, and lists the commit since
/// trusted, its hostile author escaped.
#[test]
fn the_real_review_names_who_changed_each_value_at_80x24() {
    use crate::tui_tmux::Tmux;
    use std::time::Duration;
    if !Tmux::available() {
        return;
    }
    let r = crate::provenance::Repo::new();
    let home = r.t.work.parent().unwrap().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let store = format!(
        "--trust-store={}",
        r.t.work.parent().unwrap().join("trust.json").display()
    );
    let exe = env!("CARGO_BIN_EXE_goccia-trust");
    r.write(
        "app/goccia.json",
        "{\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\"\n    ]\n  }\n}\n",
    );
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    let out = std::process::Command::new(exe)
        .current_dir(&r.root)
        .env("HOME", &home)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args([store.as_str(), "trust", "app", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    r.write(
        "app/goccia.json",
        "{\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\",\n      \"cdn.evil.example\"\n    ]\n  }\n}\n",
    );
    // Committed after the trust (the committer date is what counts).
    r.commit_as("Mallory\u{1b}[31m", "2099-03-01T09:00:00Z", "bump deps");
    r.write(
        "app/goccia.json",
        "{\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\",\n      \"cdn.evil.example\",\n      \"wip.test\"\n    ]\n  }\n}\n",
    );
    let t = review_at_80x24("provenance", &r, &home, &store, ".");
    let screen = t.wait_for_all(
        &[
            "+ cdn.evil.example · ",
            " Mallory^[[31m 2099-03-01",
            "+ wip.test · not committed",
        ],
        Duration::from_secs(10),
    );
    assert!(!screen.contains('\u{1b}'), "{screen}");
    // The commits since trusted, below the fields: scrolled to.
    scroll_to_changes(
        &t,
        "changes  1 commit since trusted",
        "2099-03-01 Mallory^[[31m  bump deps",
    );
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", Duration::from_secs(10));
}

/// No commit since the trust says only that: the store's clock and the
/// committer's may disagree, and each value's origin says where it came
/// from (here a commit older than `trustedAt`).
#[test]
fn no_commit_since_trusted_concludes_nothing_of_the_values() {
    let mut p = known();
    p.commits = Ok(CommitsSince {
        commits: Vec::new(),
        more: false,
        outside: Vec::new(),
        ..CommitsSince::default()
    });
    let h = harness(Some(Ok(p)));
    let screen = text(&draw(&h.state, &goccia_trust::tui::Theme::mono(), 120, 35));
    assert!(
        screen.contains("changes  no commit since trusted"),
        "{screen}"
    );
    assert!(!screen.contains("the change is not committed"), "{screen}");
    assert!(screen.contains("+ payments.example · a1b2c3d"), "{screen}");
}

/// The real binary (`goccia-trust STORE ARGS` in `r`'s root, HOME `home`,
/// no global git configuration) in tmux session `name` at 80x24; the shell
/// says `goccia-trust exited N` when it ends.
pub(crate) fn review_at_80x24(
    name: &str,
    r: &crate::provenance::Repo,
    home: &std::path::Path,
    store: &str,
    args: &str,
) -> crate::tui_tmux::Tmux {
    let exe = env!("CARGO_BIN_EXE_goccia-trust");
    let t = crate::tui_tmux::Tmux::start_sized(name, 80, 24);
    t.wait_for("$", std::time::Duration::from_secs(10));
    t.run(&format!(
        "cd {} && HOME={} GIT_CONFIG_GLOBAL=/dev/null {exe} {store} {args}; echo \"goccia-trust exited $?\"",
        r.root,
        home.display(),
    ));
    t
}

/// Scrolls the detail pane down to its `changes` part (below the fields)
/// and waits for `heading`: the screen.
pub(crate) fn scroll_to_changes(t: &crate::tui_tmux::Tmux, heading: &str, first: &str) -> String {
    for _ in 0..12 {
        t.send_keys(&["J"]);
    }
    // The heading alone can be on screen before the keys after it are
    // read (its commits still below): wait for its first commit too.
    t.wait_for_all(&[heading, first], std::time::Duration::from_secs(10))
}

/// The confirmation names the commit and author of each widening value
/// whose provenance the pane read (issue 40 item 5): where the decision
/// is made.
#[test]
fn the_confirmation_names_who_made_each_widening_value() {
    let mut h = harness(Some(Ok(known())));
    assert_eq!(h.selected_path(), "packages/api/goccia.toml");
    // The pane read it; then `t` asks to trust the selected config.
    let _ = draw(&h.state, &goccia_trust::tui::Theme::mono(), 120, 35);
    h.keys("t");
    // The confirmation's own lines, not the pane behind it.
    let goccia_trust::tui::state::Mode::Confirm(c) = &h.state.mode else {
        panic!("no confirmation")
    };
    let lines = goccia_trust::tui::views::confirm::content(c, 120);
    let screen: String = lines
        .iter()
        .map(|l| l.iter().map(|(_, t)| t.as_str()).collect::<String>() + "\n")
        .collect();
    assert!(
        screen.contains("These entries will be recorded in the trust store:"),
        "{screen}"
    );
    assert!(
        screen.contains("+ payments.example · a1b2c3d Mallory^[[2J"),
        "{screen}"
    );
    assert!(screen.contains("· not committed"), "{screen}");
}

/// The lines of the open confirmation, as text.
fn confirmation_text(h: &Harness, width: usize) -> String {
    let goccia_trust::tui::state::Mode::Confirm(c) = &h.state.mode else {
        panic!("no confirmation")
    };
    goccia_trust::tui::views::confirm::content(c, width)
        .iter()
        .map(|l| l.iter().map(|(_, t)| t.as_str()).collect::<String>() + "\n")
        .collect()
}

/// A new config, whose pane never reads git, and a changed one whose pane
/// was never opened: the confirmation reads both when it opens, one at a
/// time, and names who made each (issue 40 item 5).
#[test]
fn the_confirmation_reads_who_made_configs_whose_pane_was_not_read() {
    let mut h = harness(Some(Ok(known())));
    // Mark the new web config and the changed api one; the selection
    // moves to web, a new config whose pane reads nothing.
    h.keys(" ");
    let web = h
        .state
        .configs
        .iter()
        .find(|r| r.display_path == "packages/web/goccia.json5")
        .unwrap()
        .key
        .clone();
    while h.state.selected_config().map(|r| r.key.as_str()) != Some(web.as_str()) {
        h.keys("j");
    }
    h.keys(" ");
    // Forget what the pane read of api: a confirmation must not depend
    // on which panes were opened.
    h.state.provenance.as_mut().unwrap().slots.clear();
    h.backend.data().calls.clear();
    h.keys("t");
    let calls = provenance_calls(&h);
    assert!(
        calls.contains(&format!("provenance {web}")),
        "the new config is read: {calls:?}"
    );
    assert!(
        calls
            .iter()
            .any(|c| c.ends_with("packages/api/goccia.toml")),
        "{calls:?}"
    );
    let screen = confirmation_text(&h, 120);
    assert!(
        screen.contains("+ payments.example · a1b2c3d Mallory^[[2J"),
        "{screen}"
    );
    assert!(
        screen.contains("  added    allow-net: payments.example · a1b2c3d Mallory^[[2J"),
        "the new config names its origin: {screen}"
    );
}

/// The real binary at 80x24 on a real repository: a config never trusted,
/// added by Alice's commit; `t` on it, and the confirmation names
/// Alice's commit although the pane of a new config reads no git.
#[test]
fn the_real_confirmation_names_who_added_a_new_config_at_80x24() {
    use crate::tui_tmux::Tmux;
    use std::time::Duration;
    if !Tmux::available() {
        return;
    }
    let r = crate::provenance::Repo::new();
    let home = r.t.work.parent().unwrap().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let store = format!(
        "--trust-store={}",
        r.t.work.parent().unwrap().join("trust.json").display()
    );
    r.write(
        "app/goccia.json",
        "{\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\"\n    ]\n  }\n}\n",
    );
    r.commit_as("Alice\u{1b}[31m", "2026-01-10T09:00:00Z", "start");
    let t = review_at_80x24("provenance-new", &r, &home, &store, ".");
    t.wait_for("app/goccia.json", Duration::from_secs(10));
    t.send_keys(&["t"]);
    let screen = t.wait_for_all(
        &["(new)", "added    ", "Alice^[[31m 2026-01-10"],
        Duration::from_secs(10),
    );
    assert!(!screen.contains('\u{1b}'), "{screen}");
    t.send_keys(&["n"]);
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", Duration::from_secs(10));
}
