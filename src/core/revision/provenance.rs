//! Who changed what (issue 26 item 3, issue 40): the commits that touched
//! a config's files since it was trusted, and for each value a review shows
//! as added, the commit that made it a grant, found by content
//! ([`content`]): the versions of the config's block are compared, not the
//! lines blame names.
//!
//! Provenance is optional by design: outside a repository, without git, or
//! when git fails, the answer is [`Absent`] with the reason, which a review
//! says and goes on without; it never fails the review.
//!
//! Every git call goes through the hardened invocation of [`super::git`]
//! (nothing the repository configures runs, grafts and replace objects are
//! not believed, bounded in time and output), and only reads objects: the
//! working tree's config is read here, never by git, so no clean filter or
//! textconv the repository names is ever run on it. Commit text (subjects,
//! names, emails) is returned exactly as git holds it: it is hostile, and
//! every surface escapes it as it escapes config text.

mod commit;
mod content;
mod invoke;
pub mod reviewed;
mod trusted;

use super::git;
use crate::core::env::Env;

pub use commit::{Absent, Commit, CommitsSince, MAX_COMMITS, ValueOrigin, parse_log, repository};
use commit::{LOG_FORMAT, LOG_OUTPUT, in_repo, literal, relative};
use invoke::hardened;
pub use trusted::Trusted;
use trusted::TrustedVersion;

/// A store's `trustedAt` as `git log --since` takes it: the digits and
/// separators of an ISO 8601 time, nothing else.
fn check_date(since: &str) -> Result<(), Absent> {
    let ok = !since.is_empty()
        && since.len() <= 40
        && since.starts_with(|c: char| c.is_ascii_digit())
        && since
            .chars()
            .all(|c| c.is_ascii_digit() || "-:T Z+.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(Absent::because(format!(
            "trustedAt {since:?} is not a date"
        )))
    }
}

/// How `git log` lists the commits that touched files: [`LOG_FORMAT`]'s
/// records, and nothing the repository configures run to compare them
/// (no textconv, no external diff, no signature check, no mailmap).
pub(super) const LOG_READING: &[&str] = &[
    "-z",
    "--no-textconv",
    "--no-ext-diff",
    "--no-show-signature",
    "--no-use-mailmap",
    "--no-color",
    LOG_FORMAT,
];

/// The commits that touched `files` (absolute paths: the config and every
/// file of its extends chain) since `since` (the entry's `trustedAt`),
/// newest first. `since` is compared with the committer date, so a commit
/// rebased after the trust is listed even when it was authored before.
#[cfg(any(test, feature = "test-support"))]
pub fn commits_since(root: &str, files: &[String], since: &str) -> Result<CommitsSince, Absent> {
    let range = since_range(since)?;
    git::toplevel(root)?;
    log_touching(root, files, &range)
}

/// [`commits_since`] in `root`, known to be a repository's top.
fn log_since(root: &str, files: &[String], since: &str) -> Result<CommitsSince, Absent> {
    log_touching(root, files, &since_range(since)?)
}

/// The range of [`commits_since`]: HEAD's commits since `since`.
fn since_range(since: &str) -> Result<[String; 2], Absent> {
    check_date(since)?;
    Ok([format!("--since={since}"), "HEAD".into()])
}

/// The commits of `BASE..HEAD` that touched `files` (as for
/// [`commits_since`]), newest first: what `--since BASE` reviews. `base`
/// is resolved to a full commit id before git's log sees it.
#[cfg(any(test, feature = "test-support"))]
pub fn commits_between(root: &str, files: &[String], base: &str) -> Result<CommitsSince, Absent> {
    let range = between_range(root, base)?;
    git::toplevel(root)?;
    log_touching(root, files, &range)
}

/// [`commits_between`] in `root`, known to be a repository's top.
pub(crate) fn log_between(
    root: &str,
    files: &[String],
    base: &str,
) -> Result<CommitsSince, Absent> {
    log_touching(root, files, &between_range(root, base)?)
}

/// The range of [`commits_between`]: `BASE..HEAD`, BASE as a full id.
fn between_range(root: &str, base: &str) -> Result<[String; 1], Absent> {
    Ok([format!("{}..HEAD", git::commit_of(root, base)?)])
}

