//! Every store entry checked against the disk: `ok`, `changed`, `missing`
//! or unreadable (docs/src/compatibility.md#the-store-listing).

use crate::core::review::style::{Emphasis, Styler};
use rayon::prelude::*;

use crate::core::config::describe::{block_summary, description_lines, summary_keys};
use crate::core::config::load_hashed;
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::paths::key::TrustKey;
use crate::core::review::batched::for_each_made;
use crate::core::review::report::{DiffLine, EntryStatus, StoreEntryReport};
use crate::core::review::status::{diff_lines, entry_matches, moved_targets};
use crate::core::store::{Store, StoredEntry};

/// Whether a key names an existing file; a directory or a dangling link
/// counts as missing.
pub fn config_exists(key: &str) -> bool {
    crate::core::paths::input::check_input(key)
        .is_ok_and(|k| k == crate::core::paths::input::InputKind::File)
}

/// How much of each entry's block a report keeps in its `lines`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Every line of the stored block, diffed against the config when it
    /// changed, and the `~` target lines: the TUI's store view, `list --json`.
    Lines,
    /// Only the `~` target lines, all that the `list` text shows besides
    /// the summary: the stored block is not described line by line.
    Targets,
}

/// One report per entry, in the order the store file lists them.
pub fn list_entries(store: &Store, env: &Env, detail: Detail) -> Vec<StoreEntryReport> {
    let entries: Vec<(&str, &StoredEntry)> = store.iter().collect();
    entries
        .par_iter()
        .map(|(key, entry)| entry_report(key, entry, env, detail))
        .collect()
}

/// Each entry with its report, in the order the store file lists them,
/// made in parallel a batch at a time and handed to `each`: a caller that
/// writes each report out and drops it (`list`) holds a few batches of
/// reports, never one per entry. The next batch is made while `each` takes
/// the last one. Stops at the first error `each` returns.
pub fn for_each_entry_report<E>(
    store: &Store,
    env: &Env,
    detail: Detail,
    mut each: impl FnMut(&str, &StoredEntry, StoreEntryReport) -> Result<(), E>,
) -> Result<(), E> {
    let entries: Vec<(&str, &StoredEntry)> = store.iter().collect();
    for_each_made(
        &entries,
        |(key, entry)| entry_report(key, entry, env, detail),
        |&(key, entry), report| each(key, entry, report),
    )
}

pub fn entry_report(key: &str, entry: &StoredEntry, env: &Env, detail: Detail) -> StoreEntryReport {
    let (stored_lines, summary) = match detail {
        Detail::Lines => {
            let lines = description_lines(&entry.block.value());
            let summary = summary_keys(&lines);
            (lines, summary)
        }
        // Each block is read once here: its tree is not kept with the store.
        Detail::Targets => (Vec::new(), block_summary(&entry.block.value())),
    };
    let as_is = || {
        stored_lines
            .iter()
            .cloned()
            .map(DiffLine::Unchanged)
            .collect::<Vec<_>>()
    };
    // Loaded first, and asked whether it exists only when that fails: one
    // `stat` less per entry, and the same answer (a directory or a dangling
    // link fails to load and is missing).
    // The config's own lines are built only when its hash differs: most
    // entries of a long store still match.
    let (status, lines) = match load_hashed(&TrustKey(key.to_string()), env) {
        Err(_) if !config_exists(key) => (EntryStatus::Missing, as_is()),
        Err(e) => (EntryStatus::Unreadable(e), as_is()),
        Ok(now) if entry_matches(&now, entry) => (EntryStatus::Ok, as_is()),
        Ok(now) => {
            let moved = moved_targets(entry, &now.targets);
            let mut lines = if now.sha256 == entry.sha256 || detail == Detail::Targets {
                as_is()
            } else {
                diff_lines(&stored_lines, &now.described().lines)
            };
            lines.extend(moved);
            (EntryStatus::Changed, lines)
        }
    };
    StoreEntryReport {
        key: key.to_string(),
        display_path: display_path(key, &env.cwd),
        status,
        trusted_at: entry.trusted_at.to_string(),
        trusted_by: entry.trusted_by.to_string(),
        summary,
        lines,
    }
}

/// The `--list-trusted` text (without the trailing newline of the last line),
/// whole (`list` writes it entry by entry: [`push_list_entry`]).
#[cfg(any(test, feature = "test-support"))]
pub fn render_list_trusted<R: std::borrow::Borrow<StoreEntryReport>>(
    store_path: &str,
    reports: &[R],
    style: Styler<'_>,
) -> String {
    let mut out = list_header(store_path, reports.is_empty());
    for r in reports {
        push_list_entry(&mut out, r.borrow(), style);
    }
    out
}

/// The listing's first line, and `No trusted configs` when it has no entry.
pub fn list_header(store_path: &str, empty: bool) -> String {
    let mut out = format!("Trust store: {store_path}\n");
    if empty {
        out.push_str("No trusted configs\n");
    }
    out
}

/// One entry of the listing: its line, then its `~` target lines. A
/// printer writes the entries as they are made (`list` of 20,000 entries
/// never holds the whole text).
pub fn push_list_entry(out: &mut String, r: &StoreEntryReport, style: Styler<'_>) {
    use std::fmt::Write as _;
    for part in [&r.key, "  trusted ", &r.trusted_at, "  ", &r.summary] {
        out.push_str(part);
    }
    match &r.status {
        EntryStatus::Ok => {}
        EntryStatus::Missing => {
            let _ = write!(out, "  {}", style(Emphasis::Missing, "(missing)"));
        }
        EntryStatus::Changed => {
            let _ = write!(out, "  {}", style(Emphasis::Changed, "(changed)"));
        }
        EntryStatus::Unreadable(e) => {
            let marker = style(Emphasis::Error, "(unreadable:");
            let _ = write!(out, "  {marker} {})", e.message);
        }
    }
    out.push('\n');
    for line in &r.lines {
        if let DiffLine::Target { .. } = line {
            out.push_str(&line.render_styled(style));
            out.push('\n');
        }
    }
}
