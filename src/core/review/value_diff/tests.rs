use super::*;
use crate::core::config::json;

fn block(text: &str) -> Vec<(String, Vec<String>)> {
    block_values(&json::parse(text).unwrap())
}

fn hosts(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("host{i:02}.example.com")).collect()
}

fn net_block(hosts: &[String]) -> String {
    let quoted: Vec<String> = hosts.iter().map(|h| format!("\"{h}\"")).collect();
    format!(
        r#"{{"permissions":{{"allow-net":[{}]}},"version":1}}"#,
        quoted.join(",")
    )
}

#[test]
fn one_swapped_host_of_thirty_is_one_removal_and_one_addition() {
    let old = hosts(30);
    let mut new = old.clone();
    new[17] = "host17.attacker.io".into();
    new.push("zz.example.com".into());
    new.sort();
    let diff = diff_values(&block(&net_block(&old)), &block(&net_block(&new)), &[], &[]);
    let changed: Vec<(char, &str)> = diff
        .iter()
        .filter(|v| v.change != Change::Unchanged)
        .map(|v| (v.change.sign(), v.value.as_str()))
        .collect();
    assert_eq!(
        changed,
        [
            ('-', "host17.example.com"),
            ('+', "host17.attacker.io"),
            ('+', "zz.example.com")
        ]
    );
    assert!(diff.iter().all(|v| v.request == "allow-net"));
    assert_eq!(value_summary(&diff), "+2 -1");
    let shown = render_text(
        &diff,
        2,
        &|s| s.to_string(),
        &crate::core::review::style::plain,
    );
    assert!(shown.starts_with("  allow-net\n"), "{shown}");
    assert!(shown.contains("    - host17.example.com\n"), "{shown}");
    assert!(shown.contains("    + host17.attacker.io\n"), "{shown}");
    assert!(shown.contains("      … 17 unchanged\n"), "{shown}");
}

#[test]
fn a_value_holding_a_comma_stays_one_value() {
    let diff = diff_values(
        &block(r#"{"permissions":{"allow-read":["/a, /b"]}}"#),
        &block(r#"{"permissions":{"allow-read":["/a","/b"]}}"#),
        &[],
        &[],
    );
    assert_eq!(value_summary(&diff), "+2 -1");
}

#[test]
fn unscoped_sandbox_and_unsafe_entries_are_values() {
    assert_eq!(
        block(
            r#"{"permissions":{"allow-net":true,"deny-read":[]},"sandbox":{"copy":["/p/a","/p/b=/x"],"diff":"json"},"unsafe":{"unsafe-shadowrealm":true,"unsafe-function-constructor":false},"version":1}"#
        ),
        vec![
            ("allow-net".to_string(), vec!["any public host".to_string()]),
            ("deny-read".to_string(), vec![]),
            (
                "sandbox.copy".to_string(),
                vec!["/p/a".to_string(), "/p/b=/x".to_string()]
            ),
            ("sandbox.diff".to_string(), vec!["json".to_string()]),
            ("unsafe-shadowrealm".to_string(), vec!["true".to_string()]),
        ]
    );
    assert_eq!(
        block(r#"{"sandbox":{},"version":1}"#),
        vec![(
            "sandbox".to_string(),
            vec!["no inputs (sandbox mode only)".to_string()]
        )]
    );
}

#[test]
fn removed_requests_keep_their_place_and_links_carry_their_destination() {
    let old =
        block(r#"{"permissions":{"allow-ffi":["/l.so"],"allow-net":["a"],"allow-read":["/r/d"]}}"#);
    let new = block(r#"{"permissions":{"allow-ffi":["/l.so"],"allow-read":["/r/d","/r/t"]}}"#);
    let targets = vec![
        ("/r/d".to_string(), "/tmp/x".to_string()),
        ("/r/t".to_string(), "/home/u/.ssh".to_string()),
    ];
    let moved = vec![(
        "/r/d".to_string(),
        "/srv/d".to_string(),
        "/tmp/x".to_string(),
    )];
    let diff = diff_values(&old, &new, &targets, &moved);
    let seen: Vec<(&str, Change, &str, Option<&str>)> = diff
        .iter()
        .map(|v| {
            (
                v.request.as_str(),
                v.change,
                v.value.as_str(),
                v.destination.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("allow-ffi", Change::Unchanged, "/l.so", None),
            ("allow-net", Change::Removed, "a", None),
            ("allow-read", Change::Retargeted, "/r/d", Some("/tmp/x")),
            ("allow-read", Change::Added, "/r/t", Some("/home/u/.ssh")),
        ]
    );
    assert_eq!(value_summary(&diff), "+1 -1 ~1");
}

#[test]
fn a_moved_target_no_value_names_is_still_listed() {
    let b = block(r#"{"permissions":{"allow-net":["a"]}}"#);
    let moved = vec![("/gone".to_string(), "/gone".to_string(), "/etc".to_string())];
    let diff = diff_values(&b, &b, &[], &moved);
    assert_eq!(
        diff.last().unwrap(),
        &ValueChange {
            request: "path".into(),
            change: Change::Retargeted,
            value: "/gone".into(),
            destination: Some("/etc".into()),
        }
    );
}
