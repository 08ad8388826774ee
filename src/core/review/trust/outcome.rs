//! What a `trust` run decides, as data for every output format: the
//! listing (new and changed configs, what was left out and why), a
//! policy gate's verdicts on it, and what the store recorded; and what
//! `untrust` removed. Nothing here
//! prints; the printers render these.

use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::{common_directory, display_path};
use crate::core::policy::{ConfigDecision, Policy, Verdict, expect_refusal};
use crate::core::review::trust::{ListedConfig, TrustCandidate, TrustCommit, TrustPlan};
use crate::core::store::{Store, StoreLocation};

/// What `trust` found under its paths, before anything is recorded.
pub struct TrustListing {
    pub loc: StoreLocation,
    /// The store as read before the listing (what a changed config is
    /// compared with).
    pub store: Store,
    /// Who else could write the store, as `storeWarnings` carries them.
    pub store_warnings: Vec<String>,
    /// The paths as the listing names them (`describe_targets`).
    pub targets: String,
    pub plan: TrustPlan,
    /// The candidates left out because they are ignored as they are now
    /// (a config file named on the command line never is).
    pub ignored: Vec<TrustCandidate>,
    pub dry_run: bool,
}

/// Why a listing ends before anything is listed (exit 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NothingToDo {
    /// Every new or changed config was left out as ignored: how many.
    AllIgnored(usize),
    /// No config under the paths requests permissions.
    NoRequest,
    /// Every requesting config is trusted and unchanged: how many.
    AlreadyTrusted(usize),
}

impl TrustListing {
    /// Whether there is nothing to list, and why.
    pub fn nothing_to_do(&self) -> Option<NothingToDo> {
        let plan = &self.plan;
        if plan.candidates.is_empty() && plan.left_out > 0 {
            Some(NothingToDo::AllIgnored(plan.left_out))
        } else if plan.requesting() == 0 {
            Some(NothingToDo::NoRequest)
        } else if plan.candidates.is_empty() {
            Some(NothingToDo::AlreadyTrusted(plan.unchanged))
        } else {
            None
        }
    }
}

/// What became of the configs handed to the store.
pub struct TrustOutcome {
    /// The keys handed to the store, in listing order.
    pub shown: Vec<String>,
    pub commit: TrustCommit,
    /// 1 when a config changed since shown (it was not recorded), else 0.
    pub code: u8,
}

impl TrustOutcome {
    pub fn new(shown: Vec<String>, commit: TrustCommit) -> TrustOutcome {
        let code = if commit.refused.is_empty() {
            exit::SUCCESS
        } else {
            exit::FAILURE
        };
        TrustOutcome {
            shown,
            commit,
            code,
        }
    }

    /// Whether the config with `key` was refused as changed since shown.
    pub fn refused(&self, key: &str) -> bool {
        self.commit.refused.iter().any(|r| r.key == key)
    }
}

/// One config's outcome under a policy gate.
pub struct Judged<'a> {
    pub snapshot: &'a ListedConfig,
    pub changed: bool,
    /// The policy's verdict, or DENIED when `--expect` refused the hash.
    pub verdict: Verdict,
    /// The policy's decision on every request, kept even when `--expect`
    /// refused the block, so that the output and the record show them.
    pub decision: ConfigDecision,
    pub expect_refusal: Option<String>,
}

impl Judged<'_> {
    /// Why the gate leaves this config out; `None` when it allows it.
    pub fn left_out_reason(&self) -> Option<String> {
        match (&self.expect_refusal, self.verdict) {
            (Some(r), _) => Some(r.clone()),
            (None, Verdict::Allowed) => None,
            (None, Verdict::Denied) => Some("denied by the policy; not trusted".to_string()),
            (None, v) => Some(format!(
                "{} by the policy: a person reviews and trusts it",
                v.as_str()
            )),
        }
    }
}

/// A `trust` listing judged by a policy (and `--expect`'s hashes).
pub struct Gate<'a> {
    pub policy: Policy,
    /// `--expect`'s hashes, lower-cased; empty without `--expect`.
    pub expected: Vec<String>,
    /// Each listed config's verdict, in listing order.
    pub judged: Vec<Judged<'a>>,
}

