//! The reviews of configs judged one by one as a walk or a command finds
//! them: each repository's reviews file is read once ([`ReviewsFiles`],
//! from any thread), and each config's records in it are judged against
//! its portable digest now ([`ConfigReviews`]). Every reader of a config's
//! reviews on disk judges here: the interactive review's list, detail
//! pane and trust confirmation, `scan --json`, `inspect`, `review
//! list|verify` and `trust --reviewed-by`. A config whose repository has
//! no reviews file has no reviews at all (`None` from
//! [`ReviewsFiles::judge`]), so a review of such a tree shows nothing new.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::digest::{PortableDigest, RepoPath, portable_digest, repo_path};
use super::file::{DIR, FILE, ReviewsFile, read_reviews};
use super::verify::{Checked, Judge, Status, check_records, count_reviews, malformed_lines};
use crate::core::config::ConfigSnapshot;

/// Whether `dir` holds `.git` (a directory, or a worktree's file), as
/// [`repository_root`] asks.
///
/// [`repository_root`]: crate::core::paths::reviewed::repository_root
fn repository_root_is(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(".git")).is_ok_and(|m| m.is_dir() || m.is_file())
}

/// One config's reviews, judged: the one type every command and the
/// interactive review judge a config's records into (the CLI's outcomes
/// wrap it with how the config is shown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigReviews {
    /// The reviews file (absolute).
    pub file: String,
    /// Repository-relative path of the config.
    pub path: String,
    /// The repository's root (resolved).
    pub root: String,
    /// Its portable digest now.
    pub digest: String,
    /// Absolute paths outside the repository its document holds.
    pub outside: Vec<String>,
    /// The reviews file's own problems: not read, or lines that are no
    /// records (config text: escape before showing); shared by every
    /// config of the file.
    pub notes: Arc<[String]>,
    /// Every record for this path, judged, in line order.
    pub checked: Vec<Checked>,
    /// Distinct `reviewed` records (keys and people) and who.
    pub count: usize,
    pub reviewers: Vec<String>,
    /// The allowed signers file the records were judged by; `None`: no
    /// record is checked against any (each is at best `unchecked`).
    pub signers: Option<String>,
}

#[cfg(test)]
impl ConfigReviews {
    /// The reviews of `a/goccia.json` in `/r` (digest 0…0), with these
    /// judged records and this count of distinct reviews, no notes, no
    /// reviewers named and no allowed signers: what a test varies from.
    pub(crate) fn fixture(checked: Vec<Checked>, count: usize) -> ConfigReviews {
        ConfigReviews {
            file: "/r/.goccia/reviews.jsonl".into(),
            path: "a/goccia.json".into(),
            root: "/r".into(),
            digest: format!("sha256:{}", "0".repeat(64)),
            outside: Vec::new(),
            notes: Arc::from([]),
            checked,
            count,
            reviewers: Vec::new(),
            signers: None,
        }
    }
}

/// What a list row says of a config's reviews, beside its summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// `reviewed N`: N distinct reviews of this version by allowed keys.
    Reviewed(usize),
    /// `review outdated`: none of this version, one of an earlier one.
    Outdated,
    /// `bad review`: a record that is forged, malformed, by a key not
    /// allowed, revoked or expired (never counted).
    Bad,
    /// `review unchecked`: signed for this version, but no allowed
    /// signers judged it: it is nobody's review yet.
    Unchecked,
}

impl Mark {
    /// As the list says it.
    pub fn text(self) -> String {
        match self {
            Mark::Reviewed(n) => format!("reviewed {n}"),
            Mark::Outdated => "review outdated".to_string(),
            Mark::Bad => "bad review".to_string(),
            Mark::Unchecked => "review unchecked".to_string(),
        }
    }
}

/// Whether a status says a record is wrong (not merely of another
/// version, or not judged).
pub fn is_bad(status: Status) -> bool {
    !matches!(
        status,
        Status::Reviewed | Status::Unchecked | Status::EarlierVersion
    )
}

