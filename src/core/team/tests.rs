//! Team reviews against real keys made by `ssh-keygen` in temporary
//! directories, and real configs in a repository tree: one test per row of
//! the threat model (docs/src/signed-reviews.md#what-each-status-means).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::digest::{RepoPath, portable_digest, repo_path};
use super::file::{NotRead, read_reviews, write_records};
use super::record::{Line, Record, parse_line};
use super::sign::{SignEnv, SignError, find_ssh_keygen, public_key_of, sign_record};
use super::signers::{AllowedSigners, Revoked, parse_allowed_signers, parse_revoked};
use super::verify::{Checked, Judge, Status, check_record, count_reviews, summary};
use crate::core::config::load_hashed;
use crate::core::env::Env;
use crate::core::paths::key::TrustKey;

const ALICE: &str = "alice@example.com";
const BOB: &str = "bob@example.com";
const DIGEST: &str = "sha256:1a2b3c4d00000000000000000000000000000000000000000000000000000000";
const NOW: i64 = 1_780_000_000; // 2026-05-28

fn run(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().expect("run ssh-keygen");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A new key pair (no passphrase) of `args` (`-t ed25519`, ...).
fn keygen(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let key = dir.join(name);
    run(Command::new("ssh-keygen")
        .args(args)
        .args(["-q", "-N", "", "-C", name, "-f"])
        .arg(&key));
    key
}

fn public_line(key: &Path) -> String {
    let pubf = format!("{}.pub", key.display());
    let text = std::fs::read_to_string(pubf).unwrap();
    let mut words = text.split_whitespace();
    format!("{} {}", words.next().unwrap(), words.next().unwrap())
}

/// As `ssh-keygen -l` prints it.
fn fingerprint(key: &Path) -> String {
    let out = run(Command::new("ssh-keygen")
        .arg("-lf")
        .arg(format!("{}.pub", key.display())));
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_whitespace().nth(1).unwrap().to_string()
}

/// `ssh-keygen -Y sign` of `payload` in `namespace`.
fn ssh_sign(key: &Path, namespace: &str, payload: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new("ssh-keygen")
        .args(["-q", "-Y", "sign", "-n", namespace, "-f"])
        .arg(key)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(payload).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn unsigned(key: &Path, principal: &str, path: &str, digest: &str) -> Record {
    Record {
        digest: digest.to_string(),
        key: fingerprint(key),
        note: String::new(),
        path: path.to_string(),
        principal: principal.to_string(),
        sig: String::new(),
        signed_at: "2026-05-01T10:00:00Z".to_string(),
    }
}

fn signed(key: &Path, principal: &str, path: &str, digest: &str) -> Record {
    let mut r = unsigned(key, principal, path, digest);
    r.sig = ssh_sign(key, "goccia-trust-review", &r.payload());
    r
}

fn signers(dir: &Path, text: &str) -> AllowedSigners {
    let file = dir.join("allowed_signers");
    std::fs::write(&file, text).unwrap();
    parse_allowed_signers(&file.to_string_lossy(), text.as_bytes()).expect("allowed signers")
}

fn judge<'a>(s: &'a AllowedSigners, revoked: &'a Revoked) -> Judge<'a> {
    Judge {
        signers: Some(s),
        revoked,
        now: NOW,
    }
}

fn check(r: &Record, s: &AllowedSigners) -> Checked {
    check_record(1, r, DIGEST, &judge(s, &Revoked::default()))
}

struct Team {
    dir: tempfile::TempDir,
    alice: PathBuf,
    bob: PathBuf,
    mallory: PathBuf,
}

fn team() -> Team {
    let dir = tempfile::tempdir().unwrap();
    let alice = keygen(dir.path(), "alice", &["-t", "ed25519"]);
    let bob = keygen(dir.path(), "bob", &["-t", "ecdsa", "-b", "256"]);
    let mallory = keygen(dir.path(), "mallory", &["-t", "ecdsa", "-b", "384"]);
    Team {
        dir,
        alice,
        bob,
        mallory,
    }
}

impl Team {
    fn allowed(&self) -> AllowedSigners {
        let text = format!(
            "{ALICE} {}\n{BOB} {}\n",
            public_line(&self.alice),
            public_line(&self.bob)
        );
        signers(self.dir.path(), &text)
    }
}

// -- the portable digest -------------------------------------------------

fn repo_with_config(root: &Path, config: &str) -> TrustKey {
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("a/data")).unwrap();
    std::fs::write(root.join("a/goccia.json"), config).unwrap();
    let real = std::fs::canonicalize(root).unwrap();
    TrustKey(format!("{}/a/goccia.json", real.display()))
}

fn digest_of(key: &TrustKey) -> (RepoPath, super::digest::PortableDigest) {
    let env = Env::at("/", "/nonexistent-home");
    let config = load_hashed(key, &env).expect("config loads");
    let place = repo_path(key).expect("in a repository");
    let d = portable_digest(&config.block.into_block(), &config.targets, &place);
    (place, d)
}

const EXAMPLE: &str =
    r#"{"permissions":{"allow-read":["./data"],"allow-net":["api.example.com"]}}"#;

#[test]
fn the_portable_document_is_the_same_in_two_checkouts() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    let (place, first) = digest_of(&repo_with_config(&one.path().join("x"), EXAMPLE));
    let (_, second) = digest_of(&repo_with_config(&two.path().join("elsewhere/y"), EXAMPLE));
    assert_eq!(place.path, "a/goccia.json");
    assert_eq!(
        first.document,
        concat!(
            r#"{"block":{"permissions":{"allow-net":["api.example.com"],"allow-read":["${REPO}/a/data"]},"version":1},"#,
            r#""path":"a/goccia.json","targets":{"${REPO}/a/data":"${REPO}/a/data"},"v":1}"#
        )
    );
    assert_eq!(first.digest, second.digest);
    assert!(first.digest.starts_with("sha256:") && first.digest.len() == 71);
    assert!(first.outside.is_empty());
}

