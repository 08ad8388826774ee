//! "Record what was shown, or nothing": a config changed or a link
//! re-pointed between the listing and the commit is never recorded.

use std::os::unix::fs::symlink;

use super::*;
use crate::core::paths::key::TrustKey;

struct Tree {
    _dir: tempfile::TempDir,
    root: String,
    env: Env,
    loc: StoreLocation,
}

impl Tree {
    fn new() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let root = dir
            .path()
            .canonicalize()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let env = Env {
            cwd: root.clone(),
            home: format!("{root}/home"),
            xdg_config_home: String::new(),
            xdg_state_home: String::new(),
            ..Env::default()
        };
        let loc = crate::core::store::locate_store(Some(&format!("{root}/store/trust.json")), &env)
            .unwrap();
        Tree {
            _dir: dir,
            root,
            env,
            loc,
        }
    }

    fn write(&self, rel: &str, text: &str) {
        let path = format!("{}/{rel}", self.root);
        std::fs::create_dir_all(crate::core::paths::parent_dir(&path)).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn mkdir(&self, rel: &str) {
        std::fs::create_dir_all(format!("{}/{rel}", self.root)).unwrap();
    }

    fn link(&self, rel: &str, to: &str) {
        let at = format!("{}/{rel}", self.root);
        let _ = std::fs::remove_file(&at);
        symlink(format!("{}/{to}", self.root), at).unwrap();
    }

    /// The config at `rel` as a listing shows it (leaked: a test's
    /// listing lives as long as the test).
    fn shown(&self, rel: &str) -> Shown<'static> {
        let key = TrustKey(format!("{}/{rel}", self.root));
        let listed = ListedConfig::of(load_config(&key, &self.env).unwrap());
        Shown::of_snapshot(Box::leak(Box::new(listed)))
    }

    fn store_bytes(&self) -> Option<Vec<u8>> {
        std::fs::read(&self.loc.path).ok()
    }

    fn commit(&self, shown: &[Shown<'_>], when: WhenChanged) -> TrustCommit {
        trust_as_shown(&self.loc, shown, &self.env, when).unwrap()
    }
}

const READS_DATA: &str = r#"{"permissions": {"allow-read": ["./data"]}}"#;

#[test]
fn a_link_re_pointed_after_the_listing_is_not_recorded() {
    let t = Tree::new();
    t.mkdir("docs");
    t.mkdir("secret");
    t.write("a/goccia.json", READS_DATA);
    t.link("a/data", "docs");
    let shown = t.shown("a/goccia.json");
    assert_eq!(shown.targets[0].1, format!("{}/docs", t.root));
    // Between the listing and the answer, `data` now leads elsewhere.
    t.link("a/data", "secret");
    let commit = t.commit(&[shown], WhenChanged::LeaveOut);
    assert_eq!(commit.recorded, 0);
    assert_eq!(commit.refused.len(), 1);
    assert_eq!(
        commit.refused[0].targets()[0].1,
        format!("{}/secret", t.root),
        "the refusal carries the config as it is now"
    );
    assert_eq!(t.store_bytes(), None, "no store was written");
}

#[test]
fn a_changed_config_is_left_out_and_the_others_recorded() {
    let t = Tree::new();
    t.mkdir("docs");
    t.write("a/goccia.json", READS_DATA);
    t.link("a/data", "docs");
    t.write(
        "b/goccia.json",
        r#"{"permissions": {"allow-net": ["b.example"]}}"#,
    );
    let shown = [t.shown("a/goccia.json"), t.shown("b/goccia.json")];
    t.write(
        "b/goccia.json",
        r#"{"permissions": {"allow-net": ["b.example", "exfil.example"]}}"#,
    );
    let commit = t.commit(&shown, WhenChanged::LeaveOut);
    assert_eq!(commit.recorded, 1);
    assert_eq!(commit.refused.len(), 1);
    assert_eq!(commit.refused[0].key, format!("{}/b/goccia.json", t.root));
    let store = read_store(&t.loc.path).unwrap();
    let a = store.get(&format!("{}/a/goccia.json", t.root)).unwrap();
    assert_eq!(a.sha256, *shown[0].sha256);
    assert_eq!(a.target_pairs(), *shown[0].targets);
    assert!(store.get(&format!("{}/b/goccia.json", t.root)).is_none());
    assert_eq!(store.len(), 1);
}

