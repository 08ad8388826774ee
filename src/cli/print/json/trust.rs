//! `trust`'s result as json (schemas/trust.schema.json): what was listed,
//! what became of each listed config, and what the listing's notes say as
//! data (links not followed, shadowed and missing configs, ignored ones:
//! issue 30).

use std::collections::{HashMap, HashSet};
use std::io::Write;

use serde::{Serialize, Serializer};

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::json_out::{
    JsonDestination, JsonDiffItem, JsonNotFollowed, JsonPolicy, JsonPolicyFile, JsonRequest,
    Schema, destinations_of, diff_items, requests_of,
};
use crate::cli::outcome::trust::{TrustEnd, TrustPrinter};
use crate::cli::print::json::provenance;
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::review::trust::TrustCandidate;
use crate::core::review::trust::outcome::{Gate, Judged, TrustListing, TrustOutcome};
use crate::core::revision::review_provenance::Why;
use crate::core::store::Store;

/// Why `trust --json` reports a config `refused` (the plain and the
/// policy-gated trust).
pub const CHANGED_SINCE_SHOWN: &str = "changed since shown; not trusted";

/// `trust --json`: what was listed, and for each config what became of it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonTrust<C = Vec<JsonTrusted>> {
    pub schema: Schema,
    pub store: String,
    pub dry_run: bool,
    /// The policy the verdicts come from (`--policy`, `--expect`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<JsonPolicyFile>,
    /// The new and changed configs, in key byte order.
    pub configs: C,
    /// Requesting configs already trusted and unchanged (not listed).
    pub already_trusted: usize,
    pub not_followed: Vec<JsonNotFollowed>,
    pub store_warnings: Vec<String>,
    /// Config files a higher-priority one in the same directory shadows:
    /// GocciaScript never reads them; neither trusted nor hashed.
    pub shadowed: Vec<JsonShadowed>,
    /// Store entries at or under the paths whose config is gone.
    pub missing: Vec<JsonMissing>,
    /// New or changed configs left out because they are ignored as they
    /// are now (a config file named on the command line never is).
    pub ignored: Vec<JsonIgnored>,
}

/// One `shadowed` member: the file, and the one GocciaScript reads instead.
#[derive(Serialize)]
pub struct JsonShadowed {
    pub path: String,
    pub by: String,
}

/// One `missing` member: the entry's key and when it was trusted.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonMissing {
    pub key: String,
    pub trusted_at: String,
}

/// One `ignored` member: the config left out, as it is now.
#[derive(Serialize)]
pub struct JsonIgnored {
    pub key: String,
    pub path: String,
    /// `new` or `changed`.
    pub change: &'static str,
    pub sha256: String,
}

/// One listed config of `trust --json` and its outcome: `recorded`,
/// `wouldRecord` (`--dry-run`), `refused` (it changed between the listing
/// and the write, so what was shown is not what is there) or `leftOut` (the
/// policy did not allow it, or its hash is not among `--expect`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonTrusted {
    pub key: String,
    pub path: String,
    /// `new` or `changed`.
    pub change: &'static str,
    pub sha256: String,
    pub requests: Vec<JsonRequest>,
    pub lines: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Vec<JsonDiffItem>>,
    pub destinations: Vec<JsonDestination>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<JsonPolicy>,
    pub outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `--why`: who changed this changed config.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<serde_json::Value>,
}

/// `trust`'s document (the JSON contract): nothing before the end, then
/// the listing with what was recorded.
pub struct Json;

impl TrustPrinter for Json {
    fn listing(
        &mut self,
        _: &TrustListing,
        _: &Why,
        _: &Env,
        _: &mut Io<'_>,
    ) -> Result<(), CliError> {
        Ok(())
    }

    fn end(
        &mut self,
        listing: &TrustListing,
        why: &Why,
        end: &TrustEnd<'_>,
        env: &Env,
        io: &mut Io<'_>,
    ) -> Result<(), CliError> {
        let outcome = match end {
            TrustEnd::Recorded(o) => Some(*o),
            _ => None,
        };
        Ok(print(listing, why, None, outcome, env, io)?)
    }
}

