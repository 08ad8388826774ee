//! A path scope retargeted between BASE and HEAD (a symbolic link under it
//! re-pointed, added or removed, issue 30 item 1) names the commit of
//! `BASE..HEAD` that last changed the link (issue 26 item 3), in every
//! format, as an added value names the commit that introduced it; `not
//! committed` when the link on disk is not HEAD's. Commit text stays
//! escaped, and a hostile repository runs nothing.

use serde_json::Value;

use crate::common::Output;
use crate::common::git::GIT_ENV;
use crate::common::git::perms;
use crate::diff::outside_code_spans;
use crate::provenance::{HOSTILE_NAME, HOSTILE_SUBJECT, Repo};

const RETARGET: &str = "~ target of $ROOT/work/shared: $ROOT/work/shared-v2 -> $ROOT/secret";

fn diff(r: &Repo, args: &[&str]) -> Output {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    r.t.run_in(std::path::Path::new(&r.root), &all, GIT_ENV)
}

fn short(r: &Repo, sha: &str) -> String {
    r.git(&["rev-parse", "--short=7", sha]).trim().to_string()
}

fn line_with<'a>(out: &'a str, needle: &str) -> &'a str {
    out.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in\n{out}"))
}

/// `app` reads `../shared`, a link to `shared-v2` (Alice, BASE).
fn linked_repo() -> (Repo, String) {
    let r = Repo::new();
    r.write(
        "app/goccia.json",
        &perms(r#""allow-read": ["../shared"], "allow-net": ["a.test"]"#),
    );
    r.write("shared-v2/x", "x");
    r.t.symlink("shared-v2", "shared");
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    std::fs::create_dir(r.t.root.join("secret")).unwrap();
    (r, base)
}

/// Re-points `shared` out of the repository, on disk.
fn repoint(r: &Repo) {
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    let secret = r.t.root.join("secret");
    r.t.symlink(secret.to_str().unwrap(), "shared");
}

/// Mallory re-points the link, then Carol adds a host to the config: the
/// `~` line names Mallory, the `+` line Carol.
fn retargeted_story() -> (Repo, String, String, String) {
    let (r, base) = linked_repo();
    repoint(&r);
    let mallory = r.commit_as("Mallory", "2026-03-01T09:00:00Z", "bump deps");
    r.write(
        "app/goccia.json",
        &perms(r#""allow-read": ["../shared"], "allow-net": ["a.test", "b.test"]"#),
    );
    let carol = r.commit_as("Carol", "2026-03-02T09:00:00Z", "more hosts");
    (r, base, mallory, carol)
}

#[test]
fn a_retargeted_link_names_the_commit_that_re_pointed_it_in_every_format() {
    let (r, base, mallory, carol) = retargeted_story();
    let (m, c) = (short(&r, &mallory), short(&r, &carol));
    let by_mallory = format!(" · {m} Mallory 2026-03-01 \"bump deps\"");
    // Text.
    let out = diff(&r, &[&base, "HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(
        line_with(&out.stdout, "~ target of"),
        format!("    {RETARGET}  (widens){by_mallory}"),
        "{out}"
    );
    assert!(
        line_with(&out.stdout, "b.test").ends_with(&format!("{c} Carol 2026-03-02 \"more hosts\"")),
        "{out}"
    );
    // JSON: the origin object, with the retargeting author.
    let out = diff(&r, &[&base, "HEAD", "--json"]);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let values: Vec<Value> = doc["configs"][0]["requests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|q| q["values"].as_array().unwrap().clone())
        .collect();
    let moved = values
        .iter()
        .find(|v| v["change"] == "retargeted")
        .unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(moved["origin"]["kind"], "commit", "{moved}");
    assert_eq!(moved["origin"]["commit"]["sha"], mallory.as_str());
    assert_eq!(moved["origin"]["commit"]["author"], "Mallory");
    assert_eq!(moved["origin"]["commit"]["subject"], "bump deps");
    crate::json_contract::valid("diff", &out.stdout);
    // Markdown: on the line, and in "Introduced by:", linked.
    let out = r.t.run_in(
        std::path::Path::new(&r.root),
        &["diff", &base, "HEAD", "--format", "markdown"],
        &[GIT_ENV, &[("GITHUB_REPOSITORY", "octo/repo")][..]].concat(),
    );
    assert!(
        line_with(&out.stdout, "~ target of").ends_with(&by_mallory),
        "{out}"
    );
    assert!(out.stdout.contains("Introduced by:"), "{out}");
    assert!(
        line_with(
            &out.stdout,
            &format!("[`{m}`](https://github.com/octo/repo/commit/{mallory})")
        )
        .contains("`Mallory <mallory@example.invalid>`"),
        "{out}"
    );
    // SARIF and github: in the message.
    let out = diff(&r, &[&base, "HEAD", "--format", "sarif"]);
    let log: Value = serde_json::from_str(&out.stdout).unwrap();
    let message = log["runs"][0]["results"][0]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(
        message.contains(&format!("{RETARGET}  (widens){by_mallory}")),
        "{message}"
    );
    let out = diff(&r, &[&base, "HEAD", "--format", "github"]);
    assert!(
        line_with(&out.stdout, "app/goccia.json")
            .contains(&format!("{RETARGET}  (widens){by_mallory}")),
        "{out}"
    );
}

#[test]
fn against_the_working_tree_a_link_re_pointed_on_disk_is_not_committed() {
    let (r, base) = linked_repo();
    repoint(&r);
    let out = diff(&r, &["HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(
        line_with(&out.stdout, "~ target of"),
        format!("    {RETARGET}  (widens) · not committed"),
        "{out}"
    );
    // Committed, the working tree as HEAD: the commit is named.
    let mallory = r.commit_as("Mallory", "2026-03-01T09:00:00Z", "bump deps");
    let out = diff(&r, &[&base]);
    assert!(
        line_with(&out.stdout, "~ target of").ends_with(&format!(
            "(widens) · {} Mallory 2026-03-01 \"bump deps\"",
            short(&r, &mallory)
        )),
        "{out}"
    );
    // The working tree as HEAD has it: nothing moved.
    let out = diff(&r, &["HEAD"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(!out.stdout.contains("~ target of"), "{out}");
}

#[test]
fn a_link_added_or_removed_under_a_scope_names_its_commit() {
    // A directory replaced by a link.
    let r = Repo::new();
    r.write("app/goccia.json", &perms(r#""allow-read": ["../shared"]"#));
    r.write("shared/x", "x");
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    std::fs::remove_dir_all(r.t.work.join("shared")).unwrap();
    r.t.symlink("../etc", "shared");
    let mallory = r.commit_as("Mallory", "2026-03-01T09:00:00Z", "tidy");
    r.write("README", "later");
    r.commit_as("Carol", "2026-03-02T09:00:00Z", "docs");
    let out = diff(&r, &[&base, "HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        line_with(&out.stdout, "~ target of $ROOT/work/shared").ends_with(&format!(
            "(widens) · {} Mallory 2026-03-01 \"tidy\"",
            short(&r, &mallory)
        )),
        "{out}"
    );
    // A link replaced by a directory, which a later commit fills: the
    // commit that removed the link, not the later one.
    let r = Repo::new();
    r.write("app/goccia.json", &perms(r#""allow-read": ["../shared"]"#));
    r.write("data/x", "x");
    r.t.symlink("data", "shared");
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    r.write("shared/y", "y");
    let mallory = r.commit_as("Mallory", "2026-03-01T09:00:00Z", "unlink");
    r.write("shared/z", "z");
    r.commit_as("Carol", "2026-03-02T09:00:00Z", "fill");
    let out = diff(&r, &[&base, "HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        line_with(&out.stdout, "~ target of $ROOT/work/shared").ends_with(&format!(
            "(widens) · {} Mallory 2026-03-01 \"unlink\"",
            short(&r, &mallory)
        )),
        "{out}"
    );
}

#[test]
fn hostile_text_of_the_retargeting_commit_stays_escaped_in_every_format() {
    let (r, base) = linked_repo();
    repoint(&r);
    let (name, subject) = (HOSTILE_NAME, HOSTILE_SUBJECT);
    r.commit_hostile();
    let run = |args: &[&str]| {
        let mut all = vec![base.as_str(), "HEAD"];
        all.extend_from_slice(args);
        let out = diff(&r, &all);
        assert_eq!(out.code, 1, "{args:?}: {out}");
        out.stdout
    };
    let raw = ['\u{1b}', '\u{202e}', '\u{200b}', '\u{7}', '\r'];
    let no_raw = |what: &str, out: &str| {
        assert!(!out.chars().any(|c| raw.contains(&c)), "{what}: {out:?}");
    };
    let text = run(&[]);
    no_raw("text", &text);
    let line = line_with(&text, "~ target of");
    assert!(
        line.contains("Mal^[[2Jlory\\u{202e}gnp.exe\\u{200b} @admin"),
        "{line}"
    );
    assert!(line.contains("bump^[]8;;http://x^G^Mx]("), "{line}");
    let md = run(&["--format", "markdown"]);
    no_raw("markdown", &md);
    assert!(md.contains("Introduced by:"), "{md}");
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
    let gh = run(&["--format", "github"]);
    no_raw("github", &gh);
    for l in gh.lines() {
        assert!(l.starts_with("::"), "a line that is no command: {l:?}");
    }
    assert!(gh.contains("100%250A ::error file=x::forged"), "{gh}");
    let sarif = run(&["--format", "sarif"]);
    let log: Value = serde_json::from_str(&sarif).unwrap();
    let message = log["runs"][0]["results"][0]["message"]["text"]
        .as_str()
        .unwrap();
    no_raw("sarif", message);
    assert!(message.contains("Mal^[[2Jlory\\u{202e}"), "{message}");
    let doc: Value = serde_json::from_str(&run(&["--json"])).unwrap();
    let moved = doc["configs"][0]["requests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|q| q["values"].as_array().unwrap().clone())
        .find(|v| v["change"] == "retargeted")
        .unwrap();
    assert_eq!(moved["origin"]["commit"]["author"], name);
    assert_eq!(moved["origin"]["commit"]["subject"], subject);
}

/// The repository's configuration names a program for everything git could
/// run while `diff` looks up who re-pointed the link: none runs.
#[test]
fn a_hostile_repository_runs_nothing_while_a_retarget_is_attributed() {
    let (r, base, mallory, _) = retargeted_story();
    let marker = r.configure_hostile();
    r.write(".gitattributes", "* diff=evil filter=evil\n");
    let m = short(&r, &mallory);
    for args in [&[base.as_str(), "HEAD"][..], &[base.as_str()][..]] {
        for format in [&[][..], &["--json"][..], &["--format", "markdown"][..]] {
            let all = [args, format].concat();
            let out = diff(&r, &all);
            assert_eq!(out.code, 1, "{all:?}: {out}");
            assert!(out.stdout.contains(&m), "{all:?}: {out}");
        }
    }
    // Re-pointed again on disk: the working tree's own.
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    r.t.symlink("/", "shared");
    let out = diff(&r, &["HEAD"]);
    assert!(
        line_with(&out.stdout, "~ target of").ends_with("· not committed"),
        "{out}"
    );
    assert!(
        !marker.exists(),
        "a program of the repository's configuration ran: {}",
        std::fs::read_to_string(&marker).unwrap_or_default()
    );
}

/// Configs reading through one link each name its commit (git is asked
/// once for them all).
#[test]
fn every_config_reading_through_a_re_pointed_link_names_its_commit() {
    let r = Repo::new();
    for dir in ["app", "lib", "tools"] {
        r.write(
            &format!("{dir}/goccia.json"),
            &perms(r#""allow-read": ["../shared"]"#),
        );
    }
    r.write("shared-v2/x", "x");
    r.t.symlink("shared-v2", "shared");
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    std::fs::create_dir(r.t.root.join("secret")).unwrap();
    repoint(&r);
    let mallory = r.commit_as("Mallory", "2026-03-01T09:00:00Z", "bump deps");
    let out = diff(&r, &[&base, "HEAD"]);
    let by = format!(
        "{RETARGET}  (widens) · {} Mallory 2026-03-01 \"bump deps\"",
        short(&r, &mallory)
    );
    assert_eq!(out.stdout.matches(&by).count(), 3, "{out}");
}

/// A committed link whose re-pointing `diff` reports (`~ target of …`) is
/// not also called `not followed` (a warning in github and SARIF): its
/// walk note is left out, in every format. A link nothing resolved keeps
/// its note.
#[test]
fn a_retargeted_link_is_not_also_noted_as_not_followed() {
    let (r, base) = linked_repo();
    r.t.symlink("shared-v2", "other");
    r.commit_as("Alice", "2026-01-11T09:00:00Z", "other link");
    repoint(&r);
    r.commit_as("Mallory", "2026-03-01T09:00:00Z", "bump deps");
    let run = |args: &[&str]| {
        let mut all = vec![base.as_str(), "HEAD"];
        all.extend_from_slice(args);
        let out = diff(&r, &all);
        assert_eq!(out.code, 1, "{args:?}: {out}");
        out.stdout
    };
    let kept = "symbolic link in the tree, not followed: other";
    let gone = "symbolic link in the tree, not followed: shared";
    let text = run(&[]);
    assert!(text.contains("~ target of $ROOT/work/shared"), "{text}");
    assert!(text.contains(kept), "{text}");
    assert!(!text.contains(gone), "{text}");
    let json = run(&["--json"]);
    let doc: Value = serde_json::from_str(&json).unwrap();
    for side in ["baseNotes", "headNotes"] {
        let notes = doc[side].as_array().unwrap_or_else(|| panic!("{doc}"));
        assert!(!notes.iter().any(|n| n == gone), "{side}: {doc}");
    }
    let head = doc["headNotes"].as_array().unwrap();
    assert!(head.iter().any(|n| n == kept), "{doc}");
    for format in ["markdown", "github", "sarif"] {
        let out = run(&["--format", format]);
        assert!(out.contains(kept), "{format}: {out}");
        assert!(!out.contains(gone), "{format}: {out}");
    }
}
