//! `diff BASE [HEAD]` names, for each widening value, the commit of
//! `BASE..HEAD` that introduced it (issue 26 item 3), in every format, on
//! real repositories built here; commit text is hostile and stays escaped
//! (item 4); provenance is optional and never changes the exit code.

use serde_json::Value;

use crate::common::Output;
use crate::common::git::GIT_ENV;
use crate::diff::outside_code_spans;
use crate::provenance::{HOSTILE_NAME, HOSTILE_SUBJECT, Repo, hostile_repo};

const APP: &str = "{\n  \"extends\": \"../base.json\",\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\"\n    ]\n  }\n}\n";
const APP_MALLORY: &str = "{\n  \"extends\": \"../base.json\",\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\",\n      \"cdn.evil.example\"\n    ]\n  }\n}\n";
const BASE: &str =
    "{\n  \"permissions\": {\n    \"allow-read\": [\n      \"./docs\"\n    ]\n  }\n}\n";
const BASE_CAROL: &str = "{\n  \"permissions\": {\n    \"allow-read\": [\n      \"./docs\",\n      \"./shared\"\n    ]\n  }\n}\n";

/// Alice writes `app` and its base (BASE); Mallory adds a host to `app`
/// and a new config `lib` extending the same base; Carol widens the base.
struct Story {
    r: Repo,
    base: String,
    mallory: String,
    carol: String,
}

impl Story {
    fn new() -> Story {
        let r = Repo::new();
        r.write("app/goccia.json", APP);
        r.write("base.json", BASE);
        let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
        r.write("app/goccia.json", APP_MALLORY);
        r.write("lib/goccia.json", "{\"extends\": \"../base.json\"}\n");
        let mallory = r.commit_as("Mallory", "2026-03-01T09:00:00Z", "bump deps");
        r.write("base.json", BASE_CAROL);
        let carol = r.commit_as("Carol", "2026-03-02T09:00:00Z", "share more");
        Story {
            r,
            base,
            mallory,
            carol,
        }
    }

    fn short(&self, sha: &str) -> String {
        self.r
            .git(&["rev-parse", "--short=7", sha])
            .trim()
            .to_string()
    }

    fn diff(&self, args: &[&str]) -> Output {
        self.diff_env(args, &[])
    }

    fn diff_env(&self, args: &[&str], vars: &[(&str, &str)]) -> Output {
        let mut all = vec!["diff"];
        all.extend_from_slice(args);
        let mut env: Vec<(&str, &str)> = GIT_ENV.to_vec();
        env.extend_from_slice(vars);
        self.r
            .t
            .run_in(std::path::Path::new(&self.r.root), &all, &env)
    }
}

/// The line of `out` holding `needle`.
fn line_with<'a>(out: &'a str, needle: &str) -> &'a str {
    out.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in\n{out}"))
}

