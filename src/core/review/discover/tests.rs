use super::*;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::Path;

/// A fresh tree, known by its resolved path (the temp dir may sit behind a
/// link).
struct Tree {
    _dir: tempfile::TempDir,
    root: String,
}

impl Tree {
    fn new() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        Tree { _dir: dir, root }
    }

    fn p(&self, rel: &str) -> String {
        format!("{}/{rel}", self.root)
    }

    fn file(&self, rel: &str) -> &Self {
        let path = self.p(rel);
        fs::create_dir_all(Path::new(&path).parent().unwrap()).unwrap();
        fs::write(&path, "{}").unwrap();
        self
    }

    fn dir(&self, rel: &str) -> &Self {
        fs::create_dir_all(self.p(rel)).unwrap();
        self
    }

    /// `rel` becomes a link to `target` (taken as is).
    fn link(&self, rel: &str, target: &str) -> &Self {
        let path = self.p(rel);
        fs::create_dir_all(Path::new(&path).parent().unwrap()).unwrap();
        symlink(target, &path).unwrap();
        self
    }

    fn env(&self) -> Env {
        Env {
            cwd: self.root.clone(),
            home: "/home/u".into(),
            xdg_config_home: String::new(),
            xdg_state_home: String::new(),
            ..Env::default()
        }
    }

    /// The keys found under `rel`, relative to the root where they are in it.
    fn keys(&self, rel: &str) -> Vec<String> {
        let keys = discover(rel, &self.env(), &|_| {}).unwrap();
        let prefix = format!("{}/", self.root);
        keys.into_iter()
            .map(|k| {
                k.0.strip_prefix(&prefix)
                    .map_or(k.0.clone(), str::to_string)
            })
            .collect()
    }
}

#[test]
fn one_config_per_directory_by_priority() {
    let t = Tree::new();
    t.file("all/goccia.toml")
        .file("all/goccia.json5")
        .file("all/goccia.json");
    t.file("two/goccia.json5").file("two/goccia.json");
    t.file("one/goccia.json");
    t.file("none/goccia.yaml")
        .file("none/Goccia.json")
        .file("none/goccia.json.bak");
    t.file("goccia.json");
    assert_eq!(
        t.keys("."),
        [
            "all/goccia.toml",
            "goccia.json",
            "one/goccia.json",
            "two/goccia.json5"
        ]
    );
}

#[test]
fn output_is_in_key_byte_order() {
    let t = Tree::new();
    t.file("d/goccia.toml")
        .file("d/a/goccia.json")
        .file("Z/goccia.json")
        .file("a/goccia.json");
    assert_eq!(
        t.keys("."),
        [
            "Z/goccia.json",
            "a/goccia.json",
            "d/a/goccia.json",
            "d/goccia.toml"
        ]
    );
}

#[test]
fn node_modules_and_git_are_skipped_by_exact_name() {
    let t = Tree::new();
    t.file("node_modules/p/goccia.json")
        .file(".git/goccia.json");
    t.file("x/node_modules/goccia.json")
        .file("x/.git/hooks/goccia.json");
    t.file("node_modules2/goccia.json")
        .file(".github/goccia.json")
        .file("Node_Modules/goccia.json");
    assert_eq!(
        t.keys("."),
        [
            ".github/goccia.json",
            "Node_Modules/goccia.json",
            "node_modules2/goccia.json"
        ]
    );
    // The starting directory itself is walked whatever its name.
    assert_eq!(t.keys("node_modules"), ["node_modules/p/goccia.json"]);
}

#[test]
fn a_path_that_is_not_a_directory_is_the_config() {
    let t = Tree::new();
    t.file("p/custom-name.conf")
        .dir("real")
        .link("p/ln", &t.p("real"));
    assert_eq!(t.keys("p/custom-name.conf"), ["p/custom-name.conf"]);
    // Its directory part is resolved, its name is not.
    t.link("real/alias.json", &t.p("p/custom-name.conf"));
    assert_eq!(t.keys("p/ln/alias.json/"), ["real/alias.json"]);
}

