//! What `scan`, `--trust` and their `--policy` variants print in common: the
//! store of a read-only command with its warnings, the scan table and exit
//! code, and the `--trust` listing, refusals and outcome lines. Shared here
//! so `scan.rs`, `trust.rs` and `policy_trust.rs` do not import each other.

use std::io::Write;

use crate::cli::args::GlobalArgs;
use crate::cli::paint::{STYLED, mark};
use crate::cli::terminal::Values;
use crate::cli::{CliError, CliResult, Io, issues_text, print_store_warnings, store_issues};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::{count_config_files, display_path};
use crate::core::paths::key::trust_key_for_path;
use crate::core::review::destination::{ShownLine, with_destinations};
use crate::core::review::ignore::{IgnoreList, ignore_dir, leave_out_ignored, load_ignores};
use crate::core::review::report::report_values;
use crate::core::review::report::{ConfigReport, ConfigState};
use crate::core::review::trust::{PlanError, TrustCommit, TrustPlan};
use crate::core::review::value_diff::render_text;
use crate::core::store::{Store, StoreLocation, locate_store, read_store};
use crate::tui::theme::Role;
use crate::tui::views::detail::state_role;

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

/// The exit code of a scan: the worst error class among its configs.
pub fn worst_exit(reports: &[ConfigReport]) -> u8 {
    exit::worst_of(
        reports
            .iter()
            .filter_map(|r| r.error().map(|e| e.class.code())),
    )
}

/// What a walk that could not read part of a PATH adds to the exit code.
pub fn unreadable_exit(unreadable: bool) -> u8 {
    if unreadable {
        exit::FAILURE
    } else {
        exit::SUCCESS
    }
}

/// Unchanged values shown around a change before a run of them is
/// collapsed to `… N unchanged`.
pub const UNCHANGED_KEPT: usize = 2;

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
        return NO_CONFIGS.to_string();
    }
    let width = table_width(reports.iter().map(|r| r.display_path.chars().count()));
    let mut out = table_header(width);
    for (i, r) in reports.iter().enumerate() {
        render_row(&mut out, r, by_value.map(|(raw, v)| (&raw[i], v)), width);
    }
    out
}

/// The table of a scan that found nothing.
pub const NO_CONFIGS: &str = "No configs found\n";

/// The CONFIG column's width, from the length in characters of each path
/// as shown (escaped).
pub fn table_width(shown_lengths: impl Iterator<Item = usize>) -> usize {
    shown_lengths.max().unwrap_or(0).max(6)
}

/// The table's first line.
pub fn table_header(width: usize) -> String {
    format!("{:<13}  {:<width$}  SUMMARY\n", "STATE", "CONFIG")
}

/// One config's row of the table, and a changed config's lines below it,
/// appended to `out`: `r` as shown (escaped), with the report as loaded
/// and the stream's escaping when a changed config shows its values.
pub fn render_row(
    out: &mut String,
    r: &ConfigReport,
    by_value: Option<(&ConfigReport, Values)>,
    width: usize,
) {
    use std::fmt::Write as _;
    // An error row keeps the exact message: it is what GocciaScript prints.
    let summary = match r.error() {
        Some(e) => std::borrow::Cow::Borrowed(e.message.as_str()),
        None => std::borrow::Cow::Owned(r.summary()),
    };
    // The state column, styled by the state: padded as the plain word.
    let label = r.state.label();
    let _ = writeln!(
        out,
        "{}{:pad$}  {:<width$}  {summary}",
        mark(state_role(r.state), label),
        "",
        r.display_path,
        pad = 13usize.saturating_sub(label.len())
    );
    if let (Some((raw, v)), ConfigState::Changed) = (by_value, r.state) {
        let items = report_values(raw);
        if !items.is_empty() {
            out.push_str(&render_text(
                &items,
                UNCHANGED_KEPT,
                &|s| v.text(s).into_owned(),
                STYLED,
            ));
            return;
        }
    }
    // A changed config's lines; any config's scopes that lead elsewhere.
    let shown = with_destinations(&r.lines, r.targets());
    for line in shown {
        if r.state == ConfigState::Changed || matches!(line, ShownLine::Destination(_)) {
            out.push_str(&line.render_styled(STYLED));
            out.push('\n');
        }
    }
}

