use std::os::unix::fs::symlink;

use super::*;
use crate::core::env::Env;
use crate::core::policy::target::{lexical_path, resolve_target};
use crate::core::policy::test_support::{env_at, policy};
use crate::core::policy::{Verdict, evaluate};

fn class_of(pol: &Policy, target: &str, cwd: &str) -> Class {
    classify(pol, &resolve_target(target, cwd))
}

#[test]
fn first_match_wins_in_the_documented_order() {
    let env = env_at("/pg-c/home/u/repo", "/pg-c/home/u");
    let pol = policy(
        r#"{"approved_workspaces": [".", "/pg-c/both"],
            "system_read_only_roots": ["/pg-c/home/u/sys", "/pg-c/usr"],
            "personal_data_roots": ["~", "/pg-c/usr/share"],
            "denied_roots": ["~/.ssh", "/pg-c/both"],
            "grants": {}, "risk_to_level": {}}"#,
        &env,
    );
    let cwd = &env.cwd;
    // denied > approved
    assert_eq!(class_of(&pol, "/pg-c/both/x", cwd), Class::DeniedRoot);
    // approved > personal: the workspace lives under the home directory
    assert_eq!(class_of(&pol, "src/a.js", cwd), Class::ApprovedWorkspace);
    // personal > system
    assert_eq!(
        class_of(&pol, "/pg-c/home/u/sys/x", cwd),
        Class::PersonalDataPath
    );
    assert_eq!(
        class_of(&pol, "/pg-c/usr/share/doc", cwd),
        Class::PersonalDataPath
    );
    assert_eq!(class_of(&pol, "/pg-c/usr/bin/sh", cwd), Class::SystemPath);
    assert_eq!(
        class_of(&pol, "/pg-c/home/u/.ssh/id", cwd),
        Class::DeniedRoot
    );
    assert_eq!(class_of(&pol, "/pg-c/elsewhere", cwd), Class::ExternalPath);
}

#[test]
fn matching_is_separator_bounded() {
    let env = env_at("/", "/");
    let pol = policy(
        r#"{"approved_workspaces": ["/a/b", "/ws/"], "grants": {}, "risk_to_level": {}}"#,
        &env,
    );
    for inside in [
        "/a/b",
        "/a/b/",
        "/a/b/c",
        "//a//b/./c",
        "/a/bc/../b/x",
        "/ws",
        "/a/b/..foo",
        "/a/b/...",
        "/a/b/..cache/x",
    ] {
        assert_eq!(
            class_of(&pol, inside, "/"),
            Class::ApprovedWorkspace,
            "{inside}"
        );
    }
    for outside in [
        "/a/bc",
        "/a/b-evil",
        "/a",
        "/a/b/../c",
        "/a/b/x/../../bc",
        "/wsx",
    ] {
        assert_eq!(
            class_of(&pol, outside, "/"),
            Class::ExternalPath,
            "{outside}"
        );
    }
}

#[test]
fn relative_targets_and_roots_resolve_against_the_working_directory() {
    let env = env_at("/pg-c/work", "/pg-c/home");
    let pol = policy(
        r#"{"approved_workspaces": ["sub"], "personal_data_roots": ["~"], "grants": {}, "risk_to_level": {}}"#,
        &env,
    );
    assert_eq!(class_of(&pol, "sub/x", &env.cwd), Class::ApprovedWorkspace);
    assert_eq!(class_of(&pol, "x", &env.cwd), Class::ExternalPath);
    assert_eq!(
        class_of(&pol, "../home/f", &env.cwd),
        Class::PersonalDataPath
    );
    // No `~` expansion in targets, as in the reference.
    assert_eq!(class_of(&pol, "~/f", &env.cwd), Class::ExternalPath);
}

/// A temp tree: `<t>/home` (HOME, with `.ssh/`), `<t>/ws` (the working
/// directory, approved).
struct Tree {
    _dir: tempfile::TempDir,
    home: String,
    ws: String,
    env: Env,
    pol: Policy,
}

fn tree() -> Tree {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let home = root.join("home");
    let ws = root.join("ws");
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "key").unwrap();
    std::fs::create_dir_all(ws.join("src")).unwrap();
    let (home, ws) = (home.display().to_string(), ws.display().to_string());
    let env = env_at(&ws, &home);
    let pol = policy(
        r#"{"approved_workspaces": ["."], "personal_data_roots": ["~"],
            "system_read_only_roots": ["/etc"], "denied_roots": ["~/.ssh"],
            "grants": {"READ_ONLY": "allow", "WORKSPACE_WRITE": "allow"},
            "risk_to_level": {"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE"}}"#,
        &env,
    );
    Tree {
        _dir: dir,
        home,
        ws,
        env,
        pol,
    }
}

