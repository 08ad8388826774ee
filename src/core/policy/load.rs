//! Reading a policy file, strictly. The reference accepts almost anything and
//! then crashes or silently denies when a malformed value is used
//! (policy-reference.md §2, §10.4); a gate that CI relies on has to refuse a
//! malformed policy up front instead, so every deviation from the schema is a
//! configuration error (exit 2) naming the file and the problem.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::classify::{canonical_path, fold_case, lexical_path};
use super::requests::RequestKind;
use super::sha256_hex;
use crate::core::env::Env;
use crate::core::json::{self, Json, quote_json_string};

/// The shipped default for the platform, embedded so that the gate works
/// without any file on disk and cannot be replaced by one in the repository
/// under review.
#[cfg(target_os = "macos")]
const DEFAULT_POLICY: (&str, &str) = (
    "default-macos.json",
    include_str!("../../../policies/default-macos.json"),
);
#[cfg(not(target_os = "macos"))]
const DEFAULT_POLICY: (&str, &str) = (
    "default-linux.json",
    include_str!("../../../policies/default-linux.json"),
);

const KEYS: [&str; 7] = [
    "approved_workspaces",
    "system_read_only_roots",
    "personal_data_roots",
    "denied_roots",
    "grants",
    "risk_to_level",
    "requests",
];

/// What a level's grant turns a decision into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    Allow,
    NeedsAuth,
    Deny,
}

impl Grant {
    pub fn as_str(self) -> &'static str {
        match self {
            Grant::Allow => "allow",
            Grant::NeedsAuth => "needs_auth",
            Grant::Deny => "deny",
        }
    }
}

/// Where the policy came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicySource {
    /// `--policy FILE`, resolved against the working directory.
    File(PathBuf),
    /// The embedded default, by its file name under `policies/`.
    Default(&'static str),
}

impl fmt::Display for PolicySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicySource::File(p) => write!(f, "{}", p.display()),
            PolicySource::Default(name) => write!(f, "<built-in {name}>"),
        }
    }
}

/// One root of a policy list, with both spellings a target is matched
/// against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// As written in the policy.
    pub written: String,
    /// `~` expanded, made absolute against the working directory, `.`/`..`
    /// and repeated separators removed.
    pub lexical: String,
    /// `lexical` with symlinks resolved (deepest existing ancestor).
    pub canonical: String,
}

impl Root {
    fn new(written: &str, lexical: String) -> Root {
        let canonical = canonical_path(&lexical).unwrap_or_else(|| lexical.clone());
        Root {
            written: written.to_string(),
            lexical: fold_case(&lexical),
            canonical: fold_case(&canonical),
        }
    }
}

/// A loaded, validated policy.
#[derive(Debug, Clone)]
pub struct Policy {
    pub source: PolicySource,
    /// SHA-256 of the policy file's bytes, recorded with every decision so
    /// that a decision never outlives a change to the policy.
    pub sha256: String,
    pub approved_workspaces: Vec<Root>,
    pub system_read_only_roots: Vec<Root>,
    pub personal_data_roots: Vec<Root>,
    /// The file's denied roots plus the trust store's directory.
    pub denied_roots: Vec<Root>,
    /// Level → grant.
    pub grants: BTreeMap<String, Grant>,
    /// Risk class → level, looked up exactly.
    pub risk_to_level: BTreeMap<String, String>,
    /// Request kind → risk class, overriding [`RequestKind::default_risk`].
    pub requests: BTreeMap<RequestKind, String>,
    /// The document as read, plus the store directory, for `policy show`.
    shown: Json,
}

/// A policy that cannot be used. `Display` is the whole message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    #[error("policy not found: {0}")]
    NotFound(String),
    #[error("policy invalid JSON: {path} ({problem})")]
    InvalidJson { path: String, problem: String },
    #[error("policy missing {key}: {path}")]
    Missing { path: String, key: &'static str },
    #[error("policy invalid: {path} ({problem})")]
    Invalid { path: String, problem: String },
}

