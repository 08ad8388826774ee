//! Configs the user refused and does not want to be asked about again
//! (issue 31): `goccia-trust ignore PATH…`, `unignore`, `i` in the TUI.
//!
//! Each is kept by trust key, the sha256 its block had when it was ignored
//! *and* where each of its path scopes resolved then (the targets trust
//! records), so a config that changes, or a link one of its scopes goes
//! through that is re-pointed, asks again. An entry written before targets
//! were kept (no `targets`) holds only for a config without path scopes. Kept in the per-user state
//! directory (`ignored.json`), never in GocciaScript's store (whose format
//! may carry nothing of ours) nor in the repository. Ignoring hides
//! nothing from GocciaScript: it still refuses to run the config.
//!
//! Fail closed: a file that cannot be read, does not parse, or lies where
//! someone else could have written it gives an empty list (nothing is
//! treated as ignored) and the problem to report; a list with a problem is
//! never written over. Every write is atomic (a temporary file renamed over
//! the old one) and refused where the state directory is not safe.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::core::paths::bounded::read_regular;
use crate::core::review::report::{ConfigReport, ConfigState};

/// The file's name in the state directory.
pub const IGNORE_FILE: &str = crate::core::env::IGNORE_FILE.name;

/// Far more than any list needs; a larger file is not read.
pub const IGNORE_MAX_BYTES: u64 = 16 << 20;

/// One ignored config: the hash it had, where its path scopes resolved,
/// and when it was ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ignored {
    pub sha256: String,
    pub ignored_at: String,
    /// Scope → target, as trust records them; `None` in an entry written
    /// before targets were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<Vec<(String, String)>>,
}

/// A config as it is now, as an ignore matches it: its block's hash and
/// where its path scopes resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoreAs {
    pub sha256: String,
    pub targets: Vec<(String, String)>,
}

