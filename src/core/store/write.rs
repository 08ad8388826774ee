//! The exact bytes GocciaScript 0.14 writes (docs/src/compatibility.md#store-file-bytes).

use super::model::{Store, StoredEntry};
use crate::core::config::json::quote_json_string_into;

/// Entries formatted at once, on every thread, before they are written:
/// what is held besides the store is this many entries' text.
const BATCH: usize = 4096;

/// The store file as a string: [`write_store`] into memory.
#[cfg(any(test, feature = "test-support"))]
#[allow(clippy::expect_used)] // test support: memory and text cannot fail
pub fn serialize_store(store: &Store) -> String {
    let mut out = Vec::new();
    write_store(store, &mut out).expect("writing to memory does not fail");
    String::from_utf8(out).expect("the store is written from strings")
}

/// The store file: LF line endings and a final newline, entries sorted by
/// key bytes, each block compact on one line, targets on one line. It is
/// written a batch of entries at a time, never whole in memory.
pub fn write_store(store: &Store, out: &mut impl std::io::Write) -> std::io::Result<()> {
    use rayon::prelude::*;
    let mut entries: Vec<_> = store.iter().collect();
    // Byte order, as GocciaScript's case-sensitive, locale-free sort.
    entries.par_sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));

    out.write_all(b"{\n  \"version\": 1,\n  \"trusted\": {")?;
    // Each batch is formatted a chunk at a time on every thread, then
    // written in order: a store of 10,000 entries is written while it is
    // locked.
    for (b, batch) in entries.chunks(BATCH).enumerate() {
        let chunks: Vec<String> = batch
            .par_chunks(256)
            .enumerate()
            .map(|(c, chunk)| {
                let mut text = String::with_capacity(chunk.len() * 512);
                for (i, (key, entry)) in chunk.iter().enumerate() {
                    if b > 0 || c > 0 || i > 0 {
                        text.push(',');
                    }
                    write_entry(&mut text, key, entry);
                }
                text
            })
            .collect();
        for chunk in &chunks {
            out.write_all(chunk.as_bytes())?;
        }
    }
    if !entries.is_empty() {
        out.write_all(b"\n  ")?;
    }
    out.write_all(b"}\n}\n")
}

/// One entry, from the line break before it to its closing brace.
fn write_entry(out: &mut String, key: &str, entry: &StoredEntry) {
    out.push_str("\n    ");
    quote_json_string_into(key, out);
    out.push_str(": {\n      \"sha256\": ");
    quote_json_string_into(&entry.sha256.to_hex(), out);
    out.push_str(",\n      \"block\": ");
    out.push_str(entry.block.as_str());
    out.push_str(",\n      \"targets\": {");
    for (j, (scope, target)) in entry.targets.iter().enumerate() {
        if j > 0 {
            out.push_str(", ");
        }
        quote_json_string_into(scope, out);
        out.push_str(": ");
        quote_json_string_into(target, out);
    }
    out.push_str("},\n      \"trustedAt\": ");
    quote_json_string_into(&entry.trusted_at, out);
    out.push_str(",\n      \"trustedBy\": ");
    quote_json_string_into(&entry.trusted_by, out);
    out.push_str("\n    }");
}

