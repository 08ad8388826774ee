//! The exact bytes GocciaScript 0.14 writes (goccia-reference.md §9.2).

use super::Store;
use crate::core::config::json::quote_json_string_into;

/// The store file: LF line endings and a final newline, entries sorted by
/// key bytes, each block compact on one line, targets on one line.
pub fn serialize_store(store: &Store) -> String {
    let mut entries: Vec<_> = store.iter().collect();
    // Byte order, as GocciaScript's case-sensitive, locale-free sort.
    entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));

    let mut out = String::with_capacity(64 + entries.len() * 512);
    out.push_str("{\n  \"version\": 1,\n  \"trusted\": {");
    for (i, (key, entry)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("\n    ");
        quote_json_string_into(key, &mut out);
        out.push_str(": {\n      \"sha256\": ");
        quote_json_string_into(&entry.sha256, &mut out);
        out.push_str(",\n      \"block\": ");
        entry.block.write_compact(&mut out);
        out.push_str(",\n      \"targets\": {");
        for (j, (scope, target)) in entry.targets.iter().enumerate() {
            if j > 0 {
                out.push_str(", ");
            }
            quote_json_string_into(scope, &mut out);
            out.push_str(": ");
            quote_json_string_into(target, &mut out);
        }
        out.push_str("},\n      \"trustedAt\": ");
        quote_json_string_into(&entry.trusted_at, &mut out);
        out.push_str(",\n      \"trustedBy\": ");
        quote_json_string_into(&entry.trusted_by, &mut out);
        out.push_str("\n    }");
    }
    if !entries.is_empty() {
        out.push_str("\n  ");
    }
    out.push_str("}\n}\n");
    out
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
