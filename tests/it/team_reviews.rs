//! Signed team reviews end to end (issue 43): a real repository, three
//! real ssh-keygen keys (alice and bob allowed, mallory not), a second
//! clone at another path; one person signs, the other verifies.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::TestEnv;
use crate::common::git::git;

pub(crate) const ALICE: &str = "alice@example.com";
pub(crate) const BOB: &str = "bob@example.com";

pub(crate) fn keygen(dir: &Path, name: &str) -> PathBuf {
    let key = dir.join(name);
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
        .arg(&key)
        .output()
        .unwrap();
    assert!(out.status.success());
    key
}

pub(crate) fn public_line(key: &Path) -> String {
    let text = std::fs::read_to_string(format!("{}.pub", key.display())).unwrap();
    let mut w = text.split_whitespace();
    format!("{} {}", w.next().unwrap(), w.next().unwrap())
}

pub(crate) struct Team {
    pub env: TestEnv,
    pub origin: PathBuf,
    pub clone: PathBuf,
    pub alice: PathBuf,
    pub bob: PathBuf,
    pub mallory: PathBuf,
    pub allowed: PathBuf,
}

/// A repository with three configs, committed and cloned elsewhere.
/// Keys for alice and mallory under `env`'s root, and an allowed signers
/// file in its home (outside any repository) that lists alice's alone.
pub(crate) fn alice_and_mallory(env: &TestEnv) -> (PathBuf, PathBuf, PathBuf) {
    let keys = env.root.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let (alice, mallory) = (keygen(&keys, "alice"), keygen(&keys, "mallory"));
    let allowed = env.home.join("allowed_signers");
    std::fs::write(&allowed, format!("{ALICE} {}\n", public_line(&alice))).unwrap();
    (alice, mallory, allowed)
}

