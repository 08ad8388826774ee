//! The `policy` verbs' JSON documents on stdout (the reference's `policy`,
//! `evaluate` and `run` output): compact, or pretty (2 spaces) with
//! `--pretty`/`--json`. Each is one line, flushed at once; a closed stdout
//! ends the command quietly.

use serde::Serialize;

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::outcome::policy::{Records, RunOutcome};
use crate::core::policy::{Decision, Policy};

/// `policy show`: the policy as read (the seed's output).
pub fn show(policy: &Policy, pretty: bool, io: &mut Io<'_>) -> Result<(), CliError> {
    emit(io, &policy.to_json(pretty))
}

/// `policy evaluate`: the decision.
pub fn decision(decision: &Decision, pretty: bool, io: &mut Io<'_>) -> Result<(), CliError> {
    print_json(io, decision, pretty)
}

/// `policy records`: the newest summary byte for byte as written, or the
/// list.
pub fn records(records: &Records, pretty: bool, io: &mut Io<'_>) -> Result<(), CliError> {
    match records {
        Records::Last(text) => {
            io.out.write_all(text.as_bytes())?;
            io.out.flush()?;
            Ok(())
        }
        Records::List(listed) => print_json(io, listed, pretty),
    }
}

#[derive(Serialize)]
struct NotExecuted<'a> {
    #[serde(flatten)]
    decision: &'a Decision,
    executed: bool,
    record: &'a str,
}

// stdout of an executed run, in the reference's key order (serde_json's
// `json!` would sort the keys).
#[derive(Serialize)]
struct ReadDone<'a> {
    executed: bool,
    bytes: u64,
    content_sha256: &'a str,
    record: &'a str,
}

#[derive(Serialize)]
struct SpawnDone<'a> {
    executed: bool,
    exit_code: Option<i32>,
    signal: Option<&'a str>,
    timed_out: bool,
    record: &'a str,
}

#[derive(Serialize)]
struct ExecFailed<'a> {
    executed: bool,
    error: &'a str,
    record: &'a str,
}

/// `policy run`: the decision when nothing ran, else what running did.
pub fn run(outcome: &RunOutcome, pretty: bool, io: &mut Io<'_>) -> Result<(), CliError> {
    match outcome {
        RunOutcome::NotExecuted { decision, record } => {
            let doc = NotExecuted {
                decision,
                executed: false,
                record,
            };
            print_json(io, &doc, pretty)
        }
        RunOutcome::Read {
            bytes,
            content_sha256,
            record,
        } => {
            let doc = ReadDone {
                executed: true,
                bytes: *bytes,
                content_sha256,
                record,
            };
            print_json(io, &doc, pretty)
        }
        RunOutcome::Spawned {
            exit_code,
            signal,
            timed_out,
            record,
        } => {
            let doc = SpawnDone {
                executed: true,
                exit_code: *exit_code,
                signal: signal.as_deref(),
                timed_out: *timed_out,
                record,
            };
            print_json(io, &doc, pretty)
        }
        RunOutcome::Failed { error, record, .. } => {
            let doc = ExecFailed {
                executed: false,
                error,
                record,
            };
            print_json(io, &doc, pretty)
        }
    }
}

fn print_json<T: Serialize>(io: &mut Io<'_>, value: &T, pretty: bool) -> Result<(), CliError> {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    };
    emit(io, &text.map_err(std::io::Error::from)?)
}

/// Writes one line of output; a closed stdout ends the command quietly.
fn emit(io: &mut Io<'_>, text: &str) -> Result<(), CliError> {
    writeln!(io.out, "{text}")?;
    io.out.flush()?;
    Ok(())
}
