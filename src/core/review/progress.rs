//! Review progress that survives a restart (issue 12): which configs the
//! reviewer marked **viewed**, each by trust key *and* sha256 (a config that
//! changes after being viewed loses its mark), and where each tree's review
//! stopped (selected config, filters, marks).
//!
//! Kept in the per-user state directory (`review-progress.json`), never in
//! the store nor in the repository. Every write is atomic (a temporary file
//! renamed over the old one) and refused where the state directory is not
//! safe; a file that cannot be read or parsed is reported and ignored, never
//! fatal, and never written over.
//!
//! Two reviews may be open at once (two terminals, two trees): each saves
//! only what it changed ([`ProgressChange`]), applied to the file as it is
//! then, under the file's lock ([`update_progress`]), so neither loses the
//! other's marks, as the ignore list's changes are merged.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::core::paths::bounded::read_regular;

/// The file's name in the state directory.
pub const PROGRESS_FILE: &str = crate::core::env::PROGRESS_FILE.name;

/// Far more than any review needs; a larger file is not read.
pub const PROGRESS_MAX_BYTES: u64 = 64 << 20;

/// Where one tree's review stopped.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// The trust key of the selected config.
    #[serde(default)]
    pub selected: Option<String>,
    /// The `/` path query.
    #[serde(default)]
    pub query: String,
    /// The `s` state filter (`changed`, `never-trusted`, ...), if any.
    #[serde(default)]
    pub state: Option<String>,
    /// Only configs not yet viewed.
    #[serde(default)]
    pub unviewed: bool,
    /// Keys marked with `space`.
    #[serde(default)]
    pub marked: BTreeSet<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Trust key → the sha256 the config had when it was marked viewed.
    #[serde(default)]
    pub viewed: BTreeMap<String, String>,
    /// Tree under review (its root as given to the TUI, made absolute) →
    /// where its review stopped.
    #[serde(default)]
    pub sessions: BTreeMap<String, Session>,
    /// The same for `--since` reviews, kept apart (issue 30): their rows
    /// are compared with a revision, so a filter or a selection made in
    /// the store review means something else there, and the other way
    /// round.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub since_sessions: BTreeMap<String, Session>,
}

impl Progress {
    /// The saved sessions of store reviews, or of `--since` reviews.
    pub fn sessions_of(&self, since: bool) -> &BTreeMap<String, Session> {
        if since {
            &self.since_sessions
        } else {
            &self.sessions
        }
    }

    /// [`Progress::sessions_of`], to change.
    pub fn sessions_of_mut(&mut self, since: bool) -> &mut BTreeMap<String, Session> {
        if since {
            &mut self.since_sessions
        } else {
            &mut self.sessions
        }
    }

    /// Whether the config at `key`, as it is now (`sha256`), was viewed.
    pub fn is_viewed(&self, key: &str, sha256: Option<&str>) -> bool {
        sha256.is_some_and(|sha| self.viewed.get(key).is_some_and(|v| v == sha))
    }

    /// Marks (or unmarks) `key` viewed as it is now.
    pub fn set_viewed(&mut self, key: &str, sha256: &str, on: bool) {
        if on {
            self.viewed.insert(key.to_owned(), sha256.to_owned());
        } else {
            self.viewed.remove(key);
        }
    }
}

/// The per-user state directory review progress is kept in
/// (`$GOCCIA_TRUST_STATE_DIR`, else `$XDG_STATE_HOME/goccia-trust`, else
/// `~/.local/state/goccia-trust`), as for decision records; `None` when
/// there is none.
pub fn progress_dir(env: &crate::core::env::Env) -> Option<PathBuf> {
    crate::core::policy::record::state_dir(None, env).ok()
}

/// The progress file in `state_dir`.
pub fn progress_path(state_dir: &Path) -> PathBuf {
    state_dir.join(PROGRESS_FILE)
}

/// Reads the progress in `state_dir`. No file is no progress; a file that
/// cannot be read or is not progress gives empty progress and the problem,
/// naming the file, to report.
pub fn load_progress(state_dir: &Path) -> (Progress, Option<String>) {
    let path = progress_path(state_dir);
    let bytes = match read_regular(&path, PROGRESS_MAX_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == Some(std::io::ErrorKind::NotFound) => {
            return (Progress::default(), None);
        }
        Err(e) => {
            return (
                Progress::default(),
                Some(format!(
                    "review progress {} {}; ignored",
                    path.display(),
                    e.why()
                )),
            );
        }
    };
    match serde_json::from_slice::<Progress>(&bytes) {
        Ok(p) => (p, None),
        Err(e) => (
            Progress::default(),
            Some(format!(
                "review progress {} is corrupt ({e}); ignored",
                path.display()
            )),
        ),
    }
}

/// What one review changed since it read the progress: viewed marks set
/// (`Some(sha256)`) or cleared (`None`), in the order made, and where this
/// tree's review stands now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProgressChange {
    pub viewed: Vec<(String, Option<String>)>,
    /// `(since, tree, session)`: the session of the tree under review, a
    /// `--since` one or not.
    pub session: Option<(bool, String, Session)>,
}

impl ProgressChange {
    /// `progress` with this change made on it; everything else, another
    /// review's marks and sessions included, is kept.
    pub fn apply(&self, progress: &mut Progress) {
        for (key, sha) in &self.viewed {
            match sha {
                Some(sha) => progress.set_viewed(key, sha, true),
                None => progress.set_viewed(key, "", false),
            }
        }
        if let Some((since, tree, session)) = &self.session {
            progress
                .sessions_of_mut(*since)
                .insert(tree.clone(), session.clone());
        }
    }
}

