//! The table of `scan` (and of `scan --policy`): state, config, summary,
//! and a changed config's lines below its row.

use crate::cli::terminal::Values;
use crate::core::review::destination::{ShownLine, with_destinations};
use crate::core::review::report::report_values;
use crate::core::review::report::{ConfigReport, ConfigState};
use crate::core::review::value_diff::{UNCHANGED_KEPT, render_text};
use crate::style::paint::{STYLED, mark};
use crate::style::roles::state_role;

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
