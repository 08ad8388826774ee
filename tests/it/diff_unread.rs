//! Nothing at a revision is unseen (issues 32 and 28): what `diff` cannot
//! read (a submodule, a link leading out of the repository, an unreadable
//! directory, a config whose path is not UTF-8) makes the result incomplete
//! or broken in every format, never "no permission widened"; a directory
//! replaced by a link is not a narrowing; a config broken the same way at
//! both revisions is not a change; and the CI formats neither autolink nor
//! pass invisible characters from config paths.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use serde_json::Value;

use crate::common::git::{GIT_ENV, git, perms};
use crate::diff::{Repo, base_repo, outside_code_spans};

/// Every format of `diff args`: (text, json, markdown, sarif, github), and
/// the exit code, which must be the same for all.
struct Formats {
    text: String,
    json: Value,
    json_text: String,
    markdown: String,
    sarif: Value,
    github: String,
    code: i32,
}

fn every_format(r: &Repo, args: &[&str]) -> Formats {
    let run = |extra: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(extra);
        r.diff(&all)
    };
    let text = run(&[]);
    let outs = [
        run(&["--json"]),
        run(&["--format", "markdown"]),
        run(&["--format", "sarif"]),
        run(&["--format", "github"]),
    ];
    for o in &outs {
        assert_eq!(o.code, text.code, "{o}\n{text}");
    }
    Formats {
        json: serde_json::from_str(&outs[0].stdout).unwrap_or_else(|e| panic!("{e}: {}", outs[0])),
        json_text: outs[0].stdout.clone(),
        markdown: outs[1].stdout.clone(),
        sarif: serde_json::from_str(&outs[2].stdout).unwrap(),
        github: outs[3].stdout.clone(),
        code: text.code,
        text: text.stdout,
    }
}

fn sarif_rules(log: &Value) -> Vec<(String, String)> {
    log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect()
}

