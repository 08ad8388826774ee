//! `status --json`: one document (schema 1, `schemas/status.schema.json`),
//! after the same `Warning:` lines on stderr as the text.

use serde::Serialize;

use crate::cli::io::Io;
use crate::cli::json_out::{JsonError, Schema, to_json};
use crate::cli::outcome::status::StatusResult;
use crate::cli::print::text;
use crate::cli::walk::JsonUnreadable;
use crate::core::review::notice::ConfigSummary;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonStatus<'a> {
    schema: Schema,
    path: &'a str,
    tree: bool,
    configs: Vec<JsonStatusConfig<'a>>,
    changed: usize,
    never_trusted: usize,
    ignored: usize,
    errors: usize,
    needs_review: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    notice: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<&'a str>,
    store_warnings: &'a [String],
    store_unsafe: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    ignore_problem: Option<&'a str>,
    unreadable: Vec<JsonUnreadable>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonStatusConfig<'a> {
    key: &'a str,
    path: &'a str,
    state: &'static str,
    /// The config and each file of its extends chain, in load order.
    files: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<JsonError>,
}

pub fn print(r: &StatusResult, io: &mut Io<'_>) -> std::io::Result<()> {
    text::status::warnings(r, io);
    let f = &r.found;
    let doc = JsonStatus {
        schema: Schema::default(),
        path: &r.path,
        tree: r.tree,
        configs: f.reports.iter().map(config).collect(),
        changed: r.tally.changed,
        never_trusted: r.tally.never_trusted,
        ignored: r.tally.ignored,
        errors: r.tally.errors,
        needs_review: r.tally.any(),
        notice: r.notice.as_deref(),
        store_error: f.store_error.as_deref(),
        store_warnings: &f.store_warnings,
        store_unsafe: f.store_unsafe,
        ignore_problem: f.ignore_problem.as_deref(),
        unreadable: f
            .found
            .iter()
            .flat_map(|d| d.unreadable.iter().map(JsonUnreadable::from))
            .collect(),
    };
    io.out.write_all(to_json(&doc)?.as_bytes())
}

fn config(r: &ConfigSummary) -> JsonStatusConfig<'_> {
    JsonStatusConfig {
        key: &r.key,
        path: &r.display_path,
        state: r.state.json_name(),
        files: &r.files,
        error: r.error.as_ref().map(|e| JsonError {
            message: e.to_string(),
            exit: e.class.code(),
        }),
    }
}
