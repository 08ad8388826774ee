//! What each `policy` verb decided and did, before anything is printed: one
//! result per verb, the same whatever the output, which
//! `print::json::policy` renders (and `print::text::policy` for the roots
//! `policy show` explains on stderr). A file of its own, below both the
//! command (`cli::policy`) and its printers, so that neither imports the
//! other.

use serde::Serialize;

use crate::core::exit;
use crate::core::exit::unreadable_exit;
use crate::core::policy::{ConfigDecision, Decision, Policy};
use crate::core::review::discover::Discovery;
use crate::core::review::report::{ConfigReport, worst_exit};

/// `policy records`: the newest run summary as written (`--last`), or the
/// list of every run, oldest first.
pub enum Records {
    Last(String),
    List(Vec<RunListed>),
}

/// One run in the `policy records` list: the summary's own fields (null
/// where it has none) and the file it was read from.
#[derive(Serialize)]
pub struct RunListed {
    pub id: serde_json::Value,
    pub path: String,
    pub policy: serde_json::Value,
    pub policy_sha256: serde_json::Value,
    pub counts: VerdictCounts,
    pub executed: serde_json::Value,
}

/// A summary's `counts` as the summary itself orders them (`ALLOWED`,
/// `NEEDS_AUTH`, `DENIED`, then any other member), so `policy records` and
/// `policy records --last` agree; JSON objects here otherwise come out
/// sorted by name. Anything but an object is written as it is.
pub struct VerdictCounts(pub serde_json::Value);

impl Serialize for VerdictCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let serde_json::Value::Object(map) = &self.0 else {
            return self.0.serialize(s);
        };
        const ORDER: [&str; 3] = ["ALLOWED", "NEEDS_AUTH", "DENIED"];
        let mut out = s.serialize_map(Some(map.len()))?;
        for key in ORDER {
            if let Some(v) = map.get(key) {
                out.serialize_entry(key, v)?;
            }
        }
        for (k, v) in map.iter().filter(|(k, _)| !ORDER.contains(&k.as_str())) {
            out.serialize_entry(k, v)?;
        }
        out.end()
    }
}

/// `policy run`: the operation's decision and, when it was ALLOWED, what
/// running it did. `record` is the decision record's path, written before
/// anything ran.
pub enum RunOutcome {
    /// Not ALLOWED: nothing ran.
    NotExecuted { decision: Decision, record: String },
    /// The target was read whole.
    Read {
        bytes: u64,
        content_sha256: String,
        record: String,
    },
    /// The command ran to its end, or to the time limit.
    Spawned {
        exit_code: Option<i32>,
        signal: Option<String>,
        timed_out: bool,
        record: String,
    },
    /// ALLOWED, but the file could not be read or the command not started;
    /// `refused` when the target is not a regular file (a FIFO, a device),
    /// which is never opened for reading.
    Failed {
        error: String,
        record: String,
        refused: bool,
    },
}

impl RunOutcome {
    /// The verdict's code when nothing ran; the child's code when it ran (1
    /// when a signal ended it); 1 when running failed, 2 when the target
    /// was refused as not a regular file.
    pub fn exit_code(&self) -> u8 {
        match self {
            RunOutcome::NotExecuted { decision, .. } => decision.verdict.exit_code(),
            RunOutcome::Read { .. } => exit::SUCCESS,
            RunOutcome::Spawned { exit_code, .. } => exit_code.map_or(exit::FAILURE, |c| c as u8),
            RunOutcome::Failed { refused: true, .. } => exit::USAGE,
            RunOutcome::Failed { .. } => exit::FAILURE,
        }
    }
}

/// `scan --policy`'s result: every config's state and, when it requests
/// anything, the policy's verdict, with what `scan` says besides (links not
/// followed, shadowed files, missing entries); the same for every format.
pub struct PolicyScan {
    pub paths: Vec<String>,
    pub policy: Policy,
    pub found: Discovery,
    pub reports: Vec<ConfigReport>,
    /// Beside each report: the verdict of a config that requests anything.
    pub decisions: Vec<Option<ConfigDecision>>,
    pub store_error: Option<String>,
    pub store_warnings: Vec<String>,
    /// Trusted configs under the paths that are gone: key, `trustedAt`.
    pub missing: Vec<(String, String)>,
}

impl PolicyScan {
    /// As `scan`'s: the worst of the configs' errors and of what could not
    /// be read (a config may hide there), in every format; a verdict never
    /// changes it.
    pub fn exit_code(&self) -> u8 {
        exit::worst(
            worst_exit(&self.reports),
            unreadable_exit(!self.found.unreadable.is_empty()),
        )
    }
}
