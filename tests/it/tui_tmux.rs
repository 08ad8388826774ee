//! The TUI in a real terminal: tmux runs the fake-backend example `tui_demo` and the real
//! `goccia-trust` binary (temporary HOME, explicit `--trust-store=`), keys are sent with
//! `send-keys`, the screen is read with `capture-pane` (`Tmux`, shared
//! with `demo`). Each test uses its
//! own tmux server socket so it cannot touch anyone's sessions. Skipped
//! (with a message) where tmux is not installed.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// One tmux server and session running a shell.
pub(crate) struct Tmux {
    socket: String,
}

impl Tmux {
    pub(crate) fn available() -> bool {
        crate::common::tool_available("tmux", "-V")
    }

    /// A 120x35 session running `sh` with a plain prompt, in a clean
    /// environment so the user's shell config cannot change what we see.
    pub(crate) fn start(name: &str) -> Tmux {
        Tmux::start_sized(name, 120, 35)
    }

    /// [`Tmux::start`] at `w`x`h`.
    pub(crate) fn start_sized(name: &str, w: u16, h: u16) -> Tmux {
        let (w, h) = (w.to_string(), h.to_string());
        let socket = format!("goccia-trust-test-{}-{name}", std::process::id());
        let t = Tmux { socket };
        let status = Command::new("tmux")
            .args([
                "-L",
                &t.socket,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                &w,
                "-y",
                &h,
            ])
            .args([
                "env",
                "-i",
                "PATH=/usr/bin:/bin",
                "TERM=xterm-256color",
                "PS1=$ ",
                "sh",
            ])
            .status()
            .expect("tmux new-session");
        assert!(status.success(), "tmux new-session failed");
        t
    }

    pub(crate) fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Keys in tmux's names (`q`, `Enter`, `Escape`, `Tab`, `Space`).
    pub(crate) fn send_keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Type a command line into the shell and run it.
    pub(crate) fn run(&self, line: &str) {
        self.send_keys(&["-l", line]);
        self.send_keys(&["Enter"]);
    }

    pub(crate) fn capture(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "0"])
    }

    /// Poll the screen until `text` appears; panics with the screen after
    /// `timeout`.
    pub(crate) fn wait_for(&self, text: &str, timeout: Duration) -> String {
        self.wait_until(&format!("{text:?}"), timeout, |s| s.contains(text))
    }

    /// Poll the screen until every one of `texts` is on it at once.
    pub(crate) fn wait_for_all(&self, texts: &[&str], timeout: Duration) -> String {
        self.wait_until(&format!("{texts:?}"), timeout, |s| {
            texts.iter().all(|t| s.contains(t))
        })
    }

    /// Poll the screen until `done` holds on a settled frame; panics with
    /// the screen after `timeout`, naming what was awaited. A frame is
    /// written in pieces, so a capture can show its first rows and the
    /// previous frame's last ones: the screen counts only once two captures
    /// a moment apart agree.
    pub(crate) fn wait_until(
        &self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if done(&screen) {
                std::thread::sleep(Duration::from_millis(40));
                if self.capture() == screen {
                    return screen;
                }
                continue;
            }
            if start.elapsed() > timeout {
                panic!(
                    "timed out waiting for {what}; screen:\n{screen}\nprocesses:\n{}",
                    self.pane_processes()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What the pane's processes are doing (state and kernel wait channel
    /// of every thread), so a timeout says whether the program was stuck
    /// and where.
    fn pane_processes(&self) -> String {
        let pid = self.tmux(&["display-message", "-p", "-t", "0", "#{pane_pid}"]);
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "for p in {pid} $(pgrep -P {pid}); do for t in /proc/$p/task/*; do \
                 echo \"$p $(cat $t/comm) $(cut -d' ' -f3 $t/stat) $(cat $t/wchan)\"; done; done",
                pid = pid.trim()
            ))
            .output();
        out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    }

    /// Whether the pane is on the alternate screen (the TUI's).
    pub(crate) fn alternate_on(&self) -> bool {
        self.tmux(&["display-message", "-p", "-t", "0", "#{alternate_on}"])
            .trim()
            == "1"
    }

    /// Whether the terminal is back in cooked mode with echo.
    pub(crate) fn assert_cooked(&self) {
        self.run("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' + ; echo");
        self.wait_for("icanon+echo+", Duration::from_secs(5));
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        // Our own server only (its private socket), never anyone else's.
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

/// The demo example, built by `cargo test` next to this test binary.
fn demo() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let p = exe.parent()?.parent()?.join("examples").join("tui_demo");
    if p.is_file() {
        Some(p)
    } else {
        crate::common::skip_outside_ci(&format!(
            "{} not built (cargo test builds it)",
            p.display()
        ));
        None
    }
}

const WAIT: Duration = Duration::from_secs(10);

#[test]
fn demo_shows_the_list_and_quitting_restores_the_terminal() {
    let (true, Some(demo)) = (Tmux::available(), demo()) else {
        return;
    };
    let t = Tmux::start("quit");
    t.wait_for("$", WAIT);
    t.run(&format!("{} --delay-ms 20", demo.display()));
    let screen = t.wait_for("7 configs · 3 need review", WAIT);
    assert!(screen.contains("packages/api/goccia.toml"), "{screen}");
    assert!(t.alternate_on(), "the TUI runs on the alternate screen");

    t.send_keys(&["q"]);
    let screen = t.wait_for("goccia-trust demo: bye", WAIT);
    assert!(
        !screen.contains("Configs 7/7"),
        "the TUI is gone:\n{screen}"
    );
    assert!(!t.alternate_on(), "back on the main screen");
    t.assert_cooked();
}

#[test]
fn a_panicking_worker_restores_the_terminal() {
    let (true, Some(demo)) = (Tmux::available(), demo()) else {
        return;
    };
    let t = Tmux::start("panic");
    t.wait_for("$", WAIT);
    t.run(&format!("{} --panic-on-inspect", demo.display()));
    t.wait_for("7 configs", WAIT);
    t.send_keys(&["Enter"]);
    let screen = t.wait_for("a background task panicked", WAIT);
    assert!(screen.contains("demo panic in inspect"), "{screen}");
    assert!(!t.alternate_on());
    t.assert_cooked();
}

// ---------------------------------------------------------------------------
// The real binary over the real core: a fixture tree in a tempdir, a
// temporary HOME and an explicit `--trust-store=`.

/// A fixture tree, its HOME and its store, all in one tempdir:
///
/// ```text
/// repo/api/goccia.json      changed since trusted (+1: one host added)
/// repo/app/goccia.json      never trusted (JSON)
/// repo/tools/goccia.json5   never trusted (JSON5)
/// repo/web/goccia.toml      never trusted (TOML)
/// repo/broken/goccia.json   error (malformed)
/// ```
struct Repo {
    _dir: tempfile::TempDir,
    home: PathBuf,
    repo: PathBuf,
    store: PathBuf,
}

/// The list once the first scan is complete.
const LOADED: &str = "5 configs · 4 need review · 1 error";

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let r = Repo {
            home: root.join("home"),
            repo: root.join("repo"),
            store: root.join("state/trust.json"),
            _dir: dir,
        };
        std::fs::create_dir_all(&r.home).unwrap();
        r.write(
            "api/goccia.json",
            r#"{"permissions": {"allow-net": ["api.example.com"]}}"#,
        );
        let out = r.cli(&["trust", "api", "--yes"]);
        assert!(out.status.success(), "{out:?}");
        r.write(
            "api/goccia.json",
            r#"{"permissions": {"allow-net": ["api.example.com", "evil.example.com"]}}"#,
        );
        r.write(
            "app/goccia.json",
            r#"{"permissions": {"allow-net": ["app.example.com"]}}"#,
        );
        r.write(
            "tools/goccia.json5",
            "// build tools\n{ permissions: { 'allow-net': ['tools.example.com'] } }\n",
        );
        r.write(
            "web/goccia.toml",
            "[permissions]\nallow-net = [\"cdn.example.net\"]\n",
        );
        r.write("broken/goccia.json", "{\"permissions\": ");
        r
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.repo.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn exe() -> &'static str {
        env!("CARGO_BIN_EXE_goccia-trust")
    }

    fn store_arg(&self) -> String {
        format!("--trust-store={}", self.store.display())
    }

    /// The CLI in the same environment the TUI gets.
    fn cli(&self, args: &[&str]) -> std::process::Output {
        Command::new(Self::exe())
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &self.home)
            .current_dir(&self.repo)
            .arg(self.store_arg())
            .args(args)
            .output()
            .unwrap()
    }

    /// `inspect --json` of one config (relative to the repo).
    fn inspect(&self, rel: &str) -> serde_json::Value {
        let out = self.cli(&["inspect", rel, "--json"]);
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    }

    fn store_bytes(&self) -> Vec<u8> {
        std::fs::read(&self.store).unwrap()
    }

    /// The store's `trusted` object, parsed.
    fn entries(&self) -> serde_json::Map<String, serde_json::Value> {
        let store: serde_json::Value = serde_json::from_slice(&self.store_bytes()).unwrap();
        assert_eq!(store["version"], 1, "{store}");
        store["trusted"].as_object().unwrap().clone()
    }

    /// The store holds an entry for `rel` that records exactly what
    /// `inspect --json` reports for it now.
    fn assert_recorded(&self, entries: &serde_json::Map<String, serde_json::Value>, rel: &str) {
        let inspect = self.inspect(rel);
        let key = inspect["key"].as_str().unwrap();
        assert_eq!(key, self.repo.join(rel).to_str().unwrap());
        let entry = entries
            .get(key)
            .unwrap_or_else(|| panic!("no entry for {key} in {entries:?}"));
        assert_eq!(entry["sha256"], inspect["sha256"], "{rel}");
        let block: serde_json::Value =
            serde_json::from_str(inspect["blockText"].as_str().unwrap()).unwrap();
        assert_eq!(entry["block"], block, "{rel}");
        assert_eq!(entry["targets"], inspect["targets"], "{rel}");
        assert_eq!(
            entry["trustedBy"],
            format!("goccia-trust {}", env!("CARGO_PKG_VERSION")),
        );
        assert_eq!(inspect["state"], "trusted", "{rel}: {inspect}");
    }

    /// Start the TUI over the repo in a fresh 120x35 tmux and wait for the
    /// complete list. The shell prints `goccia-trust exited N` when it ends.
    fn open(&self, name: &str) -> Tmux {
        let t = Tmux::start(name);
        t.wait_for("$", WAIT);
        t.run(&format!(
            "cd {} && HOME={} {} {} .; echo \"goccia-trust exited $?\"",
            self.repo.display(),
            self.home.display(),
            Self::exe(),
            self.store_arg(),
        ));
        let screen = t.wait_for(LOADED, WAIT);
        assert!(t.alternate_on(), "the TUI runs on the alternate screen");
        // Needs review first (changed, then never trusted), errors after.
        let rows: Vec<&str> = [
            "api/goccia.json",
            "app/goccia.json",
            "tools/goccia.json5",
            "web/goccia.toml",
            "broken/goccia.json",
        ]
        .iter()
        .map(|p| row(&screen, p))
        .collect();
        assert!(
            rows[0].contains("changed") && rows[0].contains("  +1  "),
            "{screen}"
        );
        for r in &rows[1..4] {
            assert!(
                r.contains("never trusted") && r.contains("1 request"),
                "{screen}"
            );
        }
        assert!(
            rows[4].contains("error") && rows[4].contains("Unexpected end of"),
            "the error, not its path, in the summary:\n{screen}"
        );
        let order: Vec<usize> = rows.iter().map(|r| screen.find(r).unwrap()).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{screen}");
        t
    }

    /// Quit with `q` and check the terminal is back to normal.
    fn quit(&self, t: &Tmux) {
        t.send_keys(&["q"]);
        let screen = t.wait_for("goccia-trust exited 0", WAIT);
        assert!(!screen.contains(LOADED), "the TUI is gone:\n{screen}");
        assert!(!t.alternate_on(), "back on the main screen");
        t.assert_cooked();
    }
}

