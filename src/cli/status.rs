//! `status [PATH] [--tree] [--json]`: one line for a prompt or a script
//! when a config governing PATH (or, with `--tree`, any config of the tree)
//! would stop a GocciaScript run, nothing when none would. Reads only what
//! it must: the store once, the governing config and its extends chain, and
//! no walk without `--tree`. Never trusts, never prompts.

//!
//! [`decide`] computes one `StatusResult` (`cli::outcome::status`), which
//! `cli::print::{text,json}::status` render.

use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::outcome::status::{PromptLine, StatusResult, findings};
use crate::cli::print;
use crate::core::exit;

/// Say in one line whether the configs governing PATH (default `.`) are
/// trusted: nothing and exit 0 when each is trusted or needs no trust;
/// otherwise `goccia: 1 changed, 1 never trusted (run goccia-trust to
/// review)` and exit 1. For shell prompts and scripts.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct StatusArgs {
    /// A directory or file (default `.`): its nearest config, whose hash
    /// covers its extends chain.
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub path: Option<String>,
    /// Every config of the tree under PATH (the walk `scan` uses) instead
    /// of the one governing PATH.
    #[arg(long)]
    pub tree: bool,
    /// One JSON document (schema 1, `schemas/status.schema.json`).
    #[arg(long, conflicts_with = "prompt")]
    pub json: bool,
    /// For a shell prompt or a prompt framework (starship): the same line,
    /// nothing on stderr, and exit 0 whatever it says; gives up after the
    /// time limit (`GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS`, default 300) with
    /// `goccia: check took too long (run goccia-trust status --tree)`.
    #[arg(long)]
    pub prompt: bool,
}

/// Looks at the configs and says what to report; no output. The result
/// carries its exit code (`StatusResult::code`).
pub fn decide(ctx: &Ctx<'_, '_>, args: &StatusArgs) -> Result<StatusResult, CliError> {
    let (trust_store, env) = (ctx.globals.trust_store.as_deref(), ctx.env);
    let path = args.path.clone().unwrap_or_else(|| ".".to_string());
    let found = findings(trust_store, &path, args.tree, env)?;
    Ok(StatusResult::of(path, args.tree, found, env))
}

/// `trust_store`: `--trust-store=` as given.
pub fn run(ctx: &mut Ctx<'_, '_>, args: &StatusArgs) -> CliResult {
    if args.prompt {
        let trust_store = ctx.globals.trust_store.as_deref();
        let path = args.path.clone().unwrap_or_else(|| ".".to_string());
        let line = PromptLine::decide(trust_store, path, args.tree, ctx.env);
        print::text::status::prompt(&line, ctx.io)?;
        return Ok(exit::SUCCESS);
    }
    let result = decide(ctx, args)?;
    let io = &mut *ctx.io;
    if args.json {
        print::json::status::print(&result, io)?;
    } else {
        print::text::status::print(&result, io)?;
    }
    Ok(result.exit_code())
}
