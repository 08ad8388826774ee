//! Load-time option validation, the part of GocciaScript 0.14's option table
//! that decides whether a config can be loaded for trust at all
//! (docs/src/compatibility.md#option-validation-at-load).
//!
//! Only the keys that matter to trust are checked: removed keys, the
//! command-line-only keys and the two `unsafe-*` flags. Other options (limits,
//! compat flags) depend on the binary and are left to it; unknown keys are
//! ignored, as GocciaScript ignores them.

use crate::core::config::entries::{
    Entry, EntryKind, UNSUPPORTED_ARRAY, UNSUPPORTED_NULL, UNSUPPORTED_OBJECT,
};
use crate::core::error::ConfigError;

/// Removed config keys and what their message tells the user to write instead,
/// in config spelling (docs/src/compatibility.md#option-validation-at-load; texts as
/// GocciaScript's option table words them).
const REMOVED_KEYS: &[(&str, &str)] = &[
    (
        "allowed-hosts",
        r#"use "permissions": { "allow-net": [...] } instead"#,
    ),
    (
        "fetch-deny-private-ranges",
        r#"private ranges are denied by default; allow them with "permissions": { "allow-net": ["private"] }, or refuse them outright with "permissions": { "deny-net": ["private"] }"#,
    ),
    (
        "fetch-max-response-bytes",
        r#"use "max-fetch-bytes" instead (units: "1MiB")"#,
    ),
    (
        "unsafe-ffi",
        r#"use "permissions": { "allow-ffi": true } instead"#,
    ),
    (
        "allow-node-modules",
        r#"use "permissions": { "allow-import": ["node_modules"] } instead"#,
    ),
    (
        "no-host-filesystem",
        r#"use "permissions": { "deny-read": true } instead"#,
    ),
    ("stack-size", r#"use "max-stack" instead"#),
    // The old sandbox runner's keys; the replacement texts follow the table.
    ("fs-quota-bytes", r#"use "max-fs-bytes" instead"#),
    ("fs-node-limit", r#"use "max-fs-nodes" instead"#),
];

/// The capability keys: they belong under `permissions`.
const PERMISSION_KEYS: &[&str] = &[
    "allow-read",
    "allow-net",
    "allow-ffi",
    "allow-import",
    "deny-read",
    "deny-net",
    "deny-ffi",
    "deny-import",
];

const PERMISSION_HINT: &str = r#"; declare it under "permissions" instead"#;

/// Options that only make sense on a command line.
const COMMAND_LINE_ONLY_KEYS: &[&str] = &[
    "trust",
    "untrust",
    "list-trusted",
    "yes",
    "accept-config-permissions",
    "ignore-config-permissions",
    "trust-store",
];

/// Flags whose config value must be exactly `true` or `false`.
const FLAG_KEYS: &[&str] = &["unsafe-function-constructor", "unsafe-shadowrealm"];

/// Walks the entries in order and fails on the first problem, naming the file
/// that declared the entry.
pub fn validate_options(entries: &[Entry]) -> Result<(), ConfigError> {
    entries.iter().try_for_each(validate_entry)
}

fn validate_entry(entry: &Entry) -> Result<(), ConfigError> {
    let (key, file) = (entry.key.as_str(), &entry.source);
    if let Some((_, replacement)) = REMOVED_KEYS.iter().find(|(k, _)| *k == key) {
        return Err(ConfigError::usage(format!(
            "{file}: \"{key}\" was removed in GocciaScript 0.14.0; {replacement}"
        )));
    }
    let hint = if PERMISSION_KEYS.contains(&key) {
        Some(PERMISSION_HINT)
    } else if COMMAND_LINE_ONLY_KEYS.contains(&key) {
        Some("")
    } else {
        None
    };
    if let Some(hint) = hint {
        return Err(ConfigError::usage(format!(
            "{file}: \"{key}\" can only be given on the command line{hint}"
        )));
    }
    if FLAG_KEYS.contains(&key) && (entry.kind != EntryKind::Boolean || entry.in_array) {
        return Err(ConfigError::invalid(format!(
            "{file}: \"{key}\" must be true or false, got {}",
            describe_value(entry)
        )));
    }
    Ok(())
}

/// How a "must be true or false" message shows a value that is not a boolean.
fn describe_value(entry: &Entry) -> String {
    if entry.in_array {
        return "an array".into();
    }
    match entry.kind {
        EntryKind::String => format!("\"{}\"", entry.value),
        EntryKind::Object => "an object".into(),
        EntryKind::EmptyArray => "an array".into(),
        EntryKind::Unsupported => match entry.value.as_str() {
            UNSUPPORTED_NULL => "null".into(),
            UNSUPPORTED_ARRAY => "an array".into(),
            UNSUPPORTED_OBJECT => "an object".into(),
            // A TOML date or time, shown as written.
            other => other.to_string(),
        },
        EntryKind::Number | EntryKind::Boolean => entry.value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::entries::read_entries;
    use crate::core::error::ExitClass;

    fn entries(name: &str, text: &str) -> (Vec<Entry>, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        (read_entries(path.to_str().unwrap()).unwrap(), dir)
    }

    /// The validation error for a config, with `<file>` standing for its path.
    fn check(name: &str, text: &str) -> Result<(), (String, ExitClass)> {
        let (list, dir) = entries(name, text);
        let file = dir.path().join(name);
        validate_options(&list)
            .map_err(|e| (e.message.replace(file.to_str().unwrap(), "<file>"), e.class))
    }

    fn usage(msg: &str) -> Result<(), (String, ExitClass)> {
        Err((msg.to_string(), ExitClass::Usage))
    }

    fn invalid(msg: &str) -> Result<(), (String, ExitClass)> {
        Err((msg.to_string(), ExitClass::Invalid))
    }

    #[test]
    fn removed_keys_name_their_replacement() {
        let cases = [
            (
                "allowed-hosts",
                r#"use "permissions": { "allow-net": [...] } instead"#,
            ),
            (
                "fetch-deny-private-ranges",
                r#"private ranges are denied by default; allow them with "permissions": { "allow-net": ["private"] }, or refuse them outright with "permissions": { "deny-net": ["private"] }"#,
            ),
            (
                "fetch-max-response-bytes",
                r#"use "max-fetch-bytes" instead (units: "1MiB")"#,
            ),
            (
                "unsafe-ffi",
                r#"use "permissions": { "allow-ffi": true } instead"#,
            ),
            (
                "allow-node-modules",
                r#"use "permissions": { "allow-import": ["node_modules"] } instead"#,
            ),
            (
                "no-host-filesystem",
                r#"use "permissions": { "deny-read": true } instead"#,
            ),
            ("stack-size", r#"use "max-stack" instead"#),
            ("fs-quota-bytes", r#"use "max-fs-bytes" instead"#),
            ("fs-node-limit", r#"use "max-fs-nodes" instead"#),
        ];
        for (key, replacement) in cases {
            // Any value, even an array, is refused.
            for value in ["true", "[\"a\"]", "{}"] {
                assert_eq!(
                    check("goccia.json", &format!(r#"{{"{key}": {value}}}"#)),
                    usage(&format!(
                        "<file>: \"{key}\" was removed in GocciaScript 0.14.0; {replacement}"
                    )),
                );
            }
        }
    }

    #[test]
    fn command_line_only_keys() {
        let permission_keys = [
            "allow-read",
            "allow-net",
            "allow-ffi",
            "allow-import",
            "deny-read",
            "deny-net",
            "deny-ffi",
            "deny-import",
        ];
        for key in permission_keys {
            assert_eq!(
                check("goccia.json", &format!(r#"{{"{key}": ["x"]}}"#)),
                usage(&format!(
                    "<file>: \"{key}\" can only be given on the command line; declare it under \"permissions\" instead"
                )),
            );
        }
        let command_line_keys = [
            "trust",
            "untrust",
            "list-trusted",
            "yes",
            "accept-config-permissions",
            "ignore-config-permissions",
            "trust-store",
        ];
        for key in command_line_keys {
            assert_eq!(
                check("goccia.toml", &format!("{key} = true\n")),
                usage(&format!(
                    "<file>: \"{key}\" can only be given on the command line"
                )),
            );
        }
        // Only at the top level: under `permissions` they are the request.
        assert_eq!(
            check(
                "goccia.json",
                r#"{"permissions": {"allow-net": ["a"], "trust": 1}}"#
            ),
            Ok(())
        );
        // Unknown look-alikes are unknown keys, ignored.
        assert_eq!(
            check("goccia.json", r#"{"allow-nett": 1, "trusted": 1}"#),
            Ok(())
        );
    }

    #[test]
    fn unsafe_flags_must_be_exactly_boolean() {
        for key in ["unsafe-function-constructor", "unsafe-shadowrealm"] {
            let cases = [
                (r#""yes""#, r#"got "yes""#),
                (r#""true""#, r#"got "true""#),
                ("null", "got null"),
                ("[true]", "got an array"),
                ("[]", "got an array"),
                ("{}", "got an object"),
                ("{\"a\": true}", "got an object"),
                ("1", "got 1"),
                ("1.50", "got 1.50"),
            ];
            for (value, got) in cases {
                assert_eq!(
                    check("goccia.json", &format!(r#"{{"{key}": {value}}}"#)),
                    invalid(&format!("<file>: \"{key}\" must be true or false, {got}")),
                    "{value}"
                );
            }
            assert_eq!(
                check("goccia.json", &format!(r#"{{"{key}": true}}"#)),
                Ok(())
            );
            assert_eq!(
                check("goccia.json5", &format!("{{'{key}': false}}")),
                Ok(())
            );
            assert_eq!(
                check("goccia.toml", &format!("{key} = 1979-05-27\n")),
                invalid(&format!(
                    "<file>: \"{key}\" must be true or false, got 1979-05-27"
                )),
            );
        }
    }

    #[test]
    fn stops_at_the_first_problem_in_entry_order() {
        let text = r#"{"unsafe-shadowrealm": "no", "allowed-hosts": ["a"], "yes": true}"#;
        assert_eq!(
            check("goccia.json", text),
            invalid(r#"<file>: "unsafe-shadowrealm" must be true or false, got "no""#)
        );
        let text = r#"{"yes": true, "unsafe-shadowrealm": "no"}"#;
        assert_eq!(
            check("goccia.json", text),
            usage(r#"<file>: "yes" can only be given on the command line"#)
        );
        // A later duplicate is still checked (JSON keeps them all).
        let text = r#"{"unsafe-shadowrealm": true, "unsafe-shadowrealm": null}"#;
        assert_eq!(
            check("goccia.json", text),
            invalid(r#"<file>: "unsafe-shadowrealm" must be true or false, got null"#)
        );
    }

    #[test]
    fn the_message_names_the_declaring_file() {
        let (mut list, _dir) = entries("goccia.json", r#"{"a": 1}"#);
        let (base, _bdir) = entries("base.toml", "unsafe-ffi = true\n");
        let base_file = base[0].source.to_string();
        list.extend(base);
        let e = validate_options(&list).unwrap_err();
        assert!(
            e.message
                .starts_with(&format!("{base_file}: \"unsafe-ffi\"")),
            "{}",
            e.message
        );
    }

    #[test]
    fn unknown_keys_and_other_options_pass() {
        assert_eq!(
            check(
                "goccia.json",
                r#"{"mode": "bytecode", "compat-var": "x", "zzz": null}"#
            ),
            Ok(())
        );
    }
}
