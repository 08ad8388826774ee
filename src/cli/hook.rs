//! `hook install | uninstall | status`: git hooks that print a notice after
//! a pull, checkout or rebase leaves a config changed since it was trusted,
//! or never trusted (`status --tree` of the repository). Installing them is
//! the user's own act. The hooks never block, trust nor prompt: `hook run`
//! (what they call) always exits 0, and gives up with a line saying so when
//! the check takes longer than its time limit.
//!
//! Each action decides a typed result (`cli::hook_outcome`) with no output
//! on the way (for `install`: a plan, then what was written), which
//! `cli::print::text::hook` renders.

use crate::cli::hook_outcome::{HooksStatus, InstallPlan, Removal, notice};
use crate::cli::print::text::hook as printer;
use crate::cli::{CliError, CliResult, Io};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::revision::hooks::{HooksDir, Removed, hooks_dir};

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
        HookAction::Status => {
            let status = HooksStatus::read(dir_of(env)?);
            printer::status(&status, io)?;
            Ok(exit::SUCCESS)
        }
        HookAction::Run { name, args } => {
            printer::notice(&notice(trust_store, name, args, env), io)?;
            Ok(exit::SUCCESS)
        }
    }
}

fn dir_of(env: &Env) -> Result<HooksDir, CliError> {
    hooks_dir(&env.cwd, env)
        .map_err(|e| CliError::failed(format!("cannot find this repository's hooks: {e}")))
}

/// Plan, print the plan (the directory, and any refusal), write, print
/// what was written.
fn install(env: &Env, io: &mut Io<'_>) -> CliResult {
    let plan = InstallPlan::new(dir_of(env)?);
    printer::plan(&plan, io)?;
    let refused = plan.refused().len();
    if refused > 0 {
        return Err(CliError::failed(format!(
            "{refused} hook(s) cannot take the notice; nothing was written"
        )));
    }
    let (done, failed) = plan.apply();
    printer::installed(&plan.steps[..done], io)?;
    match failed {
        Some(e) => Err(e),
        None => Ok(exit::SUCCESS),
    }
}

fn remove(env: &Env, io: &mut Io<'_>) -> CliResult {
    let removal = Removal::run(dir_of(env)?);
    printer::removal(&removal, io)?;
    if let Some(e) = removal.failed {
        return Err(e);
    }
    let edited = removal.hooks.iter().any(|h| h.what == Removed::Edited);
    Ok(if edited { exit::FAILURE } else { exit::SUCCESS })
}
