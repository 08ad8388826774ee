//! The base of the interactive review's `--since BASE` (issue 15): every
//! config as it is at revision BASE, read once, and each config on disk
//! compared with its version there, with the same rules as `diff BASE`
//! (added, widened, narrowed, broken, unchanged; [`super::compare`]).
//!
//! A config is found at BASE by its place in the repository: its trust key
//! (the canonical directory and the file name) relative to the repository's
//! root, resolved. A key outside the repository (a config reached through a
//! link leading out of it) has no version at BASE to compare with, and says
//! so rather than passing for an added config.

use super::compare::{ConfigDiff, compare, retargets};
use super::git::{self, GitError};
use super::{ConfigAt, Snapshot, read_revision};
use crate::core::config::block::Block;
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::review::report::ConfigReport;
use crate::core::review::value_diff::{ValueChange, block_values, diff_values};

/// The configs of one revision of one repository.
#[derive(Debug, Clone)]
pub struct SinceBase {
    /// The revision as the user gave it (`HEAD~1`, `main`).
    pub rev: String,
    /// The repository's root, resolved, as keys are.
    pub root: String,
    pub snapshot: Snapshot,
}

/// What BASE holds for one config on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtBase<'a> {
    /// The key is not inside the repository: nothing to compare with.
    Outside,
    /// No config at that path at BASE: it was added since.
    Absent,
    /// The config at BASE (loaded, or failing with GocciaScript's message).
    Config(&'a ConfigAt),
}

/// The root of the repository holding `dir` (resolved), once `rev` is known
/// to name a tree in it. The errors are `diff`'s, with git's own message:
/// not a repository, an unknown revision, a revision that is an option.
pub fn locate(dir: &str, rev: &str) -> Result<String, GitError> {
    let top = git::toplevel(dir)?;
    let root = std::fs::canonicalize(&top)
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or(top);
    git::commit_of(&root, rev)?;
    Ok(root)
}

/// The path of `key` relative to `root`, when it lies inside it.
pub fn relative_key<'k>(root: &str, key: &'k str) -> Option<&'k str> {
    if root == "/" {
        return key.strip_prefix('/');
    }
    key.strip_prefix(root)?
        .strip_prefix('/')
        .filter(|rest| !rest.is_empty())
}

/// A report's config as the comparison sees it: its block's values and
/// the targets of its scopes inside the repository at `root`, or
/// GocciaScript's message when it does not load.
pub fn config_now(report: &ConfigReport, root: &str) -> ConfigAt {
    if let Some(e) = report.error() {
        return ConfigAt::Failed(e.clone());
    }
    match report.loaded().map(|l| config_of(&l.block)) {
        Some(ConfigAt::Loaded { block, values, .. }) => ConfigAt::Loaded {
            block,
            values,
            targets: super::inside(
                root,
                report
                    .targets()
                    .iter()
                    .map(|(s, t)| (s.as_str(), t.as_str())),
            ),
        },
        Some(failed) => failed,
        None => ConfigAt::Failed(ConfigError::invalid(format!("{}: no block", report.key))),
    }
}

/// A loaded config from its normalized block's text (as hashed and
/// recorded), parsed here: the fixtures' way in.
#[cfg(any(test, feature = "test-support"))]
pub fn config_of_block(block: &str) -> ConfigAt {
    match Block::parse(block) {
        Ok(b) => config_of(&b),
        Err(e) => ConfigAt::Failed(ConfigError::invalid(format!(
            "the normalized block does not parse: {e}"
        ))),
    }
}

/// A loaded config from its block, already parsed.
pub fn config_of(block: &Block) -> ConfigAt {
    ConfigAt::Loaded {
        values: block_values(block.json()),
        block: block.clone(),
        targets: Vec::new(),
    }
}

impl SinceBase {
    /// Reads every config of `rev` in the repository at `root` (see
    /// [`locate`]).
    pub fn read(root: &str, rev: &str, env: &Env) -> Result<SinceBase, GitError> {
        Ok(SinceBase {
            rev: rev.to_string(),
            root: root.to_string(),
            snapshot: read_revision(root, rev, env)?,
        })
    }