/// The list row of the config at `path`: the left pane's first line
/// naming it.
fn row<'a>(screen: &'a str, path: &str) -> &'a str {
    let needle = format!(" {path} ");
    screen
        .lines()
        .filter(|l| l.starts_with('│'))
        .filter_map(|l| l.split("││").next())
        .find(|l| l.contains(&needle))
        .unwrap_or_else(|| panic!("no row for {path}:\n{screen}"))
}

/// The lock `update_store` takes, held from this process until dropped.
struct HeldLock(std::fs::File);

impl HeldLock {
    fn on(store: &std::path::Path) -> HeldLock {
        let mut path = store.as_os_str().to_owned();
        path.push(".lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        fs4::FileExt::lock(&file).unwrap();
        HeldLock(file)
    }
}

impl Drop for HeldLock {
    fn drop(&mut self) {
        let _ = fs4::FileExt::unlock(&self.0);
    }
}

#[test]
fn real_binary_trusts_a_config_after_confirmation() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let before = r.entries();
    assert_eq!(before.len(), 1);
    let t = r.open("real");

    // The changed config is first and selected: trust its new block.
    t.send_keys(&["t"]);
    let screen = t.wait_for("Trust 1 config file?", WAIT);
    assert!(screen.contains("api/goccia.json (changed)"), "{screen}");
    // Value by value, as the detail pane shows it (issue 30).
    let popup = &screen[screen.find("api/goccia.json (changed)").unwrap()..];
    let kept = popup.find("    api.example.com").expect("the kept host");
    let added = popup.find("  + evil.example.com").expect("the added host");
    assert!(kept < added, "{screen}");
    assert_eq!(r.entries(), before, "nothing is written before y");
    t.send_keys(&["y"]);
    let screen = t.wait_for_all(
        &[
            "Trusted 1 config file in",
            "5 configs · 3 need review · 1 error",
        ],
        WAIT,
    );
    assert!(
        row(&screen, "api/goccia.json").contains("trusted"),
        "{screen}"
    );
    let entries = r.entries();
    assert_eq!(entries.len(), 1, "exactly that entry: {entries:?}");
    r.assert_recorded(&entries, "api/goccia.json");

    // The store view lists it; untrust it from there.
    t.send_keys(&["Tab"]);
    let screen = t.wait_for("Trust store 1", WAIT);
    assert!(row(&screen, "api/goccia.json").contains("ok"), "{screen}");
    t.send_keys(&["u"]);
    let screen = t.wait_for("Untrust 1 config file?", WAIT);
    assert!(
        screen.contains("- allow-net: api.example.com, evil.example.com"),
        "{screen}"
    );
    t.send_keys(&["y"]);
    t.wait_for_all(&["Removed trust for 1 config file", "Trust store 0"], WAIT);
    assert!(r.entries().is_empty(), "the store is empty again");

    r.quit(&t);
}

