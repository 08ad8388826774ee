//! Who may write the store (issue 10 items 1 and 3) and a store reached
//! through a link (issue 9 item 5), against the real binary run as an
//! unprivileged user: `nobody` through `setpriv` when the suite runs as root
//! (root could write anything, so nothing would be asserted), the current
//! user otherwise.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const NOBODY: u32 = 65534;

struct Unprivileged {
    _dir: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    work: PathBuf,
    uid: u32,
}

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn is_root() -> bool {
    unsafe { libc::geteuid() == 0 }
}

impl Unprivileged {
    fn new() -> Unprivileged {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        chmod(&root, 0o755);
        let uid = if is_root() {
            NOBODY
        } else {
            unsafe { libc::geteuid() }
        };
        let env = Unprivileged {
            _dir: dir,
            home: root.join("home"),
            work: root.join("work"),
            root,
            uid,
        };
        env.mkdir(&env.home);
        env.mkdir(&env.work);
        env
    }

    /// A directory the test user owns, mode 0755.
    fn mkdir(&self, p: &Path) {
        fs::create_dir_all(p).unwrap();
        chmod(p, 0o755);
        self.own(p);
    }

    fn own(&self, p: &Path) {
        if is_root() {
            std::os::unix::fs::lchown(p, Some(self.uid), Some(self.uid)).unwrap();
        }
    }

    /// A file the test user owns, mode 0644.
    fn write(&self, p: &Path, text: &str) {
        fs::write(p, text).unwrap();
        chmod(p, 0o644);
        self.own(p);
    }

    /// `work/<name>/goccia.json` asking for a host, and a script beside it.
    fn config(&self, name: &str) {
        let d = self.work.join(name);
        self.mkdir(&d);
        self.write(
            &d.join("goccia.json"),
            r#"{"permissions": {"allow-net": ["example.com"]}}"#,
        );
        self.write(&d.join("main.js"), "");
    }

    fn default_store(&self) -> PathBuf {
        self.home.join(".config/goccia/trust.json")
    }

    /// The default store directory, as GocciaScript makes it (0700) with
    /// `bytes` in a 0600 store.
    fn default_store_with(&self, bytes: &[u8]) -> PathBuf {
        let dir = self.home.join(".config/goccia");
        self.mkdir(&self.home.join(".config"));
        self.mkdir(&dir);
        chmod(&dir, 0o700);
        let store = dir.join("trust.json");
        fs::write(&store, bytes).unwrap();
        chmod(&store, 0o600);
        self.own(&store);
        store
    }

    fn run(&self, args: &[&str]) -> Out {
        // Only files under the root, which the test user was handed: the
        // checkout may be private (a home directory, a `mktemp -d`).
        for a in args {
            let path = a.split_once('=').map_or(*a, |(_, v)| v);
            assert!(
                !path.starts_with('/') || Path::new(path).starts_with(&self.root),
                "an unprivileged run is given {a}, outside {}",
                self.root.display()
            );
        }
        let bin = env!("CARGO_BIN_EXE_goccia-trust");
        let mut cmd = if is_root() {
            let mut c = Command::new("setpriv");
            c.args([
                &format!("--reuid={}", self.uid),
                &format!("--regid={}", self.uid),
                "--clear-groups",
                bin,
            ]);
            c
        } else {
            Command::new(bin)
        };
        cmd.current_dir(&self.work)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("GOCCIA_TRUST_STATE_DIR", self.home.join("state"))
            .stdin(Stdio::null())
            .args(args);
        let out = cmd.output().unwrap();
        let root = self.root.to_str().unwrap();
        Out {
            stdout: String::from_utf8_lossy(&out.stdout).replace(root, "$ROOT"),
            stderr: String::from_utf8_lossy(&out.stderr).replace(root, "$ROOT"),
            code: out.status.code().unwrap_or(-1),
        }
    }
}

fn chmod(p: &Path, mode: u32) {
    fs::set_permissions(p, fs::Permissions::from_mode(mode)).unwrap();
}