/// `git log` of `range` (options and revisions git takes as they are,
/// built here, never from the repository) limited to `files`, at most
/// [`MAX_COMMITS`]. `root` is a repository's top (the callers ask git
/// once).
fn log_touching(root: &str, files: &[String], range: &[String]) -> Result<CommitsSince, Absent> {
    let mut outside = Vec::new();
    let mut specs = Vec::new();
    for f in files {
        match in_repo(root, f) {
            Some(rel) => specs.push(literal(&rel)),
            None => outside.push(f.clone()),
        }
    }
    let none = |outside| CommitsSince {
        outside,
        ..CommitsSince::default()
    };
    if specs.is_empty() {
        return Ok(none(outside));
    }
    // A repository without a commit yet has no history to list.
    match git::commit_of(root, "HEAD") {
        Err(e) if e == git::too_slow("rev-parse") => return Err(e.into()),
        Err(_) => return Ok(none(outside)),
        Ok(_) => {}
    }
    let mut cmd = hardened(root);
    cmd.arg("log")
        .args(LOG_READING)
        .arg(format!("--max-count={}", MAX_COMMITS + 1))
        .args(range)
        .arg("--")
        .args(&specs);
    let out = git::output(cmd, "log", LOG_OUTPUT)?;
    let mut commits = parse_log(&out)?;
    let more = commits.len() > MAX_COMMITS;
    commits.truncate(MAX_COMMITS);
    Ok(CommitsSince {
        commits,
        more,
        outside,
        ..CommitsSince::default()
    })
}

/// For each `(request, value)` of a config (values the review shows as
/// added), the commit that made it a grant ([`content`]): the first whose
/// version of the config grants it while its parent's does not, or
/// [`ValueOrigin::NotCommitted`] for a value HEAD's version does not grant
/// (a working-tree edit). `files` are the config and its extends chain
/// (absolute paths, the config first). What cannot be decided is
/// [`ValueOrigin::Unknown`] with why: never a wrong commit.
#[cfg(any(test, feature = "test-support"))]
pub fn value_origins(
    root: &str,
    files: &[String],
    values: &[(String, String)],
    env: &Env,
) -> Result<Vec<ValueOrigin>, Absent> {
    // Outside a repository a file has no HEAD either: that is no
    // provenance, not a working-tree edit.
    git::toplevel(root)?;
    match files.first().and_then(|f| in_repo(root, f)) {
        Some(rel) => content::origins(root, &rel, None, None, values, env),
        None => Ok(outside_all(values)),
    }
}

/// Every value of a config outside the repository: unknown, with why.
fn outside_all(values: &[(String, String)]) -> Vec<ValueOrigin> {
    vec![ValueOrigin::Unknown("the config is outside the repository".into()); values.len()]
}

/// For each `(request, value)` widened in `diff BASE HEAD`, the commit of
/// `BASE..HEAD` that made it a grant ([`ValueOrigin::AtBase`] when BASE's
/// version already granted it). `files` are the config and its extends
/// chain at HEAD, as absolute paths in the checkout (as `diff` resolves
/// them); `base` and `head` are commits. One config's
/// [`introduced_each`], which `diff` calls for all its configs at once.
#[cfg(any(test, feature = "test-support"))]
pub fn introduced_in(
    root: &str,
    base: &str,
    head: &str,
    files: &[String],
    values: &[(String, String)],
    env: &Env,
) -> Result<Vec<ValueOrigin>, Absent> {
    let config = ChainValues {
        files: files.to_vec(),
        values: values.to_vec(),
    };
    let mut found = introduced_each(root, base, Some(head), &[config], env)?;
    Ok(found.pop().unwrap_or_default())
}

/// What a [`ConfigProvenance`]'s commits are counted from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Since {
    /// The config's `trustedAt` in the store.
    Trusted,
    /// A revision, as the user wrote it (`--since BASE`): untrusted text.
    Revision(String),
}

/// A reviewed config's provenance, as the review surfaces show it: the
/// commits since it was trusted (or since a revision) and each added
/// value's origin. Each part is absent on its own (a `trustedAt` git
/// cannot take leaves the origins).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProvenance {
    /// The repository's root.
    pub root: String,
    /// What the commits are counted from.
    pub since: Since,
    pub commits: Result<CommitsSince, Absent>,
    /// `(request, value, origin)` in the order asked.
    pub origins: Result<Vec<(String, String, ValueOrigin)>, Absent>,
    /// Each re-targeted path scope (`~ target of …`) as `(request, scope,
    /// origin)`: the commit since the trusted version (or BASE) that last
    /// re-pointed, added or removed a link it passes through.
    pub retargets: Vec<(String, String, ValueOrigin)>,
}

