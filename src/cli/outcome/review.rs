//! What `review list`, `review verify` and `review sign` decided, for the
//! printers (`cli::print::{text,json}::review`) and the exit code. The
//! command decides here once; printers only print.

use crate::core::exit;
use crate::core::team::verify::{Checked, Status, summary};

/// Which command the report is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    List,
    Verify,
}

/// One config and its reviews.
#[derive(Debug, Clone)]
pub struct ConfigReviews {
    /// The config as shown (relative to the working directory).
    pub shown: String,
    /// Repository-relative, when it has a repository.
    pub path: Option<String>,
    pub digest: Option<String>,
    /// Absolute paths outside the repository its document holds.
    pub outside: Vec<String>,
    /// Why it could not be judged (not in a repository, does not load).
    pub problem: Option<String>,
    /// Whether it requests anything (only those need reviews).
    pub requests: bool,
    pub checked: Vec<Checked>,
    pub count: usize,
    pub reviewers: Vec<String>,
}

impl ConfigReviews {
    /// The records that did not count, with their texts.
    pub fn not_counted(&self) -> impl Iterator<Item = &Checked> {
        self.checked.iter().filter(|c| c.status != Status::Reviewed)
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
    pub configs: Vec<ConfigReviews>,
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
    pub fn met(&self, c: &ConfigReviews) -> bool {
        !c.requests || (c.problem.is_none() && c.count >= self.required)
    }

    /// `reviewed 2 of 2: …`, `1 of 2 reviews: …; needs 1 more`, `no review
    /// of this version`, or why it could not be judged.
    pub fn summary(&self, c: &ConfigReviews) -> String {
        match (&c.problem, c.requests) {
            (Some(p), _) => p.clone(),
            (None, false) => "requests nothing; needs no review".to_string(),
            (None, true) => summary(c.count, self.required, &c.reviewers),
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
/// judged by its reviews; those with enough are recorded.
#[derive(Debug, Clone)]
pub struct ReviewTrust {
    /// Each config judged, in listing order, and whether it is trusted
    /// (or would be, on a dry run).
    pub configs: Vec<(ConfigReviews, bool)>,
    /// The reviews files' own problems.
    pub files: Vec<FileNote>,
    pub required: usize,
    pub dry_run: bool,
    /// The store, as shown.
    pub store: String,
    /// Configs that changed between the verification and the store lock:
    /// refused, not recorded.
    pub refused: Vec<String>,
}

impl ReviewTrust {
    /// `reviewed by alice@example.com, bob@example.com (2 of 2)` for a
    /// trusted config; the verify summary for one left.
    pub fn reason(&self, c: &ConfigReviews, trusted: bool) -> String {
        if trusted {
            return format!(
                "reviewed by {} ({} of {})",
                c.reviewers.join(", "),
                c.count,
                self.required
            );
        }
        if self.refused.contains(&c.shown) {
            return "changed since its reviews were verified; not trusted".to_string();
        }
        match &c.problem {
            Some(p) => p.clone(),
            None => summary(c.count, self.required, &c.reviewers),
        }
    }

    /// The configs left for a person, as shown.
    pub fn left(&self) -> impl Iterator<Item = &ConfigReviews> {
        self.configs.iter().filter(|(_, t)| !t).map(|(c, _)| c)
    }

    /// How many configs were (or would be) trusted by review.
    pub fn trusted(&self) -> usize {
        self.configs.iter().filter(|(_, t)| *t).count()
    }

    /// 1 when a config changed since verified, else 4 when any is left,
    /// else 0.
    pub fn exit_code(&self) -> u8 {
        if !self.refused.is_empty() {
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
    pub reviews: ConfigReviews,
    /// The allowed signers file and its SHA-256, when one judged.
    pub allowed_signers: Option<(String, String)>,
    /// The reviews file's own problems.
    pub notes: Vec<FileNote>,
}
