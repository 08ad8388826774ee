//! `diff --json`: one document (schema 1, `schemas/diff.schema.json`).

use serde::Serialize;

use crate::cli::io::Io;
use crate::cli::json_out::{JsonError, to_json};
use crate::cli::outcome::diff::{DiffResult, Listed, ListedValue};
use crate::cli::outcome::diff_reviews::{HeadReviews, ReviewsAtHead};
use crate::cli::print::json::provenance::{self, JsonOrigin};
use crate::cli::print::json::review::record;
use crate::core::error::ConfigError;

/// One value of a request. An unscoped request (the boolean `true`, a
/// sandbox with no inputs) is `"unscoped": true` and has no `value`: the
/// text output's `any path` is a description, not data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonValue<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a str>,
    change: &'static str,
    unscoped: bool,
    widens: bool,
    /// A re-targeted scope: where it led at BASE and leads at HEAD.
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<&'a str>,
    /// A value added that widens: where its line at HEAD comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    origin: Option<JsonOrigin<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonRequest<'a> {
    request: &'a str,
    values: Vec<JsonValue<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonConfig<'a> {
    path: &'a str,
    status: &'static str,
    verdict: &'static str,
    /// `{"message", "exit"}`, as every document of the contract gives a
    /// load error.
    base_error: Option<JsonError>,
    head_error: Option<JsonError>,
    now_under: Option<&'a str>,
    relinked: Option<&'a str>,
    /// The SHA-256 of the config's normalized block at HEAD, as computed
    /// for this checkout (its scopes are absolute paths here): what `trust
    /// --expect` pins on this same checkout. `null` when it does not load
    /// or is gone at HEAD.
    sha256: Option<&'a str>,
    requests: Vec<JsonRequest<'a>>,
    /// Its signed reviews at HEAD, as `inspect --json` gives them (and
    /// `problem`: why none can count); `null` where HEAD has no reviews
    /// file, HEAD is the working tree, or the config is gone at HEAD.
    reviews: serde_json::Value,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonNotRead<'a> {
    path: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDiff<'a> {
    schema: u32,
    root: &'a str,
    base: &'a str,
    /// `null` for the working tree.
    head: Option<&'a str>,
    widened: bool,
    broken: bool,
    incomplete: bool,
    configs: Vec<JsonConfig<'a>>,
    not_read: Vec<JsonNotRead<'a>>,
    base_notes: &'a [String],
    head_notes: &'a [String],
    /// Why the widening values have no `origin` (`no provenance: …`), or
    /// null.
    provenance: Option<String>,
}

/// The document, pretty, as every document of the contract.
pub fn print(r: &DiffResult, io: &mut Io<'_>) -> std::io::Result<()> {
    let diff = &r.diff;
    let doc = JsonDiff {
        schema: 1,
        root: &r.root,
        base: &diff.base,
        head: (!r.working_tree()).then_some(diff.head.as_str()),
        widened: diff.widened(),
        broken: diff.broken(),
        incomplete: diff.incomplete(),
        configs: r.listed().map(|l| config(r, l)).collect(),
        not_read: diff
            .not_read
            .iter()
            .map(|n| JsonNotRead {
                path: &n.path,
                message: &n.message,
            })
            .collect(),
        base_notes: &diff.base_notes,
        head_notes: &diff.head_notes,
        provenance: r.provenance.as_ref().map(|a| a.describe()),
    };
    io.out.write_all(to_json(&doc)?.as_bytes())
}

fn config<'a>(r: &'a DiffResult, l: Listed<'a>) -> JsonConfig<'a> {
    let c = l.config;
    JsonConfig {
        path: &c.path,
        status: c.status.name(),
        verdict: c.verdict.name(),
        base_error: c.base_error.as_ref().map(json_error),
        head_error: c.head_error.as_ref().map(json_error),
        now_under: c.now_under.as_deref(),
        relinked: c.relinked.as_deref(),
        sha256: l.at_head.sha256.as_deref(),
        requests: l
            .groups()
            .into_iter()
            .map(|(request, values)| JsonRequest {
                request,
                values: values.into_iter().map(value).collect(),
            })
            .collect(),
        reviews: reviews(r.reviews.as_ref(), l.at_head.reviews.as_ref()),
    }
}

/// A config's `reviews` member (schemas/defs.schema.json#/$defs/reviews).
fn reviews(file: Option<&ReviewsAtHead>, h: Option<&HeadReviews>) -> serde_json::Value {
    let (Some(file), Some(h)) = (file, h) else {
        return serde_json::Value::Null;
    };
    let mut doc = serde_json::json!({
        "file": file.file,
        "digest": h.digest,
        "outside": h.outside,
        "allowedSigners": file.allowed_signers.as_ref().map(|(path, sha256)| serde_json::json!({
            "path": path,
            "sha256": sha256,
        })),
        "required": serde_json::Value::Null,
        "count": h.count,
        "records": h.checked.iter().map(record).collect::<Vec<_>>(),
    });
    if let (Some(why), Some(map)) = (&h.problem, doc.as_object_mut()) {
        map.insert("problem".to_string(), why.clone().into());
    }
    doc
}

/// One value: where JSON writes a value, and only here.
fn value(v: ListedValue<'_>) -> JsonValue<'_> {
    let (unscoped, origin, v) = (v.unscoped, v.origin, v.value);
    JsonValue {
        value: (!unscoped).then_some(v.value.as_str()),
        change: v.change.json_name(),
        unscoped,
        widens: v.widens,
        from: v.retarget.as_ref().map(|(f, _)| f.as_str()),
        to: v.retarget.as_ref().map(|(_, t)| t.as_str()),
        origin: origin.map(provenance::origin),
    }
}

fn json_error(e: &ConfigError) -> JsonError {
    JsonError {
        message: e.message.clone(),
        exit: e.class.code(),
    }
}
