//! Signed reviews in the interactive review (issue 43 item 5): the detail
//! pane's `Reviews` block, the list's `· reviewed N` / `· review outdated`
//! / `· bad review`, the trust confirmation's reviews, and for an outdated
//! review the requests' diff since the reviewed version, read from git.
//! On real repositories with real ssh-keygen keys, records signed by the
//! real binary, through the real backend driven by the TUI's own `update`,
//! and the real binary in tmux at 80x24.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use goccia_trust::core::env::Env;
use goccia_trust::core::store::StoreLocation;
use goccia_trust::core::team::signers::parse_allowed_signers;
use goccia_trust::sanitize::is_unsafe;
use goccia_trust::tui::Theme;
use goccia_trust::tui::core_backend::CoreBackend;
use goccia_trust::tui::state::{Mode, State};

use crate::common::TestEnv;
use crate::common::git::git;
use crate::team_reviews::{ALICE, alice_and_mallory};
use crate::tui_common::core::{keys, review};
use crate::tui_common::{draw, text};
use crate::tui_tmux::Tmux;

const WAIT: Duration = Duration::from_secs(30);

/// A repository `repo` with configs `a`, `b` and `c`, committed; keys for
/// alice (allowed) and mallory (not), and the allowed signers outside it.
struct Team {
    env: TestEnv,
    repo: PathBuf,
    alice: PathBuf,
    mallory: PathBuf,
    allowed: PathBuf,
}

fn team() -> Team {
    let env = TestEnv::new();
    let (alice, mallory, allowed) = alice_and_mallory(&env);
    let repo = env.work.join("repo");
    for (dir, host) in [
        ("a", "a.example.com"),
        ("b", "b.example.com"),
        ("c", "c.example.com"),
    ] {
        std::fs::create_dir_all(repo.join(dir)).unwrap();
        write(&repo, dir, &[host]);
    }
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "configs"]);
    Team {
        env,
        repo,
        alice,
        mallory,
        allowed,
    }
}

/// `dir/goccia.json` asking for `hosts`.
fn write(repo: &Path, dir: &str, hosts: &[&str]) {
    let hosts: Vec<String> = hosts.iter().map(|h| format!("\"{h}\"")).collect();
    std::fs::write(
        repo.join(dir).join("goccia.json"),
        format!(r#"{{"permissions":{{"allow-net":[{}]}}}}"#, hosts.join(",")),
    )
    .unwrap();
}

impl Team {
    /// `review sign` of `paths` by the real binary.
    fn sign(&self, key: &Path, principal: &str, extra: &[&str]) {
        let mut args = vec![
            "review",
            "sign",
            "--yes",
            "--key",
            key.to_str().unwrap(),
            "--principal",
            principal,
        ];
        args.extend_from_slice(extra);
        let out = self.env.run_in(&self.repo, &args, &[]);
        assert_eq!(out.code, 0, "{out}");
    }

    /// Alice reviews a and b, mallory signs c as alice; then b gains
    /// `evil.example.com` and is committed: a reviewed, b outdated, c bad.
    fn reviewed(&self) {
        self.sign(&self.alice, ALICE, &["a", "b"]);
        self.sign(&self.mallory, ALICE, &["c"]);
        write(&self.repo, "b", &["b.example.com", "evil.example.com"]);
        git(&self.repo, &["add", "."]);
        git(
            &self.repo,
            &["commit", "-q", "-m", "reviews, and b widened"],
        );
    }

    /// The real backend over the repository, judging by the allowed
    /// signers when `judged`.
    fn backend(&self, judged: bool) -> Arc<CoreBackend> {
        let root = self.repo.to_str().unwrap();
        let env = Env {
            cwd: root.into(),
            home: self.env.home.to_str().unwrap().into(),
            xdg_config_home: String::new(),
            xdg_state_home: String::new(),
            ..Env::default()
        };
        let loc = StoreLocation {
            path: self.env.home.join("trust.json").to_str().unwrap().into(),
            is_default: false,
            as_typed: None,
        };
        let mut b = CoreBackend::new(env, Ok(loc));
        if judged {
            let file = self.allowed.to_str().unwrap();
            let bytes = std::fs::read(&self.allowed).unwrap();
            b.reviewed_by = Some(parse_allowed_signers(file, &bytes).unwrap());
        }
        Arc::new(b)
    }
}

fn screen(state: &State) -> String {
    text(&draw(state, &Theme::mono(), 160, 50))
}

/// The list row of `path`.
fn row<'s>(screen: &'s str, path: &str) -> &'s str {
    screen
        .lines()
        .find(|l| l.contains(path))
        .unwrap_or_else(|| panic!("no row {path}: {screen}"))
}