#[test]
fn a_link_out_of_the_workspace_is_judged_where_it_points() {
    let t = tree();
    symlink(format!("{}/.ssh", t.home), format!("{}/vendor", t.ws)).unwrap();
    let r = resolve_target("vendor/id_rsa", &t.env.cwd);
    assert_eq!(r.lexical, format!("{}/vendor/id_rsa", t.ws));
    assert_eq!(
        r.canonical.as_deref(),
        Some(format!("{}/.ssh/id_rsa", t.home).as_str())
    );
    assert_eq!(classify(&t.pol, &r), Class::DeniedRoot);
    let d = evaluate(&t.pol, "R0", Some("./vendor"), &t.env);
    assert_eq!(d.verdict, Verdict::Denied);
    assert_eq!(
        d.reason,
        "target classified DENIED_ROOT \u{2014} denied at any risk level (denied root ~/.ssh)"
    );
    // A file that does not exist yet, under the link: deepest existing ancestor.
    let d = evaluate(&t.pol, "R1", Some("vendor/new/deeper"), &t.env);
    assert_eq!(d.classification, Some(Class::DeniedRoot));
}

#[test]
fn a_dangling_link_is_followed_to_where_a_write_would_land() {
    let t = tree();
    symlink(
        format!("{}/.ssh/authorized_keys", t.home),
        format!("{}/out", t.ws),
    )
    .unwrap();
    assert_eq!(class_of(&t.pol, "out", &t.env.cwd), Class::DeniedRoot);
}

#[test]
fn dot_dot_after_a_link_climbs_from_the_links_target() {
    let t = tree();
    // ws/deep -> home/.ssh ; ws/deep/../x is home/x for the kernel.
    symlink(format!("{}/.ssh", t.home), format!("{}/deep", t.ws)).unwrap();
    let r = resolve_target("deep/../notes", &t.env.cwd);
    assert_eq!(r.lexical, format!("{}/notes", t.ws));
    assert_eq!(
        r.canonical.as_deref(),
        Some(format!("{}/notes", t.home).as_str())
    );
    assert_eq!(classify(&t.pol, &r), Class::PersonalDataPath);
}

#[test]
fn a_link_to_a_system_root_is_not_writable() {
    let t = tree();
    symlink("/etc", format!("{}/etc-link", t.ws)).unwrap();
    assert_eq!(
        class_of(&t.pol, "etc-link/hosts", &t.env.cwd),
        Class::SystemPath
    );
    let d = evaluate(&t.pol, "R1", Some("etc-link/hosts"), &t.env);
    assert_eq!(d.verdict, Verdict::Denied);
    // A plain workspace path is untouched by all this.
    assert_eq!(
        class_of(&t.pol, "src/a.js", &t.env.cwd),
        Class::ApprovedWorkspace
    );
}

#[test]
fn a_link_loop_is_external() {
    let t = tree();
    symlink(format!("{}/b", t.ws), format!("{}/a", t.ws)).unwrap();
    symlink(format!("{}/a", t.ws), format!("{}/b", t.ws)).unwrap();
    let r = resolve_target("a/x", &t.env.cwd);
    assert_eq!(r.canonical, None);
    assert_eq!(classify(&t.pol, &r), Class::ExternalPath);
}

#[test]
fn a_root_spelled_through_a_link_covers_what_it_names() {
    let t = tree();
    symlink(format!("{}/.ssh", t.home), format!("{}/keys", t.home)).unwrap();
    let pol = policy(
        &format!(
            r#"{{"denied_roots": ["{}/keys"], "grants": {{}}, "risk_to_level": {{}}}}"#,
            t.home
        ),
        &t.env,
    );
    assert_eq!(
        class_of(&pol, &format!("{}/.ssh/id_rsa", t.home), "/"),
        Class::DeniedRoot
    );
}

#[test]
fn lexical_path_normalizes_like_node() {
    assert_eq!(lexical_path("a/./b//c/", "/cwd"), "/cwd/a/b/c");
    assert_eq!(lexical_path("../../../x", "/cwd"), "/x");
    assert_eq!(lexical_path("", "/cwd"), "/cwd");
    assert_eq!(lexical_path("/", "/cwd"), "/");
    assert_eq!(lexical_path("/a/..foo", "/cwd"), "/a/..foo");
}