    /// What BASE holds for the config with trust key `key`.
    pub fn at(&self, key: &str) -> AtBase<'_> {
        match relative_key(&self.root, key) {
            None => AtBase::Outside,
            Some(rel) => match self.snapshot.configs.get(rel) {
                Some(c) => AtBase::Config(c),
                None => AtBase::Absent,
            },
        }
    }

    /// The config with trust key `key`, as it is `now`, compared with its
    /// version at BASE exactly as `diff BASE` compares it (`None` when the
    /// key is outside the repository).
    pub fn compare(&self, key: &str, now: &ConfigAt) -> Option<ConfigDiff> {
        let rel = relative_key(&self.root, key)?;
        let one = |label: &str, at: Option<&ConfigAt>| Snapshot {
            label: label.to_string(),
            configs: at
                .map(|c| (rel.to_string(), c.clone()))
                .into_iter()
                .collect(),
            // Only `diff`'s CI formats locate lines in a revision's text.
            ..Snapshot::default()
        };
        let base = one(&self.rev, self.snapshot.configs.get(rel));
        let head = one("working tree", Some(now));
        compare(&base, &head).configs.into_iter().next()
    }

    /// The values of `r` compared value by value with its version at BASE,
    /// each current path scope with where it leads: what the review's
    /// detail pane draws, and whose added values provenance is read for.
    /// Empty when `r` does not load now and nothing loaded at BASE.
    pub fn values(&self, r: &ConfigReport) -> Vec<ValueChange> {
        let values_of = |c: &ConfigAt| match c {
            ConfigAt::Loaded { values, .. } => values.clone(),
            ConfigAt::Failed(_) => Vec::new(),
        };
        let now = config_now(r, &self.root);
        let (old, moved) = match self.at(&r.key) {
            AtBase::Config(c) => (values_of(c), retargets(c, &now)),
            AtBase::Absent | AtBase::Outside => (Vec::new(), Vec::new()),
        };
        diff_values(&old, &values_of(&now), r.targets(), &moved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::revision::compare::{Status, Verdict};

    fn base(configs: &[(&str, ConfigAt)]) -> SinceBase {
        SinceBase {
            rev: "HEAD~1".into(),
            root: "/r".into(),
            snapshot: Snapshot {
                label: "HEAD~1".into(),
                configs: configs
                    .iter()
                    .map(|(k, c)| (k.to_string(), c.clone()))
                    .collect(),
                ..Snapshot::default()
            },
        }
    }

    fn net(hosts: &str) -> ConfigAt {
        config_of_block(&format!(r#"{{"permissions":{{"allow-net":[{hosts}]}}}}"#))
    }

    #[test]
    fn keys_are_found_by_their_place_in_the_repository() {
        assert_eq!(
            relative_key("/r", "/r/a/goccia.json"),
            Some("a/goccia.json")
        );
        assert_eq!(relative_key("/r", "/rx/goccia.json"), None);
        assert_eq!(relative_key("/r", "/other/goccia.json"), None);
        assert_eq!(relative_key("/", "/goccia.json"), Some("goccia.json"));
        let b = base(&[("a/goccia.json", net(r#""a.test""#))]);
        assert!(matches!(b.at("/r/a/goccia.json"), AtBase::Config(_)));
        assert_eq!(b.at("/r/b/goccia.json"), AtBase::Absent);
        assert_eq!(b.at("/elsewhere/goccia.json"), AtBase::Outside);
    }

    #[test]
    fn each_config_is_compared_as_diff_compares_it() {
        let b = base(&[
            ("a/goccia.json", net(r#""a.test""#)),
            (
                "c/goccia.json",
                ConfigAt::Failed(ConfigError::usage("broken")),
            ),
        ]);
        let widened = b
            .compare("/r/a/goccia.json", &net(r#""a.test","b.test""#))
            .unwrap();
        assert_eq!(
            (widened.status, widened.verdict),
            (Status::Changed, Verdict::Widened)
        );
        let narrowed = b.compare("/r/a/goccia.json", &net("")).unwrap();
        assert_eq!(narrowed.verdict, Verdict::Narrowed);
        let same = b.compare("/r/a/goccia.json", &net(r#""a.test""#)).unwrap();
        assert_eq!(same.verdict, Verdict::Same);
        let added = b.compare("/r/b/goccia.json", &net(r#""a.test""#)).unwrap();
        assert_eq!(
            (added.status, added.verdict),
            (Status::Added, Verdict::Widened)
        );
        let fixed = b.compare("/r/c/goccia.json", &net(r#""a.test""#)).unwrap();
        assert_eq!(fixed.verdict, Verdict::Widened);
        assert_eq!(
            fixed.base_error.map(|e| e.message).as_deref(),
            Some("broken")
        );
        let broken = b
            .compare(
                "/r/a/goccia.json",
                &ConfigAt::Failed(ConfigError::usage("bad")),
            )
            .unwrap();
        assert_eq!(broken.verdict, Verdict::Broken);
        assert!(b.compare("/x/goccia.json", &net("")).is_none());
    }
}
