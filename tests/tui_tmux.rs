//! The TUI in a real terminal: tmux runs it, keys are sent with
//! `send-keys`, the screen is read with `capture-pane`. Each test uses its
//! own tmux server socket so it cannot touch anyone's sessions. Skipped
//! (with a message) where tmux is not installed.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// One tmux server and session running a shell.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn available() -> bool {
        let ok = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("skipped: tmux is not installed");
        }
        ok
    }

    /// A 120x35 session running `sh` with a plain prompt, in a clean
    /// environment so the user's shell config cannot change what we see.
    fn start(name: &str) -> Tmux {
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
                "120",
                "-y",
                "35",
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

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Keys in tmux's names (`q`, `Enter`, `Escape`, `Tab`, `Space`).
    fn send_keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Type a command line into the shell and run it.
    fn run(&self, line: &str) {
        self.send_keys(&["-l", line]);
        self.send_keys(&["Enter"]);
    }

    fn capture(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "0"])
    }

    /// Poll the screen until `text` appears; panics with the screen after
    /// `timeout`.
    fn wait_for(&self, text: &str, timeout: Duration) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if screen.contains(text) {
                return screen;
            }
            if start.elapsed() > timeout {
                panic!("timed out waiting for {text:?}; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether the pane is on the alternate screen (the TUI's).
    fn alternate_on(&self) -> bool {
        self.tmux(&["display-message", "-p", "-t", "0", "#{alternate_on}"])
            .trim()
            == "1"
    }

    /// Whether the terminal is back in cooked mode with echo.
    fn assert_cooked(&self) {
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
        eprintln!("skipped: {} not built (cargo test builds it)", p.display());
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

/// End to end over the real backend: waits for `main.rs` to start the TUI
/// on a terminal. Run with `cargo test --test tui_tmux -- --ignored`.
#[test]
#[ignore = "needs the real backend wired into main.rs"]
fn real_binary_trusts_a_config_after_confirmation() {
    if !Tmux::available() {
        return;
    }
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_goccia-trust"));
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("repo");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(
        tree.join("goccia.json"),
        r#"{"permissions": {"allow-net": ["example.com"]}}"#,
    )
    .unwrap();
    let store = dir.path().join("trust.json");
    let t = Tmux::start("real");
    t.wait_for("$", WAIT);
    t.run(&format!(
        "{} --trust-store={} {}",
        exe.display(),
        store.display(),
        tree.display()
    ));
    t.wait_for("never trusted", WAIT);
    t.send_keys(&["t"]);
    t.wait_for("allow-net: example.com", WAIT);
    t.send_keys(&["y"]);
    t.wait_for("Trusted 1 config file", WAIT);
    t.send_keys(&["q"]);
    t.wait_for("$", WAIT);
    assert!(!t.alternate_on());
    let stored = std::fs::read_to_string(&store).unwrap();
    assert!(stored.contains("goccia.json"), "{stored}");
}