impl<'a> Gate<'a> {
    /// Each listed config's verdict: the policy's, or DENIED when its hash
    /// is not among `expected` (when there are any). The policy's decision
    /// was made as the config was listed (`plan_trust` with this policy);
    /// a candidate listed without one is denied, never allowed unjudged.
    pub fn judge(&mut self, listing: &'a TrustListing) {
        let expected = &self.expected;
        self.judged = listing
            .plan
            .candidates
            .iter()
            .map(|c| {
                let decision = c.decision.clone().unwrap_or(ConfigDecision {
                    verdict: Verdict::Denied,
                    operations: Vec::new(),
                });
                let sha = &c.snapshot.sha256;
                let refused = !expected.is_empty() && !expected.contains(sha);
                Judged {
                    snapshot: &c.snapshot,
                    changed: c.changed,
                    verdict: if refused {
                        Verdict::Denied
                    } else {
                        decision.verdict
                    },
                    decision,
                    expect_refusal: refused.then(|| expect_refusal(sha)),
                }
            })
            .collect();
    }

    /// The configs the gate allows, in listing order.
    pub fn allowed(&self) -> impl Iterator<Item = &Judged<'a>> {
        self.judged.iter().filter(|j| j.verdict == Verdict::Allowed)
    }
}

/// How a gated trust ended: what was recorded (none on a dry run or when
/// the gate allowed nothing), what a person must still review, what was
/// refused, and the exit code.
pub struct GateEnd {
    pub outcome: Option<TrustOutcome>,
    /// The configs that need authorization, in listing order.
    pub needs: Vec<String>,
    /// The one directory a person trusts them with (more than three, and
    /// no denied config under it); else each is named.
    pub hand_off: Option<String>,
    /// Denied by the policy (not counting `refused`).
    pub denied: usize,
    /// Refused by `--expect`.
    pub refused: usize,
    pub code: u8,
}

impl GateEnd {
    /// What a gated run comes to, its exit code by one precedence
    /// (`core::exit`): denied, then needs authorization, then a config
    /// refused as changed since shown.
    pub fn new(gate: &Gate<'_>, outcome: Option<TrustOutcome>, env: &Env) -> GateEnd {
        let needs: Vec<&Judged<'_>> = gate
            .judged
            .iter()
            .filter(|j| j.verdict == Verdict::NeedsAuth)
            .collect();
        let refused = gate
            .judged
            .iter()
            .filter(|j| j.expect_refusal.is_some())
            .count();
        let denied = gate
            .judged
            .iter()
            .filter(|j| j.verdict == Verdict::Denied)
            .count()
            - refused;
        let denied_exit = if denied + refused > 0 {
            exit::POLICY_DENIED
        } else {
            exit::SUCCESS
        };
        let needs_exit = if needs.is_empty() {
            exit::SUCCESS
        } else {
            exit::POLICY_NEEDS_AUTH
        };
        let commit_code = outcome.as_ref().map_or(exit::SUCCESS, |o| o.code);
        GateEnd {
            hand_off: hand_off_directory(&needs, &gate.judged, env),
            needs: needs
                .iter()
                .map(|j| j.snapshot.key.as_str().to_string())
                .collect(),
            outcome,
            denied,
            refused,
            code: exit::worst_of([denied_exit, needs_exit, commit_code]),
        }
    }
}

/// GocciaScript's rule for more than three configs (docs/src/compatibility.md#the-untrusted-run-report):
/// one `--trust <common>/`, the deepest directory holding them all,
/// shown by the display rule (absolute when it is the working directory).
/// Only when no config the policy denied lies under it: a person following
/// the hand-off must not be walked into trusting what the gate refused.
fn hand_off_directory(needs: &[&Judged<'_>], judged: &[Judged<'_>], env: &Env) -> Option<String> {
    if needs.len() <= 3 {
        return None;
    }
    let common = common_directory(needs.iter().map(|j| j.snapshot.key.as_str()));
    let under = |key: &str| {
        common == "/"
            || key
                .strip_prefix(common.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    };
    if judged
        .iter()
        .any(|j| j.verdict == Verdict::Denied && under(j.snapshot.key.as_str()))
    {
        return None;
    }
    let shown = if common == env.cwd {
        common.clone()
    } else {
        display_path(&common, &env.cwd)
    };
    Some(if shown.ends_with('/') {
        shown
    } else {
        format!("{shown}/")
    })
}

/// What `untrust` removed from the store at `store`.
pub struct Untrusted {
    pub store: String,
    pub removed: Removed,
}

/// The entries removed: by `--missing`, or per PATH argument.
pub enum Removed {
    /// The keys of the entries whose config file no longer exists.
    Missing(Vec<String>),
    /// Each PATH, in the order given.
    Paths(Vec<UntrustedPath>),
}

/// One PATH argument and the entries at or under it that went.
pub struct UntrustedPath {
    /// The argument as given.
    pub path: String,
    /// The key prefix it removes entries at or under.
    pub root: String,
    /// The keys removed, in store order.
    pub removed: Vec<String>,
}