impl IgnoreAs {
    /// `report` as it is now; `None` when it does not load.
    pub fn of(report: &ConfigReport) -> Option<IgnoreAs> {
        Some(IgnoreAs {
            sha256: report.sha256()?.to_string(),
            targets: report.targets().to_vec(),
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IgnoreList {
    /// Trust key → the config as it was when ignored.
    #[serde(default)]
    pub ignored: BTreeMap<String, Ignored>,
}

impl IgnoreList {
    /// Whether the config at `key`, as it is now (`None`: it does not
    /// load), is ignored: same hash, and every path scope resolving where
    /// it did.
    pub fn is_ignored(&self, key: &str, now: Option<&IgnoreAs>) -> bool {
        let (Some(now), Some(i)) = (now, self.ignored.get(key)) else {
            return false;
        };
        i.sha256 == now.sha256
            && match &i.targets {
                Some(t) => *t == now.targets,
                None => now.targets.is_empty(),
            }
    }

    /// Whether `report`, as it is now, is ignored.
    pub fn ignores(&self, report: &ConfigReport) -> bool {
        self.is_ignored(&report.key, IgnoreAs::of(report).as_ref())
    }

    /// Ignores `key` as it is now; `true` when that changed the list.
    pub fn ignore(&mut self, key: &str, now: &IgnoreAs, at: &str) -> bool {
        if self.is_ignored(key, Some(now)) {
            return false;
        }
        self.ignored.insert(
            key.to_owned(),
            Ignored {
                sha256: now.sha256.clone(),
                ignored_at: at.to_owned(),
                targets: Some(now.targets.clone()),
            },
        );
        true
    }

    /// Forgets `key`, whatever hash it was ignored with; `true` when it was
    /// in the list.
    pub fn unignore(&mut self, key: &str) -> bool {
        self.ignored.remove(key).is_some()
    }

    /// Shows `report` as `ignored` when it would ask for review (never
    /// trusted, or changed) and is ignored as it is now. A trusted config,
    /// one that asks for nothing and one that does not load keep their
    /// state: ignoring hides only a question.
    pub fn apply(&self, report: &mut ConfigReport) {
        if report.state.needs_review() && self.ignores(report) {
            report.state = ConfigState::Ignored;
        }
    }
}

/// The state an ignored config goes back to when it is no longer ignored:
/// `changed` when the store has an entry for it, else `never trusted`.
pub fn unignored_state(report: &ConfigReport) -> ConfigState {
    if report.stored.is_some() {
        ConfigState::Changed
    } else {
        ConfigState::NeverTrusted
    }
}

/// The per-user state directory the ignore list is kept in (as review
/// progress and decision records: `$GOCCIA_TRUST_STATE_DIR`, else
/// `$XDG_STATE_HOME/goccia-trust`, else `~/.local/state/goccia-trust`);
/// `None` when there is none.
pub fn ignore_dir(env: &crate::core::env::Env) -> Option<PathBuf> {
    crate::core::policy::record::state_dir(None, env).ok()
}

/// Takes out of `plan` the candidates that are ignored as they are now,
/// except those whose key is in `named` (config files named explicitly:
/// `trust dir/goccia.json` trusts it, `trust dir` does not). Returns the
/// candidates left out, in key order.
pub fn leave_out_ignored(
    plan: &mut crate::core::review::trust::TrustPlan,
    ignores: &IgnoreList,
    named: &[String],
) -> Vec<crate::core::review::trust::TrustCandidate> {
    let (out, kept) = std::mem::take(&mut plan.candidates)
        .into_iter()
        .partition::<Vec<_>, _>(|c| {
            let key = c.snapshot.key.as_str();
            let now = IgnoreAs {
                sha256: c.snapshot.sha256.clone(),
                targets: c.snapshot.targets.to_pairs(),
            };
            ignores.is_ignored(key, Some(&now)) && !named.iter().any(|n| n == key)
        });
    plan.candidates = kept;
    plan.left_out += out.len();
    out
}

/// The ignore file in `state_dir`.
pub fn ignore_path(state_dir: &Path) -> PathBuf {
    state_dir.join(IGNORE_FILE)
}

/// Reads the ignore list in `state_dir`. No file is an empty list; a file
/// that cannot be read, is not a list, or that someone else could have
/// written gives an empty list (nothing is ignored) and the problem, naming
/// the file, to report.
pub fn load_ignores(state_dir: &Path) -> (IgnoreList, Option<String>) {
    let path = ignore_path(state_dir);
    let refuse = |why: String| {
        (
            IgnoreList::default(),
            Some(format!("{why}; nothing is treated as ignored")),
        )
    };
    let bytes = match read_regular(&path, IGNORE_MAX_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == Some(std::io::ErrorKind::NotFound) => {
            return (IgnoreList::default(), None);
        }
        Err(e) => {
            return refuse(format!("ignore list {} {}", path.display(), e.why()));
        }
    };
    let user = crate::core::store::User::current();
    if let Some(issue) =
        crate::core::store::refusal(&crate::core::store::check_state_dir(state_dir, &user))
    {
        return refuse(format!("ignore list {}: {}", path.display(), issue.text));
    }
    if let Some(why) = foreign_file(&path, &user) {
        return refuse(format!("ignore list {} {why}", path.display()));
    }
    match serde_json::from_slice::<IgnoreList>(&bytes) {
        Ok(list) => (list, None),
        Err(e) => refuse(format!("ignore list {} is corrupt ({e})", path.display())),
    }
}

/// Why the file at `path` could have been written by someone else, if it
/// could: an ignore list hides configs from review, so only its owner may
/// have made it.
#[cfg(unix)]
fn foreign_file(path: &Path, user: &crate::core::store::User) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    if meta.uid() != user.uid {
        return Some(format!("is owned by uid {}, not by you", meta.uid()));
    }
    let mode = meta.mode() & 0o7777;
    (mode & 0o022 != 0).then(|| format!("is writable by others (mode {mode:04o})"))
}

#[cfg(not(unix))]
fn foreign_file(_: &Path, _: &crate::core::store::User) -> Option<String> {
    None
}

/// Writes `list` to `state_dir` atomically, creating the directory private
/// (0700) when needed; the file is private (0600). Refused, with the
/// reason, where the state directory is not safe to use.
pub fn save_ignores(state_dir: &Path, list: &IgnoreList) -> Result<(), String> {
    crate::core::review::state_file::write_state_file(state_dir, IGNORE_FILE, "ignore list", list)
}

/// The lock file beside the list: held while the list is read, changed
/// and written, so the CLI and the TUI changing it at once lose nothing.
pub const IGNORE_LOCK_FILE: &str = "ignored.json.lock";

/// Reads the list, lets `change` edit it and writes it back, unless the
/// list has a problem (then nothing is written over it) or `change` changed
/// nothing; all of it under the list's lock. Returns what `change`
/// returned.
pub fn update_ignores<T>(
    state_dir: &Path,
    change: impl FnOnce(&mut IgnoreList) -> (T, bool),
) -> Result<T, String> {
    let _lock = lock_ignores(state_dir)?;
    let (mut list, problem) = load_ignores(state_dir);
    if let Some(problem) = problem {
        return Err(problem.replace(
            "; nothing is treated as ignored",
            "; not changed (fix or remove it)",
        ));
    }
    let (out, changed) = change(&mut list);
    if changed {
        save_ignores(state_dir, &list)?;
    }
    Ok(out)
}

/// The exclusive lock on the list, held while the returned file is open
/// (`state_file::lock_state_file`).
fn lock_ignores(state_dir: &Path) -> Result<std::fs::File, String> {
    crate::core::review::state_file::lock_state_file(state_dir, IGNORE_LOCK_FILE)
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sha(s: &str) -> IgnoreAs {
        IgnoreAs {
            sha256: s.into(),
            targets: vec![],
        }
    }

    #[test]
    fn an_ignore_holds_for_the_same_hash_only() {
        let mut l = IgnoreList::default();
        assert!(l.ignore("/r/goccia.json", &sha("aa"), "2026-01-01T00:00:00Z"));
        assert!(!l.ignore("/r/goccia.json", &sha("aa"), "2026-01-02T00:00:00Z"));
        assert!(l.is_ignored("/r/goccia.json", Some(&sha("aa"))));
        assert!(
            !l.is_ignored("/r/goccia.json", Some(&sha("bb"))),
            "changed since"
        );
        assert!(!l.is_ignored("/r/goccia.json", None), "does not load");
        assert!(l.unignore("/r/goccia.json"));
        assert!(!l.unignore("/r/goccia.json"));
    }

    /// Issue 41 item 8: a scope whose link now leads elsewhere ends the
    /// ignore; an entry from before targets were kept still reads, and
    /// holds only for a config without path scopes.
    #[test]
    fn an_ignore_holds_for_the_same_targets_only() {
        let mut l = IgnoreList::default();
        let then = IgnoreAs {
            sha256: "aa".into(),
            targets: vec![("/r/static".into(), "/shared/assets-v1".into())],
        };
        l.ignore("/r/goccia.json", &then, "t");
        assert!(l.is_ignored("/r/goccia.json", Some(&then)));
        let moved = IgnoreAs {
            targets: vec![("/r/static".into(), "/home/u/.ssh".into())],
            ..then.clone()
        };
        assert!(!l.is_ignored("/r/goccia.json", Some(&moved)));
        let old: IgnoreList = serde_json::from_str(
            r#"{"ignored": {"/r/goccia.json": {"sha256": "aa", "ignoredAt": "t"}}}"#,
        )
        .unwrap();
        assert!(old.is_ignored("/r/goccia.json", Some(&sha("aa"))));
        assert!(!old.is_ignored("/r/goccia.json", Some(&then)));
    }

    #[test]
    fn a_saved_list_reads_back_and_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("state");
        let mut l = IgnoreList::default();
        l.ignore("/r/a.json", &sha("aa"), "2026-01-01T00:00:00Z");
        save_ignores(&dir, &l).unwrap();
        assert_eq!(load_ignores(&dir), (l, None));
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&ignore_path(&dir)), 0o600);
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, [IGNORE_FILE], "no temporary file left");
    }

    #[test]
    fn a_corrupt_or_unsafe_file_ignores_nothing_and_is_not_written_over() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("state");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::write(ignore_path(&dir), "{\"ignored\": [").unwrap();
        let (l, problem) = load_ignores(&dir);
        assert_eq!(l, IgnoreList::default());
        let problem = problem.unwrap();
        assert!(problem.contains("is corrupt"), "{problem}");
        assert!(
            problem.ends_with("; nothing is treated as ignored"),
            "{problem}"
        );
        let err = update_ignores(&dir, |l| ((), l.ignore("/k", &sha("aa"), "t"))).unwrap_err();
        assert!(err.ends_with("not changed (fix or remove it)"), "{err}");
        assert_eq!(
            std::fs::read(ignore_path(&dir)).unwrap(),
            b"{\"ignored\": [",
            "left as it was"
        );

        // A well-formed list others can write is not believed.
        let mut l = IgnoreList::default();
        l.ignore("/k", &sha("aa"), "t");
        save_ignores(&dir, &l).unwrap();
        std::fs::set_permissions(ignore_path(&dir), std::fs::Permissions::from_mode(0o666))
            .unwrap();
        let (shown, problem) = load_ignores(&dir);
        assert_eq!(shown, IgnoreList::default());
        assert!(problem.unwrap().contains("writable by others"));
    }

    #[test]
    fn concurrent_changes_lose_nothing() {
        // The CLI and the TUI may change the list at once: each
        // read-modify-write holds the lock, so every key arrives.
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("state");
        std::thread::scope(|s| {
            for i in 0..8 {
                let dir = &dir;
                s.spawn(move || {
                    for j in 0..5 {
                        update_ignores(dir, |l| {
                            ((), l.ignore(&format!("/k{i}-{j}"), &sha("aa"), "t"))
                        })
                        .unwrap();
                    }
                });
            }
        });
        assert_eq!(load_ignores(&dir).0.ignored.len(), 40);
    }

    #[test]
    fn an_unsafe_state_directory_is_refused_and_nothing_written() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("state");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = save_ignores(&dir, &IgnoreList::default()).unwrap_err();
        assert!(err.contains("writable by others"), "{err}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    }
}