/// The lock file beside the progress, held while it is read, changed and
/// written.
pub const PROGRESS_LOCK_FILE: &str = "review-progress.json.lock";

/// Makes `change` on the progress in `state_dir` as it is now, under its
/// lock: read, changed, written atomically. A file that cannot be read or
/// is not progress is not written over (the reason, naming the file, is
/// the error).
pub fn update_progress(state_dir: &Path, change: &ProgressChange) -> Result<(), String> {
    let _lock = crate::core::review::state_file::lock_state_file(state_dir, PROGRESS_LOCK_FILE)?;
    let (mut progress, problem) = load_progress(state_dir);
    if let Some(problem) = problem {
        let problem = problem.strip_suffix("; ignored").unwrap_or(&problem);
        return Err(format!("{problem}; not saved (fix or remove it)"));
    }
    change.apply(&mut progress);
    save_progress(state_dir, &progress)
}

/// Writes `progress` to `state_dir` atomically, creating the directory
/// private (0700) when needed. Refused, with the reason, where the state
/// directory is not safe to use.
pub fn save_progress(state_dir: &Path, progress: &Progress) -> Result<(), String> {
    crate::core::review::state_file::write_state_file(
        state_dir,
        PROGRESS_FILE,
        "review progress",
        progress,
    )
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_viewed_mark_holds_for_the_same_hash_only() {
        let mut p = Progress::default();
        p.set_viewed("/r/goccia.json", "aa", true);
        assert!(p.is_viewed("/r/goccia.json", Some("aa")));
        assert!(!p.is_viewed("/r/goccia.json", Some("bb")), "changed since");
        assert!(!p.is_viewed("/r/goccia.json", None), "does not load");
        p.set_viewed("/r/goccia.json", "aa", false);
        assert!(!p.is_viewed("/r/goccia.json", Some("aa")));
    }

    #[test]
    fn saved_progress_reads_back_and_the_file_is_private() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("state");
        let mut p = Progress::default();
        p.set_viewed("/r/a.json", "aa", true);
        p.sessions.insert(
            "/r".into(),
            Session {
                selected: Some("/r/a.json".into()),
                query: "api".into(),
                state: Some("changed".into()),
                unviewed: true,
                marked: ["/r/b.json".to_string()].into(),
            },
        );
        save_progress(&dir, &p).unwrap();
        assert_eq!(load_progress(&dir), (p, None));
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, [PROGRESS_FILE], "no temporary file left");
    }

    #[test]
    fn since_sessions_are_kept_apart_and_older_files_still_read() {
        // A file written before `--since` sessions existed.
        let old: Progress =
            serde_json::from_str(r#"{"viewed": {}, "sessions": {"/r": {"state": "changed"}}}"#)
                .unwrap();
        assert!(old.since_sessions.is_empty());
        assert_eq!(
            old.sessions_of(false)["/r"].state.as_deref(),
            Some("changed")
        );
        assert!(
            old.sessions_of(true).get("/r").is_none(),
            "not a since session"
        );
        // Without since sessions, the file is written as before.
        let text = serde_json::to_string(&old).unwrap();
        assert!(!text.contains("since_sessions"), "{text}");
        let mut p = old;
        p.sessions_of_mut(true)
            .insert("/r".into(), Session::default());
        let back: Progress = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn a_corrupt_file_is_reported_and_ignored() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(progress_path(t.path()), "{\"viewed\": [").unwrap();
        let (p, problem) = load_progress(t.path());
        assert_eq!(p, Progress::default());
        let problem = problem.unwrap();
        assert!(problem.contains(PROGRESS_FILE), "{problem}");
        assert!(problem.contains("is corrupt"), "{problem}");
        assert!(problem.ends_with("; ignored"), "{problem}");
        assert_eq!(
            load_progress(&t.path().join("none")),
            (Progress::default(), None)
        );
    }

    #[test]
    fn concurrent_writers_keep_every_mark() {
        // Two (here eight) reviews saving at once: each change is made on
        // the file as the others left it, so every mark arrives.
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("state");
        std::thread::scope(|s| {
            for i in 0..8 {
                let dir = &dir;
                s.spawn(move || {
                    for j in 0..5 {
                        let change = ProgressChange {
                            viewed: vec![(format!("/k{i}-{j}"), Some("aa".into()))],
                            session: Some((false, format!("/tree{i}"), Session::default())),
                        };
                        update_progress(dir, &change).unwrap();
                    }
                });
            }
        });
        let (p, problem) = load_progress(&dir);
        assert_eq!(problem, None);
        assert_eq!(p.viewed.len(), 40);
        assert_eq!(p.sessions.len(), 8);
        // A mark cleared by one review leaves the others'.
        let clear = ProgressChange {
            viewed: vec![("/k0-0".into(), None)],
            session: None,
        };
        update_progress(&dir, &clear).unwrap();
        assert_eq!(load_progress(&dir).0.viewed.len(), 39);
    }

    #[test]
    fn a_file_with_a_problem_is_not_written_over() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("state");
        std::fs::create_dir(&dir).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::write(progress_path(&dir), "{\"viewed\": [").unwrap();
        let err = update_progress(&dir, &ProgressChange::default()).unwrap_err();
        assert!(
            err.contains("is corrupt") && err.ends_with("; not saved (fix or remove it)"),
            "{err}"
        );
        assert_eq!(
            std::fs::read(progress_path(&dir)).unwrap(),
            b"{\"viewed\": ["
        );
    }

    #[test]
    fn an_unsafe_state_directory_is_refused_and_nothing_written() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("state");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let err = save_progress(&dir, &Progress::default()).unwrap_err();
        assert!(err.contains("writable by others"), "{err}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    }
}
