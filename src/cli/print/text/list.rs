//! `list`'s result as text: GocciaScript's `--list-trusted` listing
//! (docs/src/compatibility.md#the-store-listing); `list --ignored`'s as one block per config.

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::outcome::list::Entries;
use crate::cli::terminal::Values;
use crate::cli::walk::write_warnings;
use crate::core::review::listing::{list_header, push_list_entry};
use crate::core::review::results::{IgnoredNow, IgnoredResult, ListResult};
use crate::style::paint::STYLED;

/// The listing, each entry written as it is checked.
pub fn print(result: &ListResult, entries: &Entries<'_>, io: &mut Io<'_>) -> Result<(), CliError> {
    write_warnings(&result.store_warnings, io);
    let values = Values;
    let path = values.text(&result.location.path);
    let mut text = list_header(&path, result.is_empty());
    // Written 64 KiB at a time, each chunk whole entries: the same bytes
    // as the whole listing at once, without holding it.
    entries.each(|_, _, e| -> Result<(), CliError> {
        push_list_entry(&mut text, &values.entry(&e), STYLED);
        if text.len() >= 64 * 1024 {
            io.out.write_all(text.as_bytes())?;
            text.clear();
        }
        Ok(())
    })?;
    io.out.write_all(text.as_bytes())?;
    Ok(())
}

/// Every ignored config with the sha256 it was ignored with and when;
/// `(changed)` when the config is no longer that one (it asks again),
/// `(missing)` when it is gone.
pub fn print_ignored(result: &IgnoredResult, io: &mut Io<'_>) -> Result<(), CliError> {
    if let Some(problem) = &result.problem {
        io.warn(problem);
    }
    let values = Values;
    let file = values.text(&result.file);
    if result.rows.is_empty() {
        writeln!(io.out, "No ignored configs in {file}")?;
        return Ok(());
    }
    writeln!(io.out, "Ignored configs in {file}:")?;
    for (key, ignored, now) in &result.rows {
        let mark = match now {
            IgnoredNow::Current => "",
            IgnoredNow::Changed => " (changed)",
            IgnoredNow::Missing => " (missing)",
        };
        writeln!(io.out, "  {}{mark}", values.text(key))?;
        writeln!(io.out, "    sha256: {}", values.text(&ignored.sha256))?;
        writeln!(
            io.out,
            "    ignored at: {}",
            values.text(&ignored.ignored_at)
        )?;
    }
    Ok(())
}
