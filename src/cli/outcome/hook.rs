//! `hook`'s results: what each hook is (`status`), will be (`install`'s
//! plan) or became (`install`, `uninstall`), and the notice `hook run`
//! gives; decided with no output, below both `cli::hook` and
//! `cli::print`.

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::Duration;

use crate::cli::error::CliError;
use crate::cli::outcome::status::{StatusFindings, findings};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::revision::hooks::{
    HOOK_NAMES, HookOptions, HookState, HooksDir, InstallStep, Removed, apply, hook_path,
    hook_state, install_step, uninstall,
};
use crate::core::revision::range::{changed_paths, is_null_id};

/// One hook of the directory and what it is, will be or became.
#[derive(Debug, Clone)]
pub struct Hook<T> {
    /// `post-merge`, `post-checkout` or `post-rewrite`.
    pub name: &'static str,
    pub path: String,
    pub what: T,
}

fn each<T>(d: &HooksDir, what: impl Fn(&str) -> T) -> Vec<Hook<T>> {
    HOOK_NAMES
        .iter()
        .map(|n| Hook {
            name: n,
            path: hook_path(&d.dir, n),
            what: what(n),
        })
        .collect()
}

/// `hook install`'s plan: every hook judged before any is written. The
/// hooks that can take the block get it; the others (not a shell script,
/// owned by a hook manager) are left as they are, with what to add.
pub struct InstallPlan {
    pub dir: HooksDir,
    /// The store and state directory the hooks will read.
    pub options: HookOptions,
    pub steps: Vec<Hook<InstallStep>>,
}

impl InstallPlan {
    pub fn new(dir: HooksDir, options: HookOptions) -> InstallPlan {
        let steps = each(&dir, |n| install_step(&dir.dir, n, &options));
        InstallPlan {
            dir,
            options,
            steps,
        }
    }

    /// The hooks left for the user: refused (with why) or owned by a hook
    /// manager.
    pub fn left(&self) -> Vec<&Hook<InstallStep>> {
        self.steps
            .iter()
            .filter(|h| matches!(h.what, InstallStep::Refuse(_) | InstallStep::Managed(_)))
            .collect()
    }

    /// Carries out the steps in order, up to the first that fails; returns
    /// how many were carried out, and the failure.
    pub fn apply(&self) -> (usize, Option<CliError>) {
        for (i, h) in self.steps.iter().enumerate() {
            if let Err(e) = apply(&self.dir.dir, h.name, &h.what, &self.options) {
                let e = CliError::failed(format!("cannot write {}: {e}", h.path));
                return (i, Some(e));
            }
        }
        (self.steps.len(), None)
    }
}

/// `hook uninstall`'s result: what became of each hook, up to one that
/// could not be changed.
pub struct Removal {
    pub dir: HooksDir,
    pub hooks: Vec<Hook<Removed>>,
    pub failed: Option<CliError>,
}

impl Removal {
    pub fn run(dir: HooksDir) -> Removal {
        let mut hooks = Vec::new();
        for n in HOOK_NAMES {
            let path = hook_path(&dir.dir, n);
            match uninstall(&dir.dir, n) {
                Ok(what) => hooks.push(Hook {
                    name: n,
                    path,
                    what,
                }),
                Err(e) => {
                    let failed = CliError::failed(format!("cannot change {path}: {e}"));
                    return Removal {
                        dir,
                        hooks,
                        failed: Some(failed),
                    };
                }
            }
        }
        Removal {
            dir,
            hooks,
            failed: None,
        }
    }

    /// 1 when a hook's block was edited since `install` and is left for
    /// the user to remove, else 0; a hook that could not be changed is the command's
    /// error (`failed`).
    pub fn exit_code(&self) -> u8 {
        let edited = self.hooks.iter().any(|h| h.what == Removed::Edited);
        if edited { exit::FAILURE } else { exit::SUCCESS }
    }
}

/// `hook status`'s result: where the hooks are and what each is.
pub struct HooksStatus {
    pub dir: HooksDir,
    pub hooks: Vec<Hook<HookState>>,
}

