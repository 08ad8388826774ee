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
use crate::core::paths::display::display_path;
use crate::core::paths::key::TrustKey;
use crate::core::review::ignore::{Ignored, ignore_dir, ignore_path, load_ignores};
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
    if args.ignored {
        return list_ignored(args.json, env, io);
    }
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonIgnoredList {
    schema: Schema,
    file: String,
    ignored: Vec<JsonIgnored>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonIgnored {
    key: String,
    path: String,
    sha256: String,
    ignored_at: String,
    /// Whether the config as it is now still has that sha256 (else its
    /// ignore no longer applies).
    current: bool,
}

/// `list --ignored`: every ignored config with the sha256 it was ignored
/// with and when; `(changed)` when the config is no longer that one (it
/// asks again), `(missing)` when it is gone.
fn list_ignored(json: bool, env: &Env, io: &mut Io<'_>) -> CliResult {
    let Some(dir) = ignore_dir(env) else {
        return Err(crate::cli::CliError::failed(
            "no state directory to keep the ignore list in (set GOCCIA_TRUST_STATE_DIR, XDG_STATE_HOME or HOME)",
        ));
    };
    let (list, problem) = load_ignores(&dir);
    if let Some(problem) = &problem {
        io.warn(problem);
    }
    let file = ignore_path(&dir).display().to_string();
    let now = |key: &str| -> Option<String> {
        load_config(&TrustKey(key.to_string()), env)
            .ok()
            .map(|s| s.sha256)
    };
    let rows: Vec<(&String, &Ignored, Option<String>)> =
        list.ignored.iter().map(|(k, i)| (k, i, now(k))).collect();
    if json {
        let doc = JsonIgnoredList {
            schema: Schema::default(),
            file,
            ignored: rows
                .iter()
                .map(|(k, i, sha)| JsonIgnored {
                    key: k.to_string(),
                    path: display_path(k, &env.cwd),
                    sha256: i.sha256.clone(),
                    ignored_at: i.ignored_at.clone(),
                    current: sha.as_deref() == Some(i.sha256.as_str()),
                })
                .collect(),
        };
        io.out.write_all(to_json(&doc).as_bytes())?;
        return Ok(exit::SUCCESS);
    }
    let values = Values;
    if rows.is_empty() {
        writeln!(io.out, "No ignored configs in {}", values.text(&file))?;
        return Ok(exit::SUCCESS);
    }
    writeln!(io.out, "Ignored configs in {}:", values.text(&file))?;
    for (key, ignored, sha) in &rows {
        let mark = match sha {
            Some(s) if *s == ignored.sha256 => "",
            Some(_) => " (changed)",
            None if crate::core::review::listing::config_exists(key) => " (changed)",
            None => " (missing)",
        };
        writeln!(io.out, "  {}{mark}", values.text(key))?;
        writeln!(io.out, "    sha256: {}", values.text(&ignored.sha256))?;
        writeln!(
            io.out,
            "    ignored at: {}",
            values.text(&ignored.ignored_at)
        )?;
    }
    Ok(exit::SUCCESS)
}