impl ConfigReviews {
    /// What the list says: `reviewed N` when any counts, else `review
    /// outdated` when an earlier version was reviewed, else `review
    /// unchecked` for a good signature nobody judged; `bad review` besides
    /// whenever a record is bad. Empty when there is no record.
    pub fn marks(&self) -> Vec<Mark> {
        let has = |s: Status| self.checked.iter().any(|c| c.status == s);
        let mut out = Vec::new();
        if self.count > 0 {
            out.push(Mark::Reviewed(self.count));
        } else if has(Status::EarlierVersion) {
            out.push(Mark::Outdated);
        } else if has(Status::Unchecked) {
            out.push(Mark::Unchecked);
        }
        if self.checked.iter().any(|c| is_bad(c.status)) {
            out.push(Mark::Bad);
        }
        out
    }

    /// The `earlier-version` records, each digest once, in line order:
    /// the versions a diff since review can be shown for.
    pub fn earlier_digests(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for c in &self.checked {
            if let (Status::EarlierVersion, Some(r)) = (c.status, &c.record)
                && !out.contains(&r.digest)
            {
                out.push(r.digest.clone());
            }
        }
        out
    }

    /// The records for the config placed at `place` (its portable digest
    /// `d`) in its repository's reviews file as `read` (`None`: it has
    /// none, and no record is judged), judged by `judge`, whose allowed
    /// signers file is `signers`.
    pub fn judged(
        place: RepoPath,
        d: PortableDigest,
        read: Option<&FileRead>,
        judge: &Judge,
        signers: Option<&str>,
    ) -> ConfigReviews {
        let file = Path::new(&place.root).join(DIR).join(FILE);
        let mut out = ConfigReviews {
            file: file.to_string_lossy().into_owned(),
            path: place.path,
            root: place.root,
            digest: d.digest,
            outside: d.outside,
            notes: read.map_or_else(|| Arc::from([]), |r| r.notes.clone()),
            checked: Vec::new(),
            count: 0,
            reviewers: Vec::new(),
            signers: signers.map(str::to_string),
        };
        if let Some(Ok(f)) = read.map(|r| &r.file) {
            out.checked = check_records(f, &out.path, &out.digest, judge);
        }
        (out.count, out.reviewers) = count_reviews(&out.checked);
        out
    }
}

/// A repository's reviews file, read once.
#[derive(Debug)]
pub struct FileRead {
    /// Its records, or why it was not read.
    pub file: Result<ReviewsFile, String>,
    /// Its own problems: why it was not read, or the lines that are no
    /// records (config text: escape before showing).
    pub notes: Arc<[String]>,
}

/// A repository's reviews file as read: none, or what was read.
pub type Read = Option<Arc<FileRead>>;

/// Each repository's reviews file, read once (by root), for a walk that
/// judges many configs, from any thread.
#[derive(Default)]
pub struct ReviewsFiles {
    files: Mutex<HashMap<String, Read>>,
    /// Each directory asked about (and its ancestors passed) to the
    /// nearest one holding `.git`: a walk of a large tree asks each once.
    roots: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
}

