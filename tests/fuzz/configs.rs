//! The three config parsers (`.json` by our own reader, `.json5`, `.toml`)
//! and everything a scan computes after them, over mutated seeds, random
//! bytes, one request written in all three formats, and deep nesting.

use std::path::{Path, PathBuf};

use goccia_trust::core::config::block::sha256_hex;
use goccia_trust::core::config::json;
use goccia_trust::core::review::report::{ConfigState, EntryStatus};
use goccia_trust::core::store::Store;
use proptest::prelude::*;

use crate::api;
use crate::harness::{self, bounded};

/// Most heap one load may hold at once: a constant for what every load
/// has, plus a factor of the input. Measured here, the worst shapes (a
/// TOML array of 80,000 numbers, TOML nested 100,000 deep) hold about 140
/// times their size (`FUZZ_PRINT_PEAK=1`); a parser that copies the
/// document per level or per entry would go far past this.
fn memory_budget(input_len: usize) -> usize {
    (1 << 20) + 256 * input_len
}

/// A loaded config is internally consistent; a failed one is a message.
fn check_load(path: &Path, root: &Path) -> Result<String, String> {
    let input_len = std::fs::metadata(path).unwrap().len() as usize;
    let (path, root) = (path.to_str().unwrap().to_string(), root.to_path_buf());
    bounded("load_config", move || {
        let env = api::env_at(&root);
        let base = crate::alloc::start_peak();
        let loaded = api::load(&path, &env);
        let peak = crate::alloc::peak_since(base);
        if std::env::var_os("FUZZ_PRINT_PEAK").is_some() {
            eprintln!("PEAK {input_len} {peak}");
        }
        assert!(
            peak <= memory_budget(input_len),
            "{peak} bytes held to load {input_len} bytes of {path}"
        );
        match loaded {
            Ok(snap) => {
                let block = snap.block.as_str().to_string();
                assert_eq!(snap.sha256, sha256_hex(block.as_bytes()), "{block}");
                assert_eq!(snap.sha256.len(), 64);
                // The block is canonical compact JSON: read back and written
                // again it is the same bytes.
                let reparsed = json::parse(&block).expect("the block is JSON");
                assert_eq!(reparsed.to_compact(), block);
                assert!(matches!(reparsed, json::Json::Object(_)), "{block}");
                assert_eq!(snap.files.first(), Some(&path));
                // Deterministic: the same file gives the same block.
                let again = api::load(&path, &env).expect("loaded once, loads twice");
                assert_eq!(again.block.as_str(), block);
                assert_eq!(again.lines, snap.lines);
                // Trusted, written and read back, it is trusted: the store
                // round trip with a real entry.
                let entry = api::trust_entry(&snap);
                let mut store = Store::new();
                store.put(path.clone(), entry);
                let written = api::store_bytes(&store);
                let read = api::store_from_bytes("/s/trust.json", written.as_bytes())
                    .expect("a written store reads back");
                let stored = read.get(&path).expect("the entry reads back");
                let expected = if snap.requests_grants() {
                    ConfigState::Trusted
                } else {
                    ConfigState::NoRequest
                };
                assert_eq!(api::state(&snap, Some(stored)), expected);
                let (status, _) = api::list_entry(&path, stored, &env);
                assert_eq!(status, EntryStatus::Ok);
                // The gate judges whatever loads, without panicking.
                let verdict = api::judge(&api::default_policy(&env), &snap, &env);
                assert!(
                    ["ALLOWED", "DENIED", "NEEDS_AUTH"].contains(&verdict.as_str()),
                    "{verdict}"
                );
                Ok(block)
            }
            Err(e) => {
                // The message names the config, or the `extends` step that
                // failed (which names the file it could not use).
                assert!(
                    e.message.contains(&path) || e.message.contains("extends"),
                    "{:?} does not name {path}",
                    e.message
                );
                assert!(matches!(e.class.code(), 1 | 2));
                Err(e.message)
            }
        }
    })
}

fn config_seeds() -> Vec<(PathBuf, Vec<u8>)> {
    harness::seeds(
        &harness::repo().join("tests/fixtures"),
        &[".json", ".json5", ".toml"],
    )
    .into_iter()
    // The store fixtures are not configs; everything else is.
    .filter(|(p, _)| !p.to_string_lossy().contains("/fixtures/store/"))
    .collect()
}

fn extension_of(path: &Path) -> String {
    path.extension()
        .unwrap()
        .to_string_lossy()
        .to_ascii_lowercase()
}