#[test]
fn real_binary_shows_what_changed_since_trusted() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let t = r.open("diff");
    // The changed config is selected first: its detail shows the diff.
    let screen = t.capture();
    let detail: Vec<&str> = screen
        .lines()
        .filter_map(|l| l.split("││").nth(1))
        .map(str::trim_end)
        .collect();
    // Value by value (issue 12): the request key, the unchanged host, the
    // added one; no line of both hosts.
    let cell = |l: &&str| l.trim_end_matches('│').trim().to_string();
    let heading = detail.iter().position(|l| cell(l) == "allow-net");
    let kept = detail.iter().position(|l| cell(l) == "api.example.com");
    let added = detail.iter().position(|l| cell(l) == "+ evil.example.com");
    assert!(
        matches!((heading, kept, added), (Some(h), Some(k), Some(a)) if h < k && k < a),
        "{screen}"
    );
    // Another config's detail has no diff markers.
    t.send_keys(&["j"]);
    let screen = t.wait_for("path     app/goccia.json", WAIT);
    assert!(!screen.contains("evil.example.com"), "{screen}");
    r.quit(&t);
}

#[test]
fn real_binary_trusts_two_marked_configs() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let before = r.entries();
    let t = r.open("mark");
    // Rows: api, app, tools, web, broken. Mark app and tools.
    t.send_keys(&["j", "Space", "Space"]);
    t.wait_for("2 marked", WAIT);
    t.send_keys(&["t"]);
    let screen = t.wait_for("Trust 2 config files?", WAIT);
    for shown in ["app/goccia.json (new)", "tools/goccia.json5 (new)"] {
        assert!(screen.contains(shown), "{shown}:\n{screen}");
    }
    for not_shown in ["web/goccia.toml (", "api/goccia.json ("] {
        assert!(!screen.contains(not_shown), "{not_shown}:\n{screen}");
    }
    t.send_keys(&["y"]);
    let screen = t.wait_for_all(
        &[
            "Trusted 2 config files in",
            "5 configs · 2 need review · 1 error",
        ],
        WAIT,
    );
    assert!(!screen.contains("marked"), "marks are cleared:\n{screen}");
    let entries = r.entries();
    assert_eq!(entries.len(), 3, "{entries:?}");
    r.assert_recorded(&entries, "app/goccia.json");
    r.assert_recorded(&entries, "tools/goccia.json5");
    let api = r.repo.join("api/goccia.json");
    let api = api.to_str().unwrap();
    assert_eq!(entries[api], before[api], "the other entry is untouched");
    r.quit(&t);
}

#[test]
fn real_binary_reports_a_held_lock_and_writes_nothing() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let before = r.store_bytes();
    let t = r.open("lock");
    let lock = HeldLock::on(&r.store);
    t.send_keys(&["j", "t"]);
    t.wait_for("Trust 1 config file?", WAIT);
    t.send_keys(&["y"]);
    // The store waits for the lock (10 s) before giving up.
    let screen = t.wait_for(
        "Nothing was written: store is locked",
        Duration::from_secs(30),
    );
    let status = screen.lines().rev().nth(1).unwrap();
    assert!(
        status.contains("store is locked"),
        "in the status bar:\n{screen}"
    );
    assert!(!screen.contains("Writing the store"), "{screen}");
    assert_eq!(r.store_bytes(), before, "nothing was written");
    assert!(t.alternate_on(), "the TUI keeps running");

    // Still usable: once the lock is free, the same trust goes through.
    drop(lock);
    t.send_keys(&["t"]);
    t.wait_for("Trust 1 config file?", WAIT);
    t.send_keys(&["y"]);
    t.wait_for_all(
        &[
            "Trusted 1 config file in",
            "5 configs · 3 need review · 1 error",
        ],
        WAIT,
    );
    r.assert_recorded(&r.entries(), "app/goccia.json");
    r.quit(&t);
}

#[test]
fn real_binary_rescans_with_r() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let t = r.open("rescan");
    r.write(
        "web/goccia.toml",
        "[permissions]\nallow-net = [\"cdn.example.net\"]\nallow-read = [\"./assets\"]\n",
    );
    r.write(
        "docs/goccia.json",
        r#"{"permissions": {"allow-net": ["docs.example.com"]}}"#,
    );
    std::fs::remove_file(r.repo.join("broken/goccia.json")).unwrap();
    t.send_keys(&["r"]);
    let screen = t.wait_for("5 configs · 5 need review · 0 errors", WAIT);
    assert!(
        row(&screen, "web/goccia.toml").contains("2 requests"),
        "{screen}"
    );
    assert!(
        row(&screen, "docs/goccia.json").contains("never trusted"),
        "{screen}"
    );
    assert!(!screen.contains("broken/goccia.json"), "{screen}");
    r.quit(&t);
}

#[test]
fn real_binary_refuses_a_stale_commit() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let before = r.store_bytes();
    let t = r.open("stale");
    t.send_keys(&["j", "t"]);
    let screen = t.wait_for("Trust 1 config file?", WAIT);
    assert!(screen.contains("allow-net: app.example.com"), "{screen}");
    // The file changes after the confirmation showed it.
    r.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["app.example.com", "more.example.com"]}}"#,
    );
    t.send_keys(&["y"]);
    t.wait_for_all(
        &[
            "Refused: app/goccia.json changed since shown; nothing was written",
            LOADED,
        ],
        WAIT,
    );
    assert_eq!(r.store_bytes(), before, "nothing was written");
    // The new state is shown, and trusting it now records the new block.
    let screen = t.wait_for("path     app/goccia.json", WAIT);
    assert!(
        row(&screen, "app/goccia.json").contains("1 request"),
        "{screen}"
    );
    assert!(screen.contains("more.example.com"), "{screen}");
    t.send_keys(&["t"]);
    let screen = t.wait_for("Trust 1 config file?", WAIT);
    assert!(
        screen.contains("allow-net: app.example.com, more.example.com"),
        "{screen}"
    );
    t.send_keys(&["y"]);
    t.wait_for("Trusted 1 config file in", WAIT);
    r.assert_recorded(&r.entries(), "app/goccia.json");
    r.quit(&t);
}

/// Issue 10: a store directory others can write is announced by a banner
/// on the real terminal, and a commit from the TUI writes nothing.
#[test]
fn real_binary_shows_a_banner_for_a_store_others_can_write() {
    if !Tmux::available() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let r = Repo::new();
    let dir = r.store.parent().unwrap().to_path_buf();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let before = r.store_bytes();
    let t = r.open("banner");
    let screen = t.wait_for("Warning: the trust store directory", WAIT);
    let first = screen.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("⚠ Warning: the trust store directory"),
        "the banner is the top row:\n{screen}"
    );
    assert!(
        screen.contains("is writable by others (mode 0777); run chmod 700"),
        "{screen}"
    );
    t.send_keys(&["j", "t"]);
    t.wait_for("Trust 1 config file?", WAIT);
    t.send_keys(&["y"]);
    let screen = t.wait_for("Nothing was written", WAIT);
    assert!(screen.contains("writable by others"), "{screen}");
    assert_eq!(r.store_bytes(), before, "nothing was written");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        2,
        "store and lock only"
    );
    r.quit(&t);
}

/// The pid of the program the pane's shell is running.
fn pane_child(t: &Tmux) -> i32 {
    let shell = t.tmux(&["display-message", "-p", "-t", "0", "#{pane_pid}"]);
    let out = Command::new("pgrep")
        .args(["-P", shell.trim()])
        .output()
        .expect("pgrep");
    let pids = String::from_utf8_lossy(&out.stdout);
    let pids: Vec<i32> = pids.lines().map(|l| l.trim().parse().unwrap()).collect();
    assert_eq!(pids.len(), 1, "one program under the shell: {pids:?}");
    pids[0]
}

