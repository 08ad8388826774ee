//! Every message of docs/src/compatibility.md#reading-and-validating-the-store and the order they come in.

use super::*;

const H: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

fn entry(extra: &str) -> String {
    format!(
        r#"{{"sha256": "{H}", "block": {{"version": 1}}, "trustedAt": "2026-09-20T10:12:03Z", "trustedBy": "GocciaTestRunner 0.14.0"{extra}}}"#
    )
}

/// The message for a document, with the common frame cut off for
/// shape problems: `trust store P is not a valid trust store (X); fix
/// or delete it` → `X`.
fn problem(doc: &str) -> String {
    match parse_store("P", doc.as_bytes()) {
        Ok(s) => format!("accepted {} entries", s.len()),
        Err(StoreError::Invalid { problem, .. }) => problem,
        Err(other) => other.to_string(),
    }
}

#[test]
fn not_json_and_not_utf8() {
    let msg = "trust store P is not valid JSON; fix or delete it";
    for doc in [
        "",
        "{\"version\": 1, \"trusted\": ",
        "\u{feff}{\"version\": 1, \"trusted\": {}}",
        "{'a': 1}",
    ] {
        assert_eq!(problem(doc), msg, "{doc:?}");
    }
    let latin1 = b"{\"version\": 1, \"trusted\": {\"/caf\xe9\": {}}}";
    assert_eq!(parse_store("P", latin1).unwrap_err().to_string(), msg);
}