pub(crate) fn team() -> Team {
    let env = TestEnv::new();
    let keys = env.root.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let (alice, bob, mallory) = (
        keygen(&keys, "alice"),
        keygen(&keys, "bob"),
        keygen(&keys, "mallory"),
    );
    let allowed = env.home.join("allowed_signers");
    std::fs::write(
        &allowed,
        format!(
            "{ALICE} {}\n{BOB} {}\n",
            public_line(&alice),
            public_line(&bob)
        ),
    )
    .unwrap();
    let origin = env.work.join("origin");
    for (dir, body) in [
        (
            "a",
            r#"{"permissions":{"allow-read":["./data"],"allow-net":["api.example.com"]}}"#,
        ),
        ("b", r#"{"permissions":{"allow-net":["b.example.com"]}}"#),
        ("c", r#"{"permissions":{"allow-net":["c.example.com"]}}"#),
    ] {
        std::fs::create_dir_all(origin.join(dir).join("data")).unwrap();
        std::fs::write(origin.join(dir).join("data/.keep"), "").unwrap();
        std::fs::write(origin.join(dir).join("goccia.json"), body).unwrap();
    }
    git(&origin, &["init", "-q", "-b", "main"]);
    git(&origin, &["add", "."]);
    git(&origin, &["commit", "-q", "-m", "configs"]);
    let clone = env.root.join("elsewhere/clone");
    std::fs::create_dir_all(clone.parent().unwrap()).unwrap();
    git(
        &env.root,
        &[
            "clone",
            "-q",
            origin.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    Team {
        env,
        origin,
        clone,
        alice,
        bob,
        mallory,
        allowed,
    }
}

impl Team {
    pub(crate) fn sign(
        &self,
        repo: &Path,
        key: &Path,
        principal: &str,
        paths: &[&str],
    ) -> crate::common::Output {
        let mut args = vec![
            "review",
            "sign",
            "--yes",
            "--key",
            key.to_str().unwrap(),
            "--principal",
            principal,
        ];
        args.extend_from_slice(paths);
        self.env.run_in(repo, &args, &[])
    }

    pub(crate) fn verify(&self, repo: &Path, extra: &[&str]) -> crate::common::Output {
        let mut args = vec![
            "review",
            "verify",
            "--reviewed-by",
            self.allowed.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        self.env.run_in(repo, &args, &[])
    }

    /// Commits the reviews in `from` and pulls them into `to`.
    pub(crate) fn share(&self, from: &Path, to: &Path) {
        git(from, &["add", ".goccia"]);
        git(from, &["commit", "-q", "-m", "reviews"]);
        git(
            to,
            &["pull", "-q", "--no-rebase", from.to_str().unwrap(), "main"],
        );
    }
}

#[test]
fn one_signs_the_other_verifies_and_two_of_two_trusts_only_what_both_signed() {
    let t = team();
    // Alice signs a and b in the origin.
    let out = t.sign(&t.origin, &t.alice, ALICE, &["a", "b"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.starts_with("Signed a/goccia.json (sha256:"),
        "{out}"
    );
    assert!(out.stdout.contains(&format!(
        "as {ALICE}; commit .goccia/reviews.jsonl to share it"
    )));
    assert_eq!(
        std::fs::read_to_string(t.origin.join(".goccia/.gitattributes")).unwrap(),
        "reviews.jsonl merge=union\n"
    );
    // Mallory signs c: her key is not listed.
    assert_eq!(t.sign(&t.origin, &t.mallory, ALICE, &["c"]).code, 0);
    t.share(&t.origin, &t.clone);
    // Bob, in the clone at another path, verifies alice's reviews there.
    let out = t.verify(&t.clone, &[]);
    assert_eq!(out.code, 4, "{out}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], format!("a/goccia.json  reviewed 1 of 1: {ALICE}"));
    assert_eq!(lines[1], format!("b/goccia.json  reviewed 1 of 1: {ALICE}"));
    assert_eq!(lines[2], "c/goccia.json  no review of this version");
    assert!(
        lines[3].starts_with("  signed by SHA256:")
            && lines[3].ends_with(
                &format!("(ED25519), a key not in {}", t.allowed.display())
                    .replace(t.env.root.to_str().unwrap(), "$ROOT")
            ),
        "{out}"
    );
    // Bob signs a in the clone; 2 of 2 holds for a only.
    assert_eq!(t.sign(&t.clone, &t.bob, BOB, &["a"]).code, 0);
    let out = t.verify(&t.clone, &["--min-reviews", "2"]);
    assert_eq!(out.code, 4, "{out}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!("a/goccia.json  reviewed 2 of 2: {ALICE}, {BOB}")
    );
    assert_eq!(
        lines[1],
        format!("b/goccia.json  1 of 2 reviews: {ALICE}; needs 1 more")
    );
    assert_eq!(lines[2], "c/goccia.json  no review of this version");
    // Only a: exit 0. And back in the origin after sharing, the same.
    assert_eq!(t.verify(&t.clone, &["--min-reviews", "2", "a"]).code, 0);
    t.share(&t.clone, &t.origin);
    assert_eq!(t.verify(&t.origin, &["--min-reviews", "2", "a"]).code, 0);
    // A change to a makes both reviews earlier versions.
    std::fs::write(
        t.origin.join("a/goccia.json"),
        r#"{"permissions":{"allow-net":["evil.example.com"]}}"#,
    )
    .unwrap();
    let out = t.verify(&t.origin, &["a"]);
    assert_eq!(out.code, 4, "{out}");
    assert!(
        out.stdout
            .contains(&format!("  {ALICE} reviewed an earlier version (sha256:")),
        "{out}"
    );
    // list shows every record with its status, and exits 0.
    let out = t.env.run_in(&t.clone, &["review", "list"], &[]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains("; not checked: no allowed signers"),
        "{out}"
    );
}

#[test]
fn verify_refuses_bad_allowed_signers_before_anything() {
    let t = team();
    let inside = t.origin.join("allowed_signers");
    std::fs::copy(&t.allowed, &inside).unwrap();
    let out = t.env.run_in(
        &t.origin,
        &[
            "review",
            "verify",
            "--reviewed-by",
            inside.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains(
            "lies inside $ROOT/work/origin, a tree under review; keep it outside the reviewed tree"
        ),
        "{out}"
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&t.allowed, std::fs::Permissions::from_mode(0o660)).unwrap();
    let out = t.verify(&t.origin, &[]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .contains("is writable by its group (mode 0660); run chmod go-w"),
        "{out}"
    );
    std::fs::set_permissions(&t.allowed, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = t.verify(&t.origin, &["--min-reviews", "3"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains("--min-reviews 3 can never be met"),
        "{out}"
    );
    let out = t.verify(&t.origin, &["--min-reviews", "0"]);
    assert_eq!(out.code, 2, "{out}");
    std::fs::write(&t.allowed, format!("@revoked {}\n", public_line(&t.alice))).unwrap();
    let out = t.verify(&t.origin, &[]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .contains("allowed_signers:1: @revoked is no allowed_signers marker"),
        "{out}"
    );
}

#[test]
fn sign_needs_yes_without_a_terminal_and_refuses_a_repository_ssh_keygen() {
    let t = team();
    let key = t.alice.to_str().unwrap();
    let out = t.env.run_in(
        &t.origin,
        &["review", "sign", "--key", key, "--principal", ALICE, "a"],
        &[],
    );
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains("without a terminal pass --yes"),
        "{out}"
    );
    assert!(!t.origin.join(".goccia").exists());
    // A repository that ships bin/ssh-keygen and a PATH that finds it.
    let bin = t.origin.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(
        bin.join("ssh-keygen"),
        "#!/bin/sh\ntouch /tmp/pwned-by-repo\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        bin.join("ssh-keygen"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = t.env.run_in(
        &t.origin,
        &[
            "review",
            "sign",
            "--yes",
            "--key",
            key,
            "--principal",
            ALICE,
            "a",
        ],
        &[("PATH", &path)],
    );
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .contains("bin/ssh-keygen lies inside $ROOT/work/origin, a tree under review; not run"),
        "{out}"
    );
    assert!(!t.origin.join(".goccia").exists());
}

#[test]
fn escapes_in_principals_and_notes_are_shown_escaped() {
    let t = team();
    let out = t.sign(
        &t.origin,
        &t.alice,
        ALICE,
        &["--note", "ok\u{1b}[2J\u{202e}", "b"],
    );
    assert_eq!(out.code, 0, "{out}");
    let out = t.env.run_in(
        &t.origin,
        &[
            "review",
            "list",
            "--reviewed-by",
            t.allowed.to_str().unwrap(),
            "b",
        ],
        &[],
    );
    assert!(
        !out.stdout.contains('\u{1b}') && !out.stdout.contains('\u{202e}'),
        "{out}"
    );
    assert!(out.stdout.contains(": ok^[[2J\\u{202e}"), "{out}");
}

#[test]
fn verify_json_names_each_record_with_its_status() {
    let t = team();
    assert_eq!(t.sign(&t.origin, &t.alice, ALICE, &["a"]).code, 0);
    assert_eq!(t.sign(&t.origin, &t.mallory, BOB, &["a"]).code, 0);
    let out = t.verify(&t.origin, &["--json", "a"]);
    assert_eq!(out.code, 0, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let config = &doc["configs"][0];
    assert_eq!(config["path"], "a/goccia.json");
    assert_eq!(config["count"], 1);
    assert_eq!(config["met"], true);
    let statuses: Vec<&str> = config["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses.len(), 2);
    assert!(
        statuses.contains(&"reviewed") && statuses.contains(&"unknown-key"),
        "{statuses:?}"
    );
    assert!(config["digest"].as_str().unwrap().starts_with("sha256:"));
}

impl Team {
    pub(crate) fn trust(&self, repo: &Path, extra: &[&str]) -> crate::common::Output {
        let mut args = vec!["trust", "--reviewed-by", self.allowed.to_str().unwrap()];
        args.extend_from_slice(extra);
        self.env.run_in(repo, &args, &[])
    }
}

/// Item 4: `trust --yes --reviewed-by` in a second clone at another path
/// records only the config both allowed keys signed, and says why the
/// others were left (with the record that did not count under it).
#[test]
fn trust_reviewed_by_two_of_two_records_only_what_both_signed() {
    let t = team();
    assert_eq!(t.sign(&t.origin, &t.alice, ALICE, &["a", "b"]).code, 0);
    assert_eq!(t.sign(&t.origin, &t.mallory, ALICE, &["c"]).code, 0);
    t.share(&t.origin, &t.clone);
    assert_eq!(t.sign(&t.clone, &t.bob, BOB, &["a"]).code, 0);
    // A dry run says the same and records nothing.
    let dry = t.trust(&t.clone, &["--dry-run", "--min-reviews", "2", "."]);
    assert_eq!(dry.code, 4, "{dry}");
    assert!(
        dry.stdout.starts_with(&format!(
            "would trust  a/goccia.json  reviewed by {ALICE}, {BOB} (2 of 2)\n"
        )),
        "{dry}"
    );
    let out = t.trust(&t.clone, &["--yes", "--min-reviews", "2", "."]);
    assert_eq!(out.code, 4, "{out}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!("trusted  a/goccia.json  reviewed by {ALICE}, {BOB} (2 of 2)")
    );
    assert_eq!(
        lines[1],
        format!("left  b/goccia.json  1 of 2 reviews: {ALICE}; needs 1 more")
    );
    assert_eq!(lines[2], "left  c/goccia.json  no review of this version");
    assert!(
        lines[3].starts_with("    signed by SHA256:") && lines[3].contains("a key not in"),
        "{out}"
    );
    assert!(
        lines[4].starts_with("Trusted 1 config file by review in ")
            && lines[4].ends_with(
                "; 2 left for a person to review: goccia-trust trust b/goccia.json c/goccia.json"
            ),
        "{out}"
    );
    // a is in the store now: the next run lists only b and c.
    let again = t.trust(&t.clone, &["--dry-run", "--min-reviews", "2", "."]);
    assert_eq!(again.code, 4, "{again}");
    assert!(!again.stdout.contains("a/goccia.json"), "{again}");
    assert!(again.stdout.starts_with("left  b/goccia.json"), "{again}");
    // With the default of one review, b is trusted too; c never is.
    let out = t.trust(&t.clone, &["--yes", "."]);
    assert_eq!(out.code, 4, "{out}");
    assert!(
        out.stdout.starts_with(&format!(
            "trusted  b/goccia.json  reviewed by {ALICE} (1 of 1)\n"
        )),
        "{out}"
    );
}

/// `--reviewed-by` is a gate of unattended trust, from outside the tree
/// (or pinned), and a `--min-reviews` it can never meet is refused.
#[test]
fn trust_reviewed_by_refuses_bad_usage_before_anything() {
    let t = team();
    let out = t.trust(&t.origin, &["."]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains("--reviewed-by gates unattended trust"),
        "{out}"
    );
    let out = t.trust(&t.origin, &["--yes", "--min-reviews", "3", "."]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains("--min-reviews 3 can never be met"),
        "{out}"
    );
    let out = t.trust(&t.origin, &["--yes", "--min-reviews", "0", "."]);
    assert_eq!(out.code, 2, "{out}");
    // Inside the tree under review: refused, unless pinned by its bytes.
    let inside = t.origin.join("allowed_signers");
    std::fs::copy(&t.allowed, &inside).unwrap();
    let inside_arg = inside.to_str().unwrap();
    let out = t.env.run_in(
        &t.origin,
        &["trust", "--yes", "--reviewed-by", inside_arg, "."],
        &[],
    );
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("a tree under review"), "{out}");
    use sha2::Digest;
    let pin: String = sha2::Sha256::digest(std::fs::read(&inside).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let args = [
        "trust",
        "--dry-run",
        "--reviewed-by",
        inside_arg,
        "--reviewed-by-sha256",
    ];
    let out = t
        .env
        .run_in(&t.origin, &[&args[..], &[pin.as_str(), "."]].concat(), &[]);
    assert_eq!(out.code, 4, "{out}");
    assert!(
        out.stdout
            .contains("left  a/goccia.json  no review of this version"),
        "{out}"
    );
    let wrong = "0".repeat(64);
    let out = t.env.run_in(
        &t.origin,
        &[&args[..], &[wrong.as_str(), "."]].concat(),
        &[],
    );
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("not the pinned"), "{out}");
    // Nothing was recorded by any of these.
    let out = t.env.run_in(&t.origin, &["list"], &[]);
    assert!(!out.stdout.contains("goccia.json"), "{out}");
}

/// Item 5: inspect shows the reviews, as text and in `--json`; a
/// repository without a reviews file gives `"reviews": null`.
#[test]
fn inspect_shows_the_reviews_as_text_and_json() {
    let t = team();
    let allowed = t.allowed.to_str().unwrap();
    let out = t
        .env
        .run_in(&t.origin, &["inspect", "a/goccia.json", "--json"], &[]);
    assert_eq!(out.code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(v["reviews"].is_null(), "{out}");
    assert_eq!(t.sign(&t.origin, &t.alice, ALICE, &["a"]).code, 0);
    assert_eq!(t.sign(&t.origin, &t.mallory, BOB, &["a"]).code, 0);
    let args = ["inspect", "a/goccia.json", "--reviewed-by", allowed];
    let out = t.env.run_in(&t.origin, &args, &[]);
    assert_eq!(out.code, 0, "{out}");
    let text = out.stdout.split("Reviews: .goccia/reviews.jsonl\n").nth(1);
    let text = text.unwrap_or_else(|| panic!("no Reviews section: {out}"));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("  Digest: sha256:"), "{out}");
    assert!(
        lines[1..]
            .iter()
            .any(|l| l.starts_with(&format!("  reviewed by {ALICE} (ED25519 SHA256:"))),
        "{out}"
    );
    assert!(
        lines[1..].iter().any(|l| l.contains("a key not in")),
        "{out}"
    );
    let out = t
        .env
        .run_in(&t.origin, &[&args[..], &["--json"]].concat(), &[]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let r = &v["reviews"];
    assert_eq!(r["file"], ".goccia/reviews.jsonl", "{out}");
    assert_eq!(r["count"], 1, "{out}");
    assert!(
        r["digest"].as_str().unwrap().starts_with("sha256:"),
        "{out}"
    );
    assert!(
        r["allowedSigners"]["path"]
            .as_str()
            .unwrap()
            .ends_with("/home/allowed_signers"),
        "{out}"
    );
    assert!(r["required"].is_null(), "{out}");
    let statuses: Vec<&str> = r["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert!(
        statuses.contains(&"reviewed") && statuses.contains(&"unknown-key"),
        "{out}"
    );
    // Without allowed signers, a good signature is only unchecked.
    let out = t.env.run_in(&t.origin, &["inspect", "a/goccia.json"], &[]);
    assert!(
        out.stdout.contains("not checked: no allowed signers"),
        "{out}"
    );
}