#[test]
fn real_binary_restores_the_terminal_on_termination_signals() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    for (sig, name) in [
        (libc::SIGTERM, "term"),
        (libc::SIGHUP, "hup"),
        (libc::SIGINT, "int"),
        (libc::SIGQUIT, "quit"),
    ] {
        let t = r.open(&format!("signal-{name}"));
        let fmt = |f: &str| t.tmux(&["display-message", "-p", "-t", "0", f]);
        assert_eq!(
            fmt("#{cursor_flag}").trim(),
            "0",
            "the TUI hides the cursor"
        );
        assert_eq!(
            fmt("#{mouse_any_flag}").trim(),
            "1",
            "the TUI tracks the mouse"
        );
        let pid = pane_child(&t);
        assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
        let screen = t.wait_for(&format!("goccia-trust exited {}", 128 + sig), WAIT);
        assert!(!screen.contains(LOADED), "the TUI is gone:\n{screen}");
        assert!(!t.alternate_on(), "{name}: back on the main screen");
        assert_eq!(fmt("#{cursor_flag}").trim(), "1", "{name}: cursor shown");
        assert_eq!(fmt("#{mouse_any_flag}").trim(), "0", "{name}: mouse off");
        t.assert_cooked();
    }
}

#[test]
fn real_binary_shows_where_a_linked_scope_leads_before_trusting() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    // `app/data` is a link to the user's `~/.ssh` (issue 8, attack 3).
    let ssh = r.home.join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    std::os::unix::fs::symlink(&ssh, r.repo.join("app/data")).unwrap();
    r.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-read": ["./data"]}}"#,
    );
    let t = Tmux::start("destination");
    t.wait_for("$", WAIT);
    t.run(&format!(
        "cd {} && HOME={} {} {} .; echo \"goccia-trust exited $?\"",
        r.repo.display(),
        r.home.display(),
        Repo::exe(),
        r.store_arg(),
    ));
    t.wait_for(LOADED, WAIT);
    // The detail pane of `app` names the destination.
    t.send_keys(&["j"]);
    let screen = t.wait_for_all(&["path     app/goccia.json", "» allow-read"], WAIT);
    assert!(screen.contains("resolves to"), "{screen}");
    // So does the confirmation, below the request line it belongs to.
    t.send_keys(&["t"]);
    let screen = t.wait_for("Trust 1 config file?", WAIT);
    let popup = &screen[screen.find("app/goccia.json (new)").unwrap()..];
    let request = popup.find("allow-read: ").expect("the request line");
    let destination = popup.find("» allow-read ").expect("the destination line");
    assert!(request < destination, "{screen}");
    assert!(
        popup[destination..].contains(".ssh"),
        "the destination names ~/.ssh:\n{screen}"
    );
    t.send_keys(&["y"]);
    t.wait_for("Trusted 1 config file in", WAIT);
    let entries = r.entries();
    r.assert_recorded(&entries, "app/goccia.json");
    let key = r.repo.join("app/goccia.json");
    assert_eq!(
        entries[key.to_str().unwrap()]["targets"][r.repo.join("app/data").to_str().unwrap()],
        ssh.to_str().unwrap()
    );
    r.quit(&t);
}

// ---------------------------------------------------------------------------
// Issue 12 at 80x24: the real binary in a small terminal.

impl Repo {
    /// The TUI over the repo in an 80x24 tmux, `extra` before the path
    /// (`env` assignments go in `vars`), once the list is complete.
    fn open_small(&self, name: &str, vars: &str, extra: &str) -> Tmux {
        let t = Tmux::start_sized(name, 80, 24);
        t.wait_for("$", WAIT);
        t.run(&format!(
            "cd {} && HOME={} {vars} {} {} {extra} .; echo \"goccia-trust exited $?\"",
            self.repo.display(),
            self.home.display(),
            Self::exe(),
            self.store_arg(),
        ));
        t.wait_for(LOADED, WAIT);
        t
    }
}

/// The left part of the row naming `path` in a stacked (narrow) layout.
fn small_row<'a>(screen: &'a str, path: &str) -> &'a str {
    screen
        .lines()
        .find(|l| l.starts_with('│') && l.contains(&format!(" {path} ")))
        .unwrap_or_else(|| panic!("no row for {path}:\n{screen}"))
}

#[test]
fn at_80x24_the_footer_requests_more_marker_mark_all_and_click() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    r.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["app.example.com"], "allow-read": ["./data"], "allow-ffi": ["./lib.so"]}}"#,
    );
    let many: Vec<String> = (0..30)
        .map(|i| format!("\"h{i:02}.example.com\""))
        .collect();
    r.write(
        "tools/goccia.json5",
        &format!(
            "{{ permissions: {{ 'allow-net': [{}] }} }}",
            many.join(", ")
        ),
    );
    let t = r.open_small("small", "", "");
    let screen = t.capture();
    let footer = screen.lines().nth(23).unwrap_or("");
    assert!(
        footer.contains("? help") && footer.contains("q quit"),
        "{screen}"
    );
    // The 3-request config (second row): its requests without scrolling.
    t.send_keys(&["j"]);
    let screen = t.wait_for("path     app/goccia.json", WAIT);
    for request in ["allow-ffi:", "allow-net: app.example.com", "allow-read:"] {
        assert!(screen.contains(request), "{request}:\n{screen}");
    }
    // A long list says more follows.
    t.send_keys(&["j"]);
    let screen = t.wait_for("row 3 of 5", WAIT);
    assert!(screen.contains("↓ more"), "{screen}");
    assert!(
        screen.contains("h00.example.com, h01.example.com"),
        "{screen}"
    );
    // a marks every row.
    t.send_keys(&["a"]);
    t.wait_for("5 marked", WAIT);
    t.send_keys(&["a"]);
    // A click on the fourth list row (screen row 5, 1-based 6) selects it.
    t.send_keys(&["-l", "\x1b[<0;10;6M\x1b[<0;10;6m"]);
    let screen = t.wait_for("row 4 of 5", WAIT);
    assert!(
        small_row(&screen, "web/goccia.toml").starts_with("│▶"),
        "{screen}"
    );
    r.quit(&t);
}

#[test]
fn viewed_persists_across_a_restart_and_is_lost_when_the_config_changes() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let t = r.open_small("viewed1", "", "");
    t.wait_for("viewed 0/5", WAIT);
    t.send_keys(&["v"]);
    t.wait_for("viewed 1/5", WAIT);
    r.quit(&t);
    drop(t);
    let t = r.open_small("viewed2", "", "");
    let screen = t.wait_for("viewed 1/5", WAIT);
    assert!(
        small_row(&screen, "api/goccia.json").contains("viewed ·"),
        "{screen}"
    );
    // scan --json says so too.
    let out = r.cli(&["scan", "--json", "."]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let viewed: Vec<(&str, bool)> = json["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["path"].as_str().unwrap(), c["viewed"].as_bool().unwrap()))
        .filter(|(_, v)| *v)
        .collect();
    assert_eq!(viewed, [("api/goccia.json", true)]);
    r.quit(&t);
    drop(t);
    r.write(
        "api/goccia.json",
        r#"{"permissions": {"allow-net": ["api.example.com", "other.example.com"]}}"#,
    );
    let t = r.open_small("viewed3", "", "");
    t.wait_for("viewed 0/5", WAIT);
    r.quit(&t);
}

#[test]
fn no_color_with_color_always_leaves_a_visible_selection() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let t = r.open_small("nocolor", "NO_COLOR=1", "--color=always");
    let screen = t.capture();
    assert!(
        small_row(&screen, "api/goccia.json").starts_with("│▶"),
        "{screen}"
    );
    // And colour is really on: the escape sequences carry a colour.
    let styled = t.tmux(&["capture-pane", "-p", "-e", "-t", "0"]);
    assert!(
        styled.contains("\x1b[3") || styled.contains("\x1b[4") || styled.contains(";3"),
        "{styled}"
    );
    r.quit(&t);
}

