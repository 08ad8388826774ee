//! The verifier's allowed signers (OpenSSH's allowed_signers format, the
//! file git's `gpg.ssh.allowedSignersFile` names) and revoked keys, parsed
//! strictly (docs/src/signed-reviews.md#allowed-signers).
//!
//! Unlike `ssh-keygen`, which skips a line it cannot read, a malformed line
//! is an error naming `FILE:LINE`: a mistyped revocation or validity must
//! not pass silently. And unlike known_hosts, `@revoked` is no marker here
//! (`ssh-keygen` and git would read it as a principal and allow the key), so
//! a principal starting with `@` is an error too.

use ssh_key::{HashAlg, PublicKey};

use super::NAMESPACE;

/// Key types a review may be signed with.
pub const ACCEPTED_TYPES: [&str; 4] = [
    "ssh-ed25519",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "sk-ssh-ed25519@openssh.com",
];

/// Key types this version does not verify: their lines are skipped with a
/// warning (fewer keys never widen trust). RSA is left out: the `rsa`
/// crate's open advisory and its crates are not worth it yet.
const SKIPPED_TYPES: [&str; 5] = [
    "ssh-rsa",
    "ssh-dss",
    "ecdsa-sha2-nistp521",
    "sk-ecdsa-sha2-nistp256@openssh.com",
    "rsa-sha2-512",
];

/// One usable line of an allowed_signers file.
#[derive(Debug, Clone)]
pub struct Signer {
    /// The comma-separated pattern-list, as written.
    pub principals: String,
    /// The `namespaces="…"` pattern-list, if any.
    pub namespaces: Option<String>,
    /// Seconds since the epoch.
    pub valid_after: Option<i64>,
    pub valid_before: Option<i64>,
    /// `SHA256:…`: the key, as records name it.
    pub fingerprint: String,
}

impl Signer {
    /// Whether this line allows `principal` (OpenSSH's pattern-list rule:
    /// a matching `!pattern` refuses, else any matching pattern allows).
    pub fn allows_principal(&self, principal: &str) -> bool {
        match_pattern_list(principal, &self.principals)
    }

    /// Whether this line allows the review namespace.
    pub fn allows_namespace(&self) -> bool {
        self.namespaces
            .as_deref()
            .is_none_or(|n| match_pattern_list(NAMESPACE, n))
    }
}

/// A parsed allowed_signers file.
#[derive(Debug, Clone, Default)]
pub struct AllowedSigners {
    /// As named on the command line (shown in messages).
    pub file: String,
    /// Lower-case hex SHA-256 of the file's bytes.
    pub sha256: String,
    pub signers: Vec<Signer>,
    /// Lines skipped, each a warning (`FILE:LINE: ...`).
    pub warnings: Vec<String>,
}

impl AllowedSigners {
    /// The number of distinct keys listed.
    pub fn distinct_keys(&self) -> usize {
        let mut keys: Vec<&str> = self
            .signers
            .iter()
            .map(|s| s.fingerprint.as_str())
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.len()
    }
}

/// A line that makes the whole file unusable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignersError(pub String);

impl std::fmt::Display for SignersError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses an allowed_signers file's text; `file` names it in messages.
pub fn parse_allowed_signers(file: &str, text: &[u8]) -> Result<AllowedSigners, SignersError> {
    let sha256 = crate::core::config::block::sha256_hex(text);
    let text =
        std::str::from_utf8(text).map_err(|_| SignersError(format!("{file}: not UTF-8 text")))?;
    let mut out = AllowedSigners {
        file: file.to_string(),
        sha256,
        ..AllowedSigners::default()
    };
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why: String| SignersError(format!("{file}:{n}: {why}"));
        match parse_signer_line(line).map_err(at)? {
            Parsed::Signer(s) => out.signers.push(*s),
            Parsed::Skipped(why) => out.warnings.push(format!("{file}:{n}: {why}")),
        }
    }
    Ok(out)
}

enum Parsed {
    Signer(Box<Signer>),
    Skipped(String),
}