#[test]
fn a_config_outside_any_repository_cannot_be_reviewed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("goccia.json"), EXAMPLE).unwrap();
    let real = std::fs::canonicalize(dir.path()).unwrap();
    let key = TrustKey(format!("{}/goccia.json", real.display()));
    assert_eq!(
        repo_path(&key).unwrap_err().to_string(),
        "not in a git repository"
    );
}

#[test]
fn a_re_pointed_link_changes_the_digest_and_one_leaving_the_repository_is_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("r");
    let config = r#"{"permissions":{"allow-read":["./data"]}}"#;
    let key = repo_with_config(&root, config);
    std::fs::remove_dir(root.join("a/data")).unwrap();
    std::fs::create_dir_all(root.join("shared")).unwrap();
    std::os::unix::fs::symlink(root.join("shared"), root.join("a/data")).unwrap();
    let (_, inside) = digest_of(&key);
    assert!(
        inside
            .document
            .contains(r#""${REPO}/a/data":"${REPO}/shared""#)
    );
    let outside_dir = tempfile::tempdir().unwrap();
    std::fs::remove_file(root.join("a/data")).unwrap();
    std::os::unix::fs::symlink(outside_dir.path(), root.join("a/data")).unwrap();
    let (_, moved) = digest_of(&key);
    assert_ne!(inside.digest, moved.digest);
    let real_outside = std::fs::canonicalize(outside_dir.path()).unwrap();
    assert_eq!(
        moved.outside,
        vec![real_outside.to_string_lossy().to_string()]
    );
}

#[test]
fn the_same_block_at_another_path_has_another_digest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("r");
    let key = repo_with_config(&root, r#"{"permissions":{"allow-net":["x.example"]}}"#);
    std::fs::create_dir_all(root.join("b")).unwrap();
    std::fs::copy(root.join("a/goccia.json"), root.join("b/goccia.json")).unwrap();
    let other = TrustKey(key.as_str().replace("/a/goccia.json", "/b/goccia.json"));
    assert_ne!(digest_of(&key).1.digest, digest_of(&other).1.digest);
}

// -- the record and its payload -----------------------------------------

