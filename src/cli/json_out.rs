//! The JSON contract (README "JSON contract", `schemas/`): the documents
//! `scan`, `check`, `list`, `inspect`, `trust` and `untrust` print with
//! `--json`. One rule for all of them: every document carries
//! `"schema": 1`, every member name is camelCase, requests are data
//! (`{"request", "unscoped", "values"}`), and a diff is always a list of
//! value-level items (`{"request", "change", "value", ...}`). Structs, not
//! `serde_json::json!`, so members keep a stable, readable order. The
//! `policy` verbs keep their own output and are outside this contract.

use serde::Serialize;

use crate::core::config::json::Json;
use crate::core::config::scope::NODE_MODULES_PREFIX;
use crate::core::review::destination::destinations;
use crate::core::review::report::{
    ConfigReport, ConfigState, DiffLine, EntryStatus, StoreEntryReport, moved_targets,
};
use crate::core::review::value_diff::{Change, ValueChange, block_values, diff_values};

/// The version of the contract. Within one version members are only ever
/// added; renaming, removing or changing the type of one bumps it.
pub const SCHEMA_VERSION: u32 = 1;

/// What every document starts with: `"schema": 1`.
#[derive(Serialize, Clone, Copy)]
pub struct Schema(u32);

impl Default for Schema {
    fn default() -> Self {
        Schema(SCHEMA_VERSION)
    }
}

/// One request of a block, as data: `{"request": "allow-net", "unscoped":
/// false, "values": ["a.test", "b.test"]}`. A request that is the boolean
/// `true` (`"allow-read": true`, `"unsafe-shadowrealm": true`, or a
/// `"sandbox"` with no inputs) is `"unscoped": true, "values": []`.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct JsonRequest {
    pub request: String,
    pub unscoped: bool,
    pub values: Vec<String>,
}

/// One value of a value-level diff, the one diff shape of the contract.
/// `change` is `added`, `removed`, `unchanged` or `retargeted` (the value is
/// the same, the path it names now resolves elsewhere). `value` is absent
/// when the request is unscoped (`"unscoped": true`). `destination` is where
/// the value's path leads now, when that is elsewhere (a link) or moved;
/// `recordedDestination` where it led when trusted, on `retargeted` items.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct JsonDiffItem {
    pub request: String,
    pub change: &'static str,
    pub unscoped: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination: Option<String>,
    #[serde(
        rename = "recordedDestination",
        skip_serializing_if = "Option::is_none"
    )]
    pub recorded_destination: Option<String>,
}

/// Whether the request `key` of `block` is the boolean `true`, or the
/// sandbox with no inputs: what `block_values` shows as a description
/// (`any path`, `true`, `no inputs (sandbox mode only)`) rather than values.
pub(crate) fn is_unscoped(block: &Json, key: &str) -> bool {
    if key == "sandbox" {
        return true;
    }
    if key.starts_with("sandbox.") {
        return false;
    }
    let Json::Object(sections) = block else {
        return false;
    };
    sections
        .iter()
        .filter(|(s, _)| s == "permissions" || s == "unsafe")
        .any(|(_, body)| match body {
            Json::Object(members) => members
                .iter()
                .any(|(k, v)| k == key && matches!(v, Json::Bool(true))),
            _ => false,
        })
}

/// The requests of a block, in the block's order.
pub fn requests_of(block: &Json) -> Vec<JsonRequest> {
    block_values(block)
        .into_iter()
        .map(|(request, values)| {
            let unscoped = is_unscoped(block, &request);
            JsonRequest {
                unscoped,
                values: if unscoped { Vec::new() } else { values },
                request,
            }
        })
        .collect()
}

