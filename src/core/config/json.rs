//! A strict JSON reader that keeps what GocciaScript's streaming reader
//! keeps: members in document order, duplicate keys, and the literal text of
//! numbers. `serde_json::Value` keeps none of these (it sorts keys, lets the
//! last duplicate win and re-prints numbers), so the `.json` config reader and
//! the trust-store reader both go through this type instead.
//!
//! It also owns the one string escaping GocciaScript 0.14 writes
//! (`QuoteJSONString`), used for the normalized block and the store file.

/// Nested arrays and objects deeper than this are refused rather than
/// recursed into, so a hostile file cannot overflow the stack.
pub const MAX_DEPTH: usize = 256;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Json {
    Null,
    Bool(bool),
    /// The number exactly as written in the document.
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// Members in document order, duplicates kept.
    Object(Vec<(String, Json)>),
}

/// Why a document is not JSON, with a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at line {}, column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for JsonError {}

impl Json {
    /// The value of the last member named `key` (JSON.parse's rule), if this
    /// is an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Compact serialization: no whitespace, members in their order, strings
    /// escaped with [`quote_json_string`], numbers as written.
    pub fn to_compact(&self) -> String {
        let mut out = String::new();
        self.write_compact(&mut out);
        out
    }

    pub fn write_compact(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(n),
            Json::String(s) => quote_json_string_into(s, out),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_compact(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    quote_json_string_into(k, out);
                    out.push(':');
                    v.write_compact(out);
                }
                out.push('}');
            }
        }
    }
}

/// GocciaScript 0.14's `QuoteJSONString`: `"` and `\` escaped, `\b \t \n \f
/// \r` by name, every other C0 control as `\u00xx` with lower-case hex; `/`,
/// DEL and all non-ASCII written raw.
pub fn quote_json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    quote_json_string_into(s, &mut out);
    out
}

pub fn quote_json_string_into(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    // Runs of characters written raw are copied whole; every character that
    // is escaped is ASCII, so each cut falls on a character boundary.
    let mut raw = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        let named = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0c => "\\f",
            b'\r' => "\\r",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[raw..i]);
        if named.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            out.push_str(named);
        }
        raw = i + 1;
    }
    out.push_str(&s[raw..]);
    out.push('"');
}

/// Parses one JSON document (RFC 8259, no extensions, no BOM). Lone
/// surrogate escapes are refused: they have no UTF-8 form.
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let mut p = Parser::new(text);
    p.skip_ws();
    if p.pos >= p.src().len() {
        return Err(p.error("Empty JSON input"));
    }
    let value = p.value(0)?;
    p.skip_ws();
    if p.pos < p.src().len() {
        return Err(p.error("Unexpected data after the JSON value"));
    }
    Ok(value)
}

/// Texts at least this long are worth [`parse_wide`]'s second thread.
const WIDE_MIN_BYTES: usize = 256 * 1024;

/// [`parse`], with the member values of the objects one level down (the
/// entries of a store's `trusted`) parsed in parallel when the text is
/// long. The value, and any error, are exactly `parse`'s: a text the split
/// does not take cleanly is parsed again by `parse`.
pub fn parse_wide(text: &str) -> Result<Json, JsonError> {
    parse_wide_from(text, WIDE_MIN_BYTES)
}

fn parse_wide_from(text: &str, min_bytes: usize) -> Result<Json, JsonError> {
    if text.len() >= min_bytes
        && let Some(value) = parse_split(text)
    {
        return Ok(value);
    }
    parse(text)
}

/// One pass builds the document with the member values of depth-1 objects
/// skipped (their spans noted), then each span is parsed on its own, at
/// the depth it has in the document and with positions in the whole text,
/// and must end exactly where the span does. `None` when any of it fails:
/// the text is then not valid JSON, and `parse` says why.
fn parse_split(text: &str) -> Option<Json> {
    use rayon::prelude::*;
    let mut p = Parser::new(text);
    p.deferred = Some(Vec::new());
    p.skip_ws();
    let mut skeleton = p.value(0).ok()?;
    p.skip_ws();
    if p.pos < p.src().len() {
        return None;
    }
    let spans = p.deferred.take()?;
    let values = spans
        .par_iter()
        .map(|&(start, end)| {
            // The text up to the span's end: positions stay the document's,
            // and nothing past the span is read.
            // (`end` is where skip_value stopped: at an ASCII byte.)
            let mut q = Parser::new(text.get(..end)?);
            q.pos = start;
            let value = q.value(2).ok()?;
            q.skip_ws();
            (q.pos == end).then_some(value)
        })
        .collect::<Option<Vec<Json>>>()?;
    let mut values = values.into_iter();
    fill_deferred(&mut skeleton, 0, &mut values)?;
    values.next().is_none().then_some(skeleton)
}

