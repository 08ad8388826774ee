//! Who changed what (issue 26 item 3), on real repositories built here:
//! the commits that touched a config's files since its `trustedAt`, and
//! the commit behind each value's line, through the hardened git.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use goccia_trust::core::env::Env;
use goccia_trust::core::revision::provenance::{
    Absent, ValueOrigin, commits_between, commits_since, introduced_in, parse_log, repository,
    value_origins,
};

use crate::common::TestEnv;

/// An author name a terminal, a browser or a CI log would obey: an
/// escape, a bidi override, a zero-width space, a mention.
pub(crate) const HOSTILE_NAME: &str = "Mal\u{1b}[2Jlory\u{202e}gnp.exe\u{200b} @admin";
/// A subject the same: OSC 8 link, carriage return, markdown, HTML, a
/// mention, a CI workflow command.
pub(crate) const HOSTILE_SUBJECT: &str = "bump\u{1b}]8;;http://x\u{7}\rx](http://evil) <script>alert(1)</script> | @team 100%0A ::error file=x::forged ``` *b*";

/// A repository whose commits each have their own author and date.
pub(crate) struct Repo {
    pub(crate) t: TestEnv,
    pub(crate) root: String,
}

impl Repo {
    pub(crate) fn new() -> Repo {
        let t = TestEnv::new();
        let root = std::fs::canonicalize(&t.work)
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let r = Repo { t, root };
        r.git(&["init", "-q", "-b", "main"]);
        r
    }

    fn dir(&self) -> &Path {
        Path::new(&self.root)
    }

    pub(crate) fn git_env(&self, args: &[&str], vars: &[(&str, &str)]) -> String {
        crate::common::git::git_env(self.dir(), args, vars)
    }

    pub(crate) fn git(&self, args: &[&str]) -> String {
        self.git_env(args, &[])
    }

    pub(crate) fn write(&self, rel: &str, text: &str) {
        self.t.write(rel, text);
    }

    /// Commits everything as `name` on `date` (author and committer).
    pub(crate) fn commit_as(&self, name: &str, date: &str, msg: &str) -> String {
        self.git(&["add", "-A"]);
        let email = format!("{}@example.invalid", name.to_lowercase());
        let who = [
            ("GIT_AUTHOR_NAME", name),
            ("GIT_AUTHOR_EMAIL", email.as_str()),
            ("GIT_COMMITTER_NAME", name),
            ("GIT_COMMITTER_EMAIL", email.as_str()),
            ("GIT_AUTHOR_DATE", date),
            ("GIT_COMMITTER_DATE", date),
        ];
        self.git_env(&["commit", "-q", "--allow-empty", "-m", msg], &who);
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }

    /// Commits the work tree as [`HOSTILE_NAME`] (email `<x>@[evil]` and a
    /// bidi override) with [`HOSTILE_SUBJECT`], verbatim, on 2026-03-01.
    pub(crate) fn commit_hostile(&self) {
        let msg = self.t.work.parent().unwrap().join("msg");
        std::fs::write(&msg, HOSTILE_SUBJECT).unwrap();
        self.git(&["add", "-A"]);
        self.git_env(
            &[
                "commit",
                "-q",
                "--cleanup=verbatim",
                "-F",
                msg.to_str().unwrap(),
            ],
            &[
                ("GIT_AUTHOR_NAME", HOSTILE_NAME),
                ("GIT_AUTHOR_EMAIL", "<x>@[evil]\u{202e}"),
                ("GIT_AUTHOR_DATE", "2026-03-01T09:00:00Z"),
            ],
        );
    }

