//! Signing a review through `ssh-keygen -Y sign` (the user's key file or,
//! for a `.pub` file, ssh-agent), run by the one bounded spawner, and the
//! result verified in this process before anything is written.
//!
//! Signing is the one place a program runs, so it is never one the
//! repository under review supplies: an `ssh-keygen` found on PATH inside a
//! tree under review is refused, and it runs from `/` with only PATH, HOME
//! and SSH_AUTH_SOCK. Whatever it prints, a signature is kept only when it
//! verifies here over the payload, in the review namespace, by the key the
//! user named; and what counts is decided by the verifier's own
//! allowed_signers, so even a hostile program never widens anyone's trust.

use std::ffi::OsString;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use ssh_key::{HashAlg, PublicKey, SshSig};

use super::NAMESPACE;
use super::record::{Record, check_members};
use crate::core::paths::key::is_under;
use crate::core::process::{Limits, capture};

/// How long `ssh-keygen` may take (a passphrase typed on the terminal, a
/// security key touched).
pub const SIGN_TIMEOUT: Duration = Duration::from_secs(120);

/// What the signer needs of the environment, and nothing else.
#[derive(Debug, Clone, Default)]
pub struct SignEnv {
    pub path: Option<OsString>,
    pub home: Option<OsString>,
    pub ssh_auth_sock: Option<OsString>,
}

/// Why nothing was signed (and nothing written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignError {
    NoSshKeygen,
    /// `ssh-keygen` on PATH lies inside a tree under review.
    InsideTree {
        program: String,
        tree: String,
    },
    PublicKey {
        file: String,
        why: String,
    },
    Failed(String),
    /// What `ssh-keygen` printed is not a good signature by the key.
    NotVerified(String),
}

impl std::fmt::Display for SignError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SignError::NoSshKeygen => f.write_str("no ssh-keygen on PATH"),
            SignError::InsideTree { program, tree } => write!(
                f,
                "{program} lies inside {tree}, a tree under review; not run"
            ),
            SignError::PublicKey { file, why } => write!(f, "{file}: {why}"),
            SignError::Failed(why) => write!(f, "ssh-keygen failed: {why}"),
            SignError::NotVerified(why) => write!(
                f,
                "ssh-keygen's signature does not verify ({why}); nothing written"
            ),
        }
    }
}

/// The first `ssh-keygen` on PATH (absolute entries only: a relative entry
/// means the working directory, often the repository). One inside a tree
/// under review is refused, not skipped.
pub fn find_ssh_keygen(path: Option<&OsString>, trees: &[String]) -> Result<PathBuf, SignError> {
    let path = path.ok_or(SignError::NoSshKeygen)?;
    for dir in std::env::split_paths(path).filter(|d| d.is_absolute()) {
        let candidate = dir.join("ssh-keygen");
        if !candidate.is_file() {
            continue;
        }
        let real = std::fs::canonicalize(&candidate).unwrap_or(candidate.clone());
        let real_text = real.to_string_lossy();
        let shown = candidate.to_string_lossy();
        for tree in trees {
            if is_under(&real_text, tree) || is_under(&shown, tree) {
                return Err(SignError::InsideTree {
                    program: shown.into_owned(),
                    tree: tree.clone(),
                });
            }
        }
        return Ok(candidate);
    }
    Err(SignError::NoSshKeygen)
}

/// The public key of a signing key: the file itself when it is a `.pub`
/// (signing goes through ssh-agent), else `<file>.pub` next to it.
pub fn public_key_of(key_file: &Path) -> Result<PublicKey, SignError> {
    let public = if key_file.extension().is_some_and(|e| e == "pub") {
        key_file.to_path_buf()
    } else {
        let mut p = key_file.as_os_str().to_owned();
        p.push(".pub");
        PathBuf::from(p)
    };
    let bytes = crate::core::paths::bounded::read_regular(&public, 64 << 10).map_err(|e| {
        SignError::PublicKey {
            file: public.to_string_lossy().into_owned(),
            why: e.describe(),
        }
    })?;
    let text = String::from_utf8_lossy(&bytes);
    PublicKey::from_openssh(text.trim()).map_err(|e| SignError::PublicKey {
        file: public.to_string_lossy().into_owned(),
        why: format!("not an OpenSSH public key ({e})"),
    })
}

/// The unsigned record's fingerprint member for `key`.
pub fn fingerprint(key: &PublicKey) -> String {
    key.fingerprint(HashAlg::Sha256).to_string()
}

/// Signs `record` (its `sig` empty, its `key` the fingerprint of `public`)
/// with `ssh-keygen -Y sign -n goccia-trust-review -f KEY`, then verifies
/// the signature in process; the record with its `sig` only when it does.
pub fn sign_record(
    record: &Record,
    ssh_keygen: &Path,
    key_file: &Path,
    public: &PublicKey,
    env: &SignEnv,
) -> Result<Record, SignError> {
    let payload = record.payload();
    let mut input = tempfile::tempfile().map_err(|e| SignError::Failed(e.to_string()))?;
    input
        .write_all(&payload)
        .and_then(|()| input.rewind())
        .map_err(|e| SignError::Failed(e.to_string()))?;
    let mut cmd = Command::new(ssh_keygen);
    cmd.args(["-Y", "sign", "-n", NAMESPACE, "-f"])
        .arg(key_file)
        .env_clear()
        .current_dir("/")
        .stdin(Stdio::from(input));
    for (name, value) in [
        ("PATH", &env.path),
        ("HOME", &env.home),
        ("SSH_AUTH_SOCK", &env.ssh_auth_sock),
    ] {
        if let Some(value) = value {
            cmd.env(name, value);
        }
    }
    let limits = Limits {
        timeout: SIGN_TIMEOUT,
        grace: Duration::from_secs(2),
    };
    let run = capture(&mut cmd, limits, 16 << 10, 16 << 10)
        .map_err(|e| SignError::Failed(format!("{}: {e}", ssh_keygen.display())))?;
    if run.timed_out || !run.status.success() || run.overflowed {
        let said = String::from_utf8_lossy(&run.stderr).trim().to_string();
        let why = match (run.timed_out, run.overflowed) {
            (true, _) => "no signature within 120 s".to_string(),
            (_, true) => "it printed more than a signature".to_string(),
            _ if said.is_empty() => format!("exit status {}", run.status),
            _ => said,
        };
        return Err(SignError::Failed(why));
    }
    let sig_text = String::from_utf8(run.stdout)
        .map_err(|_| SignError::NotVerified("not UTF-8".to_string()))?;
    let signed = Record {
        sig: sig_text,
        ..record.clone()
    };
    verify_own(&signed, public)?;
    Ok(signed)
}

/// The signature parses, is in the review namespace, is by `public` and
/// verifies over the record's payload; the record is well-formed.
pub fn verify_own(signed: &Record, public: &PublicKey) -> Result<(), SignError> {
    let bad = |why: String| SignError::NotVerified(why);
    let sig = SshSig::from_pem(&signed.sig).map_err(|e| bad(e.to_string()))?;
    public
        .verify(NAMESPACE, &signed.payload(), &sig)
        .map_err(|e| bad(e.to_string()))?;
    if fingerprint(public) != signed.key {
        return Err(bad("the record names another key".to_string()));
    }
    check_members(signed).map_err(bad)
}
