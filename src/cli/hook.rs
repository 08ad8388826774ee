//! `hook install | uninstall | status`: git hooks that print a notice after
//! a pull, checkout or rebase leaves a config changed since it was trusted,
//! or never trusted (`status --tree` of the repository). Installing them is
//! the user's own act. The hooks never block, trust nor prompt: `hook run`
//! (what they call) always exits 0, and gives up with a line saying so when
//! the check takes longer than its time limit.
//!
//! Each action decides a typed result (`cli::outcome::hook`) with no output
//! on the way (for `install`: a plan, then what was written), which
//! `cli::print::text::hook` renders.

use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::io::Io;
use crate::cli::outcome::hook::{HooksStatus, InstallPlan, Removal, notice};
use crate::cli::print::text::hook as printer;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::policy::record::state_dir;
use crate::core::revision::hooks::{HookOptions, HooksDir, hooks_dir};
use crate::core::store::locate_store;

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
pub fn run(ctx: &mut Ctx<'_, '_>, args: &HookArgs) -> CliResult {
    let (env, io) = (ctx.env, &mut *ctx.io);
    let trust_store = ctx.globals.trust_store.as_deref();
    match &args.action {
        HookAction::Install => install(trust_store, env, io),
        HookAction::Uninstall => remove(env, io),
        HookAction::Status => {
            let status = HooksStatus::read(dir_of(env)?, &options(trust_store, env)?);
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

/// The store and state directory named for this run (`--trust-store`,
/// `GOCCIA_TRUST_STATE_DIR`), as absolute paths, for the hooks to read.
fn options(trust_store: Option<&str>, env: &Env) -> Result<HookOptions, CliError> {
    let store = match trust_store {
        Some(_) => Some(
            locate_store(trust_store, env)
                .map_err(CliError::failed)?
                .path,
        ),
        None => None,
    };
    let state_dir = match env.state_dir.is_empty() {
        true => None,
        false => Some(
            state_dir(None, env)
                .map_err(CliError::failed)?
                .to_string_lossy()
                .into_owned(),
        ),
    };
    Ok(HookOptions { store, state_dir })
}

/// Plan, print the plan (the directory), write what can be written, print
/// what was written and what is left to add by hand (exit 1 then).
fn install(trust_store: Option<&str>, env: &Env, io: &mut Io<'_>) -> CliResult {
    let plan = InstallPlan::new(dir_of(env)?, options(trust_store, env)?);
    printer::plan(&plan, io)?;
    let (done, failed) = plan.apply();
    printer::installed(&plan.steps[..done], io)?;
    if let Some(e) = failed {
        return Err(e);
    }
    printer::left(&plan, io)?;
    let left = plan.left().len();
    if left > 0 {
        return Err(CliError::failed(format!(
            "{left} hook(s) left as they are: add the line shown to each"
        )));
    }
    Ok(exit::SUCCESS)
}

fn remove(env: &Env, io: &mut Io<'_>) -> CliResult {
    let removal = Removal::run(dir_of(env)?);
    printer::removal(&removal, io)?;
    if let Some(e) = removal.failed {
        return Err(e);
    }
    Ok(removal.exit_code())
}
