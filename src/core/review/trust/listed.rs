//! What a `trust` listing keeps of each config it lists (issue 45): the
//! key, the chain, the hash, the block as the store records it and where
//! each path scope resolved, and no more. The request, the parsed block
//! and the description lines a loaded [`ConfigSnapshot`] holds are dropped
//! as soon as the config is compared with the store (on the thread that
//! loaded it); a printer that needs the block's values parses its compact
//! text again, one config at a time, and keeps nothing. A listing of
//! 20,000 configs holds a few hundred bytes for each, not the several
//! kilobytes of its snapshot.

use std::borrow::Cow;

use crate::core::config::ConfigSnapshot;
use crate::core::config::block::{Block, NormalizedBlock};
use crate::core::config::describe::description_lines;
use crate::core::config::json::Json;
use crate::core::config::targets::Targets;
use crate::core::paths::key::TrustKey;
use crate::core::store::StoredBlock;

/// A listed config, as much of its [`ConfigSnapshot`] as a listing, its
/// printers and the record read.
#[derive(Debug, Clone)]
pub struct ListedConfig {
    pub key: TrustKey,
    /// The extends chain, the config first.
    pub files: Vec<String>,
    pub sha256: String,
    /// The block as a store entry records it: the compact text of the
    /// normalized block's JSON.
    pub block: StoredBlock,
    /// The normalized block's text, only where it is not `block`'s (the
    /// compact text of our own block is that block, byte for byte; kept
    /// apart rather than assumed, so that the hash and the re-check under
    /// the lock always see the text that was hashed).
    normalized: Option<Box<str>>,
    /// Where each path scope resolved when it was listed.
    pub targets: Targets,
    requests_grants: bool,
}

impl ListedConfig {
    /// What is kept of `snapshot`; the rest goes with it.
    pub fn of(snapshot: ConfigSnapshot) -> ListedConfig {
        let requests_grants = snapshot.requests_grants();
        let ConfigSnapshot {
            key,
            mut files,
            block,
            sha256,
            targets,
            ..
        } = snapshot;
        files.shrink_to_fit();
        let recorded = StoredBlock::from(block.json().clone());
        let normalized =
            (recorded.as_str() != block.as_str()).then(|| block.as_str().to_string().into());
        ListedConfig {
            key,
            files,
            sha256,
            block: recorded,
            normalized,
            targets,
            requests_grants,
        }
    }

    /// The normalized block's text: what was hashed, and what a trust of
    /// this config must find again.
    pub fn block_text(&self) -> &str {
        self.normalized.as_deref().unwrap_or(self.block.as_str())
    }

    /// The block's JSON, parsed for the caller and not kept.
    pub fn json(&self) -> Cow<'_, Json> {
        self.block.value()
    }

    /// The block with its JSON, made again for the caller.
    pub fn full_block(&self) -> Block {
        NormalizedBlock::of_text(self.block_text().to_string()).into_block()
    }

    /// The block's description lines (docs/src/compatibility.md#description-lines),
    /// made again from its JSON.
    pub fn lines(&self) -> Vec<String> {
        description_lines(&self.json())
    }

    pub fn requests_grants(&self) -> bool {
        self.requests_grants
    }

    /// The normalized block's text where it is not `block`'s.
    pub(super) fn normalized(&self) -> Option<&str> {
        self.normalized.as_deref()
    }

    /// Key, chain, hash, recorded block, normalized text (where it is not
    /// the recorded block's) and targets, moved out.
    #[allow(clippy::type_complexity)] // the fields, in their order
    pub(super) fn into_parts(
        self,
    ) -> (
        TrustKey,
        Vec<String>,
        String,
        StoredBlock,
        Option<Box<str>>,
        Targets,
    ) {
        (
            self.key,
            self.files,
            self.sha256,
            self.block,
            self.normalized,
            self.targets,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::load_config;
    use crate::core::env::Env;

    /// What a listing keeps gives back the snapshot's block, text for
    /// text (so what is hashed, recorded and re-checked is the same),
    /// its JSON, its description lines and whether it asks for grants;
    /// for blocks of every part (scopes to escape, a sandbox,
    /// unsafe keys, deny-only) and every format.
    #[test]
    fn a_listed_config_keeps_the_snapshots_block_text_and_values() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let root = root.to_str().unwrap().to_string();
        let env = Env::at(&root, &format!("{root}/home"));
        let configs = [
            (
                "a/goccia.json",
                r#"{"permissions": {"allow-net": ["API.example.com"], "allow-read": ["./d\u00e9 \"q\\", "."]}}"#,
            ),
            (
                "b/goccia.json5",
                "{permissions: {'deny-read': ['./secret']}, unsafe: {'unsafe-shadowrealm': true}}",
            ),
            (
                "c/goccia.toml",
                "[permissions]\n\"allow-ffi\" = [\"./lib\\\\x\"]\n[sandbox]\ncopy = [\"src\"]\n\"copy-rw\" = [\"out\"]\n",
            ),
        ];
        for (rel, text) in configs {
            let path = format!("{root}/{rel}");
            std::fs::create_dir_all(crate::core::paths::parent_dir(&path)).unwrap();
            std::fs::write(&path, text).unwrap();
            let snapshot = load_config(&TrustKey(path.clone()), &env).unwrap();
            let (block, lines, grants) = (
                snapshot.block.clone(),
                snapshot.lines.clone(),
                snapshot.requests_grants(),
            );
            let listed = ListedConfig::of(snapshot);
            assert_eq!(listed.block_text(), block.as_str(), "{rel}");
            assert!(listed.normalized.is_none(), "{rel}: one text kept");
            assert_eq!(listed.block.as_str(), block.as_str(), "{rel}");
            assert_eq!(*listed.json(), *block.json(), "{rel}");
            assert_eq!(listed.full_block(), block, "{rel}");
            assert_eq!(listed.lines(), lines, "{rel}");
            assert_eq!(listed.requests_grants(), grants, "{rel}");
        }
    }
}