#[test]
fn e_opens_the_editor_and_the_edit_is_shown() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    // An "editor" that rewrites the file it is given.
    let editor = r.home.join("edit.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\nprintf '{\"permissions\": {\"allow-net\": [\"app.example.com\", \"edited.example.com\"]}}' > \"$1\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let t = r.open_small("edit", &format!("EDITOR={}", editor.display()), "");
    t.send_keys(&["j"]);
    t.wait_for("row 2 of 5", WAIT);
    t.send_keys(&["e"]);
    let screen = t.wait_for("edited.example.com", WAIT);
    assert!(t.alternate_on(), "back in the TUI:\n{screen}");
    assert!(screen.contains("row 2 of 5"), "same row:\n{screen}");
    assert!(
        small_row(&screen, "app/goccia.json").contains("never trusted"),
        "{screen}"
    );
    r.quit(&t);
}

#[test]
fn an_edit_from_outside_appears_without_pressing_r() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let t = r.open_small("watch", "", "");
    std::thread::sleep(Duration::from_millis(500));
    r.write(
        "web/goccia.toml",
        "[permissions]\nallow-net = [\"cdn.example.net\"]\nallow-read = [\"./assets\"]\n",
    );
    let screen = t.wait_for_all(&["web/goccia.toml", "2 requests"], WAIT);
    assert!(
        small_row(&screen, "web/goccia.toml").contains("2 requests"),
        "{screen}"
    );
    // A new config in a new directory at the top shows up too.
    r.write(
        "newpkg/goccia.json",
        r#"{"permissions": {"allow-net": ["new.example.com"]}}"#,
    );
    t.wait_for("newpkg/goccia.json", WAIT);
    r.quit(&t);
}

#[test]
fn no_watch_turns_auto_refresh_off() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let t = r.open_small("nowatch", "", "--no-watch");
    std::thread::sleep(Duration::from_millis(300));
    r.write(
        "web/goccia.toml",
        "[permissions]\nallow-net = [\"cdn.example.net\"]\nallow-read = [\"./assets\"]\n",
    );
    std::thread::sleep(Duration::from_millis(1500));
    let screen = t.capture();
    assert!(
        small_row(&screen, "web/goccia.toml").contains("1 request"),
        "{screen}"
    );
    t.send_keys(&["r"]);
    t.wait_for("2 requests", WAIT);
    r.quit(&t);
}

// ---------------------------------------------------------------------------
// Issue 12 item 6: `--policy FILE [PATH]`, the real binary and a real policy.

/// The CI operator's policy of README's worked example: the tree is the
/// workspace, the network needs a person, home and `~/.ssh` are denied.
const CI_POLICY: &str = r#"{
  "approved_workspaces": ["."],
  "system_read_only_roots": ["/usr", "/etc"],
  "personal_data_roots": ["~"],
  "denied_roots": ["~/.ssh"],
  "grants": {"READ_ONLY": "allow", "WORKSPACE_WRITE": "allow", "EXTERNAL_EFFECT": "needs_auth", "DESTRUCTIVE": "deny"},
  "risk_to_level": {"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE", "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE"}
}"#;

impl Repo {
    /// A policy file outside the repository (beside it), writable by its
    /// owner alone, as `--policy` wants it.
    fn policy(&self, name: &str, text: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let dir = self.home.parent().unwrap().join("ci");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        path
    }

    /// `app` reads inside the tree, `tools` reads `./vendor`, a link to
    /// `~/.ssh`; `web` and `api` ask for hosts.
    fn judged_configs(&self) {
        let ssh = self.home.join(".ssh");
        std::fs::create_dir_all(&ssh).unwrap();
        std::fs::create_dir_all(self.repo.join("tools")).unwrap();
        std::os::unix::fs::symlink(&ssh, self.repo.join("tools/vendor")).unwrap();
        self.write(
            "app/goccia.json",
            r#"{"permissions": {"allow-read": ["./data"]}}"#,
        );
        self.write(
            "tools/goccia.json5",
            "{ permissions: { 'allow-read': ['./vendor'] } }\n",
        );
    }
}

#[test]
fn real_binary_shows_the_policy_verdicts_and_judges_again_on_refresh() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    r.judged_configs();
    let policy = r.policy("policy.json", CI_POLICY);
    let t = r.open_small("policy", "", &format!("--policy {}", policy.display()));
    // The verdict column: what CI's `trust --yes --policy` would do.
    let screen = t.wait_for("DENIED", WAIT);
    for (path, verdict) in [
        ("api/goccia.json", "NEEDS_AUTH"),
        ("app/goccia.json", "ALLOWED"),
        ("tools/goccia.json5", "DENIED"),
        ("web/goccia.toml", "NEEDS_AUTH"),
        ("broken/goccia.json", " - "),
    ] {
        assert!(
            small_row(&screen, path).contains(verdict),
            "{path} {verdict}:\n{screen}"
        );
    }
    // The detail pane of `tools`: the verdict, then the request's decision
    // with its reason, as `trust --policy` prints it.
    t.send_keys(&["j", "j"]);
    let screen = t.wait_for_all(
        &["row 3 of 5", "policy   DENIED", "R0 DENIED_ROOT DENIED"],
        WAIT,
    );
    assert!(screen.contains("✗ allow-read "), "{screen}");
    let cli = r.cli(&["scan", "--policy", policy.to_str().unwrap(), "."]);
    let cli = String::from_utf8_lossy(&cli.stdout);
    assert!(
        cli.contains("tools/goccia.json5: DENIED")
            && cli.contains("R0 DENIED_ROOT DENIED — target classified DENIED_ROOT"),
        "{cli}"
    );
    // The confirmation says so before y; cancelling writes nothing.
    t.send_keys(&["t"]);
    let screen = t.wait_for("1 DENIED by the policy", WAIT);
    assert!(
        screen.contains("⚠ 1 of these is DENIED by the policy"),
        "{screen}"
    );
    t.send_keys(&["n"]);
    t.wait_for("Cancelled; nothing was written", WAIT);
    // An edit from outside is judged again without r: `tools` now reads
    // inside the tree.
    r.write(
        "tools/goccia.json5",
        "{ permissions: { 'allow-read': ['./src'] } }\n",
    );
    let screen = t.wait_until("tools judged again", WAIT, |s| {
        s.lines()
            .any(|l| l.contains(" tools/goccia.json5 ") && l.contains("ALLOWED"))
    });
    assert!(screen.contains("policy   ALLOWED"), "{screen}");
    r.quit(&t);
}

