//! `review sign` without `--key` or `--principal` (issue 43 item 3): the
//! key and the principal come from git's *global* configuration in a real
//! HOME (a real `.gitconfig`, real ssh-keygen keys), never from the
//! repository's own; and a config with uncommitted changes is warned about.

use std::path::Path;
use std::process::Command;

use crate::common::git::git;
use crate::team_reviews::{ALICE, Team, keygen, public_line, team};

/// `ssh-keygen -l`'s fingerprint of `key`'s public half.
fn fingerprint(key: &Path) -> String {
    let out = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(format!("{}.pub", key.display()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.split_whitespace().nth(1).unwrap().to_string()
}

/// The (principal, key) of each record in the repository's reviews file.
fn signed(repo: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo.join(".goccia/reviews.jsonl")).unwrap();
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["principal"].as_str().unwrap().to_string(),
                v["key"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn gitconfig(t: &Team, text: &str) {
    std::fs::write(t.env.home.join(".gitconfig"), text).unwrap();
}

fn sign(t: &Team, extra: &[&str]) -> crate::common::Output {
    let args = [&["review", "sign", "--yes"][..], extra].concat();
    t.env.run_in(&t.origin, &args, &[])
}

#[test]
fn sign_takes_its_key_and_principal_from_git_global_config() {
    let t = team();
    let ssh = t.env.home.join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    let default_key = keygen(&ssh, "id_ed25519");
    // The repository's own configuration names someone else: never read.
    git(&t.origin, &["config", "user.email", "mallory@example.com"]);
    git(
        &t.origin,
        &["config", "user.signingKey", t.mallory.to_str().unwrap()],
    );
    let out = sign(&t, &["a"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains(
            "review sign needs a principal: pass --principal NAME, or set git's user.email (git config --global user.email NAME)"
        ),
        "{out}"
    );
    assert!(!out.stderr.contains("mallory"), "{out}");
    assert!(!t.origin.join(".goccia").exists());
    // git's global user.email, with the default key ~/.ssh/id_ed25519.
    gitconfig(&t, "[user]\n\temail = dave@example.com\n");
    let out = sign(&t, &["a"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains(" as dave@example.com; "), "{out}");
    assert_eq!(
        signed(&t.origin),
        [("dave@example.com".to_string(), fingerprint(&default_key))]
    );
    // user.signingKey names a file (`~/` expanded); the principal is that
    // key's line in gpg.ssh.allowedSignersFile, over user.email.
    let keys = t.env.home.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let work = keygen(&keys, "work");
    std::fs::write(
        t.env.home.join("signers"),
        format!(
            "bob@example.com {}\n{ALICE},*@example.org {}\n",
            public_line(&t.bob),
            public_line(&work)
        ),
    )
    .unwrap();
    gitconfig(
        &t,
        "[user]\n\temail = dave@example.com\n\tsigningKey = ~/keys/work\n[gpg \"ssh\"]\n\tallowedSignersFile = ~/signers\n",
    );
    let out = sign(&t, &["b"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains(&format!(" as {ALICE}; ")), "{out}");
    assert!(signed(&t.origin).contains(&(ALICE.to_string(), fingerprint(&work))));
    // --key and --principal still win.
    let out = sign(
        &t,
        &[
            "--key",
            t.bob.to_str().unwrap(),
            "--principal",
            "bob@example.com",
            "c",
        ],
    );
    assert_eq!(out.code, 0, "{out}");
    assert!(signed(&t.origin).contains(&("bob@example.com".to_string(), fingerprint(&t.bob))));
}

#[test]
fn sign_says_what_it_cannot_read_of_git_global_config() {
    let t = team();
    let ssh = t.env.home.join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    keygen(&ssh, "id_ed25519");
    // An allowed signers file that cannot be read: said, nothing signed.
    gitconfig(
        &t,
        "[user]\n\temail = dave@example.com\n[gpg \"ssh\"]\n\tallowedSignersFile = ~/missing\n",
    );
    let out = sign(&t, &["a"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .contains("git's gpg.ssh.allowedSignersFile $ROOT/home/missing: ")
            && out.stderr.contains("pass --principal"),
        "{out}"
    );
    // A malformed one: the strict parser's FILE:LINE.
    std::fs::write(t.env.home.join("bad"), "alice@example.com ssh-ed25519\n").unwrap();
    gitconfig(
        &t,
        "[user]\n\temail = dave@example.com\n[gpg \"ssh\"]\n\tallowedSignersFile = ~/bad\n",
    );
    let out = sign(&t, &["a"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("$ROOT/home/bad:1: "), "{out}");
    // A literal key in user.signingKey names no file: the default key, said.
    gitconfig(
        &t,
        &format!(
            "[user]\n\temail = dave@example.com\n\tsigningKey = key::{}\n",
            public_line(&t.alice)
        ),
    );
    let out = sign(&t, &["a"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stderr.contains(
            "Warning: git's user.signingKey is a key, not a file; signing with ~/.ssh/id_ed25519 (pass --key to choose)"
        ),
        "{out}"
    );
    // No key at all: the file named.
    std::fs::remove_file(ssh.join("id_ed25519.pub")).unwrap();
    let out = sign(&t, &["a"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains("$ROOT/home/.ssh/id_ed25519.pub: "),
        "{out}"
    );
}

/// Item 4 of the sign command: a config whose files (or the links its
/// requests pass through) differ from HEAD is signed as it is on disk,
/// with one warning line for it; a committed one gets none.
#[test]
fn sign_warns_about_uncommitted_changes_and_still_signs() {
    let t = team();
    let key = t.alice.to_str().unwrap();
    let sign = |paths: &[&str]| {
        let args = [
            &[
                "review",
                "sign",
                "--yes",
                "--key",
                key,
                "--principal",
                ALICE,
            ][..],
            paths,
        ]
        .concat();
        t.env.run_in(&t.origin, &args, &[])
    };
    let warnings = |out: &crate::common::Output| -> Vec<String> {
        out.stderr
            .lines()
            .filter(|l| l.starts_with("Warning: "))
            .map(str::to_string)
            .collect()
    };
    // Committed: no warning.
    let out = sign(&["b"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(warnings(&out), Vec::<String>::new(), "{out}");
    // The config edited, and a new one never committed.
    std::fs::write(
        t.origin.join("a/goccia.json"),
        r#"{"permissions":{"allow-read":["./data"],"allow-net":["api2.example.com"]}}"#,
    )
    .unwrap();
    std::fs::create_dir_all(t.origin.join("d")).unwrap();
    std::fs::write(
        t.origin.join("d/goccia.json"),
        r#"{"permissions":{"allow-net":["d.example.com"]}}"#,
    )
    .unwrap();
    let out = sign(&["a", "b", "d"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        warnings(&out),
        [
            "Warning: a/goccia.json has uncommitted changes (a/goccia.json); the review covers what is on disk, not what is committed",
            "Warning: d/goccia.json has uncommitted changes (d/goccia.json); the review covers what is on disk, not what is committed",
        ],
        "{out}"
    );
    assert!(out.stdout.contains("Signed a/goccia.json "), "{out}");
    assert!(out.stdout.contains("Signed d/goccia.json "), "{out}");
    git(&t.origin, &["add", "."]);
    git(&t.origin, &["commit", "-q", "-m", "a and d"]);
    // A link its request passes through, re-pointed and not committed.
    std::fs::remove_dir_all(t.origin.join("a/data")).unwrap();
    std::os::unix::fs::symlink("../b/data", t.origin.join("a/data")).unwrap();
    let out = sign(&["a"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        warnings(&out),
        [
            "Warning: a/goccia.json has uncommitted changes (a/data); the review covers what is on disk, not what is committed"
        ],
        "{out}"
    );
    git(&t.origin, &["add", "."]);
    git(&t.origin, &["commit", "-q", "-m", "link"]);
    let out = sign(&["a"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(warnings(&out), Vec::<String>::new(), "{out}");
}
