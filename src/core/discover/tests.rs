use super::*;
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
    t.file("outside/goccia.json")
        .file("outside/deep/goccia.toml");
    t.dir("proj").link("proj/lnk", &t.p("outside"));
    assert_eq!(
        t.keys("proj"),
        ["outside/deep/goccia.toml", "outside/goccia.json"]
    );
    // Starting through a link resolves too.
    t.link("start", &t.p("proj"));
    assert_eq!(
        t.keys("start/"),
        ["outside/deep/goccia.toml", "outside/goccia.json"]
    );
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

#[test]
fn unreadable_directories_are_skipped_and_reported() {
    use std::os::unix::fs::PermissionsExt;
    let t = Tree::new();
    t.file("ok/goccia.json").file("locked/goccia.json");
    fs::set_permissions(t.p("locked"), fs::Permissions::from_mode(0o000)).unwrap();
    let found = discover_all(".", &t.env(), &|_| {}).unwrap();
    fs::set_permissions(t.p("locked"), fs::Permissions::from_mode(0o755)).unwrap();
    // root reads every directory, so there is nothing to observe.
    if unsafe { libc::geteuid() } == 0 {
        return;
    }
    assert_eq!(found.keys, [TrustKey(t.p("ok/goccia.json"))]);
    assert_eq!(found.skipped.len(), 1);
    assert_eq!(found.skipped[0].path, t.p("locked"));
}

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

/// DESIGN.md "Performance": 50,000 directories with 5,000 configs should be
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