/// The document of a trust, as far as it went: listed (and judged, with
/// `gate`), and recorded when there is an `outcome`.
pub fn print(
    listing: &TrustListing,
    why: &Why,
    gate: Option<&Gate<'_>>,
    outcome: Option<&TrustOutcome>,
    env: &Env,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    let plan = &listing.plan;
    let configs = Configs {
        listing,
        why,
        env,
        judged: gate
            .map(|g| {
                g.judged
                    .iter()
                    .map(|j| (j.snapshot.key.as_str(), j))
                    .collect()
            })
            .unwrap_or_default(),
        recorded: outcome.map(|o| (o, o.shown.iter().map(String::as_str).collect())),
    };
    let doc = JsonTrust {
        schema: Schema::default(),
        store: listing.loc.path.clone(),
        dry_run: listing.dry_run,
        policy: gate.map(|g| JsonPolicyFile {
            path: g.policy.source.to_string(),
            sha256: g.policy.sha256.clone(),
        }),
        configs,
        already_trusted: plan.unchanged,
        not_followed: plan
            .not_followed_links
            .iter()
            .map(JsonNotFollowed::from)
            .collect(),
        store_warnings: listing.store_warnings.clone(),
        shadowed: plan
            .shadowed
            .iter()
            .map(|s| JsonShadowed {
                path: s.path.clone(),
                by: s.by.clone(),
            })
            .collect(),
        missing: plan
            .missing
            .iter()
            .map(|(key, trusted_at)| JsonMissing {
                key: key.clone(),
                trusted_at: trusted_at.clone(),
            })
            .collect(),
        ignored: listing.ignored.iter().map(|c| ignored(c, env)).collect(),
    };
    // Written as it is serialized, the configs made one at a time: the
    // bytes `to_json` would make of the whole, never held whole.
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, &mut *io.out);
    serde_json::to_writer_pretty(&mut out, &doc).map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The listed configs of the document, each made, written and let go of
/// in turn (20,000 configs are never held as JSON at once), with the
/// gate's decision and what the store did with it.
struct Configs<'a> {
    listing: &'a TrustListing,
    why: &'a Why,
    env: &'a Env,
    /// The gate's judgement of each config, by key.
    judged: HashMap<&'a str, &'a Judged<'a>>,
    /// The outcome of the write, and the keys handed to it.
    recorded: Option<(&'a TrustOutcome, HashSet<&'a str>)>,
}

impl Serialize for Configs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let candidates = &self.listing.plan.candidates;
        serializer.collect_seq(candidates.iter().map(|c| self.config(c)))
    }
}

impl Configs<'_> {
    /// One listed config: `wouldRecord`, unless the gate left it out or
    /// the store recorded or refused it.
    fn config(&self, c: &TrustCandidate) -> JsonTrusted {
        let key = c.snapshot.key.as_str();
        let mut t = trusted(c, &self.listing.store, self.env);
        t.provenance = self
            .why
            .get(key)
            .and_then(|p| serde_json::to_value(provenance::of(p)).ok());
        if let Some(j) = self.judged.get(key) {
            t.policy = Some(JsonPolicy::from(&j.decision));
            if let Some(reason) = j.left_out_reason() {
                t.outcome = "leftOut";
                t.reason = Some(reason);
            }
        }
        if let Some((outcome, shown)) = &self.recorded
            && shown.contains(key)
        {
            if outcome.refused(key) {
                t.outcome = "refused";
                t.reason = Some(CHANGED_SINCE_SHOWN.into());
            } else {
                t.outcome = "recorded";
                t.reason = None;
            }
        }
        t
    }
}

/// A listed config, `wouldRecord` until its outcome is known.
fn trusted(c: &TrustCandidate, store: &Store, env: &Env) -> JsonTrusted {
    let s = &c.snapshot;
    let targets = s.targets.as_pairs();
    // The block's JSON and lines, made again for this config and dropped
    // with it.
    let block = s.json();
    let lines = c.lines();
    let diff = store
        .get(s.key.as_str())
        .filter(|_| c.changed)
        .map(|stored| diff_items(&stored.block.value(), &block, targets, &lines));
    JsonTrusted {
        key: s.key.as_str().to_string(),
        path: display_path(s.key.as_str(), &env.cwd),
        change: change(c),
        sha256: s.sha256.clone(),
        requests: requests_of(&block),
        lines: s.lines(),
        diff,
        destinations: destinations_of(&lines, targets),
        policy: None,
        outcome: "wouldRecord",
        reason: None,
        provenance: None,
    }
}

/// A config left out as ignored.
fn ignored(c: &TrustCandidate, env: &Env) -> JsonIgnored {
    let key = c.snapshot.key.as_str();
    JsonIgnored {
        key: key.to_string(),
        path: display_path(key, &env.cwd),
        change: change(c),
        sha256: c.snapshot.sha256.clone(),
    }
}

/// `new` or `changed`.
fn change(c: &TrustCandidate) -> &'static str {
    if c.changed { "changed" } else { "new" }
}
