//! `list`'s result as JSON: every entry with its status and, for a changed
//! one, its value-level diff; `list --ignored`'s as the list's entries.

use std::io::Write as _;

use serde::Serialize;

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::json_out::{JsonDiffItem, JsonEntry, Schema, diff_items, to_json};
use crate::cli::outcome::list::Entries;
use crate::cli::walk::write_warnings;
use crate::core::config::load_config;
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::paths::key::TrustKey;
use crate::core::review::report::{EntryStatus, StoreEntryReport};
use crate::core::review::results::{IgnoredNow, IgnoredResult, ListResult};
use crate::core::store::StoredEntry;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonList<'a> {
    schema: Schema,
    store: &'a str,
    entries: StreamedEntries<'a>,
    /// Also on stderr; JSON readers see them here.
    store_warnings: &'a [String],
}

/// The entries, each checked and written as the serializer reaches it:
/// a long store's reports and their JSON are never held together.
struct StreamedEntries<'a> {
    entries: &'a Entries<'a>,
    env: &'a Env,
}

impl Serialize for StreamedEntries<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(None)?;
        self.entries.each(|_, stored, r| {
            let diff = entry_diff(&r, Some(stored), self.env);
            seq.serialize_element(&JsonEntry::new(&r, Some(stored), diff))
        })?;
        seq.end()
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonIgnoredList<'a> {
    schema: Schema,
    file: &'a str,
    ignored: Vec<JsonIgnored<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonIgnored<'a> {
    key: &'a str,
    path: String,
    sha256: &'a str,
    ignored_at: &'a str,
    /// Whether the config as it is now still has that sha256 (else its
    /// ignore no longer applies).
    current: bool,
}

/// The document, each entry written as it is checked: the bytes
/// `to_json` makes of the whole, through a buffer.
pub fn print(
    result: &ListResult,
    entries: &Entries<'_>,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    write_warnings(&result.store_warnings, io);
    let doc = JsonList {
        schema: Schema::default(),
        store: &result.location.path,
        entries: StreamedEntries { entries, env },
        store_warnings: &result.store_warnings,
    };
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, &mut *io.out);
    serde_json::to_writer_pretty(&mut out, &doc).map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

/// A changed entry's value-level diff: the stored block against the config
/// as it is now (read again; it changed, so it loads).
fn entry_diff(
    r: &StoreEntryReport,
    stored: Option<&StoredEntry>,
    env: &Env,
) -> Option<Vec<JsonDiffItem>> {
    if r.status != EntryStatus::Changed {
        return None;
    }
    let stored = stored?;
    let now = load_config(&TrustKey(r.key.clone()), env).ok()?;
    Some(diff_items(
        &stored.block,
        now.block.json(),
        &now.targets.to_pairs(),
        &r.lines,
    ))
}

pub fn print_ignored(result: &IgnoredResult, env: &Env, io: &mut Io<'_>) -> Result<(), CliError> {
    if let Some(problem) = &result.problem {
        io.warn(problem);
    }
    let doc = JsonIgnoredList {
        schema: Schema::default(),
        file: &result.file,
        ignored: result
            .rows
            .iter()
            .map(|(key, i, now)| JsonIgnored {
                key,
                path: display_path(key, &env.cwd),
                sha256: &i.sha256,
                ignored_at: &i.ignored_at,
                current: *now == IgnoredNow::Current,
            })
            .collect(),
    };
    io.out.write_all(to_json(&doc)?.as_bytes())?;
    Ok(())
}
