//! Issue 40's last tries, each in the surfaces that lacked it, on real
//! repositories: a shallow clone and commits made in the same second in
//! `diff`'s every format (text, JSON, markdown, github, SARIF), the TUI's
//! pane at 80x24 in tmux and its confirmation; a grafted history in the
//! pane; a reformat and a re-pointed link in the confirmation.

use std::path::Path;
use std::time::Duration;

use crate::common::Output;
use crate::common::git::{GIT_ENV, git};
use crate::content_origin::{
    json_values, link_repointed, mallory_then_alice, one_line, run, short,
    three_authors_on_one_line, trusted_at,
};
use crate::provenance::Repo;
use crate::tui_tmux::Tmux;

/// The wait for a screen: the machine may be loaded.
const WAIT: Duration = Duration::from_secs(30);

/// `goccia-trust ARGS` in `dir` with `r`'s home.
fn run_at(r: &Repo, dir: &Path, args: &[&str]) -> Output {
    r.t.run_in(dir, args, GIT_ENV)
}

/// [`mallory_then_alice`]'s repository cloned `--depth 1` (every branch,
/// `old` at the trusted commit): HEAD (Alice's "add ok") and `origin/old`
/// are shallow, with no history between them. Returns (repo, the clone's
/// root, HEAD's short id).
fn shallow_clone() -> (Repo, std::path::PathBuf, String) {
    let (r, trusted, _, _) = mallory_then_alice();
    r.git(&["branch", "old", &trusted]);
    let clone = r.t.work.parent().unwrap().join("clone");
    git(
        r.t.work.parent().unwrap(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            "--no-single-branch",
            &format!("file://{}", r.root),
            clone.to_str().unwrap(),
        ],
    );
    let clone = std::fs::canonicalize(&clone).unwrap();
    let head = git(&clone, &["rev-parse", "HEAD"]);
    let shallow = std::fs::read_to_string(clone.join(".git/shallow")).unwrap();
    assert!(shallow.contains(head.trim()), "{shallow}");
    (r, clone, short(head.trim()))
}

/// `diff origin/old HEAD` in a shallow clone: HEAD's parents are not in
/// the clone, so the values added since `old` have an unknown origin (the
/// shallow boundary, said), never HEAD's author (Alice did not add
/// `evil.test`); in every format.
#[test]
fn diff_in_a_shallow_clone_says_where_history_stops_in_every_format() {
    let (r, clone, h) = shallow_clone();
    let said = format!("origin unknown: history is shallow before {h}");
    let text = run_at(&r, &clone, &["diff", "origin/old", "HEAD"]);
    assert_eq!(text.code, 1, "{text}");
    for value in ["evil.test", "ok.test"] {
        let line = text
            .stdout
            .lines()
            .find(|l| l.contains(value))
            .unwrap_or_else(|| panic!("{value}: {text}"));
        assert!(line.ends_with(&format!("· {said}")), "{value}: {text}");
    }
    assert!(!text.stdout.contains("Alice"), "{text}");
    let json = run_at(&r, &clone, &["diff", "origin/old", "HEAD", "--json"]);
    let doc = crate::json_contract::valid("diff", &json.stdout);
    let values = json_values(&doc);
    for value in ["evil.test", "ok.test"] {
        let v = values
            .iter()
            .find(|x| x["value"] == value)
            .unwrap_or_else(|| panic!("{value}: {doc:#}"));
        assert_eq!(v["origin"]["kind"], "unknown", "{doc:#}");
        assert_eq!(
            v["origin"]["reason"],
            format!("history is shallow before {h}"),
            "{doc:#}"
        );
    }
    for format in ["markdown", "github", "sarif"] {
        let out = run_at(
            &r,
            &clone,
            &["diff", "origin/old", "HEAD", "--format", format],
        );
        assert_eq!(out.code, 1, "{format}: {out}");
        assert!(
            out.stdout
                .contains(&format!("history is shallow before {h}")),
            "{format}: {out}"
        );
        assert!(!out.stdout.contains("Alice"), "{format}: {out}");
    }
}

/// Alice's BASE, then Bob's and Carol's commits, all in the same second:
/// the range is the history's, not the clock's. Returns (repo, base, bob,
/// carol).
fn same_second() -> (Repo, String, String, String) {
    let r = Repo::new();
    let at = "2026-01-10T09:00:00Z";
    r.write("goccia.json", &one_line(2, &["a.test"]));
    let base = r.commit_as("Alice", at, "start");
    r.write("goccia.json", &one_line(2, &["a.test", "b.test"]));
    let bob = r.commit_as("Bob", at, "bump");
    r.write("goccia.json", &one_line(2, &["a.test", "b.test", "c.test"]));
    let carol = r.commit_as("Carol", at, "edge");
    (r, base, short(&bob), short(&carol))
}

