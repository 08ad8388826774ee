use super::*;
use crate::core::config::json;
use crate::core::config::request::tests::{BASE, CONFIG, chain, env, flatten, read_json};

fn block(config: &str) -> String {
    NormalizedBlock::from_request(&read_json(config))
        .as_str()
        .to_string()
}

/// A block is written once and parsed once: its text is the normalized
/// block's, its JSON that text parsed, whichever way it is made.
#[test]
fn a_block_carries_its_text_and_its_json() {
    let request = read_json(
        r#"{"permissions": {"allow-read": ["./b", "./a"], "deny-net": ["x.test"]}, "unsafe-shadowrealm": true}"#,
    );
    let normalized = NormalizedBlock::from_request(&request);
    let block = Block::from_request(&request);
    assert_eq!(block.as_str(), normalized.as_str());
    assert_eq!(block.sha256(), normalized.sha256());
    assert_eq!(block.to_string(), normalized.to_string());
    assert_eq!(block.json(), &json::parse(normalized.as_str()).unwrap());
    assert_eq!(normalized.clone().into_block(), block);
    // A stored block (JSON) gets its compact text back, byte for byte.
    let stored = Block::from_json(block.json().clone());
    assert_eq!(stored, block);
    // Text from elsewhere is parsed, or refused.
    assert_eq!(Block::parse(block.as_str()).unwrap(), block);
    assert!(Block::parse("{\"version\":").is_err());
}

#[test]
fn golden_from_goccias_unit_test() {
    let request = read_json(
        r#"{"unsafe-function-constructor": true, "permissions": {"deny-net": ["10.0.0.0/8"], "allow-net": ["example.com", "127.0.0.1"]}}"#,
    );
    let block = NormalizedBlock::from_request(&request);
    assert_eq!(
        block.as_str(),
        r#"{"permissions":{"allow-net":["127.0.0.1","example.com"],"deny-net":["10.0.0.0/8"]},"unsafe":{"unsafe-function-constructor":true},"version":1}"#
    );
    assert_eq!(
        block.sha256(),
        "4ba5043ddf965d0c60e5b1f80f8942c8abb3d5fe38dfd0eff92854c0839f29a2"
    );
}

#[test]
fn golden_from_the_documentation() {
    let entries = flatten(
        r#"{"permissions": {"allow-net": ["example.com", "0.0.0.0", "127.0.0.1", "EXAMPLE.com"], "allow-ffi": ["../fixtures/ffi/"]},
            "unsafe-function-constructor": true, "unsafe-shadowrealm": false}"#,
        "/abs/tests/goccia.json",
    );
    let request =
        PermissionRequest::from_entries(&entries, "/abs/tests/goccia.json", &env()).unwrap();
    let block = NormalizedBlock::from_request(&request);
    assert_eq!(
        block.as_str(),
        r#"{"permissions":{"allow-ffi":["/abs/fixtures/ffi"],"allow-net":["0.0.0.0","127.0.0.1","example.com"]},"unsafe":{"unsafe-function-constructor":true},"version":1}"#
    );
    assert_eq!(
        block.sha256(),
        "82f6b42e27b9fa1a64ec278150885bf545e7cce4574dda23b78de05f17d954a6"
    );
}

#[test]
fn members_and_sections() {
    let cases = [
        (r#"{}"#, r#"{"version":1}"#),
        (
            r#"{"permissions": {"allow-net": false, "deny-read": [], "allow-ffi": []}}"#,
            r#"{"version":1}"#,
        ),
        (r#"{"unsafe-shadowrealm": false}"#, r#"{"version":1}"#),
        // Deny-only blocks are hashed too; keys sort by bytes.
        (
            r#"{"permissions": {"deny-read": true, "deny-net": ["X.test"], "deny-ffi": ["/l"], "deny-import": ["github"]}}"#,
            r#"{"permissions":{"deny-ffi":["/l"],"deny-import":["github"],"deny-net":["x.test"],"deny-read":true},"version":1}"#,
        ),
        (
            r#"{"permissions": {"allow-read": ["a"], "allow-read": true, "allow-import": ["node_modules"], "deny-net": ["private"]}}"#,
            r#"{"permissions":{"allow-import":["node_modules"],"allow-read":true,"deny-net":["private"]},"version":1}"#,
        ),
        (
            r#"{"unsafe-shadowrealm": true, "unsafe-function-constructor": true}"#,
            r#"{"unsafe":{"unsafe-function-constructor":true,"unsafe-shadowrealm":true},"version":1}"#,
        ),
        (r#"{"sandbox": {}}"#, r#"{"sandbox":{},"version":1}"#),
        (
            r#"{"sandbox": {"diff": false, "copy": [], "entry": ""}}"#,
            r#"{"sandbox":{},"version":1}"#,
        ),
        (
            r#"{"sandbox": {"entry": "/m.js", "diff-file": "d.json", "diff": true, "copy-rw": ["out"], "copy": ["b", "a=/x", "b", "c="]},
                "permissions": {"allow-net": ["a.test"]}, "unsafe-shadowrealm": true}"#,
            r#"{"permissions":{"allow-net":["a.test"]},"sandbox":{"copy":["/p/b","/p/a=/x","/p/b","/p/c"],"copy-rw":["/p/out"],"diff":true,"diff-file":"/p/d.json","entry":"/m.js"},"unsafe":{"unsafe-shadowrealm":true},"version":1}"#,
        ),
        (
            r#"{"sandbox": {"diff": "json"}}"#,
            r#"{"sandbox":{"diff":"json"},"version":1}"#,
        ),
    ];
    for (config, wanted) in cases {
        assert_eq!(block(config), wanted, "{config}");
    }
}

#[test]
fn scopes_are_normalized_deduplicated_and_byte_sorted() {
    assert_eq!(
        block(
            r#"{"permissions": {
                "allow-net": ["Example.COM.", "example.com", "example.com.", " EXAMPLE.com "],
                "allow-import": ["GitHub:Me/Repo", "Node_Modules=Lib/Sub", "NODE_MODULES", "github:me/repo"],
                "allow-read": ["é", "B", "a", "./a", "a/ /"]}}"#
        ),
        r#"{"permissions":{"allow-import":["github:me/repo","node_modules","node_modules=/p/Lib/Sub"],"allow-net":["example.com","example.com."],"allow-read":["/p/B","/p/a","/p/a/","/p/é"]},"version":1}"#
    );
}

