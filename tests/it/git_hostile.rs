//! Git is read, never obeyed (issue 32): a repository's own configuration
//! names programs (a promisor remote's upload-pack, an ssh command, a
//! credential helper, a proxy, an askpass, gpg, fsmonitor, hooks, external
//! diff, textconv, filters, a pager) and every git call goes through one
//! invocation that runs none of them. Each vector writes a marker file if
//! anything runs it; the marker must never appear, whatever goccia-trust
//! reads: `diff` between revisions, against the working tree, and the
//! review's `--since` base.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::git::{GIT_ENV, git, perms};
use crate::diff::Repo;

/// A repository whose branch `evil` widens the root config, and whose
/// blob for it is then deleted: the object is missing, so a git that may
/// fetch lazily would ask the promisor remote for it.
fn repo_with_missing_blob() -> (Repo, String) {
    let r = Repo::new();
    r.write("goccia.json", &perms(r#""allow-net": ["a.test"]"#));
    r.commit("base");
    git(&r.t.work, &["checkout", "-q", "-b", "evil"]);
    r.write(
        "goccia.json",
        &perms(r#""allow-net": ["a.test", "b.test"]"#),
    );
    r.commit("evil");
    git(&r.t.work, &["checkout", "-q", "main"]);
    let oid = git(&r.t.work, &["rev-parse", "evil:goccia.json"])
        .trim()
        .to_string();
    let loose =
        r.t.work
            .join(".git/objects")
            .join(&oid[..2])
            .join(&oid[2..]);
    std::fs::remove_file(loose).unwrap();
    (r, oid)
}

/// An executable script that creates `marker`.
fn marker_script(dir: &Path, name: &str, marker: &Path) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// An HTTP server on loopback that answers every request `401` asking for
/// basic credentials (so a fetching git would run a credential helper or
/// askpass), for at most `limit` connections or 20 seconds.
fn serve_401(limit: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let until = Instant::now() + Duration::from_secs(20);
        let mut served = 0;
        while served < limit && Instant::now() < until {
            match listener.accept() {
                Ok((mut s, _)) => {
                    served += 1;
                    s.set_nonblocking(false).unwrap();
                    s.set_read_timeout(Some(Duration::from_secs(2))).ok();
                    let mut buf = [0u8; 4096];
                    let _ = s.read(&mut buf);
                    let _ = s.write_all(
                        b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"x\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    );
                }
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    });
    port
}

/// Appends `text` to the repository's `.git/config`.
fn add_config(r: &Repo, text: &str) {
    let path = r.t.work.join(".git/config");
    let mut config = std::fs::read_to_string(&path).unwrap();
    config.push_str(text);
    std::fs::write(path, config).unwrap();
}

/// Makes `origin` a promisor remote at `url` for a partial clone, with
/// `extra` lines in its section.
fn promisor(r: &Repo, url: &str, extra: &str) {
    git(&r.t.work, &["config", "core.repositoryformatversion", "1"]);
    add_config(
        r,
        &format!(
            "[extensions]\n\tpartialClone = origin\n[remote \"origin\"]\n\turl = {url}\n\tpromisor = true\n\tpartialclonefilter = blob:none\n{extra}"
        ),
    );
}

/// Reads the repository's revisions every way goccia-trust does; returns
/// the `diff HEAD evil` run.
fn read_every_way(r: &Repo) -> crate::common::Output {
    let out = r.diff(&["HEAD", "evil"]);
    let _ = r.diff(&["evil"]);
    let _ = r.diff(&["--json", "HEAD", "evil"]);
    let env =
        goccia_trust::core::env::Env::at(r.t.work.to_str().unwrap(), r.t.home.to_str().unwrap());
    let _ = goccia_trust::core::revision::since::SinceBase::read(
        r.t.work.to_str().unwrap(),
        "evil",
        &env,
    );
    out
}

#[test]
fn a_missing_object_is_never_fetched_whatever_the_remote_runs() {
    // (name, the remote's URL, its section's extra lines, other config),
    // each writing the marker if git reaches for the remote.
    struct Vector {
        name: &'static str,
        url: String,
        remote: String,
        config: String,
    }
    let scratch = tempfile::tempdir().unwrap();
    let marker = scratch.path().join("PWNED");
    let m = marker.display().to_string();
    let script = marker_script(scratch.path(), "run.sh", &marker);
    let s = script.display().to_string();
    let port = serve_401(50);
    let vectors = [
        Vector {
            name: "uploadpack",
            url: scratch.path().join("nowhere").display().to_string(),
            remote: format!("\tuploadpack = \"touch '{m}'; false\"\n"),
            config: String::new(),
        },
        Vector {
            name: "core.sshCommand",
            url: "ssh://git@example.invalid/x.git".into(),
            remote: String::new(),
            config: format!("[core]\n\tsshCommand = \"touch '{m}'; false\"\n"),
        },
        Vector {
            name: "core.gitProxy",
            url: "git://example.invalid/x.git".into(),
            remote: String::new(),
            config: format!("[core]\n\tgitProxy = {s}\n"),
        },
        Vector {
            name: "credential.helper",
            url: format!("http://127.0.0.1:{port}/x.git"),
            remote: String::new(),
            config: format!("[credential]\n\thelper = \"!touch '{m}'; false\"\n"),
        },
        Vector {
            name: "core.askPass",
            url: format!("http://127.0.0.1:{port}/x.git"),
            remote: String::new(),
            config: format!("[core]\n\taskPass = {s}\n"),
        },
        Vector {
            name: "ext:: transport",
            url: format!("ext::sh -c touch% {m}"),
            remote: String::new(),
            config: "[protocol \"ext\"]\n\tallow = always\n".into(),
        },
    ];
    for v in &vectors {
        let (r, oid) = repo_with_missing_blob();
        promisor(&r, &v.url, &v.remote);
        add_config(&r, &v.config);
        let out = read_every_way(&r);
        assert!(
            !marker.exists(),
            "{}: the repository ran a program\n{out}",
            v.name
        );
        // The missing object is an error naming it, never a diff that
        // passes over the config.
        assert_eq!(out.code, 2, "{}: {out}", v.name);
        assert!(out.stderr.contains(&oid), "{}: {out}", v.name);
        assert!(out.stderr.contains("missing"), "{}: {out}", v.name);
    }
}

#[test]
fn programs_named_by_the_repository_never_run() {
    let scratch = tempfile::tempdir().unwrap();
    let marker = scratch.path().join("PWNED");
    let m = marker.display().to_string();
    let script = marker_script(scratch.path(), "run.sh", &marker);
    let s = script.display().to_string();
    let hooks = scratch.path().join("hooks");
    std::fs::create_dir(&hooks).unwrap();
    for hook in [
        "post-checkout",
        "post-index-change",
        "reference-transaction",
        "fsmonitor-watchman",
        "pre-auto-gc",
        "post-rewrite",
    ] {
        marker_script(&hooks, hook, &marker);
    }
    let vectors = [
        ("core.fsmonitor", format!("[core]\n\tfsmonitor = {s}\n")),
        (
            "core.hooksPath",
            format!("[core]\n\thooksPath = {}\n", hooks.display()),
        ),
        (
            "core.pager",
            format!(
                "[core]\n\tpager = {s}\n[pager]\n\tls-tree = {s}\n\tcat-file = {s}\n\trev-parse = {s}\n"
            ),
        ),
        ("diff.external", format!("[diff]\n\texternal = {s}\n")),
        (
            "textconv",
            format!("[diff \"x\"]\n\ttextconv = {s}\n\tcommand = {s}\n"),
        ),
        (
            "filters",
            format!(
                "[filter \"x\"]\n\tclean = {s}\n\tsmudge = {s}\n\tprocess = {s}\n\trequired = true\n"
            ),
        ),
        (
            "gpg.program",
            format!(
                "[gpg]\n\tprogram = {s}\n[gpg \"ssh\"]\n\tprogram = {s}\n[log]\n\tshowSignature = true\n"
            ),
        ),
        (
            "core.sshCommand",
            format!("[core]\n\tsshCommand = \"touch '{m}'\"\n"),
        ),
        (
            "core.editor",
            format!("[core]\n\teditor = {s}\n[sequence]\n\teditor = {s}\n"),
        ),
        (
            "alternateRefsCommand",
            format!(
                "[core]\n\talternateRefsCommand = {s}\n[uploadpack]\n\tpackObjectsHook = {s}\n"
            ),
        ),
        (
            "gc.auto",
            format!(
                "[gc]\n\tauto = 1\n\tautoDetach = false\n[maintenance]\n\tauto = true\n[core]\n\thooksPath = {}\n",
                hooks.display()
            ),
        ),
    ];
    for (name, config) in &vectors {
        let r = Repo::new();
        r.write(".gitattributes", "* diff=x filter=x\n");
        r.write("goccia.json", &perms(r#""allow-net": ["a.test"]"#));
        r.commit("base");
        git(&r.t.work, &["branch", "evil"]);
        r.write(
            "goccia.json",
            &perms(r#""allow-net": ["a.test", "b.test"]"#),
        );
        add_config(&r, config);
        let out = read_every_way(&r);
        let wt = r.diff(&["HEAD"]);
        assert!(
            !marker.exists(),
            "{name}: the repository ran a program\n{out}\n{wt}"
        );
        assert_eq!(out.code, 0, "{name}: {out}");
        // The working tree's widening is still seen.
        assert_eq!(wt.code, 1, "{name}: {wt}");
        assert!(wt.stdout.contains("+ b.test  (widens)"), "{name}: {wt}");
    }
}

#[test]
fn a_git_that_blocks_is_stopped_and_said() {
    // The repository's config includes a FIFO: a git reading it waits for a
    // writer that never comes. goccia-trust stops it at its time limit.
    let r = crate::diff::base_repo();
    let fifo = r.t.root.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    add_config(&r, &format!("[include]\n\tpath = {}\n", fifo.display()));
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    let mut child = std::process::Command::new(bin)
        .current_dir(&r.t.work)
        .env_clear()
        .env("HOME", &r.t.home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(GIT_ENV.iter().copied())
        .env("GOCCIA_TRUST_GIT_TIMEOUT", "2")
        .args(["diff", "HEAD"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            // Free the git it left waiting on the FIFO.
            let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
            panic!("diff still waits on git after 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("did not finish within 2 s"), "{stderr}");
}

#[test]
fn a_revision_must_name_a_commit() {
    let r = crate::diff::base_repo();
    for args in [
        &["HEAD:pkg"][..],
        &["HEAD~0", "HEAD:pkg"],
        &["HEAD^{tree}"],
        &["HEAD:pkg/goccia.json"],
    ] {
        let out = r.diff(args);
        assert_eq!(out.code, 2, "{args:?}: {out}");
        assert!(out.stderr.contains("not a commit"), "{args:?}: {out}");
        assert!(out.stdout.is_empty(), "{args:?}: {out}");
    }
    // A tag naming a commit, a branch, a commit id: all commits.
    git(&r.t.work, &["tag", "-a", "-m", "v", "v1"]);
    let id = git(&r.t.work, &["rev-parse", "HEAD"]);
    for rev in ["v1", "main", id.trim()] {
        let out = r.diff(&[rev, "HEAD"]);
        assert_eq!(out.code, 0, "{rev}: {out}");
    }
}