/// Selects the row showing `path`.
fn select(b: &CoreBackend, state: &mut State, path: &str) {
    keys(b, state, "g");
    for _ in 0..state.visible.len() {
        if state.selected_config().map(|r| r.display_path.as_str()) == Some(path) {
            return;
        }
        keys(b, state, "j");
    }
    panic!("no row {path}");
}

/// The detail pane of the selected config, as text, unwrapped.
fn pane(state: &State) -> String {
    let r = state.selected_config().unwrap();
    goccia_trust::tui::views::detail::config_pane(state, r, 400)
        .iter()
        .map(|l| l.iter().map(|(_, t)| t.as_str()).collect::<String>() + "\n")
        .collect()
}

#[test]
fn the_list_the_pane_and_the_confirmation_show_the_reviews() {
    let t = team();
    t.reviewed();
    let b = t.backend(true);
    let mut state = review(&b, t.repo.to_str().unwrap());
    let s = screen(&state);
    assert!(
        row(&s, "a/goccia.json").contains("1 request · reviewed 1 "),
        "{s}"
    );
    assert!(
        row(&s, "b/goccia.json").contains("· review outdated"),
        "{s}"
    );
    assert!(row(&s, "c/goccia.json").contains("· bad review"), "{s}");
    assert!(!row(&s, "c/goccia.json").contains("reviewed"), "{s}");
    // a: the block, as inspect prints it.
    select(&b, &mut state, "a/goccia.json");
    let p = pane(&state);
    assert!(
        p.contains(&format!("Reviews  judged by {}", t.allowed.display())),
        "{p}"
    );
    assert!(p.contains("  Digest: sha256:"), "{p}");
    assert!(
        p.contains(&format!("  reviewed by {ALICE} (ED25519 SHA256:")),
        "{p}"
    );
    // c: mallory's key, whatever it claims.
    select(&b, &mut state, "c/goccia.json");
    let p = pane(&state);
    assert!(p.contains(", a key not in "), "{p}");
    assert!(!p.contains("reviewed by"), "{p}");
    // b: outdated, and what changed since alice's review, read from git.
    select(&b, &mut state, "b/goccia.json");
    let p = pane(&state);
    assert!(
        p.contains(&format!("  {ALICE} reviewed an earlier version (sha256:")),
        "{p}"
    );
    assert!(
        p.contains(&format!(
            "  + allow-net: evil.example.com since {ALICE}'s review\n"
        )),
        "{p}"
    );
    assert!(p.contains("  reviewed version: "), "{p}");
    assert!(!p.contains("- allow-net"), "{p}");
    // The confirmation lists each config's reviews.
    select(&b, &mut state, "a/goccia.json");
    keys(&b, &mut state, "t");
    let Mode::Confirm(c) = &state.mode else {
        panic!("no confirmation");
    };
    let confirm: String = goccia_trust::tui::views::confirm::content(c, 200)
        .iter()
        .map(|l| l.iter().map(|(_, t)| t.as_str()).collect::<String>() + "\n")
        .collect();
    assert!(confirm.contains("  reviews  reviewed 1\n"), "{confirm}");
    assert!(
        confirm.contains(&format!("    reviewed by {ALICE} (ED25519")),
        "{confirm}"
    );
    keys(&b, &mut state, "n");
}

#[test]
fn without_allowed_signers_a_good_signature_is_only_unchecked() {
    let t = team();
    t.reviewed();
    let b = t.backend(false);
    let mut state = review(&b, t.repo.to_str().unwrap());
    let s = screen(&state);
    assert!(
        row(&s, "a/goccia.json").contains("· review unchecked"),
        "{s}"
    );
    assert!(!s.contains("reviewed 1"), "{s}");
    select(&b, &mut state, "a/goccia.json");
    let p = pane(&state);
    assert!(
        p.contains("Reviews  no allowed signers: none is checked"),
        "{p}"
    );
    assert!(p.contains("; not checked: no allowed signers"), "{p}");
    assert!(!p.contains("reviewed by"), "{p}");
}

