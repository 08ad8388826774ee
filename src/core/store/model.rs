//! The store in memory: entries in file order, looked up by trust key.

use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, OnceLock};

use hashbrown::HashTable;

use crate::core::config::json::{self, Json};
use crate::core::paths::platform::Platform;

/// One trusted config (docs/src/compatibility.md#store-file-bytes), held
/// compactly: a store of 100,000 entries is read whole by every command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEntry {
    /// Written as 64 lower-case hex digits.
    pub sha256: Sha256,
    /// The normalized block as stored; only used to show what changed.
    pub block: StoredBlock,
    /// Scope → where it resolved when trusted, outside the hash. A target
    /// that is its scope (no link on the way, the usual case) shares the
    /// scope's text.
    pub targets: Box<[(Arc<str>, Arc<str>)]>,
    /// `yyyy-mm-ddThh:mm:ssZ`, as written (kept as text, so any string the
    /// file holds is written back byte for byte); shared between the
    /// entries of a store read that hold the same one.
    pub trusted_at: Arc<str>,
    /// `<program> <version>`; shared like `trusted_at`.
    pub trusted_by: Arc<str>,
}

impl StoredEntry {
    /// Targets as the entry holds them: each string exactly as long as it
    /// is, no room to grow, and a target equal to its scope held once.
    pub fn boxed_targets(
        pairs: impl IntoIterator<Item = (String, String)>,
    ) -> Box<[(Arc<str>, Arc<str>)]> {
        pairs
            .into_iter()
            .map(|(scope, target)| {
                let scope: Arc<str> = scope.into();
                let target = match *scope == *target {
                    true => Arc::clone(&scope),
                    false => target.into(),
                };
                (scope, target)
            })
            .collect()
    }

    /// The targets as owned `(scope, target)` pairs.
    pub fn target_pairs(&self) -> Vec<(String, String)> {
        self.targets
            .iter()
            .map(|(scope, target)| (scope.to_string(), target.to_string()))
            .collect()
    }
}

/// One `Arc<str>` per distinct `trustedAt` and `trustedBy` text of a store
/// being read: a store written by `trust --yes` holds one time and one
/// program for thousands of entries.
#[derive(Default)]
pub(super) struct Interner {
    seen: std::collections::HashSet<Arc<str>>,
}

impl Interner {
    fn intern(&mut self, text: &mut Arc<str>) {
        match self.seen.get(&**text) {
            Some(shared) => *text = Arc::clone(shared),
            None => {
                self.seen.insert(Arc::clone(text));
            }
        }
    }

    /// `entry`'s texts, shared with the entries interned before it.
    pub(super) fn share(&mut self, entry: &mut StoredEntry) {
        self.intern(&mut entry.trusted_at);
        self.intern(&mut entry.trusted_by);
    }
}

/// A SHA-256 digest as its 32 bytes (not 64 hex digits of text); shown
/// (`Display`) and compared with text as lower-case hex.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sha256([u8; 32]);

impl Sha256 {
    /// The digest written as exactly 64 lower-case hex digits, else `None`.
    pub fn from_hex(hex: &str) -> Option<Sha256> {
        fn digit(b: u8) -> Option<u8> {
            match b {
                b'0'..=b'9' => Some(b - b'0'),
                b'a'..=b'f' => Some(b - b'a' + 10),
                _ => None,
            }
        }
        let hex = hex.as_bytes();
        if hex.len() != 64 {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(hex.chunks_exact(2)) {
            *byte = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Some(Sha256(bytes))
    }

    /// The 64 lower-case hex digits.
    pub fn to_hex(self) -> String {
        self.to_string()
    }
}

impl std::fmt::Display for Sha256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut text = [0u8; 64];
        for (pair, byte) in text.chunks_exact_mut(2).zip(self.0) {
            pair[0] = HEX[usize::from(byte >> 4)];
            pair[1] = HEX[usize::from(byte & 15)];
        }
        // Hex digits are ASCII.
        f.write_str(std::str::from_utf8(&text).map_err(|_| std::fmt::Error)?)
    }
}

impl std::fmt::Debug for Sha256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sha256({self})")
    }
}

