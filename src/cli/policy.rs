//! `goccia-trust policy show|evaluate|run`: the policy gate on the command
//! line (docs/src/compatibility.md#the-policy-gate-reference-model, as adapted in #adapting-the-gate-to-config-trust).
//!
//! Output follows the reference's `policy`, `evaluate` and `run` verbs: one
//! JSON document on stdout, compact, or pretty (2 spaces) with `--json`.
//! Errors print `Error: <message>` on stderr, and with `--json` also
//! `{"error":"<message>"}` on stdout. Everything goes through the command's
//! [`Io`]: a closed stdout (`policy show | true`) ends the command quietly
//! (exit 141), as for every other command.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::io::Io;
use crate::cli::outcome::policy::{Records, RunListed, RunOutcome, VerdictCounts};
use crate::cli::print::{json, text};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::bounded::{ReadError, stream_regular};
use crate::core::policy::gate::operation_for_value;
use crate::core::policy::record::{RecordHandle, iso_now};
use crate::core::policy::spawn::{Echo, SpawnLimits, SpawnOutcome, run_bounded};
use crate::core::policy::{
    Class, Decision, LoadContext, Policy, RequestKind, ResolvedTarget, Verdict, evaluate,
    evaluate_operation, load_policy, policy_path, read_run_summaries, state_dir,
    workspace_for_builtin, write_record,
};
use crate::core::store::locate_store;

/// Decide, before anything is trusted or run, whether an operation is
/// ALLOWED (exit 0), DENIED (exit 3) or NEEDS_AUTH (exit 4); exit 2 for a
/// usage or policy error.
#[derive(Debug, Clone, clap::Args)]
pub struct PolicyArgs {
    #[command(subcommand)]
    pub command: PolicyCommand,
    /// The trust store's directory, always a denied root. Filled in by the
    /// caller from `--trust-store`; the platform default otherwise.
    #[arg(skip)]
    pub store_dir: Option<PathBuf>,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum PolicyCommand {
    /// Print the policy in force (the shipped default unless --policy).
    Show(ShowArgs),
    /// Decide one operation and print the decision; executes and records
    /// nothing.
    Evaluate(EvaluateArgs),
    /// Decide one operation, record the decision, and execute it only when
    /// ALLOWED.
    Run(RunArgs),
    /// List the summaries of policy-gated trust runs (one per `trust --yes
    /// --policy`), oldest first; --last shows the newest in full.
    Records(RecordsArgs),
}

#[derive(Debug, Clone, clap::Args)]
pub struct RecordsArgs {
    /// Print the newest run summary as written, instead of the list.
    #[arg(long)]
    pub last: bool,
    /// The state directory holding runs/ (default as for `policy run`).
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub state_dir: Option<String>,
    /// Pretty-print the list (2 spaces); `--json` is the same flag.
    #[arg(long = "pretty", visible_alias = "json")]
    pub json: bool,
}

#[derive(Debug, Clone, clap::Args)]
pub struct PolicyFileArgs {
    /// Policy file, relative to the working directory; its relative roots
    /// (`.` included) resolve against its own directory. Without it, the
    /// default policy shipped for this platform.
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub policy: Option<String>,
    /// What `.` means in the shipped default policy (default: the
    /// repository root containing the working directory, else the working
    /// directory). Not with --policy.
    #[arg(long, value_name = "DIR", conflicts_with = "policy", value_hint = clap::ValueHint::DirPath)]
    pub workspace: Option<String>,
    /// Pretty-print the JSON output (2 spaces), which is JSON either way;
    /// an error is then also `{"error": ...}` on stdout. `--json` is the
    /// seed's spelling of this same flag.
    #[arg(long = "pretty", visible_alias = "json")]
    pub json: bool,
}

#[derive(Debug, Clone, clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub common: PolicyFileArgs,
}

#[derive(Debug, Clone, clap::Args)]
pub struct EvaluateArgs {
    /// Risk class, e.g. R0..R4, looked up exactly in the policy's
    /// risk_to_level.
    #[arg(
        long,
        value_name = "R",
        required_unless_present = "kind",
        conflicts_with = "kind"
    )]
    pub risk: Option<String>,
    /// Target path, relative to the working directory. Without one, only the
    /// level's grant decides.
    #[arg(long, value_name = "T", conflicts_with = "kind", value_hint = clap::ValueHint::AnyPath)]
    pub target: Option<String>,
    /// Judge --value as a config's request of this kind (allow-net,
    /// allow-read, ...): at the kind's risk class, or as the policy's
    /// per-value rules say.
    #[arg(long, value_name = "KIND", requires = "value")]
    pub kind: Option<String>,
    /// The request's value for --kind: a host, an import specifier, or a
    /// path (relative to the working directory).
    #[arg(long, value_name = "V", requires = "kind")]
    pub value: Option<String>,
    #[command(flatten)]
    pub common: PolicyFileArgs,
}

