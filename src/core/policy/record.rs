//! Decision records: every decision the gate makes (except `policy evaluate`,
//! which only reports) is written to
//! `<state dir>/decisions/<timestamp>-<pid>-<random>.json` before anything it
//! allows is executed. Unlike the reference (docs/src/compatibility.md#reference-execution-records), a
//! record that cannot be written is an error and the operation does not run:
//! an audit trail with silent holes is not one.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::load::Policy;
use super::requests::ConfigDecision;
use super::target::{ResolvedTarget, lexical_path};
use super::verdict::{Class, Verdict};
use crate::core::env::{Env, UserDir};
use crate::core::paths::portable::create_private_dir_all;

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(
        "no state directory for decision records: pass --state-dir, or set GOCCIA_TRUST_STATE_DIR, XDG_STATE_HOME or HOME"
    )]
    NoStateDir,
    /// The state directory (or where it would be made) can be written by
    /// someone else: they could forge or remove records (core::store safety).
    #[error("{0}")]
    Unsafe(String),
    #[error("cannot write decision record in {}: {source}", .dir.display())]
    Io {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The state directory: `--state-dir`, else `$GOCCIA_TRUST_STATE_DIR`, else
/// the per-user state directory ([`Env::user_dir`]: on Linux
/// `$XDG_STATE_HOME/goccia-trust` when absolute, per the XDG spec, else
/// `~/.local/state/goccia-trust`). Relative values of the first two resolve
/// against the working directory. Empty values count as unset. This only
/// says where records go; no location is ever approved by it.
pub fn state_dir(flag: Option<&str>, env: &Env) -> Result<PathBuf, RecordError> {
    let explicit = flag
        .filter(|s| !s.is_empty())
        .or(Some(env.state_dir.as_str()).filter(|s| !s.is_empty()));
    if let Some(dir) = explicit {
        return Ok(PathBuf::from(lexical_path(dir, &env.cwd)));
    }
    env.user_dir(UserDir::State).ok_or(RecordError::NoStateDir)
}

#[derive(Serialize)]
struct Envelope<'a, T: Serialize> {
    id: &'a str,
    enforced_before_execution: bool,
    #[serde(flatten)]
    body: &'a T,
}

/// A record on disk; [`RecordHandle::update`] rewrites it in place once an
/// allowed operation has run.
#[derive(Debug, Clone)]
pub struct RecordHandle {
    pub id: String,
    pub path: PathBuf,
}

/// Writes a new record. `body` must serialize as a JSON object; its fields
/// follow `id` and `enforced_before_execution` in their declared order.
pub fn write_record<T: Serialize>(state_dir: &Path, body: &T) -> Result<RecordHandle, RecordError> {
    write_record_in(state_dir, crate::core::env::DECISIONS_DIR.name, body)
}

/// [`write_record`] into `<state dir>/<sub>/`, with the same checks and the
/// same atomic, no-clobber write.
fn write_record_in<T: Serialize>(
    state_dir: &Path,
    sub: &str,
    body: &T,
) -> Result<RecordHandle, RecordError> {
    let dir = state_dir.join(sub);
    let io = |source| RecordError::Io {
        dir: dir.clone(),
        source,
    };
    if let Some(issue) = crate::core::store::refusal(&crate::core::store::check_state_dir(
        state_dir,
        &crate::core::store::User::current(),
    )) {
        return Err(RecordError::Unsafe(issue.text.clone()));
    }
    // Private from the start, whatever the umask: records are the user's.
    create_private_dir_all(&dir).map_err(io)?;
    // The random part makes collisions unlikely; persist_noclobber makes
    // them impossible, so retry with a fresh id on the rare clash.
    for _ in 0..8 {
        let handle = RecordHandle {
            id: new_id(),
            path: PathBuf::new(),
        };
        let path = dir.join(format!("{}.json", handle.id));
        let tmp = persist_tmp(&dir, &handle.id, body).map_err(io)?;
        match tmp.persist_noclobber(&path) {
            Ok(_) => return Ok(RecordHandle { path, ..handle }),
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io(e.error)),
        }
    }
    Err(io(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        "no free record name",
    )))
}