/// Equal to text that is its 64 lower-case hex digits.
impl PartialEq<str> for Sha256 {
    fn eq(&self, other: &str) -> bool {
        Sha256::from_hex(other) == Some(*self)
    }
}

impl PartialEq<&str> for Sha256 {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for Sha256 {
    fn eq(&self, other: &String) -> bool {
        *self == *other.as_str()
    }
}

impl PartialEq<Sha256> for str {
    fn eq(&self, other: &Sha256) -> bool {
        *other == *self
    }
}

impl PartialEq<Sha256> for &str {
    fn eq(&self, other: &Sha256) -> bool {
        *other == **self
    }
}

impl PartialEq<Sha256> for String {
    fn eq(&self, other: &Sha256) -> bool {
        *other == *self.as_str()
    }
}

/// A stored block, kept as its compact text (the bytes the store file
/// holds for it) and parsed only when something reads its values: a
/// 20,000-entry `list` or `trust` never builds the 20,000 trees it does not
/// look at. Reads as a [`Json`] through `Deref`; the tree, once built, is
/// kept with the text (boxed: an empty `OnceLock` of a `Json` would cost
/// its full 40 bytes in every entry).
#[derive(Clone, Default)]
pub struct StoredBlock {
    text: Box<str>,
    tree: OnceLock<Box<Json>>,
}

impl StoredBlock {
    /// The compact text, as the store file holds it.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The compact text (no tree is built).
    #[cfg(test)]
    pub fn to_compact(&self) -> String {
        self.text.to_string()
    }

    /// The value, for a reader that looks at it once: the tree already
    /// built if there is one, else a tree built for the caller and not
    /// kept (`list` reads 20,000 blocks once each).
    #[allow(clippy::expect_used)] // the text is `to_compact` of a value: see `deref`
    pub fn value(&self) -> std::borrow::Cow<'_, Json> {
        match self.tree.get() {
            Some(tree) => std::borrow::Cow::Borrowed(&**tree),
            None => std::borrow::Cow::Owned(
                json::parse(&self.text)
                    .expect("a stored block is the compact text of a JSON value"),
            ),
        }
    }
}

impl From<Json> for StoredBlock {
    fn from(value: Json) -> StoredBlock {
        StoredBlock {
            text: value.to_compact().into_boxed_str(),
            tree: OnceLock::new(),
        }
    }
}

impl std::ops::Deref for StoredBlock {
    type Target = Json;
    #[allow(clippy::expect_used)] // cannot fail: see the comment below
    fn deref(&self) -> &Json {
        // The text is the compact form of a parsed value, which parses
        // back to that value (numbers as written, members and duplicates
        // in order).
        self.tree.get_or_init(|| {
            Box::new(
                json::parse(&self.text)
                    .expect("a stored block is the compact text of a JSON value"),
            )
        })
    }
}

/// Equal when the texts are: the compact text is one-to-one with the value.
impl PartialEq for StoredBlock {
    fn eq(&self, other: &StoredBlock) -> bool {
        self.text == other.text
    }
}

impl Eq for StoredBlock {}

impl std::fmt::Debug for StoredBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("StoredBlock").field(&self.text).finish()
    }
}

/// The entries of a store, in the order they were read or added. A key put
/// twice keeps its first position and takes the later data, which is also
/// how a key occurring twice in the file is read (docs/src/compatibility.md#the-store-listing).
///
/// What each key holds is a [`StoredEntry`]; a store read to be shown
/// entry by entry (`super::on_demand`) holds where each entry sits in its
/// file instead, looked up by the same rules.
#[derive(Clone)]
pub struct Store<E = StoredEntry> {
    entries: Vec<(String, E)>,
    /// Index in `entries` of each entry, found by its folded key, hashed
    /// on the fly from the entry's own key: a 10,000-entry store must read
    /// and merge in milliseconds, and the keys are held once, not twice.
    index: HashTable<u32>,
    hasher: RandomState,
    /// Whether `put`/`remove`/`retain` changed anything since the store was
    /// read: an update that changes nothing writes nothing.
    modified: bool,
}