fn fixture(name: &str) -> Vec<u8> {
    fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/store")
            .join(name),
    )
    .unwrap()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// Every read command still works, says why the store cannot be relied
/// on, on stderr every run and in each JSON document.
fn assert_readers_warn(env: &Unprivileged, warning: &str) {
    let line = format!("Warning: {warning}\n");
    for args in [
        &["list"][..],
        &["--list-trusted"],
        &["scan", "p"],
        &["check", "p/main.js"],
        &["inspect", "p/goccia.json"],
    ] {
        let out = env.run(args);
        assert!(
            out.stderr.contains(&line),
            "{args:?}: no warning in\n{}",
            out.stderr
        );
        assert!(out.code == 0 || out.code == 2, "{args:?}: {}", out.stderr);
    }
    // `scan --policy` reads the store as `scan` does.
    let policy = env.home.join("policy.json");
    if !policy.exists() {
        let workspace = env.work.to_str().unwrap();
        env.write(
            &policy,
            &format!(
                r#"{{"approved_workspaces": ["{workspace}"], "personal_data_roots": ["~"], "denied_roots": [], "grants": {{"READ_ONLY": "allow", "WORKSPACE_WRITE": "allow", "EXTERNAL_EFFECT": "needs_auth", "DESTRUCTIVE": "deny"}}, "risk_to_level": {{"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE", "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE"}}}}"#
            ),
        );
    }
    let out = env.run(&["scan", "p", "--policy", policy.to_str().unwrap()]);
    assert!(out.stderr.contains(&line), "scan --policy: {}", out.stderr);
    for args in [
        &["list", "--json"][..],
        &["scan", "p", "--json"],
        &["check", "p/main.js", "--json"],
        &["inspect", "p/goccia.json", "--json"],
    ] {
        let out = env.run(args);
        let doc: serde_json::Value = serde_json::from_str(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", out.stdout));
        assert!(
            doc["storeWarnings"]
                .as_array()
                .is_some_and(|w| w.iter().any(|w| w == warning)),
            "{args:?}: {}",
            out.stdout
        );
        assert!(out.stderr.contains(&line), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn a_store_others_can_write_is_refused_for_writers_and_warned_about_for_readers() {
    let env = Unprivileged::new();
    env.config("p");
    let store = env.default_store_with(&fixture("goccia-written.json"));
    chmod(&store, 0o666);
    let before = fs::read(&store).unwrap();
    let s = "$ROOT/home/.config/goccia/trust.json";
    let problem =
        format!("the trust store {s} is writable by others (mode 0666); run chmod 600 {s}");

    for args in [
        &["trust", "p", "--yes"][..],
        &["--trust", "p", "--yes"],
        &["untrust", "--missing"],
    ] {
        let out = env.run(args);
        assert_eq!(out.stderr, format!("Error: {problem}\n"), "{args:?}");
        assert_eq!(out.stdout, "", "{args:?}: nothing listed or asked");
        assert_eq!(out.code, 1, "{args:?}");
    }
    assert_eq!(fs::read(&store).unwrap(), before);
    assert_eq!(
        names(store.parent().unwrap()),
        ["trust.json"],
        "no lock, no temp file"
    );
    assert_readers_warn(&env, &problem);
}

#[test]
fn a_store_directory_others_can_write_is_refused_with_the_fix() {
    let env = Unprivileged::new();
    env.config("p");
    let store = env.default_store_with(&fixture("goccia-written.json"));
    let dir = store.parent().unwrap();
    chmod(dir, 0o777);
    let before = fs::read(&store).unwrap();
    let d = "$ROOT/home/.config/goccia";
    let problem = format!(
        "the trust store directory {d} is writable by others (mode 0777); run chmod 700 {d}"
    );

    let out = env.run(&["trust", "p", "--yes"]);
    assert_eq!(
        (out.stdout.as_str(), out.stderr.as_str(), out.code),
        ("", format!("Error: {problem}\n").as_str(), 1)
    );
    // Not even the per-user default directory is silently made private.
    assert_eq!(fs::metadata(dir).unwrap().mode() & 0o777, 0o777);
    assert_eq!(fs::read(&store).unwrap(), before);
    assert_eq!(names(dir), ["trust.json"]);
    // A dry run writes nothing: it shows what would be recorded, warned.
    let out = env.run(&["trust", "p", "--dry-run"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains(&format!("Warning: {problem}\n")));
    assert_readers_warn(&env, &problem);
}

#[test]
fn a_store_owned_by_another_user_is_refused() {
    let env = Unprivileged::new();
    if !is_root() {
        // Only root can give a file to someone else (CI runs as root).
        crate::common::skip_outside_ci("preparing a file of another user needs root");
        return;
    }
    env.config("p");
    let store = env.default_store_with(&fixture("goccia-written.json"));
    chmod(&store, 0o644);
    std::os::unix::fs::chown(&store, Some(4242), Some(4242)).unwrap();
    let before = fs::read(&store).unwrap();
    let s = "$ROOT/home/.config/goccia/trust.json";
    let problem = format!(
        "the trust store {s} is owned by another user (uid 4242), not by you (uid 65534, nobody); use a store of your own (--trust-store=PATH), or remove this one"
    );
    let out = env.run(&["trust", "p", "--yes"]);
    assert_eq!(
        (out.stdout.as_str(), out.stderr.as_str(), out.code),
        ("", format!("Error: {problem}\n").as_str(), 1)
    );
    assert_eq!(fs::read(&store).unwrap(), before);
    assert_readers_warn(&env, &problem);
}

#[test]
fn a_trust_store_inside_the_reviewed_tree_is_refused_for_trust() {
    let env = Unprivileged::new();
    env.config("p");
    // The repository ships a store that already trusts its config.
    let shipped = env.work.join("p/trust.json");
    let out = env.run(&["--trust-store=other.json", "trust", "p", "--yes"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    env.write(
        &shipped,
        &fs::read_to_string(env.work.join("other.json")).unwrap(),
    );
    chmod(&shipped, 0o600);
    let problem = "the trust store $ROOT/work/p/trust.json is inside $ROOT/work/p, a tree under review: a repository could ship a store that trusts its own configs; keep the store outside it";

    fs::write(
        env.work.join("p/goccia.json"),
        r#"{"permissions": {"allow-net": ["evil.test"]}}"#,
    )
    .unwrap();
    let before = fs::read(&shipped).unwrap();
    for args in [
        &["--trust-store=p/trust.json", "trust", "p", "--yes"][..],
        &["--trust-store=p/trust.json", "--trust", "p/", "--yes"],
    ] {
        let out = env.run(args);
        assert_eq!(
            (out.stdout.as_str(), out.stderr.as_str(), out.code),
            ("", format!("Error: {problem}\n").as_str(), 1),
            "{args:?}"
        );
    }
    assert_eq!(fs::read(&shipped).unwrap(), before);
    // Read commands over the tree say so.
    for args in [
        &["--trust-store=p/trust.json", "scan", "p"][..],
        &["--trust-store=p/trust.json", "check", "p/main.js"],
    ] {
        let out = env.run(args);
        assert!(
            out.stderr.contains(&format!("Warning: {problem}\n")),
            "{args:?}: {}",
            out.stderr
        );
    }
    // The same store is fine for a tree it is not in.
    env.config("q");
    let out = env.run(&["--trust-store=p/trust.json", "trust", "q", "--yes"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("Warning"), "{}", out.stderr);
}

#[test]
fn a_store_reached_through_a_link_keeps_its_link() {
    let env = Unprivileged::new();
    env.config("p");
    let dotfiles = env.home.join("dotfiles/goccia");
    env.mkdir(&env.home.join("dotfiles"));
    env.mkdir(&dotfiles);
    env.write(
        &dotfiles.join("trust.json"),
        &String::from_utf8(fixture("goccia-written.json")).unwrap(),
    );
    chmod(&dotfiles.join("trust.json"), 0o600);
    let config = env.home.join(".config/goccia");
    env.mkdir(&env.home.join(".config"));
    env.mkdir(&config);
    chmod(&config, 0o700);
    let link = env.default_store();
    std::os::unix::fs::symlink("../../dotfiles/goccia/trust.json", &link).unwrap();
    env.own(&link);

    let out = env.run(&["trust", "p", "--yes"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read_link(&link).unwrap(),
        Path::new("../../dotfiles/goccia/trust.json")
    );
    let written = fs::read_to_string(dotfiles.join("trust.json")).unwrap();
    assert!(written.contains("/work/p/goccia.json"), "{written}");
    assert_eq!(names(&config), ["trust.json", "trust.json.lock"]);
    assert_eq!(names(&dotfiles), ["trust.json"]);
    let out = env.run(&["check", "p/main.js"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));

    // The destination's directory is checked too.
    chmod(&dotfiles, 0o777);
    let out = env.run(&["untrust", "p"]);
    assert_eq!(
        out.stderr,
        "Error: the trust store directory $ROOT/home/dotfiles/goccia is writable by others (mode 0777); run chmod 700 $ROOT/home/dotfiles/goccia\n"
    );
    assert_eq!(out.code, 1);
    assert_eq!(
        fs::read_to_string(dotfiles.join("trust.json")).unwrap(),
        written
    );
}

#[test]
fn a_dangling_store_link_is_an_error_not_a_new_store() {
    let env = Unprivileged::new();
    env.config("p");
    let config = env.home.join(".config/goccia");
    env.mkdir(&env.home.join(".config"));
    env.mkdir(&config);
    chmod(&config, 0o700);
    let link = env.default_store();
    std::os::unix::fs::symlink("../../dotfiles/goccia/trust.json", &link).unwrap();
    env.own(&link);
    let problem = "trust store $ROOT/home/.config/goccia/trust.json is a symbolic link to ../../dotfiles/goccia/trust.json, which does not exist; restore the file it points to or remove the link";

    for args in [&["trust", "p", "--yes"][..], &["list"], &["untrust", "p"]] {
        let out = env.run(args);
        assert_eq!(
            (out.stdout.as_str(), out.stderr.as_str(), out.code),
            ("", format!("Error: {problem}\n").as_str(), 1),
            "{args:?}"
        );
    }
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(names(&config), ["trust.json"]);
    // Readers count every config as untrusted and name the problem.
    let out = env.run(&["scan", "p"]);
    assert!(out.stderr.contains(problem), "{}", out.stderr);
    let out = env.run(&["scan", "p", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["storeError"], problem);
}

#[test]
fn stores_written_by_goccia_script_with_the_right_modes_work_unchanged() {
    let env = Unprivileged::new();
    env.config("p");
    let bytes = fixture("goccia-written.json");
    let store = env.default_store_with(&bytes);
    for args in [
        &["list"][..],
        &["list", "--json"],
        &["scan", "p"],
        &["scan", "p", "--json"],
        &["check", "p/main.js"],
        &["inspect", "p/goccia.json", "--json"],
    ] {
        let out = env.run(args);
        assert!(!out.stderr.contains("Warning"), "{args:?}: {}", out.stderr);
        // JSON carries `storeWarnings` always (schema 1); here it is empty.
        assert!(
            !out.stdout.contains("storeWarnings") || out.stdout.contains("\"storeWarnings\": []"),
            "{args:?}: {}",
            out.stdout
        );
    }
    assert_eq!(fs::read(&store).unwrap(), bytes);
    // umask 022 stores (0644 in 0755) and the user's own writes work too.
    chmod(store.parent().unwrap(), 0o755);
    chmod(&store, 0o644);
    let out = env.run(&["trust", "p", "--yes"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{}", out.stdout);
    let after = fs::read(&store).unwrap();
    assert!(after.starts_with(b"{\n  \"version\": 1,\n  \"trusted\": {"));
    assert_eq!(fs::metadata(&store).unwrap().uid(), env.uid);
}
