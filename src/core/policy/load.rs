//! Reading a policy file, strictly. The reference accepts almost anything and
//! then crashes or silently denies when a malformed value is used
//! (docs/src/compatibility.md#reference-loading-a-policy, #strict-policy-loading); a gate that CI relies on has to refuse a
//! malformed policy up front instead, so every deviation from the schema is a
//! configuration error (exit 2) naming the file and the problem.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::kind::RequestKind;
pub use super::root::{Grant, Root};
use super::rules::{Outcome, Rule, check_conflicts};
use super::target::{canonical_path, contains, fold_case, lexical_path};
use crate::core::config::block::sha256_hex;
use crate::core::config::json::{self, Json, quote_json_string};
use crate::core::env::Env;

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

const KEYS: [&str; 9] = [
    "schema_version",
    "approved_workspaces",
    "system_read_only_roots",
    "personal_data_roots",
    "denied_roots",
    "grants",
    "risk_to_level",
    "requests",
    "rules",
];

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

/// What a policy is loaded for, and what its relative roots mean.
#[derive(Debug, Clone, Copy)]
pub struct LoadContext<'a> {
    pub env: &'a Env,
    /// The directories `.` and every other relative root resolve against; a
    /// relative root stands for one root per anchor. For config requests,
    /// the trees under review ([`crate::core::paths::reviewed::trees_under_review`]); for
    /// the `policy` verbs, the policy file's directory, or for the built-in
    /// policy the `--workspace` directory. Never the working directory by
    /// accident.
    pub anchors: &'a [String],
    /// The trust store's directory, always a denied root (empty: no store).
    pub store_dir: &'a Path,
    /// The decision records' directory, which no approved workspace may
    /// cover (`None`: none can be located).
    pub state_dir: Option<&'a Path>,
}

/// A loaded, validated policy.
#[derive(Debug, Clone)]
pub struct Policy {
    pub source: PolicySource,
    /// What `.` and the other relative roots were resolved against.
    pub anchors: Vec<String>,
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
    /// Per-value rules (`rules`), in document order.
    pub rules: Vec<Rule>,
    /// The document as read, plus the store directory, for `policy show`.
    shown: Json,
}

/// A policy that cannot be used. `Display` is the whole message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    #[error("policy not found: {0}")]
    NotFound(String),
    /// The file is there but cannot be opened or read (`permission
    /// denied`).
    #[error("policy not readable: {path} ({cause})")]
    NotReadable { path: String, cause: String },
    /// A directory, a FIFO, a device: never opened for reading.
    #[error("policy not a regular file: {path} ({kind})")]
    NotRegular { path: String, kind: &'static str },
    #[error("policy invalid JSON: {path} ({problem})")]
    InvalidJson { path: String, problem: String },
    #[error("policy missing {key}: {path}")]
    Missing { path: String, key: &'static str },
    #[error("policy invalid: {path} ({problem})")]
    Invalid { path: String, problem: String },
    /// An approved workspace that would approve what the policy protects.
    #[error(
        "policy too broad: {path} (approved workspace {written} resolves to {resolved}, {why})"
    )]
    TooBroad {
        path: String,
        written: String,
        resolved: String,
        why: String,
    },
}

/// `--policy FILE` as a path: relative to the working directory.
pub fn policy_path(file: &str, env: &Env) -> PathBuf {
    PathBuf::from(lexical_path(file, &env.cwd))
}

/// Loads `--policy FILE` (relative to the working directory) or, without
/// one, the shipped default, anchored as `ctx` says, and refuses it when an
/// approved workspace is too broad ([`Policy::check_breadth`]). The trust
/// store's directory is always added to the denied roots: a config asking
/// to read or write the store that decides its own trust must never be
/// auto-trusted.
pub fn load_policy(file: Option<&str>, ctx: &LoadContext<'_>) -> Result<Policy, PolicyError> {
    let policy = read_policy(file, ctx)?;
    policy.check_breadth(ctx)?;
    Ok(policy)
}

fn read_policy(file: Option<&str>, ctx: &LoadContext<'_>) -> Result<Policy, PolicyError> {
    let (env, anchors, store_dir) = (ctx.env, ctx.anchors, ctx.store_dir);
    match file {
        None => {
            let (name, text) = DEFAULT_POLICY;
            parse_policy(
                text.as_bytes(),
                PolicySource::Default(name),
                env,
                anchors,
                store_dir,
            )
        }
        Some(file) => {
            let path = policy_path(file, env);
            let shown = path.display().to_string();
            let bytes = match crate::core::paths::bounded::read_regular(
                &path,
                crate::core::paths::bounded::POLICY_MAX_BYTES,
            ) {
                Ok(b) => b,
                Err(e) => return Err(unread(e, shown)),
            };
            parse_policy(&bytes, PolicySource::File(path), env, anchors, store_dir)
        }
    }
}