/// Keys compare exactly on Linux/BSD and ignoring ASCII case on macOS and
/// Windows (docs/src/compatibility.md#the-trust-key).
fn fold(key: &str) -> std::borrow::Cow<'_, str> {
    Platform::CURRENT.fold_key(key)
}

impl<E> Default for Store<E> {
    fn default() -> Store<E> {
        Store {
            entries: Vec::new(),
            index: HashTable::new(),
            hasher: RandomState::new(),
            modified: false,
        }
    }
}

/// Equal when the entries and the state of change are (the index follows
/// from the entries).
impl PartialEq for Store {
    fn eq(&self, other: &Store) -> bool {
        self.entries == other.entries && self.modified == other.modified
    }
}

impl Eq for Store {}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("entries", &self.entries)
            .field("modified", &self.modified)
            .finish()
    }
}

/// An index into the entries: a store holds far fewer than 2³² entries
/// (its file is at most `STORE_MAX_BYTES`).
#[allow(clippy::cast_possible_truncation)]
fn slot(i: usize) -> u32 {
    i as u32
}

impl<E> Store<E> {
    fn hash(&self, key: &str) -> u64 {
        self.hasher.hash_one(fold(key).as_ref())
    }

    /// Where the entry whose key folds as `key` does is, if there is one.
    fn find(&self, key: &str) -> Option<usize> {
        self.find_hashed(self.hash(key), key)
    }

    /// [`Store::find`] of a key whose hash the caller has (and indexes
    /// with, when it is not found).
    fn find_hashed(&self, hash: u64, key: &str) -> Option<usize> {
        let folded = fold(key);
        let entries = &self.entries;
        self.index
            .find(hash, |&i| fold(&entries[i as usize].0) == folded)
            .map(|&i| i as usize)
    }

    /// Indexes `entries[i]`, whose folded key is not indexed yet.
    fn index_new(&mut self, hash: u64, i: usize) {
        let (entries, hasher) = (&self.entries, &self.hasher);
        self.index.insert_unique(hash, slot(i), |&j| {
            hasher.hash_one(fold(&entries[j as usize].0).as_ref())
        });
    }

    pub fn get(&self, key: &str) -> Option<&E> {
        self.find(key).map(|i| &self.entries[i].1)
    }

    /// The store of `entries` read in file order, as [`Store::put`] of
    /// each in turn makes it (a key read again keeps its first place and
    /// takes the later data), unmodified. Indexed in place: the entries'
    /// vector becomes the store's, never copied into a second one.
    pub(super) fn from_read(entries: Vec<(String, E)>) -> Store<E> {
        let mut store = Store {
            entries,
            ..Store::default()
        };
        store.index.reserve(store.entries.len(), |_| 0);
        // `entries[..kept]` is the store so far; what lies between `kept`
        // and `i` is spent (swapped out), dropped at the end.
        let mut kept = 0;
        for i in 0..store.entries.len() {
            let hash = store.hash(&store.entries[i].0);
            match store.find_hashed(hash, &store.entries[i].0) {
                Some(first) => store.entries.swap(first, i),
                None => {
                    store.entries.swap(kept, i);
                    store.index_new(hash, kept);
                    kept += 1;
                }
            }
        }
        store.entries.truncate(kept);
        store.entries.shrink_to_fit();
        store
    }

    /// The entries in store order (file order for a store read from disk).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &E)> {
        self.entries.iter().map(|(k, e)| (k.as_str(), e))
    }
}

impl Store {
    pub fn new() -> Store {
        Store::default()
    }

    #[cfg(any(test, feature = "test-support"))]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[cfg(any(test, feature = "test-support"))]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Room for `additional` more entries without regrowing the entries
    /// and the index one doubling at a time (a store being read).
    pub fn reserve(&mut self, additional: usize) {
        self.entries.reserve(additional);
        let (entries, hasher) = (&self.entries, &self.hasher);
        self.index.reserve(additional, |&j| {
            hasher.hash_one(fold(&entries[j as usize].0).as_ref())
        });
    }