proptest! {
    #![proptest_config(harness::config(256))]

    /// Every seed config of the fixtures, mutated: it loads consistently or
    /// fails with a message; never a panic, overflow or hang.
    #[test]
    fn mutated_configs_load_or_fail_cleanly(
        seed in any::<proptest::sample::Index>(),
        edits in harness::mutations(),
    ) {
        let seeds = config_seeds();
        let (seed_path, bytes) = &seeds[seed.index(seeds.len())];
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let path = root.join(format!("p/goccia.{}", extension_of(seed_path)));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, harness::apply(bytes, &edits)).unwrap();
        let _ = check_load(&path, &root);
    }

    /// Random bytes and random text in each format.
    #[test]
    fn random_input_in_every_format_loads_or_fails_cleanly(
        bytes in prop::collection::vec(any::<u8>(), 0..256),
        text in harness::text(256),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for ext in ["json", "json5", "toml"] {
            for input in [&bytes, text.as_bytes()] {
                let path = root.join(format!("goccia.{ext}"));
                std::fs::write(&path, input).unwrap();
                let _ = check_load(&path, &root);
            }
        }
    }
}

/// A request as data, to be written in each of the three formats.
#[derive(Debug, Clone)]
struct Request {
    permissions: Vec<(&'static str, Value)>,
    unsafe_shadowrealm: Option<bool>,
}

#[derive(Debug, Clone)]
enum Value {
    Bool(bool),
    Str(String),
    List(Vec<String>),
}

const PERMISSION_KEYS: &[&str] = &[
    "allow-read",
    "allow-net",
    "allow-ffi",
    "allow-import",
    "deny-read",
    "deny-net",
    "deny-ffi",
    "deny-import",
    // Refused with GocciaScript's message, in every format alike.
    "allow-write",
];

fn scope() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(
            &[
                "example.com",
                "*.example.com",
                "EXAMPLE.com.",
                "127.0.0.1:8080",
                "10.0.0.0/8",
                "[::1]:443",
                "private",
                "host:0",
                "./data",
                "../up",
                "~/home-relative",
                "/abs/path/",
                "",
                " padded ",
                "node_modules",
                "node_modules=./vendor",
                "NODE_MODULES=/x",
                "github:owner/repo",
                "GitHub",
                "npm:left-pad",
            ][..]
        )
        .prop_map(str::to_string),
        harness::text(12),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        scope().prop_map(Value::Str),
        prop::collection::vec(scope(), 0..4).prop_map(Value::List),
    ]
}

fn request() -> impl Strategy<Value = Request> {
    (
        prop::collection::vec((proptest::sample::select(PERMISSION_KEYS), value()), 0..5),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(|(mut permissions, unsafe_shadowrealm)| {
            // Unique keys: a repeated key means different things in the
            // three formats (kept, last wins, refused), by design.
            let mut seen = Vec::new();
            permissions.retain(|(k, _)| {
                let new = !seen.contains(k);
                seen.push(*k);
                new
            });
            Request {
                permissions,
                unsafe_shadowrealm,
            }
        })
}

fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn render(request: &Request, ext: &str) -> String {
    let q = |s: &str| match ext {
        "toml" => toml_string(s),
        _ => json::quote_json_string(s),
    };
    let v = |value: &Value| match value {
        Value::Bool(b) => b.to_string(),
        Value::Str(s) => q(s),
        Value::List(items) => {
            let items: Vec<String> = items.iter().map(|s| q(s)).collect();
            format!("[{}]", items.join(", "))
        }
    };
    match ext {
        "toml" => {
            let mut out = String::new();
            if let Some(b) = request.unsafe_shadowrealm {
                out.push_str(&format!("unsafe-shadowrealm = {b}\n"));
            }
            if !request.permissions.is_empty() {
                out.push_str("[permissions]\n");
                for (k, value) in &request.permissions {
                    out.push_str(&format!("{k} = {}\n", v(value)));
                }
            }
            out
        }
        _ => {
            let json5 = ext == "json5";
            let mut members = Vec::new();
            if let Some(b) = request.unsafe_shadowrealm {
                members.push(format!("\"unsafe-shadowrealm\": {b}"));
            }
            if !request.permissions.is_empty() {
                let inner: Vec<String> = request
                    .permissions
                    .iter()
                    .map(|(k, value)| format!("\"{k}\": {}", v(value)))
                    .collect();
                let trailing = if json5 { "," } else { "" };
                members.push(format!(
                    "\"permissions\": {{{}{trailing}}}",
                    inner.join(", ")
                ));
            }
            if json5 && !members.is_empty() {
                format!("// written as JSON5\n{{{},}}\n", members.join(",\n"))
            } else {
                format!("{{{}}}\n", members.join(",\n"))
            }
        }
    }
}

proptest! {
    #![proptest_config(harness::config(128))]

    /// One request written as `.json`, `.json5` and `.toml` is one request:
    /// the same block and hash, or the same error (the file named aside).
    #[test]
    fn a_request_means_the_same_in_every_format(request in request()) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let mut outcomes = Vec::new();
        for ext in ["json", "json5", "toml"] {
            let path = root.join(format!("goccia.{ext}"));
            std::fs::write(&path, render(&request, ext)).unwrap();
            let outcome = check_load(&path, &root)
                .map_err(|m| m.replace(path.to_str().unwrap(), "<config>"));
            outcomes.push((ext, outcome));
        }
        let json = render(&request, "json");
        let toml = render(&request, "toml");
        prop_assert_eq!(&outcomes[0].1, &outcomes[1].1, "json vs json5:\n{}", json);
        prop_assert_eq!(&outcomes[0].1, &outcomes[2].1, "json vs toml:\n{}\n{}", json, toml);
    }
}