#[test]
fn a_missing_path_is_an_error_naming_it() {
    let t = Tree::new();
    t.link("dangling", &t.p("nowhere"));
    for rel in ["gone", "dangling"] {
        let e = discover(rel, &t.env(), &|_| {}).unwrap_err();
        assert_eq!(
            e,
            DiscoverError::NotFound {
                path: rel.into(),
                expanded: t.p(rel)
            }
        );
        assert_eq!(e.to_string(), format!("path not found: {rel}"));
    }
}

#[test]
fn linked_directories_are_followed_and_key_at_their_target() {
    let t = Tree::new();
    t.file("proj/inside/goccia.json")
        .file("proj/inside/deep/goccia.toml");
    t.link("proj/lnk", "inside");
    // Both routes lead to one directory, walked once and keyed at the target.
    assert_eq!(
        t.keys("proj"),
        ["proj/inside/deep/goccia.toml", "proj/inside/goccia.json"]
    );
    // Starting through a link resolves the start first.
    t.link("start", &t.p("proj"));
    assert_eq!(
        t.keys("start/"),
        ["proj/inside/deep/goccia.toml", "proj/inside/goccia.json"]
    );
    // A link out of the tree is not walked, but reported.
    t.file("outside/goccia.json");
    t.link("proj/out", &t.p("outside"));
    assert_eq!(
        t.keys("proj"),
        ["proj/inside/deep/goccia.toml", "proj/inside/goccia.json"]
    );
    // Given both paths, the link leads into one of them and is followed.
    let both = discover_paths(
        &["proj".to_string(), "outside".to_string()],
        &t.env(),
        &|_| {},
        &|| false,
    )
    .unwrap();
    assert!(both.not_followed.is_empty());
    assert_eq!(both.keys.len(), 3);
    // A link reaches into a skipped directory: that route is not skipped.
    t.file("proj2/node_modules/pkg/goccia.json");
    t.link("proj2/pkg-link", "node_modules/pkg");
    assert_eq!(t.keys("proj2"), ["proj2/node_modules/pkg/goccia.json"]);
}

#[test]
fn linked_config_files_key_at_the_link() {
    let t = Tree::new();
    t.file("shared/base.json")
        .dir("a")
        .link("a/goccia.json", &t.p("shared/base.json"));
    assert_eq!(t.keys("a"), ["a/goccia.json"]);
    // A dangling link is not a file: the real goccia.json beside it wins.
    t.file("b/goccia.json")
        .link("b/goccia.toml", &t.p("nowhere.toml"));
    assert_eq!(t.keys("b"), ["b/goccia.json"]);
    // A linked goccia.toml beats a real goccia.json.
    t.file("c/goccia.json")
        .link("c/goccia.toml", &t.p("shared/base.json"));
    assert_eq!(t.keys("c"), ["c/goccia.toml"]);
}

#[test]
fn a_directory_named_like_a_config_is_walked_not_taken() {
    let t = Tree::new();
    t.file("d/goccia.toml/goccia.json").file("d/goccia.json");
    assert_eq!(t.keys("d"), ["d/goccia.json", "d/goccia.toml/goccia.json"]);
}

#[test]
fn link_loops_terminate() {
    let t = Tree::new();
    t.file("r/goccia.json").file("r/s/goccia.toml");
    t.link("r/s/up", &t.p("r"))
        .link("r/self", ".")
        .link("r/x", "y")
        .link("r/y", "x");
    t.dir("m/a")
        .dir("m/b")
        .link("m/a/to-b", "../b")
        .link("m/b/to-a", "../a");
    t.file("m/b/goccia.json5");
    assert_eq!(
        t.keys("."),
        ["m/b/goccia.json5", "r/goccia.json", "r/s/goccia.toml"]
    );
}