#[test]
fn a_policy_that_cannot_be_used_is_refused_before_the_tui_opens() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let malformed = r.policy("malformed.json", "{\"grants\": ");
    let broad = r.policy("broad.json", &CI_POLICY.replace(r#"["."]"#, r#"["/"]"#));
    // Inside the tree under review, not pinned.
    r.write("ci-policy.json", CI_POLICY);
    let inside = r.repo.join("ci-policy.json");
    let t = Tmux::start("policy-refused");
    t.wait_for("$", WAIT);
    for (i, policy) in [&malformed, &broad, &inside].iter().enumerate() {
        // What `scan --policy` says of it, word for word, and its exit.
        let scan = r.cli(&["scan", "--policy", policy.to_str().unwrap(), "."]);
        assert_eq!(scan.status.code(), Some(2), "{scan:?}");
        let said = String::from_utf8_lossy(&scan.stderr).trim().to_string();
        assert!(said.starts_with("Error: "), "{said}");
        t.run(&format!(
            "clear; cd {} && HOME={} {} {} --policy {} .; echo \"run {i} exited $?\"",
            r.repo.display(),
            r.home.display(),
            Repo::exe(),
            r.store_arg(),
            policy.display(),
        ));
        t.wait_for(&format!("run {i} exited 2"), WAIT);
        assert!(!t.alternate_on(), "the TUI never opened");
        // The error as the terminal shows it, wrapped lines joined.
        let screen = t.tmux(&["capture-pane", "-p", "-J", "-t", "0"]);
        assert!(screen.contains(&said), "{said}\n{screen}");
    }
    // Piped, `goccia-trust --policy FILE PATH` is `scan --policy FILE PATH`.
    let good = r.policy("policy.json", CI_POLICY);
    let piped = r.cli(&["--policy", good.to_str().unwrap(), "."]);
    let scan = r.cli(&["scan", "--policy", good.to_str().unwrap(), "."]);
    assert_eq!(piped.stdout, scan.stdout);
    assert_eq!(piped.status.code(), scan.status.code());
    assert!(
        String::from_utf8_lossy(&piped.stdout).starts_with("Policy: "),
        "{piped:?}"
    );
}

// ---------------------------------------------------------------------------
// Where the review stopped survives a closed terminal or a `kill`, not only q.

#[test]
fn the_session_is_saved_on_sigterm_and_sighup() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    for (sig, name, row) in [(libc::SIGTERM, "term", 3), (libc::SIGHUP, "hup", 4)] {
        let t = r.open_small(&format!("session-{name}"), "", "");
        // Walk down to the row from the top (the last run resumed
        // elsewhere), then end the process from outside.
        t.send_keys(&["g"]);
        t.wait_for("row 1 of 5", WAIT);
        for _ in 1..row {
            t.send_keys(&["j"]);
        }
        t.wait_for(&format!("row {row} of 5"), WAIT);
        let pid = pane_child(&t);
        assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
        t.wait_for(&format!("goccia-trust exited {}", 128 + sig), WAIT);
        drop(t);
        // Reopened on the same tree, the review resumes on that row.
        let t = r.open_small(&format!("session-{name}-again"), "", "");
        t.wait_for(&format!("row {row} of 5"), WAIT);
        r.quit(&t);
    }
}

#[test]
fn e_reads_again_only_the_edited_config() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let editor = r.home.join("edit.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\nprintf '{\"permissions\": {\"allow-net\": [\"app.example.com\", \"edited.example.com\"]}}' > \"$1\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Without auto-refresh, another config changed meanwhile stays as it
    // was shown until r: `e` reads the edited config alone.
    let t = r.open_small(
        "edit-one",
        &format!("EDITOR={}", editor.display()),
        "--no-watch",
    );
    r.write(
        "web/goccia.toml",
        "[permissions]\nallow-net = [\"cdn.example.net\"]\nallow-read = [\"./assets\"]\n",
    );
    t.send_keys(&["j"]);
    t.wait_for("row 2 of 5", WAIT);
    t.send_keys(&["e"]);
    let screen = t.wait_for("allow-net: app.example.com, edited.example.com", WAIT);
    assert!(
        small_row(&screen, "web/goccia.toml").contains("1 request"),
        "web was not read again:\n{screen}"
    );
    t.send_keys(&["r"]);
    let screen = t.wait_until("web read again", WAIT, |s| {
        s.lines()
            .any(|l| l.contains(" web/goccia.toml ") && l.contains("2 requests"))
    });
    assert!(screen.contains("edited.example.com"), "{screen}");
    r.quit(&t);
}

/// A terminal closed under the review (its window shut, an ssh session
/// dropped: here the tmux server killed) ends the review: the program must
/// not stay behind, reading end-of-file from a hung-up terminal forever at
/// full CPU (which it did: crossterm's reader loops on it, so the SIGHUP
/// flag was never looked at).
#[test]
fn a_closed_terminal_ends_the_review() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let t = r.open("hangup");
    let shell = t.tmux(&["display-message", "-p", "-t", "0", "#{pane_pid}"]);
    let out = Command::new("pgrep")
        .args(["-P", shell.trim()])
        .output()
        .expect("pgrep");
    let tui = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(!tui.is_empty(), "the review runs under the pane's shell");
    drop(t);
    let alive = || {
        std::fs::read_to_string(format!("/proc/{tui}/stat"))
            .is_ok_and(|s| s.split(' ').nth(2).is_none_or(|st| st != "Z"))
    };
    let start = Instant::now();
    while alive() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let still = alive();
    if still {
        let _ = Command::new("kill").args(["-9", &tui]).status();
    }
    assert!(!still, "goccia-trust (pid {tui}) outlived its terminal");
}

/// `--since BASE` in a real terminal at 80x24: the fixture repo committed as
/// BASE, then one config widened and one added; the title names BASE, the
/// rows say what changed since it, and `t` still trusts against the store.
#[test]
fn real_binary_reviews_since_a_revision_at_80x24() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .current_dir(&r.repo)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &r.home)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .args(["-c", "user.name=Test", "-c", "user.email=t@example.invalid"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "base"]);
    r.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["app.example.com", "exfil.example.net"]}}"#,
    );
    r.write(
        "new/goccia.json",
        r#"{"permissions": {"allow-net": ["new.example.com"]}}"#,
    );
    let t = Tmux::start_sized("since", 80, 24);
    t.wait_for("$", WAIT);
    t.run(&format!(
        "cd {} && HOME={} GIT_CONFIG_GLOBAL=/dev/null {} {} --since main .; echo \"goccia-trust exited $?\"",
        r.repo.display(),
        r.home.display(),
        Repo::exe(),
        r.store_arg(),
    ));
    let screen = t.wait_for("6 configs · 5 need review · 1 error", WAIT);
    assert!(t.alternate_on(), "the TUI runs on the alternate screen");
    assert!(
        screen.lines().next().unwrap().contains("since main"),
        "{screen}"
    );
    assert!(
        small_row(&screen, "api/goccia.json").contains("= unchanged"),
        "{screen}"
    );
    assert!(
        small_row(&screen, "app/goccia.json").contains("▲ widened"),
        "{screen}"
    );
    assert!(
        small_row(&screen, "new/goccia.json").contains("+ added"),
        "{screen}"
    );
    assert!(
        small_row(&screen, "broken/goccia.json").contains("= unchanged"),
        "{screen}"
    );
    // app: the host gained since main, a `+` line without scrolling.
    t.send_keys(&["j"]);
    let screen = t.wait_for("+ exfil.example.net", WAIT);
    assert!(screen.contains("since    main  ▲ widened"), "{screen}");
    // Trusting records app as it is now, against the store.
    t.send_keys(&["t"]);
    t.wait_for("exfil.example.net", WAIT);
    t.send_keys(&["y"]);
    t.wait_for("Trusted 1 config file", WAIT);
    r.assert_recorded(&r.entries(), "app/goccia.json");
    // Still widened since main, now trusted in the store.
    let screen = t.wait_for("6 configs · 4 need review", WAIT);
    assert!(
        small_row(&screen, "app/goccia.json").contains("▲ widened    ✓"),
        "{screen}"
    );
    // api is changed in the store, but not since main: its summary counts
    // its requests, not its diff against the store.
    assert!(
        small_row(&screen, "api/goccia.json").contains("unchanged · 1 request"),
        "{screen}"
    );
    r.quit(&t);
}

// ---------------------------------------------------------------------------
// Issue 30 item 2: nothing hidden by state, in a real terminal.