    /// Adds or replaces the entry for `key`. Replacing an entry with an
    /// identical one is not a change.
    pub fn put(&mut self, key: impl Into<String>, entry: StoredEntry) {
        let key = key.into();
        // One lookup: a store of 10,000 entries is built by `put`.
        let hash = self.hash(&key);
        match self.find_hashed(hash, &key) {
            Some(i) => {
                if self.entries[i].0 != key || self.entries[i].1 != entry {
                    self.entries[i] = (key, entry);
                    self.modified = true;
                }
            }
            None => {
                self.entries.push((key, entry));
                self.index_new(hash, self.entries.len() - 1);
                self.modified = true;
            }
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<StoredEntry> {
        let i = self.find(key)?;
        let (_, entry) = self.entries.remove(i);
        self.modified = true;
        self.reindex();
        Some(entry)
    }

    /// Keeps the entries `keep` accepts and returns the keys of the others,
    /// in store order (`--untrust <dir>`, `untrust --missing`).
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &StoredEntry) -> bool) -> Vec<String> {
        let mut removed = Vec::new();
        self.entries.retain(|(k, e)| {
            let kept = keep(k, e);
            if !kept {
                removed.push(k.clone());
            }
            kept
        });
        if !removed.is_empty() {
            self.modified = true;
            self.reindex();
        }
        removed
    }

    /// Whether `put`, `remove` or `retain` changed the store since it was
    /// read or created.
    pub fn is_modified(&self) -> bool {
        self.modified
    }

    /// For the reader: a store fresh from disk has no changes of its own.
    pub(super) fn mark_unmodified(&mut self) {
        self.modified = false;
    }

