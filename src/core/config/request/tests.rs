use super::*;
use crate::core::config::json::{self, Json};
use crate::core::config::sandbox::SandboxDiff;
use crate::core::error::ExitClass;

pub(crate) const CONFIG: &str = "/p/goccia.json";
pub(crate) const BASE: &str = "/base/dir/goccia.json";

pub(crate) fn env() -> Env {
    Env {
        cwd: "/cwd".into(),
        home: "/home/u".into(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    }
}

pub(crate) fn entry(
    key: &str,
    value: &str,
    kind: EntryKind,
    in_array: bool,
    source: &str,
) -> Entry {
    Entry {
        key: key.into(),
        value: value.into(),
        kind,
        in_array,
        source: Arc::from(source),
    }
}

/// A `.json` document flattened as docs/src/compatibility.md#json-files says the
/// streaming reader does (duplicate keys kept, depth 3 unsupported).
pub(crate) fn flatten(text: &str, source: &str) -> Vec<Entry> {
    fn scalar(key: &str, value: &Json, in_array: bool, source: &str, out: &mut Vec<Entry>) {
        let (text, kind) = match value {
            Json::String(s) => (s.as_str(), EntryKind::String),
            Json::Number(n) => (n.as_str(), EntryKind::Number),
            Json::Bool(true) => ("true", EntryKind::Boolean),
            Json::Bool(false) => ("false", EntryKind::Boolean),
            Json::Null => ("null", EntryKind::Unsupported),
            Json::Array(_) | Json::Object(_) => ("", EntryKind::Unsupported),
        };
        out.push(entry(key, text, kind, in_array, source));
    }
    fn member(key: &str, value: &Json, depth: usize, source: &str, out: &mut Vec<Entry>) {
        match value {
            Json::Array(items) if items.is_empty() => {
                out.push(entry(key, "", EntryKind::EmptyArray, true, source))
            }
            Json::Array(items) => items.iter().for_each(|i| scalar(key, i, true, source, out)),
            Json::Object(members) if depth == 2 => {
                out.push(entry(key, "", EntryKind::Object, false, source));
                for (k, v) in members {
                    member(&format!("{key}.{k}"), v, 3, source, out);
                }
            }
            other => scalar(key, other, false, source, out),
        }
    }
    let mut out = Vec::new();
    if let Json::Object(members) = json::parse(text).unwrap() {
        for (k, v) in &members {
            member(k, v, 2, source, &mut out);
        }
    }
    out
}

/// A child config at [`CONFIG`] extending a base at [`BASE`]: child entries
/// first, as the merge gives them.
pub(crate) fn chain(child: &str, base: &str) -> Vec<Entry> {
    let mut entries = flatten(child, CONFIG);
    entries.extend(flatten(base, BASE));
    entries
}

pub(crate) fn read(entries: &[Entry]) -> Result<PermissionRequest, ConfigError> {
    PermissionRequest::from_entries(entries, CONFIG, &env())
}

pub(crate) fn read_json(text: &str) -> PermissionRequest {
    read(&flatten(text, CONFIG)).unwrap()
}

fn error_of(entries: &[Entry]) -> (ExitClass, String) {
    let e = read(entries).unwrap_err();
    (e.class, e.message)
}

fn resolved(key: &KeyRequest) -> Vec<&str> {
    key.scopes.iter().map(|s| s.resolved.as_str()).collect()
}

#[test]
fn the_flattener_matches_the_reference_shape() {
    assert_eq!(
        flatten(
            r#"{"permissions": {"allow-net": ["a"], "deny-read": [], "x": {"y": 1}}, "k": null}"#,
            CONFIG
        ),
        vec![
            entry("permissions", "", EntryKind::Object, false, CONFIG),
            entry(
                "permissions.allow-net",
                "a",
                EntryKind::String,
                true,
                CONFIG
            ),
            entry(
                "permissions.deny-read",
                "",
                EntryKind::EmptyArray,
                true,
                CONFIG
            ),
            entry("permissions.x", "", EntryKind::Unsupported, false, CONFIG),
            entry("k", "null", EntryKind::Unsupported, false, CONFIG),
        ]
    );
}

#[test]
fn every_error_message_and_exit_class() {
    use ExitClass::{Invalid, Usage};
    let valid = "(valid: allow-read, allow-net, allow-ffi, allow-import, deny-read, deny-net, deny-ffi, deny-import)";
    let malformed = "must be true, false, or an array of strings";
    let copy_grammar =
        "must be a string or an array of strings in the --copy grammar <host>[=<sandbox>]";
    let cases: Vec<(&str, ExitClass, String)> = vec![
        (r#"{"unsafe-shadowrealm": "yes"}"#, Invalid, r#""unsafe-shadowrealm" must be true or false, got "yes""#.into()),
        (r#"{"unsafe-function-constructor": null}"#, Invalid, r#""unsafe-function-constructor" must be true or false, got "null""#.into()),
        (r#"{"unsafe-shadowrealm": 1}"#, Invalid, r#""unsafe-shadowrealm" must be true or false, got "1""#.into()),
        (r#"{"unsafe-shadowrealm": []}"#, Invalid, r#""unsafe-shadowrealm" must be true or false, got """#.into()),
        (r#"{"sandbox": true}"#, Usage, r#""sandbox" must be an object with copy, copy-rw, entry, diff, diff-file keys"#.into()),
        (r#"{"sandbox": ["a"]}"#, Usage, r#""sandbox" must be an object with copy, copy-rw, entry, diff, diff-file keys"#.into()),
        (r#"{"permissions": true}"#, Usage, r#""permissions" must be an object of allow-* and deny-* keys"#.into()),
        (r#"{"permissions": null}"#, Usage, r#""permissions" must be an object of allow-* and deny-* keys"#.into()),
        (r#"{"permissions": []}"#, Usage, r#""permissions" must be an object of allow-* and deny-* keys"#.into()),
        (r#"{"permissions": ["allow-net"]}"#, Usage, r#""permissions" must be an object of allow-* and deny-* keys"#.into()),
        (r#"{"permissions": {"allow-nett": true}}"#, Usage, format!(r#"unknown permission "allow-nett" {valid}"#)),
        (r#"{"permissions": {"Allow-net": true}}"#, Usage, format!(r#"unknown permission "Allow-net" {valid}"#)),
        (r#"{"permissions": {"allow-NET": true}}"#, Usage, format!(r#"unknown permission "allow-NET" {valid}"#)),
        (r#"{"permissions": {"deny-nett": null}}"#, Usage, format!(r#"unknown permission "deny-nett" {valid}"#)),
        (r#"{"permissions": {"allow-import": true}}"#, Usage, r#""permissions.allow-import" needs scopes: node_modules[=<dir>] or a provider such as github"#.into()),
        (r#"{"permissions": {"deny-import": true}}"#, Usage, r#""permissions.deny-import" needs scopes: node_modules[=<dir>] or a provider such as github"#.into()),
        (r#"{"permissions": {"allow-net": [""]}}"#, Invalid, r#""permissions.allow-net" has an empty scope"#.into()),
        (r#"{"permissions": {"deny-read": [" \t"]}}"#, Invalid, r#""permissions.deny-read" has an empty scope"#.into()),
        (r#"{"permissions": {"allow-net": ["http://x"]}}"#, Invalid, r#"invalid scope in "permissions.allow-net": "http://x" (use host, host:port, *.domain, an IP, a CIDR range, or private)"#.into()),
        (r#"{"permissions": {"deny-net": [" A:B:C "]}}"#, Invalid, r#"invalid scope in "permissions.deny-net": " A:B:C " (use host, host:port, *.domain, an IP, a CIDR range, or private)"#.into()),
        (r#"{"permissions": {"allow-import": ["gitlab"]}}"#, Invalid, r#"invalid scope in "permissions.allow-import": "gitlab" (use node_modules, node_modules=<dir>, or a provider such as github)"#.into()),
        (r#"{"permissions": {"allow-import": ["node_modules="]}}"#, Invalid, r#"invalid scope in "permissions.allow-import": "node_modules=" (use node_modules, node_modules=<dir>, or a provider such as github)"#.into()),
        (r#"{"permissions": {"allow-net": "a.test"}}"#, Usage, format!(r#""permissions.allow-net" {malformed}"#)),
        (r#"{"permissions": {"allow-net": 8080}}"#, Usage, format!(r#""permissions.allow-net" {malformed}"#)),
        (r#"{"permissions": {"allow-net": [8080]}}"#, Usage, format!(r#""permissions.allow-net" {malformed}"#)),
        (r#"{"permissions": {"deny-read": null}}"#, Usage, format!(r#""permissions.deny-read" {malformed}"#)),
        (r#"{"permissions": {"deny-read": {"path": "x"}}}"#, Usage, format!(r#""permissions.deny-read" {malformed}"#)),
        (r#"{"permissions": {"deny-read": [["x"]]}}"#, Usage, format!(r#""permissions.deny-read" {malformed}"#)),
        (r#"{"permissions": {"allow-ffi": [true]}}"#, Usage, format!(r#""permissions.allow-ffi" {malformed}"#)),
        (r#"{"permissions": {"allow-ffi": [null]}}"#, Usage, format!(r#""permissions.allow-ffi" {malformed}"#)),
        (r#"{"sandbox": {"files": []}}"#, Usage, r#""sandbox.files" was removed in GocciaScript 0.14.0; list host inputs as "copy" or "copy-rw" strings (<host>[=<sandbox>]) instead"#.into()),
        (r#"{"sandbox": {"seed": "x"}}"#, Usage, r#"unknown sandbox key "seed" (valid: copy, copy-rw, entry, diff, diff-file)"#.into()),
        (r#"{"sandbox": {"copy": 1}}"#, Usage, format!(r#""sandbox.copy" {copy_grammar}"#)),
        (r#"{"sandbox": {"copy-rw": [true]}}"#, Usage, format!(r#""sandbox.copy-rw" {copy_grammar}"#)),
        (r#"{"sandbox": {"copy": {"a": "b"}}}"#, Usage, format!(r#""sandbox.copy" {copy_grammar}"#)),
        (r#"{"sandbox": {"copy": ["a", " "]}}"#, Usage, r#""sandbox.copy" has an empty entry"#.into()),
        (r#"{"sandbox": {"copy-rw": "=/x"}}"#, Usage, r#""sandbox.copy-rw" entry "=/x" names no host path"#.into()),
        (r#"{"sandbox": {"entry": ["/main.js"]}}"#, Usage, r#""sandbox.entry" must be a string"#.into()),
        (r#"{"sandbox": {"entry": 1}}"#, Usage, r#""sandbox.entry" must be a string"#.into()),
        (r#"{"sandbox": {"diff": "JSON"}}"#, Usage, r#""sandbox.diff" must be true, false, "json", or "unified""#.into()),
        (r#"{"sandbox": {"diff": ["json"]}}"#, Usage, r#""sandbox.diff" must be true, false, "json", or "unified""#.into()),
        (r#"{"sandbox": {"diff": null}}"#, Usage, r#""sandbox.diff" must be true, false, "json", or "unified""#.into()),
        (r#"{"sandbox": {"diff-file": true}}"#, Usage, r#""sandbox.diff-file" must be a string"#.into()),
        (r#"{"sandbox": {"diff-file": " "}}"#, Usage, r#""sandbox.diff-file" names no file"#.into()),
    ];
    for (config, class, message) in cases {
        assert_eq!(
            error_of(&flatten(config, CONFIG)),
            (class, format!("{CONFIG}: {message}")),
            "{config}"
        );
    }
}

#[test]
fn a_base_value_is_checked_and_named_even_when_overridden() {
    let cases = [
        (
            r#"{"permissions": {"allow-net": ["a.test"]}}"#,
            r#"{"permissions": {"allow-net": ["http://x"]}}"#,
        ),
        (
            r#"{"permissions": {"allow-net": false}}"#,
            r#"{"permissions": {"allow-net": "a.test"}}"#,
        ),
        (
            r#"{"permissions": {"allow-import": []}}"#,
            r#"{"permissions": {"allow-import": true}}"#,
        ),
        (
            r#"{"permissions": {}}"#,
            r#"{"permissions": {"deny-nett": []}}"#,
        ),
        (
            r#"{"sandbox": {"copy": ["a"]}}"#,
            r#"{"sandbox": {"copy": [""]}}"#,
        ),
        (
            r#"{"sandbox": {"diff": true}}"#,
            r#"{"sandbox": {"diff": "yes"}}"#,
        ),
        (
            r#"{"sandbox": {"copy": ["a"]}}"#,
            r#"{"sandbox": {"copy": ["=/x"]}}"#,
        ),
    ];
    for (child, base) in cases {
        let message = read(&chain(child, base)).unwrap_err().message;
        assert!(
            message.starts_with(&format!("{BASE}: ")),
            "{base}: {message}"
        );
    }
}

#[test]
fn the_nearest_file_owns_each_key() {
    // false and [] cancel the base's key; keys the child does not name are
    // inherited and resolve against the base's own directory.
    let request = read(&chain(
        r#"{"permissions": {"allow-net": false, "allow-ffi": [], "deny-net": ["c.test"]}}"#,
        r#"{"permissions": {"allow-net": ["a.test"], "allow-ffi": true, "deny-net": ["b.test"], "allow-read": ["data"]}}"#,
    ))
    .unwrap();
    assert!(request.allow.net.declared && !request.allow.net.requests_any());
    assert_eq!(request.allow.net.source.as_deref(), Some(CONFIG));
    assert!(!request.allow.ffi.unscoped);
    assert_eq!(resolved(&request.deny.net), ["c.test"]);
    assert_eq!(resolved(&request.allow.read), ["/base/dir/data"]);
    assert_eq!(&*request.allow.read.scopes[0].source, BASE);
    assert!(request.requests_grants());

    // A null in the child is an error, not a fall-through to the base.
    let err = read(&chain(
        r#"{"permissions": {"allow-net": null}}"#,
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    ));
    assert_eq!(err.unwrap_err().class, ExitClass::Usage);
}

#[test]
fn one_file_accumulates_duplicate_keys() {
    let request = read_json(
        r#"{"permissions": {"allow-net": ["a.test"], "allow-net": ["b.test"], "deny-read": ["x"], "deny-read": true}}"#,
    );
    assert_eq!(resolved(&request.allow.net), ["a.test", "b.test"]);
    assert!(request.deny.read.unscoped);
    assert_eq!(resolved(&request.deny.read), ["/p/x"]);
}

#[test]
fn unsafe_keys_take_the_first_value() {
    let request = read(&chain(
        r#"{"unsafe-shadowrealm": false}"#,
        r#"{"unsafe-shadowrealm": "bad"}"#,
    ))
    .unwrap();
    assert!(!request.unsafe_shadowrealm);
    let request = read(&chain(r#"{}"#, r#"{"unsafe-function-constructor": true}"#)).unwrap();
    assert!(request.unsafe_function_constructor && request.requests_grants());
    // The request reader alone accepts the text "true" (docs/src/compatibility.md#documentation-and-sources-disagree).
    assert!(read_json(r#"{"unsafe-shadowrealm": "true"}"#).unsafe_shadowrealm);
}

#[test]
fn scopes_keep_their_text_and_source() {
    let request = read_json(
        r#"{"permissions": {"allow-read": [" ../shared/ "], "allow-import": ["NODE_MODULES=lib", "GitHub:Me"]}}"#,
    );
    let scope = &request.allow.read.scopes[0];
    assert_eq!(
        (
            scope.resolved.as_str(),
            scope.written.as_str(),
            &*scope.source
        ),
        ("/shared", " ../shared/ ", CONFIG)
    );
    assert_eq!(
        resolved(&request.allow.import),
        ["node_modules=/p/lib", "GitHub:Me"]
    );
}

#[test]
fn requests_grants_follows_section_2_2() {
    let cases = [
        (r#"{}"#, false),
        (r#"{"permissions": {}}"#, false),
        (
            r#"{"permissions": {"deny-read": true, "deny-net": ["x.test"]}}"#,
            false,
        ),
        (
            r#"{"permissions": {"allow-net": false, "allow-read": []}}"#,
            false,
        ),
        (r#"{"unsafe-shadowrealm": false}"#, false),
        (r#"{"permissions": {"allow-ffi": true}}"#, true),
        (r#"{"permissions": {"allow-net": ["x.test"]}}"#, true),
        (r#"{"unsafe-shadowrealm": true}"#, true),
        (r#"{"sandbox": {}}"#, true),
        (r#"{"sandbox": {"diff": false}}"#, true),
    ];
    for (config, wanted) in cases {
        assert_eq!(read_json(config).requests_grants(), wanted, "{config}");
    }
}

#[test]
fn sandbox_section() {
    let request = read(&chain(
        r#"{"sandbox": {"copy": ["src", "fixtures= /data ", "src"], "diff": "unified", "entry": "/main.js"}}"#,
        r#"{"sandbox": {"copy": ["other"], "copy-rw": "out", "diff-file": "../d.json", "entry": 5, "diff": "json"}}"#,
    ))
    .unwrap_err();
    // entry 5 in the base is still checked.
    assert_eq!(
        request.message,
        format!("{BASE}: \"sandbox.entry\" must be a string")
    );

    let request = read(&chain(
        r#"{"sandbox": {"copy": ["src", "fixtures= /data ", "src"], "diff": "unified"}}"#,
        r#"{"sandbox": {"copy": ["other=/x"], "copy-rw": "out", "diff-file": "../d.json", "diff": "json"}}"#,
    ))
    .unwrap();
    let sandbox = request.sandbox.as_ref().unwrap();
    assert_eq!(&*sandbox.source, CONFIG);
    let copy: Vec<String> = sandbox.copy.iter().map(|i| i.block_text()).collect();
    assert_eq!(copy, ["/p/src", "/p/fixtures= /data ", "/p/src"]);
    // A single string is accepted; the base owns copy-rw and diff-file.
    assert_eq!(sandbox.copy_rw[0].host, "/base/dir/out");
    assert_eq!(sandbox.diff_file.as_deref(), Some("/base/d.json"));
    assert_eq!(sandbox.diff, Some(SandboxDiff::Unified));
    assert_eq!(
        request.sandbox_host_paths(),
        [
            (SandboxPathKind::Copy, "/p/src"),
            (SandboxPathKind::Copy, "/p/fixtures"),
            (SandboxPathKind::Copy, "/p/src"),
            (SandboxPathKind::CopyRw, "/base/dir/out"),
            (SandboxPathKind::DiffFile, "/base/d.json"),
        ]
    );

    // A sandbox key alone declares the section, at its file.
    let request = read(&chain(r#"{}"#, r#"{"sandbox": {"diff": false}}"#)).unwrap();
    assert_eq!(
        request.sandbox.map(|s| (s.source.to_string(), s.diff)),
        Some((BASE.to_owned(), None))
    );
}

#[test]
fn policy_view_of_the_allow_requests() {
    let request = read_json(
        r#"{"permissions": {"allow-net": ["a.test", "b.test"], "allow-read": true, "allow-read": ["x"], "deny-ffi": true}}"#,
    );
    let listed: Vec<(Capability, Option<&str>)> = request
        .allow_requests()
        .iter()
        .map(|r| (r.capability, r.scope.map(|s| s.resolved.as_str())))
        .collect();
    assert_eq!(
        listed,
        [
            (Capability::Read, None),
            (Capability::Net, Some("a.test")),
            (Capability::Net, Some("b.test"))
        ]
    );
}

#[test]
fn an_empty_source_falls_back_to_the_config_path() {
    let entries = [entry(
        "permissions.allow-net",
        "",
        EntryKind::String,
        true,
        "",
    )];
    let e = PermissionRequest::from_entries(&entries, "/q/goccia.toml", &env()).unwrap_err();
    assert_eq!(
        e.message,
        "/q/goccia.toml: \"permissions.allow-net\" has an empty scope"
    );
}

#[test]
fn keys_spell_allow_or_deny_and_the_capability() {
    for capability in Capability::ALL {
        for allow in [true, false] {
            let key = capability.key(allow);
            let side = if allow { "allow" } else { "deny" };
            assert_eq!(key, format!("{side}-{}", capability.name()));
            assert_eq!(Capability::parse_key(key), Some((allow, capability)));
        }
    }
}
