//! `scan --json`'s `reviews` member: each config's signed reviews, the
//! object `inspect --json` gives (docs/src/signed-reviews.md#where-reviews-show),
//! decided as the config streams past. Each repository's reviews file is
//! read once, whatever the number of its configs; the allowed signers are
//! `--reviewed-by`, else `allowed_signers` in the store's directory when
//! it exists (as `inspect`), else none and a good signature is only
//! `unchecked`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;

use crate::cli::error::CliError;
use crate::cli::outcome::review::{ConfigReviews, FileNote, OneConfig};
use crate::cli::review::{Judged, judge_config, place, reviews_of};
use crate::core::config::targets::Targets;
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::paths::key::TrustKey;
use crate::core::review::report::ConfigReport;
use crate::core::store::locate_store;
use crate::core::team::digest::{PortableDigest, RepoPath, repo_path};
use crate::core::team::file::ReviewsFile;
use crate::core::team::file::{DIR, FILE};

/// The judge of a scan's reviews and the reviews files read so far.
pub struct ScanReviews {
    judged: Judged,
    /// By repository root: whether anything is at its reviews file's place.
    present: RefCell<BTreeMap<String, bool>>,
    /// By repository root: its file read once, records by path.
    files: RefCell<BTreeMap<String, Indexed>>,
}

/// One repository's reviews file, read once (none when it was not read)
/// and its own problems.
#[derive(Default)]
struct Indexed {
    file: Option<ReviewsFile>,
    notes: Vec<FileNote>,
}

impl Indexed {
    fn read(root: &str) -> Indexed {
        let (mut files, mut notes) = (BTreeMap::new(), Vec::new());
        reviews_of(root, &mut files, &mut notes);
        let file = files.remove(root).flatten();
        Indexed { file, notes }
    }
}

impl ScanReviews {
    /// The allowed signers checked for where they come from (exit 2)
    /// before anything is scanned.
    pub fn load(
        reviewed_by: Option<&str>,
        trust_store: Option<&str>,
        paths: &[String],
        env: &Env,
    ) -> Result<ScanReviews, CliError> {
        let default = || {
            let file = locate_store(trust_store, env)
                .ok()?
                .dir()
                .join("allowed_signers");
            file.is_file().then(|| file.to_string_lossy().into_owned())
        };
        let signers = reviewed_by.map(str::to_string).or_else(default);
        Ok(ScanReviews {
            judged: Judged::load(signers.as_deref(), None, paths, env)?,
            present: RefCell::default(),
            files: RefCell::default(),
        })
    }

    /// The allowed signers' warnings (lines skipped).
    pub fn warnings(&self) -> &[String] {
        self.judged.signers.as_ref().map_or(&[], |s| &s.warnings)
    }

    /// The reviews of the config `r`: `None` when it is in no repository
    /// or its repository has no reviews file.
    pub fn of(&self, r: &ConfigReport, env: &Env) -> Option<OneConfig> {
        let key = TrustKey(r.key.clone());
        let root = repo_path(&key).ok()?.root;
        let file = Path::new(&root).join(DIR).join(FILE);
        let there = *self
            .present
            .borrow_mut()
            .entry(root.clone())
            .or_insert_with(|| std::fs::symlink_metadata(&file).is_ok());
        if !there {
            return None;
        }
        let placed = match r.loaded() {
            Some(l) => {
                let targets = Targets::from_pairs(l.targets.iter().cloned());
                place(&key, &l.block, &targets)
            }
            None => Err("it does not load".to_string()),
        };
        let mut files = self.files.borrow_mut();
        let indexed = files
            .entry(root.clone())
            .or_insert_with(|| Indexed::read(&root));
        let reviews = self.judge(display_path(&r.key, &env.cwd), placed, indexed);
        Some(OneConfig {
            file: display_path(&file.to_string_lossy(), &env.cwd),
            reviews,
            allowed_signers: self
                .judged
                .signers
                .as_ref()
                .map(|s| (s.file.clone(), s.sha256.clone())),
            notes: indexed.notes.clone(),
        })
    }

    /// One config's records judged, as `review list` judges them.
    fn judge(
        &self,
        shown: String,
        placed: Result<(RepoPath, PortableDigest), String>,
        indexed: &Indexed,
    ) -> ConfigReviews {
        let judge = self.judged.judge();
        judge_config(shown, true, placed, indexed.file.as_ref(), &judge)
    }
}
