//! `diff BASE [HEAD]`: the permission diff between two revisions of the
//! repository holding the working directory (HEAD: the working tree by
//! default), as text, JSON (`--json`), a pull-request comment
//! (`--format markdown`) or where CI looks (`--format sarif|github`: one
//! finding per widened, broken or narrowed config, on the line of the
//! request at HEAD, through `cli::ci_out`). Exit 1 when something widened or a config no
//! longer loads (`--exit-zero`: 0), 2 on a usage error (not a repository,
//! an unknown revision: git's message). Reads only; writes nothing. Each
//! value that widens by being added names the commit of `BASE..HEAD` that
//! introduced it (`core::revision::provenance`), or says why not; that
//! never changes the exit code.
//!
//! [`decide`] computes one [`DiffResult`] (`cli::outcome::diff`), the same
//! whatever the format; the printers (`cli::print::{text,json,markdown,ci}::diff`)
//! only render it.

use clap::{Args, ValueEnum};

use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::outcome::diff::{DiffResult, Sides};
use crate::cli::print;
use crate::core::revision::{note_links_over, read_revision, read_working_tree, repository_root};

/// The permission diff between two revisions (HEAD: the working tree).
#[derive(Debug, Clone, Default, Args)]
pub struct DiffArgs {
    /// The revision to compare against (`main`, `HEAD~1`, a commit).
    pub base: String,
    /// The revision to compare (default: the working tree).
    pub head: Option<String>,
    /// Print one JSON document (schema 1, `schemas/diff.schema.json`).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: Option<DiffFormat>,
    /// Also list the configs that did not change.
    #[arg(long)]
    pub all: bool,
    /// Exit 0 even when permissions widened (only report).
    #[arg(long = "exit-zero")]
    pub exit_zero: bool,
    /// Write the output to FILE instead of stdout: a new file (or one
    /// replacing a regular file), never written through a symbolic link;
    /// FILE is refused when it is a link or not a regular file.
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub output: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Markdown,
    /// SARIF 2.1.0 for code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
}

pub fn run(ctx: &mut Ctx<'_, '_>, args: &DiffArgs) -> CliResult {
    let result = decide(ctx, args)?;
    let io = &mut *ctx.io;
    match args.format {
        Some(f @ (DiffFormat::Sarif | DiffFormat::Github)) => {
            print::ci::diff::print(&result, f == DiffFormat::Github, io)?
        }
        _ if args.json => print::json::diff::print(&result, io)?,
        Some(DiffFormat::Markdown) => print::markdown::diff::print(&result, io)?,
        _ => print::text::diff::print(&result, io)?,
    }
    Ok(result.exit_code())
}

/// Reads both sides and compares them; no output. The result carries its
/// exit code (`DiffResult::code`).
pub fn decide(ctx: &Ctx<'_, '_>, args: &DiffArgs) -> Result<DiffResult, CliError> {
    let env = ctx.env;
    let root = repository_root(env).map_err(|e| CliError::usage(e.0))?;
    let base = read_revision(&root, &args.base, env).map_err(|e| CliError::usage(e.0))?;
    let head = match &args.head {
        Some(rev) => read_revision(&root, rev, env).map_err(|e| CliError::usage(e.0))?,
        None => {
            let mut head = read_working_tree(&root, env);
            note_links_over(&mut head, &root, base.configs.keys());
            head
        }
    };
    let sides = Sides {
        base: &base,
        head: &head,
        root: &root,
        working_tree: args.head.is_none(),
    };
    Ok(DiffResult::of(&sides, args.all, args.exit_zero, env))
}