    /// Writes a program (`evil.sh`, which appends to the file returned)
    /// and names it in the repository's configuration at every place git
    /// could run one while provenance is read: fsmonitor, an external
    /// diff, the `evil` textconv and filter drivers (clean, smudge,
    /// process), hooks, the pager, gpg with signatures shown. The caller's
    /// `.gitattributes` says which files are `evil`.
    pub(crate) fn configure_hostile(&self) -> std::path::PathBuf {
        let outside = self.t.work.parent().unwrap();
        let marker = outside.join("PWNED");
        let script = outside.join("evil.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nps -o args= -p $PPID >> '{}'; echo \"$@\" >> '{0}'\ncat\n",
                marker.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let s = script.to_str().unwrap();
        for (key, value) in [
            ("core.fsmonitor", s),
            ("diff.external", s),
            ("diff.evil.textconv", s),
            ("diff.evil.command", s),
            ("filter.evil.clean", s),
            ("filter.evil.smudge", s),
            ("filter.evil.process", s),
            ("filter.evil.required", "true"),
            ("core.hooksPath", outside.to_str().unwrap()),
            ("core.pager", s),
            ("gpg.program", s),
            ("log.showSignature", "true"),
        ] {
            self.git(&["config", key, value]);
        }
        marker
    }

    pub(crate) fn path(&self, rel: &str) -> String {
        format!("{}/{rel}", self.root)
    }

    fn env(&self) -> Env {
        Env::at(&self.root, "/nonexistent-home")
    }
}

fn pairs(values: &[(&str, &str)]) -> Vec<(String, String)> {
    values
        .iter()
        .map(|(r, v)| (r.to_string(), v.to_string()))
        .collect()
}

/// Who each origin names: the author, `not committed`, `base`, or
/// `unknown: <why>`.
fn who(origins: &[ValueOrigin]) -> Vec<String> {
    origins
        .iter()
        .map(|o| match o {
            ValueOrigin::Committed(c) => c.author.clone(),
            ValueOrigin::NotCommitted => "not committed".into(),
            ValueOrigin::AtBase => "base".into(),
            ValueOrigin::Unknown(why) => format!("unknown: {why}"),
        })
        .collect()
}

pub(crate) const APP: &str = "{\n  \"extends\": \"../base.json\",\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\"\n    ]\n  }\n}\n";
pub(crate) const APP_BOB: &str = "{\n  \"extends\": \"../base.json\",\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\",\n      \"b.test\"\n    ]\n  }\n}\n";
pub(crate) const BASE: &str =
    "{\n  \"permissions\": {\n    \"allow-read\": [\n      \"./docs\"\n    ]\n  }\n}\n";
pub(crate) const BASE_CAROL: &str = "{\n  \"permissions\": {\n    \"allow-read\": [\n      \"./docs\",\n      \"./shared\"\n    ]\n  }\n}\n";

/// Alice writes the config and its base; it is trusted on Feb 1; Bob adds
/// a host, Carol widens the base, Dave touches another file.
fn two_authors_and_a_third_on_the_base() -> Repo {
    let r = Repo::new();
    r.write("app/goccia.json", APP);
    r.write("base.json", BASE);
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    r.write("app/goccia.json", APP_BOB);
    r.commit_as("Bob", "2026-03-01T09:00:00Z", "bump deps");
    r.write("base.json", BASE_CAROL);
    r.commit_as("Carol", "2026-03-02T09:00:00Z", "share more");
    r.write("README", "x");
    r.commit_as("Dave", "2026-03-03T09:00:00Z", "docs");
    r
}

fn chain(r: &Repo) -> Vec<String> {
    vec![r.path("app/goccia.json"), r.path("base.json")]
}

#[test]
fn the_commits_since_trusted_are_those_that_touched_the_chain() {
    let r = two_authors_and_a_third_on_the_base();
    let since = commits_since(&r.root, &chain(&r), "2026-02-01T00:00:00Z").unwrap();
    let authors: Vec<&str> = since.commits.iter().map(|c| c.author.as_str()).collect();
    assert_eq!(
        authors,
        ["Carol", "Bob"],
        "newest first, Dave's is not there"
    );
    let bob = &since.commits[1];
    assert_eq!(bob.subject, "bump deps");
    assert_eq!(bob.email, "bob@example.invalid");
    assert_eq!(bob.day(), "2026-03-01");
    assert_eq!(bob.short.len(), 7);
    assert!(bob.sha.starts_with(&bob.short) && bob.sha.len() == 40);
    assert!(!since.more && since.outside.is_empty());
    // Trusted after everything: nothing since.
    let none = commits_since(&r.root, &chain(&r), "2026-04-01T00:00:00Z").unwrap();
    assert!(none.commits.is_empty());
    // A base outside the repository has no history here, and says so.
    let mut files = chain(&r);
    files.push("/elsewhere/base.json".into());
    let since = commits_since(&r.root, &files, "2026-02-01T00:00:00Z").unwrap();
    assert_eq!(since.outside, ["/elsewhere/base.json"]);
    // A trustedAt that is no date is refused, never passed on to git.
    assert!(commits_since(&r.root, &files, "--output=/tmp/x").is_err());
}

/// `--since BASE`: the commits of `BASE..HEAD` that touched the chain,
/// whatever their dates; BASE's own commit and earlier ones are not listed.
#[test]
fn the_commits_between_base_and_head_are_those_that_touched_the_chain() {
    let r = two_authors_and_a_third_on_the_base();
    let authors = |base: &str| -> Vec<String> {
        commits_between(&r.root, &chain(&r), base)
            .unwrap()
            .commits
            .into_iter()
            .map(|c| c.author)
            .collect()
    };
    assert_eq!(authors("HEAD~3"), ["Carol", "Bob"], "newest first, no Dave");
    assert_eq!(authors("HEAD~2"), ["Carol"]);
    // Dave's commit touched neither file.
    assert!(authors("HEAD~1").is_empty());
    assert!(authors("HEAD").is_empty());
    // A full id is taken as well as a name.
    let alice = r.git(&["rev-parse", "HEAD~3"]);
    assert_eq!(authors(alice.trim()), ["Carol", "Bob"]);
    // A base that reads as an option, or names no commit, is refused with
    // why, never passed on to git's log.
    for bad in ["--output=/tmp/x", "no-such-rev", "HEAD:app"] {
        let e = commits_between(&r.root, &chain(&r), bad).unwrap_err();
        assert!(e.describe().starts_with("no provenance: "), "{e:?}");
    }
    // A file outside the repository has no history here, and says so.
    let mut files = chain(&r);
    files.push("/elsewhere/base.json".into());
    let since = commits_between(&r.root, &files, "HEAD~3").unwrap();
    assert_eq!(since.outside, ["/elsewhere/base.json"]);
    assert_eq!(since.commits.len(), 2);
}

#[test]
fn each_value_is_attributed_to_the_commit_that_made_it_a_grant() {
    let r = two_authors_and_a_third_on_the_base();
    let values = pairs(&[
        ("allow-net", "b.test"),
        ("allow-net", "a.test"),
        ("allow-read", &r.path("shared")),
        ("allow-read", &r.path("docs")),
        ("allow-net", "nowhere.test"),
    ]);
    let got = value_origins(&r.root, &chain(&r), &values, &r.env()).unwrap();
    assert_eq!(
        who(&got),
        [
            "Bob",
            "Alice",
            "Carol",
            "Alice",
            "unknown: not granted by the config now"
        ],
        "Bob and Carol only added a comma to a.test's and ./docs's lines: Alice wrote them"
    );
    let ValueOrigin::Committed(bob) = &got[0] else {
        unreachable!()
    };
    assert_eq!(bob.subject, "bump deps");
}

#[test]
fn a_working_tree_edit_is_not_committed_and_the_lines_after_it_keep_their_commits() {
    let r = two_authors_and_a_third_on_the_base();
    // A host inserted before Bob's line, one added after it.
    r.write(
        "app/goccia.json",
        "{\n  \"extends\": \"../base.json\",\n  \"permissions\": {\n    \"allow-net\": [\n      \"new.test\",\n      \"a.test\",\n      \"b.test\",\n      \"late.test\"\n    ]\n  }\n}\n",
    );
    let values = pairs(&[
        ("allow-net", "new.test"),
        ("allow-net", "a.test"),
        ("allow-net", "b.test"),
        ("allow-net", "late.test"),
    ]);
    let got = value_origins(&r.root, &chain(&r), &values, &r.env()).unwrap();
    assert_eq!(
        who(&got),
        ["not committed", "Alice", "Bob", "not committed"],
        "a.test's line moved down, unchanged; b.test's only gained a comma"
    );
    // A config never committed: every value is a working-tree edit.
    r.write(
        "new/goccia.json",
        "{\"permissions\": {\"allow-net\": [\"x.test\"]}}",
    );
    let got = value_origins(
        &r.root,
        &[r.path("new/goccia.json")],
        &pairs(&[("allow-net", "x.test")]),
        &r.env(),
    )
    .unwrap();
    assert_eq!(who(&got), ["not committed"]);
}

/// A value granted by the base (Alice) and written again in the config
/// (Mallory) was a grant since Alice's commit: Mallory's line changed
/// nothing the config grants. Once the base drops it, the config's own
/// line keeps it granted: the grant never stopped, Alice's commit began it.
#[test]
fn a_value_on_two_lines_is_the_first_grant_s_by_content() {
    let r = Repo::new();
    r.write(
        "base.json",
        "{\"permissions\": {\"allow-net\": [\n\"a.test\"\n]}}\n",
    );
    r.write("app/goccia.json", "{\"extends\": \"../base.json\"}\n");
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "one");
    r.write(
        "app/goccia.json",
        "{\"extends\": \"../base.json\",\n\"permissions\": {\"allow-net\": [\n\"a.test\"\n]}}\n",
    );
    r.commit_as("Mallory", "2026-01-11T09:00:00Z", "two");
    let files = [r.path("app/goccia.json"), r.path("base.json")];
    let got = value_origins(
        &r.root,
        &files,
        &pairs(&[("allow-net", "a.test")]),
        &r.env(),
    )
    .unwrap();
    assert_eq!(who(&got), ["Alice"]);
    // The base drops it: the config's own line still grants it, so the
    // grant never stopped; Alice's commit began it.
    r.write(
        "base.json",
        "{\"permissions\": {\"allow-net\": [\n\"b.test\"\n]}}\n",
    );
    r.commit_as("Bob", "2026-01-12T09:00:00Z", "three");
    let got = value_origins(
        &r.root,
        &files,
        &pairs(&[("allow-net", "a.test")]),
        &r.env(),
    )
    .unwrap();
    assert_eq!(who(&got), ["Alice"]);
}