#[test]
fn a_record_is_accepted_by_ssh_keygen_verify_over_the_payload() {
    let t = team();
    let mut r = unsigned(&t.alice, ALICE, "a/goccia.json", DIGEST);
    r.note = "checked \"api\"\tcalls".to_string();
    assert_eq!(
        String::from_utf8(r.payload()).unwrap(),
        format!(
            "goccia-trust-review-v1\n{{\"digest\":\"{DIGEST}\",\"key\":\"{}\",\"note\":\"checked \\\"api\\\"\\tcalls\",\"path\":\"a/goccia.json\",\"principal\":\"{ALICE}\",\"signedAt\":\"2026-05-01T10:00:00Z\"}}\n",
            r.key
        )
    );
    r.sig = ssh_sign(&t.alice, "goccia-trust-review", &r.payload());
    // Through the file: the line written is the record read back.
    let line = r.to_line();
    assert_eq!(parse_line(&line), Line::Record(r.clone()));
    let dir = t.dir.path();
    let allowed = dir.join("allowed_signers");
    std::fs::write(&allowed, format!("{ALICE} {}\n", public_line(&t.alice))).unwrap();
    std::fs::write(dir.join("sig"), &r.sig).unwrap();
    let verified = Command::new("ssh-keygen")
        .args(["-Y", "verify", "-f"])
        .arg(&allowed)
        .args(["-I", ALICE, "-n", "goccia-trust-review", "-s"])
        .arg(dir.join("sig"))
        .stdin(
            std::fs::File::open({
                std::fs::write(dir.join("payload"), r.payload()).unwrap();
                dir.join("payload")
            })
            .unwrap(),
        )
        .output()
        .unwrap();
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
    assert!(
        String::from_utf8_lossy(&verified.stdout)
            .contains("Good \"goccia-trust-review\" signature")
    );
    // And in process.
    assert_eq!(check(&r, &t.allowed()).status, Status::Reviewed);
}

