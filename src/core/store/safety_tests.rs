use std::fs;
use std::os::unix::fs::PermissionsExt;

use super::*;
use crate::core::env::Env;

fn chmod(p: &Path, mode: u32) {
    fs::set_permissions(p, fs::Permissions::from_mode(mode)).unwrap();
}

fn chown(p: &Path, uid: u32, gid: u32) {
    std::os::unix::fs::chown(p, Some(uid), Some(gid)).unwrap();
}

/// The user the test process runs as (the suite may run as root or not).
fn me() -> User {
    User::current()
}

fn loc(path: &Path, is_default: bool) -> StoreLocation {
    StoreLocation {
        path: path.to_str().unwrap().to_string(),
        is_default,
        as_typed: (!is_default).then(|| path.to_str().unwrap().to_string()),
    }
}

fn texts(issues: &[SafetyIssue]) -> Vec<(Severity, String)> {
    issues
        .iter()
        .map(|i| (i.severity, i.text.clone()))
        .collect()
}

fn tree() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    (t, root)
}

#[test]
fn private_store_and_directory_pass() {
    let (_t, root) = tree();
    let dir = root.join("goccia");
    fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o700);
    let store = dir.join("trust.json");
    fs::write(&store, "{}").unwrap();
    chmod(&store, 0o600);
    assert_eq!(texts(&check_store(&loc(&store, true), &me())), []);
    // 0755 / 0644 as umask 022 leaves them: others may read, not write.
    chmod(&dir, 0o755);
    chmod(&store, 0o644);
    assert_eq!(texts(&check_store(&loc(&store, true), &me())), []);
}

#[test]
fn world_writable_directory_and_file_are_refused_with_the_fix() {
    let (_t, root) = tree();
    let dir = root.join("goccia");
    fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o777);
    let store = dir.join("trust.json");
    fs::write(&store, "{}").unwrap();
    chmod(&store, 0o666);
    let d = dir.display();
    let s = store.display();
    assert_eq!(
        texts(&check_store(&loc(&store, true), &me())),
        [
            (
                Severity::Refuse,
                format!(
                    "the trust store directory {d} is writable by others (mode 0777); run chmod 700 {d}"
                )
            ),
            (
                Severity::Refuse,
                format!("the trust store {s} is writable by others (mode 0666); run chmod 600 {s}")
            ),
        ]
    );
}

#[test]
fn a_sticky_world_writable_directory_is_accepted() {
    let (_t, root) = tree();
    let dir = root.join("tmp");
    fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o1777);
    let store = dir.join("trust.json");
    // Not there yet: this command would create it exclusively.
    assert_eq!(texts(&check_store(&loc(&store, false), &me())), []);
    fs::write(&store, "{}").unwrap();
    chmod(&store, 0o600);
    assert_eq!(texts(&check_store(&loc(&store, false), &me())), []);
}

#[test]
fn a_missing_directory_is_judged_by_where_it_would_be_created() {
    let (_t, root) = tree();
    let open = root.join("open");
    fs::create_dir(&open).unwrap();
    chmod(&open, 0o777);
    let store = open.join("a/b/trust.json");
    let o = open.display();
    assert_eq!(
        texts(&check_store(&loc(&store, true), &me())),
        [(
            Severity::Refuse,
            format!(
                "the directory that would hold the trust store, {o} is writable by others (mode 0777); run chmod 700 {o}"
            )
        )]
    );
}

#[test]
fn group_write_is_a_warning_unless_the_group_is_the_users_own() {
    let user = me();
    // Only meaningful where the user has a private group to compare with.
    let Some(name) = user.name.clone() else {
        panic!("the test user has no name");
    };
    let (_t, root) = tree();
    let dir = root.join("goccia");
    fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o770);
    let store = dir.join("trust.json");
    fs::write(&store, "{}").unwrap();
    chmod(&store, 0o600);
    let own_gid = fs::metadata(&root).unwrap().gid();
    let own_is_private = group_entry(own_gid)
        .is_some_and(|(g, members)| g == name && members.iter().all(|m| *m == name));
    if own_is_private {
        assert_eq!(texts(&check_store(&loc(&store, true), &user)), []);
    }
    if user.uid == 0 {
        // Root can hand the directory to a shared group: a warning only.
        chown(&dir, 0, 65534);
        let group = group_entry(65534).map(|g| g.0).unwrap();
        let d = dir.display();
        assert_eq!(
            texts(&check_store(&loc(&store, true), &user)),
            [(
                Severity::Warn,
                format!(
                    "the trust store directory {d} is writable by group {group} (mode 0770); run chmod g-w {d}"
                )
            )]
        );
        assert!(refusal(&check_store(&loc(&store, true), &user)).is_none());
    }
}