/// The current UTC time as `trustedAt` records it: `2026-09-25T10:12:03Z`,
/// whatever the locale.
pub fn utc_timestamp_now() -> String {
    jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::json::Json;

    #[test]
    fn empty_store_bytes() {
        assert_eq!(
            serialize_store(&Store::new()),
            "{\n  \"version\": 1,\n  \"trusted\": {}\n}\n"
        );
    }

    /// A store written a chunk at a time on several threads is the entries
    /// of one-entry stores joined by `,` in key-byte order, and reads back
    /// as itself: the entries cross chunk boundaries and a batch boundary.
    #[test]
    fn a_long_store_is_its_entries_joined_in_key_order() {
        let entry = |i: usize| StoredEntry {
            sha256: crate::core::store::Sha256::from_hex(&format!("{i:064x}")).unwrap(),
            block: crate::core::config::json::parse(&format!(
                r#"{{"permissions":{{"allow-net":["h{i}.test"]}},"version":1}}"#
            ))
            .unwrap()
            .into(),
            targets: StoredEntry::boxed_targets([(format!("/t/{i}"), format!("/real/{i}"))]),
            trusted_at: "2026-12-03T00:00:00Z".into(),
            trusted_by: "goccia-trust 0.1.0".into(),
        };
        let mut store = Store::new();
        // Put in an order that is not the key order.
        let n = BATCH + 300;
        for i in (0..n).rev() {
            store.put(format!("/p/{}/goccia.json", (i * 7919) % n), entry(i));
        }
        let text = serialize_store(&store);

        let head = "{\n  \"version\": 1,\n  \"trusted\": {";
        let tail = "\n  }\n}\n";
        let mut keys: Vec<&str> = store.iter().map(|(k, _)| k).collect();
        keys.sort_unstable();
        let one_by_one: Vec<String> = keys
            .iter()
            .map(|k| {
                let mut one = Store::new();
                one.put(*k, store.get(k).unwrap().clone());
                let t = serialize_store(&one);
                t[head.len()..t.len() - tail.len()].to_string()
            })
            .collect();
        assert_eq!(text, format!("{head}{}{tail}", one_by_one.join(",")));
        let back = crate::core::store::read::parse_store("/s", text.as_bytes()).unwrap();
        assert_eq!(back.iter().count(), n);
        for (k, e) in store.iter() {
            assert_eq!(back.get(k), Some(e));
        }
    }

    /// A store in GocciaScript's bytes, with every kind of entry (no
    /// targets, several, every kind of JSON value in a block, duplicate
    /// members) and odd strings (escapes by name and by `\u00xx`, `/`,
    /// DEL and non-ASCII raw, keys whose byte order is not their
    /// character order), reads and writes back byte for byte, on the lean
    /// path and on the exact one.
    #[test]
    fn every_kind_of_entry_round_trips_byte_for_byte() {
        let h = |d: char| d.to_string().repeat(64);
        let entry = |key: &str, hash: &str, block: &str, targets: &str, by: &str| {
            format!(
                "\n    {key}: {{\n      \"sha256\": \"{hash}\",\n      \"block\": {block},\n      \
                 \"targets\": {{{targets}}},\n      \"trustedAt\": \"2026-12-05T16:00:00Z\",\n      \
                 \"trustedBy\": {by}\n    }}"
            )
        };
        let odd_key = "\"/a/\\\"q\\\" \\\\ \\b\\f\\n\\r\\t\\u0001\\u001f/\u{7f}/goccia.toml\"";
        let odd_block = r#"{"permissions":{"allow-net":["a.test","b\"\\\u0000"],"allow-read":true},"unsafe-ffi":false,"x":null,"n":[-0.5,1e5,1E-2,0],"e":{},"f":[],"x":"dup"}"#;
        let entries = [
            entry(
                r#""/A/goccia.json""#,
                &h('a'),
                r#"{"version":1}"#,
                "",
                r#""GocciaScript 0.14.0""#,
            ),
            entry(
                odd_key,
                &h('0'),
                odd_block,
                r#""/a/s": "/real/s", "/a/\n": "/real/\u001b""#,
                r#""goccia-trust 0.1.0 \u0007""#,
            ),
            entry(
                r#""/a/z/goccia.json5""#,
                &h('f'),
                r#"{"permissions":{"allow-ffi":["./x.so"]}}"#,
                r#""/a/z/x.so": "/a/z/x.so""#,
                r#""""#,
            ),
            entry(
                "\"/café/日本/🦀/goccia.json\"",
                &h('9'),
                "{\"k\":\"é\u{2028}🦀\"}",
                r#""/café/d": "/café/d""#,
                r#""t""#,
            ),
        ];
        let text = format!(
            "{{\n  \"version\": 1,\n  \"trusted\": {{{}\n  }}\n}}\n",
            entries.join(",")
        );
        let lean = crate::core::store::lean::read_lean(&text).expect("the lean reader takes it");
        let exact = crate::core::store::read::parse_exact("/s", &text).unwrap();
        assert_eq!(lean, exact);
        assert_eq!(lean.len(), 4);
        assert_eq!(serialize_store(&lean), text);
        // Put in the reverse order, it is sorted by key bytes again.
        let mut reversed = Store::new();
        for (k, e) in lean.iter().collect::<Vec<_>>().into_iter().rev() {
            reversed.put(k, e.clone());
        }
        assert_eq!(serialize_store(&reversed), text);
        // The block read as values is the text's.
        let (_, odd) = lean.iter().nth(1).unwrap();
        assert_eq!(odd.block.as_str(), odd_block);
        assert_eq!(odd.block.get("x"), Some(&Json::String("dup".into())));
        assert_eq!(Json::clone(&odd.block).to_compact(), odd_block);
    }

    #[test]
    fn timestamp_shape() {
        let t = utc_timestamp_now();
        assert_eq!(t.len(), 20, "{t}");
        let seps: String = [4, 7, 10, 13, 16, 19]
            .iter()
            .map(|&i| t.as_bytes()[i] as char)
            .collect();
        assert_eq!(seps, "--T::Z");
        assert!(t.starts_with("20"));
    }
}
