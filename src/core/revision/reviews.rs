//! Signed reviews at a revision (docs/src/signed-reviews.md#in-a-pull-request-diff-base-head):
//! `.goccia/reviews.jsonl` read from the commit's objects, never from the
//! disk, within the bounds of the file reader (`core::team::file`); and
//! each config's recorded targets as the commit's own tree tells them, for
//! its portable digest at that commit (`revision::tree_targets`).
//!
//! The disk's digest resolves each path scope with `realpath`; a commit
//! tells the same only for a scope inside the repository whose links all
//! lead to something the commit holds. Any other target (a scope outside
//! the repository, a link out of it or to nothing the commit holds, a
//! loop, a submodule on the way) depends on the machine: it is said, and
//! no review of that config counts at the revision.

use crate::core::team::file::{DIR, FILE, FILE_MAX_BYTES, NotRead, ReviewsFile, parse_reviews};

use super::git::{BlobReader, EntryMode, TreeEntry};

/// The reviews file, as the diff names it (relative to the root).
pub fn reviews_path() -> String {
    format!("{DIR}/{FILE}")
}

/// What a commit's tree holds at the reviews file's place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewsEntry {
    /// A regular file: its blob's id.
    Blob(String),
    /// A link or submodule at `.goccia` or at the file, a file at
    /// `.goccia`: not read. `path` relative to the root, `kind` as
    /// `a symbolic link`.
    NotRegular { path: String, kind: &'static str },
}

/// The reviews file's entry in `tree`, `None` when the commit has none.
pub fn reviews_entry(tree: &[TreeEntry]) -> Option<ReviewsEntry> {
    let file = reviews_path();
    let kind = |mode: EntryMode| match mode {
        EntryMode::File => "a regular file",
        EntryMode::Link => "a symbolic link",
        EntryMode::Submodule => "a submodule",
    };
    for e in tree {
        if e.path == DIR.as_bytes() {
            return Some(ReviewsEntry::NotRegular {
                path: DIR.to_string(),
                kind: kind(e.mode),
            });
        }
        if e.path == file.as_bytes() {
            return Some(match e.mode {
                EntryMode::File => ReviewsEntry::Blob(e.oid.clone()),
                mode => ReviewsEntry::NotRegular {
                    path: file.clone(),
                    kind: kind(mode),
                },
            });
        }
    }
    None
}

/// The reviews file of a commit of the repository at `root`, read from
/// its blob: at most 8 MiB and 20,000 records, else not read at all.
pub fn read_reviews_at(root: &str, entry: &ReviewsEntry) -> Result<ReviewsFile, NotRead> {
    let shown = reviews_path();
    let io = |why: String| NotRead::Io {
        path: shown.clone(),
        error: std::io::Error::other(why),
    };
    let oid = match entry {
        ReviewsEntry::NotRegular { path, kind } => {
            return Err(NotRead::NotRegular {
                path: path.clone(),
                kind,
            });
        }
        ReviewsEntry::Blob(oid) => oid,
    };
    let mut reader = BlobReader::spawn(root).map_err(|e| io(e.0))?;
    match reader.blob_within(oid, FILE_MAX_BYTES as usize) {
        Ok(Some(Ok(bytes))) => parse_reviews(shown, &bytes),
        Ok(Some(Err(_))) => Err(NotRead::TooLarge { path: shown }),
        Ok(None) => Err(io(format!(
            "object {oid} is missing from the repository; goccia-trust never fetches"
        ))),
        Err(e) => Err(io(e.0)),
    }
}