/// Loads `--policy FILE` (relative to the working directory) or, without
/// one, the shipped default. `store_dir` (the trust store's directory) is
/// always added to the denied roots: a config asking to read or write the
/// store that decides its own trust must never be auto-trusted.
pub fn load_policy(file: Option<&str>, env: &Env, store_dir: &Path) -> Result<Policy, PolicyError> {
    match file {
        None => {
            let (name, text) = DEFAULT_POLICY;
            parse_policy(text.as_bytes(), PolicySource::Default(name), env, store_dir)
        }
        Some(file) => {
            let path = PathBuf::from(lexical_path(file, &env.cwd));
            let shown = path.display().to_string();
            let bytes = match crate::core::bounded::read_regular(
                &path,
                crate::core::bounded::POLICY_MAX_BYTES,
            ) {
                Ok(b) => b,
                Err(e) if e.kind() == Some(std::io::ErrorKind::NotFound) => {
                    return Err(PolicyError::NotFound(shown));
                }
                Err(e) => {
                    return Err(PolicyError::InvalidJson {
                        path: shown,
                        problem: e.describe(),
                    });
                }
            };
            parse_policy(&bytes, PolicySource::File(path), env, store_dir)
        }
    }
}

/// Validates a policy document. Relative roots resolve against `env.cwd`,
/// a leading `~` or `~/` against `env.home`.
pub fn parse_policy(
    bytes: &[u8],
    source: PolicySource,
    env: &Env,
    store_dir: &Path,
) -> Result<Policy, PolicyError> {
    let path = source.to_string();
    let bad_json = |problem: String| PolicyError::InvalidJson {
        path: path.clone(),
        problem,
    };
    let invalid = |problem: String| PolicyError::Invalid {
        path: path.clone(),
        problem,
    };
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return Err(bad_json("starts with a UTF-8 byte order mark".into()));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| bad_json(format!("not UTF-8: {e}")))?;
    let doc = json::parse(text).map_err(|e| bad_json(e.to_string()))?;
    let Json::Object(members) = &doc else {
        return Err(invalid("the top level must be an object".into()));
    };
    reject_duplicates(&doc).map_err(&invalid)?;
    for (key, _) in members {
        if !KEYS.contains(&key.as_str()) {
            return Err(invalid(format!(
                "unknown key {} (known keys: {})",
                quote_json_string(key),
                KEYS.join(", ")
            )));
        }
    }

    let root_list = |key: &str| -> Result<Vec<Root>, PolicyError> {
        match doc.get(key) {
            None => Ok(Vec::new()),
            Some(Json::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Json::String(s) if !s.is_empty() => resolve_root(s, env).map_err(&invalid),
                    _ => Err(invalid(format!(
                        "{key} must be an array of non-empty strings"
                    ))),
                })
                .collect(),
            Some(_) => Err(invalid(format!(
                "{key} must be an array of non-empty strings"
            ))),
        }
    };
    let approved_workspaces = root_list("approved_workspaces")?;
    let system_read_only_roots = root_list("system_read_only_roots")?;
    let personal_data_roots = root_list("personal_data_roots")?;
    let mut denied_roots = root_list("denied_roots")?;
    let mut store = store_dir.to_string_lossy().into_owned();
    if !store.is_empty() {
        let root = Root::new(&store, lexical_path(&store, &env.cwd));
        // Already listed (the defaults name `~/.config/goccia`): nothing to add.
        if denied_roots.iter().any(|r| r.lexical == root.lexical) {
            store.clear();
        } else {
            denied_roots.push(root);
        }
    }

    let string_map = |key: &'static str| -> Result<Vec<(String, String)>, PolicyError> {
        let members = match doc.get(key) {
            None => {
                return Err(PolicyError::Missing {
                    path: path.clone(),
                    key,
                });
            }
            Some(Json::Object(m)) => m,
            Some(_) => return Err(invalid(format!("{key} must be an object of strings"))),
        };
        members
            .iter()
            .map(|(k, v)| match v {
                Json::String(s) if !s.is_empty() => Ok((k.clone(), s.clone())),
                _ => Err(invalid(format!(
                    "{key}.{} must be a non-empty string",
                    quote_json_string(k)
                ))),
            })
            .collect()
    };

    let mut grants = BTreeMap::new();
    for (level, value) in string_map("grants")? {
        let grant = match value.as_str() {
            "allow" => Grant::Allow,
            "needs_auth" => Grant::NeedsAuth,
            "deny" => Grant::Deny,
            other => {
                return Err(invalid(format!(
                    "grant {} for {level} must be allow, needs_auth or deny",
                    quote_json_string(other)
                )));
            }
        };
        grants.insert(level, grant);
    }
    let risk_to_level: BTreeMap<String, String> =
        string_map("risk_to_level")?.into_iter().collect();

    let mut requests = BTreeMap::new();
    if doc.get("requests").is_some() {
        for (name, risk) in string_map("requests")? {
            let kind = RequestKind::from_name(&name).ok_or_else(|| {
                invalid(format!(
                    "requests: unknown request kind {} (known: {})",
                    quote_json_string(&name),
                    RequestKind::ALL.map(RequestKind::name).join(", ")
                ))
            })?;
            requests.insert(kind, risk);
        }
    }

    Ok(Policy {
        sha256: sha256_hex(bytes),
        source,
        approved_workspaces,
        system_read_only_roots,
        personal_data_roots,
        denied_roots,
        grants,
        risk_to_level,
        requests,
        shown: with_store_dir(doc.clone(), &store),
    })
}