#[test]
fn odd_characters_in_names() {
    let t = Tree::new();
    for name in ["sp ace", "q\"uo'te", "é ü 漢", "new\nline", "-dash"] {
        t.file(&format!("{name}/goccia.json"));
    }
    let mut expected: Vec<String> = ["sp ace", "q\"uo'te", "é ü 漢", "new\nline", "-dash"]
        .iter()
        .map(|n| format!("{n}/goccia.json"))
        .collect();
    expected.sort();
    assert_eq!(t.keys("."), expected);
    // A directory given by a path with spaces.
    assert_eq!(t.keys("sp ace"), ["sp ace/goccia.json"]);
}

#[test]
fn a_backslash_in_a_directory_name_is_keyed_as_goccia_keys_it() {
    // GocciaScript expands the found path, turning `\` into `/`, and the
    // directory `back/slash` does not exist, so the key stays lexical.
    let t = Tree::new();
    t.file("back\\slash/goccia.json");
    assert_eq!(t.keys("."), ["back/slash/goccia.json"]);
}

// Unreadable directories are tested as an unprivileged user, through the
// binary: tests/walk.rs `unreadable_directories_are_reported_and_fail_the_command`.

#[test]
fn progress_reports_the_final_counts() {
    let t = Tree::new();
    for i in 0..600 {
        t.dir(&format!("d{i}"));
    }
    t.file("d1/goccia.json").file("d2/goccia.toml");
    let calls = Mutex::new(Vec::new());
    let keys = discover(".", &t.env(), &|p| calls.lock().unwrap().push(p)).unwrap();
    assert_eq!(keys.len(), 2);
    let calls = calls.into_inner().unwrap();
    assert!(
        calls.len() >= 3,
        "periodic calls plus the final one: {calls:?}"
    );
    assert_eq!(
        calls.last(),
        Some(&WalkProgress {
            dirs: 601,
            configs: 2
        })
    );
}

#[test]
fn a_wide_tree_gives_the_same_answer_every_time() {
    let t = Tree::new();
    for i in 0..40 {
        for j in 0..10 {
            let name = ["goccia.json", "goccia.toml", "goccia.json5"][(i + j) % 3];
            t.file(&format!("a{i}/b{j}/{name}"));
        }
        t.link(&format!("a{i}/up"), "..");
    }
    let first = t.keys(".");
    assert_eq!(first.len(), 400);
    for _ in 0..3 {
        assert_eq!(t.keys("."), first);
    }
}

/// docs/src/performance.md#targets: 50,000 directories with 5,000 configs should be
/// walked faster than `find` walks them with the same prune. Slow to set up,
/// so run by hand: `cargo test --release --lib discover::tests::perf -- --ignored --nocapture`.
#[test]
#[ignore]
fn perf_against_find() {
    let t = Tree::new();
    for i in 0..50 {
        for j in 0..100 {
            let d = format!("{}/p{i}/q{j}", t.root);
            for k in 0..9 {
                fs::create_dir_all(format!("{d}/r{k}")).unwrap();
            }
            fs::write(format!("{d}/goccia.json"), "{}").unwrap();
        }
    }
    let start = std::time::Instant::now();
    let keys = discover(&t.root, &t.env(), &|_| {}).unwrap();
    let ours = start.elapsed();
    assert_eq!(keys.len(), 5000);
    let start = std::time::Instant::now();
    let out = std::process::Command::new("find")
        .args([
            &t.root,
            "(",
            "-name",
            "node_modules",
            "-o",
            "-name",
            ".git",
            ")",
            "-prune",
            "-o",
            "-print",
        ])
        .output()
        .unwrap();
    let find = start.elapsed();
    assert!(out.status.success());
    println!("discover: {ours:?}, find: {find:?}");
}

