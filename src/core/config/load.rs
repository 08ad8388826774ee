//! One config, loaded as GocciaScript loads it for trust: parse with its
//! extends chain, validate the options that matter, read the permission
//! request, normalize and hash the block, and resolve the path targets.

use crate::core::config::block::{Block, NormalizedBlock};
use crate::core::config::describe::description_lines;
use crate::core::config::extends::{
    ConfigFiles, LoadedConfig, load_config_entries, load_config_entries_from,
};
use crate::core::config::request::PermissionRequest;
use crate::core::config::targets::{Targets, record_targets, target_scopes};
use crate::core::config::validate::validate_options;
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::paths::key::TrustKey;

/// Everything computed from a config file at one moment.
#[derive(Debug, Clone)]
pub struct ConfigSnapshot {
    pub key: TrustKey,
    /// The extends chain, the config first.
    pub files: Vec<String>,
    pub request: PermissionRequest,
    /// The block's text and JSON, parsed once.
    pub block: Block,
    pub sha256: String,
    /// Where each path scope resolves now.
    pub targets: Targets,
    /// The block's description lines (docs/src/compatibility.md#description-lines).
    pub lines: Vec<String>,
}

impl ConfigSnapshot {
    pub fn requests_grants(&self) -> bool {
        self.request.requests_grants()
    }

    /// The format, from the key's extension.
    pub fn format(&self) -> &'static str {
        format_of(self.key.as_str())
    }
}

pub fn format_of(path: &str) -> &'static str {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".toml") {
        "toml"
    } else if lower.ends_with(".json5") {
        "json5"
    } else if lower.ends_with(".json") {
        "json"
    } else {
        "unknown"
    }
}

/// Loads the config at its trust key. The request is always read at the key
/// location (docs/src/compatibility.md#the-trust-key): relative scopes and `extends` resolve
/// against the key's directory.
pub fn load_config(key: &TrustKey, env: &Env) -> Result<ConfigSnapshot, ConfigError> {
    load_hashed(key, env).map(HashedConfig::described)
}

/// A config loaded as far as its hash and targets: enough to tell whether a
/// store entry still matches it, without the parsed block and description
/// lines only a changed or shown config needs (`list` of 10,000 entries
/// builds them for the few that changed).
#[derive(Debug, Clone)]
pub struct HashedConfig {
    pub key: TrustKey,
    pub files: Vec<String>,
    pub request: PermissionRequest,
    pub block: NormalizedBlock,
    pub sha256: String,
    pub targets: Targets,
}

impl HashedConfig {
    /// The full snapshot: the block parsed and described.
    pub fn described(self) -> ConfigSnapshot {
        let block = self.block.into_block();
        let lines = description_lines(block.json());
        ConfigSnapshot {
            key: self.key,
            files: self.files,
            request: self.request,
            block,
            sha256: self.sha256,
            targets: self.targets,
            lines,
        }
    }
}

/// [`load_config`] up to the hash and the targets.
pub fn load_hashed(key: &TrustKey, env: &Env) -> Result<HashedConfig, ConfigError> {
    let loaded = load_config_entries(key.as_str(), env)?;
    validate_options(&loaded.entries)?;
    let request = PermissionRequest::from_entries(&loaded.entries, key.as_str(), env)?;
    // Not needed past the request: freed before the block is built, so a
    // large config is not held in memory three times over.
    let LoadedConfig { entries, files } = loaded;
    drop(entries);
    let block = NormalizedBlock::from_request(&request);
    let sha256 = block.sha256();
    let targets = record_targets(&request);
    Ok(HashedConfig {
        key: key.clone(),
        files,
        request,
        block,
        sha256,
        targets,
    })
}

/// A config's request and normalized block read through `files` (a git
/// revision): what [`load_config`] computes, without the targets, which
/// only the disk can resolve.
#[derive(Debug, Clone)]
pub struct BlockAt {
    /// The block's text and JSON, parsed once.
    pub block: Block,
    /// The path scopes whose targets a trust records
    /// ([`target_scopes`]), for the caller to resolve in its own tree.
    pub scopes: Vec<String>,
    /// The extends chain, the config first (absolute paths in the
    /// checkout).
    pub files: Vec<String>,
}

/// Loads the config at `path` (an absolute path in the checkout) as
/// GocciaScript would if the checkout held `files`.
pub fn load_block_from(
    path: &str,
    env: &Env,
    files: &dyn ConfigFiles,
) -> Result<BlockAt, ConfigError> {
    let loaded = load_config_entries_from(path, env, files)?;
    validate_options(&loaded.entries)?;
    let request = PermissionRequest::from_entries(&loaded.entries, path, env)?;
    let block = Block::from_request(&request);
    let scopes = target_scopes(&request);
    Ok(BlockAt {
        block,
        scopes,
        files: loaded.files,
    })
}