#[test]
fn each_widening_value_names_the_commit_that_introduced_it_in_text() {
    let s = Story::new();
    let out = s.diff(&[&s.base, "HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    let m = s.short(&s.mallory);
    let c = s.short(&s.carol);
    assert_eq!(
        line_with(&out.stdout, "cdn.evil.example"),
        format!("    + cdn.evil.example  (widens) · {m} Mallory 2026-03-01 \"bump deps\""),
        "{out}"
    );
    // Carol widened the base both configs extend: hers in each.
    let shared: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("/shared"))
        .collect();
    assert_eq!(shared.len(), 2, "{out}");
    for l in shared {
        assert!(
            l.ends_with(&format!("(widens) · {c} Carol 2026-03-02 \"share more\"")),
            "{l}"
        );
    }
    // lib is new: the docs it gains from the base is a grant since
    // Mallory's commit added lib (by content, not by the base's line).
    let docs: Vec<&str> = out.stdout.lines().filter(|l| l.contains("/docs")).collect();
    assert_eq!(docs.len(), 1, "{out}");
    assert!(
        docs[0].ends_with(&format!("(widens) · {m} Mallory 2026-03-01 \"bump deps\"")),
        "{}",
        docs[0]
    );
    // A value that does not widen names nothing; nothing says provenance
    // is absent.
    assert!(!out.stdout.contains("no provenance"), "{out}");
    let all = s.diff(&[&s.base, "HEAD", "--all"]);
    assert!(!line_with(&all.stdout, "a.test").contains(" · "), "{all}");
}

#[test]
fn the_working_tree_names_commits_of_base_to_head_and_its_own_edits_as_not_committed() {
    let s = Story::new();
    s.r.write(
        "app/goccia.json",
        &APP_MALLORY.replace("\"a.test\",", "\"a.test\",\n      \"wip.test\","),
    );
    let out = s.diff(&[&s.base]);
    assert_eq!(out.code, 1, "{out}");
    let m = s.short(&s.mallory);
    assert!(
        line_with(&out.stdout, "cdn.evil.example")
            .ends_with(&format!("(widens) · {m} Mallory 2026-03-01 \"bump deps\"")),
        "{out}"
    );
    assert!(
        line_with(&out.stdout, "wip.test").ends_with("(widens) · not committed"),
        "{out}"
    );
}

#[test]
fn json_gives_each_widening_value_its_origin() {
    let s = Story::new();
    let out = s.diff(&[&s.base, "HEAD", "--json"]);
    assert_eq!(out.code, 1, "{out}");
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["provenance"], Value::Null, "{doc}");
    let values = |path: &str| -> Vec<Value> {
        let c = crate::common::config_at(&doc, path);
        c["requests"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["values"].as_array().unwrap().clone())
            .collect()
    };
    let app = values("app/goccia.json");
    let cdn = app
        .iter()
        .find(|v| v["value"] == "cdn.evil.example")
        .unwrap();
    assert_eq!(
        cdn["origin"],
        serde_json::json!({
            "kind": "commit",
            "commit": {
                "sha": s.mallory,
                "short": s.short(&s.mallory),
                "author": "Mallory",
                "email": "mallory@example.invalid",
                "date": "2026-03-01T09:00:00Z",
                "subject": "bump deps",
            }
        }),
        "{cdn}"
    );
    let lib = values("lib/goccia.json");
    let docs = lib
        .iter()
        .find(|v| v["value"].as_str().unwrap().ends_with("/docs"))
        .unwrap();
    assert_eq!(
        docs["origin"]["commit"]["author"], "Mallory",
        "lib was added"
    );
    let shared = lib
        .iter()
        .find(|v| v["value"].as_str().unwrap().ends_with("/shared"))
        .unwrap();
    assert_eq!(shared["origin"]["commit"]["author"], "Carol");
    // The document still validates.
    crate::json_contract::valid("diff", &out.stdout);
}

