//! The live demo (issue 13): a tree and a store that start in the
//! interesting state, written from the committed template
//! `examples/demo/` on each run. `cargo run --features demo --bin goccia-trust-demo` builds it in
//! `target/demo/` and opens the review on it; the screenshots and the tmux
//! tests build the same demo.
//!
//! What is built (in `dir`, by [`build`]):
//!
//! ```text
//! dir/tree/          the tree under review (a repository of its own: tree/.git)
//! dir/store/         the trust store's directory, mode 0700, outside the tree
//! dir/state/         goccia-trust's state directory (GOCCIA_TRUST_STATE_DIR), 0700
//! dir/policy.json    the policy the review is judged by (--policy), outside the tree
//! dir/outside/cache  where tree/deps/cache leads: out of the tree
//! ```
//!
//! Keys in a store are absolute paths, so the store is never committed: the
//! real `trust --yes` (the command line, run in-process) records
//! `tree/goccia.json`, `tree/app/goccia.json` and `tree/gone/goccia.json` as
//! they are in the template, then the files of `examples/demo/changes/` are
//! written over the tree, `tree/app/assets` is re-pointed from `assets-v1`
//! to `assets-v2`, and `tree/gone/` is deleted. Symlinks are made here, not
//! committed (some checkouts drop them).
//!
//! Only compiled with the `test-support` feature: it is not part of the
//! product.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::cli::io::Io;
use crate::cli::terminal::{Escaping, SafeWriter};
use crate::core::env::Env;

/// The committed template.
pub const TEMPLATE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/demo");

/// Written in every demo directory: [`build`] only ever deletes a
/// directory that holds it.
const MARKER: &str = ".goccia-trust-demo";

/// The configs trusted as the template has them, before the changes.
const TRUSTED: [&str; 3] = [
    "tree/goccia.json",
    "tree/app/goccia.json",
    "tree/gone/goccia.json",
];

/// A built demo. Its command line is relative to [`Demo::dir`], so what it
/// shows (and the screenshots) carries no machine path.
#[derive(Debug, Clone)]
pub struct Demo {
    /// The demo directory, absolute, links resolved: the working directory
    /// of the review.
    pub dir: PathBuf,
}

impl Demo {
    /// The tree under review, as given on the command line.
    pub const TREE: &'static str = "tree";
    /// `--trust-store=` value.
    pub const STORE: &'static str = "store/trust.json";
    /// The state directory (`GOCCIA_TRUST_STATE_DIR`).
    pub const STATE: &'static str = "state";
    /// `--policy` value.
    pub const POLICY: &'static str = "policy.json";

    /// The arguments of the review, run in [`Demo::dir`]:
    /// `--trust-store=store/trust.json --policy policy.json tree`.
    pub fn args(&self) -> Vec<String> {
        vec![
            format!("--trust-store={}", Demo::STORE),
            "--policy".into(),
            Demo::POLICY.into(),
            Demo::TREE.into(),
        ]
    }

    /// `base` (the process environment) working in the demo directory,
    /// with the demo's own state directory.
    pub fn env(&self, base: &Env) -> Env {
        let mut env = base.clone();
        env.cwd = self.dir.to_string_lossy().into_owned();
        env.state_dir = self.dir.join(Demo::STATE).to_string_lossy().into_owned();
        env
    }
}

/// A problem building the demo, naming the path.
fn fail(what: &str, path: &Path, e: impl std::fmt::Display) -> String {
    format!("cannot {what} {}: {e}", path.display())
}

/// Writes the demo into `dir` from [`TEMPLATE`] (replacing a demo already
/// there, and refusing any other existing directory) and records its store.
/// `base` supplies HOME and the rest of the environment.
pub fn build(dir: &Path, base: &Env) -> Result<Demo, String> {
    build_from(Path::new(TEMPLATE), dir, base)
}