impl ConfigProvenance {
    /// The origin found for `value` of `request` (added, or re-targeted),
    /// if it was asked for.
    pub fn origin(&self, request: &str, value: &str) -> Option<&ValueOrigin> {
        let retargeted = self
            .retargets
            .iter()
            .find(|(r, v, _)| r == request && v == value)
            .map(|(_, _, o)| o);
        if retargeted.is_some() {
            return retargeted;
        }
        self.origins
            .as_ref()
            .ok()?
            .iter()
            .find(|(r, v, _)| r == request && v == value)
            .map(|(_, _, o)| o)
    }
}

/// The provenance of a config whose chain is `files` (absolute, the config
/// first), trusted at `trusted_at`, for its added `values`: `Absent` when
/// the config is in no repository or git cannot be run.
pub fn of_config(
    files: &[String],
    trusted: &Trusted,
    values: &[(String, String)],
    retargeted: &[(String, String)],
    env: &Env,
) -> Result<ConfigProvenance, Absent> {
    let config = files
        .first()
        .ok_or_else(|| Absent::because("no config file"))?;
    let dir = crate::core::paths::declaring_dir(config);
    // `root` is git's answer: the reads below do not ask it again.
    let root = repository(if dir.is_empty() { "." } else { dir })?;
    let read = match in_repo(&root, config) {
        Some(rel) => content::reviewed(&root, &rel, None, None, values, Some(trusted), env),
        None => Ok((outside_all(values), TrustedVersion::NotFound)),
    };
    let (origins, version) = match read {
        Ok((found, version)) => (Ok(found), version),
        Err(e) => (Err(e), TrustedVersion::NotFound),
    };
    let untold = |why: &str| format!("the trusted version cannot be told: {why}");
    let (retargets, moved) = match &version {
        TrustedVersion::Commit(v) => match super::links_at(&root, v) {
            Ok(links) => retarget_origins(&root, v, &links, retargeted),
            Err(e) => (unknown_all(retargeted, &e.0), Vec::new()),
        },
        TrustedVersion::NotFound => (
            unknown_all(retargeted, "no commit holds the trusted version"),
            Vec::new(),
        ),
        TrustedVersion::Unknown(why) => (unknown_all(retargeted, &untold(why)), Vec::new()),
    };
    // The commits that re-pointed a link count as changes of the config.
    let mut touched = files.to_vec();
    touched.extend(moved);
    let commits = match version {
        TrustedVersion::Commit(v) => since_version(&root, &touched, v),
        TrustedVersion::NotFound => by_date(&root, files, &trusted.at),
        TrustedVersion::Unknown(why) => Err(Absent::because(untold(&why))),
    };
    let origins = origins.map(|found| {
        values
            .iter()
            .zip(found)
            .map(|((r, v), o)| (r.clone(), v.clone(), o))
            .collect()
    });
    Ok(ConfigProvenance {
        root,
        since: Since::Trusted,
        commits,
        origins,
        retargets,
    })
}

/// The origin of each value of a config never trusted (`values`: all it
/// grants), whose chain is `files`: the commit that made each a grant
/// (for a config added whole, the commit that added it). No commits are
/// listed: there is no trusted version to count from.
pub fn of_new_config(
    files: &[String],
    values: &[(String, String)],
    env: &Env,
) -> Result<ConfigProvenance, Absent> {
    let config = files
        .first()
        .ok_or_else(|| Absent::because("no config file"))?;
    let dir = crate::core::paths::declaring_dir(config);
    let root = repository(if dir.is_empty() { "." } else { dir })?;
    let found = match in_repo(&root, config) {
        Some(rel) => content::origins(&root, &rel, None, None, values, env),
        None => Ok(outside_all(values)),
    };
    Ok(ConfigProvenance {
        root,
        since: Since::Trusted,
        commits: Err(Absent::because("never trusted")),
        origins: found.map(|found| {
            values
                .iter()
                .zip(found)
                .map(|((r, v), o)| (r.clone(), v.clone(), o))
                .collect()
        }),
        retargets: Vec::new(),
    })
}

