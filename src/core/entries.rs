//! A config file reduced to GocciaScript's flat list of entries
//! (goccia-reference.md §1).

use std::sync::Arc;

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