#[test]
fn a_forged_or_edited_record_is_a_bad_review_never_a_review() {
    let t = team();
    t.sign(&t.alice, ALICE, &["a"]);
    let file = t.repo.join(".goccia/reviews.jsonl");
    let line = std::fs::read_to_string(&file).unwrap();
    // The same record for b, its note edited: the payload no longer
    // matches the signature.
    let forged = line
        .replace("\"path\":\"a/goccia.json\"", "\"path\":\"b/goccia.json\"")
        .replace("\"note\":\"\"", "\"note\":\"lgtm\"");
    std::fs::write(&file, format!("{line}{forged}")).unwrap();
    let b = t.backend(true);
    let mut state = review(&b, t.repo.to_str().unwrap());
    let s = screen(&state);
    assert!(row(&s, "b/goccia.json").contains("· bad review"), "{s}");
    assert!(!row(&s, "b/goccia.json").contains("reviewed"), "{s}");
    select(&b, &mut state, "b/goccia.json");
    let p = pane(&state);
    assert!(p.contains("  signature does not verify\n"), "{p}");
}

#[test]
fn a_hostile_note_is_shown_escaped() {
    let t = team();
    t.sign(&t.alice, ALICE, &["--note", "ok\u{1b}[2J\u{202e}fake", "a"]);
    let b = t.backend(true);
    let mut state = review(&b, t.repo.to_str().unwrap());
    select(&b, &mut state, "a/goccia.json");
    let s = screen(&state);
    assert!(!s.lines().any(|l| l.chars().any(is_unsafe)), "{s}");
    let p = pane(&state);
    assert!(!p.lines().any(|l| l.chars().any(is_unsafe)), "{p}");
    assert!(p.contains(": ok^[[2J\\u{202e}fake"), "{p}");
    // A principal with a bidi override, judged by nobody: shown escaped.
    t.sign(&t.mallory, "mallory\u{202e}@evil.example", &["a"]);
    let b = t.backend(false);
    let mut state = review(&b, t.repo.to_str().unwrap());
    select(&b, &mut state, "a/goccia.json");
    let p = pane(&state);
    assert!(!p.lines().any(|l| l.chars().any(is_unsafe)), "{p}");
    assert!(
        p.contains("  signed by mallory\\u{202e}@evil.example (ED25519 SHA256:"),
        "{p}"
    );
}

#[test]
fn a_tree_without_a_reviews_file_shows_nothing_of_reviews() {
    let t = team();
    let b = t.backend(true);
    let mut state = review(&b, t.repo.to_str().unwrap());
    let s = screen(&state);
    assert!(!s.contains(" · review") && !s.contains("reviewed"), "{s}");
    select(&b, &mut state, "a/goccia.json");
    assert!(!pane(&state).contains("Reviews"), "{}", pane(&state));
    assert!(state.reviews.is_empty());
}

#[test]
fn in_a_shallow_clone_the_reviewed_version_is_said_not_found() {
    let t = team();
    t.reviewed();
    let clone = t.env.root.join("shallow");
    let url = format!("file://{}", t.repo.display());
    git(
        &t.env.root,
        &["clone", "-q", "--depth", "1", &url, clone.to_str().unwrap()],
    );
    let env = Env {
        cwd: clone.to_str().unwrap().into(),
        home: t.env.home.to_str().unwrap().into(),
        ..Env::default()
    };
    let mut b = CoreBackend::new(env, Err("no store".into()));
    let bytes = std::fs::read(&t.allowed).unwrap();
    b.reviewed_by = Some(parse_allowed_signers(t.allowed.to_str().unwrap(), &bytes).unwrap());
    let mut state = review(&b, clone.to_str().unwrap());
    select(&b, &mut state, "b/goccia.json");
    let p = pane(&state);
    assert!(
        p.contains(&format!(
            "… of {ALICE}: not found: history is shallow before "
        )),
        "{p}"
    );
    assert!(!p.contains("evil.example.com since"), "{p}");
}

