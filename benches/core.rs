//! In-process benchmarks (divan): the hot paths of every command and one
//! TUI frame. `cargo bench --bench core`; `scripts/bench.sh` runs them and
//! the whole-command comparisons.
#![allow(clippy::unwrap_used, clippy::expect_used)] // benchmark code: a panic is a broken benchmark input

use goccia_trust::core::config::describe::description_lines;
use goccia_trust::core::config::load_config;
use goccia_trust::core::env::Env;
use goccia_trust::core::paths::key::TrustKey;
use goccia_trust::core::review::discover::discover_paths;
use goccia_trust::core::review::status::diff_lines;
use goccia_trust::core::review::trust::entry_for;
use goccia_trust::core::store::{Store, parse_store, serialize_store};
use goccia_trust::tui::state::State;
use goccia_trust::tui::{Theme, fixtures, views};

fn main() {
    divan::main();
}

const JSON: &str = r#"{"permissions": {"allow-net": ["api.example.com", "cdn.example.com:443"], "allow-read": ["./data", "./assets"], "deny-read": ["./data/secret"]}, "unsafe-shadowrealm": true}"#;
const JSON5: &str = r#"{permissions: {"allow-ffi": ["./lib/x.so"], "allow-net": ["api.example.com"]}, "unsafe-shadowrealm": true, // a comment
}"#;
const TOML: &str = "[permissions]\nallow-net = [\"cdn.example.org\", \"api.example.org\"]\nallow-read = [\"./data\"]\ndeny-read = [\"./secret\"]\n";

/// A tree of `dirs` directories (fan-out 10) with a config in every
/// `every`-th one, rotating the three formats; its root, canonical.
fn tree(dirs: usize, every: usize) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut queue = std::collections::VecDeque::from([root.clone()]);
    let mut made = 0;
    while made < dirs {
        let parent = queue.pop_front().unwrap();
        for i in 0..10 {
            if made >= dirs {
                break;
            }
            let d = parent.join(format!("d{i}"));
            std::fs::create_dir(&d).unwrap();
            made += 1;
            if made % every == 0 {
                let (name, text) = [
                    ("goccia.json", JSON),
                    ("goccia.toml", TOML),
                    ("goccia.json5", JSON5),
                ][made / every % 3];
                std::fs::write(d.join(name), text).unwrap();
            }
            queue.push_back(d);
        }
    }
    (dir, root.to_str().unwrap().to_string())
}

fn env_in(root: &str) -> Env {
    Env {
        cwd: root.to_string(),
        home: format!("{root}/home"),
        ..Env::default()
    }
}

/// Read, parse, normalize, hash and resolve one config of each format.
#[divan::bench(args = ["goccia.json", "goccia.json5", "goccia.toml"])]
fn load_one_config(bencher: divan::Bencher, name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let text = match name {
        "goccia.json" => JSON,
        "goccia.json5" => JSON5,
        _ => TOML,
    };
    std::fs::write(root.join(name), text).unwrap();
    let root = root.to_str().unwrap().to_string();
    let env = env_in(&root);
    let key = TrustKey(format!("{root}/{name}"));
    assert!(load_config(&key, &env).is_ok());
    bencher.bench_local(|| {
        // Each command starts with an empty path memo.
        goccia_trust::core::paths::realpath::forget();
        load_config(&key, &env).unwrap()
    });
}

/// The discovery walk over 10,000 directories holding 1,000 configs.
#[divan::bench(sample_count = 20)]
fn walk_10k_dirs(bencher: divan::Bencher) {
    let (_dir, root) = tree(10_000, 10);
    let env = env_in(&root);
    let paths = [root.clone()];
    bencher.bench_local(|| {
        let found = discover_paths(&paths, &env, &|_| {}, &|| false).unwrap();
        assert_eq!(found.keys.len(), 1_000);
        found
    });
}

/// A store of `n` entries as GocciaScript writes it.
fn store_of(n: usize) -> (Store, String) {
    let (_dir, root) = tree(30, 10);
    let env = env_in(&root);
    let found = discover_paths(std::slice::from_ref(&root), &env, &|_| {}, &|| false).unwrap();
    let snapshots: Vec<_> = found
        .keys
        .iter()
        .map(|k| load_config(k, &env).unwrap())
        .collect();
    let mut store = Store::new();
    for i in 0..n {
        let s = &snapshots[i % snapshots.len()];
        store.put(
            format!("/home/dev/repo/svc-{i:05}/goccia.json"),
            entry_for(&s.sha256, &s.block, &s.targets, "2026-12-02T10:00:00Z"),
        );
    }
    let text = serialize_store(&store);
    (store, text)
}

#[divan::bench(args = [1_000, 10_000], sample_count = 20)]
fn store_parse(bencher: divan::Bencher, n: usize) {
    let (_, text) = store_of(n);
    bencher.bench_local(|| parse_store("/s/trust.json", text.as_bytes()).unwrap());
}

#[divan::bench(args = [1_000, 10_000], sample_count = 20)]
fn store_serialize(bencher: divan::Bencher, n: usize) {
    let (store, _) = store_of(n);
    bencher.bench_local(|| serialize_store(&store));
}

/// The diff of a stored block against the block on disk.
#[divan::bench]
fn diff_changed_block(bencher: divan::Bencher) {
    let (store, _) = store_of(3);
    let blocks: Vec<Vec<String>> = store
        .iter()
        .map(|(_, e)| description_lines(&e.block))
        .collect();
    bencher.bench_local(|| diff_lines(&blocks[0], &blocks[1]));
}

/// One frame of the configs view with 10,000 rows, on a 120x35 and an
/// 80x24 `TestBackend`.
#[divan::bench(args = [(120, 35), (80, 24)])]
fn tui_frame_10k_rows(bencher: divan::Bencher, size: (u16, u16)) {
    let mut state = State::new("/home/dev/shop");
    state.configs = fixtures::generated(10_000).configs;
    state.visible = (0..state.configs.len()).collect();
    state.size = size;
    state.cursor.selected = 5_000;
    let theme = Theme::default();
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(size.0, size.1)).unwrap();
    bencher.bench_local(|| {
        terminal.draw(|f| views::view(&state, &theme, f)).unwrap();
    });
}

/// The configs list filling as a scan of 20,000 configs reports them: the
/// worker's batches of 256 through `update`, as the TUI receives them.
#[divan::bench(sample_count = 10)]
fn tui_list_fills_from_20k_reports(bencher: divan::Bencher) {
    let configs = fixtures::generated(20_000).configs;
    bencher
        .with_inputs(|| {
            let mut state = State::new("/home/dev/shop");
            state.size = (120, 35);
            let effects = goccia_trust::tui::start(&mut state);
            drop(effects);
            let batches: Vec<Vec<_>> = configs.chunks(256).map(<[_]>::to_vec).collect();
            (state, batches)
        })
        .bench_local_values(|(mut state, batches)| {
            let job = state.scan.job;
            for reports in batches {
                goccia_trust::tui::step(
                    &mut state,
                    goccia_trust::tui::msg::Msg::ScanFound { job, reports },
                );
            }
            state
        });
}
