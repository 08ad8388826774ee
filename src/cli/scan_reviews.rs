//! `scan --json`'s `reviews` member: each config's signed reviews, the
//! object `inspect --json` gives (docs/src/signed-reviews.md#where-reviews-show),
//! decided as the config streams past. Each repository's reviews file is
//! read once, whatever the number of its configs; the allowed signers are
//! `--reviewed-by`, else `allowed_signers` in the store's directory when
//! it exists (as `inspect`), else none and a good signature is only
//! `unchecked`.

use std::path::Path;

use crate::cli::error::CliError;
use crate::cli::outcome::review::{OneConfig, ShownReviews};
use crate::cli::review::{Judged, file_note, place};
use crate::core::config::targets::Targets;
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::paths::key::TrustKey;
use crate::core::review::report::ConfigReport;
use crate::core::store::locate_store;
use crate::core::team::digest::repo_path;
use crate::core::team::each_config::ReviewsFiles;
use crate::core::team::file::{DIR, FILE};

/// The judge of a scan's reviews and the reviews files read so far.
pub struct ScanReviews {
    judged: Judged,
    /// Each repository's reviews file, read once.
    files: ReviewsFiles,
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
            files: ReviewsFiles::default(),
        })
    }

    /// The allowed signers' warnings (lines skipped).
    pub fn warnings(&self) -> &[String] {
        self.judged.signers.as_ref().map_or(&[], |s| &s.warnings)
    }

    /// The reviews of the config `r`, as `review list` judges them: `None`
    /// when it is in no repository or its repository has no reviews file.
    pub fn of(&self, r: &ConfigReport, env: &Env) -> Option<OneConfig> {
        let key = TrustKey(r.key.clone());
        let root = repo_path(&key).ok()?.root;
        if !self.files.anything_at(&root) {
            return None;
        }
        let placed = match r.loaded() {
            Some(l) => {
                let targets = Targets::from_pairs(l.targets.iter().cloned());
                place(&key, &l.block, &targets)
            }
            None => Err("it does not load".to_string()),
        };
        let read = self.files.read(&root);
        let signers = self.judged.signers.as_ref();
        let judge = (&self.judged.judge(), signers.map(|s| s.file.as_str()));
        let shown = display_path(&r.key, &env.cwd);
        let reviews = ShownReviews::new(shown, true, placed, read.as_deref(), judge);
        let file = Path::new(&root).join(DIR).join(FILE);
        Some(OneConfig {
            file: display_path(&file.to_string_lossy(), &env.cwd),
            reviews,
            allowed_signers: signers.map(|s| (s.file.clone(), s.sha256.clone())),
            notes: file_note(&root, read.as_deref()).into_iter().collect(),
        })
    }
}