    fn reindex(&mut self) {
        self.index.clear();
        for i in 0..self.entries.len() {
            let hash = self.hash(&self.entries[i].0);
            self.index_new(hash, i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(hash_digit: char) -> StoredEntry {
        StoredEntry {
            sha256: Sha256::from_hex(&hash_digit.to_string().repeat(64)).unwrap(),
            block: Json::Object(vec![("version".into(), Json::Number("1".into()))]).into(),
            targets: Box::new([]),
            trusted_at: "2026-09-25T10:12:03Z".into(),
            trusted_by: "goccia-trust 0.1.0".into(),
        }
    }

    #[test]
    fn a_key_put_again_keeps_its_place_and_takes_the_new_data() {
        let mut s = Store::new();
        s.put("/b", entry('1'));
        s.put("/a", entry('2'));
        s.put("/b", entry('3'));
        let keys: Vec<_> = s
            .iter()
            .map(|(k, e)| (k, e.sha256.to_hex().chars().next().unwrap()))
            .collect();
        assert_eq!(keys, [("/b", '3'), ("/a", '2')]);
        assert_eq!(s.len(), 2);
    }

    /// A store read in place is the store `put` makes of the same entries
    /// in the same order: duplicates keep the first place and take the
    /// last data, across runs of new keys between them.
    #[test]
    fn a_store_read_in_place_is_the_store_put_makes() {
        let read = [
            ("/b", '1'),
            ("/a", '2'),
            ("/b", '3'),
            ("/c", '4'),
            ("/a", '5'),
            ("/d", '6'),
            ("/b", '7'),
        ];
        let mut put = Store::new();
        for (k, d) in read {
            put.put(k, entry(d));
        }
        put.mark_unmodified();
        let entries = read.iter().map(|(k, d)| (k.to_string(), entry(*d)));
        let in_place = Store::from_read(entries.collect());
        assert_eq!(in_place, put);
        let shown: Vec<_> = in_place
            .iter()
            .map(|(k, e)| (k, e.sha256.to_hex().chars().next().unwrap()))
            .collect();
        assert_eq!(shown, [("/b", '7'), ("/a", '5'), ("/c", '4'), ("/d", '6')]);
        for (k, d) in [("/a", '5'), ("/b", '7'), ("/c", '4'), ("/d", '6')] {
            assert_eq!(in_place.get(k), Some(&entry(d)), "{k}");
        }
    }

    #[test]
    fn tracks_whether_anything_changed() {
        let mut s = Store::new();
        assert!(!s.is_modified());
        s.put("/a", entry('1'));
        s.mark_unmodified();
        s.put("/a", entry('1'));
        assert!(!s.is_modified(), "an identical put is no change");
        assert!(s.retain(|_, _| true).is_empty());
        assert!(s.remove("/nope").is_none());
        assert!(!s.is_modified());
        assert_eq!(s.remove("/a"), Some(entry('1')));
        assert!(s.is_modified() && s.is_empty());
    }

    #[test]
    fn retain_reports_removed_keys_in_order_and_reindexes() {
        let mut s = Store::new();
        for k in ["/a/x", "/b", "/a/y", "/c"] {
            s.put(k, entry('0'));
        }
        assert_eq!(s.retain(|k, _| !k.starts_with("/a/")), ["/a/x", "/a/y"]);
        assert!(s.get("/c").is_some() && s.get("/a/y").is_none());
        s.put("/d", entry('1'));
        assert_eq!(
            s.iter().map(|(k, _)| k).collect::<Vec<_>>(),
            ["/b", "/c", "/d"]
        );
    }

    /// `from_read` is `put` of each entry in turn, for every sequence of
    /// up to six entries over three keys (a key once, twice, three times,
    /// anywhere), and leaves the store unmodified.
    #[test]
    fn from_read_is_put_in_turn() {
        let keys = ["/a", "/b", "/c"];
        for len in 0..=6u32 {
            for code in 0..3u32.pow(len) {
                let read: Vec<(String, StoredEntry)> = (0..len)
                    .map(|i| {
                        let k = keys[(code / 3u32.pow(i) % 3) as usize];
                        let digit = char::from_digit(i, 10).unwrap();
                        (k.to_string(), entry(digit))
                    })
                    .collect();
                let mut put = Store::new();
                for (k, e) in read.clone() {
                    put.put(k, e);
                }
                put.mark_unmodified();
                let got = Store::from_read(read);
                assert_eq!(got, put, "sequence {code} of {len}");
                for (k, _) in put.iter() {
                    assert_eq!(got.get(k), put.get(k));
                }
            }
        }
    }

    #[test]
    fn a_sha256_is_its_lower_case_hex_and_nothing_else() {
        let hex = "00ff10a9b8c7d6e5f4031223344556677889aabbccddeeff0123456789abcdef";
        let digest = Sha256::from_hex(hex).unwrap();
        assert_eq!(digest.to_hex(), hex);
        assert_eq!(format!("{digest}"), hex);
        assert_eq!(digest, hex);
        assert_eq!(hex, digest);
        assert!(digest != hex.replace('0', "1").as_str());
        for bad in [
            &hex[1..],
            &hex.to_uppercase(),
            &format!("{hex}0"),
            &hex.replace('f', "g"),
            "",
        ] {
            assert_eq!(Sha256::from_hex(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_store_read_shares_its_times_and_programs() {
        let mut interner = Interner::default();
        let (mut a, mut b) = (entry('1'), entry('2'));
        interner.share(&mut a);
        interner.share(&mut b);
        assert!(Arc::ptr_eq(&a.trusted_at, &b.trusted_at));
        assert!(Arc::ptr_eq(&a.trusted_by, &b.trusted_by));
        let mut c = entry('3');
        c.trusted_at = "2027-01-01T00:00:00Z".into();
        interner.share(&mut c);
        assert_eq!(&*c.trusted_at, "2027-01-01T00:00:00Z");
        assert!(Arc::ptr_eq(&a.trusted_by, &c.trusted_by));
    }

    #[test]
    fn a_target_that_is_its_scope_is_held_once() {
        let targets = StoredEntry::boxed_targets([
            ("/a".to_string(), "/a".to_string()),
            ("/b".to_string(), "/real/b".to_string()),
        ]);
        assert!(Arc::ptr_eq(&targets[0].0, &targets[0].1));
        assert_eq!((&*targets[1].0, &*targets[1].1), ("/b", "/real/b"));
    }

    #[cfg(not(target_os = "macos"))]
    #[test]
    fn keys_are_case_sensitive_on_linux() {
        let mut s = Store::new();
        s.put("/A/goccia.json", entry('1'));
        assert!(s.get("/a/goccia.json").is_none());
    }
}
