use super::*;
use crate::core::error::ExitClass;
use proptest::prelude::*;

/// Writes `text` to a file named `name` in a fresh directory and reads it.
fn read(name: &str, text: &str) -> Result<Vec<Entry>, ConfigError> {
    read_bytes(name, text.as_bytes())
}

fn read_bytes(name: &str, bytes: &[u8]) -> Result<Vec<Entry>, ConfigError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    read_entries(path.to_str().unwrap())
}

/// `key=value(kind)` with a `[]` suffix for in-array entries: one compact
/// line per entry keeps the expectations readable.
fn show(entries: &[Entry]) -> Vec<String> {
    entries
        .iter()
        .map(|e| {
            let kind = match e.kind {
                EntryKind::String => "s",
                EntryKind::Number => "n",
                EntryKind::Boolean => "b",
                EntryKind::EmptyArray => "empty",
                EntryKind::Unsupported => "unsup",
                EntryKind::Object => "obj",
            };
            let arr = if e.in_array { "[]" } else { "" };
            format!("{}{arr}={}({kind})", e.key, e.value)
        })
        .collect()
}

fn ok(name: &str, text: &str) -> Vec<String> {
    show(&read(name, text).unwrap())
}

fn err(name: &str, text: &str) -> ConfigError {
    read(name, text).unwrap_err()
}

#[test]
fn json_flattening_rules() {
    let text = r#"{
        "s": "a\u00e9\ud83d\ude00", "n": 1.50, "i": -0, "b": false, "z": null,
        "arr": ["x", 2, true, null, [1], {"a": 1}], "e": [],
        "permissions": {"allow-net": ["h"], "deep": {"x": 1}, "e": [], "n": null, "f": true},
        "empty": {}
    }"#;
    assert_eq!(
        ok("goccia.json", text),
        [
            "s=aé😀(s)",
            "n=1.50(n)",
            "i=-0(n)",
            "b=false(b)",
            "z=null(unsup)",
            "arr[]=x(s)",
            "arr[]=2(n)",
            "arr[]=true(b)",
            "arr[]=null(unsup)",
            "arr[]=array(unsup)",
            "arr[]=object(unsup)",
            "e[]=(empty)",
            "permissions=(obj)",
            "permissions.allow-net[]=h(s)",
            "permissions.deep=object(unsup)",
            "permissions.e[]=(empty)",
            "permissions.n=null(unsup)",
            "permissions.f=true(b)",
            "empty=(obj)",
        ]
    );
}

#[test]
fn json_keeps_duplicates_in_document_order_and_dotted_keys_literal() {
    let text = r#"{"permissions": {"allow-net": ["a"], "deny-read": ["/x"]},
        "b": 1, "permissions": {"allow-net": ["b"], "deny-read": true},
        "permissions.allow-net": ["c"], "b": 2}"#;
    assert_eq!(
        ok("goccia.json", text),
        [
            "permissions=(obj)",
            "permissions.allow-net[]=a(s)",
            "permissions.deny-read[]=/x(s)",
            "b=1(n)",
            "permissions=(obj)",
            "permissions.allow-net[]=b(s)",
            "permissions.deny-read=true(b)",
            "permissions.allow-net[]=c(s)",
            "b=2(n)",
        ]
    );
}

