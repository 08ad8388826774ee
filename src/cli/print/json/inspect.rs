//! `inspect`'s result as JSON: the config as GocciaScript computes it, the
//! store's entry and, for a changed config, its value-level diff.

use serde::Serialize;

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::json_out::{
    JsonDestination, JsonDiffItem, JsonRequest, JsonStored, Schema, block_value, destinations_of,
    diff_items, requests_of, to_json,
};
use crate::cli::print::json::provenance::{self, JsonProvenance};
use crate::cli::walk::write_warnings;
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::review::report::ConfigState;
use crate::core::review::results::InspectResult;
use crate::core::revision::review_provenance::Provenance;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonInspect<'a> {
    schema: Schema,
    key: &'a str,
    path: String,
    format: &'static str,
    files: &'a [String],
    /// The normalized block as an object.
    block: serde_json::Value,
    /// The normalized block exactly as hashed.
    block_text: &'a str,
    sha256: &'a str,
    targets: &'a crate::core::config::targets::Targets,
    requests: Vec<JsonRequest>,
    lines: &'a [String],
    requests_grants: bool,
    state: &'static str,
    stored: Option<JsonStored>,
    /// A changed config's value-level diff.
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<Vec<JsonDiffItem>>,
    destinations: Vec<JsonDestination>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<&'a str>,
    store_warnings: &'a [String],
    /// The config GocciaScript reads instead of this one, beside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    shadowed_by: Option<&'a str>,
    /// Who changed what, for a changed config.
    #[serde(skip_serializing_if = "Option::is_none")]
    provenance: Option<JsonProvenance<'a>>,
    /// Its signed reviews; `null` where its repository has none.
    reviews: serde_json::Value,
}

pub fn print(
    result: &InspectResult,
    who: Option<&Provenance>,
    reviews: Option<&crate::cli::outcome::review::OneConfig>,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    write_warnings(&result.store_warnings, io);
    let snapshot = &result.snapshot;
    let comparison = &result.comparison;
    let stored = result.stored.as_ref();
    let doc = JsonInspect {
        schema: Schema::default(),
        key: result.key.as_str(),
        path: display_path(result.key.as_str(), &env.cwd),
        format: snapshot.format(),
        files: &snapshot.files,
        block: block_value(snapshot.block.json()),
        block_text: snapshot.block.as_str(),
        sha256: &snapshot.sha256,
        targets: &snapshot.targets,
        requests: requests_of(snapshot.block.json()),
        lines: &snapshot.lines,
        requests_grants: snapshot.requests_grants(),
        state: comparison.state.json_name(),
        stored: stored.map(|s| JsonStored {
            sha256: s.sha256.to_hex(),
            trusted_at: s.trusted_at.to_string(),
            trusted_by: s.trusted_by.to_string(),
        }),
        diff: stored
            .filter(|_| comparison.state == ConfigState::Changed)
            .map(|s| {
                diff_items(
                    &s.block,
                    snapshot.block.json(),
                    &snapshot.targets.to_pairs(),
                    &comparison.lines,
                )
            }),
        destinations: destinations_of(&comparison.lines, &snapshot.targets.to_pairs()),
        store_error: result.store_error.as_deref(),
        store_warnings: &result.store_warnings,
        shadowed_by: result.shadowed.as_deref(),
        provenance: who.map(provenance::of),
        reviews: crate::cli::print::json::review::one_config(reviews),
    };
    io.out.write_all(to_json(&doc)?.as_bytes())?;
    Ok(())
}
