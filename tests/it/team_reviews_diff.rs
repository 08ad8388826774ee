//! Signed reviews where a pull request is read (issue 43 item 5): `diff
//! BASE HEAD` reads `.goccia/reviews.jsonl` from HEAD's objects and says,
//! in every format, who reviewed each changed config as it is at HEAD;
//! `scan --json` gives each config inspect's `reviews` object. A real
//! repository, real ssh-keygen keys (alice allowed, mallory not).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::TestEnv;
use crate::common::config_at as config;
use crate::common::git::git;
use crate::json_contract::valid;
use crate::team_reviews::{ALICE, alice_and_mallory};

/// A note with an escape sequence, a line break and a bidi override.
const NOTE: &str = "ok\u{1b}[2J\nreviewed by bob\u{202e}";
/// A principal with a bidi override.
const MALLORY: &str = "mal\u{202e}lory@example.com";

struct Fixture {
    env: TestEnv,
    repo: PathBuf,
    allowed: String,
}

/// BASE has no config; HEAD adds five, with the reviews committed:
/// a reviewed by alice as it is; b reviewed by alice, then changed; c
/// signed by mallory's key (claiming two names); d reviewed by alice and
/// its record's note edited after; e reviewed by alice, its scope through
/// a link out of the repository.
fn fixture() -> Fixture {
    let env = TestEnv::new();
    let (alice, mallory, allowed) = alice_and_mallory(&env);
    let repo = env.work.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(repo.join("README"), "x\n").unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    for d in ["a", "b", "c", "d"] {
        std::fs::create_dir_all(repo.join(d).join("data")).unwrap();
        std::fs::write(repo.join(d).join("data/.keep"), "").unwrap();
        let body = format!(
            r#"{{"permissions":{{"allow-read":["./data"],"allow-net":["{d}.example.com"]}}}}"#
        );
        std::fs::write(repo.join(d).join("goccia.json"), body).unwrap();
    }
    std::fs::create_dir_all(repo.join("e")).unwrap();
    std::os::unix::fs::symlink("/etc", repo.join("e/ext")).unwrap();
    std::fs::write(
        repo.join("e/goccia.json"),
        r#"{"permissions":{"allow-read":["./ext"]}}"#,
    )
    .unwrap();
    let sign = |key: &Path, principal: &str, note: &str, paths: &[&str]| {
        let mut args = vec!["review", "sign", "--yes", "--key", key.to_str().unwrap()];
        args.extend(["--principal", principal, "--note", note]);
        args.extend_from_slice(paths);
        let out = env.run_in(&repo, &args, &[]);
        assert_eq!(out.code, 0, "{out}");
    };
    sign(&alice, ALICE, NOTE, &["a", "b", "d", "e"]);
    sign(&mallory, MALLORY, "", &["c"]);
    std::fs::write(
        repo.join("b/goccia.json"),
        r#"{"permissions":{"allow-read":["./data"],"allow-net":["b.example.com","evil.example.com"]}}"#,
    )
    .unwrap();
    // d's record edited after it was signed.
    let file = repo.join(".goccia/reviews.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let forged: Vec<String> = text
        .lines()
        .map(|l| match l.contains("\"path\":\"d/goccia.json\"") {
            true => l.replacen("\"note\":\"", "\"note\":\"forged ", 1),
            false => l.to_string(),
        })
        .collect();
    std::fs::write(&file, forged.join("\n") + "\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "configs and reviews"]);
    Fixture {
        env,
        repo,
        allowed: allowed.to_str().unwrap().to_string(),
    }
}

impl Fixture {
    fn diff(&self, extra: &[&str]) -> crate::common::Output {
        self.diff_in(&self.repo, extra)
    }

    fn diff_in(&self, repo: &Path, extra: &[&str]) -> crate::common::Output {
        let mut args = vec!["diff", "HEAD~1", "HEAD"];
        args.extend_from_slice(extra);
        self.env.run_in(repo, &args, &[])
    }
}

/// The text of one config's section, up to the next blank line.
fn section<'a>(text: &'a str, head: &str) -> &'a str {
    let start = text
        .find(head)
        .unwrap_or_else(|| panic!("no {head} in:\n{text}"));
    let rest = &text[start..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

fn statuses(reviews: &Value) -> Vec<&str> {
    reviews["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect()
}

fn no_raw_escapes(what: &str, text: &str) {
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{what}: raw escape in\n{text}"
    );
}

#[test]
fn diff_text_says_who_reviewed_each_config_at_head() {
    let f = fixture();
    let out = f.diff(&["--reviewed-by", &f.allowed]);
    assert_eq!(out.code, 1, "widened, as without reviews: {out}");
    let text = &out.stdout;
    no_raw_escapes("text", text);
    let a = section(text, "added a/goccia.json");
    assert!(a.ends_with(&format!("\n  reviewed by {ALICE}")), "{a}");
    let b = section(text, "added b/goccia.json");
    assert!(b.contains("\n  not reviewed at HEAD\n"), "{b}");
    assert!(
        b.contains(&format!("    {ALICE} reviewed an earlier version (sha256:")),
        "{b}"
    );
    let c = section(text, "added c/goccia.json");
    assert!(c.contains("\n  not reviewed at HEAD\n"), "{c}");
    assert!(c.contains(", a key not in "), "{c}");
    let d = section(text, "added d/goccia.json");
    assert!(
        d.contains("\n  not reviewed at HEAD\n    signature does not verify"),
        "{d}"
    );
    let e = section(text, "added e/goccia.json");
    assert!(
        e.contains("not reviewed at HEAD: the target of ")
            && e.contains(
                "cannot be told from git objects (a symbolic link leads out of the repository)"
            ),
        "{e}"
    );
}

#[test]
fn diff_markdown_json_and_ci_say_the_same() {
    let f = fixture();
    let md = f.diff(&["--format", "markdown", "--reviewed-by", &f.allowed]);
    no_raw_escapes("markdown", &md.stdout);
    let a = section(&md.stdout, "#### `a/goccia.json`");
    let said = format!("Reviewed by `{ALICE}` (this version)");
    let rest = &md.stdout[md.stdout.find("#### `a/goccia.json`").unwrap()..];
    assert!(rest.contains(&said), "{}", md.stdout);
    assert!(!a.contains("Not reviewed"), "{a}");
    let b = &md.stdout[md.stdout.find("#### `b/goccia.json`").unwrap()..];
    assert!(b.contains("Not reviewed at HEAD\n"), "{b}");
    assert!(b.contains("reviewed an earlier version"), "{b}");
    assert!(!b[..b.find("#### `c/").unwrap()].contains(&said), "{b}");

    let json = f.diff(&["--json", "--reviewed-by", &f.allowed]);
    let doc = valid("diff", &json.stdout);
    let a = &config(&doc, "a/goccia.json")["reviews"];
    assert_eq!(a["count"], 1, "{a}");
    assert_eq!(a["file"], ".goccia/reviews.jsonl", "{a}");
    assert!(
        a["allowedSigners"]["path"]
            .as_str()
            .unwrap()
            .ends_with("allowed_signers")
    );
    assert_eq!(statuses(a), ["reviewed"]);
    assert_eq!(a["records"][0]["note"], NOTE, "the note, exactly, in JSON");
    let st = |p: &str| statuses(&config(&doc, p)["reviews"]).join(",");
    assert_eq!(st("b/goccia.json"), "earlier-version");
    assert_eq!(st("c/goccia.json"), "unknown-key");
    assert_eq!(st("d/goccia.json"), "bad-signature");
    let e = &config(&doc, "e/goccia.json")["reviews"];
    assert!(e["digest"].is_null(), "{e}");
    assert!(
        e["problem"]
            .as_str()
            .unwrap()
            .contains("cannot be told from git objects"),
        "{e}"
    );

    let gh = f.diff(&["--format", "github", "--reviewed-by", &f.allowed]);
    no_raw_escapes("github", &gh.stdout);
    let line = |p: &str| {
        gh.stdout
            .lines()
            .find(|l| l.contains(&format!("file={p},")))
            .unwrap_or_else(|| panic!("no {p}: {gh}"))
            .to_string()
    };
    assert!(line("a/goccia.json").ends_with(&format!("%0Areviewed by {ALICE}")));
    assert!(line("b/goccia.json").ends_with("%0Anot reviewed at HEAD"));

    let sarif = f.diff(&["--format", "sarif", "--reviewed-by", &f.allowed]);
    let log: Value = serde_json::from_str(&sarif.stdout).unwrap();
    let message = |p: &str| {
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == p)
            .unwrap_or_else(|| panic!("no {p}: {sarif}"))["message"]["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(message("a/goccia.json").ends_with(&format!("\nreviewed by {ALICE}")));
    assert!(message("d/goccia.json").ends_with("\nnot reviewed at HEAD"));
}

/// Without allowed signers a good signature is never a review: it is
/// said signed and not checked, and every name and note is escaped.
#[test]
fn without_allowed_signers_a_signature_is_unchecked_and_escaped() {
    let f = fixture();
    let out = f.diff(&[]);
    no_raw_escapes("text", &out.stdout);
    let a = section(&out.stdout, "added a/goccia.json");
    assert!(
        a.contains(&format!(
            "  not reviewed at HEAD: signed by {ALICE}, not checked (no allowed signers: pass --reviewed-by FILE)"
        )),
        "{a}"
    );
    assert!(
        a.contains("not checked: no allowed signers: ok^[[2J^Jreviewed by bob\\u{202e}"),
        "{a}"
    );
    assert!(!a.contains(&format!("  reviewed by {ALICE}")), "{a}");
    let c = section(&out.stdout, "added c/goccia.json");
    assert!(c.contains("signed by mal\\u{202e}lory@example.com"), "{c}");
    let md = f.diff(&["--format", "markdown"]);
    no_raw_escapes("markdown", &md.stdout);
    assert!(md.stdout.contains(&format!(
        "Not reviewed at HEAD: signed by `{ALICE}`, not checked (no allowed signers: pass `--reviewed-by FILE`)"
    )));
    assert!(!md.stdout.contains("Reviewed by"), "{}", md.stdout);
    let gh = f.diff(&["--format", "github"]);
    no_raw_escapes("github", &gh.stdout);
    let doc = valid("diff", &f.diff(&["--json"]).stdout);
    let a = &config(&doc, "a/goccia.json")["reviews"];
    assert_eq!(
        (a["count"].clone(), statuses(a)),
        (0.into(), vec!["unchecked"])
    );
    assert!(a["allowedSigners"].is_null(), "{a}");
}

/// HEAD's objects are read, never the disk: the working tree's reviews
/// file gone changes nothing; a shallow clone at another path says the
/// same (the digest is portable).
#[test]
fn reviews_come_from_head_objects_also_in_a_shallow_clone() {
    let f = fixture();
    std::fs::remove_dir_all(f.repo.join(".goccia")).unwrap();
    let out = f.diff(&["--reviewed-by", &f.allowed]);
    let a = section(&out.stdout, "added a/goccia.json");
    assert!(a.ends_with(&format!("\n  reviewed by {ALICE}")), "{out}");
    let shallow = f.env.root.join("elsewhere/shallow");
    std::fs::create_dir_all(shallow.parent().unwrap()).unwrap();
    let url = format!("file://{}", f.repo.display());
    git(
        &f.env.root,
        &[
            "clone",
            "-q",
            "--depth",
            "2",
            &url,
            shallow.to_str().unwrap(),
        ],
    );
    assert_eq!(
        git(&shallow, &["rev-parse", "--is-shallow-repository"]).trim(),
        "true"
    );
    let out = f.diff_in(&shallow, &["--reviewed-by", &f.allowed]);
    let a = section(&out.stdout, "added a/goccia.json");
    assert!(a.ends_with(&format!("\n  reviewed by {ALICE}")), "{out}");
    let b = section(&out.stdout, "added b/goccia.json");
    assert!(b.contains("reviewed an earlier version"), "{out}");
}

/// A reviews file that is a symbolic link in the commit is said, not
/// followed; no review in it counts.
#[test]
fn a_reviews_file_linked_in_the_commit_is_not_followed() {
    let f = fixture();
    let r = &f.repo;
    git(r, &["mv", ".goccia/reviews.jsonl", "reviews-real.jsonl"]);
    std::os::unix::fs::symlink("../reviews-real.jsonl", r.join(".goccia/reviews.jsonl")).unwrap();
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "link"]);
    let out = f.env.run_in(
        r,
        &["diff", "HEAD~2", "HEAD", "--reviewed-by", &f.allowed],
        &[],
    );
    assert!(
        out.stdout
            .contains("note (HEAD): .goccia/reviews.jsonl is a symbolic link; not read\n"),
        "{out}"
    );
    let a = section(&out.stdout, "added a/goccia.json");
    assert!(
        a.ends_with("\n  not reviewed at HEAD: .goccia/reviews.jsonl is a symbolic link; not read"),
        "{out}"
    );
    let doc = valid(
        "diff",
        &f.env
            .run_in(r, &["diff", "HEAD~2", "HEAD", "--json"], &[])
            .stdout,
    );
    let a = &config(&doc, "a/goccia.json")["reviews"];
    assert_eq!(a["count"], 0, "{a}");
    assert!(
        a["problem"].as_str().unwrap().contains("symbolic link"),
        "{a}"
    );
}

/// Where reviews cannot be read the flags are refused, and a diff without
/// a reviews file at HEAD says nothing of reviews.
#[test]
fn reviewed_by_is_checked_and_needs_head() {
    let f = fixture();
    let out = f.env.run_in(
        &f.repo,
        &["diff", "HEAD~1", "--reviewed-by", &f.allowed],
        &[],
    );
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("need HEAD"), "{out}");
    let inside = f.repo.join("signers");
    std::fs::copy(&f.allowed, &inside).unwrap();
    let out = f.diff(&["--reviewed-by", inside.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("a tree under review"), "{out}");
    // BASE to BASE: no reviews file at HEAD.
    let out = f
        .env
        .run_in(&f.repo, &["diff", "HEAD~1", "HEAD~1", "--json"], &[]);
    let doc = valid("diff", &out.stdout);
    assert!(doc["configs"].as_array().unwrap().is_empty());
    let out = f
        .env
        .run_in(&f.repo, &["diff", "--all", "HEAD~1", "HEAD~1"], &[]);
    assert!(!out.stdout.contains("review"), "{out}");
}

/// scan --json gives each config inspect's reviews object; a config
/// whose repository has no reviews file gets null.
#[test]
fn scan_json_gives_each_config_its_reviews() {
    let f = fixture();
    let out = f.env.run_in(
        &f.repo,
        &["scan", "--json", "--reviewed-by", &f.allowed],
        &[],
    );
    let doc = valid("scan", &out.stdout);
    let a = &config(&doc, "a/goccia.json")["reviews"];
    assert_eq!(a["count"], 1, "{a}");
    assert_eq!(statuses(a), ["reviewed"]);
    let st = |p: &str| statuses(&config(&doc, p)["reviews"]).join(",");
    assert_eq!(st("b/goccia.json"), "earlier-version");
    assert_eq!(st("c/goccia.json"), "unknown-key");
    assert_eq!(st("d/goccia.json"), "bad-signature");
    let inspect = f.env.run_in(
        &f.repo,
        &[
            "inspect",
            "a/goccia.json",
            "--json",
            "--reviewed-by",
            &f.allowed,
        ],
        &[],
    );
    let inspect: Value = serde_json::from_str(&inspect.stdout).unwrap();
    assert_eq!(inspect["reviews"], *a, "the same object as inspect's");
    // Without allowed signers: unchecked.
    let doc = valid(
        "scan",
        &f.env.run_in(&f.repo, &["scan", "--json"], &[]).stdout,
    );
    assert_eq!(
        statuses(&config(&doc, "a/goccia.json")["reviews"]),
        ["unchecked"]
    );
    // Never taken and ignored: text and --policy refuse it.
    for extra in [&["scan"][..], &["scan", "--json", "--policy", "p.json"][..]] {
        let out = f.env.run_in(
            &f.repo,
            &[extra, &["--reviewed-by", &f.allowed][..]].concat(),
            &[],
        );
        assert_eq!(out.code, 2, "{out}");
        let said = format!("{}{}", out.stdout, out.stderr);
        assert!(said.contains("scan --json only"), "{out}");
    }
    // Another repository, without a reviews file: null.
    let other = f.env.work.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(
        other.join("goccia.json"),
        r#"{"permissions":{"allow-net":["x.example.com"]}}"#,
    )
    .unwrap();
    git(&other, &["init", "-q"]);
    let doc = valid(
        "scan",
        &f.env.run_in(&other, &["scan", "--json"], &[]).stdout,
    );
    assert!(config(&doc, "goccia.json")["reviews"].is_null(), "{doc}");
}

/// HEAD's reviews file within the file reader's bounds: a line over 16 KiB
/// is a malformed line (the others count), over 20,000 records or 8 MiB
/// the file is not read at all.
#[test]
fn reviews_at_head_are_read_within_the_bounds() {
    let f = fixture();
    let r = &f.repo;
    let base = git(r, &["rev-list", "--max-parents=0", "HEAD"]);
    let base = base.trim();
    let file = r.join(".goccia/reviews.jsonl");
    let good = std::fs::read_to_string(&file).unwrap();
    let commit_with = |text: &str| {
        std::fs::write(&file, text).unwrap();
        git(r, &["commit", "-q", "-a", "-m", "reviews"]);
        f.env
            .run_in(r, &["diff", base, "HEAD", "--reviewed-by", &f.allowed], &[])
    };
    let long = format!("{good}{{\"note\":\"{}\"}}\n", "x".repeat(17 << 10));
    let out = commit_with(&long);
    let a = section(&out.stdout, "added a/goccia.json");
    assert!(a.ends_with(&format!("\n  reviewed by {ALICE}")), "{out}");
    assert!(
        out.stdout
            .contains("note (HEAD): .goccia/reviews.jsonl: line "),
        "{out}"
    );
    let many = format!("{good}{}", "x\n".repeat(20_001));
    let out = commit_with(&many);
    assert!(
        out.stdout
            .contains(".goccia/reviews.jsonl holds over 20,000 records; no review in it counts"),
        "{out}"
    );
    let a = section(&out.stdout, "added a/goccia.json");
    assert!(a.contains("\n  not reviewed at HEAD: "), "{out}");
    let mut big = good.clone();
    while big.len() <= 8 << 20 {
        big.push_str(&format!("#{}\n", "x".repeat(4000)));
    }
    let out = commit_with(&big);
    assert!(
        out.stdout.contains(
            "note (HEAD): .goccia/reviews.jsonl is over the 8 MiB limit; no review in it counts"
        ),
        "{out}"
    );
    let a = section(&out.stdout, "added a/goccia.json");
    assert!(a.contains("\n  not reviewed at HEAD: "), "{out}");
}

/// a/goccia.json's `reviews` as `inspect --json` gives it, checked equal to
/// what `scan --json` gives the same config (with `args` added to both).
fn reviews_of_a(f: &Fixture, args: &[&str]) -> Value {
    let scan = f
        .env
        .run_in(&f.repo, &[&["scan", "--json"][..], args].concat(), &[]);
    let scan = valid("scan", &scan.stdout);
    let inspect = f.env.run_in(
        &f.repo,
        &[&["inspect", "a/goccia.json", "--json"][..], args].concat(),
        &[],
    );
    let inspect = valid("inspect", &inspect.stdout);
    assert_eq!(
        inspect["reviews"],
        config(&scan, "a/goccia.json")["reviews"]
    );
    inspect["reviews"].clone()
}

/// A reviews file that was not read, or whose lines are not all records,
/// says so in `inspect --json` and `scan --json` as the text does: a JSON
/// reader must not take "no records" for "nothing was there".
#[test]
fn the_reviews_files_own_problems_are_in_the_json() {
    let f = fixture();
    let file = f.repo.join(".goccia/reviews.jsonl");
    let good = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("<<<<<<< HEAD\n{good}")).unwrap();
    let r = reviews_of_a(&f, &["--reviewed-by", &f.allowed]);
    assert_eq!(
        r["problems"],
        serde_json::json!(["line 1: merge conflict marker"]),
        "{r}"
    );
    assert_eq!(statuses(&r), ["reviewed"], "the other lines still count");
    // A link in place of the file: not read, and said.
    let elsewhere = f.env.work.join("elsewhere.jsonl");
    std::fs::write(&elsewhere, &good).unwrap();
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &file).unwrap();
    let r = reviews_of_a(&f, &[]);
    let problems = r["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{r}");
    assert!(
        problems[0]
            .as_str()
            .unwrap()
            .ends_with("reviews.jsonl is a symbolic link; not read"),
        "{r}"
    );
    assert_eq!(r["records"], serde_json::json!([]));
    assert_eq!(r["count"], 0);
}

