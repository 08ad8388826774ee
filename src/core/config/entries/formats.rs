//! The three config formats, each parsed into one order-keeping [`Node`]
//! tree that the flattener in `entries` walks.
//!
//! `.json` keeps document order and duplicates (GocciaScript's streaming
//! reader). `.json5` and `.toml` are parsed by GocciaScript into JS objects, so
//! their members follow JS own-property order and a repeated JSON5 key keeps
//! its first position with its last value (docs/src/compatibility.md#json5-and-toml-files).

use std::collections::HashMap;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use toml::de::{DeTable, DeValue};

use crate::core::config::json::{self, Json};

/// Nesting deeper than this is refused before the parser recurses further, so
/// a hostile file cannot overflow the stack (the json5 crate has no limit).
const MAX_DEPTH: usize = json::MAX_DEPTH;

/// A parsed config value.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    Null,
    Bool(bool),
    /// The number's text: as written for `.json`, JS `Number#toString` for
    /// `.json5` and `.toml`.
    Number(String),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
    /// A TOML date, time or date-time, as TOML writes it.
    Datetime(String),
}

impl From<Json> for Node {
    fn from(j: Json) -> Node {
        match j {
            Json::Null => Node::Null,
            Json::Bool(b) => Node::Bool(b),
            Json::Number(n) => Node::Number(n),
            Json::String(s) => Node::String(s),
            Json::Array(items) => Node::Array(items.into_iter().map(Node::from).collect()),
            Json::Object(members) => {
                Node::Object(members.into_iter().map(|(k, v)| (k, v.into())).collect())
            }
        }
    }
}

/// A parse failure, already worded as `<problem> at line L, column C`.
pub(super) struct ParseError(pub String);

pub(super) fn parse_json(text: &str) -> Result<Node, ParseError> {
    json::parse(text).map(Node::from).map_err(|e| {
        // GocciaScript's message for an empty file carries no position.
        if e.message == "Empty JSON input" {
            ParseError(e.message)
        } else {
            ParseError(e.to_string())
        }
    })
}

pub(super) fn parse_json5(text: &str) -> Result<Node, ParseError> {
    json5::from_str::<Json5Root>(text)
        .map(|root| root.0)
        .map_err(|e| ParseError(e.to_string()))
}

/// `json5::from_str` also refuses trailing data; this wrapper lets it drive
/// our depth-limited seed.
struct Json5Root(Node);

impl<'de> serde::Deserialize<'de> for Json5Root {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        NodeSeed { depth: 0 }
            .deserialize(deserializer)
            .map(Json5Root)
    }
}

pub(super) fn parse_toml(text: &str) -> Result<Node, ParseError> {
    let table = DeTable::parse(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| position(text, s.start))
            .unwrap_or_default();
        ParseError(format!("{}{at}", e.message()))
    })?;
    Ok(toml_table(table.into_inner()).1)
}

/// ` at line L, column C` for a byte offset (1-based, columns in characters).
fn position(text: &str, offset: usize) -> String {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!(" at line {line}, column {column}")
}

/// Converts a TOML table and returns it with the byte offset where it was
/// first mentioned. toml keeps keys sorted (no `preserve_order`), and the span
/// of a table named again by a later `[header]` is that later header; the
/// earliest span anywhere in its subtree still lies inside its first mention,
/// so ordering by it recovers the insertion order GocciaScript's parser has.
fn toml_table(table: DeTable<'_>) -> (usize, Node) {
    let mut first = usize::MAX;
    let mut members: Vec<(usize, String, Node)> = table
        .into_iter()
        .map(|(key, value)| {
            let key_at = key.span().start;
            let (value_at, node) = toml_value(value.into_inner());
            let at = key_at.min(value_at);
            first = first.min(at);
            (at, key.into_inner().into_owned(), node)
        })
        .collect();
    members.sort_by_key(|(at, _, _)| *at);
    let members = members.into_iter().map(|(_, k, v)| (k, v)).collect();
    (first, Node::Object(js_property_order(members)))
}