#[test]
fn the_tui_records_nothing_when_anything_changed() {
    let t = Tree::new();
    t.write(
        "a/goccia.json",
        r#"{"permissions": {"allow-net": ["a.example"]}}"#,
    );
    t.write(
        "b/goccia.json",
        r#"{"permissions": {"allow-net": ["b.example"]}}"#,
    );
    // An existing store, which must stay byte for byte as it was.
    let first = [t.shown("a/goccia.json")];
    assert_eq!(t.commit(&first, WhenChanged::RecordNothing).recorded, 1);
    let before = t.store_bytes().unwrap();
    let shown = [t.shown("a/goccia.json"), t.shown("b/goccia.json")];
    std::fs::remove_file(format!("{}/b/goccia.json", t.root)).unwrap();
    let commit = t.commit(&shown, WhenChanged::RecordNothing);
    assert_eq!(commit.recorded, 0);
    assert_eq!(commit.refused.len(), 1);
    assert!(commit.refused[0].error().is_some(), "a vanished config");
    assert_eq!(t.store_bytes().unwrap(), before);
}

#[test]
fn what_was_shown_is_recorded_when_nothing_changed() {
    let t = Tree::new();
    t.mkdir("docs");
    t.write("a/goccia.json", READS_DATA);
    t.link("a/data", "docs");
    let shown = [t.shown("a/goccia.json")];
    let commit = t.commit(&shown, WhenChanged::LeaveOut);
    assert_eq!((commit.recorded, commit.refused.len()), (1, 0));
    let store = read_store(&t.loc.path).unwrap();
    let entry = store.get(&shown[0].key).unwrap();
    assert_eq!(entry.block.to_compact(), shown[0].block());
    assert_eq!(entry.target_pairs(), *shown[0].targets);
}

#[test]
fn a_report_that_showed_no_block_is_never_recorded() {
    let t = Tree::new();
    t.write(
        "a/goccia.json",
        r#"{"permissions": {"allow-net": ["a.example"]}}"#,
    );
    let key = TrustKey(format!("{}/a/goccia.json", t.root));
    let mut report = crate::core::review::scan::report_for(&key, &t.env, &Store::default());
    report.outcome = crate::core::review::report::Outcome::Failed(
        crate::core::error::ConfigError::usage("failed when it was shown"),
    );
    let commit = t.commit(&[Shown::of_report(&report)], WhenChanged::LeaveOut);
    assert_eq!((commit.recorded, commit.refused.len()), (0, 1));
    assert_eq!(t.store_bytes(), None);
}

#[test]
fn prune_keeps_everything_when_a_config_came_back() {
    let t = Tree::new();
    t.write(
        "a/goccia.json",
        r#"{"permissions": {"allow-net": ["a.example"]}}"#,
    );
    t.write(
        "b/goccia.json",
        r#"{"permissions": {"allow-net": ["b.example"]}}"#,
    );
    let shown = [t.shown("a/goccia.json"), t.shown("b/goccia.json")];
    t.commit(&shown, WhenChanged::LeaveOut);
    let before = t.store_bytes().unwrap();
    std::fs::remove_file(format!("{}/a/goccia.json", t.root)).unwrap();
    let keys = [shown[0].key.to_string(), shown[1].key.to_string()];
    assert_eq!(prune_if_still_missing(&t.loc, &keys).unwrap(), Err(1));
    assert_eq!(t.store_bytes().unwrap(), before);
    std::fs::remove_file(format!("{}/b/goccia.json", t.root)).unwrap();
    assert_eq!(prune_if_still_missing(&t.loc, &keys).unwrap(), Ok(2));
}

/// `trust --yes`: a candidate carries the stamp of its files from the
/// listing. Unchanged, it is recorded as listed without being read again;
/// changed in any way that moves its stamp
/// (rewritten, replaced, its extends parent rewritten), it is read again
/// and refused as today.
#[test]
fn a_stamped_candidate_is_read_again_only_when_its_files_changed() {
    let t = Tree::new();
    t.write(
        "base.json",
        r#"{"permissions": {"allow-net": ["base.example"]}}"#,
    );
    t.write(
        "a/goccia.json",
        r#"{"permissions": {"allow-net": ["a.example"]}}"#,
    );
    t.write(
        "b/goccia.json",
        r#"{"extends": "../base.json", "permissions": {"allow-read": ["."]}}"#,
    );
    t.write(
        "c/goccia.json",
        r#"{"permissions": {"allow-net": ["c.example"]}}"#,
    );
    let store = Store::new();
    let plan = plan_trust(std::slice::from_ref(&t.root), &t.env, &store, None).unwrap();
    let shown: Vec<Shown> = plan.candidates.iter().map(Shown::of_candidate).collect();
    assert_eq!(shown.len(), 3);
    assert!(shown.iter().all(|s| s.stamp.is_some()));
    assert_eq!(
        shown[1].stamp.as_ref().unwrap().0.0.len(),
        2,
        "b and its base"
    );
    // b's parent is rewritten (same length) and c is replaced by a copy.
    t.write(
        "base.json",
        r#"{"permissions": {"allow-net": ["evil.example"]}}"#,
    );
    let c = format!("{}/c/goccia.json", t.root);
    std::fs::write(format!("{c}.new"), std::fs::read(&c).unwrap()).unwrap();
    std::fs::rename(format!("{c}.new"), &c).unwrap();
    let commit = t.commit(&shown, WhenChanged::LeaveOut);
    let refused: Vec<&str> = commit.refused.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(
        refused,
        [format!("{}/b/goccia.json", t.root)],
        "only b now differs"
    );
    assert_eq!(commit.recorded, 2, "a as listed, c read again and equal");
    let store = read_store(&t.loc.path).unwrap();
    let a = store.get(&format!("{}/a/goccia.json", t.root)).unwrap();
    assert_eq!(a.sha256, *shown[0].sha256);
    assert_eq!(a.block.as_str(), shown[0].block());
}

