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
use crate::cli::review::Judged;
use crate::core::revision::reviews::read_reviews_at;
use crate::core::revision::{
    Snapshot, note_links_over, read_revision, read_working_tree, repository_root,
};
use crate::core::store::locate_store;

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
    /// The allowed_signers file whose keys count for the signed reviews
    /// at HEAD (default `allowed_signers` in the store's directory, when
    /// it exists); without one a good signature is only `unchecked`.
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub reviewed_by: Option<String>,
    /// Public keys whose reviews no longer count, one a line.
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub revoked: Option<String>,
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
    for w in result.reviews.iter().flat_map(|r| &r.warnings) {
        io.warn(w);
    }
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
    let mut result = DiffResult::of(&sides, args.all, args.exit_zero, env);
    reviews_at_head(ctx, args, &head, &mut result)?;
    Ok(result)
}

/// HEAD's signed reviews, when HEAD is a revision whose tree holds a
/// reviews file: read from its objects, judged by the allowed signers
/// (`--reviewed-by`, else the store directory's `allowed_signers`).
/// `--reviewed-by` or `--revoked` is checked even without a reviews file,
/// and refused for the working tree (its reviews are not a commit's).
fn reviews_at_head(
    ctx: &Ctx<'_, '_>,
    args: &DiffArgs,
    head: &Snapshot,
    result: &mut DiffResult,
) -> Result<(), CliError> {
    let explicit = args.reviewed_by.is_some() || args.revoked.is_some();
    if args.head.is_none() {
        if explicit {
            return Err(CliError::usage(
                "--reviewed-by and --revoked need HEAD: reviews are read from a commit",
            ));
        }
        return Ok(());
    }
    let Some(entry) = head.reviews.as_ref() else {
        if explicit {
            load_judged(ctx, args, &result.root)?;
        }
        return Ok(());
    };
    let judged = load_judged(ctx, args, &result.root)?;
    let file = read_reviews_at(&result.root, entry);
    let allowed = judged
        .signers
        .as_ref()
        .map(|s| (s.file.clone(), s.sha256.clone()));
    result.judge_reviews(head, file, allowed, &judged.judge());
    if let (Some(r), Some(s)) = (result.reviews.as_mut(), &judged.signers) {
        r.warnings = s.warnings.clone();
    }
    Ok(())
}

fn load_judged(ctx: &Ctx<'_, '_>, args: &DiffArgs, root: &str) -> Result<Judged, CliError> {
    let default = || {
        let store = locate_store(ctx.globals.trust_store.as_deref(), ctx.env).ok()?;
        let file = store.dir().join("allowed_signers");
        file.is_file().then(|| file.to_string_lossy().into_owned())
    };
    let signers = args.reviewed_by.clone().or_else(default);
    let paths = [root.to_string()];
    Judged::load(signers.as_deref(), args.revoked.as_deref(), &paths, ctx.env)
}