/// `principals [options] keytype base64 [comment]`.
fn parse_signer_line(line: &str) -> Result<Parsed, String> {
    let mut words = Words { rest: line };
    let principals = words.next()?.ok_or("no principals")?;
    if principals.starts_with('@') {
        return Err(
            "@revoked is no allowed_signers marker; ssh-keygen and git would \
             allow that key: use --revoked FILE"
                .to_string(),
        );
    }
    if principals.is_empty() || principals.split(',').any(str::is_empty) {
        return Err("an empty principal".to_string());
    }
    let mut word = words.next()?.ok_or("no key")?;
    let mut options = Options::default();
    if !is_key_type(&word) {
        options = parse_options(&word)?;
        word = words.next()?.ok_or("no key")?;
    }
    if options.cert_authority {
        return Ok(Parsed::Skipped(
            "cert-authority line skipped (certificates are not supported yet)".to_string(),
        ));
    }
    if SKIPPED_TYPES.contains(&word.as_str()) || word.ends_with("-cert-v01@openssh.com") {
        return Ok(Parsed::Skipped(format!(
            "{word} key skipped (not supported: ed25519, ecdsa P-256/P-384 and sk-ed25519 are)"
        )));
    }
    if !ACCEPTED_TYPES.contains(&word.as_str()) {
        return Err(format!("unknown key type {word:?}"));
    }
    let base64 = words.next()?.ok_or("no key after the key type")?;
    let key = PublicKey::from_openssh(&format!("{word} {base64}"))
        .map_err(|e| format!("not a {word} key ({e})"))?;
    Ok(Parsed::Signer(Box::new(Signer {
        principals,
        namespaces: options.namespaces,
        valid_after: options.valid_after,
        valid_before: options.valid_before,
        fingerprint: key.fingerprint(HashAlg::Sha256).to_string(),
    })))
}

fn is_key_type(word: &str) -> bool {
    ACCEPTED_TYPES.contains(&word)
        || SKIPPED_TYPES.contains(&word)
        || word.ends_with("-cert-v01@openssh.com")
}

#[derive(Default)]
struct Options {
    cert_authority: bool,
    namespaces: Option<String>,
    valid_after: Option<i64>,
    valid_before: Option<i64>,
}

/// `cert-authority`, `namespaces="…"`, `valid-after="…"`,
/// `valid-before="…"`, comma-separated; any other option is an error.
fn parse_options(word: &str) -> Result<Options, String> {
    let mut options = Options::default();
    for option in split_options(word)? {
        let (name, value) = match option.split_once('=') {
            Some((name, value)) => (name.to_ascii_lowercase(), Some(dequote(value)?)),
            None => (option.to_ascii_lowercase(), None),
        };
        match (name.as_str(), value) {
            ("cert-authority", None) => options.cert_authority = true,
            ("namespaces", Some(v)) => options.namespaces = Some(v),
            ("valid-after", Some(v)) => options.valid_after = Some(parse_validity(&v)?),
            ("valid-before", Some(v)) => options.valid_before = Some(parse_validity(&v)?),
            _ => return Err(format!("unknown option {option:?}")),
        }
    }
    Ok(options)
}

/// Options split at commas outside quotes.
fn split_options(word: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in word.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ',' if !quoted => out.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    if quoted {
        return Err("an unterminated quote".to_string());
    }
    out.push(current);
    if out.iter().any(String::is_empty) {
        return Err("an empty option".to_string());
    }
    Ok(out)
}

fn dequote(value: &str) -> Result<String, String> {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .filter(|v| !v.contains('"'))
        .map(str::to_string)
        .ok_or_else(|| format!("option value {value} is not quoted"))
}

/// Whitespace-separated words; a word may hold quoted spaces.
struct Words<'a> {
    rest: &'a str,
}