/// Commits in the same second as BASE: each value is credited to the
/// commit of `BASE..HEAD` that made it, in every format; from Bob's
/// commit, only Carol's value widens.
#[test]
fn diff_credits_commits_made_in_the_same_second_in_every_format() {
    let (r, base, bob, carol) = same_second();
    let text = run(&r, &["diff", &base, "HEAD"]);
    assert_eq!(text.code, 1, "{text}");
    let line = |needle: &str| text.line_with(needle);
    assert!(
        line("b.test").ends_with(&format!("· {bob} Bob 2026-01-10 \"bump\"")),
        "{text}"
    );
    assert!(
        line("c.test").ends_with(&format!("· {carol} Carol 2026-01-10 \"edge\"")),
        "{text}"
    );
    let json = run(&r, &["diff", &base, "HEAD", "--json"]);
    let doc = crate::json_contract::valid("diff", &json.stdout);
    let values = json_values(&doc);
    let author = |v: &str| {
        values
            .iter()
            .find(|x| x["value"] == v)
            .unwrap_or_else(|| panic!("{v}: {doc:#}"))["origin"]["commit"]["author"]
            .clone()
    };
    assert_eq!(author("b.test"), "Bob", "{doc:#}");
    assert_eq!(author("c.test"), "Carol", "{doc:#}");
    for format in ["markdown", "github", "sarif"] {
        let out = run(&r, &["diff", &base, "HEAD", "--format", format]);
        assert_eq!(out.code, 1, "{format}: {out}");
        for who in [
            format!("{bob} Bob 2026-01-10"),
            format!("{carol} Carol 2026-01-10"),
        ] {
            assert!(out.stdout.contains(&who), "{format}: {who}\n{out}");
        }
        assert!(!out.stdout.contains("Alice"), "{format}: {out}");
    }
    // From Bob's commit (same second): only Carol's value is new.
    let out = run(&r, &["diff", "HEAD~1", "HEAD"]);
    assert!(
        out.stdout
            .contains(&format!("c.test  (widens) · {carol} Carol")),
        "{out}"
    );
    assert!(!out.stdout.contains("b.test  (widens)"), "{out}");
}

/// The real binary on a real terminal at 80x24 in `dir` (HOME `r`'s home,
/// the default store given explicitly, no global git configuration), in
/// tmux session `name`; the shell says `goccia-trust exited N` when it
/// ends.
fn review_in(name: &str, r: &Repo, dir: &Path, args: &str) -> Tmux {
    let exe = env!("CARGO_BIN_EXE_goccia-trust");
    let t = Tmux::start_sized(name, 80, 24);
    t.wait_for("$", WAIT);
    t.run(&format!(
        "cd {} && HOME={} GIT_CONFIG_GLOBAL=/dev/null {exe} --trust-store={} {args}; echo \"goccia-trust exited $?\"",
        dir.display(),
        r.t.home.display(),
        r.t.home.join(".config/goccia/trust.json").display(),
    ));
    t
}

/// Opens the confirmation (`t`), waits for `lines` on the confirmation's
/// own value lines (indented under its config, inside its frame), declines
/// it and quits: the confirmation's screen.
fn confirm(t: &Tmux, lines: &[&str]) -> String {
    t.send_keys(&["t"]);
    let screen = t.wait_until(&format!("the confirmation with {lines:?}"), WAIT, |s| {
        s.contains("(changed)")
            && lines
                .iter()
                .all(|want| s.lines().any(|l| l.contains("│    ") && l.contains(want)))
    });
    assert!(!screen.contains('\u{1b}'), "{screen}");
    t.send_keys(&["n"]);
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", WAIT);
    screen
}