/// `review list --json` and `review verify --json` are documents of their
/// schema (schemas/review.schema.json), as every other `--json` is.
#[test]
fn review_list_and_verify_json_follow_their_schema() {
    let f = fixture();
    let list = f.env.run_in(&f.repo, &["review", "list", "--json"], &[]);
    let doc = valid("review", &list.stdout);
    assert!(doc["allowedSigners"].is_null(), "{doc}");
    let verify = f.env.run_in(
        &f.repo,
        &["review", "verify", "--json", "--reviewed-by", &f.allowed],
        &[],
    );
    assert_eq!(verify.code, 4, "b, c and d are not reviewed: {verify}");
    let doc = valid("review", &verify.stdout);
    let a = doc["configs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["file"] == "a/goccia.json")
        .unwrap();
    assert_eq!(a["met"], true, "{a}");
    assert_eq!(a["reviewers"], serde_json::json!([ALICE]), "{a}");
}

/// Whatever is in the reviews file's place is said, not taken for no file:
/// a `.goccia` that is a plain file, or a link to a directory without one.
/// And a file of many lines that are no record is not written again in
/// full with every config: the first 20, then how many more.
#[test]
fn what_stands_in_the_reviews_files_place_is_said_and_its_problems_are_bounded() {
    let f = fixture();
    let dot = f.repo.join(".goccia");
    let file = dot.join("reviews.jsonl");
    let good = std::fs::read_to_string(&file).unwrap();
    let many: String = (0..25).map(|i| format!("not a record {i}\n")).collect();
    std::fs::write(&file, format!("{many}{good}")).unwrap();
    let r = reviews_of_a(&f, &["--reviewed-by", &f.allowed]);
    let problems: Vec<&str> = r["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(problems.len(), 21, "{r}");
    assert!(
        problems[0].starts_with("line 1: not a review record"),
        "{r}"
    );
    assert_eq!(
        problems[20],
        "and 5 more lines that are not records (review list names each)"
    );
    assert_eq!(
        statuses(&r),
        ["reviewed"],
        "the record after them still counts"
    );
    let text = f.env.run_in(
        &f.repo,
        &["inspect", "a/goccia.json", "--reviewed-by", &f.allowed],
        &[],
    );
    assert!(
        text.stdout
            .contains("\n  and 5 more lines that are not records (review list names each)\n"),
        "{text}"
    );
    assert!(!text.stdout.contains("not a record 24"), "{text}");

    // A plain file in place of .goccia.
    std::fs::remove_dir_all(&dot).unwrap();
    std::fs::write(&dot, &good).unwrap();
    let r = reviews_of_a(&f, &[]);
    assert!(
        !r.is_null(),
        "a file in place of .goccia is said, not taken for none"
    );
    let said = r["problems"].as_array().unwrap();
    assert_eq!(said.len(), 1, "{r}");
    assert!(
        said[0]
            .as_str()
            .unwrap()
            .ends_with("/.goccia is a file, not a directory; not read"),
        "{r}"
    );
    assert_eq!(r["records"], serde_json::json!([]));

    // A link to a directory that holds no reviews file.
    std::fs::remove_file(&dot).unwrap();
    let elsewhere = f.env.work.join("empty-dir");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &dot).unwrap();
    let r = reviews_of_a(&f, &[]);
    assert!(!r.is_null(), "a link in place of .goccia is said");
    assert!(
        r["problems"][0].as_str().unwrap().contains("symbolic link"),
        "{r}"
    );
}
