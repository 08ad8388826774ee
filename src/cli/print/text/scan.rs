//! `scan`'s result as text: the table, written a batch of rows at a time,
//! then the links not followed, the shadowed configs and the missing ones.

use crate::cli::outcome::policy::PolicyScan;
use crate::cli::print::text::table::{
    NO_CONFIGS, render_row, render_table, table_header, table_width,
};
use crate::style::paint::mark;

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::outcome::scan::{Configs, ScanSink};
use crate::cli::print::text::provenance;
use crate::cli::print::text::trust::policy_label;
use crate::cli::terminal::Values;
use crate::cli::walk::{print_not_followed, write_not_followed, write_warnings};
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::review::discover::Discovery;
use crate::core::review::report::ConfigReport;
use crate::core::review::results::ScanResult;
use crate::core::review::trust::missing_line;
use crate::core::revision::provenance::{Absent, ValueOrigin};
use crate::core::revision::review_provenance::Provenance;
use crate::style::roles::verdict_role;
use crate::style::theme::Role;

/// Who changed a config, read by the command as its row is written; `None`
/// when it is not to be shown (only a changed config, on a terminal).
pub type Who<'a> = dyn Fn(&ConfigReport) -> Option<Provenance> + 'a;

/// Who deleted a missing config (by key), read by the command as its line
/// is written; `None` when it is not to be shown (only on a terminal).
pub type Deleted<'a> = dyn Fn(&str) -> Option<Result<ValueOrigin, Absent>> + 'a;

/// `scan` as text: the warnings, the table written as the configs stream,
/// then the links not followed, the shadowed and the missing configs.
pub struct Text<'a> {
    pub who: &'a Who<'a>,
    pub deleted: &'a Deleted<'a>,
    pub env: &'a Env,
}

impl ScanSink for Text<'_> {
    fn write(
        &mut self,
        result: &ScanResult,
        configs: &Configs<'_>,
        io: &mut Io<'_>,
    ) -> Result<(), CliError> {
        warnings(result, io);
        if let Some(problem) = &result.store_error {
            io.warn(format_args!("{problem}; every config counts as untrusted"));
        }
        write_table(result, configs, self.who, self.env, io)?;
        write_not_followed(&result.not_followed, io)?;
        shadowed_and_missing(&result.found, &result.missing, self.deleted, self.env, io)?;
        write_warnings(&result.unreadable, io);
        Ok(())
    }
}

/// `deleted by a1b2c3d Bob 2026-12-01 "drop tools"`, `deleted in the
/// working tree, not committed`, or why it is not known.
fn deleted_text(d: &Result<ValueOrigin, Absent>) -> String {
    let v = Values;
    match d {
        Ok(ValueOrigin::Committed(c)) => format!(
            "deleted by {} {} {} \"{}\"",
            mark(Role::Changed, &v.text(&c.short)),
            v.text(&c.author),
            v.text(c.day()),
            v.text(&c.subject)
        ),
        Ok(ValueOrigin::NotCommitted) => "deleted in the working tree, not committed".into(),
        Ok(ValueOrigin::AtBase) => "deleted".into(),
        Ok(ValueOrigin::Unknown(why)) => format!("deleted by: unknown: {}", v.text(why)),
        Err(absent) => v.text(&absent.describe()).into_owned(),
    }
}

/// After the table: the config files shadowed by a higher-priority one,
/// then the trusted configs that are gone.
fn shadowed_and_missing(
    found: &Discovery,
    missing: &[(String, String)],
    deleted: &Deleted<'_>,
    env: &Env,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    for s in &found.shadowed {
        writeln!(io.out, "{}", Values.text(&s.describe(&env.cwd)))?;
    }
    for (key, _) in missing {
        writeln!(io.out, "{}", Values.text(&missing_line(key, &env.cwd)))?;
        // On a terminal, who deleted it (issue 40 item 5).
        if let Some(d) = deleted(key) {
            writeln!(io.out, "  {}", deleted_text(&d))?;
        }
    }
    Ok(())
}

/// `scan --policy` as text: the policy, `scan`'s table, then each
/// requesting config's verdict and its operations, then what `scan` says
/// after its table.
pub fn judged(scan: &PolicyScan, env: &Env, io: &mut Io<'_>) -> Result<(), CliError> {
    if let Some(problem) = &scan.store_error {
        io.warn(format_args!("{problem}; every config counts as untrusted"));
    }
    writeln!(
        io.out,
        "Policy: {}",
        Values.text(&policy_label(&scan.policy))
    )?;
    let shown: Vec<ConfigReport> = scan
        .reports
        .iter()
        .map(|r| Values.report(r).into_owned())
        .collect();
    io.out.write_all(render_table(&shown).as_bytes())?;
    for (r, d) in shown.iter().zip(&scan.decisions) {
        if let Some(d) = d {
            let verdict = mark(verdict_role(d.verdict), d.verdict.as_str());
            writeln!(io.out, "{}: {verdict}", r.display_path)?;
            for o in &d.operations {
                writeln!(io.out, "    {}", Values.text(&o.line()))?;
            }
        }
    }
    print_not_followed(&scan.found, &scan.paths, env, io)?;
    shadowed_and_missing(&scan.found, &scan.missing, &|_| None, env, io)?;
    Ok(())
}

/// The warnings every format of a scan says first, on stderr: the store's,
/// then the ignore list's.
pub fn warnings(result: &ScanResult, io: &mut Io<'_>) {
    write_warnings(&result.store_warnings, io);
    if let Some(problem) = &result.ignore_problem {
        io.warn(problem);
    }
}

/// The readable table, written a batch of rows at a time (whole lines, as
/// the stream's painter wants them). The CONFIG column is as wide as the widest path shown, known
/// from the keys before any config is loaded (a report's `display_path` is
/// its key's).
fn write_table(
    result: &ScanResult,
    configs: &Configs<'_>,
    who: &Who<'_>,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    let keys = &result.found.keys;
    if keys.is_empty() {
        io.out.write_all(NO_CONFIGS.as_bytes())?;
        return Ok(());
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
    configs.each(|r| {
        let shown = values.report(&r);
        render_row(
            &mut pending,
            &shown,
            by_value.then_some((&r, values)),
            width,
        );
        if let Some(p) = who(&r) {
            pending.push_str(&provenance::block(&p, "  "));
        }
        if pending.len() >= 1 << 16 {
            io.out.write_all(pending.as_bytes())?;
            pending.clear();
        }
        Ok::<_, CliError>(())
    })?;
    io.out.write_all(pending.as_bytes())?;
    Ok(())
}