/// A document nested far beyond any real config is refused with a message
/// on a worker's stack, in every format and every way of nesting.
#[test]
fn deep_nesting_is_refused_not_overflowed() {
    const DEPTH: usize = 100_000;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    // (format, text, refused): dotted TOML keys nest tables the parser
    // builds itself; they only have to end, not to fail.
    let cases: Vec<(&str, String, bool)> = vec![
        ("json", "[".repeat(DEPTH), true),
        (
            "json",
            format!("{}1{}", "[".repeat(DEPTH), "]".repeat(DEPTH)),
            true,
        ),
        ("json", format!("{}1", "{\"a\":".repeat(DEPTH)), true),
        ("json5", "[".repeat(DEPTH), true),
        ("json5", format!("{}1", "{a:".repeat(DEPTH)), true),
        ("toml", format!("a = {}", "[".repeat(DEPTH)), true),
        (
            "toml",
            format!("a = {}1{}", "[".repeat(DEPTH), "]".repeat(DEPTH)),
            true,
        ),
        ("toml", format!("a = {}1", "{b=".repeat(DEPTH)), true),
        ("toml", format!("{} = 1", vec!["k"; DEPTH].join(".")), false),
        ("toml", format!("[{}]", vec!["k"; DEPTH].join(".")), false),
    ];
    for (ext, text, refused) in cases {
        let path = root.join(format!("goccia.{ext}"));
        std::fs::write(&path, &text).unwrap();
        let outcome = check_load(&path, &root);
        if refused {
            assert!(outcome.is_err(), "{ext} {:?}...", &text[..20]);
        }
    }
}

/// Peak heap of one load of `text` written as `goccia.<ext>`.
fn load_peak(root: &Path, ext: &str, text: &str) -> usize {
    let path = root.join(format!("goccia.{ext}"));
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap().to_string();
    let env = api::env_at(root);
    harness::measured("load_config", move || {
        let _ = api::load(&path, &env);
    })
    .1
}

/// Memory is linear in the input for every shape a document can take (wide
/// arrays of scopes or numbers, many keys, deep nesting): four times the
/// input takes at most about four times the memory. The constant factor
/// itself is the bounded reader's business (issue 9 item 2); this catches
/// anything worse than linear.
#[test]
fn memory_grows_linearly_with_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    type Shape = (&'static str, &'static str, fn(usize) -> String);
    let shapes: [Shape; 9] = [
        ("json", "scopes", |n| {
            let h: Vec<String> = (0..n).map(|i| format!("\"h{i}.test\"")).collect();
            format!("{{\"permissions\":{{\"allow-net\":[{}]}}}}", h.join(","))
        }),
        ("json5", "scopes", |n| {
            let h: Vec<String> = (0..n).map(|i| format!("'h{i}.test'")).collect();
            format!("{{permissions:{{'allow-net':[{}],}}}}", h.join(","))
        }),
        ("toml", "scopes", |n| {
            let h: Vec<String> = (0..n).map(|i| format!("\"h{i}.test\"")).collect();
            format!("[permissions]\nallow-net = [{}]\n", h.join(","))
        }),
        ("json", "numbers", |n| {
            format!("{{\"a\":[{}]}}", vec!["1"; n].join(","))
        }),
        ("json5", "numbers", |n| {
            format!("{{a:[{}]}}", vec!["1"; n].join(","))
        }),
        ("toml", "numbers", |n| {
            format!("a = [{}]\n", vec!["1"; n].join(","))
        }),
        ("json", "keys", |n| {
            let k: Vec<String> = (0..n).map(|i| format!("\"k{i}\":1")).collect();
            format!("{{{}}}", k.join(","))
        }),
        ("toml", "keys", |n| {
            (0..n).map(|i| format!("k{i} = 1\n")).collect()
        }),
        ("toml", "nesting", |n| {
            format!("a = {}1{}", "[".repeat(n), "]".repeat(n))
        }),
    ];
    for (ext, shape, make) in shapes {
        let (small, large) = (make(10_000), make(40_000));
        let (p_small, p_large) = (load_peak(&root, ext, &small), load_peak(&root, ext, &large));
        let growth = p_large as f64 / p_small as f64;
        let input_growth = large.len() as f64 / small.len() as f64;
        assert!(
            growth <= input_growth * 1.25,
            "{ext} {shape}: input x{input_growth:.1}, memory x{growth:.1} \
             ({p_small} -> {p_large} bytes)"
        );
        if std::env::var_os("FUZZ_PRINT_PEAK").is_some() {
            eprintln!(
                "MEMORY {ext} {shape}: {} bytes -> {p_large} bytes held (x{:.0})",
                large.len(),
                p_large as f64 / large.len() as f64
            );
        }
    }
}
