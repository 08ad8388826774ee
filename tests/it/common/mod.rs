//! A fixed environment for driving the real binary: a temporary HOME and
//! working directory, no inherited variables, and outputs rendered as one
//! text (stdout, a `--- stderr ---` rule, stderr, the exit status) so a test
//! can compare all of it at once.
#![allow(dead_code)]

pub(crate) mod git;

use std::fmt;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::CommandCargoExt;

pub struct TestEnv {
    _dir: tempfile::TempDir,
    /// Canonical root of the temporary tree.
    pub root: PathBuf,
    pub home: PathBuf,
    pub work: PathBuf,
}

pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Output {
    /// The first line of stdout that holds `needle`; the test fails, showing
    /// the whole output, when none does.
    pub fn line_with(&self, needle: &str) -> String {
        self.stdout
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle}: {self}"))
            .to_string()
    }
}

impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.stdout)?;
        if !self.stderr.is_empty() {
            write!(f, "--- stderr ---\n{}", self.stderr)?;
        }
        write!(f, "[exit status: {}]", self.code)
    }
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let work = root.join("work");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        TestEnv {
            _dir: dir,
            root,
            home,
            work,
        }
    }

    /// The per-user store under this HOME.
    pub fn default_store(&self) -> PathBuf {
        self.home.join(".config/goccia/trust.json")
    }

    /// Writes a file under the working directory, creating its parents.
    pub fn write(&self, rel: &str, contents: &str) -> PathBuf {
        let path = self.work.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        path
    }

    pub fn mkdir(&self, rel: &str) -> PathBuf {
        let path = self.work.join(rel);
        std::fs::create_dir_all(&path).unwrap();
        path
    }

    #[cfg(unix)]
    pub fn symlink(&self, target: &str, link: &str) {
        let link = self.work.join(link);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, link).unwrap();
    }

    /// Replaces the root path by `$ROOT` so outputs compare across runs.
    pub fn redact(&self, s: &str) -> String {
        s.replace(self.root.to_str().unwrap(), "$ROOT")
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.run_in(&self.work, args, &[])
    }

    pub fn run_with_env(&self, args: &[&str], vars: &[(&str, &str)]) -> Output {
        self.run_in(&self.work, args, vars)
    }

    pub fn run_in(&self, cwd: &Path, args: &[&str], vars: &[(&str, &str)]) -> Output {
        let mut cmd = std::process::Command::cargo_bin("goccia-trust").unwrap();
        cmd.current_dir(cwd)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("GOCCIA_TRUST_STATE_DIR", self.root.join("state"))
            .stdin(std::process::Stdio::null())
            .args(args);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        Output {
            stdout: self.redact(&String::from_utf8_lossy(&out.stdout)),
            stderr: self.redact(&String::from_utf8_lossy(&out.stderr)),
            code: out.status.code().unwrap_or(-1),
        }
    }

    pub fn read_store(&self) -> String {
        self.redact(&std::fs::read_to_string(self.default_store()).unwrap())
    }
}

/// Replaces every `yyyy-mm-ddThh:mm:ssZ` timestamp by `<TS>`.
pub fn redact_timestamps(s: &str) -> String {
    let b = s.as_bytes();
    let shape = b"dddd-dd-ddTdd:dd:ddZ";
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let fits = b.len() - i >= shape.len()
            && shape.iter().zip(&b[i..]).all(|(p, c)| match p {
                b'd' => c.is_ascii_digit(),
                p => p == c,
            });
        if fits {
            out.push_str("<TS>");
            i += shape.len();
        } else {
            let ch = s[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Whether `tool` (run with `version_arg`) is installed. Missing, a test
/// that needs it fails under `CI=true` (CI installs it: `.ci/run`) and is
/// skipped with a message elsewhere, so CI never passes without asserting.
pub fn tool_available(tool: &str, version_arg: &str) -> bool {
    let ok = std::process::Command::new(tool)
        .arg(version_arg)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        skip_outside_ci(&format!("{tool} is not installed"));
    }
    ok
}

/// Whether the repository's own documents (the book in `docs/src/`,
/// ARCHITECTURE.md, CONTRIBUTING.md, `.ci/run`, the workflows) are here:
/// in a checkout they are, and a test reading them runs; the published
/// crate ships the code, its tests and what they run (Cargo.toml
/// `include`), not the book, so there such a test is skipped, saying so.
/// Anywhere else a missing book is an error.
pub fn in_checkout() -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if root.join("docs/src/SUMMARY.md").exists() {
        return true;
    }
    assert!(
        root.join(".cargo_vcs_info.json").exists(),
        "docs/src is missing from this checkout"
    );
    eprintln!(
        "skipped: the book (docs/src) and the repository's documents are not in the published crate; run this test from a checkout"
    );
    false
}

/// Skips with `why` outside CI; panics under `CI=true`, where every test
/// must really run.
pub fn skip_outside_ci(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{why}, and CI=true requires this test to run");
    }
    eprintln!("skipped: {why}");
}