#[test]
fn an_unknown_missing_duplicated_or_mistyped_member_is_malformed() {
    let good = r#"{"digest":"sha256:1a2b3c4d00000000000000000000000000000000000000000000000000000000","key":"SHA256:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ","note":"","path":"a/goccia.json","principal":"a@b","sig":"-----BEGIN SSH SIGNATURE-----\nAA==\n-----END SSH SIGNATURE-----\n","signedAt":"2026-05-01T10:00:00Z","v":1}"#;
    assert!(matches!(parse_line(good), Line::Record(_)));
    let cases = [
        (
            good.replace(r#","v":1}"#, r#","v":1,"x":2}"#),
            "unknown member \"x\"",
        ),
        (good.replace(r#""note":"","#, ""), "no note"),
        (
            good.replace(r#""note":"","#, r#""note":"","note":"","#),
            "member note twice",
        ),
        (good.replace(r#""v":1"#, r#""v":"1""#), "v is not 1"),
        (
            good.replace(r#""path":"a/goccia.json""#, r#""path":"../x""#),
            "path is not",
        ),
        (
            good.replace(r#""principal":"a@b""#, r#""principal":"a b""#),
            "principal is empty",
        ),
        (
            good.replace("2026-05-01T10:00:00Z", "2026-05-01 10:00:00"),
            "signedAt",
        ),
        (
            good.replace(
                r#""note":"""#,
                &format!(r#""note":"{}""#, "x".repeat(17 << 10)),
            ),
            "16 KiB",
        ),
    ];
    for (line, why) in cases {
        match parse_line(&line) {
            Line::Malformed(m) => assert!(m.contains(why), "{m} lacks {why}"),
            other => panic!("{line}: {other:?}"),
        }
    }
    for marker in ["<<<<<<< HEAD", "=======", ">>>>>>> theirs"] {
        assert_eq!(
            parse_line(marker),
            Line::Malformed("merge conflict marker".to_string())
        );
    }
    assert_eq!(parse_line("# a comment"), Line::Skipped);
    assert_eq!(parse_line(""), Line::Skipped);
}

// -- the checks, in order ------------------------------------------------

#[test]
fn a_good_record_is_reviewed_and_names_key_and_date() {
    let t = team();
    let mut r = unsigned(&t.alice, ALICE, "a/goccia.json", DIGEST);
    r.note = "ok".to_string();
    r.sig = ssh_sign(&t.alice, "goccia-trust-review", &r.payload());
    let c = check(&r, &t.allowed());
    assert_eq!(c.status, Status::Reviewed);
    assert_eq!(
        c.text,
        format!("reviewed by {ALICE} (ED25519 {}) 2026-05-01: ok", r.key)
    );
    let ecdsa = signed(&t.bob, BOB, "a/goccia.json", DIGEST);
    assert_eq!(check(&ecdsa, &t.allowed()).status, Status::Reviewed);
    assert_eq!(check(&ecdsa, &t.allowed()).key_type, Some("ECDSA"));
    // P-384 (mallory's key, listed here).
    let s = signers(
        t.dir.path(),
        &format!("mallory@example.com {}\n", public_line(&t.mallory)),
    );
    let p384 = signed(&t.mallory, "mallory@example.com", "a/goccia.json", DIGEST);
    assert_eq!(check(&p384, &s).status, Status::Reviewed);
}

#[test]
fn a_forged_record_with_a_garbage_signature_is_malformed() {
    let t = team();
    let mut r = unsigned(&t.alice, ALICE, "a/goccia.json", DIGEST);
    r.sig = "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n"
        .to_string();
    let c = check(&r, &t.allowed());
    assert_eq!(c.status, Status::Malformed);
    assert!(
        c.text
            .starts_with("line 1: signature is not an SSH signature ("),
        "{}",
        c.text
    );
}

#[test]
fn mallorys_key_is_unknown_whatever_principal_it_claims() {
    let t = team();
    let r = signed(&t.mallory, ALICE, "a/goccia.json", DIGEST);
    let s = t.allowed();
    let c = check(&r, &s);
    assert_eq!(c.status, Status::UnknownKey);
    assert_eq!(
        c.text,
        format!("signed by {} (ECDSA), a key not in {}", r.key, s.file)
    );
}

#[test]
fn alices_key_signing_as_bob_is_the_wrong_principal() {
    let t = team();
    let r = signed(&t.alice, BOB, "a/goccia.json", DIGEST);
    let c = check(&r, &t.allowed());
    assert_eq!(c.status, Status::WrongPrincipal);
    assert_eq!(
        c.text,
        format!("key {} is allowed for {ALICE}, not {BOB}", r.key)
    );
}

#[test]
fn a_line_limited_to_other_namespaces_does_not_allow_reviews() {
    let t = team();
    let s = signers(
        t.dir.path(),
        &format!("{ALICE} namespaces=\"git\" {}\n", public_line(&t.alice)),
    );
    let c = check(&signed(&t.alice, ALICE, "a/goccia.json", DIGEST), &s);
    assert_eq!(c.status, Status::WrongPrincipal);
    assert!(
        c.text.contains("namespaces git, not goccia-trust-review"),
        "{}",
        c.text
    );
    let s = signers(
        t.dir.path(),
        &format!(
            "a*@example.com,!bob* namespaces=\"git,goccia-*\" {}\n",
            public_line(&t.alice)
        ),
    );
    let c = check(&signed(&t.alice, ALICE, "a/goccia.json", DIGEST), &s);
    assert_eq!(c.status, Status::Reviewed, "{}", c.text);
}

#[test]
fn a_record_edited_after_signing_does_not_verify() {
    let t = team();
    let s = signers(
        t.dir.path(),
        &format!("{ALICE},{BOB} {}\n", public_line(&t.alice)),
    );
    let r = signed(&t.alice, ALICE, "a/goccia.json", DIGEST);
    let other_digest = DIGEST.replace("1a2b", "9999");
    let edits: [fn(&mut Record, &str); 4] = [
        |r, _| r.note = "edited".to_string(),
        |r, _| r.signed_at = "2026-05-02T10:00:00Z".to_string(),
        |r, _| r.principal = BOB.to_string(),
        |r, d| r.digest = d.to_string(),
    ];
    for edit in edits {
        let mut e = r.clone();
        edit(&mut e, &other_digest);
        let c = check_record(1, &e, &e.digest.clone(), &judge(&s, &Revoked::default()));
        assert_eq!(c.status, Status::BadSignature, "{e:?}");
        assert_eq!(c.text, "signature does not verify");
    }
}

#[test]
fn a_pasted_signature_or_a_swapped_path_does_not_verify() {
    let t = team();
    let s = t.allowed();
    let a = signed(&t.alice, ALICE, "a/goccia.json", DIGEST);
    let b = signed(&t.bob, BOB, "a/goccia.json", DIGEST);
    let pasted = Record {
        sig: b.sig.clone(),
        ..a.clone()
    };
    let c = check(&pasted, &s);
    assert_eq!(c.status, Status::BadSignature);
    assert_eq!(
        c.text,
        format!(
            "signature does not verify (signed by {}, not {})",
            b.key, a.key
        )
    );
    let swapped = Record {
        path: "b/goccia.json".to_string(),
        ..a
    };
    assert_eq!(check(&swapped, &s).status, Status::BadSignature);
}

#[test]
fn a_signature_in_another_namespace_does_not_verify() {
    let t = team();
    let mut r = unsigned(&t.alice, ALICE, "a/goccia.json", DIGEST);
    r.sig = ssh_sign(&t.alice, "git", &r.payload());
    let c = check(&r, &t.allowed());
    assert_eq!(c.status, Status::BadSignature);
    assert_eq!(c.text, "signature does not verify (namespace git)");
}

#[test]
fn a_changed_config_makes_an_earlier_version() {
    let t = team();
    let r = signed(&t.alice, ALICE, "a/goccia.json", DIGEST);
    let now = DIGEST.replace("1a2b", "ffff");
    let c = check_record(4, &r, &now, &judge(&t.allowed(), &Revoked::default()));
    assert_eq!(c.status, Status::EarlierVersion);
    assert_eq!(
        c.text,
        format!("{ALICE} reviewed an earlier version (sha256:1a2b3c4d…) 2026-05-01")
    );
}

#[test]
fn an_expired_key_and_a_backdated_date_are_checked_at_now() {
    let t = team();
    let s = signers(
        t.dir.path(),
        &format!(
            "{ALICE} valid-before=\"20260101Z\" {}\n",
            public_line(&t.alice)
        ),
    );
    // Backdated into the window: still expired now.
    let mut r = unsigned(&t.alice, ALICE, "a/goccia.json", DIGEST);
    r.signed_at = "2025-06-01T00:00:00Z".to_string();
    r.sig = ssh_sign(&t.alice, "goccia-trust-review", &r.payload());
    let c = check(&r, &s);
    assert_eq!(c.status, Status::Expired);
    assert_eq!(
        c.text,
        format!(
            "key of {ALICE} expired 2026-01-01 (valid-before in {})",
            s.file
        )
    );
}

#[test]
fn a_key_not_valid_yet_or_a_date_in_the_future_is_not_yet_valid() {
    let t = team();
    let s = signers(
        t.dir.path(),
        &format!(
            "{ALICE} valid-after=\"20300101\" {}\n",
            public_line(&t.alice)
        ),
    );
    let c = check(&signed(&t.alice, ALICE, "a/goccia.json", DIGEST), &s);
    assert_eq!(c.status, Status::NotYetValid);
    assert!(c.text.contains("is valid only from 20"), "{}", c.text);
    let mut r = unsigned(&t.alice, ALICE, "a/goccia.json", DIGEST);
    r.signed_at = "2027-01-01T00:00:00Z".to_string();
    r.sig = ssh_sign(&t.alice, "goccia-trust-review", &r.payload());
    let c = check(&r, &t.allowed());
    assert_eq!(c.status, Status::NotYetValid);
    assert_eq!(
        c.text,
        format!("{ALICE} signed at 2027-01-01T00:00:00Z, in the future")
    );
}

#[test]
fn a_revoked_key_is_revoked() {
    let t = team();
    let text = format!("# gone\n{}\n", public_line(&t.alice));
    let revoked = parse_revoked("revoked", text.as_bytes()).unwrap();
    let r = signed(&t.alice, ALICE, "a/goccia.json", DIGEST);
    let c = check_record(1, &r, DIGEST, &judge(&t.allowed(), &revoked));
    assert_eq!(c.status, Status::Revoked);
    assert_eq!(c.text, format!("key {} of {ALICE} is revoked", r.key));
    assert!(
        parse_revoked("krl", b"SSHKRL\n\0\0")
            .unwrap_err()
            .0
            .contains("binary KRL")
    );
    assert_eq!(
        parse_revoked("r", b"ssh-ed25519 garbage\n")
            .unwrap_err()
            .0
            .split(" (")
            .next(),
        Some("r:1: not a public key")
    );
}

#[test]
fn without_allowed_signers_a_good_signature_is_unchecked_and_never_counts() {
    let t = team();
    let r = signed(&t.mallory, ALICE, "a/goccia.json", DIGEST);
    let revoked = Revoked::default();
    let j = Judge {
        signers: None,
        revoked: &revoked,
        now: NOW,
    };
    let c = check_record(1, &r, DIGEST, &j);
    assert_eq!(c.status, Status::Unchecked);
    assert_eq!(
        c.text,
        format!(
            "signed by {ALICE} (ECDSA {}) 2026-05-01; not checked: no allowed signers",
            r.key
        )
    );
    assert_eq!(count_reviews(&[c]).0, 0);
}

// -- counting ------------------------------------------------------------

#[test]
fn duplicates_one_key_as_two_people_and_one_person_with_two_keys_count_once() {
    let t = team();
    let both = format!(
        "{ALICE},{BOB} {}\n{ALICE} {}\n",
        public_line(&t.alice),
        public_line(&t.bob)
    );
    let s = signers(t.dir.path(), &both);
    let a = signed(&t.alice, ALICE, "a/goccia.json", DIGEST);
    let thrice: Vec<Checked> = (0..3)
        .map(|i| check_record(i, &a, DIGEST, &judge(&s, &Revoked::default())))
        .collect();
    assert_eq!(count_reviews(&thrice), (1, vec![ALICE.to_string()]));
    let a_as_bob = check(&signed(&t.alice, BOB, "a/goccia.json", DIGEST), &s);
    assert_eq!(a_as_bob.status, Status::Reviewed);
    assert_eq!(count_reviews(&[thrice[0].clone(), a_as_bob.clone()]).0, 1);
    let alice_second_key = check(&signed(&t.bob, ALICE, "a/goccia.json", DIGEST), &s);
    assert_eq!(alice_second_key.status, Status::Reviewed);
    assert_eq!(
        count_reviews(&[thrice[0].clone(), alice_second_key.clone()]).0,
        1
    );
    // Alice's first key as bob and her second key as herself: two keys,
    // two principals, a matching of two.
    let (n, names) = count_reviews(&[a_as_bob, alice_second_key]);
    assert_eq!((n, names), (2, vec![ALICE.to_string(), BOB.to_string()]));
    assert_eq!(
        summary(1, 2, &[BOB.to_string()]),
        format!("1 of 2 reviews: {BOB}; needs 1 more")
    );
    assert_eq!(summary(0, 1, &[]), "no review of this version");
    assert_eq!(
        summary(2, 2, &[ALICE.to_string(), BOB.to_string()]),
        format!("reviewed 2 of 2: {ALICE}, {BOB}")
    );
}

// -- the allowed signers -------------------------------------------------

#[test]
fn allowed_signers_are_strict_unlike_ssh_keygen() {
    let t = team();
    let key = public_line(&t.alice);
    let err = |text: String| parse_allowed_signers("as", text.as_bytes()).unwrap_err().0;
    assert_eq!(
        err(format!("{ALICE} {key}\n@revoked {key}\n")),
        "as:2: @revoked is no allowed_signers marker; ssh-keygen and git would allow that key: use --revoked FILE"
    );
    assert!(
        err(format!("{ALICE} ssh-ed25519 AAAAnotakey\n"))
            .starts_with("as:1: not a ssh-ed25519 key")
    );
    assert!(
        err(format!("{ALICE} valid-before=20200101 {key}\n")).starts_with("as:1: option value")
    );
    assert!(
        err(format!("{ALICE} valid-before=\"2020\" {key}\n")).starts_with("as:1: \"2020\" is not")
    );
    assert!(err(format!("{ALICE} no-touch-required {key}\n")).starts_with("as:1: unknown option"));
    assert!(err(format!("{ALICE}\n")).starts_with("as:1: no key"));
    assert!(err(format!("{ALICE} ssh-unknown AAAA\n")).starts_with("as:1: unknown option"));
    let ok = parse_allowed_signers(
        "as",
        format!(
            "# team\n{ALICE} {key} alice's laptop\n{BOB} ssh-rsa AAAAB3Nza\n* cert-authority {key}\n"
        )
        .as_bytes(),
    )
    .unwrap();
    assert_eq!(ok.signers.len(), 1);
    assert_eq!(ok.distinct_keys(), 1);
    assert_eq!(ok.warnings.len(), 2);
    assert!(
        ok.warnings[0].starts_with("as:3: ssh-rsa key skipped"),
        "{:?}",
        ok.warnings
    );
    assert!(ok.warnings[1].starts_with("as:4: cert-authority line skipped"));
}

#[test]
fn a_local_validity_time_is_read_only_where_the_local_zone_is_known() {
    use crate::core::team::signers::parse_validity;
    assert_eq!(parse_validity("20270101Z"), Ok(1_798_761_600));
    let local = parse_validity("20270101");
    if cfg!(unix) {
        // mktime's reading: within a day of the UTC instant, whatever TZ is.
        let t = local.unwrap();
        assert!((t - 1_798_761_600).abs() <= 26 * 3600, "{t}");
    } else {
        assert_eq!(
            local.unwrap_err(),
            "\"20270101\" is a local time, which this system cannot read; write it in UTC with a Z"
        );
    }
}

// -- the file ------------------------------------------------------------

#[test]
fn writing_keeps_one_record_per_path_and_key_sorted_and_adds_the_union_merge() {
    let t = team();
    let root = t.dir.path().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    let b = signed(&t.bob, BOB, "b/goccia.json", DIGEST);
    let a1 = signed(
        &t.alice,
        ALICE,
        "a/goccia.json",
        &DIGEST.replace("1a2b", "0000"),
    );
    write_records(&root, &[b.clone(), a1]).unwrap();
    let a2 = signed(&t.alice, ALICE, "a/goccia.json", DIGEST);
    write_records(&root, std::slice::from_ref(&a2)).unwrap();
    let text = std::fs::read_to_string(root.join(".goccia/reviews.jsonl")).unwrap();
    assert_eq!(text, format!("{}\n{}\n", a2.to_line(), b.to_line()));
    assert_eq!(
        std::fs::read_to_string(root.join(".goccia/.gitattributes")).unwrap(),
        "reviews.jsonl merge=union\n"
    );
    let file = read_reviews(&root).unwrap().unwrap();
    assert_eq!(file.records_for("a/goccia.json").count(), 1);
    assert_eq!(file.records_for("b/goccia.json").count(), 1);
    assert_eq!(file.records_for("c/goccia.json").count(), 0);
}

#[test]
fn conflict_markers_spoil_only_their_lines_and_block_a_rewrite() {
    let t = team();
    let root = t.dir.path().join("repo");
    std::fs::create_dir_all(root.join(".goccia")).unwrap();
    let a = signed(&t.alice, ALICE, "a/goccia.json", DIGEST);
    let text = format!("<<<<<<< HEAD\n{}\n=======\n>>>>>>> other\n", a.to_line());
    std::fs::write(root.join(".goccia/reviews.jsonl"), text).unwrap();
    let file = read_reviews(&root).unwrap().unwrap();
    let bad = super::verify::malformed_lines(&file);
    assert_eq!(bad.len(), 3);
    assert_eq!(bad[0].text, "line 1: merge conflict marker");
    let good = super::verify::check_records(
        &file,
        "a/goccia.json",
        DIGEST,
        &judge(&t.allowed(), &Revoked::default()),
    );
    assert_eq!(count_reviews(&good).0, 1);
    let err = write_records(&root, &[a]).unwrap_err().to_string();
    assert!(
        err.ends_with("reviews.jsonl:1 is not a review record; fix or remove that line first"),
        "{err}"
    );
}

#[test]
fn an_oversized_file_or_too_many_records_is_not_read_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let goccia = dir.path().join(".goccia");
    std::fs::create_dir_all(&goccia).unwrap();
    std::fs::write(goccia.join("reviews.jsonl"), vec![b'#'; (8 << 20) + 1]).unwrap();
    let err = read_reviews(dir.path()).unwrap_err();
    assert!(matches!(err, NotRead::TooLarge { .. }));
    assert!(
        err.to_string()
            .ends_with("reviews.jsonl is over the 8 MiB limit; no review in it counts")
    );
    std::fs::write(goccia.join("reviews.jsonl"), "x\n".repeat(20_001)).unwrap();
    let err = read_reviews(dir.path()).unwrap_err().to_string();
    assert!(
        err.ends_with("holds over 20,000 records; no review in it counts"),
        "{err}"
    );
}

#[test]
fn a_link_or_fifo_in_place_of_the_file_or_folder_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(elsewhere.path().join("reviews.jsonl"), "").unwrap();
    let goccia = dir.path().join(".goccia");
    std::os::unix::fs::symlink(elsewhere.path(), &goccia).unwrap();
    let err = read_reviews(dir.path()).unwrap_err().to_string();
    assert!(
        err.ends_with("/.goccia is a symbolic link; not read"),
        "{err}"
    );
    std::fs::remove_file(&goccia).unwrap();
    std::fs::create_dir(&goccia).unwrap();
    std::os::unix::fs::symlink(
        elsewhere.path().join("reviews.jsonl"),
        goccia.join("reviews.jsonl"),
    )
    .unwrap();
    let err = read_reviews(dir.path()).unwrap_err().to_string();
    assert!(
        err.ends_with("/.goccia/reviews.jsonl is a symbolic link; not read"),
        "{err}"
    );
    std::fs::remove_file(goccia.join("reviews.jsonl")).unwrap();
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        goccia.join("reviews.jsonl"),
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
    let err = read_reviews(dir.path()).unwrap_err().to_string();
    assert!(
        err.ends_with("/.goccia/reviews.jsonl is a FIFO; not read"),
        "{err}"
    );
    assert!(read_reviews(elsewhere.path()).unwrap().is_none());
}

// -- signing -------------------------------------------------------------

fn sign_env() -> SignEnv {
    SignEnv {
        path: std::env::var_os("PATH"),
        home: None,
        ssh_auth_sock: None,
    }
}

#[test]
fn signing_runs_ssh_keygen_and_verifies_before_returning() {
    let t = team();
    let ssh_keygen = find_ssh_keygen(sign_env().path.as_ref(), &[]).unwrap();
    let public = public_key_of(&t.alice).unwrap();
    let r = unsigned(&t.alice, ALICE, "a/goccia.json", DIGEST);
    let signed = sign_record(&r, &ssh_keygen, &t.alice, &public, &sign_env()).unwrap();
    assert_eq!(check(&signed, &t.allowed()).status, Status::Reviewed);
}

/// A fake `ssh-keygen` in `dir` running `body`.
fn fake_ssh_keygen(dir: &Path, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("ssh-keygen");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn an_ssh_keygen_inside_the_reviewed_tree_is_refused() {
    let t = team();
    let tree = std::fs::canonicalize(t.dir.path()).unwrap().join("repo");
    fake_ssh_keygen(&tree.join("bin"), "exit 0");
    let path = std::env::join_paths([tree.join("bin"), PathBuf::from("/usr/bin")]).unwrap();
    let tree_text = tree.to_string_lossy().to_string();
    let err = find_ssh_keygen(Some(&path), std::slice::from_ref(&tree_text)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{tree_text}/bin/ssh-keygen lies inside {tree_text}, a tree under review; not run")
    );
}

#[test]
fn a_hostile_ssh_keygen_never_gets_a_record_written() {
    let t = team();
    let public = public_key_of(&t.alice).unwrap();
    let r = unsigned(&t.alice, ALICE, "a/goccia.json", DIGEST);
    // Signs with mallory's key instead.
    let mallory_sig = ssh_sign(&t.mallory, "goccia-trust-review", &r.payload());
    std::fs::write(t.dir.path().join("m.sig"), &mallory_sig).unwrap();
    let liar = fake_ssh_keygen(
        &t.dir.path().join("liar"),
        &format!(
            "cat >/dev/null; cat '{}'",
            t.dir.path().join("m.sig").display()
        ),
    );
    let err = sign_record(&r, &liar, &t.alice, &public, &sign_env()).unwrap_err();
    assert!(matches!(err, SignError::NotVerified(_)), "{err}");
    let garbage = fake_ssh_keygen(&t.dir.path().join("garbage"), "cat >/dev/null; echo hello");
    let err = sign_record(&r, &garbage, &t.alice, &public, &sign_env()).unwrap_err();
    assert!(matches!(err, SignError::NotVerified(_)), "{err}");
    let failing = fake_ssh_keygen(&t.dir.path().join("failing"), "echo 'no key' >&2; exit 1");
    let err = sign_record(&r, &failing, &t.alice, &public, &sign_env()).unwrap_err();
    assert_eq!(err.to_string(), "ssh-keygen failed: no key");
}