/// Why the policy file at `shown` was not read.
fn unread(e: crate::core::paths::bounded::ReadError, shown: String) -> PolicyError {
    use crate::core::paths::bounded::{ReadError, io_reason};
    if let Some(kind) = e.not_regular() {
        return PolicyError::NotRegular { path: shown, kind };
    }
    match e {
        ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
            PolicyError::NotFound(shown)
        }
        ReadError::Io(e) => PolicyError::NotReadable {
            path: shown,
            cause: io_reason(&e),
        },
        other => PolicyError::Invalid {
            path: shown,
            problem: other.describe(),
        },
    }
}

/// Validates a policy document. A relative root stands for one root per
/// anchor; a leading `~` or `~/` resolves against `env.home`.
pub fn parse_policy(
    bytes: &[u8],
    source: PolicySource,
    env: &Env,
    anchors: &[String],
    store_dir: &Path,
) -> Result<Policy, PolicyError> {
    let path = source.to_string();
    let doc = read_document(bytes, &path)?;
    let reading = Reading {
        path,
        doc: &doc,
        env,
        anchors,
    };
    let approved_workspaces = reading.root_list("approved_workspaces")?;
    let system_read_only_roots = reading.root_list("system_read_only_roots")?;
    let personal_data_roots = reading.root_list("personal_data_roots")?;
    let mut denied_roots = reading.root_list("denied_roots")?;
    let store = deny_store_dir(&mut denied_roots, store_dir, env);
    let grants = reading.grants()?;
    let risk_to_level: BTreeMap<String, String> =
        reading.string_map("risk_to_level")?.into_iter().collect();
    let requests = reading.requests()?;
    let rules = reading.rules(&risk_to_level)?;
    Ok(Policy {
        rules,
        sha256: sha256_hex(bytes),
        anchors: anchors.to_vec(),
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

/// The policy file's JSON document, checked as a whole: UTF-8 without a
/// byte order mark, JSON, an object without duplicate or unknown keys, and
/// a string `schema_version` if any.
fn read_document(bytes: &[u8], path: &str) -> Result<Json, PolicyError> {
    let bad_json = |problem: String| PolicyError::InvalidJson {
        path: path.to_string(),
        problem,
    };
    let invalid = |problem: String| PolicyError::Invalid {
        path: path.to_string(),
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
    // The seed's own tooling stamps its policy files with a version string;
    // it changes nothing here, but anything else there is a mistake.
    match doc.get("schema_version") {
        None | Some(Json::String(_)) => {}
        Some(_) => return Err(invalid("schema_version must be a string".into())),
    }
    Ok(doc)
}

/// The trust store's directory, always a denied root: added to
/// `denied_roots` unless already listed (the defaults name
/// `~/.config/goccia`). Returns it as added, empty when not added (or when
/// there is no store directory), for the policy as shown.
fn deny_store_dir(denied_roots: &mut Vec<Root>, store_dir: &Path, env: &Env) -> String {
    let mut store = store_dir.to_string_lossy().into_owned();
    if !store.is_empty() {
        let root = Root::new(&store, lexical_path(&store, &env.cwd));
        if denied_roots.iter().any(|r| r.lexical == root.lexical) {
            store.clear();
        } else {
            denied_roots.push(root);
        }
    }
    store
}

/// One policy document being validated, member by member; every problem
/// names the file (`path`).
struct Reading<'a> {
    path: String,
    doc: &'a Json,
    env: &'a Env,
    anchors: &'a [String],
}

impl Reading<'_> {
    fn invalid(&self, problem: String) -> PolicyError {
        PolicyError::Invalid {
            path: self.path.clone(),
            problem,
        }
    }

    /// A list of roots (absent: none), each resolved.
    fn root_list(&self, key: &str) -> Result<Vec<Root>, PolicyError> {
        let not_strings = || self.invalid(format!("{key} must be an array of non-empty strings"));
        match self.doc.get(key) {
            None => Ok(Vec::new()),
            Some(Json::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Json::String(s) if !s.is_empty() => {
                        resolve_root(s, self.env, self.anchors).map_err(|e| self.invalid(e))
                    }
                    _ => Err(not_strings()),
                })
                .collect::<Result<Vec<Vec<Root>>, _>>()
                .map(|roots| roots.into_iter().flatten().collect()),
            Some(_) => Err(not_strings()),
        }
    }

    /// A required object of non-empty strings, in the file's order.
    fn string_map(&self, key: &'static str) -> Result<Vec<(String, String)>, PolicyError> {
        let members = match self.doc.get(key) {
            None => {
                return Err(PolicyError::Missing {
                    path: self.path.clone(),
                    key,
                });
            }
            Some(Json::Object(m)) => m,
            Some(_) => return Err(self.invalid(format!("{key} must be an object of strings"))),
        };
        members
            .iter()
            .map(|(k, v)| match v {
                Json::String(s) if !s.is_empty() => Ok((k.clone(), s.clone())),
                _ => Err(self.invalid(format!(
                    "{key}.{} must be a non-empty string",
                    quote_json_string(k)
                ))),
            })
            .collect()
    }

    /// `grants`: level -> allow, needs_auth or deny.
    fn grants(&self) -> Result<BTreeMap<String, Grant>, PolicyError> {
        let mut grants = BTreeMap::new();
        for (level, value) in self.string_map("grants")? {
            let grant = match value.as_str() {
                "allow" => Grant::Allow,
                "needs_auth" => Grant::NeedsAuth,
                "deny" => Grant::Deny,
                other => {
                    return Err(self.invalid(format!(
                        "grant {} for {level} must be allow, needs_auth or deny",
                        quote_json_string(other)
                    )));
                }
            };
            grants.insert(level, grant);
        }
        Ok(grants)
    }

    /// A request kind named in `section` (`requests`, `rules`).
    fn kind(&self, section: &str, name: &str) -> Result<RequestKind, PolicyError> {
        RequestKind::from_name(name).ok_or_else(|| {
            self.invalid(format!(
                "{section}: unknown request kind {} (known: {})",
                quote_json_string(name),
                RequestKind::ALL.map(RequestKind::name).join(", ")
            ))
        })
    }

    /// `requests` (optional): request kind -> risk class.
    fn requests(&self) -> Result<BTreeMap<RequestKind, String>, PolicyError> {
        let mut requests = BTreeMap::new();
        if self.doc.get("requests").is_some() {
            for (name, risk) in self.string_map("requests")? {
                requests.insert(self.kind("requests", &name)?, risk);
            }
        }
        Ok(requests)
    }

    /// `rules` (optional): request kind -> pattern -> risk class or verdict,
    /// without conflicting rules.
    fn rules(&self, risk_to_level: &BTreeMap<String, String>) -> Result<Vec<Rule>, PolicyError> {
        let kinds = match self.doc.get("rules") {
            None => return Ok(Vec::new()),
            Some(Json::Object(kinds)) => kinds,
            Some(_) => {
                return Err(
                    self.invalid("rules must be an object, request kind -> patterns".into())
                );
            }
        };
        let mut rules = Vec::new();
        for (name, patterns) in kinds {
            let kind = self.kind("rules", name)?;
            let Json::Object(patterns) = patterns else {
                return Err(self.invalid(format!(
                    "rules.{} must be an object, pattern -> risk class or allow, needs_auth, deny",
                    quote_json_string(name)
                )));
            };
            for (pattern, value) in patterns {
                let outcome = self.rule_outcome(name, pattern, value, risk_to_level)?;
                let resolve = |p: &str| resolve_root(p, self.env, self.anchors);
                let rule = Rule::parse(kind, pattern, outcome, &resolve);
                rules.push(rule.map_err(|e| self.invalid(e))?);
            }
        }
        check_conflicts(&rules).map_err(|e| self.invalid(e))?;
        Ok(rules)
    }

    /// What the rule `name` `pattern` maps to: a verdict, or a risk class
    /// of `risk_to_level`.
    fn rule_outcome(
        &self,
        name: &str,
        pattern: &str,
        value: &Json,
        risk_to_level: &BTreeMap<String, String>,
    ) -> Result<Outcome, PolicyError> {
        let Json::String(v) = value else {
            return Err(self.invalid(format!(
                "rule {name} {} must map to a string",
                quote_json_string(pattern)
            )));
        };
        Ok(match v.as_str() {
            "allow" => Outcome::Verdict(Grant::Allow),
            "needs_auth" => Outcome::Verdict(Grant::NeedsAuth),
            "deny" => Outcome::Verdict(Grant::Deny),
            risk if risk_to_level.contains_key(risk) => Outcome::Risk(risk.to_string()),
            other => {
                return Err(self.invalid(format!(
                    "rule {name} {} maps to {}, neither a risk class of risk_to_level nor allow, needs_auth or deny",
                    quote_json_string(pattern),
                    quote_json_string(other)
                )));
            }
        })
    }
}

/// Expands one root: a fixed one (absolute, `~`) to itself, a relative one to
/// one root per anchor. Windows-shaped roots are refused rather than turned
/// into relative names, which is what the reference does with its shipped
/// `C:\Users` (docs/src/compatibility.md#reference-the-path-model).
fn resolve_root(written: &str, env: &Env, anchors: &[String]) -> Result<Vec<Root>, String> {
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
    if expanded.starts_with('/') {
        return Ok(vec![Root::new(written, lexical_path(&expanded, "/"))]);
    }
    if anchors.is_empty() {
        return Err(format!(
            "relative root {} has nothing to resolve against",
            quote_json_string(written)
        ));
    }
    Ok(anchors
        .iter()
        .map(|anchor| Root::new(written, lexical_path(&expanded, anchor)))
        .collect())
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
    /// (docs/src/compatibility.md#no-approval-from-the-environment): a config that may write the audit trail
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

    /// Every root in force with the list it belongs to, in the order
    /// `policy show` prints them.
    pub fn roots(&self) -> Vec<(&'static str, &Root)> {
        let lists: [(&'static str, &Vec<Root>); 4] = [
            ("approved_workspaces", &self.approved_workspaces),
            ("system_read_only_roots", &self.system_read_only_roots),
            ("personal_data_roots", &self.personal_data_roots),
            ("denied_roots", &self.denied_roots),
        ];
        lists
            .into_iter()
            .flat_map(|(name, roots)| roots.iter().map(move |r| (name, r)))
            .collect()
    }

    /// Refuses an approved workspace that would widen what the policy
    /// allows: `/`, `$HOME`, or an ancestor of (or the same directory as) a
    /// fixed personal or system root, the trust store's directory or the
    /// decision records' directory. An approved workspace outranks personal
    /// and system roots, so such a workspace silently turns them into
    /// workspace; `.` resolved from `/` or `$HOME` is the classic way to get
    /// one. The store and the records are denied roots, which outrank any
    /// workspace, but a workspace holding the files that decide trust is
    /// refused all the same. A denied root inside a workspace is not a
    /// conflict in any spelling: denied roots outrank approved workspaces,
    /// so it is a carve-out that narrows the workspace.
    pub fn check_breadth(&self, ctx: &LoadContext<'_>) -> Result<(), PolicyError> {
        // (what it is, why covering it widens, lexical, canonical)
        let mut protected: Vec<(String, &'static str, String, String)> = Vec::new();
        let mut protect = |what: String, why: &'static str, lexical: &str| {
            let canonical = canonical_path(lexical).unwrap_or_else(|| lexical.to_string());
            protected.push((what, why, fold_case(lexical), fold_case(&canonical)));
        };
        const OUTRANKS_PERSONAL: &str =
            "an approved workspace outranks personal data and system roots";
        const DECIDES_TRUST: &str = "denied roots outrank an approved workspace, \
             but a workspace must not hold what decides trust";
        // Named by what they are: `$HOME` first, then the store and
        // records' directories (which are also denied roots).
        if ctx.env.home.starts_with('/') {
            let home = lexical_path(&ctx.env.home, "/");
            protect(format!("$HOME ({home})"), OUTRANKS_PERSONAL, &home);
        }
        let store = ctx.store_dir.to_string_lossy();
        if !store.is_empty() {
            let dir = lexical_path(&store, &ctx.env.cwd);
            protect(
                format!("the trust store directory {dir}"),
                DECIDES_TRUST,
                &dir,
            );
        }
        if let Some(state) = ctx.state_dir {
            let dir = lexical_path(&state.to_string_lossy(), &ctx.env.cwd);
            protect(
                format!("the decision records' directory {dir}"),
                DECIDES_TRUST,
                &dir,
            );
        }
        // The file's own denied roots are not protected here: they outrank
        // every workspace, so one inside a workspace only narrows it.
        for (list, root) in self.roots() {
            let (kind, why) = match list {
                "system_read_only_roots" => (
                    "the system root",
                    "an approved workspace outranks a system root",
                ),
                "personal_data_roots" => (
                    "the personal data root",
                    "an approved workspace outranks a personal data root",
                ),
                _ => continue,
            };
            if root.is_fixed() {
                let what = if root.written == root.resolved {
                    format!("{kind} {}", root.resolved)
                } else {
                    format!("{kind} {} ({})", root.written, root.resolved)
                };
                protect(what, why, &root.resolved);
            }
        }
        for ws in &self.approved_workspaces {
            let refuse = |why: String| PolicyError::TooBroad {
                path: self.source.to_string(),
                written: quote_json_string(&ws.written),
                resolved: ws.resolved.clone(),
                why,
            };
            for spelling in [&ws.lexical, &ws.canonical] {
                if spelling == "/" {
                    return Err(refuse(
                        "the filesystem root, which covers every path".into(),
                    ));
                }
                for (what, why, lexical, canonical) in &protected {
                    if contains(spelling, lexical) || contains(spelling, canonical) {
                        return Err(refuse(format!("which covers {what}; {why}")));
                    }
                }
            }
        }
        Ok(())
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