#[test]
fn a_rebase_lists_the_rewritten_commits_by_their_new_date() {
    let r = Repo::new();
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\n\"a.test\"\n]}}\n",
    );
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "one");
    r.git(&["checkout", "-q", "-b", "topic"]);
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\n\"a.test\",\n\"evil.test\"\n]}}\n",
    );
    r.commit_as("Mallory", "2026-01-12T09:00:00Z", "widen");
    r.git(&["checkout", "-q", "main"]);
    r.write("other.txt", "x");
    r.commit_as("Alice", "2026-01-20T09:00:00Z", "other");
    // Trusted on Feb 1 on main; then topic is rebased onto main and
    // fast-forwarded: Mallory's commit was authored before the trust, but
    // it reaches this history after it.
    r.git(&["checkout", "-q", "topic"]);
    r.git_env(
        &["rebase", "-q", "main"],
        &[("GIT_COMMITTER_DATE", "2026-03-01T09:00:00Z")],
    );
    r.git(&["checkout", "-q", "main"]);
    r.git(&["merge", "-q", "--ff-only", "topic"]);
    let since = commits_since(&r.root, &[r.path("goccia.json")], "2026-02-01T00:00:00Z").unwrap();
    assert_eq!(since.commits.len(), 1);
    let c = &since.commits[0];
    assert_eq!(
        (c.author.as_str(), c.subject.as_str()),
        ("Mallory", "widen")
    );
    assert_eq!(c.day(), "2026-01-12", "the author date is shown");
    assert_eq!(c.sha, r.git(&["rev-parse", "HEAD"]).trim());
    let got = value_origins(
        &r.root,
        &[r.path("goccia.json")],
        &pairs(&[("allow-net", "evil.test")]),
        &r.env(),
    )
    .unwrap();
    let [ValueOrigin::Committed(blamed)] = got.as_slice() else {
        panic!("{got:?}")
    };
    assert_eq!(blamed.sha, c.sha, "the rewritten commit, not the original");
}

