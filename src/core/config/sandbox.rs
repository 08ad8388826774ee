//! A config's `sandbox` section, read as GocciaScript 0.14 reads it
//! (goccia-reference.md §2.3). Split from `request` because its per-key
//! override and messages are a grammar of their own.

use std::sync::Arc;

use crate::core::config::entries::{Entry, EntryKind};
use crate::core::config::scope::{absolute_path, declaring_dir};
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::paths::pascal_trim;

/// One `copy` or `copy-rw` entry, `<host>[=<sandbox>]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxInput {
    /// The entry exactly as written.
    pub spec: String,
    /// The host part (before the first `=`), made absolute against the
    /// declaring file's directory like a path scope, but not trimmed.
    pub host: String,
    /// The sandbox part as written; `None` without `=`. `Some("")` (`x=`) is
    /// hashed like `None`.
    pub sandbox: Option<String>,
    /// The file that declared the entry.
    pub source: Arc<str>,
}

impl SandboxInput {
    /// The text the normalized block holds: `<abs host>[=<sandbox>]`.
    pub fn block_text(&self) -> String {
        match self.sandbox.as_deref() {
            Some(target) if !target.is_empty() => format!("{}={target}", self.host),
            _ => self.host.clone(),
        }
    }
}

/// `"diff"`: `true` asks for the default format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SandboxDiff {
    Default,
    Json,
    Unified,
}

/// Which sandbox key a host path comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SandboxPathKind {
    Copy,
    CopyRw,
    DiffFile,
}

/// A declared `sandbox` section (an empty one included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxRequest {
    /// The nearest file that declares the section.
    pub source: Arc<str>,
    /// `copy` inputs in declaration order, duplicates kept.
    pub copy: Vec<SandboxInput>,
    /// `copy-rw` inputs in declaration order, duplicates kept.
    pub copy_rw: Vec<SandboxInput>,
    pub diff: Option<SandboxDiff>,
    /// Absolute, against the declaring file's directory.
    pub diff_file: Option<String>,
    pub diff_file_source: Option<Arc<str>>,
    /// As written (a sandbox path); may be empty, which the block omits.
    pub entry: Option<String>,
}

impl SandboxRequest {
    /// Every host path: `copy` hosts, then `copy-rw` hosts, then `diff-file`.
    pub fn host_paths(&self) -> Vec<(SandboxPathKind, &str)> {
        let copy = self
            .copy
            .iter()
            .map(|i| (SandboxPathKind::Copy, i.host.as_str()));
        let copy_rw = self
            .copy_rw
            .iter()
            .map(|i| (SandboxPathKind::CopyRw, i.host.as_str()));
        let diff_file = self
            .diff_file
            .as_deref()
            .map(|p| (SandboxPathKind::DiffFile, p));
        copy.chain(copy_rw).chain(diff_file).collect()
    }
}

const SUB_KEYS: [&str; 5] = ["copy", "copy-rw", "entry", "diff", "diff-file"];

/// Accumulates `sandbox` and `sandbox.*` entries in merged order.
#[derive(Debug, Default)]
pub(crate) struct SandboxReader {
    request: Option<SandboxRequest>,
    /// Per sub-key, the file that owns it.
    owners: [Option<Arc<str>>; 5],
}

impl SandboxReader {
    pub(crate) fn finish(self) -> Option<SandboxRequest> {
        self.request
    }