#[test]
fn json_keeps_document_order_even_for_index_like_keys() {
    assert_eq!(
        ok("c.json", r#"{"b": 1, "1": 2, "0": 3}"#),
        ["b=1(n)", "1=2(n)", "0=3(n)"]
    );
}

#[test]
fn non_object_top_level_gives_no_entries() {
    for (name, text) in [
        ("c.json", "[1, 2]"),
        ("c.json", "\"x\""),
        ("c.json5", "[1]"),
        ("c.json5", "null"),
        ("c.json5", "5"),
    ] {
        assert_eq!(ok(name, text), Vec::<String>::new(), "{name}: {text}");
    }
}

#[test]
fn json_errors_name_the_file_and_exit_1() {
    let e = err("goccia.json", "");
    assert!(
        e.message.ends_with("goccia.json: Empty JSON input"),
        "{}",
        e.message
    );
    assert_eq!(e.class, ExitClass::Invalid);
    let e = err("goccia.json", "{\"a\": 1,}");
    assert!(
        e.message
            .contains("goccia.json: Expected a double-quoted property name at line 1"),
        "{}",
        e.message
    );
    assert_eq!(e.class, ExitClass::Invalid);
}

#[test]
fn bom_is_not_stripped_for_json() {
    assert!(read("c.json", "\u{feff}{}").is_err());
}

#[test]
fn invalid_utf8_is_refused() {
    let e = read_bytes("c.json", b"{\"a\": \"\xff\"}").unwrap_err();
    assert!(e.message.contains("invalid UTF-8"), "{}", e.message);
    assert!(read_bytes("c.toml", b"a = \"\xc3\"").is_err());
}

#[test]
fn extension_decides_the_format_case_insensitively() {
    assert_eq!(ok("C.JSON", r#"{"a": 1}"#), ["a=1(n)"]);
    assert_eq!(ok("c.Json5", "{a: 1}"), ["a=1(n)"]);
    assert_eq!(ok("c.TOML", "a = 1"), ["a=1(n)"]);
    let e = err("goccia.yaml", "a: 1");
    assert_eq!(
        e.message,
        "No config file parser registered for extension \".yaml\""
    );
    assert_eq!(e.class, ExitClass::Invalid);
    assert_eq!(
        err("goccia", "{}").message,
        "No config file parser registered for extension \"\""
    );
}

#[test]
fn extension_is_fpc_extract_file_ext() {
    assert_eq!(extension("/a/b.JSON"), ".JSON");
    assert_eq!(extension("/a.d/b"), "");
    assert_eq!(extension("/a/.json"), ".json");
    assert_eq!(extension("/a/b.json\\c"), "");
    assert_eq!(extension("/a/b."), ".");
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let e = read_entries("/nonexistent-dir-for-goccia/goccia.json").unwrap_err();
    assert!(
        e.message
            .starts_with("/nonexistent-dir-for-goccia/goccia.json: "),
        "{}",
        e.message
    );
    assert_eq!(e.class, ExitClass::Invalid);
}

#[test]
fn entries_carry_their_source_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("goccia.json");
    std::fs::write(&path, r#"{"a": {"b": [1]}}"#).unwrap();
    let p = path.to_str().unwrap();
    let entries = read_entries(p).unwrap();
    assert!(entries.iter().all(|e| &*e.source == p));
}

#[test]
fn json5_values_and_number_texts() {
    let text = "// c\n{a: 'x', b: 0x10, c: +1.5e3, d: .5, e: NaN, f: -Infinity, g: 18446744073709551616, \
                h: 9007199254740993, h2: -9007199254740993, i: [null, [], {}], j: {k: {l: 1}}, m: -0, n: 1e21,}";
    assert_eq!(
        ok("goccia.json5", text),
        [
            "a=x(s)",
            "b=16(n)",
            "c=1500(n)",
            "d=0.5(n)",
            "e=NaN(n)",
            "f=-Infinity(n)",
            "g=18446744073709552000(n)",
            "h=9007199254740992(n)",
            "h2=-9007199254740992(n)",
            "i[]=null(unsup)",
            "i[]=array(unsup)",
            "i[]=object(unsup)",
            "j=(obj)",
            "j.k=object(unsup)",
            "m=0(n)",
            "n=1e+21(n)",
        ]
    );
}

#[test]
fn json5_follows_js_property_order_and_last_value_wins() {
    let text = r#"{b: 1, "2": "two", a: 1, "10": "ten", b: 2, "01": "x", "4294967295": "big", "0": "zero",
                   permissions: {"deny-read": ["/a"], "1": 1, "deny-read": true}}"#;
    assert_eq!(
        ok("goccia.json5", text),
        [
            "0=zero(s)",
            "2=two(s)",
            "10=ten(s)",
            "b=2(n)",
            "a=1(n)",
            "01=x(s)",
            "4294967295=big(s)",
            "permissions=(obj)",
            "permissions.1=1(n)",
            "permissions.deny-read=true(b)",
        ]
    );
}

#[test]
fn json5_errors_and_bom() {
    let e = err("c.json5", "{a: 1,,}");
    assert!(e.message.contains("c.json5: "), "{}", e.message);
    assert_eq!(e.class, ExitClass::Invalid);
    assert!(read("c.json5", "{} x").is_err(), "trailing data");
    assert!(
        read("c.json5", "").is_err(),
        "empty JSON5 is not a document"
    );
    // The json5 crate treats U+FEFF as whitespace, as JS does; we strip nothing.
    assert_eq!(ok("c.json5", "\u{feff}{a: 1}"), ["a=1(n)"]);
}

#[test]
fn toml_tables_inline_tables_and_dotted_keys_are_equivalent() {
    let header = "top = 1\n[permissions]\nallow-net = [\"a\"]\nallow-ffi = true\n";
    let inline = "top = 1\npermissions = { allow-net = [\"a\"], allow-ffi = true }\n";
    let dotted = "top = 1\npermissions.allow-net = [\"a\"]\npermissions.allow-ffi = true\n";
    let expected = [
        "top=1(n)",
        "permissions=(obj)",
        "permissions.allow-net[]=a(s)",
        "permissions.allow-ffi=true(b)",
    ];
    for text in [header, inline, dotted] {
        assert_eq!(ok("goccia.toml", text), expected, "{text}");
    }
}

#[test]
fn toml_keeps_insertion_order_through_reopened_tables() {
    // `b` is created by `[b.c]` before `a` exists, then reopened by `[b]`.
    let text = "z = 1\n[b.c]\nx = +1_000\n[a]\ny = 0x1F\nq = -inf\n[b]\nw = 2\n";
    assert_eq!(
        ok("goccia.toml", text),
        [
            "z=1(n)",
            "b=(obj)",
            "b.c=object(unsup)",
            "b.w=2(n)",
            "a=(obj)",
            "a.y=31(n)",
            "a.q=-Infinity(n)",
        ]
    );
}

#[test]
fn toml_index_like_keys_come_first() {
    assert_eq!(
        ok("c.toml", "b = 1\n3 = 2\n1 = 3\n"),
        ["1=3(n)", "3=2(n)", "b=1(n)"]
    );
}

#[test]
fn toml_datetimes_and_deep_tables_are_unsupported() {
    let text = "d = 1979-05-27\nt = 07:32:00\n[permissions.deny-read]\nx = 1\n[[arr]]\nn = 1\n";
    assert_eq!(
        ok("goccia.toml", text),
        [
            "d=1979-05-27(unsup)",
            "t=07:32:00(unsup)",
            "permissions=(obj)",
            "permissions.deny-read=object(unsup)",
            "arr[]=object(unsup)",
        ]
    );
    assert_eq!(
        ok("c.toml", "s = { when = 1979-05-27T07:32:00Z }"),
        ["s=(obj)", "s.when=1979-05-27T07:32:00Z(unsup)"]
    );
}

#[test]
fn toml_empty_file_and_errors() {
    assert_eq!(ok("goccia.toml", ""), Vec::<String>::new());
    let e = err("goccia.toml", "a =\n");
    assert!(
        e.message.contains("goccia.toml: ") && e.message.contains("at line 1, column"),
        "{}",
        e.message
    );
    assert_eq!(e.class, ExitClass::Invalid);
    assert!(
        read("c.toml", "a = 1\na = 2").is_err(),
        "TOML refuses duplicate keys"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{{\"a\": {}", "[".repeat(50_000));
    assert!(read("c.json", &deep).is_err());
    assert!(read("c.json5", &deep).is_err());
    assert!(read("c.toml", &format!("a = {}", "[".repeat(50_000))).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Hostile bytes never panic, whatever the format.
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        for name in ["c.json", "c.json5", "c.toml"] {
            let _ = read_bytes(name, &bytes);
        }
    }

    /// Structured-looking noise reaches deeper into the parsers.
    #[test]
    fn config_like_text_never_panics(text in "[\\[\\]{}\"'a-c0-9.,:=+\\-_ \n#eEx]{0,80}") {
        for name in ["c.json", "c.json5", "c.toml"] {
            let _ = read(name, &text);
        }
    }
}

#[test]
fn only_a_regular_file_is_read_and_never_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("goccia.json");
    crate::core::paths::portable::mkfifo(&fifo);
    let zero = dir.path().join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let tty = dir.path().join("tty.toml");
    std::os::unix::fs::symlink("/dev/tty", &tty).unwrap();
    for path in [&fifo, &zero, &tty] {
        let start = std::time::Instant::now();
        let path = path.to_str().unwrap();
        let e = read_entries(path).unwrap_err();
        assert_eq!(e.message, format!("{path}: not a regular file"));
        assert_eq!(e.class, ExitClass::Invalid);
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
    }
}

#[test]
fn a_config_over_the_cap_is_refused_and_one_at_the_cap_loads() {
    let cap = crate::core::paths::bounded::CONFIG_MAX_BYTES as usize;
    let mut text = String::from("{\"a\": \"");
    text.push_str(&"x".repeat(cap - text.len() - 2));
    text.push_str("\"}");
    assert_eq!(text.len(), cap);
    assert_eq!(read("goccia.json", &text).unwrap().len(), 1);
    text.insert(7, 'y');
    let e = err("goccia.json", &text);
    assert!(
        e.message
            .ends_with(": larger than the 1 MiB limit; not read"),
        "{}",
        e.message
    );
    assert_eq!(e.class, ExitClass::Invalid);
}
