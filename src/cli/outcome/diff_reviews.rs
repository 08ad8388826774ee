//! What `diff BASE HEAD` says of each config's signed reviews at HEAD
//! (docs/src/signed-reviews.md#in-a-pull-request-diff-base-head): the reviews file
//! read from HEAD's objects, each config's portable digest computed from
//! HEAD's blob and tree, every record judged as `review list` judges it.
//! Decided once here (`DiffResult::judge_reviews` fills them in); every
//! format only words it. No `exit_code`: reviews never change `diff`'s
//! exit code, which is the permission diff's (`DiffResult::exit_code`).

use crate::core::config::targets::Targets;
use crate::core::revision::{ConfigAt, Snapshot};
use crate::core::team::digest::{RepoPath, portable_digest};
use crate::core::team::record::Record;
use crate::core::team::verify::{Checked, Judge, Status, check_record, count_reviews};

/// HEAD's reviews file, for the whole diff.
#[derive(Debug, Clone)]
pub struct ReviewsAtHead {
    /// `.goccia/reviews.jsonl`, relative to the root.
    pub file: String,
    /// The allowed signers file and its SHA-256, when one judged; without
    /// one a good signature is only `unchecked`.
    pub allowed_signers: Option<(String, String)>,
    /// The allowed signers' warnings (lines skipped).
    pub warnings: Vec<String>,
}

/// One config's reviews at HEAD.
#[derive(Debug, Clone, Default)]
pub struct HeadReviews {
    /// Its portable digest at HEAD, when it can be computed.
    pub digest: Option<String>,
    /// Absolute paths outside the repository its document holds.
    pub outside: Vec<String>,
    /// Why no review of it can count at HEAD (it does not load there, a
    /// target cannot be told from git objects, the file was not read).
    pub problem: Option<String>,
    /// Its records, judged, in line order.
    pub checked: Vec<Checked>,
    pub count: usize,
    /// Who the counted reviews are from, sorted.
    pub reviewers: Vec<String>,
}

impl HeadReviews {
    /// The config at `path` judged by its `records` (or why none can
    /// count): `None` for one gone at HEAD (nothing there to review).
    pub fn of(
        head: &Snapshot,
        root: &str,
        path: &str,
        records: Result<&[(usize, &Record)], &str>,
        judge: &Judge<'_>,
    ) -> Option<HeadReviews> {
        let mut out = HeadReviews::default();
        let (block, targets) = match head.configs.get(path)? {
            ConfigAt::Failed(_) => {
                out.problem = Some("it does not load at HEAD".to_string());
                return Some(out);
            }
            ConfigAt::Loaded { block, .. } => (block, head.tree_targets.get(path)),
        };
        let targets = match targets {
            Some(Ok(t)) => Targets::from_pairs(t.iter().cloned()),
            Some(Err(why)) => {
                out.problem = Some(why.clone());
                return Some(out);
            }
            None => {
                out.problem = Some("its targets at HEAD were not read".to_string());
                return Some(out);
            }
        };
        let place = RepoPath {
            root: root.to_string(),
            path: path.to_string(),
        };
        let d = portable_digest(block, &targets, &place);
        match records {
            Ok(records) => {
                out.checked = records
                    .iter()
                    .map(|(n, r)| check_record(*n, r, &d.digest, judge))
                    .collect();
            }
            Err(why) => out.problem = Some(why.to_string()),
        }
        (out.count, out.reviewers) = count_reviews(&out.checked);
        out.digest = Some(d.digest);
        out.outside = d.outside;
        Some(out)
    }

    /// The principals of good signatures of this version that no allowed
    /// signers judged (`unchecked`), each once.
    pub fn unchecked(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .checked
            .iter()
            .filter(|c| c.status == Status::Unchecked)
            .filter_map(|c| c.record.as_ref().map(|r| r.principal.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The config's line, every format's words (config text: escape it):
    /// `reviewed by alice@example.com, bob@example.com`, else `not reviewed
    /// at HEAD` and why; a good signature no allowed signers judged is
    /// said as such, never as a review.
    pub fn summary(&self) -> String {
        if self.count > 0 {
            return format!("reviewed by {}", self.reviewers.join(", "));
        }
        if let Some(why) = &self.problem {
            return format!("not reviewed at HEAD: {why}");
        }
        let unchecked = self.unchecked();
        if unchecked.is_empty() {
            return "not reviewed at HEAD".to_string();
        }
        format!(
            "not reviewed at HEAD: signed by {}, not checked (no allowed signers: pass --reviewed-by FILE)",
            unchecked.join(", ")
        )
    }

    /// The records that did not count, each with its status text.
    pub fn not_counted(&self) -> impl Iterator<Item = &Checked> {
        self.checked.iter().filter(|c| c.status != Status::Reviewed)
    }
}