#[test]
fn markdown_links_the_commit_on_github_only_for_a_valid_repository() {
    let s = Story::new();
    let github = [("GITHUB_REPOSITORY", "octo-org/my.repo_1")];
    let out = s.diff_env(&[&s.base, "HEAD", "--format", "markdown"], &github);
    assert_eq!(out.code, 1, "{out}");
    let m = s.short(&s.mallory);
    // In the fenced block, the value's line names the commit.
    assert!(
        line_with(&out.stdout, "cdn.evil.example")
            .ends_with(&format!("(widens) · {m} Mallory 2026-03-01 \"bump deps\"")),
        "{out}"
    );
    // Below it, the commit linked.
    let link = format!(
        "[`{m}`](https://github.com/octo-org/my.repo_1/commit/{})",
        s.mallory
    );
    assert!(
        line_with(&out.stdout, &link).contains("`Mallory <mallory@example.invalid>`"),
        "{out}"
    );
    let enterprise = [
        ("GITHUB_REPOSITORY", "octo-org/my.repo_1"),
        ("GITHUB_SERVER_URL", "https://git.example.com"),
    ];
    let out = s.diff_env(&[&s.base, "HEAD", "--format", "markdown"], &enterprise);
    assert!(
        out.stdout.contains(&format!(
            "](https://git.example.com/octo-org/my.repo_1/commit/{})",
            s.mallory
        )),
        "{out}"
    );
    // Without a repository, or with one that is not owner/name, or a
    // server that is not a plain https origin: the short id, unlinked.
    for vars in [
        &[][..],
        &[("GITHUB_REPOSITORY", "octo/x)(javascript:alert(1)")][..],
        &[("GITHUB_REPOSITORY", "a/b/c")][..],
        &[("GITHUB_REPOSITORY", "../x")][..],
        &[
            ("GITHUB_REPOSITORY", "octo/x"),
            ("GITHUB_SERVER_URL", "javascript:alert(1)//"),
        ][..],
        &[
            ("GITHUB_REPOSITORY", "octo/x"),
            ("GITHUB_SERVER_URL", "https://evil.example/x?y"),
        ][..],
    ] {
        let out = s.diff_env(&[&s.base, "HEAD", "--format", "markdown"], vars);
        assert!(!out.stdout.contains("]("), "{vars:?}: {out}");
        assert!(
            line_with(&out.stdout, &format!("`{m}`"))
                .contains("`Mallory <mallory@example.invalid>`"),
            "{vars:?}: {out}"
        );
    }
}