impl RecordHandle {
    /// Replaces the record with `body` (same id), atomically: a reader sees
    /// the decision or the decision with its outcome, never half of either.
    pub fn update<T: Serialize>(&self, body: &T) -> Result<(), RecordError> {
        let dir = self.path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let io = |source| RecordError::Io {
            dir: dir.clone(),
            source,
        };
        let tmp = persist_tmp(&dir, &self.id, body).map_err(io)?;
        tmp.persist(&self.path).map_err(|e| io(e.error))?;
        Ok(())
    }
}

fn persist_tmp<T: Serialize>(
    dir: &Path,
    id: &str,
    body: &T,
) -> std::io::Result<tempfile::NamedTempFile> {
    let envelope = Envelope {
        id,
        enforced_before_execution: true,
        body,
    };
    let mut text = serde_json::to_string_pretty(&envelope).map_err(std::io::Error::other)?;
    text.push('\n');
    let mut tmp = tempfile::Builder::new()
        .prefix(".record-")
        .tempfile_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

/// `2026-12-02T07-56-07-664Z-12725-kamz1z`: sortable by time, unique per
/// process, safe in every file system.
fn new_id() -> String {
    let now = jiff::Timestamp::now();
    let stamp = now.strftime("%Y-%m-%dT%H-%M-%S").to_string();
    let millis = now.subsec_millisecond();
    format!(
        "{stamp}-{millis:03}Z-{}-{}",
        std::process::id(),
        random_base36(6)
    )
}

/// ISO 8601 UTC with milliseconds, as JavaScript's `toISOString`.
pub fn iso_now() -> String {
    let now = jiff::Timestamp::now();
    format!(
        "{}.{:03}Z",
        now.strftime("%Y-%m-%dT%H:%M:%S"),
        now.subsec_millisecond()
    )
}

fn random_base36(len: usize) -> String {
    use std::hash::{BuildHasher, Hasher};
    // RandomState is seeded from the OS per instance: enough to tell apart
    // records of the same process and millisecond, without a rand crate.
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    let mut n = h.finish();
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    (0..len)
        .map(|_| {
            let d = digits[(n % 36) as usize] as char;
            n /= 36;
            d
        })
        .collect()
}

#[derive(Serialize)]
struct RequestRecord<'a> {
    kind: &'a str,
    scope: Option<&'a str>,
    risk: &'a str,
    level: Option<&'a str>,
    target: Option<&'a str>,
    resolved_target: Option<&'a ResolvedTarget>,
    classification: Option<Class>,
    verdict: Verdict,
    reason: &'a str,
}

#[derive(Serialize)]
struct ConfigRecord<'a> {
    op: &'static str,
    config_key: &'a str,
    block_sha256: &'a str,
    policy: String,
    policy_sha256: &'a str,
    risk: Option<&'a str>,
    verdict: Verdict,
    reason: String,
    executed: bool,
    /// The `--expect` hashes the block was checked against, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    expect: Option<&'a [String]>,
    /// With `--reviewed-by`: the principals whose reviews counted.
    #[serde(rename = "reviewedBy", skip_serializing_if = "Option::is_none")]
    reviewed_by: Option<&'a [String]>,
    /// With `--reviewed-by`: the allowed signers file and its SHA-256.
    #[serde(rename = "allowedSigners", skip_serializing_if = "Option::is_none")]
    allowed_signers: Option<SignersRecord<'a>>,
    /// With `--reviewed-by`: the reviews needed.
    #[serde(rename = "minReviews", skip_serializing_if = "Option::is_none")]
    min_reviews: Option<usize>,
    requests: Vec<RequestRecord<'a>>,
}

#[derive(Serialize)]
struct SignersRecord<'a> {
    path: &'a str,
    sha256: &'a str,
}

/// What a config's signed reviews came to, for its decision record
/// (`trust --policy --reviewed-by`): the principals whose reviews of its
/// current version counted, the allowed signers file that decided whose
/// count, its SHA-256, and the number needed.
#[derive(Debug, Clone, Default)]
pub struct ReviewedBy {
    pub principals: Vec<String>,
    pub allowed_signers: String,
    pub sha256: String,
    pub required: usize,
}