#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// Risk class the operation is declared at.
    #[arg(long, value_name = "R")]
    pub risk: String,
    /// `read` (needs --target) or `spawn` (needs `-- COMMAND [ARGS...]`).
    #[arg(long, value_name = "OP")]
    pub op: String,
    /// File to read, relative to the working directory.
    #[arg(long, value_name = "T", value_hint = clap::ValueHint::FilePath)]
    pub target: Option<String>,
    /// Where decision records go: DIR/decisions/. Default
    /// $GOCCIA_TRUST_STATE_DIR, else $XDG_STATE_HOME/goccia-trust, else
    /// ~/.local/state/goccia-trust.
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub state_dir: Option<String>,
    /// Time limit of a spawned command; at the limit it gets SIGTERM, then
    /// SIGKILL after --kill-grace-ms.
    #[arg(long, value_name = "MS", default_value_t = 15_000)]
    pub timeout_ms: u64,
    /// Time between SIGTERM and SIGKILL at the limit.
    #[arg(long, value_name = "MS", default_value_t = 2_000)]
    pub kill_grace_ms: u64,
    #[command(flatten)]
    pub common: PolicyFileArgs,
    /// The command to spawn, in the working directory, with this exact
    /// argument vector. Its stdout and stderr are streamed to stderr as it
    /// runs (and digested for the record); its exit code is passed through.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Runs `policy ...`. With `--json` an error is also printed as
/// `{"error": "<message>"}` on stdout. The store's own directory is always
/// a denied root, so the gate is told where the store is.
pub fn run(ctx: &mut Ctx<'_, '_>, args: &PolicyArgs) -> CliResult {
    let (env, io) = (ctx.env, &mut *ctx.io);
    let mut args = args.clone();
    args.store_dir = locate_store(ctx.globals.trust_store.as_deref(), env)
        .ok()
        .map(|loc| loc.dir().to_path_buf());
    let args = &args;
    let (common, result) = match &args.command {
        PolicyCommand::Show(a) => (&a.common, show(a, args, env, io)),
        PolicyCommand::Evaluate(a) => (&a.common, evaluate_cmd(a, args, env, io)),
        PolicyCommand::Run(a) => (&a.common, run_cmd(a, args, env, io)),
        PolicyCommand::Records(a) => {
            return records_cmd(a, env, io).map_err(|e| e.with_json(a.json));
        }
    };
    result.map_err(|e| e.with_json(common.json))
}

/// The policy for the `policy` verbs: a file's relative roots resolve
/// against the file's directory, the built-in policy's against
/// `--workspace` (default: the repository root containing the working
/// directory, else the working directory). Also returns what `.` became and
/// why, for `policy show`.
fn load(
    common: &PolicyFileArgs,
    args: &PolicyArgs,
    state: Option<&Path>,
    env: &Env,
) -> Result<(Policy, &'static str), CliError> {
    let (anchor, why) = match &common.policy {
        Some(file) => {
            let path = policy_path(file, env);
            let dir = path.parent().unwrap_or(Path::new("/"));
            (
                dir.to_string_lossy().into_owned(),
                "the policy file's directory",
            )
        }
        None => workspace_for_builtin(common.workspace.as_deref(), env),
    };
    // No store can be located (no HOME): there is no store directory to
    // protect beyond the policy's own denied roots.
    let store = args.store_dir.clone().unwrap_or_default();
    let anchors = [anchor];
    let ctx = LoadContext {
        env,
        anchors: &anchors,
        store_dir: &store,
        state_dir: state,
    };
    let policy =
        load_policy(common.policy.as_deref(), &ctx).map_err(|e| CliError::usage(e.to_string()))?;
    Ok((policy, why))
}

/// The records' directory as `policy run` would use it without
/// `--state-dir`, which no approved workspace may cover.
fn default_state_dir(env: &Env) -> Option<PathBuf> {
    state_dir(None, env).ok()
}

