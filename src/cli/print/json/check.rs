//! `check`'s result as JSON: the inputs, their configs and whether a run
//! would be blocked; a blocked run is also the command's error, as in text.

use serde::Serialize;

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::json_out::{JsonConfig, Schema, to_json};
use crate::cli::outcome::check::CheckOutcome;
use crate::cli::walk::{JsonNotFollowed, JsonUnreadable, write_warnings};
use crate::core::review::results::CheckResult;

#[derive(Serialize)]
struct JsonInput<'a> {
    input: &'a str,
    config: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonCheck<'a> {
    schema: Schema,
    inputs: Vec<JsonInput<'a>>,
    configs: Vec<JsonConfig>,
    blocked: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<String>,
    store_warnings: &'a [String],
    unreadable: Vec<JsonUnreadable>,
    not_followed: Vec<JsonNotFollowed>,
}

pub fn print(
    result: &CheckResult,
    outcome: &CheckOutcome<'_>,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    write_warnings(&result.store_warnings, io);
    // The first config that fails to load ends the command, as in text
    // (the outcome's error).
    if let CheckOutcome::LoadFailed(_) = outcome {
        return Ok(());
    }
    let doc = JsonCheck {
        schema: Schema::default(),
        inputs: result
            .inputs
            .iter()
            .map(|(input, config)| JsonInput {
                input,
                config: config.as_deref(),
            })
            .collect(),
        configs: result.reports.iter().map(JsonConfig::from).collect(),
        blocked: matches!(outcome, CheckOutcome::Blocked(..)),
        store_error: result.store_error(),
        store_warnings: &result.store_warnings,
        unreadable: result
            .found
            .unreadable
            .iter()
            .map(JsonUnreadable::from)
            .collect(),
        not_followed: result
            .found
            .not_followed
            .iter()
            .map(JsonNotFollowed::from)
            .collect(),
    };
    io.out.write_all(to_json(&doc)?.as_bytes())?;
    write_warnings(&result.unreadable, io);
    Ok(())
}
