//! What a command reads before it decides, with the warnings that go with
//! it: the store of a read-only command (empty when it cannot be read, as
//! GocciaScript treats it at run time) and the ignore list.

use crate::cli::args::GlobalArgs;
use crate::cli::{Io, issues_text, print_store_warnings, store_issues};
use crate::core::env::Env;
use crate::core::review::ignore::{IgnoreList, ignore_dir, load_ignores};
use crate::core::store::{Store, StoreLocation, locate_store, read_store};

/// The store for a read-only command: any problem is reported and the store
/// treated as empty, as GocciaScript does at run time. The location is absent
/// when no store can be located.
pub fn store_or_empty(g: &GlobalArgs, env: &Env) -> (Store, Option<StoreLocation>, Option<String>) {
    match locate_store(g.trust_store.as_deref(), env) {
        Err(e) => (Store::default(), None, Some(e.to_string())),
        Ok(loc) => match read_store(&loc.path) {
            Ok(store) => (store, Some(loc), None),
            Err(e) => (Store::default(), Some(loc), Some(e.to_string())),
        },
    }
}

/// [`store_or_empty`] and the store's warnings (who else could write it, a
/// `--trust-store` inside the `reviewed` trees), already printed as
/// `Warning: ` lines, for a JSON document's `storeWarnings`.
pub fn store_or_empty_warned(
    g: &GlobalArgs,
    reviewed: &[String],
    env: &Env,
    io: &mut Io<'_>,
) -> (Store, Option<StoreLocation>, Option<String>, Vec<String>) {
    let (store, loc, error) = store_or_empty(g, env);
    let warnings = loc
        .as_ref()
        .map(|l| issues_text(&store_issues(l, reviewed, env)))
        .unwrap_or_default();
    print_store_warnings(&warnings, io);
    (store, loc, error, warnings)
}

/// The ignore list (`ignore`), for a command that shows states or trusts
/// directories. A list that cannot be read or could have been written by
/// someone else is a `Warning: ` and ignores nothing (fail closed: it
/// never hides a config by accident).
pub fn ignores_warned(env: &Env, io: &mut Io<'_>) -> IgnoreList {
    let Some(dir) = ignore_dir(env) else {
        return IgnoreList::default();
    };
    let (list, problem) = load_ignores(&dir);
    if let Some(problem) = problem {
        io.warn(problem);
    }
    list
}
