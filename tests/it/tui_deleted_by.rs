//! Who deleted a missing config, in the review (issue 40 item 5): the
//! missing row's detail pane, the Store view's missing entry, and the
//! prune and untrust confirmations name the commit that deleted the file,
//! as `scan` does on a terminal; a deletion not committed is said, and so
//! is why it is not known (no repository, a shallow clone), never guessed.
//! On real repositories built here, through the real backend driven by the
//! TUI's own `update`, and the real binary in tmux at 80x24.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use goccia_trust::core::env::Env;
use goccia_trust::core::revision::provenance::{Absent, ValueOrigin};
use goccia_trust::core::store::StoreLocation;
use goccia_trust::sanitize::is_unsafe;
use goccia_trust::tui::Theme;
use goccia_trust::tui::core_backend::CoreBackend;
use goccia_trust::tui::state::{Mode, State};

use crate::common::TestEnv;
use crate::common::git::{GIT_ENV, git};
use crate::content_origin::{one_line, short};
use crate::provenance::{HOSTILE_NAME, Repo};
use crate::tui_common::core::{keys, review};
use crate::tui_common::{draw, text};
use crate::tui_tmux::Tmux;

/// The wait for a screen: the machine may be loaded.
const WAIT: Duration = Duration::from_secs(30);

/// `app`, `lib` and `tools` written and committed by Alice and trusted;
/// Carol's commit deletes `tools`; `lib` is deleted in the working tree
/// only. Returns (repo, Carol's short id).
fn carol_deletes_tools() -> (Repo, String) {
    let r = Repo::new();
    for dir in ["app", "lib", "tools"] {
        r.write(
            &format!("{dir}/goccia.json"),
            &one_line(2, &[&format!("{dir}.test")]),
        );
    }
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    trust_all(&r.t, Path::new(&r.root));
    r.git(&["rm", "-q", "-r", "tools"]);
    let carol = short(&r.commit_as("Carol", "2099-03-01T09:00:00Z", "drop tools"));
    std::fs::remove_file(r.t.work.join("lib/goccia.json")).unwrap();
    (r, carol)
}

/// `goccia-trust trust . --yes` in `dir`, the store in `t`'s home.
fn trust_all(t: &TestEnv, dir: &Path) {
    let out = t.run_in(dir, &["trust", ".", "--yes"], GIT_ENV);
    assert_eq!(out.code, 0, "{out}");
}

