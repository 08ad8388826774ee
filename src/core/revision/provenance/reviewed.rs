//! The version of a config a signed review was of (issue 43): a review
//! names what it reviewed by its portable digest only, so an outdated
//! review's version is found by reading the config at each of the last
//! [`REVIEW_HISTORY`] commits of HEAD's history that touched its files
//! (with its extends chain and its links as each commit holds them) and
//! hashing it as the review did. The requests' diff since that version is
//! what a re-review reads. Found or not, this never decides anything: a
//! version not found is said (bounded, a shallow clone, no repository).

use super::commit::{Absent, Commit, LOG_OUTPUT, in_repo, literal, parse_log, repository};
use super::content::{Versions, shallow_commits};
use super::invoke::hardened;
use super::{LOG_READING, git};
use crate::core::config::block::Block;
use crate::core::config::targets::Targets;
use crate::core::env::Env;

/// The most commits read for a reviewed version.
pub const REVIEW_HISTORY: usize = 100;

/// A reviewed version, found: the commit that holds it and its block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewedVersion {
    pub digest: String,
    pub commit: Commit,
    pub block: Block,
}

/// What the history says of the versions asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewedVersions {
    /// Those found, newest commit holding each.
    pub found: Vec<ReviewedVersion>,
    /// Why the others were not: `not in the last 100 commits that touched
    /// it`, `history is shallow before a1b2c3d`, ...
    pub not_found: String,
}

/// The versions of the config whose chain is `files` (absolute, the
/// config first) whose portable digest (`digest_of` its block and
/// targets) is one of `wanted`.
pub fn reviewed_versions(
    files: &[String],
    wanted: &[String],
    digest_of: &dyn Fn(&Block, &Targets) -> String,
    env: &Env,
) -> Result<ReviewedVersions, Absent> {
    let config = files
        .first()
        .ok_or_else(|| Absent::because("no config file"))?;
    let dir = crate::core::paths::declaring_dir(config);
    let root = repository(if dir.is_empty() { "." } else { dir })?;
    if in_repo(&root, config).is_none() {
        return Err(Absent::because("the config is outside the repository"));
    }
    let specs: Vec<String> = files
        .iter()
        .filter_map(|f| in_repo(&root, f))
        .map(|rel| literal(&rel))
        .collect();
    match git::commit_of(&root, "HEAD") {
        Err(e) if e == git::too_slow("rev-parse") => return Err(e.into()),
        Err(_) => return Err(Absent::because("no commit yet")),
        Ok(_) => {}
    }
    let mut cmd = hardened(&root);
    cmd.arg("log")
        .args(LOG_READING)
        .arg(format!("--max-count={}", REVIEW_HISTORY + 1))
        .arg("HEAD")
        .arg("--")
        .args(&specs);
    let mut commits = parse_log(&git::output(cmd, "log", LOG_OUTPUT)?)?;
    let more = commits.len() > REVIEW_HISTORY;
    commits.truncate(REVIEW_HISTORY);
    let versions = Versions::new(&root, config.clone(), env)?;
    let mut found: Vec<ReviewedVersion> = Vec::new();
    for c in commits {
        if found.len() == wanted.len() {
            break;
        }
        let Some((block, targets)) = versions.block_at(&c.sha)? else {
            continue;
        };
        let digest = digest_of(&block, &targets);
        if wanted.contains(&digest) && !found.iter().any(|f| f.digest == digest) {
            found.push(ReviewedVersion {
                digest,
                commit: c,
                block,
            });
        }
    }
    let mut shallow: Vec<String> = shallow_commits(&root)?.into_iter().collect();
    shallow.sort();
    let not_found = match (shallow.first(), more) {
        (Some(cut), _) => format!(
            "not found: history is shallow before {}",
            &cut[..cut.len().min(7)]
        ),
        (None, true) => {
            format!("not found in the last {REVIEW_HISTORY} commits that touched it")
        }
        (None, false) => "no commit of HEAD's history holds it".to_string(),
    };
    Ok(ReviewedVersions { found, not_found })
}