/// Who deleted a trusted config that is gone (`key`, its trust key): the
/// commit of HEAD's history that deleted the file, or
/// [`ValueOrigin::NotCommitted`] when HEAD still holds it (deleted in the
/// working tree), or unknown and why (never committed; in a shallow
/// clone, where the history stops: the deletion may lie beyond it).
pub fn deleted_by(key: &str) -> Result<ValueOrigin, Absent> {
    // The config's directory may be gone too: the nearest that is not.
    let mut dir = crate::core::paths::declaring_dir(key).trim_end_matches('/');
    while !dir.is_empty() && !std::path::Path::new(dir).is_dir() {
        dir = crate::core::paths::declaring_dir(dir).trim_end_matches('/');
    }
    let root = repository(if dir.is_empty() { "/" } else { dir })?;
    let Some(rel) = relative(&root, key) else {
        return Ok(ValueOrigin::Unknown("outside the repository".into()));
    };
    let head = match git::commit_of(&root, "HEAD") {
        Ok(id) => id,
        Err(e) if e == git::too_slow("rev-parse") => return Err(e.into()),
        Err(_) => return Ok(ValueOrigin::Unknown("no commit yet".into())),
    };
    let mut cmd = hardened(&root);
    cmd.args(["ls-tree", "-z", "--full-tree", &head, "--"])
        .arg(literal(rel));
    let out = git::output(cmd, "ls-tree", 1 << 16)?;
    if git::parse_ls_tree(&out)?
        .iter()
        .any(|e| e.path == rel.as_bytes())
    {
        return Ok(ValueOrigin::NotCommitted);
    }
    let mut cmd = hardened(&root);
    cmd.arg("log")
        .args(LOG_READING)
        .args(["--max-count=1", "--diff-filter=D", "--no-renames"])
        .arg(&head)
        .arg("--")
        .arg(literal(rel));
    let out = git::output(cmd, "log", LOG_OUTPUT)?;
    if let Some(c) = parse_log(&out)?.into_iter().next() {
        return Ok(ValueOrigin::Committed(c));
    }
    // A commit git shows without parents cannot show a deletion: the one
    // that deleted it may be that commit, or lie beyond it.
    let mut cut: Vec<String> = content::shallow_commits(&root)?.into_iter().collect();
    cut.sort();
    let short = |id: &String| id.chars().take(7).collect::<String>();
    Ok(ValueOrigin::Unknown(match cut.as_slice() {
        [] => "no commit of HEAD's history deleted it".into(),
        [one] => format!("history is shallow before {}", short(one)),
        [one, rest @ ..] => format!(
            "history is shallow before {} (and {} more)",
            short(one),
            rest.len()
        ),
    }))
}

/// Each `(request, scope)` with the same origin: unknown, and why.
fn unknown_all(scopes: &[(String, String)], why: &str) -> Vec<(String, String, ValueOrigin)> {
    scopes
        .iter()
        .map(|(r, s)| (r.clone(), s.clone(), ValueOrigin::Unknown(why.to_string())))
        .collect()
}

/// Who re-pointed each re-targeted scope (`(request, value)`: a path, or
/// `node_modules=<dir>`) since commit `base`, whose tree's links are
/// `links`, against the working tree: [`retargeted_by`] of the links that
/// moved it. With them, every link that moved one (absolute paths), for
/// the commits listed to include those that moved it.
pub fn retarget_origins(
    root: &str,
    base: &str,
    links: &std::collections::BTreeMap<String, String>,
    scopes: &[(String, String)],
) -> (Vec<(String, String, ValueOrigin)>, Vec<String>) {
    let at_base = super::Snapshot {
        links: links.clone(),
        ..super::Snapshot::default()
    };
    let now = super::Snapshot::default();
    let mut all_moved = Vec::new();
    let origins = scopes
        .iter()
        .map(|(request, value)| {
            let path = value
                .strip_prefix(crate::core::config::scope::NODE_MODULES_PREFIX)
                .unwrap_or(value);
            let origin = if !crate::core::paths::key::is_under(path, root) {
                ValueOrigin::Unknown("the path is outside the repository".into())
            } else {
                let moved = super::changed_links(root, path, &at_base, &now, true);
                all_moved.extend(moved.iter().map(|rel| super::absolute(root, rel)));
                retargeted_by(root, base, None, &moved)
                    .unwrap_or_else(|absent| ValueOrigin::Unknown(absent.reason))
            };
            (request.clone(), value.clone(), origin)
        })
        .collect();
    (origins, all_moved)
}

/// The commits after `version` (the commit holding the trusted version)
/// that touched `files`.
fn since_version(root: &str, files: &[String], version: String) -> Result<CommitsSince, Absent> {
    let mut since = log_touching(root, files, &[format!("{version}..HEAD")])?;
    since.trusted = Some(version);
    Ok(since)
}

/// The commits since `at` (`trustedAt`) by committer date, said as such.
fn by_date(root: &str, files: &[String], at: &str) -> Result<CommitsSince, Absent> {
    let mut since = log_since(root, files, at)?;
    since.by_date = true;
    Ok(since)
}