/// `policy show`: the policy as read (the seed's output, on stdout), then on
/// stderr every root as resolved, so an operator sees what `.` became.
fn show(a: &ShowArgs, args: &PolicyArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    let state = default_state_dir(env);
    let (policy, why) = load(&a.common, args, state.as_deref(), env)?;
    json::policy::show(&policy, a.common.json, io)?;
    text::policy::roots(&policy, why, io);
    Ok(exit::SUCCESS)
}

/// `policy records [--last]`: the run summaries under the state directory.
fn records_cmd(a: &RecordsArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    let records = read_records(a, env)?;
    json::policy::records(&records, a.json, io)?;
    Ok(exit::SUCCESS)
}

/// The run summaries under the state directory, each checked to be a JSON
/// object. One that cannot be read or is not a JSON object fails the
/// command (exit 1), naming it: an audit trail is shown whole or not at all.
fn read_records(a: &RecordsArgs, env: &Env) -> Result<Records, CliError> {
    let dir = state_dir(a.state_dir.as_deref(), env).map_err(CliError::failed)?;
    let runs = read_run_summaries(&dir).map_err(CliError::failed)?;
    let mut listed = Vec::new();
    for run in &runs {
        let value: serde_json::Value = serde_json::from_str(&run.text).map_err(|e| {
            CliError::failed(format!(
                "cannot read run summary {}: {e}",
                run.path.display()
            ))
        })?;
        if !value.is_object() {
            return Err(CliError::failed(format!(
                "cannot read run summary {}: not a JSON object",
                run.path.display()
            )));
        }
        let field = |k: &str| value.get(k).cloned().unwrap_or(serde_json::Value::Null);
        listed.push(RunListed {
            id: field("id"),
            path: run.path.display().to_string(),
            policy: field("policy"),
            policy_sha256: field("policy_sha256"),
            counts: VerdictCounts(field("counts")),
            executed: field("executed"),
        });
    }
    if !a.last {
        return Ok(Records::List(listed));
    }
    match runs.into_iter().last() {
        Some(run) => Ok(Records::Last(run.text)),
        None => Err(CliError::failed(format!(
            "no run summary in {}",
            dir.join(crate::core::policy::record::RUNS_DIR).display()
        ))),
    }
}

const EVALUATE_USAGE: &str = "usage: policy evaluate --risk R [--target T] | --kind KIND --value V";

/// `policy evaluate`: the decision, printed; its verdict is the exit code.
fn evaluate_cmd(a: &EvaluateArgs, args: &PolicyArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    let decision = match (&a.kind, &a.value) {
        (Some(kind), Some(value)) => evaluate_request(a, kind, value, args, env)?,
        _ => evaluate_risk(a, args, env)?,
    };
    json::policy::decision(&decision, a.common.json, io)?;
    Ok(decision.verdict.exit_code())
}

/// `--kind KIND --value V`: a config's request of that kind, judged as the
/// policy's per-value rules (or the kind's risk class) say.
fn evaluate_request(
    a: &EvaluateArgs,
    kind: &str,
    value: &str,
    args: &PolicyArgs,
    env: &Env,
) -> Result<Decision, CliError> {
    let kind = RequestKind::from_name(kind).ok_or_else(|| {
        CliError::usage(format!(
            "unknown request kind {} (known: {})",
            crate::core::config::json::quote_json_string(kind),
            RequestKind::ALL.map(RequestKind::name).join(", ")
        ))
    })?;
    // Read as a config's request of that kind is, before any policy.
    let op = operation_for_value(kind, value, env).map_err(CliError::usage)?;
    let state = default_state_dir(env);
    let (policy, _) = load(&a.common, args, state.as_deref(), env)?;
    Ok(evaluate_operation(&policy, &op, env))
}

/// `--risk R [--target T]`: the risk class on the target, or the level's
/// grant alone without one.
fn evaluate_risk(a: &EvaluateArgs, args: &PolicyArgs, env: &Env) -> Result<Decision, CliError> {
    let risk = a.risk.as_deref().unwrap_or_default();
    if risk.is_empty() {
        return Err(CliError::usage(EVALUATE_USAGE));
    }
    let state = default_state_dir(env);
    let (policy, _) = load(&a.common, args, state.as_deref(), env)?;
    // As in the reference, an empty --target is no target.
    let target = a.target.as_deref().filter(|t| !t.is_empty());
    Ok(evaluate(&policy, risk, target, env))
}

