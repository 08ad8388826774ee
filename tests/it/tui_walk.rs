//! The interactive review over a tree with a link out of it: the real core
//! reports the link, and the status line shows it once the scan is done.

use crate::tui_common;

use std::ops::ControlFlow;

use goccia_trust::core::env::Env;
use goccia_trust::style::theme::Role;
use goccia_trust::style::theme::Theme;
use goccia_trust::tui::backend::{ScanEvent, TuiBackend};
use goccia_trust::tui::core_backend::CoreBackend;
use goccia_trust::tui::fixtures;
use goccia_trust::tui::msg::Msg;
use tui_common::{Harness, draw, text};

/// Where `needle` starts on the screen.
fn cell_of(buf: &ratatui::buffer::Buffer, needle: &str) -> (u16, u16) {
    let screen = text(buf);
    for (y, line) in screen.lines().enumerate() {
        if let Some(i) = line.find(needle) {
            return (line[..i].chars().count() as u16, y as u16);
        }
    }
    panic!("no {needle:?} on:\n{screen}");
}

#[test]
fn the_core_reports_links_out_of_the_tree_to_the_tui() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("repo")).unwrap();
    std::fs::create_dir_all(root.join("elsewhere")).unwrap();
    std::fs::write(
        root.join("elsewhere/goccia.json"),
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    )
    .unwrap();
    std::os::unix::fs::symlink(root.join("elsewhere"), root.join("repo/vendor")).unwrap();
    let env = Env {
        cwd: root.to_str().unwrap().to_string(),
        home: root.join("home").to_str().unwrap().to_string(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    };
    let backend = CoreBackend::new(env, Err("no store".into()));
    let mut walk = None;
    let mut found = 0;
    backend.scan("repo", &mut |e| {
        match e {
            ScanEvent::Walk {
                unreadable,
                not_followed,
                ..
            } => walk = Some((unreadable, not_followed)),
            ScanEvent::Found(_) => found += 1,
            _ => {}
        }
        ControlFlow::Continue(())
    });
    assert_eq!(found, 0, "nothing behind the link is scanned");
    let elsewhere = root.join("elsewhere");
    assert_eq!(
        walk,
        Some((
            vec![],
            vec![format!(
                "not followed: repo/vendor -> {} (outside repo/)",
                elsewhere.display()
            )]
        ))
    );
}

#[test]
fn the_status_line_shows_what_the_walk_left_out() {
    let mut h = Harness::new(fixtures::sample());
    let job = h.state.scan.job;
    h.send(Msg::ScanWalk {
        job,
        unreadable: vec!["cannot read shop/locked: Permission denied".into()],
        not_followed: vec![
            "not followed: shop/a -> /x (outside shop/)".into(),
            "not followed: shop/b -> / (outside shop/)".into(),
        ],
        shadowed: vec![],
        missing: vec![],
    });
    let screen = text(&draw(&h.state, &Theme::default(), 200, 30));
    assert!(
        screen.contains(" cannot read shop/locked: Permission denied "),
        "{screen}"
    );
    assert!(
        screen.contains(" 2 links out of the tree not followed (goccia-trust scan lists them)"),
        "{screen}"
    );
    // A rescan starts over.
    h.keys("r");
    assert!(h.state.scan.unreadable.is_empty() && h.state.scan.not_followed.is_empty());
}

/// A config file shadowed by a higher-priority name in its directory, and
/// a trusted config deleted since: the real core hands both to the TUI.
#[test]
fn the_core_reports_shadowed_files_and_missing_entries_to_the_tui() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("repo/app")).unwrap();
    std::fs::create_dir_all(root.join("repo/gone")).unwrap();
    let grant = r#"{"permissions": {"allow-net": ["a.test"]}}"#;
    std::fs::write(root.join("repo/app/goccia.json"), grant).unwrap();
    std::fs::write(
        root.join("repo/app/goccia.toml"),
        "[permissions]\nallow-net = [\"b.test\"]\n",
    )
    .unwrap();
    std::fs::write(root.join("repo/gone/goccia.json"), grant).unwrap();
    let env = Env {
        cwd: root.to_str().unwrap().to_string(),
        home: root.join("home").to_str().unwrap().to_string(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    };
    let loc = goccia_trust::core::store::StoreLocation {
        path: root.join("trust.json").to_str().unwrap().into(),
        is_default: false,
        as_typed: None,
    };
    let backend = CoreBackend::new(env, Ok(loc));
    let mut reports = Vec::new();
    backend.scan("repo", &mut |e| {
        if let ScanEvent::Found(r) = e {
            reports.push(*r);
        }
        ControlFlow::Continue(())
    });
    let gone: Vec<_> = reports
        .into_iter()
        .filter(|r| r.key.ends_with("gone/goccia.json"))
        .collect();
    assert_eq!(gone.len(), 1);
    backend.trust(&gone).unwrap();
    std::fs::remove_file(root.join("repo/gone/goccia.json")).unwrap();
    let mut walk = None;
    backend.scan("repo", &mut |e| {
        if let ScanEvent::Walk {
            shadowed, missing, ..
        } = e
        {
            walk = Some((shadowed, missing));
        }
        ControlFlow::Continue(())
    });
    let (shadowed, missing) = walk.expect("a Walk event");
    // Each as a row: the file, where it is shown, and (shadowed) the file
    // read instead or (missing) when it was trusted.
    assert_eq!(shadowed.len(), 1);
    assert_eq!(
        shadowed[0].key,
        root.join("repo/app/goccia.json").to_str().unwrap()
    );
    assert_eq!(shadowed[0].display_path, "repo/app/goccia.json");
    assert_eq!(shadowed[0].by.as_deref(), Some("repo/app/goccia.toml"));
    assert_eq!(missing.len(), 1);
    assert_eq!(
        missing[0].key,
        root.join("repo/gone/goccia.json").to_str().unwrap()
    );
    assert_eq!(missing[0].display_path, "repo/gone/goccia.json");
    assert!(missing[0].trusted_at.is_some());
    let shadowed: Vec<String> = shadowed.into_iter().map(|s| s.line).collect();
    let missing: Vec<String> = missing.into_iter().map(|m| m.line).collect();
    assert_eq!(
        shadowed,
        vec![
            "shadowed: repo/app/goccia.json by repo/app/goccia.toml (GocciaScript reads only \
             goccia.toml here; this file is neither trusted nor hashed)"
                .to_string()
        ]
    );
    assert_eq!(
        missing,
        vec![
            "missing: repo/gone/goccia.json (trusted, now gone; goccia-trust untrust --missing \
             removes the entry)"
                .to_string()
        ]
    );
}