/// The value-level diff of `old` (trusted) against `new` (current) as
/// contract items. `targets` are the current scopes' destinations, `lines`
/// the line comparison (its `~` target lines say what moved).
pub fn diff_items(
    old: &Json,
    new: &Json,
    targets: &[(String, String)],
    lines: &[DiffLine],
) -> Vec<JsonDiffItem> {
    let moved = moved_targets(lines);
    let values = diff_values(&block_values(old), &block_values(new), targets, &moved);
    values
        .iter()
        .map(|v| diff_item(v, old, new, &moved))
        .collect()
}

fn diff_item(
    v: &ValueChange,
    old: &Json,
    new: &Json,
    moved: &[(String, String, String)],
) -> JsonDiffItem {
    // A removed value is of the trusted block; any other of the current one.
    let block = if v.change == Change::Removed {
        old
    } else {
        new
    };
    let unscoped = v.request != "path" && is_unscoped(block, &v.request);
    let recorded_destination = (v.change == Change::Retargeted)
        .then(|| {
            moved
                .iter()
                .find(|(scope, _, _)| {
                    v.value == *scope || v.value.strip_prefix(NODE_MODULES_PREFIX) == Some(scope)
                })
                .map(|(_, recorded, _)| recorded.clone())
        })
        .flatten();
    JsonDiffItem {
        request: v.request.clone(),
        change: v.change.json_name(),
        unscoped,
        value: (!unscoped).then(|| v.value.clone()),
        destination: v.destination.clone(),
        recorded_destination,
    }
}

/// A config report's diff: its blocks compared value by value; empty when
/// either block is not there.
fn report_diff(r: &ConfigReport) -> Vec<JsonDiffItem> {
    let (Some(new), Some(old)) = (r.block_json(), r.stored.as_ref().map(|s| s.block.json())) else {
        return Vec::new();
    };
    diff_items(old, new, r.targets(), &r.lines)
}

/// A block as a JSON value (its members sorted by name; the exact text is
/// `blockText`).
pub fn block_value(block: &Json) -> serde_json::Value {
    use serde_json::Value;
    match block {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => serde_json::from_str::<serde_json::Number>(n)
            .map(Value::Number)
            .unwrap_or_else(|_| Value::String(n.clone())),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(items) => Value::Array(items.iter().map(block_value).collect()),
        Json::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), block_value(v)))
                .collect(),
        ),
    }
}

/// A load error: GocciaScript's exact message (without `Error: `) and the
/// exit class it ends a run with.
#[derive(Serialize, Debug, Clone)]
pub struct JsonError {
    pub message: String,
    pub exit: u8,
}

#[derive(Serialize)]
pub struct JsonStored {
    pub sha256: String,
    #[serde(rename = "trustedAt")]
    pub trusted_at: String,
    #[serde(rename = "trustedBy")]
    pub trusted_by: String,
}

/// A path scope and where it leads: `{"key", "scope", "resolvesTo"}`.
#[derive(Serialize)]
pub struct JsonDestination {
    pub key: String,
    pub scope: String,
    #[serde(rename = "resolvesTo")]
    pub resolves_to: String,
}

/// The destinations of a config's lines.
pub fn destinations_of(lines: &[DiffLine], targets: &[(String, String)]) -> Vec<JsonDestination> {
    destinations(lines, targets)
        .into_iter()
        .map(|d| JsonDestination {
            key: d.key,
            scope: d.scope,
            resolves_to: d.target,
        })
        .collect()
}

/// One effective config (`scan`, `check`).
#[derive(Serialize)]
pub struct JsonConfig {
    pub key: String,
    pub path: String,
    pub state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The current block's requests (absent on `error`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requests: Option<Vec<JsonRequest>>,
    /// The current block's description lines, GocciaScript's exact text
    /// (absent on `error`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<String>>,
    /// A changed config's value-level diff.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Vec<JsonDiffItem>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored: Option<JsonStored>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<JsonPolicy>,
    /// Whether the reviewer marked the config viewed in the TUI, as it is
    /// now; set by `scan --json`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub viewed: Option<bool>,
    /// The config's path scopes that resolve elsewhere (links followed),
    /// each with the key whose line names it.
    pub destinations: Vec<JsonDestination>,
    /// Its signed reviews (`null`: its repository has no reviews file);
    /// set by `scan --json`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviews: Option<serde_json::Value>,
}

