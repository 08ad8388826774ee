//! The policy's building blocks below both the loader (`load`) and the
//! per-value rules (`rules`): a level's grant and one resolved root.

use super::target::{canonical_path, fold_case};

/// What a level's grant turns a decision into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    Allow,
    NeedsAuth,
    Deny,
}

/// One root of a policy list, with both spellings a target is matched
/// against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// As written in the policy.
    pub written: String,
    /// `~` expanded, made absolute against its anchor (see
    /// [`LoadContext`](super::load::LoadContext)),
    /// `.`/`..` and repeated separators removed; as shown to people.
    pub resolved: String,
    /// `resolved` as compared (case-folded where the filesystem folds).
    pub lexical: String,
    /// `lexical` with symlinks resolved (deepest existing ancestor).
    pub canonical: String,
}

impl Root {
    pub(crate) fn new(written: &str, lexical: String) -> Root {
        let canonical = canonical_path(&lexical).unwrap_or_else(|| lexical.clone());
        Root {
            written: written.to_string(),
            lexical: fold_case(&lexical),
            canonical: fold_case(&canonical),
            resolved: lexical,
        }
    }

    /// Written as an absolute path or from `$HOME`: a fixed place, not a
    /// place inside whatever tree the policy is anchored to.
    pub fn is_fixed(&self) -> bool {
        self.written.starts_with('/') || self.written == "~" || self.written.starts_with("~/")
    }
}
