//! The store read without building its document: the fast path of
//! [`super::read::parse_store`] for a store that is valid.
//!
//! The top-level object and `trusted` are walked here, keeping only the
//! byte span of each entry; each entry is then parsed on its own by the
//! strict JSON reader (on every thread) and turned into a compact
//! [`StoredEntry`] at once, so what is alive at the end is the text and
//! the entries, never a tree of the whole store (several times its bytes).
//!
//! It only ever accepts: anything it does not expect (a syntax error, a
//! shape problem, a version other than 1, an unknown member, a nesting
//! near the reader's depth limit) makes it give up, and the exact reader
//! of `read.rs` reads the text again and says what is wrong, in its order
//! of precedence. So the verdict on a bad store and the store read from a
//! good one are the exact reader's.

use std::hash::{BuildHasher, Hasher, RandomState};
use std::sync::OnceLock;

use rayon::prelude::*;

use super::model::{Interner, Store, StoredEntry};
use crate::core::config::json::{self, Json, MAX_DEPTH};

/// The store in `text`, or `None` when the exact reader must decide.
pub(super) fn read_lean(text: &str) -> Option<Store> {
    let mut w = Walker { text, pos: 0 };
    let (version, spans) = w.document()?;
    if version != 1 {
        return None;
    }
    // Collected in place, one entry per span, and taken as the store's own
    // vector: the entries are never held twice.
    let entries: Vec<Option<(String, StoredEntry)>> = spans
        .par_iter()
        .map(|&(key, entry)| w.entry(key, entry))
        .collect();
    drop(spans);
    let mut entries: Vec<(String, StoredEntry)> = entries.into_iter().collect::<Option<_>>()?;
    let mut interner = Interner::default();
    for (_, entry) in &mut entries {
        interner.share(entry);
    }
    Some(Store::from_read(entries))
}

/// What [`read_lean_releasing`] made of a store's text.
pub(super) enum Lean<E = StoredEntry> {
    Read(Store<E>),
    /// Not read, the text given back whole: the exact reader decides.
    GaveUp(String),
    /// Not read, and part of the text already let go: the caller reads
    /// the file again for the exact reader.
    Released,
}

/// Entries made between two releases of the text they were read from.
pub(super) const RELEASE_EVERY: usize = 1024;

/// [`read_lean`] of a text it owns, let go of as it is read: the entries
/// are made from the last to the first, [`RELEASE_EVERY`] at a time, and
/// after each group the text from its first entry on is cut off and its
/// memory returned, so the whole text and the whole store are never held
/// together (they are of a size: a 100,000-entry store is about 50 MB of
/// text). A group it gives up on after a release leaves it
/// [`Lean::Released`].
pub(super) fn read_lean_releasing(text: String) -> Lean {
    let mut interner = Interner::default();
    releasing(
        text,
        |w, key, entry| w.entry(key, entry),
        |entry| {
            interner.share(entry);
        },
    )
}

/// [`read_lean_releasing`] keeping, of each entry, only where it sits in
/// the text once it is checked (`super::on_demand`): the store is
/// validated exactly as it is for a [`Store`], but holds its keys alone.
pub(super) fn read_lean_releasing_at(text: String) -> Lean<EntryAt> {
    releasing(text, |w, key, entry| w.entry_at(key, entry), |_| {})
}

