//! What every fuzz property shares: the case count (short by default, long
//! with `PROPTEST_CASES`), a time bound per case on a 2 MiB stack (a rayon
//! worker's, where scans parse), the seed corpus and the byte mutator.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::Config;

/// A case that has not answered after this long is a hang. Generous: a
/// debug build on a loaded 2-core machine; every input here is under 64 KiB
/// and parses in well under a millisecond.
pub const CASE_TIME_LIMIT: Duration = Duration::from_secs(10);

/// The stack a rayon worker gets by default: configs are parsed there
/// during a scan, so a deep document must be refused within it.
pub const WORKER_STACK: usize = 2 << 20;

/// `default_cases` for the short run in `cargo test`; `PROPTEST_CASES=N`
/// for the long form (README "Fuzzing").
pub fn config(default_cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_cases);
    Config {
        cases,
        // Shrinking a failure re-runs the case many times; keep it bounded.
        max_shrink_iters: 512,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Runs `f` on a thread with a worker's stack and fails the case if it
/// panics or does not answer within [`CASE_TIME_LIMIT`]. A hung thread is
/// left behind; the test fails all the same.
pub fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    measured(what, f).0
}

/// [`bounded`], also giving the most heap the call held at once (bytes
/// allocated and not yet freed on its thread, counted by the test binary's
/// allocator).
pub fn measured<T: Send + 'static>(
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> (T, usize) {
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .name(format!("fuzz {what}"))
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let base = crate::alloc::start_peak();
            let value = f();
            let peak = crate::alloc::peak_since(base);
            let _ = tx.send((value, peak));
        })
        .expect("spawn a fuzz worker");
    match rx.recv_timeout(CASE_TIME_LIMIT) {
        Ok(value) => {
            let _ = worker.join();
            value
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what}: no answer within {CASE_TIME_LIMIT:?}: a hang")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the worker ended without an answer"),
        },
    }
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` whose name ends with one of `exts`, sorted, as
/// `(path, bytes)`.
pub fn seeds(dir: &Path, exts: &[&str]) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file()
                && exts.iter().any(|e| {
                    path.file_name()
                        .unwrap()
                        .to_string_lossy()
                        .to_ascii_lowercase()
                        .ends_with(e)
                })
            {
                let bytes = std::fs::read(&path).unwrap();
                out.push((path, bytes));
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no seeds under {}", dir.display());
    out
}

/// Tokens that matter to the three config formats, the store and the
/// policy: structure, escapes, odd numbers, the keys that are read. No
/// token names a special file: reading a FIFO or a device is the bounded
/// reader's business, tested where it lives.
pub const DICTIONARY: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    "'",
    ":",
    ",",
    "=",
    "\n",
    "\r\n",
    "\\",
    "\\u",
    "\\ud800",
    "\\udc00",
    "\\u0000",
    "\u{202e}",
    "\u{feff}",
    "\0",
    "/*",
    "*/",
    "//",
    "#",
    "[[",
    "]]",
    "'''",
    "\"\"\"",
    "1e999999",
    "-0",
    "0x1F",
    "1.5e-400",
    "99999999999999999999999",
    "NaN",
    "Infinity",
    "-Infinity",
    "inf",
    "nan",
    "null",
    "true",
    "false",
    "1979-05-27T07:32:00Z",
    "07:32:00",
    "\"extends\"",
    "\"permissions\"",
    "\"allow-read\"",
    "\"allow-net\"",
    "\"allow-ffi\"",
    "\"allow-import\"",
    "\"deny-read\"",
    "\"sandbox\"",
    "\"unsafe-shadowrealm\"",
    "\"version\"",
    "\"trusted\"",
    "\"sha256\"",
    "\"block\"",
    "\"targets\"",
    "\"trustedAt\"",
    "\"grants\"",
    "\"risk_to_level\"",
    "\"approved_workspaces\"",
    "\"denied_roots\"",
    "\"requests\"",
    "\"schema_version\"",
    "..",
    "../",
    "~",
    "~/",
    "/",
    ".",
    "*.",
    "private",
    "node_modules=",
    "github:",
    "[::1]",
    ":65536",
    "/33",
    "$7FFFFFFF",
    "%101",
    "&17",
];

/// One edit of a byte string.
#[derive(Debug, Clone)]
pub enum Mutation {
    FlipBit(Index, u8),
    SetByte(Index, u8),
    Insert(Index, &'static str),
    Delete(Index, usize),
    /// Copies a run of the input to another place (repeats structure).
    Duplicate(Index, usize, Index),
    Truncate(Index),
    /// Replaces the text of the n-th `"..."` string, keeping the syntax:
    /// reaches the validators and the request reader, not only the parser.
    ReplaceString(Index, &'static str),
}

/// Values and keys that keep a document well formed but probe what is read
/// from it (scopes, permission names, paths).
pub const STRING_VALUES: &[&str] = &[
    "",
    " ",
    ".",
    "..",
    "/",
    "~",
    "~/x",
    "../../..",
    "a/../../b",
    "*.",
    "*.example.com",
    "private",
    "localhost:0",
    "host:65536",
    "10.0.0.0/33",
    "::1",
    "[::1]:80",
    "[]",
    "node_modules",
    "node_modules=",
    "node_modules=../x",
    "github:",
    "github:a/b/c",
    "npm:x",
    "allow-read",
    "allow-write",
    "deny-net",
    "permissions",
    "sandbox",
    "extends",
    "copy",
    "copy-rw",
    "diff",
    "version",
    "\\u0000",
    "\\ud800",
    "a\\nb",
    "\u{202e}",
    "C:\\\\x",
];

pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => (any::<Index>(), 0u8..8).prop_map(|(i, b)| Mutation::FlipBit(i, b)),
        1 => (any::<Index>(), any::<u8>()).prop_map(|(i, v)| Mutation::SetByte(i, v)),
        3 => (any::<Index>(), proptest::sample::select(DICTIONARY))
            .prop_map(|(i, t)| Mutation::Insert(i, t)),
        1 => (any::<Index>(), 1usize..16).prop_map(|(i, n)| Mutation::Delete(i, n)),
        1 => (any::<Index>(), 1usize..64, any::<Index>())
            .prop_map(|(i, n, at)| Mutation::Duplicate(i, n, at)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
        6 => (any::<Index>(), proptest::sample::select(STRING_VALUES))
            .prop_map(|(i, t)| Mutation::ReplaceString(i, t)),
    ]
}

/// Mostly one or two edits, so most documents stay well formed enough to
/// reach past the parser; sometimes many.
pub fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop_oneof![
        3 => prop::collection::vec(mutation(), 1..3),
        1 => prop::collection::vec(mutation(), 3..12),
    ]
}

/// Applies the edits in order; inputs never grow past 64 KiB.
pub fn apply(seed: &[u8], edits: &[Mutation]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for edit in edits {
        let at = |i: &Index, len: usize| if len == 0 { 0 } else { i.index(len) };
        match edit {
            Mutation::FlipBit(i, bit) if !b.is_empty() => {
                let p = at(i, b.len());
                b[p] ^= 1 << bit;
            }
            Mutation::SetByte(i, v) if !b.is_empty() => {
                let p = at(i, b.len());
                b[p] = *v;
            }
            Mutation::Insert(i, token) => {
                let p = at(i, b.len() + 1);
                b.splice(p..p, token.bytes());
            }
            Mutation::Delete(i, n) if !b.is_empty() => {
                let p = at(i, b.len());
                let end = (p + n).min(b.len());
                b.drain(p..end);
            }
            Mutation::Duplicate(i, n, to) if !b.is_empty() => {
                let p = at(i, b.len());
                let run: Vec<u8> = b[p..(p + n).min(b.len())].to_vec();
                let q = at(to, b.len() + 1);
                b.splice(q..q, run);
            }
            Mutation::Truncate(i) => {
                let p = at(i, b.len() + 1);
                b.truncate(p);
            }
            Mutation::ReplaceString(i, value) => {
                let quotes: Vec<usize> = (0..b.len()).filter(|&k| b[k] == b'"').collect();
                let strings = quotes.len() / 2;
                if strings > 0 {
                    let n = i.index(strings);
                    let (open, close) = (quotes[2 * n], quotes[2 * n + 1]);
                    b.splice(open + 1..close, value.bytes());
                }
            }
            _ => {}
        }
        b.truncate(64 << 10);
    }
    b
}

/// Text that is valid UTF-8 more often than random bytes would be: a mix
/// of ASCII, escapes' raw material, controls and astral characters.
pub fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => proptest::char::range(' ', '~'),
            1 => proptest::char::range('\0', '\u{1f}'),
            1 => any::<char>(),
        ],
        0..max,
    )
    .prop_map(|chars| chars.into_iter().collect())
}
