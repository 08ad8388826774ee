//! The live demo (issue 13): `goccia_trust::demo::build` writes a tree, a
//! store recorded by the real `trust` and then changes on disk, and a policy;
//! `cargo run --features demo --bin goccia-trust-demo` opens the review on it. These tests build the
//! same demo in a temporary directory and drive the real binary over it
//! with the demo's own command line (`Demo::args`), in tmux at 120x35 and
//! 80x24, and check README's "Try it" shows the demo's real `scan` output.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use goccia_trust::core::env::Env;
use goccia_trust::demo::{Demo, build};

use crate::tui_tmux::Tmux;

const WAIT: Duration = Duration::from_secs(10);

/// The first scan is complete: seven configs, four to review (the changed
/// one and three never trusted), one error.
const LOADED: &str = "7 configs · 4 need review · 1 error";

/// Where `scripts/screenshots.sh` builds the demo whose output README shows.
const README_DEMO_DIR: &str = "/tmp/goccia-trust-demo";

/// GocciaScript's message for the demo's error row, word for word
/// (docs/src/compatibility.md#the-permission-request), after the config's path.
const UNKNOWN_PERMISSION: &str = "tree/typo/goccia.json: unknown permission \"allow-nett\" (valid: allow-read, allow-net, allow-ffi, allow-import, deny-read, deny-net, deny-ffi, deny-import)";

struct Built {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    demo: Demo,
}

/// The demo built in a fresh temporary directory, HOME beside it.
fn built() -> Built {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let base = Env::at(root.to_str().unwrap(), home.to_str().unwrap());
    let demo = build(&root.join("demo"), &base).unwrap();
    Built {
        _tmp: tmp,
        home,
        demo,
    }
}

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_goccia-trust")
}

