//! A store read on demand is the store `read_store` reads, verdicts
//! included, and an entry changed in place after the read is an error,
//! never another entry.

use std::io::{Seek, SeekFrom, Write};

use super::*;

fn entry(digit: char, extra: &str) -> String {
    format!(
        r#"{{"sha256": "{}", "block": {{"version": 1}}, "trustedAt": "2026-09-20T10:12:03Z", "trustedBy": "GocciaTestRunner 0.14.0"{extra}}}"#,
        digit.to_string().repeat(64)
    )
}

fn store_file(doc: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json").to_str().unwrap().to_string();
    std::fs::write(&path, doc).unwrap();
    (dir, path)
}

/// A reader's verdict: the error text, or each key and its entry in
/// store order.
type Verdict = Result<Vec<(String, StoredEntry)>, String>;

/// Both readers' verdicts on the file at `path`.
fn both(path: &str) -> (Verdict, Verdict) {
    let whole = read_store(path).map_err(|e| e.to_string()).map(|store| {
        store
            .iter()
            .map(|(k, e)| (k.to_string(), e.clone()))
            .collect()
    });
    let on_demand = StoreOnDemand::read(path)
        .map_err(|e| e.to_string())
        .and_then(|store| {
            store
                .keys()
                .map(|k| match store.stored(k) {
                    Ok(Some(e)) => Ok((k.to_string(), e.into_owned())),
                    Ok(None) => Err(format!("{k} listed but not found")),
                    Err(e) => Err(e.to_string()),
                })
                .collect()
        });
    (whole, on_demand)
}

#[test]
fn reads_every_file_as_read_store_does() {
    let deep = format!("{}1{}", "[".repeat(252), "]".repeat(252));
    let docs = [
        // Valid: a duplicated key keeps its first place and its last data;
        // escapes in a key; targets.
        format!(
            r#"{{"version": 1, "trusted": {{"/b": {}, "/a\u0041": {}, "/b": {}}}}}"#,
            entry('1', ""),
            entry('2', r#", "targets": {"/s": "/t"}"#),
            entry('3', "")
        ),
        r#"{"version": 1, "trusted": {}}"#.to_string(),
        // Valid, but nested past what the lean reader takes: held whole.
        format!(
            r#"{{"version": 1, "trusted": {{"/d": {}}}}}"#,
            entry('4', "").replace(
                r#""block": {"version": 1}"#,
                &format!(r#""block": {{"version": 1, "x": {deep}}}"#)
            )
        ),
        // Not JSON, newer, and shape problems.
        "{\"version\": 1, \"trusted\": ".to_string(),
        r#"{"version": 2, "trusted": {}}"#.to_string(),
        r#"{"version": 1, "trusted": {"/a": {"sha256": "x"}}}"#.to_string(),
        format!(
            r#"{{"version": 1, "trusted": {{"/a": {}}}, "extra": 1}}"#,
            entry('1', "")
        ),
        r#"{"trusted": {}}"#.to_string(),
    ];
    for doc in &docs {
        let (_dir, path) = store_file(doc);
        let (whole, on_demand) = both(&path);
        assert_eq!(on_demand, whole, "{doc}");
    }
    // The deep one is read by the exact reader alone, and valid.
    assert!(super::super::lean::read_lean(&docs[2]).is_none());
    let (_dir, path) = store_file(&docs[2]);
    assert_eq!(both(&path).1.map(|e| e.len()), Ok(1));
    let (_dir, path) = store_file(&docs[0]);
    let keys: Vec<String> = both(&path).1.unwrap().into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["/b", "/aA"]);
    // A missing file is the empty store; a directory is refused the same.
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.json");
    let (whole, on_demand) = both(missing.to_str().unwrap());
    assert_eq!((&whole, &on_demand), (&Ok(Vec::new()), &Ok(Vec::new())));
    let (whole, on_demand) = both(dir.path().to_str().unwrap());
    assert!(whole.is_err());
    assert_eq!(on_demand, whole);
}

/// A store of `/a` (digest 1…1) and `/b` (digest 2…2).
fn a_and_b() -> String {
    format!(
        r#"{{"version": 1, "trusted": {{"/a": {}, "/b": {}}}}}"#,
        entry('1', ""),
        entry('2', "")
    )
}

/// Holds its keys, not its entries: the bytes of a long store are read
/// back one entry at a time, through the handle it was read from.
#[test]
fn a_store_replaced_by_a_rename_is_not_what_is_read_back() {
    let doc = a_and_b();
    let (dir, path) = store_file(&doc);
    let store = StoreOnDemand::read(&path).unwrap();
    let before = read_store(&path).unwrap();
    // Every writer replaces the file by a rename.
    let next = dir.path().join("next.json");
    std::fs::write(&next, r#"{"version": 1, "trusted": {}}"#).unwrap();
    std::fs::rename(&next, &path).unwrap();
    for key in ["/a", "/b"] {
        let read_back = store.stored(key).unwrap().unwrap().into_owned();
        assert_eq!(Some(&read_back), before.get(key), "{key}");
    }
    assert!(store.stored("/c").unwrap().is_none());
}

/// A file written in place after the read (an editor that does not
/// rename) is caught at the entry it changed: the entry is refused, never
/// read as it now is.
#[test]
fn an_entry_changed_in_place_is_an_error() {
    let doc = a_and_b();
    let (_dir, path) = store_file(&doc);
    let store = StoreOnDemand::read(&path).unwrap();
    // Same length, valid JSON, another digest for /b.
    let at = doc.find(&"2".repeat(64)).unwrap();
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.seek(SeekFrom::Start(at as u64)).unwrap();
    file.write_all("3".repeat(64).as_bytes()).unwrap();
    drop(file);
    assert!(store.stored("/a").unwrap().is_some(), "/a is as it was");
    let changed =
        format!("trust store {path} changed while it was being read; run the command again");
    assert_eq!(store.stored("/b").unwrap_err().to_string(), changed);
    // Cut short in place: the same.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(10)
        .unwrap();
    assert_eq!(store.stored("/a").unwrap_err().to_string(), changed);
}