impl Words<'_> {
    fn next(&mut self) -> Result<Option<String>, String> {
        let rest = self.rest.trim_start();
        if rest.is_empty() {
            return Ok(None);
        }
        let mut quoted = false;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '"' => quoted = !quoted,
                c if c.is_whitespace() && !quoted => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        if quoted {
            return Err("an unterminated quote".to_string());
        }
        let word = &rest[..end];
        self.rest = &rest[end..];
        let word = match word.strip_prefix('"').and_then(|w| w.strip_suffix('"')) {
            Some(inner) if !inner.contains('"') && !word.contains(',') => inner,
            _ => word,
        };
        Ok(Some(word.to_string()))
    }
}

/// `YYYYMMDD[Z]` or `YYYYMMDDHHMM[SS][Z]`: UTC with `Z`, else local time,
/// as OpenSSH reads them; seconds since the epoch.
pub fn parse_validity(v: &str) -> Result<i64, String> {
    let bad = || format!("{v:?} is not YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z]");
    let (digits, utc) = match v.strip_suffix(['Z', 'z']) {
        Some(d) => (d, true),
        None => (v, false),
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) || ![8, 12, 14].contains(&digits.len()) {
        return Err(bad());
    }
    let num =
        |r: std::ops::Range<usize>| digits.get(r).map_or(0, |s| s.parse::<i32>().unwrap_or(0));
    let (y, mo, d) = (num(0..4), num(4..6), num(6..8));
    let (h, mi, s) = (num(8..10), num(10..12), num(12..14));
    let civil =
        jiff::civil::DateTime::new(y as i16, mo as i8, d as i8, h as i8, mi as i8, s as i8, 0)
            .map_err(|_| bad())?;
    match utc {
        true => utc_seconds(civil).ok_or_else(bad),
        false => local_seconds(civil).ok_or_else(|| local_refused(v, bad())),
    }
}

/// Why a local time (no `Z`) was not read: on a system without the C
/// library's time zone it could not be told which instant it names, and
/// reading it as UTC could admit a key hours outside its window.
fn local_refused(v: &str, bad: String) -> String {
    match cfg!(unix) {
        true => bad,
        false => format!(
            "{v:?} is a local time, which this system cannot read; write it in UTC with a Z"
        ),
    }
}

/// A civil time read as UTC, as seconds since the epoch.
fn utc_seconds(civil: jiff::civil::DateTime) -> Option<i64> {
    jiff::tz::Offset::UTC
        .to_timestamp(civil)
        .ok()
        .map(|t| t.as_second())
}

/// A local civil time as seconds since the epoch (`mktime`, as OpenSSH).
#[cfg(unix)]
fn local_seconds(civil: jiff::civil::DateTime) -> Option<i64> {
    // SAFETY: a zeroed `tm` is a valid value (integers and a null zone
    // name), set here and owned here; mktime only reads and normalizes it.
    let t = unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        tm.tm_year = i32::from(civil.year()) - 1900;
        tm.tm_mon = i32::from(civil.month()) - 1;
        tm.tm_mday = i32::from(civil.day());
        tm.tm_hour = i32::from(civil.hour());
        tm.tm_min = i32::from(civil.minute());
        tm.tm_sec = i32::from(civil.second());
        tm.tm_isdst = -1;
        libc::mktime(&mut tm)
    };
    (t != -1).then_some(t as i64)
}

/// Without a C library's time zone a local time is not read (fail closed:
/// `local_refused` says why).
#[cfg(not(unix))]
fn local_seconds(_civil: jiff::civil::DateTime) -> Option<i64> {
    None
}

/// OpenSSH's `match_pattern_list` (case-sensitive): a negated pattern that
/// matches refuses at once; otherwise any matching pattern allows.
pub fn match_pattern_list(s: &str, list: &str) -> bool {
    let mut allowed = false;
    for pattern in list.split(',') {
        match pattern.strip_prefix('!') {
            Some(negated) if match_pattern(s, negated) => return false,
            Some(_) => {}
            None if match_pattern(s, pattern) => allowed = true,
            None => {}
        }
    }
    allowed
}