#[test]
fn a_merge_credits_the_branch_commit_and_introduced_in_names_it_within_the_range() {
    let r = Repo::new();
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\n\"a.test\"\n]}}\n",
    );
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "one");
    r.git(&["checkout", "-q", "-b", "topic"]);
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\n\"cdn.evil.example\",\n\"a.test\"\n]}}\n",
    );
    let mallory = r.commit_as("Mallory", "2026-03-01T09:00:00Z", "bump deps");
    r.git(&["checkout", "-q", "main"]);
    r.write("other.txt", "x");
    r.commit_as("Alice", "2026-03-02T09:00:00Z", "other");
    r.git_env(
        &["merge", "-q", "--no-ff", "-m", "merge topic", "topic"],
        &[
            ("GIT_AUTHOR_DATE", "2026-03-03T09:00:00Z"),
            ("GIT_COMMITTER_DATE", "2026-03-03T09:00:00Z"),
        ],
    );
    let since = commits_since(&r.root, &[r.path("goccia.json")], "2026-02-01T00:00:00Z").unwrap();
    let shas: Vec<&str> = since.commits.iter().map(|c| c.sha.as_str()).collect();
    assert_eq!(
        shas,
        [mallory.as_str()],
        "the merge did not change the file"
    );
    let values = pairs(&[("allow-net", "cdn.evil.example"), ("allow-net", "a.test")]);
    let got = introduced_in(
        &r.root,
        &base,
        "HEAD",
        &[r.path("goccia.json")],
        &values,
        &r.env(),
    )
    .unwrap();
    assert_eq!(who(&got), ["Mallory", "base"]);
    // An unknown revision is no provenance, with git's reason.
    let absent = introduced_in(&r.root, "nope", "HEAD", &[], &values, &r.env()).unwrap_err();
    assert!(
        absent.describe().starts_with("no provenance: "),
        "{absent:?}"
    );
}

