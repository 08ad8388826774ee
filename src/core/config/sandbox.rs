//! A config's `sandbox` section, read as GocciaScript 0.14 reads it
//! (docs/src/compatibility.md#the-sandbox-section). Split from `request` because its per-key
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

    /// Reads one merged entry: `sandbox` itself, which must be an object,
    /// or one of its keys.
    pub(crate) fn read(
        &mut self,
        entry: &Entry,
        location: &str,
        env: &Env,
    ) -> Result<(), ConfigError> {
        if entry.key == "sandbox" && entry.kind != EntryKind::Object {
            return usage(
                location,
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
        let index = sub_key_index(sub_key, location)?;
        // The first file to declare a key owns it; a base's value for it is
        // still checked in full (docs/src/compatibility.md#the-sandbox-section) but dropped.
        let owner = &mut self.owners[index];
        let overridden = owner.as_ref().is_some_and(|o| **o != *entry.source);
        if owner.is_none() {
            *owner = Some(entry.source.clone());
        }
        let sub = SubEntry {
            entry,
            location,
            env,
            overridden,
        };
        match sub_key {
            "copy" => sub.copy(&mut request.copy),
            "copy-rw" => sub.copy(&mut request.copy_rw),
            "entry" => sub.entry(request),
            "diff" => sub.diff(request),
            _ => sub.diff_file(request),
        }
    }
}

/// A `copy` or `copy-rw` entry of `key`, `<host>[=<sandbox>]`: the host
/// part and the sandbox part, or GocciaScript's message (without the
/// location) for an empty entry or one naming no host path. A config's
/// sandbox and `policy evaluate --value` both read entries here.
pub fn copy_host<'v>(key: &str, value: &'v str) -> Result<(&'v str, Option<&'v str>), String> {
    if pascal_trim(value).is_empty() {
        return Err(format!("\"{key}\" has an empty entry"));
    }
    let (host, target) = match value.split_once('=') {
        Some((host, target)) => (host, Some(target)),
        None => (value, None),
    };
    if host.is_empty() {
        return Err(format!("\"{key}\" entry \"{value}\" names no host path"));
    }
    Ok((host, target))
}

/// A config error naming where the section was declared.
fn usage<T>(location: &str, message: String) -> Result<T, ConfigError> {
    Err(ConfigError::usage(format!("{location}: {message}")))
}

/// The index in [`SUB_KEYS`] of a `sandbox.<sub_key>`; `files`, removed in
/// 0.14, and any unknown key are errors.
fn sub_key_index(sub_key: &str, location: &str) -> Result<usize, ConfigError> {
    if sub_key == "files" {
        return usage(
            location,
            "\"sandbox.files\" was removed in GocciaScript 0.14.0; list host inputs as \"copy\" or \
             \"copy-rw\" strings (<host>[=<sandbox>]) instead"
                .to_owned(),
        );
    }
    match SUB_KEYS.iter().position(|k| *k == sub_key) {
        Some(index) => Ok(index),
        None => usage(
            location,
            format!(
                "unknown sandbox key \"{sub_key}\" (valid: copy, copy-rw, entry, diff, diff-file)"
            ),
        ),
    }
}

/// One `sandbox.<key>` entry: checked in full, then kept unless
/// `overridden` (a nearer file owns its key).
struct SubEntry<'a> {
    entry: &'a Entry,
    location: &'a str,
    env: &'a Env,
    overridden: bool,
}

impl SubEntry<'_> {
    fn usage(&self, message: String) -> Result<(), ConfigError> {
        usage(self.location, message)
    }

    fn is_single_string(&self) -> bool {
        self.entry.kind == EntryKind::String && !self.entry.in_array
    }

    /// A `copy` or `copy-rw` entry, `<host>[=<sandbox>]`, into `inputs`.
    fn copy(&self, inputs: &mut Vec<SandboxInput>) -> Result<(), ConfigError> {
        let (entry, key) = (self.entry, &self.entry.key);
        if entry.kind == EntryKind::EmptyArray {
            return Ok(());
        }
        // A single string is accepted, as the 0.14 reader does
        // (docs/src/compatibility.md#the-sandbox-section), though the documentation
        // calls it an error.
        if entry.kind != EntryKind::String {
            return self.usage(format!(
                "\"{key}\" must be a string or an array of strings in the --copy grammar \
                 <host>[=<sandbox>]"
            ));
        }
        let (host, target) = match copy_host(key, &entry.value) {
            Ok((host, target)) => (host, target.map(str::to_owned)),
            Err(message) => return self.usage(message),
        };
        if self.overridden {
            // Checked like the nearest file's value, then dropped.
            return Ok(());
        }
        inputs.push(SandboxInput {
            spec: entry.value.clone(),
            host: absolute_path(host, declaring_dir(self.location), self.env),
            sandbox: target,
            source: Arc::from(self.location),
        });
        Ok(())
    }

    /// `entry`: a sandbox path, as written.
    fn entry(&self, request: &mut SandboxRequest) -> Result<(), ConfigError> {
        if !self.is_single_string() {
            return self.usage(format!("\"{}\" must be a string", self.entry.key));
        }
        if !self.overridden {
            request.entry = Some(self.entry.value.clone());
        }
        Ok(())
    }

    /// `diff`: true, false, "json" or "unified".
    fn diff(&self, request: &mut SandboxRequest) -> Result<(), ConfigError> {
        let entry = self.entry;
        let diff = match (entry.kind, entry.in_array, entry.value.as_str()) {
            (EntryKind::Boolean, false, "true") => Some(SandboxDiff::Default),
            (EntryKind::Boolean, false, _) => None,
            (EntryKind::String, false, "json") => Some(SandboxDiff::Json),
            (EntryKind::String, false, "unified") => Some(SandboxDiff::Unified),
            _ => {
                return self.usage(format!(
                    "\"{}\" must be true, false, \"json\", or \"unified\"",
                    entry.key
                ));
            }
        };
        // `false` leaves an earlier value of the same file in place.
        if !self.overridden && diff.is_some() {
            request.diff = diff;
        }
        Ok(())
    }

    /// `diff-file`: a host path, made absolute.
    fn diff_file(&self, request: &mut SandboxRequest) -> Result<(), ConfigError> {
        let (entry, key) = (self.entry, &self.entry.key);
        if !self.is_single_string() {
            return self.usage(format!("\"{key}\" must be a string"));
        }
        if pascal_trim(&entry.value).is_empty() {
            return self.usage(format!("\"{key}\" names no file"));
        }
        if !self.overridden {
            let dir = declaring_dir(self.location);
            request.diff_file = Some(absolute_path(&entry.value, dir, self.env));
            request.diff_file_source = Some(Arc::from(self.location));
        }
        Ok(())
    }
}