impl Repo {
    /// git in the repo, with no user or system config.
    fn git(&self, args: &[&str]) {
        let out = Command::new("git")
            .current_dir(&self.repo)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &self.home)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .args(["-c", "user.name=Test", "-c", "user.email=t@example.invalid"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    /// The TUI over the repo at `w`x`h` with `extra` before the path,
    /// once `ready` is on screen.
    fn open_at(&self, name: &str, (w, h): (u16, u16), extra: &str, ready: &str) -> (Tmux, String) {
        let t = Tmux::start_sized(name, w, h);
        t.wait_for("$", WAIT);
        t.run(&format!(
            "cd {} && HOME={} GIT_CONFIG_GLOBAL=/dev/null {} {} {extra} .; echo \"goccia-trust exited $?\"",
            self.repo.display(),
            self.home.display(),
            Self::exe(),
            self.store_arg(),
        ));
        let screen = t.wait_for(ready, WAIT);
        (t, screen)
    }
}

/// The reported case: a `state: changed` filter saved by a store review;
/// the `--since` review opens unfiltered (at 80x24 and 120x35), and the
/// store review, reopened, says its restored filter and what it hides.
#[test]
fn a_saved_filter_is_said_and_does_not_carry_into_since() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    r.git(&["init", "-q", "-b", "main"]);
    r.git(&["add", "-A"]);
    r.git(&["commit", "-q", "-m", "base"]);
    r.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["app.example.com"], "allow-ffi": ["./lib.so"]}}"#,
    );
    // The store review filters on `changed` and ends: the filter is saved.
    let t = r.open_small("hidden-store", "", "");
    t.send_keys(&["s"]);
    let screen = t.wait_for("state: changed", WAIT);
    assert!(
        screen.contains("filter: state changed · esc clears · 3 hidden need review"),
        "{screen}"
    );
    r.quit(&t);
    drop(t);
    for size in [(80, 24), (120, 35)] {
        let (t, screen) = r.open_at(
            &format!("hidden-since-{}", size.0),
            size,
            "--since main",
            "Configs 5/5",
        );
        assert!(!screen.contains("filter:"), "{size:?}:\n{screen}");
        assert!(!screen.contains("state: changed"), "{size:?}:\n{screen}");
        assert!(screen.contains("app/goccia.json"), "{size:?}:\n{screen}");
        r.quit(&t);
    }
    // The store review resumes its filter, and says so, at both sizes.
    for size in [(80, 24), (120, 35)] {
        let (t, screen) = r.open_at(
            &format!("hidden-again-{}", size.0),
            size,
            "",
            "filter: state changed (saved) · esc clears · 3 hidden need review",
        );
        assert!(screen.contains("Configs 1/5"), "{size:?}:\n{screen}");
        t.send_keys(&["Escape"]);
        let screen = t.wait_for("Configs 5/5", WAIT);
        assert!(!screen.contains("filter:"), "{size:?}:\n{screen}");
        t.send_keys(&["s"]);
        t.wait_for("state: changed", WAIT);
        r.quit(&t);
    }
}

// ---------------------------------------------------------------------------
// Issue 30 item 4: value-level diffs where the decision is made.

/// A one-host change in a 36-host list and a re-pointed link, trusted
/// before the change: the confirmation fits one screen at 80x24 and
/// 120x35, the `~` line wraps whole, and inspect shows the old target.
#[test]
fn the_decision_screens_show_values_and_whole_targets() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let hosts = |swapped: Option<&str>| {
        let list: Vec<String> = (1..=36)
            .map(|i| match (i, swapped) {
                (18, Some(h)) => format!("\"{h}\""),
                _ => format!("\"gw{i:02}.example.com\""),
            })
            .collect();
        format!(
            r#"{{"permissions": {{"allow-net": [{}]}}}}"#,
            list.join(", ")
        )
    };
    r.write("gw/goccia.json", &hosts(None));
    let shared = r.repo.join("shared/app-assets-v1");
    std::fs::create_dir_all(&shared).unwrap();
    // Long enough that a `~` line cannot fit on one row at 120 columns.
    let elsewhere = r
        .home
        .join("tmp-attacker-controlled-checkout/app/assets/current-release");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&shared, r.repo.join("app/assets")).unwrap();
    r.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-read": ["./assets"]}}"#,
    );
    let out = r.cli(&["trust", "gw", "app", "--yes"]);
    assert!(out.status.success(), "{out:?}");
    r.write("gw/goccia.json", &hosts(Some("gw18.attacker.io")));
    std::fs::remove_file(r.repo.join("app/assets")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, r.repo.join("app/assets")).unwrap();
    let elsewhere = elsewhere.to_str().unwrap();
    for size in [(80, 24), (120, 35)] {
        let (t, _) = r.open_at(
            &format!("decide-{}", size.0),
            size,
            "",
            "6 configs · 5 need review",
        );
        // Rows: api, app, gw (changed), then the never-trusted ones.
        t.send_keys(&["g", "j", "j"]);
        t.wait_for("path     gw/goccia.json", WAIT);
        t.send_keys(&["t"]);
        let screen = t.wait_for("Trust 1 config file?", WAIT);
        let popup = &screen[screen.find("Trust 1 config file?").unwrap()..];
        let order: Vec<usize> = [
            "gw/goccia.json (changed)",
            "allow-net",
            "… 17 unchanged",
            "- gw18.example.com",
            "+ gw18.attacker.io",
            "… 18 unchanged",
            "y writes exactly this",
        ]
        .iter()
        .map(|s| {
            popup
                .find(s)
                .unwrap_or_else(|| panic!("{size:?}: no {s:?}:\n{screen}"))
        })
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{size:?}:\n{screen}");
        // The dialog's own bottom border: no `↓ more` on it.
        let rows: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
        let top = rows
            .iter()
            .position(|r| {
                r.iter()
                    .collect::<String>()
                    .contains("Trust 1 config file?")
            })
            .unwrap();
        let left = rows[top].iter().position(|&c| c == '┌').unwrap();
        let bottom = rows[top + 1..]
            .iter()
            .find(|r| r.get(left) == Some(&'└'))
            .expect("the dialog's bottom border");
        let right = left + bottom[left..].iter().position(|&c| c == '┘').unwrap();
        let border: String = bottom[left..=right].iter().collect();
        assert!(!border.contains("more"), "{size:?}: one screen:\n{screen}");
        assert!(!popup.contains("gw01.example.com"), "{size:?}:\n{screen}");
        t.send_keys(&["n"]);
        t.wait_for_all(&["path     gw/goccia.json", "6 configs"], WAIT);
        // app: the `~` line whole in the detail pane, wrapped, not cut.
        t.send_keys(&["k"]);
        let screen = t.wait_for("path     app/goccia.json", WAIT);
        let lines: Vec<&str> = screen.lines().collect();
        let head = lines
            .iter()
            .position(|l| l.contains("~ ") && l.contains("/app/assets"))
            .unwrap_or_else(|| panic!("{size:?}: no ~ line:\n{screen}"));
        assert!(!lines[head].contains("assets…"), "{size:?}: cut:\n{screen}");
        // The rows after it, borders and wrap indents dropped, hold the
        // destination whole.
        let pane = |l: &str| -> String {
            let l = l.rsplit("││").next().unwrap_or(l);
            l.trim_matches(|c| c == '│' || c == ' ').to_string()
        };
        let wrapped: String = lines[head + 1..head + 4].iter().map(|l| pane(l)).collect();
        assert!(
            wrapped.starts_with(elsewhere),
            "{size:?}: the whole destination:\n{screen}"
        );
        // enter (inspect): where it led when trusted, beside where now.
        t.send_keys(&["Enter"]);
        t.wait_for("── targets", WAIT);
        t.send_keys(&["G"]);
        let screen = t.wait_for("when trusted)", WAIT);
        let joined: String = screen
            .lines()
            .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            joined.contains(&format!("was {} when trusted", shared.display())),
            "{size:?}:\n{screen}"
        );
        t.send_keys(&["Escape"]);
        t.wait_for("path     app/goccia.json", WAIT);
        r.quit(&t);
    }
}