/// Makes every directory from `dir` up to `/` searchable by others, so an
/// unprivileged user can reach the tree.
#[cfg(unix)]
pub fn open_up(dir: &Path) {
    let mut d = Some(dir);
    while let Some(p) = d {
        let mode = std::fs::metadata(p).unwrap().permissions().mode();
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode | 0o755)).unwrap();
        d = p.parent();
    }
}

/// Prepares `env` for [`run_unprivileged`]: every directory up to `/`
/// searchable, the given directories (relative to the root) open to all,
/// and the home (so the store's directory) owned by whoever runs the binary
/// and private, so the store's ownership checks stay quiet.
#[cfg(unix)]
pub fn open_for_unprivileged(env: &TestEnv, dirs: &[&str]) {
    open_up(&env.root);
    for sub in dirs {
        let p = env.root.join(sub);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::chown(&env.home, Some(65534), Some(65534)).unwrap();
    }
    std::fs::set_permissions(&env.home, std::fs::Permissions::from_mode(0o700)).unwrap();
}

/// Copies `rel` from the checkout into `given/` under the root, readable by
/// all, and returns its path: the file an unprivileged run may be given.
/// A contributor's checkout is often private (a home directory, a `mktemp
/// -d`), so `nobody` cannot read the original. Call after
/// [`open_for_unprivileged`], which opens the root.
#[cfg(unix)]
pub fn hand_to_unprivileged(env: &TestEnv, rel: &str) -> PathBuf {
    let dir = env.root.join("given");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let name = Path::new(rel).file_name().unwrap();
    let copy = dir.join(name);
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel), &copy).unwrap();
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o644)).unwrap();
    copy
}

/// Runs the binary as `nobody` when the tests run as root (root reads every
/// directory, so the test would assert nothing), else as the current user.
/// Every absolute path among `args` must lie under the test's root: a file
/// of the checkout is out of the unprivileged user's reach wherever the
/// checkout is private ([`hand_to_unprivileged`] copies one in).
#[cfg(unix)]
pub fn run_unprivileged(env: &TestEnv, args: &[&str]) -> (String, String, i32) {
    for a in args {
        let path = a.split_once('=').map_or(*a, |(_, v)| v);
        assert!(
            !path.starts_with('/') || Path::new(path).starts_with(&env.root),
            "an unprivileged run is given {a}, outside {}: hand it over with hand_to_unprivileged",
            env.root.display()
        );
    }
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    let mut cmd = if unsafe { libc::geteuid() } == 0 {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    } else {
        std::process::Command::new(bin)
    };
    let out = cmd
        .current_dir(&env.work)
        .env_clear()
        .env("HOME", &env.home)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        env.redact(&String::from_utf8_lossy(&out.stdout)),
        env.redact(&String::from_utf8_lossy(&out.stderr)),
        out.status.code().unwrap_or(-1),
    )
}

/// The CI operator's policy: the checkout is the workspace, home is
/// personal, `~/.ssh` is denied; reads and workspace writes are allowed,
/// network effects need a person, R3 (native code, private networks,
/// unsafe keys) is refused.
pub const CI_POLICY: &str = r#"{
  "approved_workspaces": ["."],
  "personal_data_roots": ["~"],
  "denied_roots": ["~/.ssh"],
  "grants": {
    "READ_ONLY": "allow",
    "WORKSPACE_WRITE": "allow",
    "EXTERNAL_EFFECT": "needs_auth",
    "DESTRUCTIVE": "deny"
  },
  "risk_to_level": {
    "R0": "READ_ONLY",
    "R1": "WORKSPACE_WRITE",
    "R2": "EXTERNAL_EFFECT",
    "R3": "DESTRUCTIVE"
  }
}
"#;

/// The member of a JSON document's `configs` whose `path` is `path`
/// (`scan --json`, `diff --format json`, `trust --json`).
pub fn config_at<'a>(doc: &'a serde_json::Value, path: &str) -> &'a serde_json::Value {
    doc["configs"]
        .as_array()
        .unwrap_or_else(|| panic!("no configs in {doc}"))
        .iter()
        .find(|c| c["path"] == path)
        .unwrap_or_else(|| panic!("no config {path} in {doc}"))
}