#[test]
fn outside_a_repository_or_without_git_provenance_is_absent_with_why() {
    let t = TestEnv::new();
    let dir = t.work.to_str().unwrap();
    t.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\"a.test\"]}}",
    );
    let absent: Absent = repository(dir).unwrap_err();
    assert_eq!(absent.describe(), "no provenance: not in a git repository");
    let env = Env::at(dir, "/nonexistent-home");
    let absent = value_origins(
        dir,
        &[format!("{dir}/goccia.json")],
        &pairs(&[("allow-net", "a.test")]),
        &env,
    );
    assert_eq!(
        absent.map_err(|a| a.describe()),
        Err("no provenance: not in a git repository".to_string())
    );
}

/// Without git: this test binary runs its `child_without_git` case in a
/// child whose PATH holds no git (changing this process's PATH would
/// change it for every test running beside this one).
#[test]
fn without_git_on_the_path_provenance_is_absent() {
    let r = two_authors_and_a_third_on_the_base();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "provenance::child_without_git",
            "--ignored",
            "--nocapture",
        ])
        .env("PATH", "/nonexistent")
        .env("PROVENANCE_ROOT", &r.root)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("no provenance: cannot run git"), "{text}");
}

#[test]
#[ignore = "run by without_git_on_the_path_provenance_is_absent"]
fn child_without_git() {
    let Ok(root) = std::env::var("PROVENANCE_ROOT") else {
        return;
    };
    let absent = commits_since(&root, &[format!("{root}/base.json")], "2026-01-01").unwrap_err();
    println!("{}", absent.describe());
}

// Hostile repositories.

/// A repository whose own configuration names a program at every place git
/// could run one while provenance is read: fsmonitor, an external diff, a
/// textconv and a filter driver (clean, smudge and process) for the config
/// files, hooks. Each would create `marker`.
pub(crate) fn hostile_repo() -> (Repo, std::path::PathBuf) {
    let r = two_authors_and_a_third_on_the_base();
    // Blame would pass over Bob's commit and credit Alice with his host.
    let bob = r.git(&["log", "--format=%H", "--author=Bob"]);
    r.write(".git-blame-ignore-revs", &bob);
    let marker = r.configure_hostile();
    r.git(&["config", "blame.ignoreRevsFile", ".git-blame-ignore-revs"]);
    r.write(".gitattributes", "*.json diff=evil filter=evil\n");
    // A working-tree edit, so the working file differs from HEAD's.
    r.write(
        "app/goccia.json",
        &APP_BOB.replace("\"a.test\",", "\"a.test\",\n      \"c.test\","),
    );
    assert!(!marker.exists());
    (r, marker)
}