/// Missing entries are counted apart from the configs that need review,
/// with what to do about them; shadowed files are said once, in their own
/// style.
#[test]
fn the_status_line_counts_missing_entries_and_shadowed_files_apart() {
    let mut h = Harness::new(fixtures::sample());
    let job = h.state.scan.job;
    let before = h.state.needs_review_count();
    h.send(Msg::ScanWalk {
        job,
        unreadable: vec![],
        not_followed: vec![],
        shadowed: vec![tui_common::shadowed("shop/goccia.json", "shop/goccia.toml")],
        missing: vec![
            tui_common::missing("a/goccia.json"),
            tui_common::missing("b/goccia.json"),
        ],
    });
    assert_eq!(
        h.state.needs_review_count(),
        before,
        "not counted as needing review"
    );
    let theme = Theme::default();
    let buf = draw(&h.state, &theme, 200, 30);
    let screen = text(&buf);
    assert!(
        screen.contains(" 2 missing: p in Store prunes  1 shadowed"),
        "{screen}"
    );
    let (x, y) = cell_of(&buf, "1 shadowed");
    let (cell, want) = (buf[(x, y)].style(), theme.style(Role::Shadowed));
    assert_eq!((cell.fg, cell.add_modifier), (want.fg, want.add_modifier));
    let (x, y) = cell_of(&buf, "2 missing");
    let (cell, want) = (buf[(x, y)].style(), theme.style(Role::Missing));
    assert_eq!((cell.fg, cell.add_modifier), (want.fg, want.add_modifier));
    h.keys("r");
    assert!(h.state.scan.shadowed.is_empty() && h.state.scan.missing.is_empty());
}

#[test]
fn inspecting_a_fifo_config_does_not_wait() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let fifo = root.join("goccia.json");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let env = Env {
        cwd: root.to_str().unwrap().to_string(),
        home: root.join("home").to_str().unwrap().to_string(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
        ..Env::default()
    };
    let backend = CoreBackend::new(env, Err("no store".into()));
    let start = std::time::Instant::now();
    let data = backend.inspect(fifo.to_str().unwrap()).unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(1));
    let expected = format!("{}: not a regular file", fifo.display());
    assert_eq!(data.error.as_deref(), Some(expected.as_str()));
    assert_eq!(data.files[0].source, Err("not a regular file".to_string()));
}

/// Auto-refresh is all or nothing: a directory that cannot be watched for
/// any reason but being gone (here a path through a regular file) turns it
/// off with the reason, rather than leaving part of the tree unwatched
/// while the screen looks live. A directory gone since the scan is fine.
#[test]
fn a_directory_that_cannot_be_watched_turns_auto_refresh_off() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("file"), "").unwrap();
    let env = Env::at(root.to_str().unwrap(), root.to_str().unwrap());
    let backend = CoreBackend::new(env, Err("no store".into()));
    let ok = root.to_str().unwrap().to_string();
    let gone = root.join("gone").to_str().unwrap().to_string();
    let bad = root.join("file/sub").to_str().unwrap().to_string();
    assert_eq!(backend.watch(&[ok.clone(), gone], Box::new(|_| {})), Ok(()));
    let why = backend
        .watch(&[ok, bad.clone()], Box::new(|_| {}))
        .unwrap_err();
    assert!(why.starts_with(&format!("cannot watch {bad}: ")), "{why}");
}
