//! `scan [PATH...] [--json]`: every effective config and its state. A store
//! that cannot be read makes every config count as untrusted, and the
//! problem is named; a config that fails to load is an error row, and the
//! exit code reports the worst error class at the end.

use serde::Serialize;

use crate::cli::args::{GlobalArgs, ScanArgs};
use crate::cli::json_out::{JsonConfig, LazySeq, write_json};
use crate::cli::report::{render_table, store_or_empty_warned, unreadable_exit, worst_exit};
use crate::cli::walk::{JsonNotFollowed, JsonUnreadable, print_not_followed, warn_unreadable};
use crate::cli::{CliError, CliResult, Io};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::review::report::ConfigReport;
use crate::core::review::scan::scan_walk;

#[derive(Serialize)]
struct JsonScan<'a> {
    configs: LazySeq<'a, ConfigReport, JsonConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<String>,
    #[serde(rename = "storeWarnings", skip_serializing_if = "Vec::is_empty")]
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
    if args.json {
        let doc = JsonScan {
            configs: LazySeq {
                items: &reports,
                convert: |r| JsonConfig::from(r),
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
        io.out.write_all(render_table(&shown).as_bytes())?;
        print_not_followed(&found, &paths, env, io)?;
    }
    // A config may hide in what could not be read: that fails the scan.
    let unreadable = warn_unreadable(&found, &paths, env, io);
    Ok(exit::worst(
        worst_exit(&reports),
        unreadable_exit(unreadable),
    ))
}
