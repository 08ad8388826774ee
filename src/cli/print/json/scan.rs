//! `scan`'s result as JSON: the document of the JSON contract, its configs
//! loaded, converted and written one by one as the array is written.

use serde::Serialize;
use serde::ser::SerializeSeq;

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::json_out::{JsonConfig, JsonPolicy, JsonPolicyFile, Schema, to_json, write_json};
use crate::cli::outcome::policy::PolicyScan;
use crate::cli::outcome::scan::{Configs, ScanSink};
use crate::cli::print::json::review;
use crate::cli::print::text::scan::warnings;
use crate::cli::walk::{JsonNotFollowed, JsonUnreadable, write_warnings};
use crate::core::review::discover::Discovery;
use crate::core::review::progress::Progress;
use crate::core::review::results::ScanResult;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonScan<'a> {
    schema: Schema,
    configs: Streamed<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<&'a str>,
    store_warnings: &'a [String],
    unreadable: Vec<JsonUnreadable>,
    not_followed: Vec<JsonNotFollowed>,
    /// Config files a higher-priority one in the same directory shadows.
    shadowed: Vec<JsonShadowed<'a>>,
    /// Trusted configs under the paths that are gone.
    missing: Vec<JsonMissing<'a>>,
}

#[derive(Serialize)]
struct JsonShadowed<'a> {
    path: &'a str,
    by: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonMissing<'a> {
    key: &'a str,
    trusted_at: &'a str,
}

/// `scan --policy --json`: `scan`'s document with each config's verdict
/// and the policy file (its configs judged before, not streamed).
pub fn judged(scan: &PolicyScan, io: &mut Io<'_>) -> std::io::Result<()> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Doc<'a> {
        schema: Schema,
        configs: Vec<JsonConfig>,
        #[serde(skip_serializing_if = "Option::is_none")]
        store_error: Option<&'a str>,
        store_warnings: &'a [String],
        /// The policy the verdicts come from.
        policy: JsonPolicyFile,
        unreadable: Vec<JsonUnreadable>,
        not_followed: Vec<JsonNotFollowed>,
        shadowed: Vec<JsonShadowed<'a>>,
        missing: Vec<JsonMissing<'a>>,
    }
    let configs: Vec<JsonConfig> = scan
        .reports
        .iter()
        .zip(&scan.decisions)
        .map(|(r, d)| {
            let mut c = JsonConfig::from(r);
            c.policy = d.as_ref().map(JsonPolicy::from);
            c
        })
        .collect();
    let doc = Doc {
        schema: Schema::default(),
        configs,
        store_error: scan.store_error.as_deref(),
        store_warnings: &scan.store_warnings,
        policy: JsonPolicyFile {
            path: scan.policy.source.to_string(),
            sha256: scan.policy.sha256.clone(),
        },
        unreadable: scan.found.unreadable.iter().map(Into::into).collect(),
        not_followed: scan.found.not_followed.iter().map(Into::into).collect(),
        shadowed: shadowed(&scan.found),
        missing: missing(&scan.missing),
    };
    io.out.write_all(to_json(&doc)?.as_bytes())
}

fn shadowed(found: &Discovery) -> Vec<JsonShadowed<'_>> {
    found
        .shadowed
        .iter()
        .map(|s| JsonShadowed {
            path: &s.path,
            by: &s.by,
        })
        .collect()
}

fn missing(missing: &[(String, String)]) -> Vec<JsonMissing<'_>> {
    missing
        .iter()
        .map(|(key, trusted_at)| JsonMissing { key, trusted_at })
        .collect()
}

/// `scan` as the JSON contract's document, its configs written as they
/// stream.
pub struct Json;

impl ScanSink for Json {
    fn write(
        &mut self,
        result: &ScanResult,
        configs: &Configs<'_>,
        io: &mut Io<'_>,
    ) -> Result<(), CliError> {
        print(result, configs, io)
    }
}

fn print(result: &ScanResult, configs: &Configs<'_>, io: &mut Io<'_>) -> Result<(), CliError> {
    warnings(result, io);
    // The TUI's viewed marks; unreadable progress is named and ignored.
    let none = (Progress::default(), None);
    let (progress, problem) = result.progress.as_ref().unwrap_or(&none);
    if let Some(p) = problem {
        io.warn(p);
    }
    let found = &result.found;
    let doc = JsonScan {
        schema: Schema::default(),
        configs: Streamed {
            result,
            configs,
            progress,
        },
        store_error: result.store_error.as_deref(),
        store_warnings: &result.store_warnings,
        unreadable: found.unreadable.iter().map(JsonUnreadable::from).collect(),
        not_followed: found
            .not_followed
            .iter()
            .map(JsonNotFollowed::from)
            .collect(),
        shadowed: shadowed(found),
        missing: missing(&result.missing),
    };
    write_json(io.out, &doc)?;
    write_warnings(&result.unreadable, io);
    Ok(())
}

/// The configs of `scan --json`, each loaded, converted and written in key
/// order as the array is written; `worst` gathers the exit code of their
/// errors meanwhile.
struct Streamed<'a> {
    result: &'a ScanResult,
    /// The configs, as they stream.
    configs: &'a Configs<'a>,
    /// The TUI's viewed marks.
    progress: &'a Progress,
}

impl Serialize for Streamed<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let keys = &self.result.found.keys;
        let mut seq = serializer.serialize_seq(Some(keys.len()))?;
        self.configs.each(|r| {
            let reviews = self.configs.reviews_of(&r);
            seq.serialize_element(&JsonConfig {
                viewed: Some(self.progress.is_viewed(&r.key, r.sha256())),
                reviews: Some(review::one_config(reviews.as_ref())),
                ..JsonConfig::from(&r)
            })
        })?;
        seq.end()
    }
}