/// `Trusted N …` for what was recorded, and one `Refused:` line on stderr
/// for each config that changed since it was listed (exit 1 then).
pub fn report_commit(commit: &TrustCommit, store_path: &str, io: &mut Io<'_>) -> CliResult {
    for r in &commit.refused {
        let path = Values.text(&r.display_path).into_owned();
        let _ = writeln!(io.err, "Refused: {path} changed since shown; not trusted");
    }
    if commit.recorded > 0 {
        writeln!(
            io.out,
            "Trusted {} in {}",
            count_config_files(commit.recorded),
            Values.text(store_path)
        )?;
    } else {
        writeln!(io.out, "Nothing was trusted.")?;
    }
    if commit.refused.is_empty() {
        Ok(exit::SUCCESS)
    } else {
        Ok(exit::FAILURE)
    }
}

/// A config that fails to load fails the command with its own error and exit
/// class; a walk failure is exit 1.
pub fn plan_failure(e: &PlanError, io: &mut Io<'_>) -> CliError {
    // Each quotes paths and text from the tree under review.
    match e {
        PlanError::Config(c) => CliError::new(c.class.code(), c),
        PlanError::Discover(d) => CliError::new(exit::FAILURE, d),
        PlanError::Unreadable { items, .. } => {
            for u in items {
                io.warn(format_args!("cannot read {}: {}", u.path, u.reason));
            }
            CliError::new(exit::FAILURE, e)
        }
    }
}

/// `No config under … requests permissions` and the already-trusted lines.
pub fn print_nothing_to_do(
    plan: &TrustPlan,
    targets: &str,
    io: &mut Io<'_>,
) -> Result<Option<u8>, CliError> {
    let targets = Values.text(targets);
    if plan.candidates.is_empty() && plan.left_out > 0 {
        writeln!(
            io.out,
            "Nothing to trust under {targets}: {} ignored (unignore, or name a config file to trust it)",
            count_config_files(plan.left_out)
        )?;
        print_not_followed(plan, io)?;
        return Ok(Some(exit::SUCCESS));
    }
    if plan.requesting() == 0 {
        writeln!(io.out, "No config under {targets} requests permissions")?;
        print_not_followed(plan, io)?;
        return Ok(Some(exit::SUCCESS));
    }
    if plan.candidates.is_empty() {
        if plan.unchanged == 1 {
            writeln!(io.out, "The config file under {targets} is already trusted")?;
        } else {
            writeln!(
                io.out,
                "All {} config files under {targets} are already trusted",
                plan.unchanged
            )?;
        }
        print_not_followed(plan, io)?;
        return Ok(Some(exit::SUCCESS));
    }
    Ok(None)
}

/// The listing of §15.2 on stdout, escaped as stdout's rule says.
pub fn print_listing(
    plan: &TrustPlan,
    targets: &str,
    env: &Env,
    by_value: Option<&Store>,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    print_listing_to(plan, targets, env, by_value, io.out)
}