impl HooksStatus {
    pub fn read(dir: HooksDir, options: &HookOptions) -> HooksStatus {
        let hooks = each(&dir, |n| hook_state(&dir.dir, n, options));
        HooksStatus { dir, hooks }
    }
}

/// How long the hooks' check may take: `GOCCIA_TRUST_HOOK_TIME_LIMIT_MS`,
/// else one second.
fn time_limit() -> Duration {
    crate::core::env::GOCCIA_TRUST_HOOK_TIME_LIMIT_MS
        .read()
        .parse::<u64>()
        .ok()
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(1))
}

/// `hook run`'s result: what the hook has to say. The hook exits 0
/// whatever it is.
pub enum Notice {
    /// Nothing to check: a checkout of files, or of the same commit.
    Nothing,
    /// Not in a repository: why.
    NotRepository(String),
    /// The check ran: `status --tree` of the repository, and what the
    /// operation changed when that could be read.
    Checked(Box<StatusFindings>, Option<Changes>),
    /// The check failed: why.
    Failed(String),
    /// The check took longer than the time limit and was given up.
    Skipped(Duration),
}

/// What the operation the hook runs after changed.
pub struct Changes {
    /// `this checkout`, `this merge`, `this rebase`, `this amend`.
    pub what: &'static str,
    /// Absolute paths it changed, each with whether it added them.
    pub paths: HashMap<String, bool>,
}

/// The commits before and after the operation, as git tells the hook:
/// post-checkout's first two arguments, `ORIG_HEAD` after a merge or a
/// rebase, the first rewritten commit (on stdin) after an amend. `None`
/// for a clone (no commit before) or when it cannot be told.
fn range_of(name: &str, args: &[String]) -> Option<(&'static str, String, String)> {
    let head = || "HEAD".to_string();
    match name {
        "post-checkout" => {
            let (old, new) = (args.first()?, args.get(1)?);
            (!is_null_id(old)).then(|| ("this checkout", old.clone(), new.clone()))
        }
        "post-merge" => Some(("this merge", "ORIG_HEAD".into(), head())),
        "post-rewrite" if args.first().is_some_and(|a| a == "amend") => {
            use std::io::Read;
            let mut text = String::new();
            std::io::stdin()
                .take(1 << 20)
                .read_to_string(&mut text)
                .ok()?;
            let old = text.split_whitespace().next()?.to_string();
            Some(("this amend", old, head()))
        }
        "post-rewrite" => Some(("this rebase", "ORIG_HEAD".into(), head())),
        _ => None,
    }
}

/// The hooks' notice: `status --tree` of the repository and what the
/// operation changed, within the time limit. It informs and never fails a
/// pull.
pub fn notice(trust_store: Option<&str>, name: &str, args: &[String], env: &Env) -> Notice {
    // post-checkout's third argument is 0 for a checkout of files, and
    // the same commit before and after changes nothing.
    if name == "post-checkout"
        && (args.get(2).is_some_and(|f| f == "0") || args.first() == args.get(1) && args.len() >= 2)
    {
        return Notice::Nothing;
    }
    let root = match crate::core::revision::git::toplevel(&env.cwd) {
        Ok(root) => root,
        Err(e) => return Notice::NotRepository(e.to_string()),
    };
    let range = range_of(name, args);
    let (send, recv) = mpsc::channel();
    let (store2, env2) = (trust_store.map(str::to_string), env.clone());
    // The check runs apart so the hook can give up on it: the process
    // ends when the hook does, and the check only reads.
    std::thread::spawn(move || {
        let changes = range.and_then(|(what, old, new)| {
            let paths = changed_paths(&root, &old, &new).ok()?;
            Some(Changes { what, paths })
        });
        let found = findings(store2.as_deref(), &root, true, &env2);
        let _ = send.send(found.map(|f| (f, changes)));
    });
    let limit = time_limit();
    match recv.recv_timeout(limit) {
        Ok(Ok((f, changes))) => Notice::Checked(Box::new(f), changes),
        Ok(Err(CliError::Message { message, .. })) => Notice::Failed(message),
        Ok(Err(_)) => Notice::Failed("an error".to_string()),
        Err(_) => Notice::Skipped(limit),
    }
}