/// Issue 30 item 3, at 80x24 and 120x35 on a real tree: a trusted config
/// deleted since is a `missing` row and a config file shadowed by a
/// higher-priority name a `shadowed` one, each with a detail pane; neither
/// is counted as needing review, `t` refuses the shadowed file, and `u` on
/// the missing row removes its entry (confirmed) and nothing else.
#[test]
fn a_missing_entry_and_a_shadowed_file_are_rows() {
    if !Tmux::available() {
        return;
    }
    for size in [(80u16, 24u16), (120, 35)] {
        let r = Repo::new();
        r.write(
            "gone/goccia.json",
            r#"{"permissions": {"allow-net": ["gone.example.com"]}}"#,
        );
        let out = r.cli(&["trust", "gone", "--yes"]);
        assert!(out.status.success(), "{out:?}");
        std::fs::remove_file(r.repo.join("gone/goccia.json")).unwrap();
        r.write(
            "web/goccia.json",
            r#"{"permissions": {"allow-net": ["old.example.net"]}}"#,
        );
        let before = r.entries().len();
        let (t, _) = r.open_at("missing-shadowed", size, "", "1 missing: p in Store prunes");
        let screen = t.wait_for("1 shadowed", WAIT);
        assert!(
            screen.contains("5 configs · 4 need review · 1 error"),
            "{size:?}: missing and shadowed are not counted as needing review:\n{screen}"
        );
        assert!(screen.contains("Configs 7/7"), "{size:?}:\n{screen}");
        let row = |screen: &str, path: &str| -> String {
            screen
                .lines()
                .find(|l| l.contains(&format!(" {path} ")) && l.starts_with('│'))
                .unwrap_or_else(|| panic!("{size:?}: no row {path}:\n{screen}"))
                .to_string()
        };
        assert!(
            row(&screen, "gone/goccia.json").contains("✗ missing"),
            "{screen}"
        );
        assert!(
            row(&screen, "web/goccia.json").contains("- shadowed"),
            "{screen}"
        );
        // The shadowed row (the last): its detail, and `t` refused.
        t.send_keys(&["G"]);
        let screen = t.wait_for("read     web/goccia.toml", WAIT);
        assert!(
            screen.contains("Shadowed by web/goccia.toml"),
            "{size:?}:\n{screen}"
        );
        t.send_keys(&["t"]);
        t.wait_for("Shadowed, not trusted: GocciaScript reads", WAIT);
        // The missing row: its detail, then `u` and `y`.
        t.send_keys(&["k"]);
        let screen = t.wait_for("u removes this entry", WAIT);
        assert!(screen.contains("The file is gone"), "{size:?}:\n{screen}");
        t.send_keys(&["u"]);
        t.wait_for("Prune 1 missing entry?", WAIT);
        t.send_keys(&["y"]);
        t.wait_for("Pruned 1 missing", WAIT);
        let screen = t.wait_for("Configs 6/6", WAIT);
        assert!(!screen.contains("✗ missing"), "{size:?}:\n{screen}");
        r.quit(&t);
        let entries = r.entries();
        assert_eq!(entries.len(), before - 1, "only the missing entry went");
        assert!(
            !entries.contains_key(r.repo.join("gone/goccia.json").to_str().unwrap()),
            "{entries:?}"
        );
    }
}

/// Issue 44 try 10: under `LC_ALL=C` the review drew box lines, `·`, `▶`
/// and `✓`; now every cell is ASCII (`+-|` boxes, `-` between counts),
/// with the same rows. `--ascii` and a theme's `ascii = true` do the same
/// in a UTF-8 locale.
#[test]
fn real_binary_draws_ascii_where_the_locale_has_no_utf8() {
    if !Tmux::available() {
        eprintln!("skipped: tmux not installed");
        return;
    }
    let r = Repo::new();
    let theme = r.home.join("ascii.toml");
    std::fs::write(&theme, "ascii = true\n").unwrap();
    let theme = format!("--theme={}", theme.display());
    for (name, vars, extra) in [
        ("c", "LC_ALL=C", ""),
        ("flag", "LANG=C.UTF-8", "--ascii"),
        ("theme", "LANG=C.UTF-8", theme.as_str()),
    ] {
        let t = Tmux::start(&format!("ascii-{name}"));
        t.wait_for("$", WAIT);
        t.run(&format!(
            "cd {} && HOME={} {vars} {} {} {extra} .; echo \"goccia-trust exited $?\"",
            r.repo.display(),
            r.home.display(),
            Repo::exe(),
            r.store_arg(),
        ));
        let screen = t.wait_for("5 configs - 4 need review - 1 error", WAIT);
        let drawn: Vec<char> = screen.chars().filter(|c| !c.is_ascii()).collect();
        assert!(drawn.is_empty(), "{name}: {drawn:?} on\n{screen}");
        assert!(screen.contains("+-"), "{name}: no ASCII box:\n{screen}");
        for path in [
            "api/goccia.json",
            "tools/goccia.json5",
            "broken/goccia.json",
        ] {
            assert!(screen.contains(path), "{name}: {path}\n{screen}");
        }
        r.quit(&t);
    }
}

// Issue 44's papercuts, on the real binary at 120x35 and 80x24.

/// At 120x35 the path column cut `goccia.json5` while the detail pane had
/// empty columns; the help overlay's columns went out of line. A path
/// that fits is drawn whole at both sizes, and help's descriptions start
/// at one x on every binding's row.
#[test]
fn real_binary_paths_fit_and_help_lines_up() {
    if !Tmux::available() {
        return;
    }
    let r = Repo::new();
    let long = "packages/storefront/goccia.json5";
    r.write(
        long,
        "{ permissions: { 'allow-net': ['shop.example.com'] } }\n",
    );
    for (w, h) in [(120u16, 35u16), (80, 24)] {
        let t = Tmux::start_sized(&format!("fit{w}"), w, h);
        t.wait_for("$", WAIT);
        t.run(&format!(
            "cd {} && HOME={} {} {} .; echo \"goccia-trust exited $?\"",
            r.repo.display(),
            r.home.display(),
            Repo::exe(),
            r.store_arg(),
        ));
        let screen = t.wait_for("6 configs · 5 need review · 1 error", WAIT);
        let list_row = screen
            .lines()
            .find(|l| l.contains("storefront"))
            .unwrap_or_else(|| panic!("{w}x{h}: no row:\n{screen}"));
        assert!(
            list_row.contains(&format!(" {long} ")),
            "{w}x{h}:\n{screen}"
        );

        t.send_keys(&["?"]);
        let screen = t.wait_for("┌ Keys", WAIT);
        let x_of = |label: &str, description: &str| {
            let line = screen
                .lines()
                .find(|l| l.contains(&format!("│ {label} ")))
                .unwrap_or_else(|| panic!("{w}x{h}: no {label}:\n{screen}"));
            let at = line
                .find(description)
                .unwrap_or_else(|| panic!("{w}x{h}:\n{screen}"));
            line[..at].chars().count()
        };
        let xs = [
            x_of("j/↓", "next row"),
            x_of("PgUp/ctrl-u", "one page up"),
            x_of("n", "next config needing review"),
            x_of("J", "scroll the detail pane down"),
        ];
        assert!(xs.iter().all(|x| *x == xs[0]), "{w}x{h}: {xs:?}\n{screen}");
        // The contexts too, after a long description (`space`'s, in view
        // at 120x35 only).
        let mut contexts = vec![x_of("j/↓", "configs"), x_of("N", "configs")];
        if screen.contains("│ space ") {
            contexts.push(x_of("space", "configs"));
        }
        assert!(
            contexts.iter().all(|x| *x == contexts[0]),
            "{w}x{h}: {contexts:?}\n{screen}"
        );
        // Wrapped contexts go on in their own column, not at the edge.
        assert!(!screen.contains("│  inspect, help"), "{w}x{h}:\n{screen}");
        // `q` closes help, then quits.
        t.send_keys(&["q"]);
        t.wait_until("help closed", WAIT, |s| !s.contains("┌ Keys"));
        t.send_keys(&["q"]);
        t.wait_for("goccia-trust exited 0", WAIT);
    }
}
