//! Run the TUI over fixture data with the in-memory backend, until the real
//! backend is wired into `main.rs`. Also what the tmux tests drive.
//!
//!   cargo run --example tui_demo -- [--count N] [--delay-ms MS] [--hostile]
//!                                   [--theme NAME|PATH] [--color never]
//!                                   [--panic-on-inspect]
#![allow(clippy::unwrap_used, clippy::expect_used)] // a developer tool over fixture data (the tmux tests drive it): a panic is a broken fixture

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use goccia_trust::core::env::{Env, UserDir};
use goccia_trust::core::review::report::{ConfigReport, StoreEntryReport};
use goccia_trust::style::theme::{ColorChoice, load_theme};
use goccia_trust::tui::backend::{CommitError, CommitOutcome, InspectData, ScanEvent};
use goccia_trust::tui::fake::FakeBackend;
use goccia_trust::tui::{TuiBackend, fixtures, run_tui};

/// Panics in `inspect`, to show that a failing worker restores the terminal.
struct PanickyInspect(FakeBackend);

impl TuiBackend for PanickyInspect {
    fn scan(&self, root: &str, on_event: &mut dyn FnMut(ScanEvent) -> ControlFlow<()>) {
        self.0.scan(root, on_event)
    }
    fn store_entries(&self) -> Result<Vec<StoreEntryReport>, String> {
        self.0.store_entries()
    }
    fn inspect(&self, _key: &str) -> Result<InspectData, String> {
        panic!("demo panic in inspect")
    }
    fn trust(&self, shown: &[ConfigReport]) -> Result<CommitOutcome, CommitError> {
        self.0.trust(shown)
    }
    fn untrust(&self, keys: &[String]) -> Result<CommitOutcome, CommitError> {
        self.0.untrust(keys)
    }
    fn prune_missing(&self, keys: &[String]) -> Result<CommitOutcome, CommitError> {
        self.0.prune_missing(keys)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let fixture = if args.iter().any(|a| a == "--hostile") {
        fixtures::hostile()
    } else if let Some(n) = value("--count") {
        fixtures::generated(n.parse().expect("--count takes a number"))
    } else {
        fixtures::sample()
    };
    let fake = FakeBackend::new(fixture);
    if let Some(ms) = value("--delay-ms") {
        fake.data().delay = Duration::from_millis(ms.parse().expect("--delay-ms takes a number"));
    }
    let color = match value("--color").as_deref() {
        Some("never") => ColorChoice::Never,
        Some("always") => ColorChoice::Always,
        _ => ColorChoice::Auto,
    };
    let env = Env::from_process().expect("a working directory");
    let theme = match load_theme(
        value("--theme").as_deref(),
        color,
        env.user_dir(UserDir::Config).as_deref(),
        env.no_color,
    ) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let backend: Arc<dyn TuiBackend> = if args.iter().any(|a| a == "--panic-on-inspect") {
        Arc::new(PanickyInspect(fake))
    } else {
        Arc::new(fake)
    };
    if let Err(e) = run_tui("/home/dev/shop", backend, theme, env.editor()) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
    println!("goccia-trust demo: bye");
}