#[test]
fn base_scopes_enter_the_block_with_their_own_directory() {
    let request = PermissionRequest::from_entries(
        &chain(
            r#"{"permissions": {"allow-net": ["a.test"]}}"#,
            r#"{"permissions": {"allow-net": ["b.test"], "allow-read": ["x"]}}"#,
        ),
        CONFIG,
        &env(),
    )
    .unwrap();
    assert_eq!(
        NormalizedBlock::from_request(&request).as_str(),
        r#"{"permissions":{"allow-net":["a.test"],"allow-read":["/base/dir/x"]},"version":1}"#
    );
    assert!(BASE.starts_with("/base/dir/"));
}

#[test]
fn escaping_matches_quote_json_string() {
    assert_eq!(
        block(
            r#"{"permissions": {"allow-read": ["q\"b\\c\u0001\u001fd\u007fé\t"]}, "sandbox": {"copy": ["x=/s\"\n\u00e9"]}}"#
        ),
        "{\"permissions\":{\"allow-read\":[\"/p/q\\\"b/c\\u0001\\u001fd\u{7f}é\"]},\"sandbox\":{\"copy\":[\"/p/x=/s\\\"\\né\"]},\"version\":1}"
    );
    // `/` is never escaped: with `\/` the golden hash would differ.
    assert!(!block(r#"{"permissions": {"allow-read": ["/a"]}}"#).contains("\\/"));
}

#[test]
fn sha256_is_lower_case_hex_of_the_bytes() {
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(sha256_hex("é".as_bytes()).len(), 64);
}

#[test]
fn the_block_parses_back_as_json() {
    let text =
        block(r#"{"permissions": {"allow-net": ["a.test"]}, "sandbox": {"entry": "\u0000"}}"#);
    assert_eq!(json::parse(&text).unwrap().to_compact(), text);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    const NET: [&str; 8] = [
        "a.test",
        "A.Test",
        "b.test.",
        "127.0.0.1",
        "[::1]:80",
        "*.x.org",
        "private",
        "10.0.0.0/8",
    ];

    fn net_request(scopes: &[&str]) -> PermissionRequest {
        let items: Vec<String> = scopes.iter().map(|s| json::quote_json_string(s)).collect();
        read_json(&format!(
            r#"{{"permissions": {{"allow-net": [{}], "deny-net": ["c.test"]}}}}"#,
            items.join(",")
        ))
    }

    proptest! {
        #[test]
        fn order_and_duplicates_never_change_the_hash(
            picks in proptest::collection::vec(0..NET.len(), 1..12),
            seed in any::<u64>(),
        ) {
            let scopes: Vec<&str> = picks.iter().map(|&i| NET[i]).collect();
            let mut shuffled = scopes.clone();
            shuffled.extend(scopes.iter().take((seed % 4) as usize));
            let n = shuffled.len();
            for i in 0..n {
                shuffled.swap(i, (seed.rotate_left(i as u32) as usize) % n);
            }
            let a = NormalizedBlock::from_request(&net_request(&scopes));
            let b = NormalizedBlock::from_request(&net_request(&shuffled));
            prop_assert_eq!(a.sha256(), b.sha256());
        }

        #[test]
        fn normalizing_twice_changes_nothing(scope in "\\PC{0,24}", cap in 0..4usize) {
            let capability = Capability::ALL[cap];
            let once = normalize_scope(capability, &scope);
            prop_assert_eq!(normalize_scope(capability, &once), once.clone());
        }

        #[test]
        fn no_input_panics(
            scopes in proptest::collection::vec("\\PC{0,16}", 0..4),
            cap in 0..4usize,
            allow in any::<bool>(),
            copy in "\\PC{0,12}",
        ) {
            let key = Capability::ALL[cap].key(allow);
            let items: Vec<String> = scopes.iter().map(|s| json::quote_json_string(s)).collect();
            let config = format!(
                r#"{{"permissions": {{"{key}": [{}]}}, "sandbox": {{"copy": [{}]}}}}"#,
                items.join(","),
                json::quote_json_string(&copy)
            );
            if let Ok(request) = PermissionRequest::from_entries(&flatten(&config, CONFIG), CONFIG, &env()) {
                let block = NormalizedBlock::from_request(&request);
                prop_assert_eq!(block.sha256().len(), 64);
                prop_assert!(json::parse(block.as_str()).is_ok());
            }
        }
    }
}

#[test]
fn lower_hex_writes_two_lower_case_digits_per_byte() {
    assert_eq!(
        super::lower_hex(&[0x00, 0x0f, 0x10, 0xa5, 0xff]),
        "000f10a5ff"
    );
    assert_eq!(super::lower_hex(&[]), "");
}
