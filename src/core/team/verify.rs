//! Verifying one record, in a fixed order whose first failure is its
//! status, and counting the reviews of a config
//! (docs/src/signed-reviews.md#what-each-status-means).
//!
//! Only `reviewed` ever counts; every other status is shown, never counted.
//! The count is the largest set of `reviewed` records with pairwise
//! different principals and pairwise different keys, so a record pasted
//! three times, one key signing as two people, or one person with two keys
//! count once.

use ssh_key::{Algorithm, EcdsaCurve, HashAlg, SshSig};

use super::NAMESPACE;
use super::file::ReviewsFile;
use super::record::{Line, Record, parse_signed_at};
use super::signers::{AllowedSigners, Revoked, Signer};

/// A `signedAt` up to this far ahead of now is taken as clock skew.
pub const CLOCK_SKEW_SECONDS: i64 = 300;

/// What one record is, for one config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    Malformed,
    BadSignature,
    UnknownKey,
    WrongPrincipal,
    Revoked,
    Expired,
    NotYetValid,
    EarlierVersion,
    /// Signed and for this version, but no allowed signers to judge it by.
    Unchecked,
    Reviewed,
}

impl Status {
    /// As `--json` and the guide name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Malformed => "malformed",
            Status::BadSignature => "bad-signature",
            Status::UnknownKey => "unknown-key",
            Status::WrongPrincipal => "wrong-principal",
            Status::Revoked => "revoked",
            Status::Expired => "expired",
            Status::NotYetValid => "not-yet-valid",
            Status::EarlierVersion => "earlier-version",
            Status::Unchecked => "unchecked",
            Status::Reviewed => "reviewed",
        }
    }
}

/// One line of a reviews file, judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub line: usize,
    /// `None` for a line that is not a record.
    pub record: Option<Record>,
    /// `ED25519`, `ECDSA`, `ED25519-SK`, when the signature says.
    pub key_type: Option<&'static str>,
    pub status: Status,
    /// The status's text (config text: escape it before printing).
    pub text: String,
}

/// What records are judged against: the verifier's signers (none for a
/// read command without any), revoked keys, and the time now.
pub struct Judge<'a> {
    pub signers: Option<&'a AllowedSigners>,
    pub revoked: &'a Revoked,
    /// Seconds since the epoch.
    pub now: i64,
}

/// The lines of `file` that are not records, each `malformed`.
pub fn malformed_lines(file: &ReviewsFile) -> Vec<Checked> {
    file.lines()
        .iter()
        .filter_map(|(n, line)| match line {
            Line::Malformed(why) => Some(Checked {
                line: *n,
                record: None,
                key_type: None,
                status: Status::Malformed,
                text: format!("line {n}: {why}"),
            }),
            _ => None,
        })
        .collect()
}

/// Every record of `file` for the config at `path` whose portable digest is
/// now `digest`, judged, in line order.
pub fn check_records(file: &ReviewsFile, path: &str, digest: &str, judge: &Judge) -> Vec<Checked> {
    file.records_for(path)
        .map(|(n, r)| check_record(n, r, digest, judge))
        .collect()
}

/// The checks of one record, in order; the first that fails is its status.
pub fn check_record(line: usize, record: &Record, digest: &str, judge: &Judge) -> Checked {
    let mut out = Checked {
        line,
        record: Some(record.clone()),
        key_type: None,
        status: Status::Reviewed,
        text: String::new(),
    };
    match judge_record(line, record, digest, judge, &mut out.key_type) {
        Ok((status, text)) | Err((status, text)) => {
            out.status = status;
            out.text = text;
        }
    }
    out
}

type Verdict = Result<(Status, String), (Status, String)>;