#[test]
fn newer_version_comes_first_whatever_the_shape() {
    let newer = |v: u32| {
        format!(
            "trust store P was written by a newer GocciaScript (version {v}); upgrade GocciaScript or remove the file"
        )
    };
    assert_eq!(
        problem(r#"{"version": 2, "trusted": {}, "future": [1, 2]}"#),
        newer(2)
    );
    assert_eq!(
        problem(r#"{"trusted": 5, "extra": 1, "version": 3}"#),
        newer(3)
    );
    assert_eq!(problem(r#"{"version": "x", "version": 2}"#), newer(2));
    // Only an integer is a version: 2.0 is a shape problem.
    assert_eq!(
        problem(r#"{"version": 2.0, "trusted": {}}"#),
        r#""version" is not an integer"#
    );
    // Not JSON still wins over everything.
    assert_eq!(
        problem(r#"{"version": 2, "trusted": {},}"#),
        "trust store P is not valid JSON; fix or delete it"
    );
}

#[test]
fn every_shape_problem() {
    let cases = [
        ("[]", "the top level is not an object".to_string()),
        ("\"x\"", "the top level is not an object".into()),
        (
            r#"{"version": "1", "trusted": {}}"#,
            r#""version" is not an integer"#.into(),
        ),
        (
            r#"{"version": 1.0, "trusted": {}}"#,
            r#""version" is not an integer"#.into(),
        ),
        (
            r#"{"version": 1e0, "trusted": {}}"#,
            r#""version" is not an integer"#.into(),
        ),
        (
            r#"{"version": null, "trusted": {}}"#,
            r#""version" is not an integer"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": []}"#,
            r#""trusted" is not an object"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {}, "extra": true}"#,
            r#"unknown key "extra""#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a/goccia.json": []}}"#,
            "the entry for /a/goccia.json is not an object".into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {"sha256": 5, "block": {}, "trustedAt": "t", "trustedBy": "b"}}}"#,
            r#""sha256" of /a is not a string"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {"sha256": "abc", "block": {}, "trustedAt": "t", "trustedBy": "b"}}}"#,
            r#""sha256" of /a is not a SHA-256"#.into(),
        ),
        (
            &format!(
                r#"{{"version": 1, "trusted": {{"/a": {{"sha256": "{}"}}}}}}"#,
                H.to_uppercase()
            ),
            r#""sha256" of /a is not a SHA-256"#.into(),
        ),
        (
            &format!(r#"{{"version": 1, "trusted": {{"/a": {{"sha256": "{H}0"}}}}}}"#),
            r#""sha256" of /a is not a SHA-256"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {"block": []}}}"#,
            r#""block" of /a is not an object"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {"block": "{}"}}}"#,
            r#""block" of /a is not an object"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {"trustedAt": 1}}}"#,
            r#""trustedAt" of /a is not a string"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {"trustedBy": null}}}"#,
            r#""trustedBy" of /a is not a string"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {"targets": []}}}"#,
            r#""targets" of /a is not an object"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {"targets": {"/s": "/t", "/u": 1}}}}"#,
            "the target of /u in /a is not a string".into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {"hash": "x"}}}"#,
            r#"unknown key "hash" in the entry for /a"#.into(),
        ),
        (
            r#"{"version": 1, "trusted": {"/a": {}}}"#,
            r#"/a has no "sha256""#.into(),
        ),
        (
            &format!(
                r#"{{"version": 1, "trusted": {{"/a": {{"sha256": "{H}", "trustedAt": "t", "trustedBy": "b"}}}}}}"#
            ),
            r#"/a has no "block""#.into(),
        ),
        (
            &format!(
                r#"{{"version": 1, "trusted": {{"/a": {{"sha256": "{H}", "block": {{}}, "trustedBy": "b"}}}}}}"#
            ),
            r#"/a has no "trustedAt""#.into(),
        ),
        (
            &format!(
                r#"{{"version": 1, "trusted": {{"/a": {{"sha256": "{H}", "block": {{}}, "trustedAt": "t"}}}}}}"#
            ),
            r#"/a has no "trustedBy""#.into(),
        ),
        (r#"{"trusted": {}}"#, r#"no "version""#.into()),
        (r#"{"version": 1}"#, r#"no "trusted""#.into()),
        (
            r#"{"version": 0, "trusted": {}}"#,
            r#"unknown "version" 0"#.into(),
        ),
        (
            r#"{"version": -1, "trusted": {}}"#,
            r#"unknown "version" -1"#.into(),
        ),
    ];
    for (doc, want) in cases {
        assert_eq!(problem(doc), want, "{doc}");
    }
    let full = parse_store("/h/trust.json", b"[]").unwrap_err().to_string();
    assert_eq!(
        full,
        "trust store /h/trust.json is not a valid trust store (the top level is not an object); fix or delete it"
    );
}

#[test]
fn the_first_problem_in_document_order_wins() {
    assert_eq!(
        problem(r#"{"extra": 1, "version": "x"}"#),
        r#"unknown key "extra""#
    );
    assert_eq!(
        problem(r#"{"version": "x", "extra": 1}"#),
        r#""version" is not an integer"#
    );
    // Within an entry, fields in order; missing fields once the entry ends.
    assert_eq!(
        problem(r#"{"version": 1, "trusted": {"/a": {"sha256": 5, "x": 1}}}"#),
        r#""sha256" of /a is not a string"#
    );
    assert_eq!(
        problem(r#"{"version": 1, "trusted": {"/a": {"x": 1, "sha256": 5}}}"#),
        r#"unknown key "x" in the entry for /a"#
    );
    assert_eq!(
        problem(r#"{"version": 1, "trusted": {"/a": {}, "/b": []}}"#),
        r#"/a has no "sha256""#
    );
    assert_eq!(
        problem(r#"{"version": 1, "trusted": {"/b": [], "/a": {}}}"#),
        "the entry for /b is not an object"
    );
    // Any shape problem beats the checks made after everything.
    assert_eq!(
        problem(r#"{"trusted": {"/a": []}}"#),
        "the entry for /a is not an object"
    );
    assert_eq!(
        problem(r#"{"trusted": {}, "other": 1}"#),
        r#"unknown key "other""#
    );
    assert_eq!(problem("{}"), r#"no "version""#);
    assert_eq!(problem(r#"{"version": 0}"#), r#"no "trusted""#);
    // A later duplicate is checked too.
    let doc = format!(
        r#"{{"version": 1, "trusted": {{"/a": {}, "/a": {{"sha256": 1}}}}}}"#,
        entry("")
    );
    assert_eq!(problem(&doc), r#""sha256" of /a is not a string"#);
}

#[test]
fn accepts_the_schema_with_and_without_targets() {
    let doc = format!(
        r#"{{"version": 1, "trusted": {{"/a": {}, "/b": {}}}}}"#,
        entry(""),
        entry(r#", "targets": {"/s": "/t", "/s": "/u", "/r": "/r"}"#)
    );
    let store = parse_store("P", doc.as_bytes()).unwrap();
    assert!(!store.is_modified());
    assert!(store.get("/a").unwrap().targets.is_empty());
    let b = store.get("/b").unwrap();
    assert_eq!(
        b.target_pairs(),
        [
            ("/s".to_string(), "/u".to_string()),
            ("/r".into(), "/r".into())
        ]
    );
    assert_eq!(
        (&*b.trusted_at, &*b.trusted_by),
        ("2026-09-20T10:12:03Z", "GocciaTestRunner 0.14.0")
    );
}

#[test]
fn a_duplicated_key_keeps_its_first_place_and_its_last_data() {
    let later = entry("").replace("GocciaTestRunner", "GocciaScriptLoader");
    let doc = format!(
        r#"{{"version": 1, "trusted": {{"/b": {}, "/a": {}, "/b": {later}}}}}"#,
        entry(""),
        entry("")
    );
    let store = parse_store("P", doc.as_bytes()).unwrap();
    let keys: Vec<_> = store.iter().map(|(k, e)| (k, &*e.trusted_by)).collect();
    assert_eq!(
        keys,
        [
            ("/b", "GocciaScriptLoader 0.14.0"),
            ("/a", "GocciaTestRunner 0.14.0")
        ]
    );
}

#[test]
fn the_block_is_reserialized_compactly_in_file_order() {
    let doc = format!(
        r#"{{"version": 1, "trusted": {{"/a": {{"sha256": "{H}", "block": {{ "z": "\/x\u0041\u00e9", "a": [ true ] }}, "trustedAt": "t", "trustedBy": "b"}}}}}}"#
    );
    let store = parse_store("P", doc.as_bytes()).unwrap();
    assert_eq!(
        store.get("/a").unwrap().block.to_compact(),
        r#"{"z":"/xAé","a":[true]}"#
    );
}

#[test]
fn missing_and_unreadable_files() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none/trust.json");
    assert!(read_store(missing.to_str().unwrap()).unwrap().is_empty());
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    assert!(
        read_store(file.join("trust.json").to_str().unwrap())
            .unwrap()
            .is_empty()
    );
    let d = dir.path().to_str().unwrap();
    assert_eq!(
        read_store(d).unwrap_err().to_string(),
        format!("cannot read trust store {d}: Is a directory")
    );
}

/// Entries are checked on several threads: in a long store the problem
/// reported is still the first in the file, not the first found.
#[test]
fn in_a_long_store_the_first_problem_in_the_file_wins() {
    let good = |i: usize| {
        format!(
            r#""/k/{i}": {{"sha256": "{:064x}", "block": {{"version": 1}}, "trustedAt": "t", "trustedBy": "b"}}"#,
            i
        )
    };
    let entries: Vec<String> = (0..3000)
        .map(|i| match i {
            1500 => format!(r#""/k/{i}": {{"sha256": 5}}"#),
            2900 => format!(r#""/k/{i}": []"#),
            _ => good(i),
        })
        .collect();
    let doc = format!(r#"{{"version": 1, "trusted": {{{}}}}}"#, entries.join(", "));
    assert_eq!(problem(&doc), r#""sha256" of /k/1500 is not a string"#);
}

fn lean_entry(block: &str) -> String {
    format!(
        r#"{{"sha256": "{H}", "block": {block}, "trustedAt": "2026-09-20T10:12:03Z", "trustedBy": "x"}}"#
    )
}

/// What the lean reader accepts, it reads as the exact reader does;
/// what it refuses, the exact reader decides.
#[test]
fn accepts_only_what_the_exact_reader_reads_the_same() {
    let e = lean_entry(r#"{"version": 1}"#);
    let accepted = [
        r#"{"version": 1, "trusted": {}}"#.to_string(),
        format!(r#" {{ "trusted" : {{ "/a" : {e} }} , "version" : 1 }} "#),
        format!(r#"{{"version": "x", "version": 1, "trusted": {{"/a": {e}}}}}"#),
        format!(
            r#"{{"version": 1, "trusted": {{"/a": {e}, "/a": {e}}}, "trusted": {{"/b": {e}}}}}"#
        ),
        format!(r#"{{"version": 1, "trusted": {{"/\u00e9\"\t": {e}}}}}"#),
    ];
    // The third has a version that is not an integer: refused here.
    for (i, doc) in accepted.iter().enumerate() {
        let lean = super::super::lean::read_lean(doc);
        let exact = parse_exact("P", doc);
        match (lean, exact) {
            (Some(l), Ok(x)) => assert_eq!(l, x, "{doc}"),
            (None, _) => assert_eq!(i, 2, "{doc}"),
            (Some(_), Err(e)) => panic!("lean accepted what the exact reader refuses: {e}"),
        }
    }
    let deep = format!("{}1{}", "[".repeat(260), "]".repeat(260));
    let refused = [
        String::new(),
        "\u{feff}{\"version\": 1, \"trusted\": {}}".to_string(),
        r#"{"version": 2, "trusted": {}}"#.to_string(),
        r#"{"version": 1.0, "trusted": {}}"#.to_string(),
        r#"{"version": 1}"#.to_string(),
        r#"{"version": 1, "trusted": {}, "x": 1}"#.to_string(),
        format!(r#"{{"version": 1, "trusted": {{"/a": {e}}}}} x"#),
        format!(r#"{{"version": 1, "trusted": {{"/a": {e},}}}}"#),
        format!("{{\"version\": 1, \"trusted\": {{\"/a\u{1}\": {e}}}}}"),
        format!(
            r#"{{"version": 1, "trusted": {{"/a": {}}}}}"#,
            lean_entry(&deep)
        ),
        format!(
            r#"{{"version": 1, "trusted": {{"/a": {}}}}}"#,
            lean_entry("[1]")
        ),
        format!(
            r#"{{"version": 1, "trusted": {{"/a": {}}}}}"#,
            lean_entry("{\"a\": 01}")
        ),
    ];
    for doc in refused {
        assert!(super::super::lean::read_lean(&doc).is_none(), "{doc}");
    }
}

/// A store read from its file, its text let go of a group of entries at a
/// time, is the store `parse_store` reads from the same bytes, or the same
/// error: a valid store over several groups (a key met again in another
/// group included), and a bad entry in the first group read (the last in
/// the file, nothing let go yet) and in a later one (part of the text
/// already let go: the file is read again).
#[test]
fn a_store_read_from_its_file_is_the_store_its_bytes_parse_to() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("trust.json");
    let path = file.to_str().unwrap();
    let n = 2 * super::super::lean::RELEASE_EVERY + 100;
    let doc = |bad: Option<usize>| {
        let entries: Vec<String> = (0..n)
            .map(|i| {
                let key = if i == n - 1 { 7 } else { i };
                let by = format!(r#", "targets": {{"/s{i}": "/t{i}"}}"#);
                match bad == Some(i) {
                    true => format!(r#""/c{key}": {}"#, entry(r#", "x": 1"#)),
                    false => format!(r#""/c{key}": {}"#, entry(&by)),
                }
            })
            .collect();
        format!(r#"{{"version": 1, "trusted": {{{}}}}}"#, entries.join(", "))
    };
    for bad in [None, Some(n - 2), Some(10)] {
        let text = doc(bad);
        std::fs::write(&file, &text).unwrap();
        let from_file = read_store(path).map_err(|e| e.to_string());
        let from_bytes = parse_store(path, text.as_bytes()).map_err(|e| e.to_string());
        assert_eq!(from_file, from_bytes, "bad entry {bad:?}");
        match bad {
            None => assert_eq!(from_file.unwrap().len(), n - 1),
            Some(_) => assert!(from_file.is_err()),
        }
    }
}