    pub(crate) fn read(
        &mut self,
        entry: &Entry,
        location: &str,
        env: &Env,
    ) -> Result<(), ConfigError> {
        let usage = |message: String| Err(ConfigError::usage(format!("{location}: {message}")));
        if entry.key == "sandbox" && entry.kind != EntryKind::Object {
            return usage(
                "\"sandbox\" must be an object with copy, copy-rw, entry, diff, diff-file keys"
                    .to_owned(),
            );
        }
        let request = self.request.get_or_insert_with(|| SandboxRequest {
            source: Arc::from(location),
            copy: Vec::new(),
            copy_rw: Vec::new(),
            diff: None,
            diff_file: None,
            diff_file_source: None,
            entry: None,
        });
        let Some(sub_key) = entry.key.strip_prefix("sandbox.") else {
            return Ok(());
        };
        if sub_key == "files" {
            return usage(
                "\"sandbox.files\" was removed in GocciaScript 0.14.0; list host inputs as \"copy\" or \
                 \"copy-rw\" strings (<host>[=<sandbox>]) instead"
                    .to_owned(),
            );
        }
        let Some(index) = SUB_KEYS.iter().position(|k| *k == sub_key) else {
            return usage(format!(
                "unknown sandbox key \"{sub_key}\" (valid: copy, copy-rw, entry, diff, diff-file)"
            ));
        };
        // The first file to declare a key owns it; a base's value for it is
        // still checked in full (goccia-reference.md §2.3) but dropped.
        let owner = &mut self.owners[index];
        let overridden = owner.as_ref().is_some_and(|o| **o != *entry.source);
        if owner.is_none() {
            *owner = Some(entry.source.clone());
        }
        let key = &entry.key;
        let is_single_string = entry.kind == EntryKind::String && !entry.in_array;
        let dir = declaring_dir(location);

        match sub_key {
            "copy" | "copy-rw" => {
                if entry.kind == EntryKind::EmptyArray {
                    return Ok(());
                }
                // A single string is accepted, as the 0.14 reader does
                // (goccia-reference.md §13.13), though the documentation
                // calls it an error.
                if entry.kind != EntryKind::String {
                    return usage(format!(
                        "\"{key}\" must be a string or an array of strings in the --copy grammar \
                         <host>[=<sandbox>]"
                    ));
                }
                if pascal_trim(&entry.value).is_empty() {
                    return usage(format!("\"{key}\" has an empty entry"));
                }
                let (host, target) = match entry.value.split_once('=') {
                    Some((host, target)) => (host, Some(target.to_owned())),
                    None => (entry.value.as_str(), None),
                };
                if host.is_empty() {
                    return usage(format!(
                        "\"{key}\" entry \"{}\" names no host path",
                        entry.value
                    ));
                }
                if overridden {
                    // Checked like the nearest file's value, then dropped.
                    return Ok(());
                }
                let input = SandboxInput {
                    spec: entry.value.clone(),
                    host: absolute_path(host, dir, env),
                    sandbox: target,
                    source: Arc::from(location),
                };
                if sub_key == "copy" {
                    request.copy.push(input);
                } else {
                    request.copy_rw.push(input);
                }
            }
            "entry" => {
                if !is_single_string {
                    return usage(format!("\"{key}\" must be a string"));
                }
                if !overridden {
                    request.entry = Some(entry.value.clone());
                }
            }
            "diff" => {
                let diff = match (entry.kind, entry.in_array, entry.value.as_str()) {
                    (EntryKind::Boolean, false, "true") => Some(SandboxDiff::Default),
                    (EntryKind::Boolean, false, _) => None,
                    (EntryKind::String, false, "json") => Some(SandboxDiff::Json),
                    (EntryKind::String, false, "unified") => Some(SandboxDiff::Unified),
                    _ => {
                        return usage(format!(
                            "\"{key}\" must be true, false, \"json\", or \"unified\""
                        ));
                    }
                };
                // `false` leaves an earlier value of the same file in place.
                if !overridden && diff.is_some() {
                    request.diff = diff;
                }
            }
            _ => {
                if !is_single_string {
                    return usage(format!("\"{key}\" must be a string"));
                }
                if pascal_trim(&entry.value).is_empty() {
                    return usage(format!("\"{key}\" names no file"));
                }
                if !overridden {
                    request.diff_file = Some(absolute_path(&entry.value, dir, env));
                    request.diff_file_source = Some(Arc::from(location));
                }
            }
        }
        Ok(())
    }
}
