//! `list [--json] [--exit-code]`, also spelled `--list-trusted`: every store
//! entry with `(changed)`, `(missing)` or `(unreadable: …)`
//! (goccia-reference.md §12.4).

use serde::Serialize;

use crate::cli::args::{GlobalArgs, ListArgs};
use crate::cli::json_out::{JsonDiffItem, JsonEntry, Schema, diff_items, to_json};
use crate::cli::paint::STYLED;
use crate::cli::terminal::Values;
use crate::cli::{CliResult, Io, issues_text, load_store, store_issues};
use crate::core::config::load_config;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::key::TrustKey;
use crate::core::review::listing::{Detail, list_entries, render_list_trusted};
use crate::core::review::report::{EntryStatus, StoreEntryReport};
use crate::core::store::StoredEntry;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonList {
    schema: Schema,
    store: String,
    entries: Vec<JsonEntry>,
    store_warnings: Vec<String>,
}

pub fn run(g: &GlobalArgs, args: &ListArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    let (loc, store) = load_store(g, env, io)?;
    // The text shows each entry's summary and `~` lines; JSON shows the
    // stored block's lines too.
    let detail = if args.json {
        Detail::Lines
    } else {
        Detail::Targets
    };
    let reports = list_entries(&store, env, detail);
    let text = if args.json {
        to_json(&JsonList {
            schema: Schema::default(),
            store: loc.path.clone(),
            entries: reports
                .iter()
                .map(|r| {
                    let stored = store.get(&r.key);
                    JsonEntry::new(r, stored, entry_diff(r, stored, env))
                })
                .collect(),
            // Already on stderr (`load_store`); JSON readers see them here.
            store_warnings: issues_text(&store_issues(&loc, &[], env)),
        })
    } else {
        let values = Values;
        let shown: Vec<_> = reports.iter().map(|e| values.entry(e)).collect();
        render_list_trusted(&values.text(&loc.path), &shown, STYLED)
    };
    io.out.write_all(text.as_bytes())?;
    // `--exit-code`: a CI step fails when a trusted config is no longer the
    // one that was trusted (changed, or does not load) or is gone.
    let stale = reports.iter().any(|r| r.status != EntryStatus::Ok);
    // The process ends right after: the store and the reports are left to
    // it rather than freed string by string on this one thread (a tenth of
    // a 10,000-entry list's instructions, after the parallel part).
    std::mem::forget(reports);
    std::mem::forget(store);
    Ok(if args.exit_code && stale {
        exit::FAILURE
    } else {
        exit::SUCCESS
    })
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
        &now.block_json,
        &now.targets.to_pairs(),
        &r.lines,
    ))
}
