//! Who changed what where a changed config is reviewed on the command line
//! (issue 26 items 3 and 4): `inspect` (text and JSON), `scan` on a
//! terminal and `trust --why` list the commits since the config was trusted
//! and each added value's origin, on real repositories built here; commit
//! text stays escaped; outside a repository the review says why and exits
//! as before; without `--why` the trust listing is GocciaScript's, byte for
//! byte.

use std::process::{Command, Stdio};

use crate::common::{Output, TestEnv};
use crate::provenance::{APP, APP_BOB, BASE, BASE_CAROL, Repo, hostile_repo};

/// As `commit_as`, with the committer date after the trust (the date
/// `--since` compares) for a commit git rewrites (rebase, merge).
const LATER: &[(&str, &str)] = &[("GIT_COMMITTER_DATE", "2099-06-01T09:00:00Z")];

fn run(r: &Repo, args: &[&str]) -> Output {
    r.t.run(args)
}

/// Alice writes a config and the base it extends; it is trusted (now);
/// then Bob adds a host, Carol widens the base, Dave touches another file.
fn trusted_then_changed() -> (Repo, String, String) {
    let r = Repo::new();
    r.write("app/goccia.json", APP);
    r.write("base.json", BASE);
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    let out = run(&r, &["trust", "app", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    r.write("app/goccia.json", APP_BOB);
    let bob = r.commit_as("Bob", "2099-03-01T09:00:00Z", "bump deps");
    r.write("base.json", BASE_CAROL);
    let carol = r.commit_as("Carol", "2099-03-02T09:00:00Z", "share more");
    r.write("README", "x");
    r.commit_as("Dave", "2099-03-03T09:00:00Z", "docs");
    (r, short(&bob), short(&carol))
}

fn short(sha: &str) -> String {
    sha[..7].to_string()
}

/// The document of `inspect --json` or `trust --json`, valid against its
/// schema.
fn json(out: &Output) -> serde_json::Value {
    let name = if out.stdout.contains("\"dryRun\"") {
        "trust"
    } else {
        "inspect"
    };
    crate::json_contract::valid(name, &out.stdout)
}

#[test]
fn inspect_lists_the_commits_since_trusted_and_who_added_each_value() {
    let (r, bob, carol) = trusted_then_changed();
    let out = run(&r, &["inspect", "app/goccia.json"]);
    assert_eq!(out.code, 0, "{out}");
    let text = &out.stdout;
    assert!(
        text.contains("\nProvenance:\n    2 commits since trusted:\n"),
        "{out}"
    );
    // Newest first; Dave's commit touched no file of the chain.
    let carol_line =
        format!("      {carol} 2099-03-02 Carol <carol@example.invalid>  share more\n");
    let bob_line = format!("      {bob} 2099-03-01 Bob <bob@example.invalid>  bump deps\n");
    let (c, b) = (text.find(&carol_line), text.find(&bob_line));
    assert!(c.is_some() && b.is_some() && c < b, "{out}");
    assert!(!text.contains("Dave"), "{out}");
    assert!(
        text.contains(&format!(
            "    added allow-net: b.test · {bob} Bob 2099-03-01\n"
        )),
        "{out}"
    );
    assert!(
        text.contains(&format!(
            "    added allow-read: $ROOT/work/shared · {carol} Carol 2099-03-02\n"
        )),
        "the base's value names the base's author: {out}"
    );
}

#[test]
fn inspect_json_carries_the_commits_and_origins() {
    let (r, bob, carol) = trusted_then_changed();
    let doc = json(&run(&r, &["inspect", "--json", "app/goccia.json"]));
    let p = &doc["provenance"];
    let commits = p["commits"].as_array().unwrap();
    let authors: Vec<&str> = commits
        .iter()
        .map(|c| c["author"].as_str().unwrap())
        .collect();
    assert_eq!(authors, ["Carol", "Bob"], "{doc:#}");
    assert_eq!(commits[1]["short"], bob.as_str());
    assert_eq!(commits[1]["subject"], "bump deps");
    assert_eq!(commits[1]["email"], "bob@example.invalid");
    assert_eq!(commits[1]["date"], "2099-03-01T09:00:00Z");
    assert_eq!(p["more"], false);
    let origins = p["origins"].as_array().unwrap();
    assert_eq!(origins[0]["request"], "allow-net");
    assert_eq!(origins[0]["value"], "b.test");
    assert_eq!(origins[0]["origin"]["kind"], "commit");
    assert_eq!(origins[0]["origin"]["commit"]["short"], bob.as_str());
    assert_eq!(origins[1]["origin"]["commit"]["short"], carol.as_str());
}

#[test]
fn a_working_tree_edit_is_not_committed() {
    let (r, _, _) = trusted_then_changed();
    r.write(
        "app/goccia.json",
        &APP_BOB.replace("\"b.test\"", "\"b.test\",\n      \"c.test\""),
    );
    let out = run(&r, &["inspect", "app/goccia.json"]);
    assert!(
        out.stdout
            .contains("    added allow-net: c.test · not committed\n"),
        "{out}"
    );
    let doc = json(&run(&r, &["inspect", "--json", "app/goccia.json"]));
    assert_eq!(
        doc["provenance"]["origins"][1]["origin"]["kind"], "notCommitted",
        "{doc:#}"
    );
}

/// A repository whose app (on base.json) Alice committed and the user
/// trusted, with branch `topic` where Bob bumped the app; `main` checked
/// out. Returns Bob's commit.
fn trusted_then_topic() -> (Repo, String) {
    let r = Repo::new();
    r.write("app/goccia.json", APP);
    r.write("base.json", BASE);
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    assert_eq!(run(&r, &["trust", "app", "--yes"]).code, 0);
    r.git(&["checkout", "-q", "-b", "topic"]);
    r.write("app/goccia.json", APP_BOB);
    let bob = r.commit_as("Bob", "2099-03-01T09:00:00Z", "bump deps");
    r.git(&["checkout", "-q", "main"]);
    (r, bob)
}

#[test]
fn after_a_rebase_the_list_names_the_new_commits() {
    let (r, old) = trusted_then_topic();
    r.write("README", "x");
    r.commit_as("Dave", "2099-03-03T09:00:00Z", "docs");
    r.git(&["checkout", "-q", "topic"]);
    r.git_env(&["rebase", "-q", "main"], LATER);
    let new = r.git(&["rev-parse", "HEAD"]).trim().to_string();
    assert_ne!(old, new);
    let out = run(&r, &["inspect", "app/goccia.json"]);
    assert!(
        out.stdout.contains("    1 commit since trusted:\n"),
        "{out}"
    );
    assert!(
        out.stdout
            .contains(&format!("      {} 2099-03-01 Bob", short(&new))),
        "{out}"
    );
    assert!(!out.stdout.contains(&short(&old)), "{out}");
    assert!(
        out.stdout
            .contains(&format!("added allow-net: b.test · {} Bob", short(&new))),
        "{out}"
    );
}

#[test]
fn a_merge_lists_the_commits_of_both_sides() {
    let (r, bob) = trusted_then_topic();
    r.write("base.json", BASE_CAROL);
    let carol = r.commit_as("Carol", "2099-03-02T09:00:00Z", "share more");
    r.git_env(
        &["merge", "-q", "--no-ff", "-m", "merge topic", "topic"],
        LATER,
    );
    let out = run(&r, &["inspect", "app/goccia.json"]);
    // The merge commit touched them too: its result is neither side's.
    assert!(
        out.stdout.contains("    3 commits since trusted:\n"),
        "{out}"
    );
    assert!(
        out.stdout
            .contains(" Test <test@example.invalid>  merge topic\n"),
        "{out}"
    );
    assert!(
        out.stdout
            .contains(&format!("added allow-net: b.test · {} Bob", short(&bob))),
        "{out}"
    );
    assert!(
        out.stdout
            .contains(&format!("shared · {} Carol", short(&carol))),
        "{out}"
    );
}

#[test]
fn outside_a_repository_inspect_says_why_and_exits_as_before() {
    let t = TestEnv::new();
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    assert_eq!(t.run(&["trust", "app", "--yes"]).code, 0);
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test", "b.test"]}}"#,
    );
    let out = t.run(&["inspect", "app/goccia.json"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .contains("\nProvenance:\n    no provenance: not in a git repository\n"),
        "{out}"
    );
    assert!(out.stderr.is_empty(), "{out}");
    let doc = json(&t.run(&["inspect", "--json", "app/goccia.json"]));
    assert_eq!(
        doc["provenance"]["absent"], "not in a git repository",
        "{doc:#}"
    );
    // A config that did not change reads no git and says nothing of it.
    assert_eq!(t.run(&["trust", "app", "--yes"]).code, 0);
    let out = t.run(&["inspect", "app/goccia.json"]);
    assert!(!out.stdout.contains("Provenance"), "{out}");
    assert!(
        json(&t.run(&["inspect", "--json", "app"]))
            .get("provenance")
            .is_none()
    );
}

/// An author, an email and a subject that would repaint a terminal,
/// reverse the line or hide text: ESC, a bidi override, a zero-width
/// space, a carriage return.
const EVIL_NAME: &str = "Mallory\u{1b}[2J\u{202e}\u{200b}";
const EVIL_SUBJECT: &str = "bump\u{1b}[31m deps\u{202e}\u{200b}\r fake line";

fn hostile_commit() -> Repo {
    let r = Repo::new();
    r.write("app/goccia.json", APP);
    r.write("base.json", BASE);
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    assert_eq!(run(&r, &["trust", "app", "--yes"]).code, 0);
    r.write("app/goccia.json", APP_BOB);
    r.commit_as(EVIL_NAME, "2099-03-01T09:00:00Z", EVIL_SUBJECT);
    r
}

fn assert_escaped(text: &str) {
    for c in ['\u{1b}', '\u{202e}', '\u{200b}', '\r'] {
        assert!(!text.contains(c), "{c:?} reached the output raw: {text:?}");
    }
    assert!(text.contains("Mallory^[[2J"), "{text}");
    assert!(text.contains("bump^[[31m deps"), "{text}");
}

#[test]
fn hostile_commit_text_stays_escaped_in_inspect() {
    let r = hostile_commit();
    let out = run(&r, &["inspect", "app/goccia.json"]);
    assert_escaped(&out.stdout);
    assert!(out.stdout.contains("since trusted:"), "{out}");
    // Raw in JSON, escaped as JSON escapes it.
    let doc = json(&run(&r, &["inspect", "--json", "app/goccia.json"]));
    let c = &doc["provenance"]["commits"][0];
    assert_eq!(c["author"], EVIL_NAME);
    assert_eq!(c["subject"], EVIL_SUBJECT);
    assert_eq!(
        c["email"],
        format!("{}@example.invalid", EVIL_NAME.to_lowercase())
    );
    assert_eq!(
        doc["provenance"]["origins"][0]["origin"]["commit"]["author"],
        EVIL_NAME
    );
}

/// Runs `goccia-trust ARGS` on a pseudo-terminal in the repository;
/// returns the terminal's text (CRLF folded) and the exit code.
fn on_terminal(r: &Repo, args: &str) -> (String, i32) {
    on_terminal_in(&r.t, std::path::Path::new(&r.root), args)
}

/// [`on_terminal`] in `dir`, with `t`'s home.
fn on_terminal_in(t: &TestEnv, dir: &std::path::Path, args: &str) -> (String, i32) {
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    let mut child = Command::new("script")
        .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .current_dir(dir)
        .env_clear()
        .env("HOME", &t.home)
        .env("PATH", "/usr/bin:/bin")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script(1) from util-linux");
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    (t.redact(&text), out.status.code().unwrap_or(-1))
}

/// `scan` on a terminal reads git for at most 100 changed configs and says
/// an absence once: outside a repository, 101 changed configs show `no
/// provenance: not in a git repository` under the first only, and the
/// 101st says it was not looked up, not 101 lines of the same.
#[test]
fn scan_on_a_terminal_says_an_absence_once_and_reads_at_most_100_configs() {
    let t = TestEnv::new();
    let names: Vec<String> = (0..101).map(|i| format!("c{i:03}/goccia.json")).collect();
    for n in &names {
        t.write(n, r#"{"permissions": {"allow-net": ["a.test"]}}"#);
    }
    assert_eq!(t.run(&["trust", ".", "--yes"]).code, 0);
    for n in &names {
        t.write(n, r#"{"permissions": {"allow-net": ["a.test", "b.test"]}}"#);
    }
    let (screen, code) = on_terminal_in(&t, &t.work, "scan");
    assert_eq!(code, 0, "{screen}");
    assert_eq!(screen.matches("\nchanged  ").count(), 101, "{screen}");
    assert_eq!(
        screen
            .matches("no provenance: not in a git repository")
            .count(),
        1,
        "{screen}"
    );
    let past =
        "no provenance: not looked up past the first 100 changed configs (inspect one to see it)";
    assert_eq!(screen.matches(past).count(), 1, "{screen}");
    // Said under the 101st config, after its values.
    let at = screen.find(past).unwrap();
    assert!(screen[..at].contains("c100/goccia.json"), "{screen}");
}

#[test]
fn scan_on_a_terminal_names_who_changed_a_changed_config() {
    let (r, bob, carol) = trusted_then_changed();
    let (screen, code) = on_terminal(&r, "scan");
    assert_eq!(code, 0, "{screen}");
    assert!(
        screen.contains("\n  2 commits since trusted:\n"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!(
            "\n    {carol} 2099-03-02 Carol <carol@example.invalid>  share more\n"
        )),
        "{screen}"
    );
    assert!(
        screen.contains(&format!(
            "\n  added allow-net: b.test · {bob} Bob 2099-03-01\n"
        )),
        "{screen}"
    );
    // Piped, the table is as before: no git read, nothing of it said.
    let out = run(&r, &["scan"]);
    assert!(!out.stdout.contains("since trusted"), "{out}");
}

#[test]
fn hostile_commit_text_stays_escaped_in_scan_on_a_terminal() {
    let r = hostile_commit();
    let (screen, _) = on_terminal(&r, "scan");
    assert!(screen.contains("1 commit since trusted:"), "{screen}");
    // `script` folds nothing: what the binary wrote is what is read.
    assert_escaped(&screen.replace("\r\n", "\n"));
}

#[test]
fn trust_why_lists_who_changed_each_changed_config() {
    let (r, bob, carol) = trusted_then_changed();
    let out = run(&r, &["trust", "app", "--dry-run", "--why"]);
    assert_eq!(out.code, 0, "{out}");
    let text = &out.stdout;
    let listing = format!(
        "Permission requests under app/:\n\n  app/goccia.json (changed)\n  - allow-net: a.test\n  - allow-read: $ROOT/work/docs\n  + allow-net: a.test, b.test\n  + allow-read: $ROOT/work/docs, $ROOT/work/shared\n    2 commits since trusted:\n      {carol} 2099-03-02 Carol <carol@example.invalid>  share more\n      {bob} 2099-03-01 Bob <bob@example.invalid>  bump deps\n    added allow-net: b.test · {bob} Bob 2099-03-01\n    added allow-read: $ROOT/work/shared · {carol} Carol 2099-03-02\n\n"
    );
    assert!(text.starts_with(&listing), "{out}");
    let doc = json(&run(&r, &["trust", "app", "--dry-run", "--why", "--json"]));
    let p = &doc["configs"][0]["provenance"];
    assert_eq!(p["commits"][0]["author"], "Carol", "{doc:#}");
    assert_eq!(p["origins"][0]["origin"]["commit"]["short"], bob.as_str());
}

#[test]
fn trust_without_why_is_gocciascripts_listing_byte_for_byte() {
    let (r, _, _) = trusted_then_changed();
    let out = run(&r, &["trust", "app", "--dry-run"]);
    assert_eq!(
        out.stdout,
        "Permission requests under app/:\n\n  app/goccia.json (changed)\n  - allow-net: a.test\n  - allow-read: $ROOT/work/docs\n  + allow-net: a.test, b.test\n  + allow-read: $ROOT/work/docs, $ROOT/work/shared\n\nDry run: 1 config file would be trusted in $ROOT/home/.config/goccia/trust.json; nothing was written\n",
        "{out}"
    );
    let doc = json(&run(&r, &["trust", "app", "--dry-run", "--json"]));
    assert!(doc["configs"][0].get("provenance").is_none(), "{doc:#}");
}

#[test]
fn hostile_commit_text_stays_escaped_in_trust_why() {
    let r = hostile_commit();
    let out = run(&r, &["trust", "app", "--dry-run", "--why"]);
    assert!(out.stdout.contains("1 commit since trusted:"), "{out}");
    assert_escaped(&out.stdout);
    let doc = json(&run(&r, &["trust", "app", "--dry-run", "--why", "--json"]));
    assert_eq!(
        doc["configs"][0]["provenance"]["commits"][0]["subject"],
        EVIL_SUBJECT
    );
}

#[test]
fn inspect_reading_provenance_runs_nothing_the_repository_configures() {
    let (r, marker) = hostile_repo();
    assert_eq!(run(&r, &["trust", "app", "--yes"]).code, 0);
    r.write(
        "app/goccia.json",
        &APP_BOB.replace(
            "\"a.test\",",
            "\"a.test\",\n      \"c.test\",\n      \"d.test\",",
        ),
    );
    let out = run(&r, &["inspect", "app/goccia.json"]);
    assert!(
        out.stdout.contains("    no commit since trusted\n"),
        "{out}"
    );
    assert!(
        out.stdout
            .contains("    added allow-net: d.test · not committed\n"),
        "{out}"
    );
    let out = run(&r, &["inspect", "--json", "app/goccia.json"]);
    assert_eq!(out.code, 0, "{out}");
    let (screen, _) = on_terminal(&r, "scan");
    assert!(screen.contains("not committed"), "{screen}");
    let out = run(&r, &["trust", "app", "--dry-run", "--why"]);
    assert!(out.stdout.contains("d.test · not committed"), "{out}");
    assert!(
        !marker.exists(),
        "a program of the repository's configuration ran: {}",
        std::fs::read_to_string(&marker).unwrap_or_default()
    );
}

#[test]
fn trust_why_with_a_policy_names_who_changed_each_judged_config() {
    let (r, bob, _) = trusted_then_changed();
    let policy = r.t.root.join("ci/policy.json");
    std::fs::create_dir_all(policy.parent().unwrap()).unwrap();
    std::fs::write(&policy, crate::common::CI_POLICY).unwrap();
    let policy = policy.to_str().unwrap();
    let args = ["trust", "app", "--dry-run", "--policy", policy];
    let out = run(&r, &args);
    assert!(!out.stdout.contains("since trusted"), "{out}");
    let out = run(&r, &[&args[..], &["--why"]].concat());
    assert!(
        out.stdout.contains("\n    2 commits since trusted:\n"),
        "{out}"
    );
    assert!(
        out.stdout.contains(&format!(
            "\n    added allow-net: b.test · {bob} Bob 2099-03-01\n"
        )),
        "{out}"
    );
}

/// git's messages follow the user's language, and "not a git repository"
/// is how provenance knows it is outside one: git runs in the C locale, so
/// a German user outside a repository is told so, not `git: fatal: Kein
/// Git-Repository …`. (This machine has no git translations: a git that
/// speaks German unless `LC_ALL=C` stands in for one.)
#[test]
fn outside_a_repository_is_said_whatever_the_users_language() {
    let t = TestEnv::new();
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    assert_eq!(t.run(&["trust", "app", "--yes"]).code, 0);
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test", "b.test"]}}"#,
    );
    // git -C DIR ...: German outside a repository, unless LC_ALL=C.
    let path = crate::common::git::fake_git(
        &t.root,
        "if [ \"${LC_ALL:-}\" != C ] && ! \"$REAL\" -C \"$3\" rev-parse --git-dir >/dev/null 2>&1; then\n  echo 'fatal: Kein Git-Repository (oder irgendeines der Elternverzeichnisse): .git' >&2\n  exit 128\nfi",
    );
    let vars = [
        ("PATH", path.as_str()),
        ("LANG", "de_DE.UTF-8"),
        ("LC_ALL", "de_DE.UTF-8"),
        ("LANGUAGE", "de"),
    ];
    let out = t.run_with_env(&["inspect", "app/goccia.json"], &vars);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .contains("\nProvenance:\n    no provenance: not in a git repository\n"),
        "{out}"
    );
}
