//! The JSON shapes of `scan --json`, `list --json`, `check --json` and
//! `inspect --json` (documented in README "JSON output"). Structs, not
//! `serde_json::json!`, so members keep a stable, readable order.

use serde::Serialize;

use crate::core::review::destination::destinations;
use crate::core::review::report::{ConfigReport, DiffLine, EntryStatus, StoreEntryReport};
use crate::core::review::value_diff::{ValueChange, report_values};

#[derive(Serialize)]
pub struct JsonDiffLine {
    /// `added`, `removed`, `unchanged` or `target`.
    pub change: &'static str,
    /// The line as printed (`  + allow-read: /x`).
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<String>,
}

impl From<&DiffLine> for JsonDiffLine {
    fn from(l: &DiffLine) -> Self {
        let text = l.render();
        let plain = |change, line: &String| JsonDiffLine {
            change,
            text: text.clone(),
            line: Some(line.clone()),
            scope: None,
            recorded: None,
            current: None,
        };
        match l {
            DiffLine::Added(s) => plain("added", s),
            DiffLine::Removed(s) => plain("removed", s),
            DiffLine::Unchanged(s) => plain("unchanged", s),
            DiffLine::Target {
                scope,
                recorded,
                current,
            } => JsonDiffLine {
                change: "target",
                text: text.clone(),
                line: None,
                scope: Some(scope.clone()),
                recorded: Some(recorded.clone()),
                current: Some(current.clone()),
            },
        }
    }
}

/// One value of a value-level diff: `{"request", "change", "value",
/// "destination"}`; `change` is `added`, `removed`, `unchanged` or
/// `retargeted`, spelled as `diff[].change` is; `destination` is present
/// when the path the value names leads elsewhere.
#[derive(Serialize)]
pub struct JsonValueChange {
    pub request: String,
    pub change: &'static str,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination: Option<String>,
}

impl From<&ValueChange> for JsonValueChange {
    fn from(v: &ValueChange) -> Self {
        JsonValueChange {
            request: v.request.clone(),
            change: v.change.json_name(),
            value: v.value.clone(),
            destination: v.destination.clone(),
        }
    }
}

#[derive(Serialize)]
pub struct JsonStored {
    pub sha256: String,
    #[serde(rename = "trustedAt")]
    pub trusted_at: String,
    #[serde(rename = "trustedBy")]
    pub trusted_by: String,
}

#[derive(Serialize)]
pub struct JsonConfig {
    pub key: String,
    pub path: String,
    pub state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Vec<JsonDiffLine>>,
    /// A changed config's value-level diff (issue 12), one item per value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<JsonValueChange>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored: Option<JsonStored>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<JsonPolicy>,
    /// Whether the reviewer marked the config viewed in the TUI, as it is
    /// now (issue 12); set by `scan --json`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub viewed: Option<bool>,
    /// The config's path scopes that resolve elsewhere (links followed),
    /// each with the key whose line names it; absent when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub destinations: Vec<JsonDestination>,
}

/// A path scope and where it leads: `{"key", "scope", "resolvesTo"}`.
#[derive(Serialize)]
pub struct JsonDestination {
    pub key: String,
    pub scope: String,
    #[serde(rename = "resolvesTo")]
    pub resolves_to: String,
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

impl From<&ConfigReport> for JsonConfig {
    fn from(r: &ConfigReport) -> Self {
        use crate::core::review::report::ConfigState;
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
            lines: (r.state != ConfigState::Error).then_some(current_lines),
            diff: (r.state == ConfigState::Changed)
                .then(|| r.lines.iter().map(JsonDiffLine::from).collect()),
            values: (r.state == ConfigState::Changed)
                .then(|| report_values(r).iter().map(JsonValueChange::from).collect()),
            stored: r.stored.as_ref().map(|s| JsonStored {
                sha256: s.sha256.clone(),
                trusted_at: s.trusted_at.clone(),
                trusted_by: s.trusted_by.clone(),
            }),
            error: r.error().map(|e| e.message.clone()),
            exit: r.error().map(|e| e.class.code()),
            policy: None,
            viewed: None,
            destinations: destinations(&r.lines, r.targets())
                .into_iter()
                .map(|d| JsonDestination {
                    key: d.key,
                    scope: d.scope,
                    resolves_to: d.target,
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
pub struct JsonEntry {
    pub key: String,
    pub status: &'static str,
    #[serde(rename = "trustedAt")]
    pub trusted_at: String,
    #[serde(rename = "trustedBy")]
    pub trusted_by: String,
    pub keys: Vec<String>,
    pub lines: Vec<JsonDiffLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl From<&StoreEntryReport> for JsonEntry {
    fn from(r: &StoreEntryReport) -> Self {
        let (status, error) = match &r.status {
            EntryStatus::Ok => ("ok", None),
            EntryStatus::Changed => ("changed", None),
            EntryStatus::Missing => ("missing", None),
            EntryStatus::Unreadable(e) => ("unreadable", Some(e.message.clone())),
        };
        JsonEntry {
            key: r.key.clone(),
            status,
            trusted_at: r.trusted_at.clone(),
            trusted_by: r.trusted_by.clone(),
            keys: if r.summary.is_empty() {
                Vec::new()
            } else {
                r.summary.split(", ").map(str::to_string).collect()
            },
            lines: r.lines.iter().map(JsonDiffLine::from).collect(),
            error,
        }
    }
}

/// A JSON array whose members are made from `items` one at a time, as they
/// are written: the converted copies of a 20,000-config scan never exist
/// all at once.
pub struct LazySeq<'a, T, J> {
    pub items: &'a [T],
    pub convert: fn(&T) -> J,
}

impl<T, J: Serialize> Serialize for LazySeq<'_, T, J> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.items.iter().map(self.convert))
    }
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

/// Pretty JSON with a trailing newline.
pub fn to_json<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("serializable");
    s.push('\n');
    s
}