/// The listing of §15.2, ending with its always-present empty line, each
/// scope that leads elsewhere followed by its destination; config text
/// escaped. With `by_value` (the store, for a listing a person reads on a
/// terminal), a changed config shows its values against the stored block,
/// runs of unchanged ones collapsed, as `scan` and the TUI show them
/// (issue 30); without, GocciaScript's lines, byte for byte.
pub fn print_listing_to(
    plan: &TrustPlan,
    targets: &str,
    env: &Env,
    by_value: Option<&Store>,
    w: &mut dyn Write,
) -> std::io::Result<()> {
    let values = Values;
    use rayon::prelude::*;
    writeln!(w, "Permission requests under {}:", values.text(targets))?;
    // Each config's lines are made on every thread and written in order:
    // a listing of 10,000 configs is most of what `--trust` does alone.
    let shown: Vec<String> = plan
        .candidates
        .par_iter()
        .map(|c| {
            let shown = display_path(c.snapshot.key.as_str(), &env.cwd);
            let tag = if c.changed {
                mark(Role::Changed, "(changed)")
            } else {
                mark(Role::Untrusted, "(new)")
            };
            let mut text = format!("\n  {} {tag}\n", values.text(&shown));
            if let Some(store) = by_value {
                let items = c.values(store.get(c.snapshot.key.as_str()));
                if !items.is_empty() {
                    text.push_str(&render_text(
                        &items,
                        UNCHANGED_KEPT,
                        &|s| values.text(s).into_owned(),
                        STYLED,
                    ));
                    return text;
                }
            }
            let lines = values.lines(&c.lines);
            let targets = values.pairs(&c.snapshot.targets.to_pairs());
            for line in with_destinations(&lines, &targets) {
                text.push_str(&line.render_styled(STYLED));
                text.push('\n');
            }
            text
        })
        .collect();
    for text in &shown {
        w.write_all(text.as_bytes())?;
    }
    listing_end(plan, w)
}

/// The end of every `--trust` listing: the skipped count, when any, then the
/// empty line that always precedes the ending (§15.2 steps 3 and 4).
pub fn print_listing_end(plan: &TrustPlan, io: &mut Io<'_>) -> std::io::Result<()> {
    listing_end(plan, io.out)
}

fn listing_end(plan: &TrustPlan, w: &mut dyn Write) -> std::io::Result<()> {
    let values = Values;
    if !plan.notes.is_empty() {
        writeln!(w)?;
        for line in &plan.notes {
            writeln!(w, "  {}", values.text(line))?;
        }
    }
    if plan.unchanged > 0 {
        writeln!(
            w,
            "\n  {} more already trusted and unchanged.",
            plan.unchanged
        )?;
    }
    writeln!(w)
}

/// The directory links out of the paths, which were not walked: our
/// addition to GocciaScript's lines, so nothing behind them passes unseen.
fn print_not_followed(plan: &TrustPlan, io: &mut Io<'_>) -> std::io::Result<()> {
    let values = Values;
    for line in &plan.notes {
        writeln!(io.out, "{}", values.text(line))?;
    }
    Ok(())
}

/// The ignore list (`ignore`), for a command that shows states or trusts
/// directories. A list that cannot be read or could have been written by
/// someone else is a `Warning: ` and ignores nothing (fail closed: it
/// never hides a config by accident).
pub fn ignores_warned(env: &Env, io: &mut Io<'_>) -> IgnoreList {
    let Some(dir) = ignore_dir(env) else {
        return IgnoreList::default();
    };
    let (list, problem) = load_ignores(&dir);
    if let Some(problem) = problem {
        io.warn(problem);
    }
    list
}

/// Takes the ignored configs out of a `--trust` plan, unless the config
/// file itself was named, saying on stderr which were left out.
pub fn leave_out_ignored_said(
    plan: &mut TrustPlan,
    paths: &[String],
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    let ignores = ignores_warned(env, io);
    if ignores.ignored.is_empty() {
        return Ok(());
    }
    let named: Vec<String> = paths
        .iter()
        .filter(|p| {
            let expanded = crate::core::paths::expand_file_name(p, &env.cwd, &env.home);
            std::fs::metadata(expanded).is_ok_and(|m| !m.is_dir())
        })
        .map(|p| trust_key_for_path(p, env).0)
        .collect();
    for key in leave_out_ignored(plan, &ignores, &named) {
        writeln!(
            io.err,
            "Left out (ignored; name the config file to trust it): {}",
            Values.text(&display_path(&key, &env.cwd))
        )?;
    }
    Ok(())
}
