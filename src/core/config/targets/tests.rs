use std::fs;
use std::os::unix::fs::symlink;

use super::*;
use crate::core::config::request::tests::{BASE, env, flatten};

/// A temporary directory spelled with its links resolved, so expected
/// targets can be written from it.
fn root() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let real = fs::canonicalize(dir.path())
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    (dir, real)
}

fn request_in(root: &str, child: &str, base: &str) -> PermissionRequest {
    let config = format!("{root}/goccia.json");
    let mut entries = flatten(child, &config);
    entries.extend(flatten(base, BASE));
    PermissionRequest::from_entries(&entries, &config, &env()).unwrap()
}

#[test]
fn records_every_path_scope_resolved_on_disk() {
    let (_guard, r) = root();
    fs::create_dir(format!("{r}/real")).unwrap();
    fs::write(format!("{r}/file"), "").unwrap();
    symlink(format!("{r}/real"), format!("{r}/link")).unwrap();
    symlink(format!("{r}/nowhere"), format!("{r}/dangling")).unwrap();
    let request = request_in(
        &r,
        r#"{"permissions": {
            "allow-read": ["real", "link/", "link/sub/new", "dangling", "missing/deeper", "file/x"],
            "deny-read": true, "deny-read": ["real"],
            "deny-ffi": ["link"],
            "allow-import": ["node_modules=link", "node_modules", "github"],
            "deny-net": ["a.test"],
            "allow-net": ["b.test"]},
           "sandbox": {"copy": ["sandboxed"], "diff-file": "d.json"}}"#,
        r#"{"permissions": {"allow-read": ["base-only"], "allow-ffi": ["lib"]}}"#,
    );
    let targets = record_targets(&request);
    let want: Vec<(String, String)> = [
        ("dangling", "dangling"),
        ("file/x", "file/x"),
        ("link", "real"),
        ("link/sub/new", "real/sub/new"),
        ("missing/deeper", "missing/deeper"),
        ("real", "real"),
    ]
    .iter()
    .map(|(s, t)| (format!("{r}/{s}"), format!("{r}/{t}")))
    .chain([("/base/dir/lib".to_owned(), "/base/dir/lib".to_owned())])
    .collect();
    let mut want = want;
    want.sort();
    // Base scopes of an overridden key (allow-read) are not recorded; the
    // inherited allow-ffi is, and sorts first by bytes.
    assert_eq!(targets.to_pairs(), want);
    assert!(target_changes(&targets.to_pairs()).is_empty());
}

#[test]
fn canonical_path_edges() {
    assert_eq!(canonical_capability_path("/"), "/");
    assert_eq!(canonical_capability_path(""), "");
    let (_guard, r) = root();
    assert_eq!(
        canonical_capability_path(&format!("{r}//a/../b/")),
        format!("{r}/b")
    );
    assert_eq!(canonical_capability_path(&format!("{r}/")), r);
}

#[test]
fn a_link_appearing_on_the_path_is_a_change() {
    let (_guard, r) = root();
    let (_elsewhere_guard, elsewhere) = root();
    let scope = format!("{r}/cfg/ssh");
    let recorded = vec![(scope.clone(), canonical_capability_path(&scope))];
    assert_eq!(recorded[0].1, scope);

    symlink(&elsewhere, format!("{r}/cfg")).unwrap();
    assert_eq!(
        target_changes(&recorded),
        [(scope.clone(), scope.clone(), format!("{elsewhere}/ssh"))]
    );
}

#[test]
fn the_scope_appearing_or_vanishing_in_place_is_no_change() {
    let (_guard, r) = root();
    let built = format!("{r}/build/out");
    let gone = format!("{r}/gone");
    fs::create_dir(&gone).unwrap();
    let recorded = vec![
        (built.clone(), canonical_capability_path(&built)),
        (gone.clone(), canonical_capability_path(&gone)),
    ];

    fs::create_dir_all(&built).unwrap();
    fs::remove_dir(&gone).unwrap();
    assert!(target_changes(&recorded).is_empty());
}

#[test]
fn re_pointing_a_link_is_a_change() {
    let (_guard, r) = root();
    fs::create_dir(format!("{r}/a")).unwrap();
    fs::create_dir(format!("{r}/b")).unwrap();
    let link = format!("{r}/lib");
    symlink(format!("{r}/a"), &link).unwrap();
    let recorded = vec![(link.clone(), canonical_capability_path(&link))];
    assert_eq!(recorded[0].1, format!("{r}/a"));

    fs::remove_file(&link).unwrap();
    symlink(format!("{r}/b"), &link).unwrap();
    assert_eq!(
        target_changes(&recorded),
        [(link.clone(), format!("{r}/a"), format!("{r}/b"))]
    );

    // A dangling link now: the walk stops at the parent.
    fs::remove_file(&link).unwrap();
    symlink(format!("{r}/none"), &link).unwrap();
    assert_eq!(
        target_changes(&recorded),
        [(link.clone(), format!("{r}/a"), link.clone())]
    );
}

/// The sorted vector reads as the map it replaced: scopes in byte order,
/// a scope given twice keeps its last target, a scope is found by name,
/// and `inspect --json` still gets an object.
#[test]
fn targets_read_as_a_map_in_scope_order() {
    let t = Targets::from_pairs([
        ("/b".to_string(), "/b1".to_string()),
        ("/a".to_string(), "/a1".to_string()),
        ("/b".to_string(), "/b2".to_string()),
        ("/B".to_string(), "/B1".to_string()),
    ]);
    assert_eq!(
        t.to_pairs(),
        [("/B", "/B1"), ("/a", "/a1"), ("/b", "/b2")].map(|(s, v)| (s.to_string(), v.to_string()))
    );
    assert_eq!(t.get("/a").map(String::as_str), Some("/a1"));
    assert_eq!(t.get("/c"), None);
    assert_eq!(
        serde_json::to_string(&t).unwrap(),
        r#"{"/B":"/B1","/a":"/a1","/b":"/b2"}"#
    );
}