impl Built {
    /// The real binary in the demo directory, with the demo's store and
    /// state directory, as the demo runs it.
    fn cli(&self, args: &[&str]) -> std::process::Output {
        Command::new(exe())
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &self.home)
            .env("GOCCIA_TRUST_STATE_DIR", Demo::STATE)
            .current_dir(&self.demo.dir)
            .arg(format!("--trust-store={}", Demo::STORE))
            .args(args)
            .output()
            .unwrap()
    }

    fn json(&self, args: &[&str]) -> serde_json::Value {
        let out = self.cli(args);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.demo.dir.join(rel)
    }

    /// The review over the demo, exactly as `cargo run --features demo --bin goccia-trust-demo` runs
    /// it, in a `w`x`h` tmux with `home` as HOME; once the first scan is
    /// complete.
    fn open(&self, name: &str, w: u16, h: u16, home: &Path) -> Tmux {
        let t = Tmux::start_sized(name, w, h);
        t.wait_for("$", WAIT);
        t.run(&format!(
            "cd {} && HOME={} GOCCIA_TRUST_STATE_DIR={} {} {}; echo \"goccia-trust exited $?\"",
            self.demo.dir.display(),
            home.display(),
            Demo::STATE,
            exe(),
            self.demo.args().join(" "),
        ));
        t.wait_for(LOADED, WAIT);
        assert!(t.alternate_on(), "the review runs on the alternate screen");
        t
    }
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn the_demo_starts_in_every_state() {
    let b = built();
    let scan = b.json(&["scan", "--json", Demo::TREE]);
    let states: Vec<(String, String)> = scan["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["path"].as_str().unwrap().to_string(),
                c["state"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        ("tree/app/goccia.json", "changed"),
        ("tree/cli/goccia.json5", "never-trusted"),
        ("tree/deps/goccia.json", "never-trusted"),
        ("tree/docs/goccia.json", "no-request"),
        ("tree/goccia.json", "trusted"),
        ("tree/typo/goccia.json", "error"),
        ("tree/web/goccia.toml", "never-trusted"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(p, s)| (p.to_string(), s.to_string()))
        .collect();
    assert_eq!(states, want, "{scan:#}");
    let config = |path: &str| crate::common::config_at(&scan, path).clone();
    // The error row carries GocciaScript's exact message.
    let error = config("tree/typo/goccia.json");
    assert_eq!(
        error["error"]["message"],
        format!("{}/{UNKNOWN_PERMISSION}", b.demo.dir.display()),
    );
    // The changed config: a value added and one removed, and the scope
    // whose link was re-pointed.
    let app = config("tree/app/goccia.json");
    let items: Vec<(String, String, String)> = app["diff"]
        .as_array()
        .expect("a changed config has a diff")
        .iter()
        .map(|i| {
            let field = |k: &str| i[k].as_str().unwrap_or_default().to_string();
            (field("change"), field("request"), field("value"))
        })
        .collect();
    let item = |change: &str, request: &str, value: &str| {
        (change.to_string(), request.to_string(), value.to_string())
    };
    let assets = b.path("tree/app/assets");
    let assets = assets.to_str().unwrap();
    for want in [
        item("removed", "allow-net", "old-cdn.example.com"),
        item("added", "allow-net", "cdn.example.net:8443"),
        item("added", "allow-import", "node_modules"),
        item("retargeted", "allow-read", assets),
    ] {
        assert!(items.contains(&want), "{want:?}: {app:#}");
    }
    let moved = app["diff"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["change"] == "retargeted")
        .unwrap();
    assert_eq!(moved["recordedDestination"], format!("{assets}-v1"));
    assert_eq!(moved["destination"], format!("{assets}-v2"));
    // A scope whose destination leaves the tree.
    let vendor = config("tree/deps/goccia.json");
    assert_eq!(
        vendor["destinations"][0]["resolvesTo"],
        b.path("outside/cache").to_str().unwrap(),
        "{vendor:#}"
    );
    // The extends chain: tools inherits the root's grants.
    let tools = b.json(&["inspect", "--json", "tree/cli/goccia.json5"]);
    assert!(
        tools
            .to_string()
            .contains(b.path("tree/goccia.json").to_str().unwrap()),
        "{tools:#}"
    );
    assert!(
        tools["lines"]
            .to_string()
            .contains("allow-net: api.example.com"),
        "{tools:#}"
    );
    // The store: recorded for this location, its config gone is `missing`.
    let list = b.json(&["list", "--json"]);
    let status: Vec<(String, String)> = list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["key"].as_str().unwrap().to_string(),
                e["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let key = |rel: &str| b.path(rel).to_str().unwrap().to_string();
    assert_eq!(
        status,
        vec![
            (key("tree/app/goccia.json"), "changed".to_string()),
            (key("tree/goccia.json"), "ok".to_string()),
            (key("tree/gone/goccia.json"), "missing".to_string()),
        ],
        "{list:#}"
    );
    assert!(!b.path("tree/gone").exists());
}

#[test]
fn the_demo_store_is_outside_the_tree_private_and_has_its_own_state_directory() {
    let b = built();
    assert_eq!(mode(&b.path("store")), 0o700);
    assert_eq!(mode(&b.path(Demo::STATE)), 0o700);
    assert!(b.path(Demo::STORE).is_file());
    assert!(!b.path(Demo::STORE).starts_with(b.path(Demo::TREE)));
    // The tree is a repository of its own, so the store and the policy
    // beside it are outside the tree under review.
    assert!(b.path("tree/.git").is_dir());
    assert_eq!(mode(&b.path(Demo::POLICY)), 0o644);
    // The links are made by the build, not committed.
    let link = |rel: &str| std::fs::read_link(b.path(rel)).unwrap();
    assert_eq!(link("tree/app/assets"), PathBuf::from("assets-v2"));
    assert_eq!(
        link("tree/deps/cache"),
        PathBuf::from("../../outside/cache")
    );
    // The policy is accepted as the review takes it: scan --policy judges
    // every config that requests something, and a write command finds
    // nothing wrong with the store.
    let out = b.cli(&["scan", "--policy", Demo::POLICY, Demo::TREE]);
    let text = String::from_utf8_lossy(&out.stdout);
    for verdict in [
        "tree/app/goccia.json: NEEDS_AUTH",
        "tree/deps/goccia.json: DENIED",
        "tree/cli/goccia.json5: DENIED",
    ] {
        assert!(text.contains(verdict), "{verdict}: {out:?}");
    }
    let out = b.cli(&["trust", "--dry-run", "--yes", "tree/web"]);
    assert!(out.status.success(), "{out:?}");
    assert!(out.stderr.is_empty(), "no store warning: {out:?}");
    // Each config's record in the store is absolute, for this location.
    let store = std::fs::read_to_string(b.path(Demo::STORE)).unwrap();
    assert!(store.contains(&format!("\"{}\"", b.path("tree/goccia.json").display())));
}

#[test]
fn building_again_replaces_the_demo_and_never_deletes_another_directory() {
    let b = built();
    let base = Env::at(
        b.demo.dir.parent().unwrap().to_str().unwrap(),
        b.home.to_str().unwrap(),
    );
    // Something trusted by hand is gone after a rebuild: the demo starts
    // over in its interesting state.
    let out = b.cli(&["trust", "tree/web", "--yes"]);
    assert!(out.status.success(), "{out:?}");
    build(&b.demo.dir, &base).unwrap();
    let list = b.json(&["list", "--json"]);
    assert_eq!(list["entries"].as_array().unwrap().len(), 3, "{list:#}");

    let other = b.demo.dir.parent().unwrap().join("precious");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "keep me").unwrap();
    let err = build(&other, &base).unwrap_err();
    assert!(
        err.contains(other.to_str().unwrap()) && err.contains("not a goccia-trust demo"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(other.join("notes.txt")).unwrap(),
        "keep me"
    );
}

/// The list row naming `path` (the left pane at 120 columns, the whole
/// width at 80).
fn row<'a>(screen: &'a str, path: &str) -> &'a str {
    let needle = format!(" {path} ");
    screen
        .lines()
        .filter(|l| l.starts_with('│'))
        .map(|l| l.split("││").next().unwrap())
        .find(|l| l.contains(&needle))
        .unwrap_or_else(|| panic!("no row for {path}:\n{screen}"))
}

/// The detail pane's text: at 120 columns the right pane, at 80 the lower
/// one (below the list's closing border).
fn detail_pane(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    let wide = lines.iter().any(|l| l.contains("││"));
    let pane: Vec<&str> = if wide {
        lines.iter().filter_map(|l| l.split("││").nth(1)).collect()
    } else {
        let start = lines
            .iter()
            .position(|l| l.starts_with("┌ Detail"))
            .unwrap_or(lines.len());
        lines[start..].to_vec()
    };
    pane.iter()
        .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every state row with its verdict, the changed config's detail (added,
/// removed and re-pointed values), the extends chain, and the store view's
/// `missing` entry; then `q` leaves.
fn assert_the_demo_on_screen(b: &Built, t: &Tmux) {
    let screen = t.capture();
    for (path, state, verdict) in [
        ("app/goccia.json", "~ changed", "NEEDS_AUTH"),
        ("cli/goccia.json5", "! never trusted", "DENIED"),
        ("deps/goccia.json", "! never trusted", "DENIED"),
        ("web/goccia.toml", "! never trusted", "NEEDS_AUTH"),
        ("typo/goccia.json", "✗ error", " - "),
        ("goccia.json", "✓ trusted", "NEEDS_AUTH"),
        ("docs/goccia.json", "· no request", " - "),
    ] {
        let r = row(&screen, path);
        assert!(
            r.contains(state) && r.contains(verdict),
            "{path}: {state} {verdict}:\n{screen}"
        );
    }
    // After the configs: the deleted config the store still holds (#30).
    assert!(
        row(&screen, "gone/goccia.json").contains("✗ missing"),
        "{screen}"
    );
    // Issue 44 try 15: the header counts the rows the list counts (it said
    // `Configs 7` over a list of `8/8`).
    assert!(screen.contains(" Configs 8 "), "{screen}");
    assert!(screen.contains(" Configs 8/8 "), "{screen}");
    assert!(
        row(&screen, "typo/goccia.json").contains("  unknown "),
        "{screen}"
    );
    // The changed config is selected first; its detail, value by value.
    let assets = b.path("tree/app/assets");
    for line in [
        "+ node_modules",
        "- old-cdn.example.com",
        "+ cdn.example.net:8443",
        &format!("~ {} → ", assets.display()),
    ] {
        assert!(screen.contains(line), "{line}:\n{screen}");
    }
    // The scope leaving the tree: where it leads, before any trust.
    t.send_keys(&["j", "j"]);
    let screen = t.wait_for("row 3 of 8", WAIT);
    let detail: String = detail_pane(&screen).split_whitespace().collect();
    let leads = format!(
        "»allow-read{}resolvesto{}",
        b.path("tree/deps/cache").display(),
        b.path("outside/cache").display()
    );
    assert!(detail.contains(&leads), "{leads}:\n{screen}");
    // The error's detail: GocciaScript's message, whole (wrapped).
    t.send_keys(&["j", "j"]);
    let screen = t.wait_for("row 5 of 8", WAIT);
    let detail: String = detail_pane(&screen).split_whitespace().collect();
    let message: String = UNKNOWN_PERMISSION.split_whitespace().collect();
    assert!(detail.contains(&message), "{screen}");
    // enter on the config with an extends chain: both files' sources.
    t.send_keys(&["k", "k", "k"]);
    t.wait_for("row 2 of 8", WAIT);
    t.send_keys(&["Enter"]);
    let screen = t.wait_for("── 2/2 extends: ", WAIT);
    assert!(
        screen.contains("── 1/2 config: ") && screen.contains("extends: \"../goccia.json\""),
        "{screen}"
    );
    assert!(screen.contains(r#""allow-read": ["./data"]"#), "{screen}");
    t.send_keys(&["Escape"]);
    t.wait_for("row 2 of 8", WAIT);
    // The store view: the entry whose config is gone.
    t.send_keys(&["Tab"]);
    let screen = t.wait_for("Trust store 3", WAIT);
    let missing = row(&screen, "tree/gone/goccia.json");
    assert!(missing.contains("✗ missing"), "{screen}");
    assert!(
        row(&screen, "tree/goccia.json").contains("✓ ok"),
        "{screen}"
    );
    assert!(
        row(&screen, "tree/app/goccia.json").contains("~ changed"),
        "{screen}"
    );
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", WAIT);
    assert!(!t.alternate_on());
}

#[test]
fn the_real_binary_shows_the_demo_at_120x35() {
    if !Tmux::available() {
        return;
    }
    let b = built();
    let t = b.open("demo-120", 120, 35, &b.home);
    assert_the_demo_on_screen(&b, &t);
}

#[test]
fn the_real_binary_shows_the_demo_at_80x24() {
    if !Tmux::available() {
        return;
    }
    let b = built();
    // A checkout under HOME, as most are: the policy's `~` then covers
    // the demo, and every verdict is the same.
    let home = b.demo.dir.parent().unwrap().to_path_buf();
    let t = b.open("demo-80", 80, 24, &home);
    assert_the_demo_on_screen(&b, &t);
}

/// The demo binary (README's first command), which `cargo test` builds.
fn demo_example() -> Option<PathBuf> {
    Some(PathBuf::from(env!("CARGO_BIN_EXE_goccia-trust-demo")))
}

#[test]
fn readme_first_command_builds_the_demo_and_opens_the_review() {
    let (true, Some(example)) = (Tmux::available(), demo_example()) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let dir = root.join("demo");
    let t = Tmux::start_sized("demo-example", 120, 35);
    t.wait_for("$", WAIT);
    t.run(&format!(
        "HOME={} {} {}; echo \"demo exited $?\"",
        root.display(),
        example.display(),
        dir.display()
    ));
    let screen = t.wait_for(LOADED, WAIT);
    assert!(screen.contains("Store 3"), "{screen}");
    t.send_keys(&["q"]);
    let screen = t.wait_for("demo exited 0", WAIT);
    assert!(
        screen.contains(&format!("The demo is in {}", dir.display())),
        "{screen}"
    );
    // The progress of the review went to the demo's own state directory.
    assert!(
        std::fs::read_dir(dir.join(Demo::STATE))
            .unwrap()
            .next()
            .is_some(),
        "the session is saved in the demo's state directory"
    );
    t.assert_cooked();
}

/// README's `scan` block of the demo, between its markers.
fn readme_block(readme: &str, name: &str) -> String {
    let start = format!("<!-- {name}: start -->\n");
    let end = format!("<!-- {name}: end -->");
    let from = readme.find(&start).unwrap_or_else(|| panic!("no {start}")) + start.len();
    let to = from + readme[from..].find(&end).unwrap();
    readme[from..to].to_string()
}

#[test]
fn readme_shows_the_demo_scan_as_it_is() {
    let b = built();
    let out = b.cli(&["scan", Demo::TREE]);
    let text = String::from_utf8(out.stdout)
        .unwrap()
        .replace(b.demo.dir.to_str().unwrap(), README_DEMO_DIR);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block = readme_block(&readme, "demo scan");
    // The typo config is an error on purpose: `scan` exits 2, as README
    // says.
    let code = out.status.code().unwrap();
    assert_eq!(code, 2, "{text}");
    let want = format!(
        "```\n$ goccia-trust --trust-store={} scan {}\n{text}$ echo $?\n{code}\n```\n",
        Demo::STORE,
        Demo::TREE
    );
    assert_eq!(
        block, want,
        "README's demo scan is stale: run scripts/screenshots.sh"
    );
}

#[test]
fn a_hostile_demo_directory_is_shown_escaped() {
    let (true, Some(example)) = (Tmux::available(), demo_example()) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let t = Tmux::start_sized("demo-hostile", 120, 35);
    t.wait_for("$", WAIT);
    // A directory whose name sets the terminal's title and rings its bell
    // when printed raw.
    t.run(&format!(
        "HOME={r} {} \"$(printf '{r}/de\\033]0;pwned\\007mo')\"; echo \"demo exited $?\"",
        example.display(),
        r = root.display(),
    ));
    let screen = t.wait_for(LOADED, WAIT);
    assert!(
        screen.contains("/de^[]0;pwned^Gmo/tree/app/goccia.json"),
        "the key, escaped:\n{screen}"
    );
    t.send_keys(&["q"]);
    let screen = t.wait_for("demo exited 0", WAIT);
    assert!(
        screen.contains(&format!(
            "The demo is in {}/de^[]0;pwned^Gmo;",
            root.display()
        )),
        "{screen}"
    );
    let title = t.tmux(&["display-message", "-p", "-t", "0", "#{pane_title}"]);
    assert!(!title.contains("pwned"), "the title was set: {title}");
}
