//! The store loader: any store written reads back as the same entries and
//! writes again as the same bytes; mutated and random store files are read
//! or refused with a message naming the file.

use goccia_trust::core::config::json::Json;
use goccia_trust::core::review::report::{ConfigState, EntryStatus};
use goccia_trust::core::store::{Sha256, Store, StoredEntry};
use proptest::prelude::*;

use crate::fuzz::api;
use crate::fuzz::harness::{self, bounded};
use crate::fuzz::json::json_value;

const PATH: &str = "/fuzz/trust.json";

fn sha256() -> impl Strategy<Value = String> {
    "[0-9a-f]{64}"
}

fn entry() -> impl Strategy<Value = StoredEntry> {
    (
        sha256(),
        prop::collection::vec((harness::text(12), json_value()), 0..4),
        prop::collection::vec((harness::text(16), harness::text(16)), 0..4),
        harness::text(24),
        harness::text(24),
    )
        .prop_map(|(sha256, members, mut targets, trusted_at, trusted_by)| {
            // A scope occurring twice keeps one place, as the reader does.
            let mut seen = Vec::new();
            targets.retain(|(scope, _)| {
                let new = !seen.contains(scope);
                seen.push(scope.clone());
                new
            });
            StoredEntry {
                sha256: Sha256::from_hex(&sha256).unwrap(),
                block: Json::Object(members).into(),
                targets: StoredEntry::boxed_targets(targets),
                trusted_at: trusted_at.into(),
                trusted_by: trusted_by.into(),
            }
        })
}

fn store() -> impl Strategy<Value = Store> {
    prop::collection::vec((harness::text(40), entry()), 0..6).prop_map(|entries| {
        let mut store = Store::new();
        for (key, entry) in entries {
            store.put(key, entry);
        }
        store
    })
}

fn entries(store: &Store) -> Vec<(String, StoredEntry)> {
    let mut all: Vec<(String, StoredEntry)> = store
        .iter()
        .map(|(k, e)| (k.to_string(), e.clone()))
        .collect();
    all.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    all
}

fn parse(bytes: Vec<u8>) -> Result<Store, String> {
    bounded("parse_store", move || {
        api::store_from_bytes(PATH, &bytes).map_err(|e| e.to_string())
    })
}

/// A store that was read writes out, and that reads back as the same
/// entries and writes again as the same bytes.
fn assert_round_trip(store: &Store) -> Result<(), TestCaseError> {
    let written = api::store_bytes(store);
    let read = parse(written.clone().into_bytes())
        .map_err(|e| TestCaseError::fail(format!("{e}\n{written}")))?;
    prop_assert_eq!(entries(&read), entries(store));
    prop_assert_eq!(api::store_bytes(&read), written);
    Ok(())
}

fn check_refusal(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(message.contains(PATH), "{}", message);
    Ok(())
}

proptest! {
    #![proptest_config(harness::config(256))]

    #[test]
    fn any_store_round_trips(store in store()) {
        assert_round_trip(&store)?;
    }

    /// The fixtures' stores (GocciaScript-written included), mutated.
    #[test]
    fn mutated_stores_are_read_or_refused_by_name(
        seed in any::<proptest::sample::Index>(),
        edits in harness::mutations(),
    ) {
        let seeds = harness::seeds(&harness::repo().join("tests/fixtures/store"), &[".json"]);
        let (_, bytes) = &seeds[seed.index(seeds.len())];
        match parse(harness::apply(bytes, &edits)) {
            Ok(store) => assert_round_trip(&store)?,
            Err(message) => check_refusal(&message)?,
        }
    }

    #[test]
    fn random_store_files_are_read_or_refused_by_name(
        bytes in prop::collection::vec(any::<u8>(), 0..256),
        text in harness::text(256),
    ) {
        for input in [bytes, text.into_bytes()] {
            match parse(input) {
                Ok(store) => assert_round_trip(&store)?,
                Err(message) => check_refusal(&message)?,
            }
        }
    }
}

/// A hostile or corrupt store holds any block and any targets for a key:
/// `scan` and `list` compare them with the real config, describe and diff
/// them, and resolve the recorded scopes, without panicking.
fn hostile_entry() -> impl Strategy<Value = StoredEntry> {
    (
        entry(),
        json_value(),
        prop::collection::vec(
            (
                prop_oneof![
                    Just("/".to_string()),
                    Just("./data".to_string()),
                    "/[a-z./]{0,12}",
                    harness::text(12)
                ],
                harness::text(12),
            ),
            0..4,
        ),
    )
        .prop_map(|(mut entry, block, targets)| {
            // Blocks of every shape, not only objects: a store written by
            // another tool may hold anything the reader lets through later.
            if !matches!(block, Json::Object(_)) {
                entry.block = Json::Object(vec![("permissions".into(), block)]).into();
            }
            let mut pairs = entry.target_pairs();
            pairs.extend(targets);
            entry.targets = StoredEntry::boxed_targets(pairs);
            entry
        })
}

proptest! {
    #![proptest_config(harness::config(128))]

    #[test]
    fn hostile_entries_are_compared_described_and_listed(
        entry in hostile_entry(),
        key in harness::text(24),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let config = root.join("p/goccia.json");
        std::fs::create_dir_all(root.join("p/data")).unwrap();
        std::fs::write(
            &config,
            r#"{"permissions": {"allow-read": ["./data"], "allow-net": ["a.test"]}}"#,
        )
        .unwrap();
        let config = config.to_str().unwrap().to_string();
        let (state, status, other) = bounded("hostile entry", move || {
            let env = api::env_at(&root);
            let snap = api::load(&config, &env).expect("the config loads");
            let state = api::state(&snap, Some(&entry));
            let (status, text) = api::list_entry(&config, &entry, &env);
            assert!(text.starts_with("Trust store: /s/trust.json\n"), "{text}");
            let (other, _) = api::list_entry(&key, &entry, &env);
            (state, status, other)
        });
        // A random sha256 never matches the config's.
        prop_assert_eq!(state, ConfigState::Changed);
        prop_assert_eq!(status, EntryStatus::Changed);
        prop_assert!(!matches!(other, EntryStatus::Ok), "{:?}", other);
    }
}