/// A shallow clone, trusted as Alice first wrote the config (never
/// committed in the clone): the pane and the confirmation say where the
/// history stops, and credit nothing to HEAD's author.
#[test]
fn the_pane_and_the_confirmation_say_where_a_shallow_clone_stops_at_80x24() {
    if !Tmux::available() {
        return;
    }
    let (r, clone, h) = shallow_clone();
    let now = std::fs::read_to_string(clone.join("goccia.json")).unwrap();
    std::fs::write(
        clone.join("goccia.json"),
        "{\"permissions\": {\"allow-net\": [\"a.test\"]}}\n",
    )
    .unwrap();
    let out = run_at(&r, &clone, &["trust", ".", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    std::fs::write(clone.join("goccia.json"), now).unwrap();
    let t = review_in("surfaces-shallow", &r, &clone, ".");
    let screen = t.wait_for_all(
        &[
            "+ evil.test · origin unknown",
            "+ ok.test · origin unknown",
            &format!("shallow before {h}"),
        ],
        WAIT,
    );
    assert!(!screen.contains("evil.test · Alice"), "{screen}");
    let screen = confirm(
        &t,
        &["+ evil.test · origin unknown", "+ ok.test · origin unknown"],
    );
    assert!(screen.contains(&format!("shallow before {h}")), "{screen}");
}

/// Trusted, then the trusted version committed in the same second as the
/// trust, then Bob's commit: the pane lists only Bob's commit as since
/// trusted and credits his value to him; so does the confirmation.
#[test]
fn the_pane_and_the_confirmation_do_not_count_a_same_second_commit_at_80x24() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    r.write("goccia.json", &one_line(2, &["a.test"]));
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    r.write("goccia.json", &one_line(2, &["a.test", "b.test"]));
    assert_eq!(run(&r, &["trust", ".", "--yes"]).code, 0);
    let at = trusted_at(&r);
    let same = short(&r.commit_as("Alice", &at, "commit what was trusted"));
    r.write("goccia.json", &one_line(2, &["a.test", "b.test", "c.test"]));
    let bob = short(&r.commit_as("Bob", "2099-03-01T09:00:00Z", "more"));
    let t = review_in("surfaces-same-second", &r, Path::new(&r.root), ".");
    let credit = format!("+ c.test · {bob} Bob 2099-03-01");
    t.wait_for(&credit, WAIT);
    let first = format!("{bob} 2099-03-01 Bob  more");
    let screen =
        crate::tui_provenance::scroll_to_changes(&t, "changes  1 commit since trusted", &first);
    assert!(!screen.contains(&same), "{screen}");
    assert!(!screen.contains("counted by date"), "{screen}");
    let screen = confirm(&t, &[&credit]);
    assert!(!screen.contains("+ b.test"), "trusted already: {screen}");
    assert!(!screen.contains(&same), "{screen}");
}

/// A graft re-parents Alice's commit onto the trusted one: the pane
/// still lists Mallory's commit and credits her value to her, and the
/// confirmation does too.
#[test]
fn the_pane_and_the_confirmation_do_not_believe_grafts_at_80x24() {
    if !Tmux::available() {
        return;
    }
    let (r, trusted, mallory, alice) = mallory_then_alice();
    std::fs::write(
        format!("{}/.git/info/grafts", r.root),
        format!("{alice} {trusted}\n"),
    )
    .unwrap();
    assert!(!r.git(&["log", "--format=%an"]).contains("Mallory"));
    let (m, a) = (short(&mallory), short(&alice));
    let t = review_in("surfaces-grafts", &r, Path::new(&r.root), ".");
    let (evil, ok) = (
        format!("+ evil.test · {m} Mallory 2099-03-01"),
        format!("+ ok.test · {a} Alice 2099-03-02"),
    );
    t.wait_for_all(&[&evil, &ok], WAIT);
    let first = format!("{m} 2099-03-01 Mallory  bump");
    crate::tui_provenance::scroll_to_changes(&t, "changes  2 commits since trusted", &first);
    confirm(&t, &[&evil, &ok]);
}

/// The one-line story with a reformat (Dave re-indents the file after
/// Bob and Carol added their hosts): the confirmation names Bob and
/// Carol, never the reformat.
#[test]
fn the_confirmation_credits_values_past_a_reformat_at_80x24() {
    if !Tmux::available() {
        return;
    }
    let (r, _, bob, carol) = three_authors_on_one_line();
    let t = review_in("surfaces-reformat", &r, Path::new(&r.root), ".");
    t.wait_for("+ wip.example · not committed", WAIT);
    let (exfil, edge) = (
        format!("+ exfil.attacker.io · {bob} Bob 2099-03-01"),
        format!("+ edge41.example · {carol} Carol 2099-03-02"),
    );
    let screen = confirm(&t, &[&exfil, &edge, "+ wip.example · not committed"]);
    assert!(!screen.contains("Dave"), "{screen}");
}

/// A link re-pointed by Carol's commit: the confirmation's `~` line names
/// her commit, as the pane does.
#[test]
fn the_confirmation_credits_a_re_pointed_link_at_80x24() {
    if !Tmux::available() {
        return;
    }
    let (r, _, carol) = link_repointed();
    let t = review_in("surfaces-link", &r, Path::new(&r.root), "app");
    t.wait_for_all(&[&format!("shared-v2 · {carol}"), "Carol 2099-03-01"], WAIT);
    // The `~` line wraps inside the frame: the link, then the commit.
    let credit = format!("{carol} Carol 2099-03-01");
    let screen = confirm(&t, &["~ ", "shared-v2 ·", &credit]);
    let from = screen.find("allow-read").expect("the request");
    assert!(screen[from..].contains(&credit), "{screen}");
    assert!(!screen.contains("no commit since trusted"), "{screen}");
}