/// One config of [`introduced_each`]: its extends chain (absolute paths
/// in the checkout, the config first) and the `(request, value)` pairs
/// asked about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChainValues {
    pub files: Vec<String>,
    pub values: Vec<(String, String)>,
}

/// [`introduced_in`] for every config of one `diff BASE [HEAD]`. `head`
/// is a commit, or `None` for the working tree: a value HEAD's version
/// does not grant is [`ValueOrigin::NotCommitted`], the others have the
/// origin HEAD's history within `BASE..HEAD` gives them. The origins come
/// per config, in the order given.
pub fn introduced_each(
    root: &str,
    base: &str,
    head: Option<&str>,
    configs: &[ChainValues],
    env: &Env,
) -> Result<Vec<Vec<ValueOrigin>>, Absent> {
    let base = git::commit_of(root, base)?;
    let head = head.map(|h| git::commit_of(root, h)).transpose()?;
    configs
        .iter()
        .map(
            |config| match config.files.first().and_then(|f| in_repo(root, f)) {
                Some(rel) => content::origins(
                    root,
                    &rel,
                    Some(&base),
                    head.as_deref(),
                    &config.values,
                    env,
                ),
                None => Ok(outside_all(&config.values)),
            },
        )
        .collect()
}

/// Who moved a retargeted path scope of `diff BASE [HEAD]` (issue 30
/// item 1): `links` are the paths, relative to the root, where a link
/// under the scope was re-pointed, added or removed between `base` and
/// `head` (commits; `None`: the working tree). When HEAD is the working
/// tree and one of them on disk is not as HEAD has it,
/// [`ValueOrigin::NotCommitted`]; else the commit of `BASE..HEAD` that last
/// changed one of those entries themselves (never a file under a path that
/// was a directory at some point), or [`ValueOrigin::Unknown`] and why.
pub fn retargeted_by(
    root: &str,
    base: &str,
    head: Option<&str>,
    links: &[String],
) -> Result<ValueOrigin, Absent> {
    if links.is_empty() {
        return Ok(ValueOrigin::Unknown(
            "no link under the scope found changed".to_string(),
        ));
    }
    let base = git::commit_of(root, base)?;
    let tip = git::commit_of(root, head.unwrap_or("HEAD"))?;
    if head.is_none() {
        for rel in links {
            if super::link_on_disk(root, rel) != link_at(root, &tip, rel)? {
                return Ok(ValueOrigin::NotCommitted);
            }
        }
    }
    let mut cmd = hardened(root);
    cmd.arg("log")
        .args(LOG_READING)
        .args(["--max-count=1", "--no-renames"])
        .arg(format!("{base}..{tip}"))
        .arg("--");
    for rel in links {
        // The entry itself: a trailing `/` names only a directory, so
        // files under a path that was a directory are excluded.
        cmd.arg(literal(rel))
            .arg(format!(":(top,literal,exclude){rel}/"));
    }
    let out = git::output(cmd, "log", LOG_OUTPUT)?;
    Ok(match parse_log(&out)?.into_iter().next() {
        Some(c) => ValueOrigin::Committed(c),
        None => ValueOrigin::Unknown(format!(
            "no commit of the range changed {}",
            links.join(", ")
        )),
    })
}

/// The target text of the link at `rel` in commit `tip`, `None` when no
/// link is there.
fn link_at(root: &str, tip: &str, rel: &str) -> Result<Option<String>, Absent> {
    let mut cmd = hardened(root);
    cmd.args(["ls-tree", "-z", "--full-tree", tip, "--"])
        .arg(literal(rel));
    let out = git::output(cmd, "ls-tree", 1 << 16)?;
    let entries = git::parse_ls_tree(&out)?;
    let Some(e) = entries
        .iter()
        .find(|e| e.mode == git::EntryMode::Link && e.path == rel.as_bytes())
    else {
        return Ok(None);
    };
    let target = git::BlobReader::spawn(root)?
        .read(&e.oid)?
        .ok_or_else(|| Absent::because(format!("object {} of {rel} is missing", e.oid)))?;
    Ok(Some(String::from_utf8_lossy(&target).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trusted_at_must_look_like_a_date() {
        assert!(check_date("2026-09-25T10:12:03Z").is_ok());
        assert!(check_date("--all").is_err());
        assert!(check_date("").is_err());
        assert!(check_date("2026-01-01;rm").is_err());
    }
}