#[test]
fn reading_provenance_runs_nothing_the_repository_configures() {
    let (r, marker) = hostile_repo();
    let since = commits_since(&r.root, &chain(&r), "2026-02-01T00:00:00Z").unwrap();
    assert_eq!(since.commits.len(), 2);
    let values = pairs(&[
        ("allow-net", "b.test"),
        ("allow-net", "c.test"),
        ("allow-read", &r.path("shared")),
    ]);
    let got = value_origins(&r.root, &chain(&r), &values, &r.env()).unwrap();
    assert_eq!(
        who(&got),
        ["Bob", "not committed", "Carol"],
        "ignore-revs is ignored"
    );
    let got = introduced_in(&r.root, "HEAD~3", "HEAD", &chain(&r), &values, &r.env()).unwrap();
    assert_eq!(who(&got), ["Bob", "unknown: not granted at HEAD", "Carol"]);
    // An empty range: every grant is BASE's.
    let got = introduced_in(&r.root, "HEAD", "HEAD", &chain(&r), &values, &r.env()).unwrap();
    assert_eq!(who(&got), ["base", "unknown: not granted at HEAD", "base"]);
    assert!(
        !marker.exists(),
        "a program of the repository's configuration ran: {}",
        std::fs::read_to_string(&marker).unwrap_or_default()
    );
}

#[test]
fn commit_text_comes_back_raw_and_cannot_forge_a_commit() {
    let r = Repo::new();
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\n\"a.test\"\n]}}\n",
    );
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "one");
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\n\"a.test\",\n\"evil.test\"\n]}}\n",
    );
    // A subject and a name full of what a terminal obeys, and a message
    // whose later lines look like another record.
    let name = "Mal\u{1b}[2Jlory\u{202e}gnp.exe\u{200b}";
    let subject = "bump\u{1b}]8;;http://x\u{7}de\rps\u{2066}";
    let record = format!(
        "{}\u{0}{}\u{0}Alice\u{0}a@x\u{0}2026-01-01T00:00:00Z\u{0}ok\u{0}\u{0}",
        "f".repeat(40),
        "f".repeat(7)
    );
    let fake = format!("{subject}\n\n{record}");
    r.git(&["add", "-A"]);
    let msg_file = r.t.work.parent().unwrap().join("msg");
    std::fs::write(&msg_file, fake.replace('\u{0}', "")).unwrap();
    r.git_env(
        &[
            "commit",
            "-q",
            "--cleanup=verbatim",
            "-F",
            msg_file.to_str().unwrap(),
        ],
        &[
            ("GIT_AUTHOR_NAME", name),
            ("GIT_AUTHOR_DATE", "2026-03-01T09:00:00Z"),
            ("GIT_COMMITTER_DATE", "2026-03-01T09:00:00Z"),
        ],
    );
    let since = commits_since(&r.root, &[r.path("goccia.json")], "2026-02-01T00:00:00Z").unwrap();
    assert_eq!(since.commits.len(), 1, "{since:?}");
    let c = &since.commits[0];
    assert_eq!(c.author, name, "returned raw: the printers escape");
    assert_eq!(c.subject, subject, "the subject line, raw");
    let got = value_origins(
        &r.root,
        &[r.path("goccia.json")],
        &pairs(&[("allow-net", "evil.test")]),
        &r.env(),
    )
    .unwrap();
    assert_eq!(got, [ValueOrigin::Committed(c.clone())]);
    // A commit object whose subject and name hold a NUL and a whole fake
    // record after it (git refuses to make one; written directly): git
    // prints up to the NUL, and the record stays one commit.
    let tree = r.git(&["rev-parse", "HEAD^{tree}"]);
    // Alice's commit as the parent, so the forged one changes the config.
    let parent = r.git(&["rev-parse", "HEAD~1"]);
    let forged = format!(
        "tree {}\nparent {}\nauthor Eve\u{0}{record} <e@x> 1772355600 +0000\ncommitter Eve <e@x> 1772355600 +0000\n\nreal\u{0}{record}\n",
        tree.trim(),
        parent.trim(),
    );
    let obj = r.t.work.parent().unwrap().join("obj");
    std::fs::write(&obj, forged).unwrap();
    let id = r.git(&[
        "hash-object",
        "-t",
        "commit",
        "-w",
        "--literally",
        obj.to_str().unwrap(),
    ]);
    r.git(&["update-ref", "HEAD", id.trim()]);
    let since = commits_since(&r.root, &[r.path("goccia.json")], "2026-02-01T00:00:00Z").unwrap();
    let shas: Vec<&str> = since.commits.iter().map(|c| c.sha.as_str()).collect();
    assert_eq!(shas, [id.trim()], "one commit, no forged record: {since:?}");
    let c = &since.commits[0];
    assert!(
        !c.subject.contains("ok") && !c.author.contains("Alice"),
        "{c:?}"
    );
}

