//! The state directory holds the decision records: like the store, only its
//! owner may write it (issue 10 item 1), and records are refused otherwise.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use goccia_trust::core::policy::record::{RecordError, write_record};

#[test]
fn a_state_directory_others_can_write_gets_no_record() {
    let t = tempfile::tempdir().unwrap();
    let state = t.path().canonicalize().unwrap().join("state");
    fs::create_dir(&state).unwrap();
    fs::set_permissions(&state, fs::Permissions::from_mode(0o777)).unwrap();
    let err = write_record(&state, &serde_json::json!({"verdict": "allowed"})).unwrap_err();
    assert!(matches!(err, RecordError::Unsafe(_)));
    let s = state.display();
    assert_eq!(
        err.to_string(),
        format!("the state directory {s} is writable by others (mode 0777); run chmod 700 {s}")
    );
    assert_eq!(fs::read_dir(&state).unwrap().count(), 0, "nothing written");
}

#[test]
fn a_new_state_directory_is_private_and_takes_records() {
    let t = tempfile::tempdir().unwrap();
    let state = t.path().join("a/state");
    let h = write_record(&state, &serde_json::json!({"verdict": "allowed"})).unwrap();
    assert!(h.path.starts_with(state.join("decisions")));
    for d in [t.path().join("a"), state.clone(), state.join("decisions")] {
        let mode = fs::metadata(&d).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{}", d.display());
    }
    // Under a sticky world-writable directory such as /tmp: accepted.
    let sticky = t.path().join("tmp");
    fs::create_dir(&sticky).unwrap();
    fs::set_permissions(&sticky, fs::Permissions::from_mode(0o1777)).unwrap();
    write_record(&sticky.join("state"), &serde_json::json!({})).unwrap();
}