/// Entries made by `make` of each span, from the last to the first, the
/// text let go of behind them; `share` sees each group once made.
fn releasing<E: Send>(
    mut text: String,
    make: impl Fn(&Walker<'_>, Span, Span) -> Option<(String, E)> + Sync,
    mut share: impl FnMut(&mut E),
) -> Lean<E> {
    let Some((version, spans)) = (Walker {
        text: &text,
        pos: 0,
    })
    .document() else {
        return Lean::GaveUp(text);
    };
    if version != 1 {
        return Lean::GaveUp(text);
    }
    let mut entries: Vec<Option<(String, E)>> = Vec::new();
    entries.resize_with(spans.len(), || None);
    let mut end = spans.len();
    while end > 0 {
        let start = end.saturating_sub(RELEASE_EVERY);
        let w = Walker {
            text: &text,
            pos: 0,
        };
        let made = entries[start..end]
            .par_iter_mut()
            .zip(&spans[start..end])
            .all(|(slot, &(key, entry))| {
                *slot = make(&w, key, entry);
                slot.is_some()
            });
        if !made {
            return match end == spans.len() {
                true => Lean::GaveUp(text),
                false => Lean::Released,
            };
        }
        // Shared group by group, so a group's own copies are all that is
        // ever held besides the shared ones.
        for (_, entry) in entries[start..end].iter_mut().flatten() {
            share(entry);
        }
        // A key span starts at a `"`, a character boundary.
        text.truncate(spans[start].0.0);
        text.shrink_to_fit();
        end = start;
    }
    drop((text, spans));
    match entries.into_iter().collect::<Option<Vec<_>>>() {
        Some(entries) => Lean::Read(Store::from_read(entries)),
        None => Lean::Released,
    }
}

/// Where one validated entry sits in the store file: its byte range and a
/// check of its bytes, keyed afresh by every process (an entry changed in
/// place cannot be made to pass it without knowing the key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryAt {
    at: u32,
    len: u32,
    check: u64,
}

impl EntryAt {
    /// Where the entry's bytes start in the file.
    pub(super) fn offset(&self) -> u64 {
        u64::from(self.at)
    }

    /// How many bytes it is.
    pub(super) fn len(&self) -> usize {
        self.len as usize
    }

    /// The entry at `span` of `text`; `None` past 4 GiB (a store is at
    /// most `STORE_MAX_BYTES`).
    pub(super) fn of(text: &[u8], span: (usize, usize)) -> Option<EntryAt> {
        let bytes = text.get(span.0..span.1)?;
        Some(EntryAt {
            at: u32::try_from(span.0).ok()?,
            len: u32::try_from(bytes.len()).ok()?,
            check: check(bytes),
        })
    }
}

/// SipHash-1-3 of `bytes` under this process's random key.
fn check(bytes: &[u8]) -> u64 {
    static KEY: OnceLock<RandomState> = OnceLock::new();
    let mut hasher = KEY.get_or_init(RandomState::new).build_hasher();
    hasher.write(bytes);
    hasher.finish()
}

/// The entry of `key` in `bytes` read back from where `at` says it sat,
/// when they are the bytes checked then (which parse and check as they
/// did); `None` when they are not.
pub(super) fn entry_again(key: &str, at: &EntryAt, bytes: &[u8]) -> Option<StoredEntry> {
    if bytes.len() != at.len() || check(bytes) != at.check {
        return None;
    }
    let value = json::parse(std::str::from_utf8(bytes).ok()?).ok()?;
    super::entry::check_entry(key, value).ok()
}

/// A byte range of the text: `[start, end)`.
type Span = (usize, usize);

struct Walker<'a> {
    text: &'a str,
    pos: usize,
}