#[test]
fn sarif_and_github_name_the_commit_in_the_message_and_keep_the_fingerprint() {
    let s = Story::new();
    let m = s.short(&s.mallory);
    let said = format!("+ cdn.evil.example  (widens) · {m} Mallory 2026-03-01 \"bump deps\"");
    let out = s.diff(&[&s.base, "HEAD", "--format", "sarif"]);
    assert_eq!(out.code, 1, "{out}");
    let log: Value = serde_json::from_str(&out.stdout).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let app = results
        .iter()
        .find(|r| {
            r["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with("app/goccia.json")
        })
        .unwrap();
    assert!(
        app["message"]["text"]
            .as_str()
            .unwrap()
            .contains(&format!("allow-net: {said}")),
        "{app}"
    );
    let out = s.diff(&[&s.base, "HEAD", "--format", "github"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        line_with(&out.stdout, "app/goccia.json").contains(&format!("%0Aallow-net: {said}")),
        "{out}"
    );
    // The fingerprint is what the finding is, not who wrote it: the same
    // change made by someone else on another day keeps it.
    let other = Repo::new();
    other.write("app/goccia.json", APP);
    other.write("base.json", BASE);
    let base = other.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    other.write("app/goccia.json", APP_MALLORY);
    other.write("lib/goccia.json", "{\"extends\": \"../base.json\"}\n");
    other.commit_as("Zed", "2026-05-01T09:00:00Z", "other words");
    other.write("base.json", BASE_CAROL);
    other.commit_as("Yan", "2026-05-02T09:00:00Z", "more");
    let fingerprints = |out: &str| -> Vec<Value> {
        let log: Value = serde_json::from_str(out).unwrap();
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"].clone())
            .collect()
    };
    let mut all = vec!["diff", base.as_str(), "HEAD", "--format", "sarif"];
    let theirs = other
        .t
        .run_in(std::path::Path::new(&other.root), &all, GIT_ENV);
    // Same layout, another root: the fingerprints are root-relative.
    all[1] = &s.base;
    let ours = s.diff(&all[1..]);
    assert_eq!(fingerprints(&theirs.stdout), fingerprints(&ours.stdout));
}

/// Issue 26 item 4: a subject and an author name full of what a terminal,
/// a markdown renderer and the Actions runner obey stay text everywhere.
#[test]
fn hostile_commit_text_stays_escaped_in_every_format() {
    let r = Repo::new();
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\n\"a.test\"\n]}}\n",
    );
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "one");
    r.write(
        "goccia.json",
        "{\"permissions\": {\"allow-net\": [\n\"a.test\",\n\"evil.test\"\n]}}\n",
    );
    let (name, subject) = (HOSTILE_NAME, HOSTILE_SUBJECT);
    r.commit_hostile();
    let run = |args: &[&str]| {
        let mut all = vec!["diff", base.as_str(), "HEAD"];
        all.extend_from_slice(args);
        let out = r.t.run_in(std::path::Path::new(&r.root), &all, GIT_ENV);
        assert_eq!(out.code, 1, "{args:?}: {out}");
        out.stdout
    };
    let raw = ['\u{1b}', '\u{202e}', '\u{200b}', '\u{7}', '\r'];
    let no_raw = |what: &str, out: &str| {
        assert!(!out.chars().any(|c| raw.contains(&c)), "{what}: {out:?}");
    };
    // Text: escaped, on the value's one line.
    let text = run(&[]);
    no_raw("text", &text);
    let line = line_with(&text, "evil.test");
    assert!(
        line.contains("Mal^[[2Jlory\\u{202e}gnp.exe\\u{200b} @admin"),
        "{line}"
    );
    assert!(line.contains("bump^[]8;;http://x^G^Mx]("), "{line}");
    // Markdown: outside code spans and the fenced block, nothing of it.
    let md = run(&["--format", "markdown"]);
    no_raw("markdown", &md);
    let mut fenced = false;
    for l in md.lines() {
        if l.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let outside = outside_code_spans(l);
        for bad in ["<script", "](http://evil", "@admin", "@team", "*b*", "| @"] {
            assert!(!outside.contains(bad), "{bad:?} in {l:?}");
        }
    }
    assert!(
        md.contains("Mal^[[2Jlory") || md.contains("Mal\\u{1b}[2Jlory"),
        "{md}"
    );
    // GitHub: one command a line, `%` encoded, so `%0A` is text.
    let gh = run(&["--format", "github"]);
    no_raw("github", &gh);
    for l in gh.lines() {
        assert!(l.starts_with("::"), "a line that is no command: {l:?}");
    }
    assert_eq!(gh.lines().count(), 1, "{gh}");
    assert!(gh.contains("100%250A ::error file=x::forged"), "{gh}");
    // SARIF: escaped in the message as config text is.
    let sarif = run(&["--format", "sarif"]);
    let log: Value = serde_json::from_str(&sarif).unwrap();
    let message = log["runs"][0]["results"][0]["message"]["text"]
        .as_str()
        .unwrap();
    no_raw("sarif", message);
    assert!(message.contains("Mal^[[2Jlory\\u{202e}"), "{message}");
    // JSON: the exact text, as a string.
    let doc: Value = serde_json::from_str(&run(&["--json"])).unwrap();
    let commit = &doc["configs"][0]["requests"][0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["value"] == "evil.test")
        .unwrap()["origin"]["commit"];
    assert_eq!(commit["author"], name);
    assert_eq!(commit["subject"], subject);
}

/// A git that fails when asked to describe commits (so provenance is
/// absent) and when asked to blame one file (so that file's values have an
/// unknown origin): the diff is the same, and says why; exit code unchanged.
#[test]
fn when_git_fails_the_diff_is_the_same_and_says_why() {
    let s = Story::new();
    let path = crate::common::git::fake_git(
        s.r.t.work.parent().unwrap(),
        "for a in \"$@\"; do case \"$a\" in --no-walk=unsorted) echo 'fatal: no describing today' >&2; exit 128;; esac; done",
    );
    let plain = s.diff(&[&s.base, "HEAD"]);
    let out = s.diff_env(&[&s.base, "HEAD"], &[("PATH", &path)]);
    assert_eq!(out.code, plain.code, "{out}");
    assert!(
        out.stdout
            .contains("\nnote: no provenance: git: fatal: no describing today\n"),
        "{out}"
    );
    // Every other line is as it would be without provenance.
    let strip = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.starts_with("note: no provenance"))
            .map(|l| l.split(" · ").next().unwrap())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&out.stdout), strip(&plain.stdout));
    assert!(!out.stdout.contains(" · "), "{out}");
    let json = s.diff_env(&[&s.base, "HEAD", "--json"], &[("PATH", &path)]);
    assert_eq!(json.code, 1);
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        doc["provenance"], "no provenance: git: fatal: no describing today",
        "{doc}"
    );
    crate::json_contract::valid("diff", &json.stdout);
    for format in ["markdown", "sarif", "github"] {
        let o = s.diff_env(&[&s.base, "HEAD", "--format", format], &[("PATH", &path)]);
        assert_eq!(o.code, 1, "{format}: {o}");
        assert!(
            o.stdout
                .contains("no provenance: git: fatal: no describing today"),
            "{format}: {o}"
        );
    }
}