/// [`build`] from another template directory.
pub fn build_from(template: &Path, dir: &Path, base: &Env) -> Result<Demo, String> {
    if std::fs::symlink_metadata(dir).is_ok() {
        if !dir.join(MARKER).is_file() {
            return Err(format!(
                "{} exists and is not a goccia-trust demo ({MARKER} missing); remove it or choose another directory",
                dir.display()
            ));
        }
        std::fs::remove_dir_all(dir).map_err(|e| fail("remove", dir, e))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| fail("create", dir, e))?;
    let dir = dir.canonicalize().map_err(|e| fail("resolve", dir, e))?;
    std::fs::write(
        dir.join(MARKER),
        "Written by goccia-trust's demo (src/demo.rs); rewritten on each run.\n",
    )
    .map_err(|e| fail("write", &dir.join(MARKER), e))?;
    let demo = Demo { dir: dir.clone() };

    copy_tree(&template.join("tree"), &dir.join("tree"))?;
    copy_tree(&template.join("outside"), &dir.join("outside"))?;
    let policy = dir.join(Demo::POLICY);
    std::fs::copy(template.join("policy.json"), &policy)
        .map_err(|e| fail("copy the policy to", &policy, e))?;
    set_mode(&policy, 0o644)?;
    // tree/ is a repository of its own, as a cloned project is: the tree
    // under review is tree/, not the checkout holding target/demo, so the
    // store and the policy beside it are outside it.
    mkdir(&dir.join("tree/.git"), 0o755)?;
    mkdir(&dir.join("store"), 0o700)?;
    mkdir(&dir.join(Demo::STATE), 0o700)?;
    symlink("assets-v1", &dir.join("tree/app/assets"))?;
    symlink("../../outside/cache", &dir.join("tree/deps/cache"))?;

    // Trusted as it was, by the real trust command.
    let env = demo.env(base);
    let mut args = vec![format!("--trust-store={}", Demo::STORE), "trust".into()];
    args.extend(TRUSTED.iter().map(|s| s.to_string()));
    args.push("--yes".into());
    run_cli(args, &env)?;

    // Then changed on disk.
    copy_tree(&template.join("changes"), &dir.join("tree"))?;
    let assets = dir.join("tree/app/assets");
    std::fs::remove_file(&assets).map_err(|e| fail("remove", &assets, e))?;
    symlink("assets-v2", &assets)?;
    let gone = dir.join("tree/gone");
    std::fs::remove_dir_all(&gone).map_err(|e| fail("remove", &gone, e))?;
    Ok(demo)
}

/// Runs one command line in-process; its output is kept and returned in
/// the error when it fails.
fn run_cli(args: Vec<String>, env: &Env) -> Result<(), String> {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let escaping = Escaping::new(false, false);
    let shown = args.join(" ");
    let code = {
        let mut o = SafeWriter::stdout(&mut out, &escaping, None);
        let mut e = SafeWriter::stderr(&mut err, None);
        let mut io = Io {
            out: &mut o,
            err: &mut e,
            escaping: &escaping,
        };
        crate::cli::app::run(args, env, &mut io)
    };
    if code == 0 {
        return Ok(());
    }
    let _ = err.flush();
    Err(format!(
        "goccia-trust {shown} (in {}) failed with exit {code}:\n{}{}",
        env.cwd,
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&err)
    ))
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| fail("set the mode of", path, e))
}

/// Windows has no mode bits: the demo's directories keep their ACLs.
#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> Result<(), String> {
    Ok(())
}

fn mkdir(path: &Path, mode: u32) -> Result<(), String> {
    std::fs::create_dir_all(path).map_err(|e| fail("create", path, e))?;
    set_mode(path, mode)
}

fn symlink(target: &str, link: &Path) -> Result<(), String> {
    #[cfg(unix)]
    let made = std::os::unix::fs::symlink(target, link);
    // The demo's links lead to directories.
    #[cfg(windows)]
    let made = std::os::windows::fs::symlink_dir(target, link);
    made.map_err(|e| fail("create the link", link, e))
}

/// Copies the regular files and directories of `from` into `to`
/// (overwriting files); `.keep` files only make a directory exist.
fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    mkdir(to, 0o755)?;
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .map_err(|e| fail("read the template directory", from, e))?
        .collect::<Result<_, _>>()
        .map_err(|e| fail("read the template directory", from, e))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry
            .file_type()
            .map_err(|e| fail("read the template file", &src, e))?;
        if kind.is_dir() {
            copy_tree(&src, &dst)?;
        } else if kind.is_file() {
            if entry.file_name() != ".keep" {
                std::fs::copy(&src, &dst).map_err(|e| fail("copy", &src, e))?;
                set_mode(&dst, 0o644)?;
            }
        } else {
            return Err(format!(
                "{}: the template holds only files and directories (links are made by src/demo.rs)",
                src.display()
            ));
        }
    }
    Ok(())
}
