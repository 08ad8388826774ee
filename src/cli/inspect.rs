//! `inspect CONFIG [--json]`: everything GocciaScript computes for one
//! config, and what the store holds for it.
//!
//! [`decide`] loads the config and compares it with the store, printing
//! nothing, into an `InspectOutcome` (`cli::outcome::inspect`); the
//! printers of `cli::print::{text,json}::inspect` render its
//! [`InspectResult`].

use crate::cli::args::InspectArgs;
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::load::StoreView;
use crate::cli::outcome::inspect::InspectOutcome;
use crate::cli::print;
use crate::core::env::Env;
use crate::core::paths::expand_file_name;
use crate::core::paths::key::{TrustKey, trust_key_for_path};
use crate::core::review::check::governing_config;
use crate::core::review::discover::shadowed_by;
use crate::core::review::report::{ConfigState, moved_targets};
use crate::core::review::results::InspectResult;
use crate::core::review::status::compare;
use crate::core::review::value_diff::{block_values, diff_values};
use crate::core::revision::provenance::Trusted;
use crate::core::revision::review_provenance::{Provenance, of_changes};

pub fn run(ctx: &mut Ctx<'_, '_>, args: &InspectArgs) -> CliResult {
    let outcome = decide(ctx, args)?;
    let (env, io) = (ctx.env, &mut *ctx.io);
    let (result, provenance) = (&outcome.result, outcome.provenance.as_ref());
    let reviews = outcome.reviews.as_ref();
    if args.json {
        print::json::inspect::print(result, provenance, reviews, env, io)?;
    } else {
        print::text::inspect::print(result, provenance, io)?;
        if let Some(r) = reviews {
            print::text::review::one_config(r, io.out)?;
        }
    }
    Ok(outcome.exit_code())
}

/// Who changed what, for a changed config only: git is read for nothing
/// else.
fn provenance_of(result: &InspectResult, env: &Env) -> Option<Provenance> {
    let (stored, values) = (result.stored.as_ref()?, result.changes.as_ref()?);
    let trusted = Trusted::of(stored);
    Some(of_changes(&result.snapshot.files, &trusted, values, env))
}

/// Loads the config, compares it with the store and, when it changed,
/// reads who changed what, printing nothing.
pub fn decide(ctx: &Ctx<'_, '_>, args: &InspectArgs) -> Result<InspectOutcome, CliError> {
    let (g, env) = (ctx.globals, ctx.env);
    let key = config_key(&args.config, env)?;
    let snapshot = match crate::core::config::load_config(&key, env) {
        Ok(s) => s,
        Err(e) => return Err(CliError::new(e.class.code(), &e)),
    };
    let view = StoreView::read(
        g.trust_store.as_deref(),
        std::slice::from_ref(&args.config),
        env,
    );
    let store_warnings = view.warnings();
    let (store, _, store_error) = view.or_empty();
    let stored = store.get(key.as_str()).cloned();
    let comparison = compare(&snapshot, stored.as_ref());
    let changes = match &stored {
        Some(s) if comparison.state == ConfigState::Changed => Some(diff_values(
            &block_values(&s.block),
            &block_values(snapshot.block.json()),
            &snapshot.targets.to_pairs(),
            &moved_targets(&comparison.lines),
        )),
        _ => None,
    };
    let result = InspectResult {
        shadowed: shadowed_by(key.as_str()),
        key,
        snapshot,
        stored,
        comparison,
        changes,
        store_error,
        store_warnings,
    };
    let provenance = provenance_of(&result, env);
    let store_dir = crate::core::store::locate_store(g.trust_store.as_deref(), env)
        .ok()
        .map(|loc| loc.dir().to_path_buf());
    let reviews = crate::cli::review::of_config(
        &result.snapshot,
        args.reviewed_by.as_deref(),
        store_dir.as_deref(),
        env,
    )?;
    Ok(InspectOutcome {
        result,
        provenance,
        reviews,
    })
}

/// The config `config` names: a directory stands for the config that
/// governs the files in it; any other file is read as a config, and
/// refused there if it is not a regular file.
fn config_key(config: &str, env: &Env) -> Result<TrustKey, CliError> {
    let expanded = expand_file_name(config, &env.cwd, &env.home);
    match crate::core::paths::input::check_input(&expanded) {
        Err(_) => Err(CliError::failed(format!("config file not found: {config}"))),
        Ok(kind) if kind.is_dir() => governing_config(config, env).ok_or_else(|| {
            CliError::failed(format!("{config} is a directory; no config governs it"))
        }),
        Ok(_) => Ok(trust_key_for_path(config, env)),
    }
}