#[test]
fn a_store_owned_by_another_user_is_refused() {
    let user = me();
    let (_t, root) = tree();
    let dir = root.join("goccia");
    fs::create_dir(&dir).unwrap();
    let store = dir.join("trust.json");
    fs::write(&store, "{}").unwrap();
    chmod(&store, 0o644);
    // Judged for a user who is neither the owner nor root: the file's
    // owner is this process, so ask as uid 4242.
    let stranger = User {
        uid: 4242,
        name: None,
    };
    let issues = check_store(&loc(&store, true), &stranger);
    let owner = user.describe();
    let s = store.display();
    // Root-owned paths the checking process can write are not excused.
    if user.uid == 0 {
        assert!(
            issues.iter().any(|i| i.severity == Severity::Refuse
                && i.text
                    == format!(
                        "the trust store {s} is owned by another user ({owner}), not by you (uid 4242); use a store of your own (--trust-store=PATH), or remove this one"
                    )),
            "{issues:?}"
        );
    } else {
        assert_eq!(refusal(&issues).map(|i| i.severity), Some(Severity::Refuse));
    }
}

#[test]
fn a_dangling_link_is_an_error_and_a_live_one_resolves() {
    let (_t, root) = tree();
    let link = root.join("trust.json");
    std::os::unix::fs::symlink("nowhere/trust.json", &link).unwrap();
    let err = store_destination(link.to_str().unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "trust store {} is a symbolic link to nowhere/trust.json, which does not exist; restore the file it points to or remove the link",
            link.display()
        )
    );
    fs::create_dir(root.join("nowhere")).unwrap();
    fs::write(root.join("nowhere/trust.json"), "{}").unwrap();
    assert_eq!(
        store_destination(link.to_str().unwrap()).unwrap(),
        Some(root.join("nowhere/trust.json"))
    );
    assert_eq!(
        store_destination(root.join("absent.json").to_str().unwrap()).unwrap(),
        None
    );
}

#[test]
fn a_trust_store_inside_the_reviewed_tree_or_its_repository_is_named() {
    let (_t, root) = tree();
    let repo = root.join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::create_dir_all(repo.join("pkg")).unwrap();
    fs::create_dir_all(root.join("outside")).unwrap();
    let env = Env {
        cwd: root.to_str().unwrap().to_string(),
        home: "/nonexistent".into(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    };
    let in_repo = repo.join(".goccia/trust.json");
    let issue = store_in_reviewed_tree(&loc(&in_repo, false), &["repo/pkg".into()], &env)
        .expect("a store in the repository of the reviewed path");
    assert_eq!(issue.severity, Severity::Refuse);
    assert_eq!(
        issue.text,
        format!(
            "the trust store {} is inside {}, a tree under review: a repository could ship a store that trusts its own configs; keep the store outside it",
            in_repo.display(),
            repo.display()
        )
    );
    let outside = root.join("outside/trust.json");
    assert_eq!(
        store_in_reviewed_tree(&loc(&outside, false), &["repo/pkg".into()], &env),
        None
    );
    // Through a link: judged where the bytes are.
    std::os::unix::fs::symlink(&in_repo, root.join("outside/link.json")).unwrap();
    fs::create_dir_all(in_repo.parent().unwrap()).unwrap();
    fs::write(&in_repo, "{}").unwrap();
    assert!(
        store_in_reviewed_tree(
            &loc(&root.join("outside/link.json"), false),
            &["repo".into()],
            &env
        )
        .is_some()
    );
    // The per-user default store is the user's, wherever it is.
    assert_eq!(
        store_in_reviewed_tree(&loc(&in_repo, true), &["repo".into()], &env),
        None
    );
}

#[test]
fn every_directory_of_a_chain_of_links_is_checked() {
    let (_t, root) = tree();
    for d in ["home", "hop", "real"] {
        fs::create_dir(root.join(d)).unwrap();
        chmod(&root.join(d), 0o700);
    }
    fs::write(root.join("real/trust.json"), "{}").unwrap();
    chmod(&root.join("real/trust.json"), 0o600);
    std::os::unix::fs::symlink("../real/trust.json", root.join("hop/trust.json")).unwrap();
    std::os::unix::fs::symlink("../hop/trust.json", root.join("home/trust.json")).unwrap();
    let store = loc(&root.join("home/trust.json"), false);
    assert_eq!(texts(&check_store(&store, &me())), []);
    // The middle link's directory could repoint the chain.
    chmod(&root.join("hop"), 0o777);
    let h = root.join("hop");
    let h = h.display();
    assert_eq!(
        texts(&check_store(&store, &me())),
        [(
            Severity::Refuse,
            format!(
                "the trust store directory {h} is writable by others (mode 0777); run chmod 700 {h}"
            )
        )]
    );
}
