use super::*;
use crate::core::config::block::NormalizedBlock;
use crate::core::config::json::parse;
use crate::core::config::request::tests::read_json;

fn lines(block: &str) -> Vec<String> {
    description_lines(&parse(block).unwrap())
}

#[test]
fn one_line_per_member_of_a_current_block() {
    let block = NormalizedBlock::from_request(&read_json(
        r#"{"unsafe-function-constructor": true, "permissions": {"deny-net": ["10.0.0.0/8"], "allow-net": ["example.com", "127.0.0.1"]}}"#,
    ));
    assert_eq!(
        lines(block.as_str()),
        [
            "allow-net: 127.0.0.1, example.com",
            "deny-net: 10.0.0.0/8",
            "unsafe-function-constructor: true"
        ]
    );
}

#[test]
fn unscoped_keys_say_what_they_cover() {
    assert_eq!(
        lines(
            r#"{"permissions":{"allow-ffi":true,"allow-import":true,"allow-net":true,"allow-read":true,"deny-ffi":true,"deny-net":true,"deny-read":true},"version":1}"#
        ),
        [
            "allow-ffi: any library",
            "allow-import: true",
            "allow-net: any public host",
            "allow-read: any path",
            "deny-ffi: any library",
            "deny-net: any host",
            "deny-read: any path",
        ]
    );
}

#[test]
fn sandbox_and_unsafe_lines() {
    assert_eq!(
        lines(
            r#"{"sandbox":{"copy":["/p/a","/p/b=/x"],"copy-rw":["/p/out"],"diff":true,"diff-file":"/p/d.json","entry":"/m.js"},"unsafe":{"unsafe-shadowrealm":true},"version":1}"#
        ),
        [
            "sandbox.copy: /p/a, /p/b=/x",
            "sandbox.copy-rw: /p/out",
            "sandbox.diff: true",
            "sandbox.diff-file: /p/d.json",
            "sandbox.entry: /m.js",
            "unsafe-shadowrealm: true",
        ]
    );
    assert_eq!(
        lines(r#"{"sandbox":{"diff":"unified"},"version":1}"#),
        ["sandbox.diff: unified"]
    );
    assert_eq!(
        lines(r#"{"sandbox":{},"version":1}"#),
        ["sandbox: no inputs (sandbox mode only)"]
    );
}

#[test]
fn a_stored_block_is_read_in_document_order() {
    // Any order, duplicates, unknown sections, numbers and false are taken
    // as GocciaScript's streaming reader takes them.
    assert_eq!(
        lines(
            r#"{"version":1,"unsafe":{"unsafe-shadowrealm":false,"x":true},"permissions":{"deny-net":["b"],"allow-net":["a"],"allow-net":"ignored","deny-read":false,"allow-read":7,"deny-ffi":[]},"extra":{"k":true},"permissions":{"allow-net":["c",["d"],1,null]}}"#
        ),
        [
            "x: true",
            "deny-net: b",
            "allow-net: a",
            "deny-ffi: ",
            "allow-net: c, d"
        ]
    );
    // An empty first scope adds no separator, as in GocciaScript.
    assert_eq!(
        lines(r#"{"permissions":{"allow-read":["","b"]}}"#),
        ["allow-read: b"]
    );
    assert_eq!(
        lines(r#"{"permissions":{"allow-read":["a",""]}}"#),
        ["allow-read: a, "]
    );
    assert!(lines("[1]").is_empty());
    assert!(lines(r#"{"version":1}"#).is_empty());
}

#[test]
fn summary_keys_for_list_trusted() {
    let l = lines(
        r#"{"permissions":{"allow-net":["a:80"],"allow-read":true},"sandbox":{"copy":["/x"]},"unsafe":{"unsafe-shadowrealm":true},"version":1}"#,
    );
    assert_eq!(
        summary_keys(&l),
        "allow-net, allow-read, sandbox.copy, unsafe-shadowrealm"
    );
    assert_eq!(summary_keys(&lines(r#"{"sandbox":{}}"#)), "sandbox");
    assert_eq!(summary_keys(&[]), "");
}

/// `block_summary` must say exactly what `summary_keys` of the lines says,
/// for any block a store may hold: every section and member shape, keys
/// holding `:` (cut there, as the line is), empty and nested values,
/// duplicates and sections out of order.
#[test]
fn block_summary_is_summary_keys_of_the_lines() {
    let sections = ["permissions", "sandbox", "unsafe", "other", "a:b"];
    let keys = ["allow-net", "copy", "k:ey", ":", "", "sandbox", "unsafe-x"];
    let values = [
        "true",
        "false",
        "null",
        "1",
        r#""s:t""#,
        r#"[]"#,
        r#"["a","b:c",""]"#,
        r#"[["x"],{"y":"z"}]"#,
        r#"{}"#,
        r#"{"n":["m"]}"#,
    ];
    let mut blocks = vec![
        "[1]".to_string(),
        "{}".to_string(),
        r#"{"sandbox":{}}"#.to_string(),
        r#"{"sandbox":{"a":false},"sandbox":{}}"#.to_string(),
    ];
    for section in sections {
        for key in keys {
            for value in values {
                blocks.push(format!(
                    r#"{{"version":1,"{section}":{{"{key}":{value},"{key}":{value}}},"sandbox":{{"{key}":{value}}}}}"#
                ));
                blocks.push(format!(r#"{{"{section}":{{"{key}":{value}}}}}"#));
                blocks.push(format!(r#"{{"{section}":{value}}}"#));
            }
        }
    }
    for text in &blocks {
        let block = parse(text).unwrap();
        assert_eq!(
            block_summary(&block),
            summary_keys(&description_lines(&block)),
            "{text}"
        );
    }
}