/// Expands one root. Windows-shaped roots are refused rather than turned
/// into relative names under the working directory, which is what the
/// reference does with its shipped `C:\Users` (policy-reference.md §3).
fn resolve_root(written: &str, env: &Env) -> Result<Root, String> {
    let b = written.as_bytes();
    if written.contains('\\') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':') {
        return Err(format!(
            "root {} is a Windows path; this platform needs POSIX roots",
            quote_json_string(written)
        ));
    }
    let expanded = if written == "~" || written.starts_with("~/") {
        if !env.home.starts_with('/') {
            return Err(format!(
                "root {} needs $HOME, which is not an absolute path",
                quote_json_string(written)
            ));
        }
        format!("{}/{}", env.home, &written[1..])
    } else {
        written.to_string()
    };
    Ok(Root::new(written, lexical_path(&expanded, &env.cwd)))
}

fn reject_duplicates(value: &Json) -> Result<(), String> {
    match value {
        Json::Object(members) => {
            for (i, (key, v)) in members.iter().enumerate() {
                if members[..i].iter().any(|(k, _)| k == key) {
                    return Err(format!("duplicate key {}", quote_json_string(key)));
                }
                reject_duplicates(v)?;
            }
            Ok(())
        }
        Json::Array(items) => items.iter().try_for_each(reject_duplicates),
        _ => Ok(()),
    }
}

/// The document with the store directory appended to `denied_roots`, so
/// that `policy show` prints every root that is really in force.
fn with_store_dir(mut doc: Json, store: &str) -> Json {
    if store.is_empty() {
        return doc;
    }
    let entry = Json::String(store.to_string());
    if let Json::Object(members) = &mut doc {
        match members.iter_mut().find(|(k, _)| k == "denied_roots") {
            Some((_, Json::Array(items))) => {
                if !items.contains(&entry) {
                    items.push(entry);
                }
            }
            _ => members.push(("denied_roots".into(), Json::Array(vec![entry]))),
        }
    }
    doc
}

impl Policy {
    /// The policy in force as JSON, keys in document order: compact, or
    /// pretty with 2-space indentation (`JSON.stringify(o, null, 2)`).
    pub fn to_json(&self, pretty: bool) -> String {
        if !pretty {
            return self.shown.to_compact();
        }
        let mut out = String::new();
        write_pretty(&self.shown, 0, &mut out);
        out
    }

    /// Adds `dir` (relative to `env.cwd`) to the denied roots, and to what
    /// `policy show` prints, unless it is already one. Used for the
    /// decision records' state directory when judging config requests
    /// (policy-reference.md §11.5): a config that may write the audit trail
    /// of its own trust must never be auto-trusted.
    pub fn deny_also(&mut self, dir: &Path, env: &Env) {
        let written = dir.to_string_lossy().into_owned();
        if written.is_empty() {
            return;
        }
        let root = Root::new(&written, lexical_path(&written, &env.cwd));
        if self.denied_roots.iter().any(|r| r.lexical == root.lexical) {
            return;
        }
        self.denied_roots.push(root);
        self.shown = with_store_dir(std::mem::replace(&mut self.shown, Json::Null), &written);
    }

    /// The risk class a request kind is evaluated at.
    pub fn risk_for(&self, kind: RequestKind) -> String {
        self.requests
            .get(&kind)
            .cloned()
            .unwrap_or_else(|| kind.default_risk().to_string())
    }
}

fn write_pretty(value: &Json, depth: usize, out: &mut String) {
    let pad = |d: usize, out: &mut String| out.extend(std::iter::repeat_n("  ", d));
    match value {
        Json::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                pad(depth + 1, out);
                write_pretty(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            pad(depth, out);
            out.push(']');
        }
        Json::Object(members) if !members.is_empty() => {
            out.push_str("{\n");
            for (i, (key, v)) in members.iter().enumerate() {
                pad(depth + 1, out);
                out.push_str(&quote_json_string(key));
                out.push_str(": ");
                write_pretty(v, depth + 1, out);
                out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
            }
            pad(depth, out);
            out.push('}');
        }
        other => other.write_compact(out),
    }
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