/// The real binary at 80x24 on a real repository reviewed with real keys:
/// the summary, the block and the diff since alice's review.
#[test]
fn real_binary_shows_reviews_at_80x24() {
    if !Tmux::available() {
        return;
    }
    let t = team();
    t.reviewed();
    let tm = Tmux::start_sized("reviews", 80, 24);
    tm.wait_for("$", WAIT);
    tm.run(&format!(
        "cd {} && HOME={} GIT_CONFIG_GLOBAL=/dev/null {} --trust-store={} --reviewed-by {} .; echo \"goccia-trust exited $?\"",
        t.repo.display(),
        t.env.home.display(),
        env!("CARGO_BIN_EXE_goccia-trust"),
        t.env.home.join("trust.json").display(),
        t.allowed.display(),
    ));
    let s = tm.wait_for_all(&["· reviewed 1", "· review outdated", "· bad review"], WAIT);
    assert!(row(&s, "a/goccia.json").contains("· reviewed 1"), "{s}");
    assert!(
        row(&s, "b/goccia.json").contains("· review outdated"),
        "{s}"
    );
    // b, the second row: its block and the diff since alice's review,
    // scrolled into view.
    tm.send_keys(&["j"]);
    tm.wait_for("▶ ! never trusted b/goccia.json", WAIT);
    let mut screen = String::new();
    for _ in 0..12 {
        screen = tm.capture();
        if screen.contains("+ allow-net: evil.example.com since") {
            break;
        }
        tm.send_keys(&["J"]);
        std::thread::sleep(Duration::from_millis(150));
    }
    assert!(
        screen.contains("+ allow-net: evil.example.com since"),
        "{screen}"
    );
    assert!(screen.contains("Reviews"), "{screen}");
    tm.send_keys(&["q"]);
    tm.wait_for("goccia-trust exited 0", WAIT);
}

#[test]
fn reviewed_by_is_refused_before_the_review_as_inspect_refuses_it() {
    let t = team();
    t.reviewed();
    // Inside the tree under review: exit 2, naming it, before anything.
    let inside = t.repo.join("allowed_signers");
    std::fs::copy(&t.allowed, &inside).unwrap();
    let out = t.env.run_in(
        &t.repo,
        &["--reviewed-by", inside.to_str().unwrap(), "."],
        &[],
    );
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("a tree under review"), "{out}");
    assert!(out.stdout.is_empty(), "{out}");
    // Outside and yours: without a terminal, what `scan` prints.
    let allowed = t.allowed.to_str().unwrap();
    let out = t.env.run_in(&t.repo, &["--reviewed-by", allowed, "."], &[]);
    let scan = t.env.run_in(&t.repo, &["scan", "."], &[]);
    assert_eq!((out.code, &out.stdout), (scan.code, &scan.stdout), "{out}");
    // GocciaScript's trust spelling does not take it.
    let out = t
        .env
        .run_in(&t.repo, &["--trust", "a", "--reviewed-by", allowed], &[]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .contains("--trust cannot be combined with --reviewed-by"),
        "{out}"
    );
}

/// A config with a path scope: the reviewed version, read from a commit,
/// hashes as the review did (its scope's target through the commit's
/// tree), so the diff since it is found.
#[test]
fn the_reviewed_version_of_a_config_with_a_path_scope_is_found() {
    let t = team();
    let d = t.repo.join("d");
    std::fs::create_dir_all(d.join("data")).unwrap();
    std::fs::write(d.join("data/.keep"), "").unwrap();
    let body = |hosts: &str| {
        format!(r#"{{"permissions":{{"allow-read":["./data"],"allow-net":[{hosts}]}}}}"#)
    };
    std::fs::write(d.join("goccia.json"), body(r#""d.example.com""#)).unwrap();
    git(&t.repo, &["add", "."]);
    git(&t.repo, &["commit", "-q", "-m", "d"]);
    t.sign(&t.alice, ALICE, &["d"]);
    std::fs::write(
        d.join("goccia.json"),
        body(r#""d.example.com","exfil.example.net""#),
    )
    .unwrap();
    git(&t.repo, &["add", "."]);
    git(&t.repo, &["commit", "-q", "-m", "d widened"]);
    let b = t.backend(true);
    let mut state = review(&b, t.repo.to_str().unwrap());
    select(&b, &mut state, "d/goccia.json");
    let p = pane(&state);
    assert!(
        p.contains(&format!(
            "  + allow-net: exfil.example.net since {ALICE}'s review\n"
        )),
        "{p}"
    );
    assert!(
        !p.contains("+ allow-read") && !p.contains("- allow-read"),
        "only what changed: {p}"
    );
}