/// `*` any run, `?` any one character.
fn match_pattern(s: &str, pattern: &str) -> bool {
    let s: Vec<char> = s.chars().collect();
    let p: Vec<char> = pattern.chars().collect();
    let (mut i, mut j) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while i < s.len() {
        if j < p.len() && (p[j] == '?' || p[j] == s[i]) {
            i += 1;
            j += 1;
        } else if j < p.len() && p[j] == '*' {
            star = Some(j);
            mark = i;
            j += 1;
        } else if let Some(st) = star {
            j = st + 1;
            mark += 1;
            i = mark;
        } else {
            return false;
        }
    }
    p[j..].iter().all(|&c| c == '*')
}

/// Revoked keys, by fingerprint (`--revoked FILE`: public keys one a line,
/// as `ssh-keygen -Y verify -r` and git's `gpg.ssh.revocationKeyring` take).
#[derive(Debug, Clone, Default)]
pub struct Revoked {
    pub fingerprints: Vec<String>,
}

impl Revoked {
    pub fn contains(&self, fingerprint: &str) -> bool {
        self.fingerprints.iter().any(|f| f == fingerprint)
    }
}

/// Parses a revoked-keys file; a binary KRL or a line that is not a public
/// key is an error naming `FILE:LINE`.
pub fn parse_revoked(file: &str, text: &[u8]) -> Result<Revoked, SignersError> {
    if text.starts_with(b"SSHKRL\n") {
        return Err(SignersError(format!(
            "{file}: a binary KRL is not supported; list the revoked public keys one a line"
        )));
    }
    let text =
        std::str::from_utf8(text).map_err(|_| SignersError(format!("{file}: not UTF-8 text")))?;
    let mut out = Revoked::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let key = PublicKey::from_openssh(line)
            .map_err(|e| SignersError(format!("{file}:{}: not a public key ({e})", i + 1)))?;
        out.fingerprints
            .push(key.fingerprint(HashAlg::Sha256).to_string());
    }
    Ok(out)
}

/// Where an allowed_signers (or revoked keys) file may come from to judge
/// the trees under review: outside them, links resolved, writable only by
/// its owner, owned by the user or root. `what` names it in messages
/// (`allowed signers`, `revoked keys`).
pub fn check_location(what: &str, file: &str, trees: &[String]) -> Result<(), SignersError> {
    let real =
        std::fs::canonicalize(file).map_err(|e| SignersError(format!("{what} {file}: {e}")))?;
    let real_text = real.to_string_lossy();
    for tree in trees {
        let real_tree = std::fs::canonicalize(tree)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| tree.clone());
        if crate::core::paths::key::is_under(&real_text, &real_tree)
            || crate::core::paths::key::is_under(file, tree)
        {
            return Err(SignersError(format!(
                "{what} {file} lies inside {tree}, a tree under review; keep it outside the reviewed tree (or pin it with --reviewed-by-sha256)"
            )));
        }
    }
    let meta = std::fs::metadata(&real).map_err(|e| SignersError(format!("{what} {file}: {e}")))?;
    owner_and_mode(what, file, &meta)
}

#[cfg(unix)]
fn owner_and_mode(what: &str, file: &str, meta: &std::fs::Metadata) -> Result<(), SignersError> {
    use std::os::unix::fs::MetadataExt;
    let mode = meta.mode() & 0o7777;
    let who = match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => Some("group and others"),
        (true, false) => Some("its group"),
        (false, true) => Some("others"),
        (false, false) => None,
    };
    if let Some(who) = who {
        return Err(SignersError(format!(
            "{what} {file} is writable by {who} (mode {mode:04o}); run chmod go-w {file}"
        )));
    }
    let me = rustix::process::geteuid().as_raw();
    if meta.uid() != me && meta.uid() != 0 {
        return Err(SignersError(format!(
            "{what} {file} is owned by uid {}, neither you nor root; use a file of your own",
            meta.uid()
        )));
    }
    Ok(())
}

/// Windows has no permission bits to judge: the file's place protects it.
#[cfg(not(unix))]
fn owner_and_mode(_: &str, _: &str, _: &std::fs::Metadata) -> Result<(), SignersError> {
    Ok(())
}
