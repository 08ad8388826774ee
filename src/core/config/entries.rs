//! A config file reduced to GocciaScript's flat list of entries
//! (docs/src/compatibility.md#reading-a-config).
//!
//! Value text of each kind:
//! * `String`: the decoded string.
//! * `Number`: `.json` as written in the file; `.json5` and `.toml` as JS
//!   prints the number (`0x10` → `16`, `1e21` → `1e+21`, `NaN`, `Infinity`).
//! * `Boolean`: `true` or `false`.
//! * `EmptyArray`: `""` (always in an array).
//! * `Object`: `""`; its members follow as `parent.child` entries.
//! * `Unsupported`: what the value was, for messages: `null`, `array` (an
//!   array inside an array), `object` (an object inside an array or below a
//!   top-level object), or a TOML date/time as TOML writes it
//!   (`1979-05-27T07:32:00Z`). These texts cannot collide: a date starts
//!   with a digit.

mod formats;

use std::sync::Arc;

use self::formats::Node;
use crate::core::error::ConfigError;
use crate::core::paths::bounded::{CONFIG_MAX_BYTES, read_config_regular};

/// What kind of value an entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    String,
    Number,
    Boolean,
    /// An empty array (value `""`, in an array).
    EmptyArray,
    /// `null`, a TOML date/time, an object nested too deep, or an array
    /// element that is itself an array or object.
    Unsupported,
    /// A top-level object; its members follow as `parent.child` entries.
    Object,
}

/// One `(key, value-text, kind, in-array, source-file)` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `key` at the top level, `parent.child` for a member of an object.
    pub key: String,
    /// The value as text: the decoded string, `true`/`false`, the number's
    /// text; see `entries` for the other kinds.
    pub value: String,
    pub kind: EntryKind,
    /// Whether the entry is an element of an array.
    pub in_array: bool,
    /// The (expanded) path of the file that declared the entry.
    pub source: Arc<str>,
}

/// `Unsupported` value texts (see the module documentation).
pub const UNSUPPORTED_NULL: &str = "null";
pub const UNSUPPORTED_ARRAY: &str = "array";
pub const UNSUPPORTED_OBJECT: &str = "object";

/// Reads one config file into its entries, in GocciaScript's order. The
/// format comes from the lower-cased extension; the file must be UTF-8 (a
/// BOM is not stripped). Every entry's source is `path` as given.
pub fn read_entries(path: &str) -> Result<Vec<Entry>, ConfigError> {
    let parse = parser_for(path)?;
    let bytes = read_config_regular(path, CONFIG_MAX_BYTES)
        .map_err(|e| ConfigError::invalid(format!("{path}: {}", e.describe())))?;
    parse_entries(path, parse, bytes)
}

/// [`read_entries`] over bytes read from elsewhere (a blob of a git
/// revision): the same format choice, size cap, UTF-8 check and messages,
/// `path` being the name the file has in the checkout.
pub fn entries_from_bytes(path: &str, bytes: Vec<u8>) -> Result<Vec<Entry>, ConfigError> {
    let parse = parser_for(path)?;
    if bytes.len() as u64 > CONFIG_MAX_BYTES {
        let e = crate::core::paths::bounded::ReadError::TooLarge {
            limit: CONFIG_MAX_BYTES,
        };
        return Err(ConfigError::invalid(format!("{path}: {}", e.describe())));
    }
    parse_entries(path, parse, bytes)
}

type Parser = fn(&str) -> Result<Node, formats::ParseError>;

/// The parser of the lower-cased extension, or GocciaScript's refusal.
fn parser_for(path: &str) -> Result<Parser, ConfigError> {
    let ext = extension(path).to_ascii_lowercase();
    match ext.as_str() {
        ".json" => Ok(formats::parse_json),
        ".json5" => Ok(formats::parse_json5),
        ".toml" => Ok(formats::parse_toml),
        _ => Err(ConfigError::invalid(format!(
            "No config file parser registered for extension \"{ext}\""
        ))),
    }
}

fn parse_entries(path: &str, parse: Parser, bytes: Vec<u8>) -> Result<Vec<Entry>, ConfigError> {
    let text = String::from_utf8(bytes).map_err(|e| {
        ConfigError::invalid(format!(
            "{path}: invalid UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let root = parse(&text).map_err(|e| ConfigError::invalid(format!("{path}: {}", e.0)))?;
    Ok(flatten(root, &Arc::from(path)))
}

/// Free Pascal's `ExtractFileExt`: from the last `.` of the last path
/// component (`/` and `\` both end a component on Unix), or `""`.
fn extension(path: &str) -> &str {
    match path.rfind(['.', '/', '\\']) {
        Some(i) if path.as_bytes()[i] == b'.' => &path[i..],
        _ => "",
    }
}

/// Flattens a parsed document. A document whose top level is not an object
/// yields no entries (docs/src/compatibility.md#json5-and-toml-files says so for JSON5; the `.json` reader is given the
/// same rule, as such a file can hold no option).
fn flatten(root: Node, source: &Arc<str>) -> Vec<Entry> {
    let Node::Object(members) = root else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in members {
        match value {
            Node::Object(children) => {
                out.push(entry(
                    key.clone(),
                    String::new(),
                    EntryKind::Object,
                    false,
                    source,
                ));
                for (child, value) in children {
                    // Below a top-level object an object is too deep.
                    flatten_value(format!("{key}.{child}"), value, source, &mut out);
                }
            }
            other => flatten_value(key, other, source, &mut out),
        }
    }
    out
}

fn flatten_value(key: String, value: Node, source: &Arc<str>, out: &mut Vec<Entry>) {
    match value {
        Node::Array(items) if items.is_empty() => {
            out.push(entry(
                key,
                String::new(),
                EntryKind::EmptyArray,
                true,
                source,
            ));
        }
        Node::Array(items) => {
            out.reserve(items.len());
            for item in items {
                let (value, kind) = scalar(item);
                out.push(entry(key.clone(), value, kind, true, source));
            }
        }
        other => {
            let (value, kind) = scalar(other);
            out.push(entry(key, value, kind, false, source));
        }
    }
}

/// The value text and kind of a value that is not expanded further.
fn scalar(value: Node) -> (String, EntryKind) {
    match value {
        Node::String(s) => (s, EntryKind::String),
        Node::Number(n) => (n, EntryKind::Number),
        Node::Bool(b) => (b.to_string(), EntryKind::Boolean),
        Node::Null => (UNSUPPORTED_NULL.into(), EntryKind::Unsupported),
        Node::Array(_) => (UNSUPPORTED_ARRAY.into(), EntryKind::Unsupported),
        Node::Object(_) => (UNSUPPORTED_OBJECT.into(), EntryKind::Unsupported),
        Node::Datetime(d) => (d, EntryKind::Unsupported),
    }
}

fn entry(key: String, value: String, kind: EntryKind, in_array: bool, source: &Arc<str>) -> Entry {
    Entry {
        key,
        value,
        kind,
        in_array,
        source: Arc::clone(source),
    }
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests;