#[test]
fn a_missing_object_in_the_range_leaves_the_origin_unknown_not_wrong() {
    let s = Story::new();
    // Mallory's version of app's config is only in her commit: Carol's
    // did not touch it, so drop it and add one more host on top.
    s.r.write(
        "app/goccia.json",
        &APP_MALLORY.replace(
            "\"cdn.evil.example\"",
            "\"cdn.evil.example\",\n      \"z.test\"",
        ),
    );
    s.r.commit_as("Carol", "2026-03-03T09:00:00Z", "z");
    let blob =
        s.r.git(&["rev-parse", &format!("{}:app/goccia.json", s.mallory)]);
    let blob = blob.trim();
    std::fs::remove_file(format!(
        "{}/.git/objects/{}/{}",
        s.r.root,
        &blob[..2],
        &blob[2..]
    ))
    .unwrap();
    let out = s.diff(&[&s.base, "HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        line_with(&out.stdout, "cdn.evil.example").contains(" · origin unknown: "),
        "{out}"
    );
}

#[test]
fn a_hostile_repository_runs_nothing_while_diff_reads_provenance() {
    let (r, marker) = hostile_repo();
    for args in [&["diff", "HEAD~3", "HEAD"][..], &["diff", "HEAD~3"][..]] {
        for format in [&[][..], &["--json"][..], &["--format", "markdown"][..]] {
            let mut all = args.to_vec();
            all.extend_from_slice(format);
            let out = r.t.run_in(std::path::Path::new(&r.root), &all, GIT_ENV);
            assert_eq!(out.code, 1, "{all:?}: {out}");
            assert!(
                out.stdout.contains("Bob"),
                "{all:?}: ignore-revs ignored: {out}"
            );
        }
    }
    let out =
        r.t.run_in(std::path::Path::new(&r.root), &["diff", "HEAD~3"], GIT_ENV);
    assert!(
        line_with(&out.stdout, "c.test").ends_with("· not committed"),
        "{out}"
    );
    assert!(
        !marker.exists(),
        "a program of the repository's configuration ran: {}",
        std::fs::read_to_string(&marker).unwrap_or_default()
    );
}

/// Git is asked about at most 100 configs: a change that adds thousands is
/// answered in seconds, and the others say they were not looked up.
#[test]
fn provenance_is_bounded_to_the_first_hundred_configs_that_widened() {
    let r = Repo::new();
    r.write("README", "x");
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    for i in 0..101 {
        r.write(
            &format!("d{i:03}/goccia.json"),
            &format!("{{\"permissions\": {{\"allow-net\": [\"h{i:03}.test\"]}}}}\n"),
        );
    }
    r.commit_as("Mallory", "2026-03-01T09:00:00Z", "many");
    let out = r.t.run_in(
        std::path::Path::new(&r.root),
        &["diff", &base, "HEAD"],
        GIT_ENV,
    );
    assert_eq!(out.code, 1, "{out}");
    assert!(line_with(&out.stdout, "h000.test").contains(" Mallory 2026-03-01 \"many\""));
    assert!(line_with(&out.stdout, "h099.test").contains(" Mallory 2026-03-01 \"many\""));
    assert!(
        line_with(&out.stdout, "h100.test").ends_with(
            "· origin unknown: not looked up: git is asked about the first 100 configs that widened by a value"
        ),
        "{out}"
    );
}
