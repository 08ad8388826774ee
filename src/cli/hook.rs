//! `hook install | uninstall | status`: git hooks that print a notice after
//! a pull, checkout or rebase leaves a config changed since it was trusted,
//! or never trusted (`status --tree` of the repository). Installing them is
//! the user's own act. The hooks never block, trust nor prompt: `hook run`
//! (what they call) always exits 0, and gives up with a line saying so when
//! the check takes longer than its time limit.

use std::sync::mpsc;
use std::time::Duration;

use crate::cli::status_outcome::findings;
use crate::cli::terminal::Values;
use crate::cli::{CliError, CliResult, Io};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::revision::hooks::{
    HOOK_NAMES, HookState, InstallStep, Removed, apply, hook_line, hook_path, hook_state,
    hooks_dir, install_step, uninstall,
};

/// Git hooks (post-merge, post-checkout, post-rewrite) that say when a
/// pull, checkout or rebase left a config to review.
#[derive(Debug, Clone, clap::Args)]
pub struct HookArgs {
    #[command(subcommand)]
    pub action: HookAction,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum HookAction {
    /// Add the notice to this repository's hooks (where `core.hooksPath`
    /// says, else `.git/hooks`): a block appended to an existing shell
    /// script, a new script otherwise; never overwrites a hook.
    Install,
    /// Remove exactly what `install` added; every other byte stays.
    Uninstall,
    /// Where the hooks are and whether each has the notice.
    Status,
    /// What the hooks run: the notice for hook NAME (always exits 0).
    #[command(hide = true)]
    Run {
        /// The hook: post-merge, post-checkout or post-rewrite.
        name: String,
        /// The hook's own arguments, as git gave them.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// `trust_store`: `--trust-store=` as given.
pub fn run(trust_store: Option<&str>, args: &HookArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    match &args.action {
        HookAction::Install => install(env, io),
        HookAction::Uninstall => remove(env, io),
        HookAction::Status => status(env, io),
        HookAction::Run { name, args } => notice(trust_store, name, args, env, io),
    }
}

fn dir_of(env: &Env) -> Result<crate::core::revision::hooks::HooksDir, CliError> {
    hooks_dir(&env.cwd, env)
        .map_err(|e| CliError::failed(format!("cannot find this repository's hooks: {e}")))
}

fn where_line(d: &crate::core::revision::hooks::HooksDir) -> String {
    let why = if d.from_hooks_path {
        " (core.hooksPath)"
    } else {
        ""
    };
    format!("hooks directory: {}{why}", d.dir)
}

fn install(env: &Env, io: &mut Io<'_>) -> CliResult {
    let d = dir_of(env)?;
    let v = Values;
    writeln!(io.out, "{}", v.text(&where_line(&d)))?;
    // Every hook is judged before any is written: a refusal writes nothing.
    let steps: Vec<(&str, InstallStep)> = HOOK_NAMES
        .iter()
        .map(|n| (*n, install_step(&d.dir, n)))
        .collect();
    let refused: Vec<_> = steps
        .iter()
        .filter_map(|(n, s)| match s {
            InstallStep::Refuse(why) => Some((*n, why)),
            _ => None,
        })
        .collect();
    if !refused.is_empty() {
        for (n, why) in &refused {
            let path = hook_path(&d.dir, n);
            writeln!(
                io.out,
                "{}: {} left as it is ({}); add this line to it:\n  {}",
                n,
                v.text(&path),
                v.text(why),
                hook_line(n).trim_end()
            )?;
        }
        return Err(CliError::failed(format!(
            "{} hook(s) cannot take the notice; nothing was written",
            refused.len()
        )));
    }
    for (n, step) in &steps {
        let path = hook_path(&d.dir, n);
        apply(&d.dir, n, step)
            .map_err(|e| CliError::failed(format!("cannot write {path}: {e}")))?;
        let what = match step {
            InstallStep::Create => "created",
            InstallStep::Append => "added to",
            InstallStep::ByHand => "run by a line of its own in",
            _ => "already in",
        };
        writeln!(io.out, "{n}: {what} {}", v.text(&path))?;
    }
    Ok(exit::SUCCESS)
}

fn remove(env: &Env, io: &mut Io<'_>) -> CliResult {
    let d = dir_of(env)?;
    let v = Values;
    writeln!(io.out, "{}", v.text(&where_line(&d)))?;
    let mut code = exit::SUCCESS;
    for n in HOOK_NAMES {
        let path = hook_path(&d.dir, n);
        let what = match uninstall(&d.dir, n) {
            Ok(Removed::Block) => "removed from",
            Ok(Removed::File) => "removed (install created it):",
            Ok(Removed::NotInstalled) => "not in",
            Ok(Removed::Edited) => {
                code = exit::FAILURE;
                "edited since install, left as it is in"
            }
            Err(e) => {
                return Err(CliError::failed(format!("cannot change {path}: {e}")));
            }
        };
        writeln!(io.out, "{n}: {what} {}", v.text(&path))?;
    }
    Ok(code)
}

fn status(env: &Env, io: &mut Io<'_>) -> CliResult {
    let d = dir_of(env)?;
    let v = Values;
    writeln!(io.out, "{}", v.text(&where_line(&d)))?;
    for n in HOOK_NAMES {
        let path = hook_path(&d.dir, n);
        let state = match hook_state(&d.dir, n) {
            HookState::Installed => "installed".to_string(),
            HookState::ByHand => "installed (by a line of its own)".to_string(),
            HookState::Absent => "not installed (no hook)".to_string(),
            HookState::Without => "not installed (another hook)".to_string(),
            HookState::Unusable(why) => format!("cannot be read: {why}"),
        };
        writeln!(io.out, "{n}: {} {}", v.text(&state), v.text(&path))?;
    }
    Ok(exit::SUCCESS)
}

/// How long the hooks' check may take: `GOCCIA_TRUST_HOOK_TIME_LIMIT_MS`,
/// else one second.
fn time_limit() -> Duration {
    std::env::var("GOCCIA_TRUST_HOOK_TIME_LIMIT_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(1))
}

/// The hooks' notice: `status --tree` of the repository, within the time
/// limit. Always exits 0: a hook informs, it never fails a pull.
fn notice(
    trust_store: Option<&str>,
    name: &str,
    args: &[String],
    env: &Env,
    io: &mut Io<'_>,
) -> CliResult {
    // post-checkout's third argument is 0 for a checkout of files, and
    // the same commit before and after changes nothing.
    if name == "post-checkout"
        && (args.get(2).is_some_and(|f| f == "0") || args.first() == args.get(1) && args.len() >= 2)
    {
        return Ok(exit::SUCCESS);
    }
    let root = match crate::core::revision::git::toplevel(&env.cwd) {
        Ok(root) => root,
        Err(e) => {
            io.warn(format_args!("goccia-trust hook: not in a repository ({e})"));
            return Ok(exit::SUCCESS);
        }
    };
    let (send, recv) = mpsc::channel();
    let (store2, env2, root2) = (trust_store.map(str::to_string), env.clone(), root.clone());
    // The check runs apart so the hook can give up on it: the process
    // ends when the hook does, and the check only reads.
    std::thread::spawn(move || {
        let _ = send.send(findings(store2.as_deref(), &root2, true, &env2));
    });
    let limit = time_limit();
    match recv.recv_timeout(limit) {
        Ok(Ok(f)) => {
            for w in &f.store_warnings {
                io.warn(w);
            }
            if let Some(line) = f.tally().line() {
                writeln!(io.out, "{line}")?;
            }
        }
        Ok(Err(e)) => {
            let why = match e {
                CliError::Message { message, .. } => message,
                _ => "an error".to_string(),
            };
            io.warn(format_args!(
                "goccia-trust hook: the trust check failed: {why}"
            ))
        }
        Err(_) => writeln!(
            io.out,
            "goccia: trust check skipped after {} ms (run goccia-trust status --tree)",
            limit.as_millis()
        )?,
    }
    Ok(exit::SUCCESS)
}
