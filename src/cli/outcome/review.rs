//! What `review list`, `review verify` and `review sign` decided, for the
//! printers (`cli::print::{text,json}::review`) and the exit code. The
//! command decides here once; printers only print.

use crate::core::exit;
use crate::core::policy::Verdict;
use crate::core::team::digest::{PortableDigest, RepoPath};
use crate::core::team::each_config::{ConfigReviews, FileRead};
use crate::core::team::verify::{Checked, Judge, Status, summary};

/// Which command the report is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    List,
    Verify,
}

/// One config as a command shows it (`review list|verify`, `trust
/// --reviewed-by`, `inspect`, `scan --json`): how it is shown, whether it
/// requests anything, and its reviews as core judged them
/// ([`ConfigReviews`], the interactive review's type too), or why they
/// could not be judged.
#[derive(Debug, Clone)]
pub struct ShownReviews {
    /// The config as shown (relative to the working directory).
    pub shown: String,
    /// Whether it requests anything (only those need reviews).
    pub requests: bool,
    /// Its reviews, judged; or why they could not be (not in a
    /// repository, does not load).
    pub judged: Result<ConfigReviews, String>,
}

impl ShownReviews {
    /// The config shown as `shown`, placed in its repository (or why not):
    /// its records in `read` (its repository's reviews file, when there is
    /// one) judged by `judge`, whose allowed signers file is `signers`.
    pub fn new(
        shown: String,
        requests: bool,
        placed: Result<(RepoPath, PortableDigest), String>,
        read: Option<&FileRead>,
        (judge, signers): (&Judge<'_>, Option<&str>),
    ) -> ShownReviews {
        let judged = placed.map(|(place, d)| ConfigReviews::judged(place, d, read, judge, signers));
        ShownReviews {
            shown,
            requests,
            judged,
        }
    }

    /// Repository-relative, when it has a repository.
    pub fn path(&self) -> Option<&str> {
        self.judged.as_ref().ok().map(|j| j.path.as_str())
    }

    pub fn digest(&self) -> Option<&str> {
        self.judged.as_ref().ok().map(|j| j.digest.as_str())
    }

    /// Absolute paths outside the repository its document holds.
    pub fn outside(&self) -> &[String] {
        self.judged.as_ref().map_or(&[], |j| &j.outside)
    }

    /// Why it could not be judged (not in a repository, does not load).
    pub fn problem(&self) -> Option<&str> {
        self.judged.as_ref().err().map(String::as_str)
    }

    /// Its records, judged, in line order.
    pub fn checked(&self) -> &[Checked] {
        self.judged.as_ref().map_or(&[], |j| &j.checked)
    }

    /// Distinct counted reviews (keys and people).
    pub fn count(&self) -> usize {
        self.judged.as_ref().map_or(0, |j| j.count)
    }

    /// Who the counted reviews are from.
    pub fn reviewers(&self) -> &[String] {
        self.judged.as_ref().map_or(&[], |j| &j.reviewers)
    }

    /// The records that did not count, with their texts.
    pub fn not_counted(&self) -> impl Iterator<Item = &Checked> {
        self.checked()
            .iter()
            .filter(|c| c.status != Status::Reviewed)
    }
}

/// A reviews file's own problems: not read, or lines that are not records.
#[derive(Debug, Clone)]
pub struct FileNote {
    pub file: String,
    pub lines: Vec<String>,
}

/// `review list` / `review verify`.
#[derive(Debug, Clone)]
pub struct ReviewReport {
    pub verb: Verb,
    pub configs: Vec<ShownReviews>,
    pub files: Vec<FileNote>,
    pub warnings: Vec<String>,
    /// `--min-reviews` (verify).
    pub required: usize,
    /// The allowed signers file and its SHA-256, when one judged.
    pub allowed_signers: Option<(String, String)>,
}

impl ReviewReport {
    /// Whether a config has the reviews it needs (one that requests nothing
    /// needs none).
    pub fn met(&self, c: &ShownReviews) -> bool {
        !c.requests || (c.problem().is_none() && c.count() >= self.required)
    }

