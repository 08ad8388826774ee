//! `hook`'s results as text: the hooks directory first, then one line per
//! hook (`NAME: WHAT PATH`), each path and reason escaped whole; and the
//! notice `hook run` prints after a pull, checkout or rebase.

use crate::cli::Io;
use crate::cli::hook_outcome::{Hook, HooksStatus, InstallPlan, Notice, Removal};
use crate::cli::terminal::Values;
use crate::core::revision::hooks::{HookState, HooksDir, InstallStep, Removed, hook_line};

fn where_line(d: &HooksDir, io: &mut Io<'_>) -> std::io::Result<()> {
    let why = if d.from_hooks_path {
        " (core.hooksPath)"
    } else {
        ""
    };
    let line = format!("hooks directory: {}{why}", d.dir);
    writeln!(io.out, "{}", Values.text(&line))
}

/// `install`'s plan: where the hooks are written (before anything is),
/// and each hook that cannot take the notice, with the line to add to it.
pub fn plan(p: &InstallPlan, io: &mut Io<'_>) -> std::io::Result<()> {
    where_line(&p.dir, io)?;
    for (h, why) in p.refused() {
        writeln!(
            io.out,
            "{}: {} left as it is ({}); add this line to it:\n  {}",
            h.name,
            Values.text(&h.path),
            Values.text(why),
            hook_line(h.name).trim_end()
        )?;
    }
    Ok(())
}

/// What `install` wrote, hook by hook.
pub fn installed(done: &[Hook<InstallStep>], io: &mut Io<'_>) -> std::io::Result<()> {
    for h in done {
        let what = match h.what {
            InstallStep::Create => "created",
            InstallStep::Append => "added to",
            InstallStep::ByHand => "run by a line of its own in",
            _ => "already in",
        };
        line(h, what, io)?;
    }
    Ok(())
}

pub fn removal(r: &Removal, io: &mut Io<'_>) -> std::io::Result<()> {
    where_line(&r.dir, io)?;
    for h in &r.hooks {
        let what = match h.what {
            Removed::Block => "removed from",
            Removed::File => "removed (install created it):",
            Removed::NotInstalled => "not in",
            Removed::Edited => "edited since install, left as it is in",
        };
        line(h, what, io)?;
    }
    Ok(())
}

pub fn status(s: &HooksStatus, io: &mut Io<'_>) -> std::io::Result<()> {
    where_line(&s.dir, io)?;
    for h in &s.hooks {
        let state = match &h.what {
            HookState::Installed => "installed".to_string(),
            HookState::ByHand => "installed (by a line of its own)".to_string(),
            HookState::Absent => "not installed (no hook)".to_string(),
            HookState::Without => "not installed (another hook)".to_string(),
            HookState::Unusable(why) => format!("cannot be read: {why}"),
        };
        line(h, &state, io)?;
    }
    Ok(())
}

/// `NAME: WHAT PATH`.
fn line<T>(h: &Hook<T>, what: &str, io: &mut Io<'_>) -> std::io::Result<()> {
    writeln!(
        io.out,
        "{}: {} {}",
        h.name,
        Values.text(what),
        Values.text(&h.path)
    )
}

/// `hook run`: the notice line on stdout, or why there is none on stderr.
pub fn notice(n: &Notice, io: &mut Io<'_>) -> std::io::Result<()> {
    match n {
        Notice::Nothing => {}
        Notice::NotRepository(e) => {
            io.warn(format_args!("goccia-trust hook: not in a repository ({e})"))
        }
        Notice::Checked(f) => {
            for w in &f.store_warnings {
                io.warn(w);
            }
            if let Some(line) = f.tally().line() {
                writeln!(io.out, "{line}")?;
            }
        }
        Notice::Failed(why) => io.warn(format_args!(
            "goccia-trust hook: the trust check failed: {why}"
        )),
        Notice::Skipped(limit) => writeln!(
            io.out,
            "goccia: trust check skipped after {} ms (run goccia-trust status --tree)",
            limit.as_millis()
        )?,
    }
    Ok(())
}