/// Puts the parsed values back where [`Parser::object`] skipped them, in
/// document order: the member values of every object at depth 1.
fn fill_deferred(
    value: &mut Json,
    depth: usize,
    parsed: &mut impl Iterator<Item = Json>,
) -> Option<()> {
    match value {
        Json::Object(members) if depth == 1 => {
            for (_, member) in members {
                *member = parsed.next()?;
            }
        }
        Json::Object(members) if depth == 0 => {
            for (_, member) in members {
                fill_deferred(member, 1, parsed)?;
            }
        }
        Json::Array(items) if depth == 0 => {
            for item in items {
                fill_deferred(item, 1, parsed)?;
            }
        }
        _ => {}
    }
    Some(())
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    /// Set for [`parse_split`]'s first pass: the spans of the member values
    /// of depth-1 objects, skipped rather than parsed.
    deferred: Option<Vec<(usize, usize)>>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text,
            pos: 0,
            deferred: None,
        }
    }

    /// The text as bytes, which is how it is scanned.
    fn src(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn error(&self, message: &str) -> JsonError {
        let consumed = &self.src()[..self.pos.min(self.src().len())];
        let line = consumed.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = consumed
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&consumed[line_start..])
            .chars()
            .count()
            + 1;
        JsonError {
            message: message.to_string(),
            line,
            column,
        }
    }

    fn skip_ws(&mut self) {
        while let Some(&b) = self.src().get(self.pos) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src().get(self.pos).copied()
    }

    fn expect_literal(&mut self, lit: &[u8], value: Json) -> Result<Json, JsonError> {
        if self.src()[self.pos..].starts_with(lit) {
            self.pos += lit.len();
            Ok(value)
        } else {
            Err(self.error("Unexpected character"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("JSON nested too deeply"));
        }
        match self.peek() {
            None => Err(self.error("Unexpected end of JSON input")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.expect_literal(b"true", Json::Bool(true)),
            Some(b'f') => self.expect_literal(b"false", Json::Bool(false)),
            Some(b'n') => self.expect_literal(b"null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("Unexpected character")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.pos += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.error("Expected a double-quoted property name"));
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.error("Expected ':' after a property name"));
            }
            self.pos += 1;
            self.skip_ws();
            let value = match self.deferred.as_mut() {
                Some(_) if depth == 1 => {
                    let start = self.pos;
                    self.skip_value()
                        .ok_or_else(|| self.error("Unexpected end of JSON input"))?;
                    if let Some(spans) = self.deferred.as_mut() {
                        spans.push((start, self.pos));
                    }
                    Json::Null
                }
                _ => self.value(depth + 1)?,
            };
            members.push((key, value));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Object(members));
                }
                None => return Err(self.error("Unexpected end of JSON input")),
                Some(_) => return Err(self.error("Expected ',' or '}' in an object")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                None => return Err(self.error("Unexpected end of JSON input")),
                Some(_) => return Err(self.error("Expected ',' or ']' in an array")),
            }
        }
    }

    /// Moves past one value without reading it: to the end of a string or
    /// of a bracketed value, or up to the `,`, `}` or `]` that ends a bare
    /// one (its trailing whitespace included). Only brackets and strings
    /// are told apart; the span is parsed properly afterwards.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match *self.src().get(self.pos)? {
                b'"' => self.skip_string()?,
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' | b']' if depth == 0 => return Some(()),
                b'}' | b']' => {
                    depth -= 1;
                    self.pos += 1;
                }
                b',' if depth == 0 => return Some(()),
                _ => {
                    self.pos += 1;
                    continue;
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }

    fn skip_string(&mut self) -> Option<()> {
        self.pos += 1;
        loop {
            self.pos += memchr::memchr2(b'"', b'\\', self.src().get(self.pos..)?)?;
            match self.src()[self.pos] {
                b'"' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => self.pos += 2,
            }
        }
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.pos += 1;
                }
            }
            _ => return Err(self.error("Invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("Invalid number"));
            }
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("Invalid number"));
            }
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        Ok(Json::Number(self.text[start..self.pos].to_owned()))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self
            .src()
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("Invalid \\u escape"))?;
        let mut v = 0u32;
        for &d in digits {
            let n = (d as char)
                .to_digit(16)
                .ok_or_else(|| self.error("Invalid \\u escape"))?;
            v = v * 16 + n;
        }
        self.pos += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1; // opening quote
        let mut out = String::new();
        loop {
            let start = self.pos;
            // The run up to the next quote or backslash, refused if it holds
            // a control character (found without a branch per byte).
            let rest = &self.src()[start..];
            let run = memchr::memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
            let controls = rest[..run].iter().fold(false, |seen, &b| seen | (b < 0x20));
            self.pos = match controls {
                true => start + rest.iter().position(|&b| b < 0x20).unwrap_or(run),
                false => start + run,
            };
            // Cut at ASCII bytes of a &str: on character boundaries.
            let piece = &self.text[start..self.pos];
            match self.peek() {
                None => return Err(self.error("Unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    if out.is_empty() {
                        return Ok(piece.to_owned());
                    }
                    out.push_str(piece);
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(piece);
                    self.pos += 1;
                    let esc = self
                        .peek()
                        .ok_or_else(|| self.error("Unterminated string"))?;
                    self.pos += 1;
                    match esc {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.src().get(self.pos..self.pos + 2) != Some(b"\\u") {
                                    return Err(self.error("Lone surrogate in \\u escape"));
                                }
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.error("Lone surrogate in \\u escape"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else if (0xDC00..0xE000).contains(&hi) {
                                return Err(self.error("Lone surrogate in \\u escape"));
                            } else {
                                hi
                            };
                            out.push(
                                char::from_u32(code)
                                    .ok_or_else(|| self.error("Invalid \\u escape"))?,
                            );
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.error("Invalid escape in string"));
                        }
                    }
                }
                Some(_) => return Err(self.error("Control character in string")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_duplicates_and_number_text() {
        let v = parse(r#"{"b": 1.50, "a": [true, null], "b": -0e+3}"#).unwrap();
        assert_eq!(
            v,
            Json::Object(vec![
                ("b".into(), Json::Number("1.50".into())),
                ("a".into(), Json::Array(vec![Json::Bool(true), Json::Null])),
                ("b".into(), Json::Number("-0e+3".into())),
            ])
        );
        assert_eq!(v.get("b"), Some(&Json::Number("-0e+3".into())));
        assert_eq!(v.to_compact(), r#"{"b":1.50,"a":[true,null],"b":-0e+3}"#);
    }

    #[test]
    fn combines_surrogate_pairs_and_refuses_lone_ones() {
        assert_eq!(
            parse(r#""\ud83d\ude00""#).unwrap(),
            Json::String("😀".into())
        );
        assert!(parse(r#""\ud83d""#).is_err());
        assert!(parse(r#""\ude00""#).is_err());
    }

    /// The split parse gives `parse`'s value, and falls back to `parse`'s
    /// error, whatever the spans hold: strings with brackets, quotes and
    /// escapes, bare values with whitespace, nesting at the limit and over
    /// it, and documents broken inside a span, between spans and after.
    #[test]
    fn the_split_parse_is_parse() {
        let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        let entry = r#"{"sha256": "ab", "block": {"permissions": {"allow-net": ["a}]\"{[", "\u00e9\n"]}, "version": 1}, "n": [1, -2.5e3, true, null, {}, []]}"#;
        let many: String = (0..50)
            .map(|i| format!("\"/k/{i}\" :\n {entry}"))
            .collect::<Vec<_>>()
            .join(" ,\n ");
        let docs = [
            format!(r#"{{"version": 1, "trusted": {{{many}}}}}"#),
            format!(r#"{{"trusted": {{{many}}}, "version": 1, "trusted": {{}}}}"#),
            format!(r#"[{{"a": 1 , "b" : "x" }}, {{}}, [{{"c": {entry}}}], 3]"#),
            r#"{"t": {"a": 1  , "b": "}" , "c": [ ] }, "u": {"d": {"e": {}}}}"#.to_string(),
            format!(r#"{{"t": {{"ok": {}}}}}"#, deep(MAX_DEPTH - 2)),
            format!(r#"{{"t": {{"over": {}}}}}"#, deep(MAX_DEPTH - 1)),
            r#"{"t": {"a": 1 2}}"#.to_string(),
            r#"{"t": {"a": }}"#.to_string(),
            r#"{"t": {"a": [1, 2}}"#.to_string(),
            r#"{"t": {"a": "unterminated}}"#.to_string(),
            r#"{"t": {"a": 1,}}"#.to_string(),
            r#"{"t": {"a": {"b": 1} "c": 2}}"#.to_string(),
            r#"{"t": {"a": "\x"}}"#.to_string(),
            r#"{"t": {"a": 1}} extra"#.to_string(),
            r#"{"t": {"a": 1}"#.to_string(),
            r#"{"t": {"a": [1]]}}"#.to_string(),
            r#"{"t": {"a": tru}}"#.to_string(),
            format!(r#"{{"version": 1, "trusted": {{{many}, "bad": {{"x": 01}}}}}}"#),
        ];
        for doc in &docs {
            assert_eq!(parse_wide_from(doc, 0), parse(doc), "{doc}");
        }
        // The valid ones really went through the split.
        assert_eq!(
            parse_split(&docs[0]).as_ref(),
            parse(&docs[0]).as_ref().ok()
        );
        assert!(parse_split(&docs[4]).is_some());
        assert!(parse_split(&docs[5]).is_none());
    }

    #[test]
    fn escapes_like_goccia() {
        assert_eq!(
            quote_json_string("a/b\"c\\d\u{8}\t\n\u{c}\r\u{1}\u{1f}\u{7f}é"),
            "\"a/b\\\"c\\\\d\\b\\t\\n\\f\\r\\u0001\\u001f\u{7f}é\""
        );
        // Escapes between multi-byte characters, at both ends.
        assert_eq!(
            quote_json_string("\u{0}é\u{1b}ü€\u{1f}"),
            "\"\\u0000é\\u001bü€\\u001f\""
        );
        // Every C0 control: by name or as \u00xx with lower-case hex.
        for c in '\u{0}'..='\u{1f}' {
            let quoted = quote_json_string(&c.to_string());
            let named = ["\\b", "\\t", "\\n", "\\f", "\\r"].contains(&&quoted[1..3]);
            assert!(
                named || quoted == format!("\"\\u{:04x}\"", c as u32),
                "{quoted}"
            );
        }
    }

    #[test]
    fn refuses_what_is_not_strict_json() {
        for bad in [
            "",
            " ",
            "{",
            "{,}",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            ".5",
            "+1",
            "'a'",
            "\u{feff}{}",
            "{\"a\" 1}",
            "[1 2]",
            "nul",
            "\"\t\"",
            "\"\\x\"",
            "{} {}",
            "NaN",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} should be refused");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).is_err());
    }

    /// Strings read as serde_json reads them (value, or refusal) whatever
    /// mix of plain runs, multi-byte characters, escapes, raw controls and
    /// quotes they hold; and a refusal points at the offending byte.
    #[test]
    fn strings_read_as_serde_json_reads_them() {
        use proptest::prelude::*;
        let piece = prop_oneof![
            Just("a".to_string()),
            Just("é€😀".to_string()),
            Just("\\\"".to_string()),
            Just("\\\\".to_string()),
            Just("\\n\\t\\/\\b\\f\\r".to_string()),
            Just("\\u00e9\\u0000".to_string()),
            Just("\\ud83d\\ude00".to_string()),
            Just("\\ud83d".to_string()),
            Just("\\x".to_string()),
            Just("\u{1}".to_string()),
            Just("\t".to_string()),
            Just("\"".to_string()),
            Just("\\".to_string()),
        ];
        proptest!(|(pieces in proptest::collection::vec(piece, 0..8))| {
            let doc = format!("[\"{}\"]", pieces.concat());
            let ours = parse(&doc);
            let theirs = serde_json::from_str::<Vec<String>>(&doc);
            match (&ours, &theirs) {
                (Ok(Json::Array(items)), Ok(strings)) => {
                    let ours: Vec<_> = items.iter().map(|i| match i {
                        Json::String(s) => s.clone(),
                        other => format!("{other:?}"),
                    }).collect();
                    prop_assert_eq!(&ours, strings, "{}", doc);
                }
                (Err(_), Err(_)) => {}
                _ => prop_assert!(false, "{doc:?}: {ours:?} vs {theirs:?}"),
            }
        });
        let at = |doc: &str| {
            let e = parse(doc).unwrap_err();
            (e.message, e.line, e.column)
        };
        assert_eq!(
            at("\"ab\u{1}c\""),
            ("Control character in string".into(), 1, 4)
        );
        assert_eq!(
            at("\"é\\\"\nc\""),
            ("Control character in string".into(), 1, 5)
        );
        assert_eq!(at("\"ab"), ("Unterminated string".into(), 1, 4));
        assert_eq!(at("\"a\\"), ("Unterminated string".into(), 1, 4));
        assert_eq!(at("\"a\\q\""), ("Invalid escape in string".into(), 1, 4));
    }

    #[test]
    fn empty_input_message() {
        assert_eq!(parse("").unwrap_err().message, "Empty JSON input");
    }
}
