//! One review record: its strict parse, its line and its signed payload
//! (docs/src/signed-reviews.md#the-reviews-file).

use crate::core::config::json::{self, Json, quote_json_string_into};

/// A line longer than this is malformed.
pub const LINE_MAX_BYTES: usize = 16 << 10;
/// The longest note.
pub const NOTE_MAX_BYTES: usize = 1024;
/// The longest path.
pub const PATH_MAX_BYTES: usize = 4096;
/// The longest principal.
pub const PRINCIPAL_MAX_BYTES: usize = 256;
/// The longest armoured signature.
pub const SIG_MAX_BYTES: usize = 8 << 10;

/// The first line of every signed payload.
pub const PAYLOAD_HEADER: &str = "goccia-trust-review-v1";

const SIG_BEGIN: &str = "-----BEGIN SSH SIGNATURE-----\n";
const SIG_END: &str = "-----END SSH SIGNATURE-----\n";

/// The members of a record, in the byte order they are written in.
const MEMBERS: [&str; 8] = [
    "digest",
    "key",
    "note",
    "path",
    "principal",
    "sig",
    "signedAt",
    "v",
];

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Record {
    pub digest: String,
    pub key: String,
    pub note: String,
    pub path: String,
    pub principal: String,
    pub sig: String,
    pub signed_at: String,
}

impl Record {
    /// The exact bytes signed: the header line, then the compact JSON of
    /// every member but `sig` and `v`, then a newline.
    pub fn payload(&self) -> Vec<u8> {
        let mut out = String::with_capacity(256);
        out.push_str(PAYLOAD_HEADER);
        out.push('\n');
        self.push_members(&mut out, false);
        out.push('\n');
        out.into_bytes()
    }

    /// The record's line, members in byte order, without the newline.
    pub fn to_line(&self) -> String {
        let mut out = String::with_capacity(self.sig.len() + 256);
        self.push_members(&mut out, true);
        out
    }

    fn push_members(&self, out: &mut String, whole: bool) {
        let strings = [
            ("digest", &self.digest),
            ("key", &self.key),
            ("note", &self.note),
            ("path", &self.path),
            ("principal", &self.principal),
            ("sig", &self.sig),
            ("signedAt", &self.signed_at),
        ];
        out.push('{');
        let mut first = true;
        for (name, value) in strings {
            if name == "sig" && !whole {
                continue;
            }
            if !first {
                out.push(',');
            }
            first = false;
            quote_json_string_into(name, out);
            out.push(':');
            quote_json_string_into(value, out);
        }
        if whole {
            out.push_str(",\"v\":1");
        }
        out.push('}');
    }

    /// The order the writer keeps: (path, digest, principal, key).
    pub fn sort_key(&self) -> (&str, &str, &str, &str) {
        (&self.path, &self.digest, &self.principal, &self.key)
    }
}

/// What a line of the reviews file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// Blank or a `#` comment.
    Skipped,
    Record(Record),
    /// Not a record; the reason (`merge conflict marker`, or `not a review
    /// record (...)`).
    Malformed(String),
}

/// Whether a line is one git writes around a conflict.
pub fn is_conflict_marker(line: &str) -> bool {
    ["<<<<<<<", "=======", ">>>>>>>", "|||||||"]
        .iter()
        .any(|m| line.starts_with(m))
}

/// Reads one line (without its newline).
pub fn parse_line(line: &str) -> Line {
    if line.trim().is_empty() || line.starts_with('#') {
        return Line::Skipped;
    }
    if is_conflict_marker(line) {
        return Line::Malformed("merge conflict marker".to_string());
    }
    match parse_record(line) {
        Ok(record) => Line::Record(record),
        Err(why) => Line::Malformed(format!("not a review record ({why})")),
    }
}

/// A record, strictly: exactly the eight members, each of its type and form.
pub fn parse_record(line: &str) -> Result<Record, String> {
    if line.len() > LINE_MAX_BYTES {
        return Err("over the 16 KiB line limit".to_string());
    }
    let value = json::parse(line).map_err(|e| e.message)?;
    let Json::Object(members) = value else {
        return Err("not a JSON object".to_string());
    };
    let mut found: [Option<&Json>; 8] = [None; 8];
    for (name, value) in &members {
        let Some(i) = MEMBERS.iter().position(|m| m == name) else {
            return Err(format!("unknown member {}", json::quote_json_string(name)));
        };
        if found[i].replace(value).is_some() {
            return Err(format!("member {name} twice"));
        }
    }
    let text = |i: usize| -> Result<String, String> {
        match found[i] {
            Some(Json::String(s)) => Ok(s.clone()),
            Some(_) => Err(format!("{} is not a string", MEMBERS[i])),
            None => Err(format!("no {}", MEMBERS[i])),
        }
    };
    match found[7] {
        Some(Json::Number(n)) if n == "1" => {}
        Some(_) => return Err("v is not 1".to_string()),
        None => return Err("no v".to_string()),
    }
    let record = Record {
        digest: text(0)?,
        key: text(1)?,
        note: text(2)?,
        path: text(3)?,
        principal: text(4)?,
        sig: text(5)?,
        signed_at: text(6)?,
    };
    check_members(&record)?;
    Ok(record)
}

/// The form of each member.
pub fn check_members(r: &Record) -> Result<(), String> {
    if !is_digest(&r.digest) {
        return Err("digest is not sha256: and 64 lower-case hex digits".to_string());
    }
    if !is_fingerprint(&r.key) {
        return Err("key is not a SHA256: fingerprint".to_string());
    }
    if r.note.len() > NOTE_MAX_BYTES {
        return Err("note over 1,024 bytes".to_string());
    }
    if !is_repo_path(&r.path) {
        return Err("path is not a repository-relative path".to_string());
    }
    if !is_principal(&r.principal) {
        return Err("principal is empty, too long or holds a space or control".to_string());
    }
    if r.sig.len() > SIG_MAX_BYTES || !r.sig.starts_with(SIG_BEGIN) || !r.sig.ends_with(SIG_END) {
        return Err("sig is not an armoured SSH signature".to_string());
    }
    if parse_signed_at(&r.signed_at).is_none() {
        return Err("signedAt is not YYYY-MM-DDTHH:MM:SSZ".to_string());
    }
    Ok(())
}

fn is_digest(s: &str) -> bool {
    s.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

/// `SHA256:` + 43 characters of unpadded base64, as `ssh-keygen -l` prints.
pub fn is_fingerprint(s: &str) -> bool {
    s.strip_prefix("SHA256:").is_some_and(|b64| {
        b64.len() == 43
            && b64
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
    })
}

fn is_repo_path(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= PATH_MAX_BYTES
        && s.split('/').all(|c| !c.is_empty() && c != "." && c != "..")
}

/// 1–256 bytes, no space or control character.
pub fn is_principal(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= PRINCIPAL_MAX_BYTES
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// `YYYY-MM-DDTHH:MM:SSZ` as seconds since the epoch.
pub fn parse_signed_at(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let shape = b.len() == 20
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            10 => c == b'T',
            13 | 16 => c == b':',
            19 => c == b'Z',
            _ => c.is_ascii_digit(),
        });
    if !shape {
        return None;
    }
    s.parse::<jiff::Timestamp>().ok().map(|t| t.as_second())
}
