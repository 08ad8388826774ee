//! The exact bytes GocciaScript 0.14 writes (docs/src/compatibility.md#store-file-bytes).

use super::model::{Store, StoredEntry};
use crate::core::config::json::quote_json_string_into;

/// The store file: LF line endings and a final newline, entries sorted by
/// key bytes, each block compact on one line, targets on one line.
pub fn serialize_store(store: &Store) -> String {
    use rayon::prelude::*;
    let mut entries: Vec<_> = store.iter().collect();
    // Byte order, as GocciaScript's case-sensitive, locale-free sort.
    entries.par_sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));

    // Entries are written a chunk at a time on every thread, then joined in
    // order: a store of 10,000 entries is written while it is locked.
    let chunks: Vec<String> = entries
        .par_chunks(256)
        .enumerate()
        .map(|(c, chunk)| {
            let mut out = String::with_capacity(chunk.len() * 512);
            for (i, (key, entry)) in chunk.iter().enumerate() {
                if c > 0 || i > 0 {
                    out.push(',');
                }
                write_entry(&mut out, key, entry);
            }
            out
        })
        .collect();
    let mut out = String::with_capacity(64 + chunks.iter().map(String::len).sum::<usize>());
    out.push_str("{\n  \"version\": 1,\n  \"trusted\": {");
    for chunk in &chunks {
        out.push_str(chunk);
    }
    if !entries.is_empty() {
        out.push_str("\n  ");
    }
    out.push_str("}\n}\n");
    out
}

/// One entry, from the line break before it to its closing brace.
fn write_entry(out: &mut String, key: &str, entry: &StoredEntry) {
    out.push_str("\n    ");
    quote_json_string_into(key, out);
    out.push_str(": {\n      \"sha256\": ");
    quote_json_string_into(&entry.sha256, out);
    out.push_str(",\n      \"block\": ");
    entry.block.write_compact(out);
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

    #[test]
    fn empty_store_bytes() {
        assert_eq!(
            serialize_store(&Store::new()),
            "{\n  \"version\": 1,\n  \"trusted\": {}\n}\n"
        );
    }

    /// A store written a chunk at a time on several threads is the entries
    /// of one-entry stores joined by `,` in key-byte order, and reads back
    /// as itself: 600 entries cross two chunk boundaries.
    #[test]
    fn a_long_store_is_its_entries_joined_in_key_order() {
        let entry = |i: usize| StoredEntry {
            sha256: format!("{i:064x}"),
            block: crate::core::config::json::parse(&format!(
                r#"{{"permissions":{{"allow-net":["h{i}.test"]}},"version":1}}"#
            ))
            .unwrap(),
            targets: vec![(format!("/t/{i}"), format!("/real/{i}"))],
            trusted_at: "2026-12-03T00:00:00Z".into(),
            trusted_by: "goccia-trust 0.1.0".into(),
        };
        let mut store = Store::new();
        // Put in an order that is not the key order.
        for i in (0..600).rev() {
            store.put(format!("/p/{}/goccia.json", (i * 7919) % 600), entry(i));
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
        assert_eq!(back.iter().count(), 600);
        for (k, e) in store.iter() {
            assert_eq!(back.get(k), Some(e));
        }
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