/// Records a config-trust decision: the config's key, its block's sha256,
/// the policy and its sha256, the verdict, and every request's verdict and
/// resolved target. `risk` and `reason` are those of the first request with
/// the config's (worst) verdict. `executed` is always false: the record is
/// written before the trust is, and the caller must not trust the config if
/// this fails. Returns the record's path.
#[cfg(test)]
pub fn record_config_decision(
    state_dir: &Path,
    config_key: &str,
    block_sha256: &str,
    policy: &Policy,
    decision: &ConfigDecision,
) -> Result<PathBuf, RecordError> {
    record_config_decision_expecting(state_dir, config_key, block_sha256, policy, decision, None)
}

/// Which `--expect` hashes a config was checked against, and whether its
/// block's hash was one of them.
#[derive(Debug, Clone, Copy)]
pub struct Expectation<'a> {
    pub hashes: &'a [String],
    pub matched: bool,
}

/// [`record_config_decision`] for `trust --expect`: the hashes are recorded,
/// and a block whose hash is not among them is DENIED with that reason,
/// whatever the policy decided (every request's own verdict is still kept).
#[cfg(test)]
pub fn record_config_decision_expecting(
    state_dir: &Path,
    config_key: &str,
    block_sha256: &str,
    policy: &Policy,
    decision: &ConfigDecision,
    expect: Option<Expectation<'_>>,
) -> Result<PathBuf, RecordError> {
    write_config_decision(
        state_dir,
        &ConfigTrust {
            config_key,
            block_sha256,
            policy,
            decision,
            expect,
            reviews: None,
        },
    )
    .map(|h| h.path)
}

/// One config-trust decision, as recorded.
#[derive(Debug, Clone, Copy)]
pub struct ConfigTrust<'a> {
    pub config_key: &'a str,
    pub block_sha256: &'a str,
    pub policy: &'a Policy,
    pub decision: &'a ConfigDecision,
    pub expect: Option<Expectation<'a>>,
    /// With `--reviewed-by`: who reviewed it.
    pub reviews: Option<&'a ReviewedBy>,
}

/// Writes the record of a decision, before anything is trusted
/// (`executed: false`); keep the handle to [`mark_config_trusted`] once the
/// store holds the trust.
pub fn write_config_decision(
    state_dir: &Path,
    trust: &ConfigTrust<'_>,
) -> Result<RecordHandle, RecordError> {
    write_record(state_dir, &config_record(trust, false))
}

/// Rewrites a decision's record with `executed: true`, after the trust it
/// allowed was recorded in the store.
pub fn mark_config_trusted(
    handle: &RecordHandle,
    trust: &ConfigTrust<'_>,
) -> Result<(), RecordError> {
    handle.update(&config_record(trust, true))
}

fn config_record<'a>(trust: &ConfigTrust<'a>, executed: bool) -> ConfigRecord<'a> {
    let ConfigTrust {
        config_key,
        block_sha256,
        policy,
        decision,
        expect,
        reviews,
    } = *trust;
    let deciding = decision
        .operations
        .iter()
        .find(|o| o.decision.verdict == decision.verdict);
    let (verdict, risk, reason) = match (expect, deciding) {
        (Some(e), _) if !e.matched => (Verdict::Denied, None, expect_refusal(block_sha256)),
        (_, Some(o)) => (
            decision.verdict,
            Some(o.decision.risk.as_str()),
            format!("{}: {}", o.operation.kind.name(), o.decision.reason),
        ),
        (_, None) => (
            decision.verdict,
            None,
            "the config requests nothing".to_string(),
        ),
    };
    ConfigRecord {
        op: "config-trust",
        config_key,
        block_sha256,
        policy: policy.source.to_string(),
        policy_sha256: &policy.sha256,
        risk,
        verdict,
        reason,
        executed,
        expect: expect.map(|e| e.hashes),
        reviewed_by: reviews.map(|r| r.principals.as_slice()),
        allowed_signers: reviews.map(|r| SignersRecord {
            path: &r.allowed_signers,
            sha256: &r.sha256,
        }),
        min_reviews: reviews.map(|r| r.required),
        requests: decision
            .operations
            .iter()
            .map(|o| RequestRecord {
                kind: o.operation.kind.name(),
                scope: o.operation.scope.as_deref(),
                risk: &o.decision.risk,
                level: o.decision.level.as_deref(),
                target: o.operation.target.as_deref(),
                resolved_target: o.decision.target.as_ref(),
                classification: o.decision.classification,
                verdict: o.decision.verdict,
                reason: &o.decision.reason,
            })
            .collect(),
    }
}