fn judge_record(
    line: usize,
    r: &Record,
    digest: &str,
    judge: &Judge,
    key_type: &mut Option<&'static str>,
) -> Verdict {
    // 2: an SSH signature of a key type this version verifies.
    let sig = SshSig::from_pem(&r.sig).map_err(|e| {
        let why = format!("line {line}: signature is not an SSH signature ({e})");
        (Status::Malformed, why)
    })?;
    let kind = type_label(sig.algorithm()).ok_or_else(|| {
        let why = format!(
            "line {line}: signature is not an SSH signature (key type {} is not supported)",
            sig.algorithm()
        );
        (Status::Malformed, why)
    })?;
    *key_type = Some(kind);
    // 3: the namespace, and the key the record names.
    if sig.namespace() != NAMESPACE {
        let why = format!("signature does not verify (namespace {})", sig.namespace());
        return Err((Status::BadSignature, why));
    }
    let fingerprint = sig.public_key().fingerprint(HashAlg::Sha256).to_string();
    if fingerprint != r.key {
        let why = format!(
            "signature does not verify (signed by {fingerprint}, not {})",
            r.key
        );
        return Err((Status::BadSignature, why));
    }
    let date = &r.signed_at[..10];
    if let Some(signers) = judge.signers {
        check_signer(r, signers, judge, kind)?;
    }
    // 8: the signature over the payload rebuilt from the record.
    let key = ssh_key::PublicKey::from(sig.public_key().clone());
    if key.verify(NAMESPACE, &r.payload(), &sig).is_err() {
        return Err((
            Status::BadSignature,
            "signature does not verify".to_string(),
        ));
    }
    // 9: this version of the config.
    if r.digest != digest {
        let short = &r.digest[..("sha256:".len() + 8)];
        let why = format!(
            "{} reviewed an earlier version ({short}…) {date}",
            r.principal
        );
        return Err((Status::EarlierVersion, why));
    }
    let note = match r.note.is_empty() {
        true => String::new(),
        false => format!(": {}", r.note),
    };
    if judge.signers.is_none() {
        let text = format!(
            "signed by {} ({kind} {}) {date}; not checked: no allowed signers{note}",
            r.principal, r.key
        );
        return Ok((Status::Unchecked, text));
    }
    let text = format!(
        "reviewed by {} ({kind} {}) {date}{note}",
        r.principal, r.key
    );
    Ok((Status::Reviewed, text))
}

/// Steps 4–7: the verifier lists the key, for this principal and the
/// review namespace, not revoked, valid now and when signed.
fn check_signer(
    r: &Record,
    signers: &AllowedSigners,
    judge: &Judge,
    kind: &str,
) -> Result<(), (Status, String)> {
    let lines: Vec<&Signer> = signers
        .signers
        .iter()
        .filter(|s| s.fingerprint == r.key)
        .collect();
    let Some(first) = lines.first() else {
        let why = format!(
            "signed by {} ({kind}), a key not in {}",
            r.key, signers.file
        );
        return Err((Status::UnknownKey, why));
    };
    let allowed: Vec<&Signer> = lines
        .iter()
        .copied()
        .filter(|s| s.allows_principal(&r.principal) && s.allows_namespace())
        .collect();
    let Some((head, rest)) = allowed.split_first() else {
        let why = match lines.iter().find(|s| s.allows_principal(&r.principal)) {
            Some(s) => format!(
                "key {} is allowed for namespaces {}, not {NAMESPACE}",
                r.key,
                s.namespaces.as_deref().unwrap_or("")
            ),
            None => format!(
                "key {} is allowed for {}, not {}",
                r.key, first.principals, r.principal
            ),
        };
        return Err((Status::WrongPrincipal, why));
    };
    if judge.revoked.contains(&r.key) {
        let why = format!("key {} of {} is revoked", r.key, r.principal);
        return Err((Status::Revoked, why));
    }
    let signed_at = parse_signed_at(&r.signed_at).unwrap_or(i64::MAX);
    // Any allowed line that is valid then admits the key; else the first
    // line's reason is given.
    let first_failure = match validity(head, r, signed_at, judge.now, &signers.file) {
        Ok(()) => return Ok(()),
        Err(e) => e,
    };
    if rest
        .iter()
        .any(|s| validity(s, r, signed_at, judge.now, &signers.file).is_ok())
    {
        return Ok(());
    }
    Err(first_failure)
}