/// A second repository whose one commit holds a config allowing every
/// path; its commit id.
fn wide_submodule_commit(r: &Repo) -> String {
    let sub = r.t.root.join("sub-origin");
    std::fs::create_dir_all(&sub).unwrap();
    git(&sub, &["init", "-q", "-b", "main"]);
    std::fs::write(sub.join("goccia.json"), perms(r#""allow-read": true"#)).unwrap();
    git(&sub, &["add", "-A"]);
    git(&sub, &["commit", "-q", "-m", "wide"]);
    git(&sub, &["rev-parse", "HEAD"]).trim().to_string()
}

#[test]
fn a_submodule_added_is_not_read_and_the_diff_is_incomplete_in_every_format() {
    let r = base_repo();
    let commit = wide_submodule_commit(&r);
    git(
        &r.t.work,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{commit},vendor/lib"),
        ],
    );
    git(&r.t.work, &["commit", "-q", "-m", "add a submodule"]);
    let f = every_format(&r, &["HEAD~1", "HEAD"]);
    assert_eq!(f.code, 1, "{}", f.text);
    assert!(
        f.text
            .contains("not read (HEAD): submodule vendor/lib (commit "),
        "{}",
        f.text
    );
    assert!(
        f.text
            .contains("incomplete: 1 path at HEAD not read; a config may hide there\n"),
        "{}",
        f.text
    );
    assert_eq!(f.json["incomplete"], true);
    assert_eq!(f.json["notRead"][0]["path"], "vendor/lib");
    assert!(
        f.markdown
            .starts_with("### goccia-trust: Incomplete: not everything was read\n"),
        "{}",
        f.markdown
    );
    assert!(
        !f.markdown.contains("No permission widened"),
        "{}",
        f.markdown
    );
    assert!(
        f.markdown
            .contains("#### Not read: the comparison is incomplete")
    );
    assert!(
        f.markdown.contains("- `submodule vendor/lib (commit "),
        "{}",
        f.markdown
    );
    assert_eq!(
        sarif_rules(&f.sarif),
        [("not-read".to_string(), "vendor/lib".to_string())]
    );
    assert!(
        f.github.starts_with(
            "::warning file=vendor/lib,title=goccia-trust%3A not read::submodule vendor/lib"
        ),
        "{}",
        f.github
    );

    // The same submodule at both sides, something else changing: nothing
    // new is unread, so the diff is complete.
    r.write("README", "x");
    r.commit("docs");
    let f = every_format(&r, &["HEAD~1", "HEAD"]);
    assert_eq!(f.code, 0, "{}", f.text);
    assert_eq!(f.json["incomplete"], false);
    // Its note is still shown, in the PR comment too.
    assert!(f.markdown.contains("#### Notes"), "{}", f.markdown);
    assert!(
        f.markdown.contains("`submodule not read: vendor/lib`"),
        "{}",
        f.markdown
    );
}

#[test]
fn a_committed_link_leading_out_of_the_repository_is_not_read() {
    let r = base_repo();
    r.t.symlink("/etc", "ext");
    r.t.symlink("pkg", "inside");
    r.commit("links");
    let f = every_format(&r, &["HEAD~1", "HEAD"]);
    assert_eq!(f.code, 1, "{}", f.text);
    assert_eq!(f.json["notRead"].as_array().unwrap().len(), 1, "{}", f.json);
    assert_eq!(f.json["notRead"][0]["path"], "ext");
    assert!(
        f.text.contains(
            "not read (HEAD): symbolic link ext -> /etc leads out of the repository and is not followed"
        ),
        "{}",
        f.text
    );
    // The working tree holds the same link: nothing new is unread.
    let out = r.diff(&["HEAD"]);
    assert_eq!(out.code, 0, "{out}");
    // Retargeted in the working tree: new again.
    std::fs::remove_file(r.t.work.join("ext")).unwrap();
    r.t.symlink("/root", "ext");
    let out = r.diff(&["HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stdout.contains("ext -> /root leads out"), "{out}");
}

#[test]
fn an_unreadable_directory_makes_the_working_tree_diff_incomplete() {
    if unsafe { libc::geteuid() } != 0 {
        crate::common::skip_outside_ci("needs root to run as another user");
        return;
    }
    let r = base_repo();
    r.write("secret/goccia.json", &perms(r#""allow-read": true"#));
    crate::common::open_for_unprivileged(&r.t, &[]);
    std::fs::set_permissions(
        r.t.work.join("secret"),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_goccia-trust"))
        .args(["diff", "HEAD"])
        .current_dir(&r.t.work)
        .env_clear()
        .env("HOME", &r.t.home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(GIT_ENV.iter().copied())
        // The repository is root's: let git read it as nobody.
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "safe.directory")
        .env("GIT_CONFIG_VALUE_0", "*")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("not read (working tree): cannot read secret"),
        "{stdout}"
    );
    assert!(
        stdout.contains("incomplete: 1 path at working tree not read"),
        "{stdout}"
    );
}

#[test]
fn a_directory_replaced_by_a_link_is_not_a_narrowing() {
    let r = base_repo();
    r.write("x/goccia.json", &perms(r#""allow-net": ["x.test"]"#));
    r.commit("x");
    std::fs::remove_dir_all(r.t.work.join("x")).unwrap();
    r.t.symlink("pkg", "x");
    // Against the working tree, then committed.
    for args in [&["HEAD"][..], &["HEAD~1", "HEAD"]] {
        if args.len() == 2 {
            r.commit("x is a link");
        }
        let f = every_format(&r, args);
        assert_eq!(f.code, 1, "{args:?}: {}", f.text);
        assert!(
            f.text.contains("removed x/goccia.json (widened)\n"),
            "{args:?}: {}",
            f.text
        );
        assert!(
            f.text
                .contains("  its directory is now a symbolic link (x -> pkg): its files are whatever that leads to\n"),
            "{args:?}: {}",
            f.text
        );
        let c = f.json["configs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["path"] == "x/goccia.json")
            .unwrap();
        assert_eq!(c["relinked"], "x -> pkg");
        assert_eq!(c["verdict"], "widened");
    }
}

#[test]
fn a_config_broken_the_same_way_at_both_revisions_is_not_a_change() {
    let r = base_repo();
    r.t.symlink("../goccia.json", "lnk/goccia.json");
    r.commit("a config that is a link");
    r.write("README", "x");
    r.commit("docs");
    let f = every_format(&r, &["HEAD~1", "HEAD"]);
    assert_eq!(f.code, 0, "{}", f.text);
    assert!(!f.text.contains("lnk/goccia.json"), "{}", f.text);
    assert!(
        f.text
            .contains("\n0 configs changed: 0 widened, 0 narrowed, 0 broken\n"),
        "{}",
        f.text
    );
    assert_eq!(sarif_rules(&f.sarif), []);
    // Listed with --all, as unchanged.
    let all = r.diff(&["HEAD~1", "HEAD", "--all"]);
    assert!(
        all.stdout.contains("unchanged lnk/goccia.json (unchanged)"),
        "{all}"
    );
}

#[test]
fn a_config_whose_path_is_not_utf8_is_broken_in_every_format() {
    let r = base_repo();
    let dir = r.t.work.join(OsStr::from_bytes(b"\xff\xfe"));
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("goccia.json"),
        perms(r#""allow-net": ["a.test", "b.test"]"#),
    )
    .unwrap();
    r.commit("two hosts");
    std::fs::write(
        dir.join("goccia.json"),
        perms(r#""allow-net": ["a.test", "b.test", "c.test", "d.test"]"#),
    )
    .unwrap();
    // Against the working tree: the same file, said for what it is.
    let f = every_format(&r, &["HEAD"]);
    assert_eq!(f.code, 1, "{}", f.text);
    assert!(
        f.text.contains("changed \\xff\\xfe/goccia.json (broken)\n"),
        "{}",
        f.text
    );
    assert!(!f.text.contains("removed"), "{}", f.text);
    r.commit("four hosts");
    let f = every_format(&r, &["HEAD~1", "HEAD"]);
    assert_eq!(f.code, 1, "{}", f.text);
    assert!(
        f.text.contains("changed \\xff\\xfe/goccia.json (broken)\n"),
        "{}",
        f.text
    );
    assert!(
        f.text.contains("no trust key can name this config"),
        "{}",
        f.text
    );
    assert!(
        f.text
            .contains("1 config changed: 0 widened, 0 narrowed, 1 broken"),
        "{}",
        f.text
    );
    assert_eq!(f.json["broken"], true);
    assert_eq!(sarif_rules(&f.sarif)[0].0, "config-broken");
    assert!(
        f.github.starts_with("::error file=\\xff\\xfe/goccia.json"),
        "{}",
        f.github
    );
    assert!(
        f.markdown
            .starts_with("### goccia-trust: A config does not load\n"),
        "{}",
        f.markdown
    );
}

#[test]
fn ci_formats_neither_autolink_nor_write_invisible_characters() {
    let r = base_repo();
    for name in [
        "www.evil-phish.com",
        "support@evil-phish.com",
        "a\u{202e}b\u{200b}c",
    ] {
        r.write(
            &format!("{name}/goccia.json"),
            &perms(r#""allow-net": ["x.test"]"#),
        );
    }
    r.commit("hostile names");
    let f = every_format(&r, &["HEAD~1", "HEAD"]);
    assert_eq!(f.code, 1, "{}", f.text);
    let sarif = r.diff(&["HEAD~1", "HEAD", "--format", "sarif"]).stdout;
    // Markdown: every path in a code span; outside them no autolink form.
    let mut fenced = false;
    for line in f.markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let bare = outside_code_spans(line);
        for bad in ["www.", "@", "http", "\u{202e}", "\u{200b}"] {
            assert!(!bare.contains(bad), "{bad:?} outside a code span: {line:?}");
        }
    }
    assert!(
        f.markdown.contains("`www.evil-phish.com/goccia.json`"),
        "{}",
        f.markdown
    );
    // Nothing invisible reaches any format.
    for out in [&f.text, &f.markdown, &f.github, &f.json_text, &sarif] {
        assert!(!out.contains('\u{202e}'), "{out}");
        assert!(!out.contains('\u{200b}'), "{out}");
    }
}

#[test]
fn a_retargeted_committed_link_under_a_scope_is_a_widening_in_every_format() {
    let r = Repo::new();
    r.write("app/goccia.json", &perms(r#""allow-read": ["../shared"]"#));
    r.write("shared-v2/x", "x");
    r.t.symlink("shared-v2", "shared");
    r.commit("base");
    // Out of the repository, to a directory that exists (on disk a
    // dangling link resolves to itself, as GocciaScript records it).
    let secret = r.t.root.join("secret");
    std::fs::create_dir(&secret).unwrap();
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    r.t.symlink(secret.to_str().unwrap(), "shared");
    // Against the working tree (resolved on disk), then between commits
    // (resolved through the revision's tree, nothing followed on disk).
    for args in [&["HEAD"][..], &["HEAD~1", "HEAD"]] {
        if args.len() == 2 {
            r.commit("retarget");
        }
        let f = every_format(&r, args);
        assert_eq!(f.code, 1, "{args:?}: {}", f.text);
        assert!(
            f.text.contains(
                "changed app/goccia.json (widened)\n  allow-read\n    ~ target of $ROOT/work/shared: $ROOT/work/shared-v2 -> $ROOT/secret  (widens) · "
            ),
            "{args:?}: {}",
            f.text
        );
        // Who re-pointed it (tests/it/diff_link_provenance.rs).
        let by = if args.len() == 1 {
            " · not committed\n"
        } else {
            " \"retarget\"\n"
        };
        assert!(f.text.contains(by), "{args:?}: {}", f.text);
        let v = &f.json["configs"][0]["requests"][0]["values"][0];
        assert_eq!(v["change"], "retargeted", "{}", f.json);
        assert_eq!(v["to"], "$ROOT/secret");
        assert_eq!(v["widens"], true);
        assert!(
            f.markdown.contains(
                "~ target of $ROOT/work/shared: $ROOT/work/shared-v2 -> $ROOT/secret   (widens)"
            ),
            "{}",
            f.markdown
        );
        assert!(sarif_rules(&f.sarif).contains(&(
            "permissions-widened".to_string(),
            "app/goccia.json".to_string()
        )));
        assert!(
            f.github.contains("-> $ROOT/secret  (widens)"),
            "{}",
            f.github
        );
    }
    // A link retargeted inside its old destination narrows nothing new.
    let r = Repo::new();
    r.write("app/goccia.json", &perms(r#""allow-read": ["../shared"]"#));
    r.write("data/sub/x", "x");
    r.t.symlink("data", "shared");
    r.commit("base");
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    r.t.symlink("data/sub", "shared");
    r.commit("narrower");
    let out = r.diff(&["HEAD~1", "HEAD"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains("changed app/goccia.json (narrowed)"),
        "{out}"
    );
    // A directory under a scope replaced by a link: a change too.
    let r = Repo::new();
    r.write("app/goccia.json", &perms(r#""allow-read": ["../shared"]"#));
    r.write("shared/x", "x");
    r.commit("base");
    std::fs::remove_dir_all(r.t.work.join("shared")).unwrap();
    r.t.symlink("../etc", "shared");
    r.commit("a link");
    let out = r.diff(&["HEAD~1", "HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stdout
            .contains("~ target of $ROOT/work/shared: $ROOT/work/shared -> $ROOT/etc  (widens)"),
        "{out}"
    );
}

/// `diff --json` carries each config's sha256 at HEAD, as computed for this
/// checkout: the hash `scan --json` gives the same config here, and the one
/// `trust --expect` takes (issue 30 item 5).
#[test]
fn diff_json_carries_the_head_hash_of_this_checkout() {
    let r = base_repo();
    r.write(
        "goccia.json",
        &perms(r#""allow-net": ["a.test", "b.test"]"#),
    );
    r.write("pkg/goccia.json", "{");
    r.commit("widen and break");
    for args in [&["HEAD~1", "HEAD", "--json"][..], &["HEAD~1", "--json"]] {
        let out = r.diff(args);
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        let scan: Value = serde_json::from_str(&r.t.run(&["scan", "--json"]).stdout).unwrap();
        let of = |doc: &Value, path: &str| -> Value {
            crate::common::config_at(doc, path)["sha256"].clone()
        };
        let hash = of(&v, "goccia.json");
        assert_eq!(hash.as_str().map(str::len), Some(64), "{v}");
        assert_eq!(hash, of(&scan, "goccia.json"), "{args:?}");
        // A config that does not load at HEAD has none.
        assert_eq!(of(&v, "pkg/goccia.json"), Value::Null, "{v}");
    }
}

/// The incomplete line names HEAD as the user typed it, and a branch name is
/// chosen by whoever pushed it (`diff main "$GITHUB_HEAD_REF"`): in the
/// markdown comment it is a code span like every other revision name, never
/// HTML or markdown.
#[test]
fn the_incomplete_line_writes_a_hostile_revision_name_as_code() {
    let r = base_repo();
    let commit = wide_submodule_commit(&r);
    let branch = "x<img/src=x/onerror=alert(1)>_y_";
    git(&r.t.work, &["checkout", "-q", "-b", branch]);
    git(
        &r.t.work,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{commit},vendor/lib"),
        ],
    );
    git(&r.t.work, &["commit", "-q", "-m", "add a submodule"]);
    let out = r.diff(&["main", branch, "--format", "markdown"]);
    assert_eq!(out.code, 1, "{out}");
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("incomplete: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        line,
        format!("incomplete: 1 path at `{branch}` not read; a config may hide there")
    );
    for l in out.stdout.lines() {
        assert!(!outside_code_spans(l).contains('<'), "{l}");
    }
}