/// The decision part of a `run` record; the outcome fields follow once the
/// operation has run.
#[derive(Serialize)]
struct RunRecord<'a> {
    op: &'a str,
    risk: &'a str,
    verdict: Verdict,
    reason: &'a str,
    level: Option<&'a str>,
    classification: Option<Class>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'a str>,
    resolved_target: Option<&'a ResolvedTarget>,
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cwd: Option<&'a str>,
    policy: String,
    policy_sha256: &'a str,
    executed: bool,
    #[serde(flatten)]
    outcome: Outcome,
}

#[derive(Serialize, Default)]
struct Outcome {
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_sha256: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    started: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ended: Option<String>,
    #[serde(flatten)]
    spawn: Option<SpawnFields>,
    #[serde(skip_serializing_if = "Option::is_none")]
    execution_error: Option<String>,
}

#[derive(Serialize)]
struct SpawnFields {
    exit_code: Option<i32>,
    signal: Option<String>,
    stdout_sha256: String,
    stderr_sha256: String,
    stdout_bytes: u64,
    stderr_bytes: u64,
    timed_out: bool,
}

impl Outcome {
    fn from_spawn(o: &SpawnOutcome, started: String) -> Outcome {
        Outcome {
            started: Some(started),
            ended: Some(iso_now()),
            spawn: Some(SpawnFields {
                exit_code: o.exit_code,
                signal: o.signal.clone(),
                stdout_sha256: o.stdout_sha256.clone(),
                stderr_sha256: o.stderr_sha256.clone(),
                stdout_bytes: o.stdout_bytes,
                stderr_bytes: o.stderr_bytes,
                timed_out: o.timed_out,
            }),
            ..Outcome::default()
        }
    }
}

/// `policy run`: decide, record, run only when ALLOWED, then print what
/// happened; the exit code is the verdict's, or the command's.
fn run_cmd(a: &RunArgs, args: &PolicyArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    let target = run_target(a)?;
    let outcome = gated_run(a, target, args, env)?;
    json::policy::run(&outcome, a.common.json, io)?;
    Ok(outcome.exit_code())
}

/// The checks of `policy run`'s arguments, before any policy is read: the
/// op is `read` with a target and no command, or `spawn` with a command and
/// no target. Returns the target (an empty one is none).
fn run_target(a: &RunArgs) -> Result<Option<&str>, CliError> {
    const USAGE: &str =
        "usage: policy run --risk R --op read --target T | --op spawn -- COMMAND [ARGS...]";
    if a.risk.is_empty() {
        return Err(CliError::usage(USAGE));
    }
    let target = a.target.as_deref().filter(|t| !t.is_empty());
    match a.op.as_str() {
        "read" if target.is_none() => Err(CliError::usage("read op requires --target")),
        "read" if !a.command.is_empty() => {
            Err(CliError::usage("read op takes no command after --"))
        }
        "spawn" if a.command.is_empty() => {
            Err(CliError::usage("spawn op requires -- COMMAND [ARGS...]"))
        }
        "spawn" if a.target.is_some() => Err(CliError::usage(
            "spawn op takes no --target (it is judged on the working directory)",
        )),
        "read" | "spawn" => Ok(target),
        other => Err(CliError::usage(format!(
            "unknown op \"{other}\" (supported: read, spawn)"
        ))),
    }
}

/// Decides the operation and writes its record, before anything runs
/// (without the record, nothing runs); then runs it only when ALLOWED.
fn gated_run(
    a: &RunArgs,
    target: Option<&str>,
    args: &PolicyArgs,
    env: &Env,
) -> Result<RunOutcome, CliError> {
    let dir = state_dir(a.state_dir.as_deref(), env);
    let (policy, _) = load(&a.common, args, dir.as_deref().ok(), env)?;
    let dir = dir.map_err(CliError::failed)?;
    let is_spawn = a.op == "spawn";
    // A spawn is judged on the directory it runs in.
    let judged = if is_spawn {
        Some(env.cwd.as_str())
    } else {
        target
    };
    let decision = evaluate(&policy, &a.risk, judged, env);
    let mut rec = RunRecord {
        op: &a.op,
        risk: &a.risk,
        verdict: decision.verdict,
        reason: &decision.reason,
        level: decision.level.as_deref(),
        classification: decision.classification,
        target,
        resolved_target: decision.target.as_ref(),
        command: is_spawn.then(|| a.command[0].as_str()),
        args: is_spawn.then(|| &a.command[1..]),
        cwd: is_spawn.then_some(env.cwd.as_str()),
        policy: policy.source.to_string(),
        policy_sha256: &policy.sha256,
        executed: false,
        outcome: Outcome::default(),
    };
    let handle = write_record(&dir, &rec).map_err(CliError::failed)?;
    let record = handle.path.display().to_string();
    if decision.verdict != Verdict::Allowed {
        return Ok(RunOutcome::NotExecuted { decision, record });
    }
    if is_spawn {
        spawn(a, env, &handle, &mut rec, record)
    } else {
        let resolved = (decision.target.as_ref())
            .ok_or_else(|| CliError::usage("read op requires --target"))?;
        read(resolved, &handle, &mut rec, record)
    }
}