/// `scan --policy --json`: a config's verdict and every request's decision.
#[derive(Serialize)]
pub struct JsonPolicy {
    pub verdict: &'static str,
    pub requests: Vec<JsonPolicyRequest>,
}

#[derive(Serialize)]
pub struct JsonPolicyRequest {
    pub kind: &'static str,
    pub scope: Option<String>,
    /// The host path judged, `null` for a request that names none.
    pub target: Option<String>,
    /// `target` as written and with links resolved, as in decision records.
    #[serde(rename = "resolvedTarget")]
    pub resolved_target: Option<crate::core::policy::ResolvedTarget>,
    pub risk: String,
    pub level: Option<String>,
    pub classification: Option<&'static str>,
    pub verdict: &'static str,
    pub reason: String,
}

impl From<&crate::core::policy::ConfigDecision> for JsonPolicy {
    fn from(d: &crate::core::policy::ConfigDecision) -> Self {
        JsonPolicy {
            verdict: d.verdict.as_str(),
            requests: d
                .operations
                .iter()
                .map(|o| JsonPolicyRequest {
                    kind: o.operation.kind.name(),
                    scope: o.operation.scope.clone(),
                    target: o.operation.target.clone(),
                    resolved_target: o.decision.target.clone(),
                    risk: o.decision.risk.clone(),
                    level: o.decision.level.clone(),
                    classification: o.decision.classification.map(|c| c.as_str()),
                    verdict: o.decision.verdict.as_str(),
                    reason: o.decision.reason.clone(),
                })
                .collect(),
        }
    }
}

/// The policy file verdicts come from: `{"path", "sha256"}`.
#[derive(Serialize)]
pub struct JsonPolicyFile {
    pub path: String,
    pub sha256: String,
}

impl From<&ConfigReport> for JsonConfig {
    fn from(r: &ConfigReport) -> Self {
        let loads = r.state != ConfigState::Error;
        let current_lines: Vec<String> = r
            .lines
            .iter()
            .filter_map(|l| match l {
                DiffLine::Added(s) | DiffLine::Unchanged(s) => Some(s.clone()),
                _ => None,
            })
            .collect();
        JsonConfig {
            key: r.key.clone(),
            path: r.display_path.clone(),
            state: r.state.json_name(),
            sha256: r.sha256().map(str::to_owned),
            requests: loads.then(|| r.block_json().map(requests_of).unwrap_or_default()),
            lines: loads.then_some(current_lines),
            diff: (r.state == ConfigState::Changed).then(|| report_diff(r)),
            stored: r.stored.as_ref().map(|s| JsonStored {
                sha256: s.sha256.clone(),
                trusted_at: s.trusted_at.clone(),
                trusted_by: s.trusted_by.clone(),
            }),
            error: r.error().map(|e| JsonError {
                message: e.message.clone(),
                exit: e.class.code(),
            }),
            policy: None,
            viewed: None,
            destinations: destinations_of(&r.lines, r.targets()),
            reviews: None,
        }
    }
}

/// One store entry (`list`).
#[derive(Serialize)]
pub struct JsonEntry {
    pub key: String,
    pub path: String,
    /// `ok`, `changed`, `missing` or `unreadable`.
    pub status: &'static str,
    pub sha256: String,
    #[serde(rename = "trustedAt")]
    pub trusted_at: String,
    #[serde(rename = "trustedBy")]
    pub trusted_by: String,
    /// The stored block's requests.
    pub requests: Vec<JsonRequest>,
    /// The stored block's description lines, GocciaScript's exact text.
    pub lines: Vec<String>,
    /// A changed entry's value-level diff (trusted → current).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Vec<JsonDiffItem>>,
    /// Why an `unreadable` entry's config does not load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonError>,
}

