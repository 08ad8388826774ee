//! The floor under `list`, for `scripts/bench.sh`: for each config file
//! named on the lines of FILE_LIST, the system calls `list` cannot do
//! without and the hashing, on the same thread pool, with no parsing.
//!
//! Per file: `read_config_regular` as every config read does it (on Linux
//! an `lstat`, then, for a regular file, one `openat2` that follows no
//! link, `fstat`, the reads, `close`; anything else, or elsewhere, a `stat`
//! that follows links first), then the `lstat` of one
//! name in its directory (a target resolved next to the config: the
//! directory itself is known from the open), and the SHA-256 of its bytes.
//! What `list` adds on top is its CPU work: reading the store, parsing each
//! config in its format, normalizing and hashing the block, resolving
//! targets through the memo.
//!
//! usage: cargo run --release --example list_floor -- FILE_LIST

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use goccia_trust::core::paths::bounded::{CONFIG_MAX_BYTES, read_config_regular};

fn main() {
    let Some(list) = std::env::args().nth(1) else {
        eprintln!("usage: list_floor FILE_LIST");
        std::process::exit(2);
    };
    let list = match std::fs::read_to_string(&list) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("list_floor: {list}: {e}");
            std::process::exit(2);
        }
    };
    let files: Vec<&str> = list.lines().filter(|l| !l.is_empty()).collect();
    let (read, bytes) = files
        .par_iter()
        .map(|path| {
            let dir = std::path::Path::new(path)
                .parent()
                .unwrap_or(std::path::Path::new("/"));
            let _ = std::fs::symlink_metadata(dir.join("data"));
            match read_config_regular(path, CONFIG_MAX_BYTES) {
                Ok(b) => (1, b.len() + usize::from(Sha256::digest(&b)[0] & 1)),
                Err(_) => (0, 0),
            }
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    println!("{read} of {} files read, {bytes} bytes", files.len());
}
