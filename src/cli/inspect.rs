//! `inspect CONFIG [--json]`: everything GocciaScript computes for one
//! config, and what the store holds for it.

use serde::Serialize;

use crate::cli::args::{GlobalArgs, InspectArgs};
use crate::cli::json_out::{
    JsonDestination, JsonDiffItem, JsonRequest, JsonStored, Schema, block_value, destinations_of,
    diff_items, requests_of, to_json,
};
use crate::cli::paint::{STYLED, mark};
use crate::cli::report::store_or_empty_warned;
use crate::cli::terminal::Values;
use crate::cli::{CliError, CliResult, Io};
use crate::core::config::load_config;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::expand_file_name;
use crate::core::paths::key::trust_key_for_path;
use crate::core::review::check::governing_config;
use crate::core::review::discover::shadowed_by;
use crate::core::review::report::ConfigState;
use crate::core::review::report::moved_targets;
use crate::core::review::status::compare;
use crate::core::review::value_diff::{block_values, diff_values, render_text};
use crate::tui::theme::Role;
use crate::tui::views::detail::state_role;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonInspect {
    schema: Schema,
    key: String,
    path: String,
    format: &'static str,
    files: Vec<String>,
    /// The normalized block as an object.
    block: serde_json::Value,
    /// The normalized block exactly as hashed.
    block_text: String,
    sha256: String,
    targets: std::collections::BTreeMap<String, String>,
    requests: Vec<JsonRequest>,
    lines: Vec<String>,
    requests_grants: bool,
    state: &'static str,
    stored: Option<JsonStored>,
    /// A changed config's value-level diff.
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<Vec<JsonDiffItem>>,
    destinations: Vec<JsonDestination>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<String>,
    store_warnings: Vec<String>,
    /// The config GocciaScript reads instead of this one, beside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    shadowed_by: Option<String>,
}