impl Walker<'_> {
    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    /// The same four whitespace bytes as the strict reader.
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.ws();
        (self.peek() == Some(byte)).then(|| self.pos += 1)
    }

    /// The top-level object: the last `version` (which must be an integer
    /// each time it occurs) and the spans of the entries of every
    /// `trusted`, in document order.
    fn document(&mut self) -> Option<(i64, Vec<(Span, Span)>)> {
        self.eat(b'{')?;
        let (mut version, mut trusted, mut spans) = (None, false, Vec::new());
        loop {
            self.ws();
            let name = self.string()?;
            self.eat(b':')?;
            self.ws();
            match &self.text[name.0..name.1] {
                "\"version\"" => version = Some(self.integer()?),
                "\"trusted\"" => {
                    trusted = true;
                    self.entries(&mut spans)?;
                }
                _ => return None,
            }
            if !self.more(b'}')? {
                break;
            }
        }
        self.ws();
        let whole = self.pos == self.bytes().len() && trusted;
        whole.then_some((version?, spans))
    }

    /// After a member or an item: `true` at a `,`, `false` at `close`.
    fn more(&mut self, close: u8) -> Option<bool> {
        self.ws();
        let next = self.peek()?;
        self.pos += 1;
        match next {
            b',' => Some(true),
            b if b == close => Some(false),
            _ => None,
        }
    }

    /// `trusted`'s object: each key's span and its value's.
    fn entries(&mut self, spans: &mut Vec<(Span, Span)>) -> Option<()> {
        self.eat(b'{')?;
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Some(());
        }
        loop {
            self.ws();
            let key = self.string()?;
            self.eat(b':')?;
            self.ws();
            let value = self.object_span()?;
            spans.push((key, value));
            if !self.more(b'}')? {
                return Some(());
            }
        }
    }

    /// The span of a quoted string, quotes included; its content is
    /// judged later, by the strict reader where it has escapes.
    fn string(&mut self) -> Option<Span> {
        let start = self.pos;
        (self.peek()? == b'"').then_some(())?;
        self.pos += 1;
        loop {
            self.pos += memchr::memchr2(b'"', b'\\', self.bytes().get(self.pos..)?)?;
            if self.bytes()[self.pos] == b'"' {
                self.pos += 1;
                return Some((start, self.pos));
            }
            self.pos += 2;
        }
    }

    /// An object's span, from `{` to its matching `}`, refused when it
    /// nests near the strict reader's limit (an entry sits two levels
    /// down, and there it would be refused or not by the exact reader).
    fn object_span(&mut self) -> Option<Span> {
        let start = self.pos;
        (self.peek()? == b'{').then_some(())?;
        let mut depth = 0usize;
        loop {
            match *self.bytes().get(self.pos)? {
                b'"' => {
                    self.string()?;
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth = depth.checked_sub(1)?,
                _ => {}
            }
            self.pos += 1;
            if depth == 0 {
                return Some((start, self.pos));
            }
            if depth + 4 > MAX_DEPTH {
                return None;
            }
        }
    }

    /// A `version` value: an integer as the exact reader takes it.
    fn integer(&mut self) -> Option<i64> {
        let start = self.pos;
        while matches!(
            self.peek(),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.pos += 1;
        }
        match json::parse(&self.text[start..self.pos]).ok()? {
            Json::Number(n) if !n.contains(['.', 'e', 'E']) => n.parse().ok(),
            _ => None,
        }
    }

    /// The entry of a key span and its value's span, checked.
    fn entry(&self, key: Span, entry: Span) -> Option<(String, StoredEntry)> {
        let key = self.key_text(key)?;
        let value = json::parse(&self.text[entry.0..entry.1]).ok()?;
        let entry = super::entry::check_entry(&key, value).ok()?;
        Some((key, entry))
    }

    /// [`Walker::entry`], checked the same way and then let go of: its key
    /// and where it sits in the text.
    fn entry_at(&self, key: Span, entry: Span) -> Option<(String, EntryAt)> {
        let (key, _) = self.entry(key, entry)?;
        let at = EntryAt::of(self.text.as_bytes(), entry)?;
        Some((key, at))
    }

    /// A key's text: the bytes between the quotes when they hold no escape
    /// and no control character, else what the strict reader makes of it.
    fn key_text(&self, span: Span) -> Option<String> {
        let inner = &self.text[span.0 + 1..span.1 - 1];
        if !inner.bytes().any(|b| b == b'\\' || b < 0x20) {
            return Some(inner.to_string());
        }
        match json::parse(&self.text[span.0..span.1]).ok()? {
            Json::String(s) => Some(s),
            _ => None,
        }
    }
}
