//! `hook`'s results as text: the hooks directory first, then one line per
//! hook (`NAME: WHAT PATH`), each path and reason escaped whole; and the
//! notice `hook run` prints after a pull, checkout or rebase.

use crate::cli::io::Io;
use crate::cli::outcome::hook::{Changes, Hook, HooksStatus, InstallPlan, Notice, Removal};
use crate::cli::outcome::status::StatusFindings;
use crate::cli::terminal::Values;
use crate::core::review::notice::range_line;
use crate::core::revision::hooks::{
    HookState, HooksDir, InstallStep, Manager, Removed, hook_command, hook_line,
};

fn where_line(d: &HooksDir, io: &mut Io<'_>) -> std::io::Result<()> {
    let why = if d.from_hooks_path {
        " (core.hooksPath)"
    } else {
        ""
    };
    let line = format!("hooks directory: {}{why}", d.dir);
    writeln!(io.out, "{}", Values.text(&line))
}

/// `install`'s plan: where the hooks are written (before anything is).
pub fn plan(p: &InstallPlan, io: &mut Io<'_>) -> std::io::Result<()> {
    where_line(&p.dir, io)
}

/// What `install` wrote, hook by hook.
pub fn installed(done: &[Hook<InstallStep>], io: &mut Io<'_>) -> std::io::Result<()> {
    for h in done {
        let what = match h.what {
            InstallStep::Create => "created".to_string(),
            InstallStep::Append => "added to".to_string(),
            InstallStep::Insert { line, .. } => format!("added before the exit on line {line} of"),
            InstallStep::Replace => "updated in".to_string(),
            InstallStep::ByHand => "run by a line of its own in".to_string(),
            InstallStep::AlreadyInstalled => "already in".to_string(),
            InstallStep::Managed(_) | InstallStep::Refuse(_) => continue,
        };
        line(h, &what, io)?;
    }
    Ok(())
}

/// The hooks `install` left as they are, each with what to add where.
pub fn left(p: &InstallPlan, io: &mut Io<'_>) -> std::io::Result<()> {
    for h in p.left() {
        let (name, path) = (h.name, Values.text(&h.path));
        let add = hook_line(name, &p.options);
        let cmd = hook_command(name, &p.options);
        match &h.what {
            InstallStep::Refuse(why) => writeln!(
                io.out,
                "{name}: {path} left as it is ({}); add this line to it:\n  {}",
                Values.text(why),
                add.trim_end()
            )?,
            InstallStep::Managed(Manager::Husky) => {
                let own = format!("{}/{name}", parent(&p.dir.dir));
                writeln!(
                    io.out,
                    "{name}: {path} is husky's; add this line to {} (husky runs it):\n  {}",
                    Values.text(&own),
                    add.trim_end()
                )?
            }
            InstallStep::Managed(Manager::Lefthook) => writeln!(
                io.out,
                "{name}: {path} is lefthook's (lefthook install rewrites it); add to lefthook.yml:\n  {name}:\n    commands:\n      goccia-trust:\n        run: {cmd} {} || true",
                lefthook_args(name)
            )?,
            InstallStep::Managed(Manager::PreCommit) => writeln!(
                io.out,
                "{name}: {path} is pre-commit's (pre-commit install rewrites it); add to the repos of .pre-commit-config.yaml:\n  - repo: local\n    hooks:\n      - id: goccia-trust-{name}\n        name: goccia-trust notice\n        entry: sh -c '{} || true'\n        language: system\n        always_run: true\n        pass_filenames: false\n        verbose: true\n        stages: [{name}]",
                cmd.replace('\'', "'\"'\"'")
            )?,
            _ => {}
        }
    }
    Ok(())
}

/// The hook's arguments in lefthook's `run` templates.
fn lefthook_args(name: &str) -> &'static str {
    match name {
        "post-checkout" => "{1} {2} {3}",
        _ => "{1}",
    }
}

fn parent(dir: &str) -> &str {
    dir.rsplit_once('/').map_or(dir, |(p, _)| p)
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
            HookState::NotRun(why) => format!("not run ({why})"),
            HookState::Outdated => {
                "installed, outdated (it fails where goccia-trust is not on PATH; run hook install)"
                    .to_string()
            }
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

/// The hooks' line: the configs the operation made need review, by name;
/// everything `status --tree` would say when what it changed is unknown
/// (a clone) or the store or ignore list cannot be used (nothing is judged
/// then, so nothing can be left out).
fn notice_line(f: &StatusFindings, changes: Option<&Changes>) -> Option<String> {
    let t = f.tally();
    match changes {
        Some(c) if !(t.store_unreadable || t.store_unsafe || t.ignore_unusable) => {
            range_line(&f.reports, &c.paths, c.what)
        }
        _ => t.line(),
    }
}

/// `hook run`: the notice line on stdout, or why there is none on stderr.
pub fn notice(n: &Notice, io: &mut Io<'_>) -> std::io::Result<()> {
    match n {
        Notice::Nothing => {}
        Notice::NotRepository(e) => {
            io.warn(format_args!("goccia-trust hook: not in a repository ({e})"))
        }
        Notice::Checked(f, changes) => {
            for w in &f.store_warnings {
                io.warn(w);
            }
            if let Some(line) = notice_line(f, changes.as_ref()) {
                writeln!(io.out, "{}", Values.text(&line))?;
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
