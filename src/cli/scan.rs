//! `scan [PATH...] [--json]`: every effective config and its state. A store
//! that cannot be read makes every config count as untrusted, and the
//! problem is named; a config that fails to load is an error row, and the
//! exit code reports the worst error class at the end.

use std::cell::Cell;

use serde::Serialize;
use serde::ser::SerializeSeq;

use crate::cli::args::{GlobalArgs, OutputFormat, ScanArgs};
use crate::cli::ci_out;
use crate::cli::json_out::{JsonConfig, Schema, write_json};
use crate::cli::report::{
    NO_CONFIGS, ignores_warned, render_row, store_or_empty_warned, table_header, table_width,
    unreadable_exit, worst_exit,
};
use crate::cli::terminal::Values;
use crate::cli::walk::{JsonNotFollowed, JsonUnreadable, print_not_followed, warn_unreadable};
use crate::cli::{CliError, CliResult, Io};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::display_path;
use crate::core::paths::key::TrustKey;
use crate::core::review::discover::discover_paths;
use crate::core::review::ignore::IgnoreList;
use crate::core::review::progress::{Progress, load_progress, progress_dir};
use crate::core::review::scan::for_each_report;
use crate::core::review::trust::{missing_line, missing_under};
use crate::core::store::Store;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonScan<'a> {
    schema: Schema,
    configs: Streamed<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<String>,
    store_warnings: Vec<String>,
    unreadable: Vec<JsonUnreadable>,
    not_followed: Vec<JsonNotFollowed>,
    /// Config files a higher-priority one in the same directory shadows.
    shadowed: Vec<JsonShadowed<'a>>,
    /// Trusted configs under the paths that are gone.
    missing: Vec<JsonMissing<'a>>,
}

#[derive(Serialize)]
struct JsonShadowed<'a> {
    path: &'a str,
    by: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonMissing<'a> {
    key: &'a str,
    trusted_at: &'a str,
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
    let missing = missing_under(&store, &paths, env);
    // The walk first; each config is then loaded as its row is written, so
    // a scan holds its reports a batch at a time, not all at once.
    let found = match discover_paths(&paths, env, &|_| {}, &|| false) {
        Ok(found) => found,
        Err(e) => return Err(CliError::new(exit::FAILURE, e)),
    };
    let format = args.format.chosen(args.json);
    let ignores = ignores_warned(env, io);
    if format.is_ci() {
        let mut reports = Vec::with_capacity(found.keys.len());
        let _ = for_each_report(&found.keys, env, &store, |mut r| {
            ignores.apply(&mut r);
            reports.push(r);
            Ok::<_, std::convert::Infallible>(())
        });
        if let Some(problem) = &store_error {
            io.warn(format_args!("{problem}; every config counts as untrusted"));
        }
        let unreadable = warn_unreadable(&found, &paths, env, io);
        let code = exit::worst(worst_exit(&reports), unreadable_exit(unreadable));
        let findings = ci_out::findings(&reports, None, &found.unreadable, env);
        return ci_out::write(format == OutputFormat::Github, &findings, env, io, code);
    }
    let worst;
    if format == OutputFormat::Json {
        // The TUI's viewed marks; unreadable progress is named and ignored.
        let progress = match progress_dir(env) {
            Some(dir) => {
                let (progress, problem) = load_progress(&dir);
                if let Some(p) = problem {
                    io.warn(p);
                }
                progress
            }
            None => Progress::default(),
        };
        // Each config with its viewed mark, loaded as it is written.
        let doc = JsonScan {
            schema: Schema::default(),
            configs: Streamed {
                keys: &found.keys,
                env,
                store: &store,
                progress: &progress,
                ignores: &ignores,
                worst: Cell::new(exit::SUCCESS),
            },
            store_error: store_error.clone(),
            store_warnings,
            unreadable: found.unreadable.iter().map(JsonUnreadable::from).collect(),
            not_followed: found
                .not_followed
                .iter()
                .map(JsonNotFollowed::from)
                .collect(),
            shadowed: found
                .shadowed
                .iter()
                .map(|s| JsonShadowed {
                    path: &s.path,
                    by: &s.by,
                })
                .collect(),
            missing: missing
                .iter()
                .map(|(key, e)| JsonMissing {
                    key,
                    trusted_at: &e.trusted_at,
                })
                .collect(),
        };
        write_json(io.out, &doc)?;
        worst = doc.configs.worst.get();
    } else {
        if let Some(problem) = &store_error {
            io.warn(format_args!("{problem}; every config counts as untrusted"));
        }
        worst = write_table(&found.keys, env, &store, &ignores, io)?;
        print_not_followed(&found, &paths, env, io)?;
        let values = crate::cli::terminal::Values;
        for s in &found.shadowed {
            writeln!(io.out, "{}", values.text(&s.describe(&env.cwd)))?;
        }
        for (key, _) in &missing {
            writeln!(io.out, "{}", values.text(&missing_line(key, &env.cwd)))?;
        }
    }
    // A config may hide in what could not be read: that fails the scan.
    let unreadable = warn_unreadable(&found, &paths, env, io);
    Ok(exit::worst(worst, unreadable_exit(unreadable)))
}

/// The configs of `scan --json`, each loaded, converted and written in key
/// order as the array is written; `worst` gathers the exit code of their
/// errors meanwhile.
struct Streamed<'a> {
    keys: &'a [TrustKey],
    env: &'a Env,
    store: &'a Store,
    /// The TUI's viewed marks.
    progress: &'a Progress,
    ignores: &'a IgnoreList,
    worst: Cell<u8>,
}

impl Serialize for Streamed<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.keys.len()))?;
        for_each_report(self.keys, self.env, self.store, |mut r| {
            self.ignores.apply(&mut r);
            self.worst.set(exit::worst(
                self.worst.get(),
                worst_exit(std::slice::from_ref(&r)),
            ));
            seq.serialize_element(&JsonConfig {
                viewed: Some(self.progress.is_viewed(&r.key, r.sha256())),
                ..JsonConfig::from(&r)
            })
        })?;
        seq.end()
    }
}

/// The readable table, written a batch of rows at a time (whole lines, as
/// the stream's painter wants them); returns the exit code of the configs'
/// errors. The CONFIG column is as wide as the widest path shown, known
/// from the keys before any config is loaded (a report's `display_path` is
/// its key's).
fn write_table(
    keys: &[TrustKey],
    env: &Env,
    store: &Store,
    ignores: &IgnoreList,
    io: &mut Io<'_>,
) -> Result<u8, CliError> {
    if keys.is_empty() {
        io.out.write_all(NO_CONFIGS.as_bytes())?;
        return Ok(exit::SUCCESS);
    }
    let values = Values;
    // On a terminal a changed config shows its values (issue 12); piped,
    // GocciaScript's lines as before.
    let by_value = io.escaping.stdout_is_terminal();
    let width = table_width(keys.iter().map(|k| {
        values
            .text(&display_path(k.as_str(), &env.cwd))
            .chars()
            .count()
    }));
    let mut pending = table_header(width);
    let mut worst = exit::SUCCESS;
    for_each_report(keys, env, store, |mut r| {
        ignores.apply(&mut r);
        worst = exit::worst(worst, worst_exit(std::slice::from_ref(&r)));
        let shown = values.report(&r);
        render_row(
            &mut pending,
            &shown,
            by_value.then_some((&r, values)),
            width,
        );
        if pending.len() >= 1 << 16 {
            io.out.write_all(pending.as_bytes())?;
            pending.clear();
        }
        Ok::<_, CliError>(())
    })?;
    io.out.write_all(pending.as_bytes())?;
    Ok(worst)
}
