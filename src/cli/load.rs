//! What a command reads before it decides, with the warnings that go with
//! it: the store, read once into a [`StoreView`] that read-only commands
//! and writing commands share (a read-only command treats a store it
//! cannot read as empty, as GocciaScript does at run time; a writing one
//! refuses), and the ignore list.

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::core::env::Env;
use crate::core::review::ignore::{IgnoreList, ignore_dir, load_ignores};
use crate::core::store::{
    SafetyIssue, Store, StoreError, StoreLocation, StoreOnDemand, User, check_store, locate_store,
    read_store, refusal, store_in_reviewed_tree,
};

/// The store as one command sees it: where it is (or why it cannot be
/// located), what it holds (or why it cannot be read), and who else could
/// have written it.
pub struct StoreView<S = Store> {
    /// The location and the store read there; the error of locating it.
    pub located: Result<(StoreLocation, Result<S, StoreError>), StoreError>,
    /// Every ownership, mode and location issue of the located store (none
    /// when it cannot be located).
    pub issues: Vec<SafetyIssue>,
}

impl StoreView {
    /// Locates the store (`--trust-store` or the default), judges it for a
    /// command reviewing the `reviewed` paths (none for `list`) and reads
    /// it. Prints nothing: what goes wrong is kept for the command.
    pub fn read(trust_store: Option<&str>, reviewed: &[String], env: &Env) -> StoreView {
        StoreView::read_with(trust_store, reviewed, env, read_store)
    }
}

impl StoreView<StoreOnDemand> {
    /// [`StoreView::read`] of a store whose entries are read back from
    /// its file one at a time, as they are shown (`scan`).
    pub fn read_on_demand(
        trust_store: Option<&str>,
        reviewed: &[String],
        env: &Env,
    ) -> StoreView<StoreOnDemand> {
        StoreView::read_with(trust_store, reviewed, env, StoreOnDemand::read)
    }
}

impl<S: Default> StoreView<S> {
    fn read_with(
        trust_store: Option<&str>,
        reviewed: &[String],
        env: &Env,
        read: impl FnOnce(&str) -> Result<S, StoreError>,
    ) -> StoreView<S> {
        match locate_store(trust_store, env) {
            Err(e) => StoreView {
                located: Err(e),
                issues: Vec::new(),
            },
            Ok(loc) => {
                let issues = store_issues(&loc, reviewed, env);
                let store = read(&loc.path);
                StoreView {
                    located: Ok((loc, store)),
                    issues,
                }
            }
        }
    }

    /// The texts of the store's issues, as `storeWarnings` carries them.
    pub fn warnings(&self) -> Vec<String> {
        issues_text(&self.issues)
    }

    /// Whether an issue makes the store unsafe to write.
    pub fn is_unsafe(&self) -> bool {
        refusal(&self.issues).is_some()
    }

    /// The store for a read-only command: any problem is reported and the
    /// store treated as empty, as GocciaScript does at run time. The
    /// location is absent when no store can be located.
    pub fn or_empty(self) -> (S, Option<StoreLocation>, Option<String>) {
        match self.located {
            Err(e) => (S::default(), None, Some(e.to_string())),
            Ok((loc, Ok(store))) => (store, Some(loc), None),
            Ok((loc, Err(e))) => (S::default(), Some(loc), Some(e.to_string())),
        }
    }

    /// The store for a command that reads it and, when `writes`, will
    /// write it: a store, store directory or link destination someone else
    /// can write (or owns), or a `--trust-store` inside one of the reviewed
    /// trees, is refused with its fix (exit 1) before anything is listed,
    /// asked or written; a reader is warned (`Warning: ` lines on stderr).
    pub fn checked(self, writes: bool, io: &mut Io<'_>) -> Result<(StoreLocation, S), CliError> {
        let (loc, store) = self.located.map_err(CliError::failed)?;
        if writes && let Some(refused) = refusal(&self.issues) {
            return Err(CliError::failed(&refused.text));
        }
        print_store_warnings(&issues_text(&self.issues), io);
        let store = store.map_err(CliError::failed)?;
        Ok((loc, store))
    }
}

/// Every ownership, mode and location issue of the store at `loc`, for
/// commands reviewing the `reviewed` paths (none for `list`).
fn store_issues(loc: &StoreLocation, reviewed: &[String], env: &Env) -> Vec<SafetyIssue> {
    let mut issues = check_store(loc, &User::current());
    issues.extend(store_in_reviewed_tree(loc, reviewed, env));
    issues
}

/// The texts of `issues`, as `storeWarnings` carries them.
fn issues_text(issues: &[SafetyIssue]) -> Vec<String> {
    issues.iter().map(|i| i.text.clone()).collect()
}

/// Store warnings for a command that reads the store: one `Warning: ` line
/// each on stderr, on every run, since every `trusted` it prints is only as
/// good as the store.
pub fn print_store_warnings(warnings: &[String], io: &mut Io<'_>) {
    for w in warnings {
        io.warn(w);
    }
}

/// A failed store write or lock (exit 1).
pub fn store_failure(e: &StoreError) -> CliError {
    CliError::failed(e)
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
