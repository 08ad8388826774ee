//! Security-key (`sk-ssh-ed25519@openssh.com`) reviews, without a security
//! key: the record format is checked with a signature built here from a
//! software ed25519 key exactly as a FIDO authenticator makes one. Its
//! signed data is SHA-256(application) || flags || counter (4 bytes, big
//! endian) || SHA-256(the SSHSIG signed data), and the SSHSIG signature
//! blob carries the ed25519 signature, then flags and counter. OpenSSH's
//! `ssh-keygen -Y verify` accepts the result, and so must this crate; a
//! changed byte anywhere is refused.

use std::path::Path;
use std::process::Command;

use sha2::Digest;
use ssh_key::public::{KeyData, SkEd25519};
use ssh_key::{
    Algorithm, HashAlg, LineEnding, PrivateKey, PublicKey, Signature, SigningKey, SshSig,
};

use super::NAMESPACE;
use super::record::Record;
use super::signers::{Revoked, parse_allowed_signers};
use super::verify::{Judge, Status, check_record};

const ALICE: &str = "alice@example.com";
const DIGEST: &str = "sha256:1a2b3c4d00000000000000000000000000000000000000000000000000000000";

/// User presence: what a touch of the key sets.
const FLAGS: u8 = 0x01;
const COUNTER: u32 = 7;

/// A plain ed25519 signature of `msg` by `key` (the bound brings the
/// signer's method into reach without naming its crate).
fn sign_raw<K: SigningKey>(key: &K, msg: &[u8]) -> Signature {
    key.try_sign(msg).expect("ed25519 signs")
}

/// A software ed25519 key made by ssh-keygen, and the security-key public
/// key (application `ssh:`) over the same ed25519 point.
fn sk_key(dir: &Path) -> (PrivateKey, PublicKey) {
    let file = dir.join("soft");
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "soft", "-f"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let private = PrivateKey::from_openssh(std::fs::read_to_string(&file).unwrap()).unwrap();
    let point = private.key_data().ed25519().unwrap().public;
    let public = PublicKey::new(
        KeyData::SkEd25519(SkEd25519::new(point, "ssh:")),
        "alice-sk",
    );
    (private, public)
}

/// The armoured SSHSIG of `payload` as a security key would sign it.
fn sk_sign(private: &PrivateKey, public: &PublicKey, payload: &[u8], flags: u8) -> String {
    let signed = SshSig::signed_data(NAMESPACE, HashAlg::Sha512, payload).unwrap();
    let mut data = sha2::Sha256::digest(b"ssh:").to_vec();
    data.push(flags);
    data.extend(COUNTER.to_be_bytes());
    data.extend(sha2::Sha256::digest(&signed));
    let mut blob = sign_raw(private, &data).as_bytes().to_vec();
    blob.push(flags);
    blob.extend(COUNTER.to_be_bytes());
    let sig = Signature::new(Algorithm::SkEd25519, blob).unwrap();
    SshSig::new(public.key_data().clone(), NAMESPACE, HashAlg::Sha512, sig)
        .unwrap()
        .to_pem(LineEnding::LF)
        .unwrap()
}

fn record(public: &PublicKey) -> Record {
    Record {
        digest: DIGEST.to_string(),
        key: super::sign::fingerprint(public),
        note: "signed with a security key".to_string(),
        path: "a/goccia.json".to_string(),
        principal: ALICE.to_string(),
        sig: String::new(),
        signed_at: "2026-05-01T10:00:00Z".to_string(),
    }
}

#[test]
fn an_sk_ed25519_review_verifies_and_a_changed_byte_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let (private, public) = sk_key(dir.path());
    let line = public.to_openssh().unwrap();
    assert!(line.starts_with("sk-ssh-ed25519@openssh.com "), "{line}");
    let mut r = record(&public);
    r.sig = sk_sign(&private, &public, &r.payload(), FLAGS);
    // OpenSSH accepts it: the construction is a security key's.
    let allowed = dir.path().join("allowed_signers");
    std::fs::write(&allowed, format!("{ALICE} {line}\n")).unwrap();
    std::fs::write(dir.path().join("payload"), r.payload()).unwrap();
    std::fs::write(dir.path().join("sig"), &r.sig).unwrap();
    let verified = Command::new("ssh-keygen")
        .args(["-Y", "verify", "-f"])
        .arg(&allowed)
        .args(["-I", ALICE, "-n", NAMESPACE, "-s"])
        .arg(dir.path().join("sig"))
        .stdin(std::fs::File::open(dir.path().join("payload")).unwrap())
        .output()
        .unwrap();
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
    // And so does this crate, through the allowed signers' strict parser.
    let text = std::fs::read(&allowed).unwrap();
    let signers = parse_allowed_signers(&allowed.to_string_lossy(), &text).unwrap();
    let revoked = Revoked::default();
    let judge = Judge {
        signers: Some(&signers),
        revoked: &revoked,
        now: 1_780_000_000,
    };
    let good = check_record(1, &r, DIGEST, &judge);
    assert_eq!(good.status, Status::Reviewed, "{}", good.text);
    assert_eq!(good.key_type, Some("ED25519-SK"));
    // A changed byte of what was signed: the payload, or the flags and
    // counter the signature carries.
    let mut edited = r.clone();
    edited.path = "b/goccia.json".to_string();
    let bad = check_record(1, &edited, DIGEST, &judge);
    assert_eq!(bad.status, Status::BadSignature, "{}", bad.text);
    let mut other_flags = r.clone();
    other_flags.sig = {
        let mut sig = SshSig::from_pem(&r.sig).unwrap();
        let mut blob = sig.signature().as_bytes().to_vec();
        let at = blob.len() - 5;
        blob[at] ^= 0x04;
        let changed = Signature::new(Algorithm::SkEd25519, blob).unwrap();
        sig = SshSig::new(
            public.key_data().clone(),
            NAMESPACE,
            HashAlg::Sha512,
            changed,
        )
        .unwrap();
        sig.to_pem(LineEnding::LF).unwrap()
    };
    let bad = check_record(1, &other_flags, DIGEST, &judge);
    assert_eq!(bad.status, Status::BadSignature, "{}", bad.text);
}