fn toml_value(value: DeValue<'_>) -> (usize, Node) {
    let node = match value {
        DeValue::String(s) => Node::String(s.into_owned()),
        DeValue::Integer(i) => {
            // toml hands over the digits without `_`; render them in decimal.
            let text = i128::from_str_radix(i.as_str(), i.radix())
                .map_or_else(|_| i.as_str().to_string(), |n| n.to_string());
            Node::Number(text)
        }
        DeValue::Float(f) => Node::Number(
            f.as_str()
                .parse::<f64>()
                .map_or_else(|_| f.as_str().to_string(), js_number_text),
        ),
        DeValue::Boolean(b) => Node::Bool(b),
        DeValue::Datetime(d) => Node::Datetime(d.to_string()),
        DeValue::Array(items) => {
            let mut first = usize::MAX;
            let items = items
                .into_iter()
                .map(|item| {
                    let (at, node) = toml_value(item.into_inner());
                    first = first.min(at);
                    node
                })
                .collect();
            return (first, Node::Array(items));
        }
        DeValue::Table(t) => return toml_table(t),
    };
    (usize::MAX, node)
}

/// JS own-property order: keys that are array indices (canonical decimal
/// integers below 2^32 - 1) first, ascending; then the rest in insertion order.
pub(super) fn js_property_order(mut members: Vec<(String, Node)>) -> Vec<(String, Node)> {
    if members.iter().any(|(k, _)| array_index(k).is_some()) {
        // A stable sort keeps insertion order among the non-index keys.
        members.sort_by_key(|(k, _)| array_index(k).map_or((1, 0), |i| (0, i)));
    }
    members
}

fn array_index(key: &str) -> Option<u32> {
    let canonical = key == "0"
        || (!key.starts_with('0') && !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()));
    if !canonical {
        return None;
    }
    key.parse::<u32>().ok().filter(|&i| i != u32::MAX)
}

/// JS `Number.prototype.toString()` for a double: the shortest round-trip
/// digits, positional between 1e-7 and 1e21, exponential (`1e+21`) outside.
pub(super) fn js_number_text(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    if f == 0.0 {
        return "0".into();
    }
    let sign = if f < 0.0 { "-" } else { "" };
    // `{:e}` gives the shortest round-trip digits: `d[.ddd]e<exp>`.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i64;
    let n = exp.parse::<i64>().unwrap_or(0) + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let e = if e >= 0 {
            format!("+{e}")
        } else {
            e.to_string()
        };
        if k == 1 {
            format!("{digits}e{e}")
        } else {
            format!("{}.{}e{e}", &digits[..1], &digits[1..])
        }
    };
    format!("{sign}{body}")
}

/// Builds a [`Node`] straight from the json5 deserializer. Going through
/// `serde_json::Value` instead would sort keys and drop the first position of
/// a repeated key.
struct NodeSeed {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for NodeSeed {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor { depth: self.depth })
    }
}

struct NodeVisitor {
    depth: usize,
}

impl NodeVisitor {
    fn deeper<E: serde::de::Error>(&self) -> Result<NodeSeed, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom("JSON5 nested too deeply"));
        }
        Ok(NodeSeed {
            depth: self.depth + 1,
        })
    }
}

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON5 value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        // Integers beyond 2^53 are doubles in JS, printed as such.
        if v.unsigned_abs() > 1u64 << 53 {
            return Ok(Node::Number(js_number_text(v as f64)));
        }
        Ok(Node::Number(v.to_string()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        // Integers beyond 2^53 are doubles in JS, printed as such.
        if v > (1u64 << 53) {
            return Ok(Node::Number(js_number_text(v as f64)));
        }
        Ok(Node::Number(v.to_string()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Number(js_number_text(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::String(v))
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.deeper()?)? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut members: Vec<(String, Node)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self.deeper()?)?;
            // A repeated key keeps its first position and takes the last value.
            match index.get(&key) {
                Some(&i) => members[i].1 = value,
                None => {
                    index.insert(key.clone(), members.len());
                    members.push((key, value));
                }
            }
        }
        Ok(Node::Object(js_property_order(members)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_number_text_matches_number_to_string() {
        for (f, s) in [
            (1.5, "1.5"),
            (100.0, "100"),
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1.25e-7, "1.25e-7"),
            (0.000001, "0.000001"),
            (-2.5e300, "-2.5e+300"),
            (-0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
            (18446744073709551616.0, "18446744073709552000"),
        ] {
            assert_eq!(js_number_text(f), s, "{f}");
        }
    }

    #[test]
    fn array_index_keys_are_canonical_u32_below_max() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("4294967294"), Some(4294967294));
        assert_eq!(array_index("4294967295"), None);
        assert_eq!(array_index("01"), None);
        assert_eq!(array_index("-1"), None);
        assert_eq!(array_index("1.0"), None);
        assert_eq!(array_index(""), None);
    }
}
