//! What a GocciaScript run that honours every grant would decide for some
//! inputs: the config governing each, and the report of the ones that block
//! (docs/src/compatibility.md#the-untrusted-run-report).

use crate::core::env::Env;
use crate::core::paths::display::{common_directory, display_path, shell_quote};
use crate::core::paths::key::{TrustKey, trust_key_for_path};
use crate::core::paths::{expand_without_trailing_separator, parent_dir};
use crate::core::review::destination::with_destinations;
use crate::core::review::discover::CONFIG_NAMES;
use crate::core::review::report::{ConfigReport, ConfigState};
use crate::core::review::style::{Emphasis, Styler};

/// The nearest `goccia.toml`/`goccia.json5`/`goccia.json` searched upward
/// from `dir` (inclusive), as a trust key.
pub fn nearest_config(dir: &str, env: &Env) -> Option<TrustKey> {
    let mut dir = dir.to_string();
    loop {
        for name in CONFIG_NAMES {
            let candidate = if dir == "/" {
                format!("/{name}")
            } else {
                format!("{dir}/{name}")
            };
            // Anything but a directory is the config, as in the walk: a FIFO
            // or device there is then refused when read, not passed over.
            if crate::core::paths::input::is_file_like(&candidate) {
                return Some(trust_key_for_path(&candidate, env));
            }
        }
        if dir == "/" {
            return None;
        }
        dir = parent_dir(&dir).to_string();
    }
}

/// The config governing an input file: its directory's nearest config. For
/// a directory input, the one governing the directory itself.
pub fn governing_config(input: &str, env: &Env) -> Option<TrustKey> {
    let expanded = expand_without_trailing_separator(input, &env.cwd, &env.home);
    let start = if crate::core::paths::input::is_directory(&expanded) {
        expanded
    } else {
        parent_dir(&expanded).to_string()
    };
    nearest_config(&start, env)
}

/// Why the store could not be used for a run's trust check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreProblem {
    /// No per-user store can be located (`HOME is not set`).
    CannotLocate(String),
    /// The store exists but is unreadable: its message.
    Unreadable(String),
}

/// The inputs of the report that are not the configs themselves.
#[derive(Clone)]
pub struct ReportContext<'a> {
    pub env: &'a Env,
    /// The store path, when it could be located.
    pub store_path: Option<&'a str>,
    pub store_problem: Option<StoreProblem>,
    /// `--trust-store=<value>` as the user typed it.
    pub trust_store_as_typed: Option<&'a str>,
    /// The command's own arguments, repeated in the `-P` and
    /// `--ignore-config-permissions` suggestions.
    pub original_args: &'a [String],
    /// The GocciaScript runner those two suggestions name: they are for a
    /// GocciaScript run, which this tool never makes.
    pub runner: &'a str,
    /// Whether to suggest those two runs at all: not when an input is a
    /// config file itself, which no run takes as its input.
    pub suggest_runs: bool,
    /// Styles each config's state and each line's sign.
    pub style: Styler<'a>,
}

/// The docs/src/compatibility.md#the-untrusted-run-report message (without `Error: ` and without a final newline) for the
/// blocking configs, given in byte order of their keys.
pub fn untrusted_report(blocking: &[&ConfigReport], ctx: &ReportContext<'_>) -> String {
    let mut out = blocking_configs(blocking, ctx);
    out.push('\n');
    let mut trust_cmd = vec!["goccia-trust".to_string()];
    // A store problem changes what follows "Nothing was run." on its line.
    out.push_str("Nothing was run. ");
    out.push_str(&trust_lead(ctx, &mut trust_cmd));
    if let Some(typed) = ctx.trust_store_as_typed
        && !matches!(ctx.store_problem, Some(StoreProblem::CannotLocate(_)))
    {
        trust_cmd.push(shell_quote(&format!("--trust-store={typed}")));
    }
    trust_cmd.extend(trust_paths(blocking, ctx));
    out.push_str(&format!("  {}", trust_cmd.join(" ")));
    if ctx.suggest_runs {
        out.push_str(&run_suggestions(ctx));
    }
    out
}

/// The count, then each blocking config: its path, its state (changed
/// since when, or never trusted) and its request lines.
fn blocking_configs(blocking: &[&ConfigReport], ctx: &ReportContext<'_>) -> String {
    let n = blocking.len();
    let mut out = if n == 1 {
        "1 config file requests permissions that have not been trusted:\n".to_string()
    } else {
        format!("{n} config files request permissions that have not been trusted:\n")
    };
    for report in blocking {
        out.push('\n');
        let status = match (&report.state, &report.stored) {
            (ConfigState::Changed, Some(stored)) => format!(
                "{} {})",
                (ctx.style)(Emphasis::Changed, "(changed since trusted"),
                stored.trusted_at
            ),
            _ => (ctx.style)(Emphasis::Untrusted, "(never trusted)"),
        };
        out.push_str(&format!("  {} {status}\n", report.display_path));
        // GocciaScript's lines, with ours for scopes that lead elsewhere.
        for line in with_destinations(&report.lines, report.targets()) {
            out.push_str(&line.render_styled(ctx.style));
            out.push('\n');
        }
    }
    out
}

/// The rest of the "Nothing was run." line: how to trust, by the store's
/// state. A store that cannot be located needs one named in `trust_cmd`.
fn trust_lead(ctx: &ReportContext<'_>, trust_cmd: &mut Vec<String>) -> String {
    match &ctx.store_problem {
        Some(StoreProblem::CannotLocate(reason)) => {
            trust_cmd.push("--trust-store=<path>".to_string());
            format!(
                "The per-user trust store cannot be located ({reason}); to trust these requests, name a store:\n"
            )
        }
        Some(StoreProblem::Unreadable(problem)) => {
            format!("{}. Then, to trust these requests:\n", upper_first(problem))
        }
        None => format!(
            "To trust these requests (stored in {}):\n",
            ctx.store_path.unwrap_or_default()
        ),
    }
}

/// The `--trust` arguments of the suggested command: each config's path,
/// or, for more than three, their common directory.
fn trust_paths(blocking: &[&ConfigReport], ctx: &ReportContext<'_>) -> Vec<String> {
    if blocking.len() <= 3 {
        return blocking
            .iter()
            .flat_map(|report| ["--trust".to_string(), shell_quote(&report.display_path)])
            .collect();
    }
    let common = common_directory(blocking.iter().map(|r| r.key.as_str()));
    let shown = if common == ctx.env.cwd {
        common.clone()
    } else {
        display_path(&common, &ctx.env.cwd)
    };
    let shown = if shown.ends_with('/') {
        shown
    } else {
        format!("{shown}/")
    };
    vec!["--trust".to_string(), shell_quote(&shown)]
}

/// The two runs of the same command line that need no trust: accepting the
/// requests once (`-P`), or command-line grants only.
fn run_suggestions(ctx: &ReportContext<'_>) -> String {
    let args: Vec<String> = ctx.original_args.iter().map(|a| shell_quote(a)).collect();
    let args = args.join(" ");
    let runner = shell_quote(ctx.runner);
    let mut out = String::from("\nTo accept them for this run only:\n");
    out.push_str(&format!("  {runner} -P {args}\n"));
    out.push_str("To run with command-line grants only:\n");
    out.push_str(&format!("  {runner} --ignore-config-permissions {args}"));
    out
}

fn upper_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