impl ReviewsFiles {
    /// Forgets every file read (a new walk reads them again).
    pub fn clear(&self) {
        self.files.lock().unwrap_or_else(|e| e.into_inner()).clear();
        self.roots.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// Whether the repository at `root` has a reviews file, or anything
    /// in its place (a `.goccia` that is a file or a link, a link or FIFO
    /// for the file): the question every command asks before it judges a
    /// config, answered by reading it once. What is in its place is said
    /// (the read's notes), never taken for no reviews file at all.
    pub fn anything_at(&self, root: &str) -> bool {
        self.read(root).is_some()
    }

    /// Whether the repository holding the (resolved) directory `dir` may
    /// have a reviews file: its root, found as `repository_root` finds it
    /// ([`repository_root_is`]), each directory asked once, then the file
    /// read once. A config elsewhere is neither placed nor hashed.
    fn may_have_reviews(&self, dir: &Path) -> bool {
        let known = |d: &Path| {
            let roots = self.roots.lock().unwrap_or_else(|e| e.into_inner());
            roots.get(d).cloned()
        };
        let mut passed = Vec::new();
        let mut at = Some(dir);
        // No lock is held while the disk is asked.
        let root = loop {
            let Some(d) = at else { break None };
            if let Some(root) = known(d) {
                break root;
            }
            if repository_root_is(d) {
                break Some(d.to_path_buf());
            }
            passed.push(d.to_path_buf());
            at = d.parent();
        };
        let mut roots = self.roots.lock().unwrap_or_else(|e| e.into_inner());
        for d in passed {
            roots.insert(d, root.clone());
        }
        drop(roots);
        root.is_some_and(|r| self.read(&r.to_string_lossy()).is_some())
    }

    /// The reviews file of the repository at `root`, read the first time
    /// it is asked for: `None` when there is none.
    pub fn read(&self, root: &str) -> Read {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        files
            .entry(root.to_string())
            .or_insert_with(|| match read_reviews(Path::new(root)) {
                Ok(None) => None,
                Ok(Some(f)) => {
                    let notes = malformed_lines(&f).into_iter().map(|c| c.text).collect();
                    Some(Arc::new(FileRead { file: Ok(f), notes }))
                }
                Err(e) => Some(Arc::new(FileRead {
                    file: Err(e.to_string()),
                    notes: Arc::from([e.to_string()]),
                })),
            })
            .clone()
    }

    /// The reviews of the config of `snapshot`, judged by `judge` (whose
    /// signers file is `signers`): `None` when it is in no repository or
    /// its repository has no reviews file.
    pub fn judge(
        &self,
        snapshot: &ConfigSnapshot,
        judge: &Judge,
        signers: Option<&str>,
    ) -> Option<ConfigReviews> {
        let dir = Path::new(snapshot.key.as_str()).parent()?;
        if !self.may_have_reviews(dir) {
            return None;
        }
        let place = repo_path(&snapshot.key).ok()?;
        let read = self.read(&place.root)?;
        let d = portable_digest(&snapshot.block, &snapshot.targets, &place);
        Some(ConfigReviews::judged(place, d, Some(&read), judge, signers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(statuses: &[Status], count: usize) -> ConfigReviews {
        let checked = statuses
            .iter()
            .enumerate()
            .map(|(i, &status)| Checked {
                line: i + 1,
                record: None,
                key_type: None,
                status,
                text: String::new(),
            })
            .collect();
        ConfigReviews::fixture(checked, count)
    }

    #[test]
    fn only_a_counted_review_reads_as_reviewed() {
        use Status::*;
        assert_eq!(with(&[Reviewed, Reviewed], 2).marks(), [Mark::Reviewed(2)]);
        assert_eq!(with(&[EarlierVersion], 0).marks(), [Mark::Outdated]);
        assert_eq!(with(&[Unchecked], 0).marks(), [Mark::Unchecked]);
        // A forged record next to a good one: both said.
        assert_eq!(
            with(&[Reviewed, BadSignature], 1).marks(),
            [Mark::Reviewed(1), Mark::Bad]
        );
        for bad in [
            Malformed,
            BadSignature,
            UnknownKey,
            WrongPrincipal,
            Revoked,
            Expired,
            NotYetValid,
        ] {
            assert_eq!(with(&[bad], 0).marks(), [Mark::Bad], "{bad:?}");
        }
        assert!(with(&[], 0).marks().is_empty());
        assert_eq!(Mark::Reviewed(2).text(), "reviewed 2");
    }

    /// Each file is read once and its notes kept with it; a `.goccia`
    /// that is a file is read as an error, which every command says.
    #[test]
    fn each_file_is_read_once_with_its_notes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("r");
        std::fs::create_dir_all(root.join(DIR)).unwrap();
        std::fs::write(root.join(DIR).join(FILE), "not a record\n").unwrap();
        let root = root.to_string_lossy().into_owned();
        let files = ReviewsFiles::default();
        let first = files.read(&root).unwrap();
        assert!(Arc::ptr_eq(&first, &files.read(&root).unwrap()));
        assert!(first.file.is_ok());
        assert_eq!(first.notes.len(), 1, "{:?}", first.notes);
        assert!(files.anything_at(&root));

        let odd = dir.path().join("odd");
        std::fs::create_dir_all(&odd).unwrap();
        std::fs::write(odd.join(DIR), "a file").unwrap();
        let odd = odd.to_string_lossy().into_owned();
        let read = files.read(&odd).unwrap();
        assert!(read.file.is_err());
        assert_eq!(*read.notes, [read.file.as_ref().unwrap_err().clone()]);
        assert!(files.anything_at(&odd));
        assert!(files.read(&dir.path().to_string_lossy()).is_none());
    }
}