pub fn run(g: &GlobalArgs, args: &InspectArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    let expanded = expand_file_name(&args.config, &env.cwd, &env.home);
    // A directory stands for the config that governs the files in it; any
    // other file is read as a config, and refused there if it is not a
    // regular file.
    let key = match std::fs::metadata(&expanded) {
        Err(_) => {
            return Err(CliError::failed(format!(
                "config file not found: {}",
                args.config
            )));
        }
        Ok(meta) if meta.is_dir() => match governing_config(&args.config, env) {
            Some(key) => key,
            None => {
                return Err(CliError::failed(format!(
                    "{} is a directory; no config governs it",
                    args.config
                )));
            }
        },
        Ok(_) => trust_key_for_path(&args.config, env),
    };
    let snapshot = match load_config(&key, env) {
        Ok(s) => s,
        Err(e) => return Err(CliError::new(e.class.code(), &e)),
    };
    let (store, _, store_error, store_warnings) =
        store_or_empty_warned(g, std::slice::from_ref(&args.config), env, io);
    let stored = store.get(key.as_str());
    let comparison = compare(&snapshot, stored);
    let shadowed = shadowed_by(key.as_str());
    let values = match stored {
        Some(s) if comparison.state == ConfigState::Changed => {
            let moved = moved_targets(&comparison.lines);
            Some(diff_values(
                &block_values(&s.block),
                &block_values(&snapshot.block_json),
                &snapshot.targets.to_pairs(),
                &moved,
            ))
        }
        _ => None,
    };
    if args.json {
        let doc = JsonInspect {
            schema: Schema::default(),
            key: key.as_str().to_string(),
            path: crate::core::paths::display::display_path(key.as_str(), &env.cwd),
            format: snapshot.format(),
            files: snapshot.files.clone(),
            block: block_value(&snapshot.block_json),
            block_text: snapshot.block.as_str().to_string(),
            sha256: snapshot.sha256.clone(),
            targets: snapshot.targets.map.clone(),
            requests: requests_of(&snapshot.block_json),
            lines: snapshot.lines.clone(),
            requests_grants: snapshot.requests_grants(),
            state: comparison.state.json_name(),
            stored: stored.map(|s| JsonStored {
                sha256: s.sha256.clone(),
                trusted_at: s.trusted_at.clone(),
                trusted_by: s.trusted_by.clone(),
            }),
            diff: stored
                .filter(|_| comparison.state == ConfigState::Changed)
                .map(|s| {
                    diff_items(
                        &s.block,
                        &snapshot.block_json,
                        &snapshot.targets.to_pairs(),
                        &comparison.lines,
                    )
                }),
            destinations: destinations_of(&comparison.lines, &snapshot.targets.to_pairs()),
            store_error,
            store_warnings,
            shadowed_by: shadowed,
        };
        io.out.write_all(to_json(&doc).as_bytes())?;
        return Ok(exit::SUCCESS);
    }
    // Every value below comes from the config or its path.
    let v = Values;
    let mut out = String::new();
    out.push_str(&format!("Key:     {}\n", v.text(key.as_str())));
    out.push_str(&format!("Format:  {}\n", snapshot.format()));
    for (i, f) in snapshot.files.iter().enumerate() {
        let label = if i == 0 { "Files:  " } else { "        " };
        out.push_str(&format!("{label} {}\n", v.text(f)));
    }
    out.push_str(&format!("Block:   {}\n", v.text(snapshot.block.as_str())));
    out.push_str(&format!("SHA-256: {}\n", snapshot.sha256));
    out.push_str(&format!(
        "State:   {}\n",
        mark(state_role(comparison.state), comparison.state.label())
    ));
    if let Some(by) = &shadowed {
        out.push_str(&format!(
            "Shadowed: by {}: GocciaScript reads that file here, never this one\n",
            v.text(by)
        ));
    }
    if let Some(s) = stored {
        out.push_str(&format!(
            "Trusted: {} by {}\n",
            v.text(&s.trusted_at),
            v.text(&s.trusted_by)
        ));
    }
    if let Some(problem) = store_error {
        out.push_str(&format!("Store:   {}\n", v.text(&problem)));
    }
    out.push_str("Requests:\n");
    if comparison.lines.is_empty() {
        out.push_str("    (none)\n");
    }
    for line in &v.lines(&comparison.lines) {
        out.push_str(&format!("{}\n", line.render_styled(STYLED)));
    }
    // On a terminal, a changed config's values one by one (issue 12),
    // every unchanged value shown: inspect shows the config whole.
    if let Some(values) = values.as_ref().filter(|_| io.escaping.stdout_is_terminal()) {
        out.push_str("Changes:\n");
        out.push_str(&render_text(
            values,
            usize::MAX,
            &|s| v.text(s).into_owned(),
            STYLED,
        ));
    }
    // Where each scope leads now and, when it led elsewhere when trusted,
    // where that was (issue 30: a re-pointed link shows both ends).
    let recorded: &[(String, String)] = stored.map(|s| s.targets.as_slice()).unwrap_or(&[]);
    let gone: Vec<&(String, String)> = recorded
        .iter()
        .filter(|(scope, _)| !snapshot.targets.iter().any(|(s, _)| s == scope.as_str()))
        .collect();
    if !snapshot.targets.is_empty() || !gone.is_empty() {
        out.push_str("Targets:\n");
        for (scope, target) in snapshot.targets.iter() {
            let was = recorded
                .iter()
                .find(|(s, _)| s.as_str() == scope)
                .map(|(_, t)| t.as_str())
                .filter(|t| *t != target);
            match was {
                Some(was) => out.push_str(&format!(
                    "    {} -> {} {}\n",
                    v.text(scope),
                    v.text(target),
                    mark(
                        Role::Changed,
                        &format!("(was {} when trusted)", v.text(was))
                    )
                )),
                None => out.push_str(&format!("    {} -> {}\n", v.text(scope), v.text(target))),
            }
        }
        for (scope, was) in gone {
            out.push_str(&format!(
                "    {} not requested now (was {} when trusted)\n",
                v.text(scope),
                v.text(was)
            ));
        }
    }
    io.out.write_all(out.as_bytes())?;
    Ok(exit::SUCCESS)
}
