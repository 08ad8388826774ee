//! The strict JSON reader under the `.json` configs, the store and the
//! policy: any text is parsed or refused with a position; any value written
//! compactly reads back as itself; what it accepts is JSON to serde_json.

use goccia_trust::core::config::json::{self, Json};
use proptest::prelude::*;

use crate::harness::{self, bounded};

fn number() -> impl Strategy<Value = String> {
    "-?(0|[1-9][0-9]{0,20})(\\.[0-9]{1,6})?([eE][+-]?[0-9]{1,2})?"
}

/// Any JSON value, duplicate keys and odd strings included.
pub fn json_value() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        number().prop_map(Json::Number),
        harness::text(16).prop_map(Json::String),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
            prop::collection::vec((harness::text(8), inner), 0..4).prop_map(Json::Object),
        ]
    })
}

fn parse(text: String) -> Result<Json, json::JsonError> {
    bounded("json::parse", move || json::parse(&text))
}

proptest! {
    #![proptest_config(harness::config(256))]

    #[test]
    fn any_text_is_parsed_or_refused_with_a_position(text in harness::text(512)) {
        if let Err(e) = parse(text.clone()) {
            prop_assert!(!e.message.is_empty());
            prop_assert!(e.line >= 1 && e.column >= 1, "{:?}", e);
            prop_assert!(e.line <= text.lines().count().max(1) + 1, "{:?}", e);
        }
    }

    #[test]
    fn compact_json_reads_back_as_itself(value in json_value()) {
        let text = value.to_compact();
        let read = parse(text.clone());
        prop_assert_eq!(read.as_ref().ok(), Some(&value), "{}", text);
        // Written as GocciaScript writes it, it is JSON to anyone.
        prop_assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok(), "{}", text);
    }

    /// Whitespace between tokens changes nothing.
    #[test]
    fn pretty_printed_json_reads_as_the_same_value(value in json_value()) {
        let compact = value.to_compact();
        let Ok(serde) = serde_json::from_str::<serde_json::Value>(&compact) else {
            return Ok(());
        };
        // serde_json drops duplicate keys and sorts: compare with its own
        // compact form, read by our reader.
        let pretty = serde_json::to_string_pretty(&serde).unwrap();
        let plain = serde_json::to_string(&serde).unwrap();
        let a = parse(pretty).map(|v| v.to_compact());
        let b = parse(plain).map(|v| v.to_compact());
        prop_assert_eq!(a.ok(), b.ok());
    }
}
