//! The core entry points the properties drive, in one place: when a
//! signature changes, this file changes, not the properties.

use std::path::Path;

use goccia_trust::core::config::extends::{LoadedConfig, load_config_entries};
use goccia_trust::core::config::{ConfigSnapshot, load_config};
use goccia_trust::core::env::Env;
use goccia_trust::core::error::ConfigError;
use goccia_trust::core::paths::key::TrustKey;
use goccia_trust::core::policy::Policy;
use goccia_trust::core::policy::gate;
use goccia_trust::core::policy::load::{PolicyError, PolicySource, parse_policy};
use goccia_trust::core::review::report::{ConfigState, EntryStatus};
use goccia_trust::core::store::{Store, StoreError, StoredEntry, parse_store, serialize_store};

/// Works in `dir`; `$HOME` is a sibling that does not exist, outside the
/// tree under review (a policy whose workspace covers `$HOME` is refused).
pub fn env_at(dir: &Path) -> Env {
    Env {
        cwd: dir.to_str().unwrap().to_string(),
        home: format!("{}-home", dir.to_str().unwrap()),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    }
}

/// Works in `dir` with `$HOME`, and so the trust store's directory, inside
/// it: an approved workspace `.` covers the store, and only the store's own
/// denial keeps it out.
pub fn env_with_home_inside(dir: &Path) -> Env {
    Env {
        home: dir.join("home").to_str().unwrap().to_string(),
        ..env_at(dir)
    }
}

/// The whole load a scan does for one config: extends chain, validation,
/// request, normalized block, hash, targets, description lines.
pub fn load(path: &str, env: &Env) -> Result<ConfigSnapshot, ConfigError> {
    load_config(&TrustKey(path.to_string()), env)
}

pub fn load_entries(path: &str, env: &Env) -> Result<LoadedConfig, ConfigError> {
    load_config_entries(path, env)
}

pub fn policy_from_bytes(bytes: &[u8], file: &Path, env: &Env) -> Result<Policy, PolicyError> {
    let store_dir = Path::new(&env.home).join(".config/goccia");
    parse_policy(
        bytes,
        PolicySource::File(file.to_path_buf()),
        env,
        std::slice::from_ref(&env.cwd),
        &store_dir,
    )
}

pub fn default_policy(env: &Env) -> Policy {
    let store_dir = Path::new(&env.home).join(".config/goccia");
    let ctx = goccia_trust::core::policy::LoadContext {
        env,
        anchors: std::slice::from_ref(&env.cwd),
        store_dir: &store_dir,
        state_dir: None,
    };
    goccia_trust::core::policy::load_policy(None, &ctx).expect("the shipped default")
}

/// The gate's verdict for a loaded config, as `trust --policy` asks it.
pub fn judge(policy: &Policy, snapshot: &ConfigSnapshot, env: &Env) -> String {
    gate::decide(policy, snapshot, env)
        .verdict
        .as_str()
        .to_string()
}

pub fn store_from_bytes(path: &str, bytes: &[u8]) -> Result<Store, StoreError> {
    parse_store(path, bytes)
}

pub fn store_bytes(store: &Store) -> String {
    serialize_store(store)
}

/// What trusting a snapshot records, as `trust` writes it.
pub fn trust_entry(snapshot: &ConfigSnapshot) -> StoredEntry {
    goccia_trust::core::review::trust::entry_for(
        &snapshot.sha256,
        &snapshot.block,
        &snapshot.targets,
        "2026-12-02T15:00:00Z",
    )
}

/// A config's state against a store entry, as `scan` shows it.
pub fn state(snapshot: &ConfigSnapshot, stored: Option<&StoredEntry>) -> ConfigState {
    goccia_trust::core::review::status::compare(snapshot, stored).state
}

/// A store entry's status against the disk, as `list` shows it, and the
/// `--list-trusted` text for it; the report `list` makes for its text and
/// the full one the TUI and `--json` use must print the same.
pub fn list_entry(key: &str, entry: &StoredEntry, env: &Env) -> (EntryStatus, String) {
    use goccia_trust::core::review::listing::{Detail, entry_report, render_list_trusted};
    let [text, full] = [Detail::Targets, Detail::Lines].map(|detail| {
        let report = entry_report(key, entry, env, detail);
        let text = render_list_trusted(
            "/s/trust.json",
            std::slice::from_ref(&report),
            &goccia_trust::core::review::style::plain,
        );
        (report.status, text)
    });
    assert_eq!(text, full, "list's report and the full one differ");
    text
}
