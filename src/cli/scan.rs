//! `scan [PATH...] [--json]`: every effective config and its state. A store
//! that cannot be read makes every config count as untrusted, and the
//! problem is named; a config that fails to load is an error row, and the
//! exit code reports the worst error class at the end.

use serde::Serialize;

use crate::cli::args::{GlobalArgs, ScanArgs};
use crate::cli::json_out::{JsonConfig, to_json};
use crate::cli::terminal::Values;
use crate::cli::walk::{JsonNotFollowed, JsonUnreadable, print_not_followed, warn_unreadable};
use crate::cli::{Io, issues_text, print_store_warnings, store_issues};
use crate::core::destination::{ShownLine, with_destinations};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::progress::{Progress, load_progress, progress_dir};
use crate::core::report::{ConfigReport, ConfigState};
use crate::core::scan::scan_walk;
use crate::core::store::{Store, StoreLocation, locate_store, read_store};
use crate::core::value_diff::{render_text, report_values};

#[derive(Serialize)]
struct JsonScan {
    configs: Vec<JsonConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<String>,
    #[serde(rename = "storeWarnings", skip_serializing_if = "Vec::is_empty")]
    store_warnings: Vec<String>,
    unreadable: Vec<JsonUnreadable>,
    not_followed: Vec<JsonNotFollowed>,
}

/// The store for a read-only command: any problem is reported and the store
/// treated as empty, as GocciaScript does at run time. The location is absent
/// when no store can be located.
pub fn store_or_empty(g: &GlobalArgs, env: &Env) -> (Store, Option<StoreLocation>, Option<String>) {
    match locate_store(g.trust_store.as_deref(), env) {
        Err(e) => (Store::default(), None, Some(e.to_string())),
        Ok(loc) => match read_store(&loc.path) {
            Ok(store) => (store, Some(loc), None),
            Err(e) => (Store::default(), Some(loc), Some(e.to_string())),
        },
    }
}

/// [`store_or_empty`] and the store's warnings (who else could write it, a
/// `--trust-store` inside the `reviewed` trees), already printed as
/// `Warning: ` lines, for a JSON document's `storeWarnings`.
pub fn store_or_empty_warned(
    g: &GlobalArgs,
    reviewed: &[String],
    env: &Env,
    io: &mut Io<'_>,
) -> (Store, Option<StoreLocation>, Option<String>, Vec<String>) {
    let (store, loc, error) = store_or_empty(g, env);
    let warnings = loc
        .as_ref()
        .map(|l| issues_text(&store_issues(l, reviewed, env)))
        .unwrap_or_default();
    print_store_warnings(&warnings, io);
    (store, loc, error, warnings)
}

pub fn run(g: &GlobalArgs, args: &ScanArgs, env: &Env, io: &mut Io<'_>) -> u8 {
    if args.policy.is_some() {
        return crate::cli::policy_trust::scan_with_policy(g, args, env, io);
    }
    let paths = if args.paths.is_empty() {
        vec![".".to_string()]
    } else {
        args.paths.clone()
    };
    let (store, _, store_error, store_warnings) = store_or_empty_warned(g, &paths, env, io);
    let (reports, found) = match scan_walk(&paths, env, &store) {
        Ok(r) => r,
        Err(e) => {
            io.error_text(&e.to_string());
            return exit::FAILURE;
        }
    };
    if args.json {
        // The TUI's viewed marks; unreadable progress is named and ignored.
        let progress = match progress_dir(env) {
            Some(dir) => {
                let (progress, problem) = load_progress(&dir);
                if let Some(p) = problem {
                    let _ = writeln!(io.err, "Warning: {p}");
                }
                progress
            }
            None => Progress::default(),
        };
        let configs = reports
            .iter()
            .map(|r| JsonConfig {
                viewed: Some(progress.is_viewed(&r.key, r.sha256.as_deref())),
                ..JsonConfig::from(r)
            })
            .collect();
        let doc = JsonScan {
            configs,
            store_error: store_error.clone(),
            store_warnings,
            unreadable: found.unreadable.iter().map(JsonUnreadable::from).collect(),
            not_followed: found
                .not_followed
                .iter()
                .map(JsonNotFollowed::from)
                .collect(),
        };
        let _ = io.out.write_all(to_json(&doc).as_bytes());
    } else {
        if let Some(problem) = &store_error {
            let _ = writeln!(
                io.err,
                "Warning: {problem}; every config counts as untrusted"
            );
        }
        let values = io.escaping.out();
        let shown: Vec<ConfigReport> = reports
            .iter()
            .map(|r| values.report(r).into_owned())
            .collect();
        // On a terminal a changed config shows its values (issue 12);
        // piped, GocciaScript's lines as before.
        let by_value = io
            .escaping
            .stdout_is_terminal()
            .then_some((reports.as_slice(), values));
        let _ = io
            .out
            .write_all(render_table_with(&shown, by_value).as_bytes());
        print_not_followed(&found, &paths, env, io);
    }
    // A config may hide in what could not be read: that fails the scan.
    let unreadable = warn_unreadable(&found, &paths, env, io);
    let code = worst_exit(&reports);
    if unreadable {
        code.max(exit::FAILURE)
    } else {
        code
    }
}

/// Unchanged values shown around a change before a run of them is
/// collapsed to `… N unchanged`.
pub const UNCHANGED_KEPT: usize = 2;

/// The exit code of a scan: the worst error class among its configs.
pub fn worst_exit(reports: &[ConfigReport]) -> u8 {
    reports
        .iter()
        .filter_map(|r| r.error.as_ref().map(|e| e.class.code()))
        .max()
        .unwrap_or(exit::SUCCESS)
}

/// A readable table: state, path, summary; a changed config's lines below it.
pub fn render_table(reports: &[ConfigReport]) -> String {
    render_table_with(reports, None)
}

/// [`render_table`], with a changed config's value-level diff instead of
/// its lines when `by_value` gives the reports as loaded (`reports` as
/// shown, escaped, in the same order) and the escaping of the stream.
pub fn render_table_with(
    reports: &[ConfigReport],
    by_value: Option<(&[ConfigReport], Values)>,
) -> String {
    if reports.is_empty() {
        return "No configs found\n".to_string();
    }
    let width = reports
        .iter()
        .map(|r| r.display_path.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut out = format!("{:<13}  {:<width$}  SUMMARY\n", "STATE", "CONFIG");
    for (i, r) in reports.iter().enumerate() {
        // An error row keeps the exact message: it is what GocciaScript prints.
        let summary = match &r.error {
            Some(e) => e.message.clone(),
            None => r.summary(),
        };
        out.push_str(&format!(
            "{:<13}  {:<width$}  {summary}\n",
            r.state.label(),
            r.display_path
        ));
        if let (Some((raw, v)), ConfigState::Changed) = (by_value, r.state) {
            let items = report_values(&raw[i]);
            if !items.is_empty() {
                out.push_str(&render_text(&items, UNCHANGED_KEPT, &|s| {
                    v.text(s).into_owned()
                }));
                continue;
            }
        }
        // A changed config's lines; any config's scopes that lead elsewhere.
        let shown = with_destinations(&r.lines, &r.targets);
        for line in shown {
            if r.state == ConfigState::Changed || matches!(line, ShownLine::Destination(_)) {
                out.push_str(&format!("{}\n", line.render()));
            }
        }
    }
    out
}