/// Runs the command in the working directory within its time limit, and
/// completes the record with how it ended.
fn spawn(
    a: &RunArgs,
    env: &Env,
    handle: &RecordHandle,
    rec: &mut RunRecord,
    record: String,
) -> Result<RunOutcome, CliError> {
    let limits = SpawnLimits {
        timeout: Duration::from_millis(a.timeout_ms),
        grace: Duration::from_millis(a.kill_grace_ms),
    };
    let started = iso_now();
    let ran = run_bounded(
        &a.command[0],
        &a.command[1..],
        Path::new(&env.cwd),
        limits,
        echo_on_stderr(),
    );
    match ran {
        Ok(o) => {
            rec.executed = true;
            rec.outcome = Outcome::from_spawn(&o, started);
            finish(handle, rec)?;
            Ok(RunOutcome::Spawned {
                exit_code: o.exit_code,
                signal: o.signal,
                timed_out: o.timed_out,
                record,
            })
        }
        Err(e) => {
            let message = format!("cannot run {}: {e}", a.command[0]);
            failed_execution(handle, rec, message, record, false)
        }
    }
}

/// The command's output is shown as it runs, on stderr (both of its
/// streams): stdout stays the one JSON document of the result. Each stream
/// writes to its own copy of fd 2, since this thread holds
/// `std::io::stderr`'s lock for the whole command.
fn echo_on_stderr() -> Echo {
    Some(|| {
        #[cfg(unix)]
        let copy = {
            use std::os::fd::AsFd;
            std::io::stderr().as_fd().try_clone_to_owned()
        };
        #[cfg(windows)]
        let copy = {
            use std::os::windows::io::AsHandle;
            std::io::stderr().as_handle().try_clone_to_owned()
        };
        match copy {
            Ok(owned) => Box::new(std::fs::File::from(owned)),
            Err(_) => Box::new(std::io::sink()),
        }
    })
}

/// Reads what was judged: the canonical path, so a link swapped in after
/// classification is not followed to a new place; completes the record
/// with its size and digest. Only a regular file is opened, as `scan`
/// opens configs (a FIFO would wait for a writer, a device read forever),
/// and it is streamed through SHA-256, never held whole.
fn read(
    resolved: &ResolvedTarget,
    handle: &RecordHandle,
    rec: &mut RunRecord,
    record: String,
) -> Result<RunOutcome, CliError> {
    use sha2::Digest;
    let path = resolved.canonical.as_ref().unwrap_or(&resolved.lexical);
    let mut hasher = sha2::Sha256::new();
    match stream_regular(path, u64::MAX, |block| hasher.update(block)) {
        Ok(bytes) => {
            let sha = crate::core::config::block::lower_hex(&hasher.finalize());
            rec.executed = true;
            rec.outcome = Outcome {
                bytes: Some(bytes),
                content_sha256: Some(sha.clone()),
                ..Outcome::default()
            };
            finish(handle, rec)?;
            Ok(RunOutcome::Read {
                bytes,
                content_sha256: sha,
                record,
            })
        }
        Err(e) => {
            let refused = !matches!(e, ReadError::Io(_));
            let message = match e {
                ReadError::NotRegular { kind } => format!(
                    "cannot read {path}: not a regular file ({kind}); only regular files are read"
                ),
                ReadError::Io(e) => format!("cannot read {path}: {e}"),
                other => format!("cannot read {path}: {}", other.describe()),
            };
            failed_execution(handle, rec, message, record, refused)
        }
    }
}

fn finish(handle: &RecordHandle, rec: &RunRecord) -> Result<(), CliError> {
    handle.update(rec).map_err(CliError::failed)
}

/// ALLOWED but not run: the record says why.
fn failed_execution(
    handle: &RecordHandle,
    rec: &mut RunRecord,
    message: String,
    record: String,
    refused: bool,
) -> Result<RunOutcome, CliError> {
    rec.outcome.execution_error = Some(message.clone());
    finish(handle, rec)?;
    Ok(RunOutcome::Failed {
        error: message,
        record,
        refused,
    })
}