#[test]
fn an_unstamped_candidate_is_always_read_again() {
    let t = Tree::new();
    t.write(
        "a/goccia.json",
        r#"{"permissions": {"allow-net": ["a.example"]}}"#,
    );
    let shown = t.shown("a/goccia.json");
    assert!(shown.stamp.is_none());
    std::fs::remove_file(format!("{}/a/goccia.json", t.root)).unwrap();
    let commit = t.commit(&[shown], WhenChanged::LeaveOut);
    assert_eq!((commit.recorded, commit.refused.len()), (0, 1));
}

/// `trust --yes` as text moves the listing into the record: a config
/// rewritten after the listing is still refused (its stamp moved), and
/// the others are recorded with the hash, block and targets listed.
#[test]
fn a_moved_listing_is_recorded_as_listed_and_a_changed_config_refused() {
    let t = Tree::new();
    t.write("a/goccia.json", READS_DATA);
    t.write(
        "b/goccia.json",
        r#"{"permissions": {"allow-net": ["b.example"]}}"#,
    );
    let plan = plan_trust(std::slice::from_ref(&t.root), &t.env, &Store::new(), None).unwrap();
    let listed: Vec<(String, String, String)> = plan
        .candidates
        .iter()
        .map(|c| {
            let s = &c.snapshot;
            (
                s.key.0.clone(),
                s.sha256.clone(),
                s.block_text().to_string(),
            )
        })
        .collect();
    t.write(
        "b/goccia.json",
        r#"{"permissions": {"allow-net": ["evil.example"]}}"#,
    );
    let shown: Vec<Shown> = plan
        .candidates
        .into_iter()
        .map(Shown::from_candidate)
        .collect();
    assert!(shown.iter().all(|s| s.stamp.is_some()));
    let commit = trust_moved(&t.loc, shown, &t.env, WhenChanged::LeaveOut).unwrap();
    let refused: Vec<&str> = commit.refused.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(refused, [listed[1].0.as_str()]);
    assert_eq!(commit.recorded, 1);
    let store = read_store(&t.loc.path).unwrap();
    let a = store.get(&listed[0].0).unwrap();
    assert_eq!(
        (&a.sha256.to_hex(), a.block.as_str()),
        (&listed[0].1, listed[0].2.as_str())
    );
    assert!(store.get(&listed[1].0).is_none());
}

/// `scan` reads each entry back from the store file as the config's row is
/// made: an entry changed in place since the store was read is that row's
/// error, never the entry as it now reads.
#[test]
fn an_entry_changed_in_place_during_a_scan_is_its_rows_error() {
    use crate::core::review::report::ConfigState;
    use crate::core::review::scan::report_for;
    use std::io::Write;
    let t = Tree::new();
    t.write("a/goccia.json", READS_DATA);
    t.mkdir("a/data");
    t.commit(&[t.shown("a/goccia.json")], WhenChanged::LeaveOut);
    let store = crate::core::store::StoreOnDemand::read(&t.loc.path).unwrap();
    let key = TrustKey(format!("{}/a/goccia.json", t.root));
    assert_eq!(report_for(&key, &t.env, &store).state, ConfigState::Trusted);
    // Rewritten in place, same length: another program name.
    let text = std::fs::read_to_string(&t.loc.path).unwrap();
    let edited = text.replacen("goccia-trust", "goccia-TRUST", 1);
    assert_ne!(edited, text);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(&t.loc.path)
        .unwrap();
    file.write_all(edited.as_bytes()).unwrap();
    drop(file);
    let report = report_for(&key, &t.env, &store);
    assert_eq!(report.state, ConfigState::Error);
    assert_eq!(
        report.error().unwrap().message,
        format!(
            "trust store {} changed while it was being read; run the command again",
            t.loc.path
        )
    );
    assert!(report.stored.is_none());
}