/// The real backend reviewing `root`, with the store in `t`'s home.
fn backend(t: &TestEnv, root: &str) -> Arc<CoreBackend> {
    let env = Env {
        cwd: root.into(),
        home: t.home.to_str().unwrap().into(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    };
    let loc = StoreLocation {
        path: t
            .home
            .join(".config/goccia/trust.json")
            .to_str()
            .unwrap()
            .into(),
        is_default: false,
        as_typed: None,
    };
    Arc::new(CoreBackend::new(env, Ok(loc)))
}

/// Selects the row of the Configs view showing `path`.
fn select(b: &CoreBackend, state: &mut State, path: &str) {
    keys(b, state, "g");
    let shown = |s: &State| {
        s.visible
            .get(s.cursor.selected)
            .and_then(|&i| s.row(i))
            .map(|r| r.display_path().to_string())
    };
    for _ in 0..state.visible.len() {
        if shown(state).as_deref() == Some(path) {
            return;
        }
        keys(b, state, "j");
    }
    panic!("no row {path}");
}

/// The open confirmation's title and lines, as text.
fn confirmation_text(state: &State) -> String {
    use goccia_trust::tui::views::confirm;
    let Mode::Confirm(c) = &state.mode else {
        panic!("no confirmation")
    };
    let lines: String = confirm::content(c, 120)
        .iter()
        .map(|l| l.iter().map(|(_, t)| t.as_str()).collect::<String>() + "\n")
        .collect();
    format!("{}\n{lines}", confirm::title(c))
}

fn screen(state: &State) -> String {
    text(&draw(state, &Theme::mono(), 160, 40))
}

#[test]
fn the_missing_row_and_its_prune_confirmation_name_who_deleted_it() {
    let (r, carol) = carol_deletes_tools();
    let b = backend(&r.t, &r.root);
    let mut state = review(&b, &r.root);
    let by_carol = format!("deleted by {carol} Carol 2099-03-01 \"drop tools\"");
    select(&b, &mut state, "tools/goccia.json");
    let pane = screen(&state);
    assert!(pane.contains("✗ missing"), "{pane}");
    assert!(pane.contains(&by_carol), "{pane}");
    // Deleted in the working tree only: said, no commit named.
    select(&b, &mut state, "lib/goccia.json");
    let pane = screen(&state);
    assert!(
        pane.contains("deleted in the working tree, not committed"),
        "{pane}"
    );
    assert!(!pane.contains("Carol"), "{pane}");
    // `u` on the missing row: the confirmation names Carol's commit.
    select(&b, &mut state, "tools/goccia.json");
    keys(&b, &mut state, "u");
    let confirm = confirmation_text(&state);
    assert!(confirm.contains("Prune"), "{confirm}");
    assert!(confirm.contains(&format!("  {by_carol}\n")), "{confirm}");
    keys(&b, &mut state, "n");
}

#[test]
fn the_store_view_and_its_prune_and_untrust_confirmations_name_who_deleted_each() {
    let (r, carol) = carol_deletes_tools();
    let b = backend(&r.t, &r.root);
    let mut state = review(&b, &r.root);
    let by_carol = format!("deleted by {carol} Carol 2099-03-01 \"drop tools\"");
    // The Store view, its last entry (tools, missing).
    keys(&b, &mut state, "<tab>G");
    let pane = screen(&state);
    assert!(pane.contains(&by_carol), "{pane}");
    // `u` on it: the untrust confirmation names Carol's commit.
    keys(&b, &mut state, "u");
    let confirm = confirmation_text(&state);
    assert!(confirm.contains("Untrust"), "{confirm}");
    assert!(confirm.contains(&format!("  {by_carol}\n")), "{confirm}");
    keys(&b, &mut state, "n");
    // `p`: every missing entry, each with who deleted it.
    keys(&b, &mut state, "p");
    let confirm = confirmation_text(&state);
    assert!(confirm.contains("Prune 2 missing entries"), "{confirm}");
    assert!(confirm.contains(&format!("  {by_carol}\n")), "{confirm}");
    assert!(
        confirm.contains("  deleted in the working tree, not committed\n"),
        "{confirm}"
    );
    // A config that is there: nothing is said of a deletion.
    keys(&b, &mut state, "ngu");
    let confirm = confirmation_text(&state);
    assert!(confirm.contains("app/goccia.json"), "{confirm}");
    assert!(!confirm.contains("deleted"), "{confirm}");
}

/// Outside any repository: why it is not known, never a commit.
#[test]
fn outside_a_repository_the_deletion_is_unknown_and_why() {
    let t = TestEnv::new();
    t.write("tools/goccia.json", &one_line(2, &["t.test"]));
    trust_all(&t, &t.work);
    std::fs::remove_file(t.work.join("tools/goccia.json")).unwrap();
    let root = std::fs::canonicalize(&t.work).unwrap();
    let root = root.to_str().unwrap();
    let b = backend(&t, root);
    let mut state = review(&b, root);
    select(&b, &mut state, "tools/goccia.json");
    let pane = screen(&state);
    assert!(
        pane.contains("deleted by: unknown (not in a git repository)"),
        "{pane}"
    );
    keys(&b, &mut state, "u");
    let confirm = confirmation_text(&state);
    assert!(
        confirm.contains("  deleted by: unknown (not in a git repository)\n"),
        "{confirm}"
    );
}

/// A shallow clone of a repository whose last commit (Carol's, the
/// clone's only one) deleted `tools`: the clone cannot see what HEAD's
/// parent held, so who deleted it is unknown, and the boundary is named.
#[test]
fn in_a_shallow_clone_the_deletion_is_unknown_and_the_boundary_named() {
    let r = Repo::new();
    r.write("app/goccia.json", &one_line(2, &["a.test"]));
    r.write("tools/goccia.json", &one_line(2, &["t.test"]));
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    r.git(&["rm", "-q", "-r", "tools"]);
    r.commit_as("Carol", "2099-03-01T09:00:00Z", "drop tools");
    let clone = r.t.work.parent().unwrap().join("clone");
    git(
        r.t.work.parent().unwrap(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &format!("file://{}", r.root),
            clone.to_str().unwrap(),
        ],
    );
    let clone = std::fs::canonicalize(&clone).unwrap();
    let head = short(git(&clone, &["rev-parse", "HEAD"]).trim());
    // Trusted in the clone as the original held it, then gone again.
    std::fs::create_dir_all(clone.join("tools")).unwrap();
    std::fs::write(clone.join("tools/goccia.json"), one_line(2, &["t.test"])).unwrap();
    trust_all(&r.t, &clone);
    std::fs::remove_dir_all(clone.join("tools")).unwrap();
    let root = clone.to_str().unwrap();
    let b = backend(&r.t, root);
    let mut state = review(&b, root);
    select(&b, &mut state, "tools/goccia.json");
    let pane = screen(&state);
    let why = format!("deleted by: unknown (history is shallow before {head})");
    assert!(pane.contains(&why), "{pane}");
    assert!(!pane.contains("Carol"), "{pane}");
    keys(&b, &mut state, "u");
    assert!(confirmation_text(&state).contains(&why));
}

/// A deleting commit whose author and subject would repaint a terminal:
/// escaped in the pane and the confirmation, as all commit text is.
#[test]
fn a_hostile_deleting_commit_is_escaped() {
    let r = Repo::new();
    r.write("tools/goccia.json", &one_line(2, &["t.test"]));
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    trust_all(&r.t, Path::new(&r.root));
    r.git(&["rm", "-q", "-r", "tools"]);
    r.commit_hostile();
    let b = backend(&r.t, &r.root);
    let mut state = review(&b, &r.root);
    select(&b, &mut state, "tools/goccia.json");
    let buf = draw(&state, &Theme::default(), 240, 40);
    let pane = text(&buf);
    let raw: Vec<char> = buf
        .content()
        .iter()
        .flat_map(|cell| cell.symbol().chars())
        .filter(|&c| is_unsafe(c))
        .collect();
    assert!(raw.is_empty(), "{raw:?}\n{pane}");
    let name = goccia_trust::sanitize::clean(HOSTILE_NAME);
    assert!(
        pane.contains(&format!(" {name} 2026-03-01 \"bump")),
        "{pane}"
    );
    keys(&b, &mut state, "u");
    let confirm = confirmation_text(&state);
    assert!(
        !confirm.chars().filter(|&c| c != '\n').any(is_unsafe),
        "{confirm}"
    );
    assert!(
        confirm.contains(&format!(" {name} 2026-03-01 \"bump")),
        "{confirm}"
    );
}

/// The real binary at 80x24 in tmux: the missing row's pane names
/// Carol's commit, and so does the confirmation `u` opens.
#[test]
fn the_real_review_names_who_deleted_a_missing_config_at_80x24() {
    if !Tmux::available() {
        return;
    }
    let (r, carol) = carol_deletes_tools();
    let t = crate::tui_provenance::review_at_80x24(
        "deleted-by",
        &r,
        &r.t.home,
        &format!(
            "--trust-store={}",
            r.t.home.join(".config/goccia/trust.json").display()
        ),
        ".",
    );
    t.wait_for("tools/goccia.json", WAIT);
    t.send_keys(&["G"]);
    let screen = t.wait_for_all(&["deleted by ", &format!("{carol} Carol")], WAIT);
    assert!(!screen.contains('\u{1b}'), "{screen}");
    t.send_keys(&["u"]);
    let screen = t.wait_until("the prune confirmation naming Carol", WAIT, |s| {
        s.contains("Prune 1 missing entry")
            && s.lines()
                .any(|l| l.contains("│  deleted by ") && l.contains(&format!("{carol} Carol")))
    });
    assert!(!screen.contains('\u{1b}'), "{screen}");
    t.send_keys(&["n"]);
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", WAIT);
}

/// The sample over the fake backend, its store's missing entry
/// (`/home/dev/old-shop/goccia.json`) a missing row too; git read when
/// `git` (every deletion Bob's commit).
fn fake(git: bool) -> crate::tui_common::Harness {
    use goccia_trust::core::revision::provenance::{Commit, ConfigProvenance, Since};
    use goccia_trust::tui::fake::FakeBackend;
    use goccia_trust::tui::msg::Msg;
    let backend = FakeBackend::new(goccia_trust::tui::fixtures::sample());
    if git {
        let bob = Commit {
            sha: format!("b0b0b0b{}", "0".repeat(33)),
            short: "b0b0b0b".into(),
            author: "Bob".into(),
            email: "bob@example.invalid".into(),
            date: "2026-12-01T10:00:00+00:00".into(),
            subject: "drop old-shop".into(),
        };
        backend.data().deleted_by = Some(Ok(ValueOrigin::Committed(bob)));
        backend.data().provenance = Some(Ok(ConfigProvenance {
            root: "/home/dev/shop".into(),
            since: Since::Trusted,
            commits: Err(Absent {
                reason: "off".into(),
            }),
            origins: Ok(Vec::new()),
            retargets: Vec::new(),
        }));
    }
    let mut h = crate::tui_common::Harness::with_backend(backend);
    let job = h.state.scan.job;
    let mut gone = crate::tui_common::missing("old-shop/goccia.json");
    gone.trusted_at = Some("2025-11-03T09:12:44Z".into());
    h.send(Msg::ScanWalk {
        job,
        unreadable: vec![],
        not_followed: vec![],
        shadowed: vec![],
        missing: vec![gone],
    });
    h
}

fn deleted_calls(h: &crate::tui_common::Harness) -> Vec<String> {
    h.backend
        .data()
        .calls
        .iter()
        .filter(|c| c.starts_with("deleted_by "))
        .cloned()
        .collect()
}

/// Read once a missing row is selected, never before, once per key (kept
/// as the selection moves away and back, for the confirmations and the
/// Store view), and again after a rescan; never by a backend without git.
#[test]
fn who_deleted_it_is_read_when_asked_and_once() {
    let mut h = fake(true);
    assert!(deleted_calls(&h).is_empty(), "before any missing row");
    h.keys("G");
    let key = "deleted_by /home/dev/old-shop/goccia.json";
    assert_eq!(deleted_calls(&h), [key]);
    let pane = text(&draw(&h.state, &Theme::mono(), 120, 35));
    assert!(
        pane.contains("deleted by b0b0b0b Bob 2026-12-01 \"drop old-shop\""),
        "{pane}"
    );
    h.keys("ggG");
    h.keys("u");
    assert_eq!(deleted_calls(&h), [key], "kept");
    let confirm = confirmation_text(&h.state);
    assert!(
        confirm.contains("  deleted by b0b0b0b Bob 2026-12-01 \"drop old-shop\"\n"),
        "{confirm}"
    );
    h.keys("n");
    // The Store view's missing entry is the same key, known.
    h.keys("<tab>");
    h.keys("p");
    assert_eq!(deleted_calls(&h), [key]);
    assert!(confirmation_text(&h.state).contains("deleted by b0b0b0b Bob"));
    // A rescan forgets it: the missing row still selected is read again.
    h.keys("n<tab>r");
    assert_eq!(deleted_calls(&h), [key, key]);

    let mut h = fake(false);
    h.keys("Gu");
    assert!(deleted_calls(&h).is_empty());
    assert!(!confirmation_text(&h.state).contains("deleted"));
}
