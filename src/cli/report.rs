//! What `scan`, `--trust` and their `--policy` variants print in common: the
//! store of a read-only command with its warnings, the scan table and exit
//! code, and the `--trust` listing, refusals and outcome lines. Shared here
//! so `scan.rs`, `trust.rs` and `policy_trust.rs` do not import each other.

use crate::cli::args::GlobalArgs;
use crate::cli::paint::{STYLED, mark};
use crate::cli::terminal::Values;
use crate::cli::{Io, issues_text, print_store_warnings, store_issues};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::review::destination::{ShownLine, with_destinations};
use crate::core::review::ignore::{IgnoreList, ignore_dir, load_ignores};
use crate::core::review::report::report_values;
use crate::core::review::report::{ConfigReport, ConfigState};
use crate::core::review::value_diff::{UNCHANGED_KEPT, render_text};
use crate::core::store::{Store, StoreLocation, locate_store, read_store};
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