#[test]
fn log_output_that_is_not_whole_records_is_refused() {
    let sha = "a".repeat(40);
    let good = format!("{sha}\0aaaaaaa\0A\0a@x\02026-01-01T00:00:00Z\0s\0\0");
    assert_eq!(parse_log(good.as_bytes()).unwrap().len(), 1);
    // A subject that held a NUL would shift every field after it.
    let shifted = format!("{sha}\0aaaaaaa\0A\0a@x\02026-01-01T00:00:00Z\0s\0x\0\0");
    assert!(parse_log(shifted.as_bytes()).is_err());
    assert!(parse_log(b"").unwrap().is_empty());
    let short_mismatch = format!("{sha}\0bbbbbbb\0A\0a@x\0d\0s\0\0");
    assert!(parse_log(short_mismatch.as_bytes()).is_err());
}

/// Issue 26 item 4: commit text is escaped by the escapers config text
/// already goes through, one per output: the terminal and the TUI
/// (`sanitize::clean`), markdown (`md_code`: a code span, so no HTML,
/// emphasis, link or autolink) and GitHub annotations (`escape_data` for
/// the message, `escape_property` for a property). JSON carries it raw,
/// as a string, and the stream writer escapes what is unsafe.
#[test]
fn commit_text_goes_through_the_escapers_config_text_goes_through() {
    use goccia_trust::cli::ci_out::{escape_data, escape_property};
    use goccia_trust::cli::print::markdown::diff::md_code;
    use goccia_trust::sanitize::{clean, is_unsafe};
    let hostile = [
        "bump deps\n::error file=x::fake",
        "Mal\u{1b}[2Jlory",
        "ok\u{202e}gnp.exe\u{200b}\u{2066}",
        "see www.evil-phish.com or @admin <b>x</b> *y* [z](http://e)",
        "100% done: a,b",
        "`tick``s`",
    ];
    for s in hostile {
        let terminal = clean(s);
        assert!(!terminal.chars().any(is_unsafe), "{terminal:?}");
        let md = md_code(s, true);
        assert!(md.starts_with('`') && md.ends_with('`'), "{md}");
        assert!(!md.chars().any(|c| c == '\n' || is_unsafe(c)), "{md:?}");
        let data = escape_data(s);
        assert!(!data.chars().any(|c| c == '\n' || is_unsafe(c)), "{data:?}");
        let prop = escape_property(s);
        assert!(
            !prop
                .chars()
                .any(|c| matches!(c, '\n' | ':' | ',') || is_unsafe(c)),
            "{prop:?}"
        );
    }
    // `%` is the runner's escape: encoded, so `%0A` in a subject stays text.
    assert_eq!(escape_data("50%0A"), "50%250A");
}

#[test]
fn a_repository_without_a_commit_has_no_history_and_every_value_is_not_committed() {
    let r = Repo::new();
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\"a.test\"]}}\n",
    );
    let files = [r.path("goccia.json")];
    let since = commits_since(&r.root, &files, "2026-01-01T00:00:00Z").unwrap();
    assert!(since.commits.is_empty() && !since.more);
    let got = value_origins(
        &r.root,
        &files,
        &pairs(&[("allow-net", "a.test")]),
        &r.env(),
    );
    assert_eq!(got.map(|o| who(&o)), Ok(vec!["not committed".to_string()]));
}