    /// `reviewed 2 of 2: …`, `1 of 2 reviews: …; needs 1 more`, `no review
    /// of this version`, or why it could not be judged.
    pub fn summary(&self, c: &ShownReviews) -> String {
        match (c.problem(), c.requests) {
            (Some(p), _) => p.to_string(),
            (None, false) => "requests nothing; needs no review".to_string(),
            (None, true) => summary(c.count(), self.required, c.reviewers()),
        }
    }

    /// List: 0. Verify: 0 when every config that requests something has
    /// its reviews, else 4.
    pub fn exit_code(&self) -> u8 {
        match self.verb {
            Verb::List => exit::SUCCESS,
            Verb::Verify if self.configs.iter().all(|c| self.met(c)) => exit::SUCCESS,
            Verb::Verify => exit::POLICY_NEEDS_AUTH,
        }
    }
}

/// One review signed and written.
#[derive(Debug, Clone)]
pub struct Signed {
    pub path: String,
    pub digest: String,
    pub principal: String,
    /// The reviews file, as shown.
    pub file: String,
}

impl Signed {
    /// `Signed a/goccia.json (sha256:1a2b…) as alice@example.com; commit
    /// .goccia/reviews.jsonl to share it`.
    pub fn line(&self) -> String {
        let short = &self.digest[..("sha256:".len() + 4).min(self.digest.len())];
        format!(
            "Signed {} ({short}…) as {}; commit {} to share it",
            self.path, self.principal, self.file
        )
    }
}

/// `review sign`.
#[derive(Debug, Clone, Default)]
pub struct SignOutcome {
    pub signed: Vec<Signed>,
    pub warnings: Vec<String>,
}

/// `trust --yes|--dry-run --reviewed-by FILE`: each new or changed config
/// judged by its reviews (and, with `--policy`/`--expect`, by the policy
/// gate too); those that pass are recorded.
#[derive(Debug, Clone)]
pub struct ReviewTrust {
    /// Each config judged, in listing order, and whether it is trusted
    /// (or would be, on a dry run).
    pub configs: Vec<(ShownReviews, bool)>,
    /// The reviews files' own problems.
    pub files: Vec<FileNote>,
    pub required: usize,
    pub dry_run: bool,
    /// The store, as shown.
    pub store: String,
    /// Configs that changed between the verification and the store lock:
    /// refused, not recorded.
    pub refused: Vec<String>,
    /// The allowed signers file and its SHA-256.
    pub allowed_signers: (String, String),
    /// With `--policy`/`--expect`: the policy's label and SHA-256, and for
    /// each config (listing order) why the policy gate left it out.
    pub policy: Option<(String, String)>,
    pub gate: Vec<Option<GateLeft>>,
}

/// Why the policy gate left a config out.
#[derive(Debug, Clone)]
pub struct GateLeft {
    /// The policy's verdict (`DENIED` when `--expect` refused its hash).
    pub verdict: Verdict,
    /// `--expect` refused its hash.
    pub expect_refused: bool,
    /// `denied by the policy; not trusted`, `NEEDS_AUTH by the policy: …`
    /// or the `--expect` refusal.
    pub reason: String,
}

impl ReviewTrust {
    /// `reviewed by alice@example.com, bob@example.com (2 of 2)` for a
    /// trusted config; for one left, why the policy left it (with
    /// `--policy`), then the verify summary when its reviews fall short.
    pub fn reason(&self, i: usize) -> String {
        let (c, trusted) = (&self.configs[i].0, self.configs[i].1);
        if trusted {
            return format!(
                "reviewed by {} ({} of {})",
                c.reviewers().join(", "),
                c.count(),
                self.required
            );
        }
        if self.refused.contains(&c.shown) {
            return "changed since its reviews were verified; not trusted".to_string();
        }
        let mut why: Vec<String> = self
            .gate_left(i)
            .map(|g| g.reason.clone())
            .into_iter()
            .collect();
        if !self.reviews_met(c) {
            why.push(match c.problem() {
                Some(p) => p.to_string(),
                None => summary(c.count(), self.required, c.reviewers()),
            });
        }
        why.join("; ")
    }