#[test]
fn a_stopped_walk_reads_no_further_directory() {
    let t = Tree::new();
    t.file("a/goccia.json").file("b/c/goccia.json");
    let found = discover_all_until(".", &t.env(), &|_| {}, &|| true).unwrap();
    assert!(found.keys.is_empty(), "{:?}", found.keys);
    // Stopping after the root: its config is found, nothing below it.
    t.file("goccia.json");
    let reads = AtomicUsize::new(0);
    let stop = || reads.fetch_add(1, Ordering::SeqCst) >= 1;
    let found = discover_all_until(".", &t.env(), &|_| {}, &stop).unwrap();
    assert_eq!(found.keys, [TrustKey(t.p("goccia.json"))]);
    let all = discover_all_until(".", &t.env(), &|_| {}, &|| false).unwrap();
    assert_eq!(all.keys.len(), 3);
}

#[test]
fn links_out_of_the_tree_are_reported_once_and_not_walked() {
    let t = Tree::new();
    t.file("repo/goccia.json").file("elsewhere/goccia.json");
    t.link("repo/vendor", &t.p("elsewhere"))
        .link("repo/root", "/")
        .link("repo/sub/up", "../..");
    let found = discover_all("repo", &t.env(), &|_| {}).unwrap();
    assert_eq!(found.keys, [TrustKey(t.p("repo/goccia.json"))]);
    assert_eq!(
        found.not_followed,
        [
            NotFollowed {
                link: t.p("repo/root"),
                target: "/".into()
            },
            NotFollowed {
                link: t.p("repo/sub/up"),
                target: t.root.clone()
            },
            NotFollowed {
                link: t.p("repo/vendor"),
                target: t.p("elsewhere")
            },
        ]
    );
    assert!(found.unreadable.is_empty());
    // Given through a link itself, the tree is the link's destination.
    t.link("repo-link", &t.p("repo"));
    let found = discover_all("repo-link", &t.env(), &|_| {}).unwrap();
    assert_eq!(found.keys, [TrustKey(t.p("repo/goccia.json"))]);
    assert_eq!(found.not_followed.len(), 3);
}

#[test]
fn a_directory_reached_twice_is_visited_once_silently() {
    let t = Tree::new();
    t.file("r/a/goccia.json");
    t.link("r/b", "a").link("r/c", "a").link("r/a/self", "..");
    let found = discover_all("r", &t.env(), &|_| {}).unwrap();
    assert_eq!(found.keys, [TrustKey(t.p("r/a/goccia.json"))]);
    assert!(found.unreadable.is_empty() && found.not_followed.is_empty());
    // `r`, `r/a` and nothing more.
    let dirs = std::sync::atomic::AtomicUsize::new(0);
    discover_all("r", &t.env(), &|p| {
        dirs.store(p.dirs, std::sync::atomic::Ordering::Relaxed)
    })
    .unwrap();
    assert_eq!(dirs.into_inner(), 2);
}

#[test]
fn names_that_are_not_utf8_are_walked_and_shown_escaped() {
    use std::ffi::OsStr;
    let t = Tree::new();
    let odd = Path::new(&t.root).join(OsStr::from_bytes(b"odd\xff"));
    fs::create_dir_all(odd.join("deeper")).unwrap();
    fs::write(odd.join("deeper/goccia.json"), "{}").unwrap();
    // A link with such a name, leading into the tree, is followed too.
    t.file("real/goccia.toml");
    symlink(
        t.p("real"),
        Path::new(&t.root).join(OsStr::from_bytes(b"l\xfe")),
    )
    .unwrap();
    let found = discover_all(".", &t.env(), &|_| {}).unwrap();
    assert_eq!(found.keys, [TrustKey(t.p("real/goccia.toml"))]);
    assert_eq!(
        found.unreadable,
        [Unreadable {
            path: t.p("odd\\xff/deeper/goccia.json"),
            reason: "the path is not UTF-8, so no trust key can name this config".into()
        }]
    );
}