/// Why `--expect` refused a block.
pub fn expect_refusal(block_sha256: &str) -> String {
    format!("block sha256 {block_sha256} is not one of --expect")
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;

/// The directory of run summaries, beside `decisions/`.
pub const RUNS_DIR: &str = crate::core::env::RUNS_DIR.name;

/// One config of a run summary.
#[derive(Debug, Clone, Serialize)]
pub struct RunConfig {
    pub config_key: String,
    pub block_sha256: String,
    pub verdict: Verdict,
    /// The per-decision record of this config.
    pub record: String,
}

/// Verdict counts of a run, keyed as the verdicts are spelled.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RunCounts {
    #[serde(rename = "ALLOWED")]
    pub allowed: usize,
    #[serde(rename = "NEEDS_AUTH")]
    pub needs_auth: usize,
    #[serde(rename = "DENIED")]
    pub denied: usize,
}

/// One policy-gated trust run (`trust --yes --policy`): the policy and its
/// hash, the counts per verdict, every judged config's key, block hash,
/// verdict and decision record, and (once the store holds them) the keys
/// trusted. Its id, in the envelope, is the run's id.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    pub op: &'static str,
    pub policy: String,
    pub policy_sha256: String,
    pub counts: RunCounts,
    pub configs: Vec<RunConfig>,
    /// False when written, before anything is trusted; true once the store
    /// was written (then `trusted` lists what it holds from this run).
    pub executed: bool,
    pub trusted: Vec<String>,
}

impl RunSummary {
    /// The summary of judged configs, each with its decision record.
    pub fn new(policy: &Policy, configs: Vec<RunConfig>) -> RunSummary {
        let mut counts = RunCounts::default();
        for c in &configs {
            match c.verdict {
                Verdict::Allowed => counts.allowed += 1,
                Verdict::NeedsAuth => counts.needs_auth += 1,
                Verdict::Denied => counts.denied += 1,
            }
        }
        RunSummary {
            op: "config-trust-run",
            policy: policy.source.to_string(),
            policy_sha256: policy.sha256.clone(),
            counts,
            configs,
            executed: false,
            trusted: Vec::new(),
        }
    }
}

/// Writes a run summary to `<state dir>/runs/<id>.json`, as decision records
/// are written (private directory, atomic, never overwriting another).
pub fn write_run_summary(
    state_dir: &Path,
    summary: &RunSummary,
) -> Result<RecordHandle, RecordError> {
    write_record_in(state_dir, RUNS_DIR, summary)
}

/// A run summary as read back.
#[derive(Debug, Clone)]
pub struct StoredRun {
    pub path: PathBuf,
    pub text: String,
}

/// Every run summary under `<state dir>/runs/`, oldest first (ids sort by
/// time). A directory that does not exist holds none; an entry that cannot
/// be read is an error naming it, never skipped.
pub fn read_run_summaries(state_dir: &Path) -> Result<Vec<StoredRun>, String> {
    let dir = state_dir.join(RUNS_DIR);
    let entries = match std::fs::read_dir(&dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(format!(
                "cannot list run summaries in {}: {e}",
                dir.display()
            ));
        }
    };
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list run summaries in {}: {e}", dir.display()))?
            .path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        // Temporary files of a write in progress start with a dot.
        if name.is_some_and(|n| n.ends_with(".json") && !n.starts_with('.')) {
            paths.push(path);
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let unreadable =
                |cause: String| format!("cannot read run summary {}: {cause}", path.display());
            let bytes = crate::core::paths::bounded::read_regular(
                &path,
                crate::core::paths::bounded::STORE_MAX_BYTES,
            )
            .map_err(|e| unreadable(e.describe()))?;
            let text = String::from_utf8(bytes).map_err(|_| unreadable("not UTF-8".into()))?;
            Ok(StoredRun { path, text })
        })
        .collect()
}