/// Step 7 for one line: now and `signedAt` inside its validity, and
/// `signedAt` not in the future (a backdated date is caught by now).
fn validity(
    s: &Signer,
    r: &Record,
    signed_at: i64,
    now: i64,
    file: &str,
) -> Result<(), (Status, String)> {
    if signed_at > now + CLOCK_SKEW_SECONDS {
        let why = format!("{} signed at {}, in the future", r.principal, r.signed_at);
        return Err((Status::NotYetValid, why));
    }
    for t in [now, signed_at] {
        if let Some(before) = s.valid_before.filter(|&b| t >= b) {
            let why = format!(
                "key of {} expired {} (valid-before in {file})",
                r.principal,
                utc_date(before)
            );
            return Err((Status::Expired, why));
        }
        if let Some(after) = s.valid_after.filter(|&a| t < a) {
            let why = format!(
                "key of {} is valid only from {} (valid-after in {file})",
                r.principal,
                utc_date(after)
            );
            return Err((Status::NotYetValid, why));
        }
    }
    Ok(())
}

fn utc_date(seconds: i64) -> String {
    match jiff::Timestamp::from_second(seconds) {
        Ok(t) => t.to_string()[..10].to_string(),
        Err(_) => seconds.to_string(),
    }
}

/// As `ssh-keygen -l` names the key types this version verifies.
pub fn type_label(algorithm: Algorithm) -> Option<&'static str> {
    match algorithm {
        Algorithm::Ed25519 => Some("ED25519"),
        Algorithm::Ecdsa {
            curve: EcdsaCurve::NistP256 | EcdsaCurve::NistP384,
        } => Some("ECDSA"),
        Algorithm::SkEd25519 => Some("ED25519-SK"),
        _ => None,
    }
}

/// The count of a config's reviews: the largest matching of `reviewed`
/// records between principals and keys; the principals it uses, sorted.
pub fn count_reviews(checked: &[Checked]) -> (usize, Vec<String>) {
    let mut edges: Vec<(String, String)> = checked
        .iter()
        .filter(|c| c.status == Status::Reviewed)
        .filter_map(|c| c.record.as_ref())
        .map(|r| (r.principal.clone(), r.key.clone()))
        .collect();
    edges.sort();
    edges.dedup();
    let mut principals: Vec<&str> = edges.iter().map(|(p, _)| p.as_str()).collect();
    principals.dedup();
    // Kuhn's augmenting paths: small inputs (a few reviewers per config).
    let mut key_owner: std::collections::BTreeMap<&str, &str> = Default::default();
    for p in &principals {
        let mut seen = std::collections::BTreeSet::new();
        augment(p, &edges, &mut key_owner, &mut seen);
    }
    let mut names: Vec<String> = key_owner.values().map(|p| p.to_string()).collect();
    names.sort();
    (names.len(), names)
}

fn augment<'a>(
    principal: &'a str,
    edges: &'a [(String, String)],
    key_owner: &mut std::collections::BTreeMap<&'a str, &'a str>,
    seen: &mut std::collections::BTreeSet<&'a str>,
) -> bool {
    for (_, key) in edges.iter().filter(|(p, _)| p == principal) {
        if !seen.insert(key.as_str()) {
            continue;
        }
        let free = match key_owner.get(key.as_str()) {
            None => true,
            Some(owner) => augment(owner, edges, key_owner, seen),
        };
        if free {
            key_owner.insert(key.as_str(), principal);
            return true;
        }
    }
    false
}

/// A config's line in `review verify`: `reviewed 2 of 2: alice, bob`,
/// `1 of 2 reviews: bob; needs 1 more`, `no review of this version`.
pub fn summary(count: usize, required: usize, reviewers: &[String]) -> String {
    let names = reviewers.join(", ");
    if count == 0 {
        "no review of this version".to_string()
    } else if count >= required {
        format!("reviewed {count} of {required}: {names}")
    } else {
        format!(
            "{count} of {required} reviews: {names}; needs {} more",
            required - count
        )
    }
}