impl JsonEntry {
    /// `r` with the stored entry it was made from; `diff` is the changed
    /// entry's value-level diff, worked out by the caller.
    pub fn new(
        r: &StoreEntryReport,
        stored: Option<&crate::core::store::StoredEntry>,
        diff: Option<Vec<JsonDiffItem>>,
    ) -> Self {
        let (status, error) = match &r.status {
            EntryStatus::Ok => ("ok", None),
            EntryStatus::Changed => ("changed", None),
            EntryStatus::Missing => ("missing", None),
            EntryStatus::Unreadable(e) => (
                "unreadable",
                Some(JsonError {
                    message: e.message.clone(),
                    exit: e.class.code(),
                }),
            ),
        };
        JsonEntry {
            key: r.key.clone(),
            path: r.display_path.clone(),
            status,
            sha256: stored.map(|s| s.sha256.to_hex()).unwrap_or_default(),
            trusted_at: r.trusted_at.clone(),
            trusted_by: r.trusted_by.clone(),
            requests: stored.map(|s| requests_of(&s.block)).unwrap_or_default(),
            lines: r
                .lines
                .iter()
                .filter_map(|l| match l {
                    DiffLine::Removed(s) | DiffLine::Unchanged(s) => Some(s.clone()),
                    _ => None,
                })
                .collect(),
            diff,
            error,
        }
    }
}

/// One `unreadable` member: a path the walk could not read, and why.
#[derive(Serialize)]
pub struct JsonUnreadable {
    pub path: String,
    pub reason: String,
}

/// One `notFollowed` member: a directory link out of the given paths.
#[derive(Serialize)]
pub struct JsonNotFollowed {
    pub link: String,
    pub target: String,
}

impl From<&crate::core::review::discover::Unreadable> for JsonUnreadable {
    fn from(u: &crate::core::review::discover::Unreadable) -> Self {
        JsonUnreadable {
            path: u.path.clone(),
            reason: u.reason.clone(),
        }
    }
}

impl From<&crate::core::review::discover::NotFollowed> for JsonNotFollowed {
    fn from(n: &crate::core::review::discover::NotFollowed) -> Self {
        JsonNotFollowed {
            link: n.link.clone(),
            target: n.target.clone(),
        }
    }
}

/// The document of a `--json` command that failed before printing one:
/// `{"schema": 1, "error": {"message", "exit"}}` (schemas/error.schema.json).
#[derive(Serialize)]
pub struct JsonFailure {
    pub schema: Schema,
    pub error: JsonError,
}

/// The failure document for `message` and exit `code`, pretty, with a
/// trailing newline.
pub fn failure_document(message: &str, code: u8) -> std::io::Result<String> {
    to_json(&JsonFailure {
        schema: Schema::default(),
        error: JsonError {
            message: message.to_string(),
            exit: code,
        },
    })
}

/// [`to_json`] written to `out` as it is made, through a buffer, instead of
/// held whole in memory first (megabytes for a large scan). The bytes are
/// the same; a failed write (a closed pipe) ends it.
pub fn write_json<T: Serialize>(out: &mut dyn std::io::Write, value: &T) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::with_capacity(1 << 16, out);
    // serde_json gives an I/O error back as itself, so a closed stdout
    // stays a broken pipe (exit 141) rather than a failure.
    serde_json::to_writer_pretty(&mut w, value).map_err(std::io::Error::from)?;
    std::io::Write::write_all(&mut w, b"\n")?;
    std::io::Write::flush(&mut w)
}

/// Pretty JSON with a trailing newline; a value serde_json refuses is an
/// error, never a panic.
pub fn to_json<T: Serialize>(value: &T) -> std::io::Result<String> {
    let mut s = serde_json::to_string_pretty(value).map_err(std::io::Error::from)?;
    s.push('\n');
    Ok(s)
}