    /// Whether a config has the reviews it needs.
    pub fn reviews_met(&self, c: &ShownReviews) -> bool {
        c.problem().is_none() && c.count() >= self.required
    }

    /// Why the policy gate left the `i`th config out, if it did.
    pub fn gate_left(&self, i: usize) -> Option<&GateLeft> {
        self.gate.get(i).and_then(Option::as_ref)
    }

    /// Whether the policy denied the `i`th config (or `--expect` refused
    /// it): a person is never handed it.
    pub fn denied(&self, i: usize) -> bool {
        self.gate_left(i)
            .is_some_and(|g| g.verdict == Verdict::Denied)
    }

    /// The configs left for a person, as shown: not trusted and not
    /// denied by the policy.
    pub fn left(&self) -> impl Iterator<Item = &ShownReviews> {
        self.configs
            .iter()
            .enumerate()
            .filter(|(i, (_, t))| !t && !self.denied(*i))
            .map(|(_, (c, _))| c)
    }

    /// How many the policy denied, and of those how many `--expect`
    /// refused.
    pub fn denied_counts(&self) -> (usize, usize) {
        let denied = (0..self.configs.len()).filter(|i| self.denied(*i));
        let refused = self
            .gate
            .iter()
            .flatten()
            .filter(|g| g.expect_refused)
            .count();
        (denied.count() - refused, refused)
    }

    /// How many configs were (or would be) trusted by review.
    pub fn trusted(&self) -> usize {
        self.configs.iter().filter(|(_, t)| *t).count()
    }

    /// 3 when the policy denied a config; else 1 when a config changed
    /// since verified (as without `--policy`); else 4 when one is left for
    /// a person; else 0.
    pub fn exit_code(&self) -> u8 {
        let (denied, refused) = self.denied_counts();
        if denied + refused > 0 {
            exit::POLICY_DENIED
        } else if !self.refused.is_empty() {
            exit::FAILURE
        } else if self.left().next().is_some() {
            exit::POLICY_NEEDS_AUTH
        } else {
            exit::SUCCESS
        }
    }
}

/// The reviews of one config, for `inspect` (and `scan --json`): `None`
/// where its repository has no reviews file.
#[derive(Debug, Clone)]
pub struct OneConfig {
    /// The reviews file, as shown.
    pub file: String,
    pub reviews: ShownReviews,
    /// The allowed signers file and its SHA-256, when one judged.
    pub allowed_signers: Option<(String, String)>,
    /// The reviews file's own problems.
    pub notes: Vec<FileNote>,
}

/// At most this many of a reviews file's own problem lines go with each
/// config's reviews: `scan --json` gives every config of a repository its
/// object, and a file of 20,000 lines that are no record would otherwise be
/// written again for each. The rest are counted; `review list` names each.
pub const PROBLEMS_SHOWN: usize = 20;

impl OneConfig {
    /// The reviews file's own problems as `inspect` and `scan --json` show
    /// them: the first [`PROBLEMS_SHOWN`], then how many more.
    pub fn problems(&self) -> Vec<String> {
        let all: Vec<&String> = self.notes.iter().flat_map(|n| &n.lines).collect();
        let mut out: Vec<String> = all
            .iter()
            .take(PROBLEMS_SHOWN)
            .map(|s| s.to_string())
            .collect();
        if all.len() > PROBLEMS_SHOWN {
            out.push(format!(
                "and {} more lines that are not records (review list names each)",
                all.len() - PROBLEMS_SHOWN
            ));
        }
        out
    }
}
