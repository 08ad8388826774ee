//! `scan [PATH...] [--json]`: every effective config and its state. A store
//! that cannot be read makes every config count as untrusted, and the
//! problem is named; a config that fails to load is an error row, and the
//! exit code reports the worst error class at the end.

use serde::Serialize;

use crate::cli::args::{GlobalArgs, OutputFormat, ScanArgs};
use crate::cli::ci_out;
use crate::cli::json_out::{JsonConfig, LazySeq, Schema, write_json};
use crate::cli::report::{render_table_with, store_or_empty_warned, unreadable_exit, worst_exit};
use crate::cli::walk::{JsonNotFollowed, JsonUnreadable, print_not_followed, warn_unreadable};
use crate::cli::{CliError, CliResult, Io};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::review::progress::{Progress, load_progress, progress_dir};
use crate::core::review::report::ConfigReport;
use crate::core::review::scan::scan_walk;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonScan<'a> {
    schema: Schema,
    configs: LazySeq<'a, (&'a ConfigReport, bool), JsonConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<String>,
    store_warnings: Vec<String>,
    unreadable: Vec<JsonUnreadable>,
    not_followed: Vec<JsonNotFollowed>,
}

pub fn run(g: &GlobalArgs, args: &ScanArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
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
        Err(e) => return Err(CliError::config_text(exit::FAILURE, e)),
    };
    let format = args.format.chosen(args.json);
    if format.is_ci() {
        if let Some(problem) = &store_error {
            let _ = writeln!(
                io.err,
                "Warning: {problem}; every config counts as untrusted"
            );
        }
        let unreadable = warn_unreadable(&found, &paths, env, io);
        let code = exit::worst(worst_exit(&reports), unreadable_exit(unreadable));
        let findings = ci_out::findings(&reports, None, &found.unreadable, env);
        return ci_out::write(format == OutputFormat::Github, &findings, env, io, code);
    }
    if format == OutputFormat::Json {
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
        // Each config with its viewed mark, converted as it is written.
        let rows: Vec<(&ConfigReport, bool)> = reports
            .iter()
            .map(|r| (r, progress.is_viewed(&r.key, r.sha256())))
            .collect();
        let doc = JsonScan {
            schema: Schema::default(),
            configs: LazySeq {
                items: &rows,
                convert: |(r, viewed)| JsonConfig {
                    viewed: Some(*viewed),
                    ..JsonConfig::from(*r)
                },
            },
            store_error: store_error.clone(),
            store_warnings,
            unreadable: found.unreadable.iter().map(JsonUnreadable::from).collect(),
            not_followed: found
                .not_followed
                .iter()
                .map(JsonNotFollowed::from)
                .collect(),
        };
        write_json(io.out, &doc)?;
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
        io.out
            .write_all(render_table_with(&shown, by_value).as_bytes())?;
        print_not_followed(&found, &paths, env, io)?;
    }
    // A config may hide in what could not be read: that fails the scan.
    let unreadable = warn_unreadable(&found, &paths, env, io);
    Ok(exit::worst(
        worst_exit(&reports),
        unreadable_exit(unreadable),
    ))
}
