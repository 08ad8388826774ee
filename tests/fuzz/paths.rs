//! Path text from configs, arguments and a hostile environment (`$HOME` is
//! whatever the caller set): expansion, keys and display never panic, stay
//! absolute and do not blow up; a suggested command's quoting gives the
//! shell back exactly the path, so a config's path cannot inject a command.

use std::process::Command;

use goccia_trust::core::env::Env;
use goccia_trust::core::paths::display::{common_directory, display_path, shell_quote};
use goccia_trust::core::paths::key::{is_under, trust_key_for_path};
use goccia_trust::core::paths::{expand_file_name, file_name, parent_dir};
use proptest::prelude::*;

use crate::harness::{self, bounded};

fn path_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[~./\\\\a-z]{0,16}",
        "(/|~|~/|\\.\\./|\\./)?([a-z.]{0,3}/){0,5}(\\.\\.|\\.|[a-z]{0,3})/?",
        harness::text(24),
    ]
}

fn home() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("/".to_string()),
        Just("/home/u".to_string()),
        Just("/home/u/".to_string()),
        Just("relative/home".to_string()),
        harness::text(12),
    ]
}

proptest! {
    #![proptest_config(harness::config(512))]

    #[test]
    fn expansion_is_absolute_and_bounded(
        path in path_text(),
        cwd in "/[a-z/]{0,12}",
        home in home(),
    ) {
        let expanded = bounded("expand_file_name", {
            let (path, cwd, home) = (path.clone(), cwd.clone(), home.clone());
            move || expand_file_name(&path, &cwd, &home)
        });
        prop_assert!(expanded.len() <= path.len() + cwd.len() + home.len() + 2);
        // Relative to an absolute cwd, or from an absolute $HOME, the result
        // is absolute; a relative $HOME is the caller's own risk.
        if home.starts_with('/') || !path.starts_with('~') {
            prop_assert!(expanded.starts_with('/'), "{:?} -> {:?}", path, expanded);
        }
        let _ = (parent_dir(&expanded), file_name(&expanded));
        let _ = display_path(&path, &cwd);
        let _ = common_directory([expanded.as_str(), path.as_str(), cwd.as_str()]);
        prop_assert!(is_under(&expanded, "/") || !expanded.starts_with('/'));
        let env = Env {
            cwd,
            home,
            xdg_config_home: String::new(),
            xdg_state_home: String::new(),
        };
        let key = bounded("trust_key_for_path", move || trust_key_for_path(&path, &env));
        prop_assert!(!key.as_str().is_empty());
    }
}

proptest! {
    #![proptest_config(harness::config(32))]

    /// `sh` reads each quoted argument back as the exact text (one shell
    /// per case, many arguments each).
    #[test]
    fn shell_quoting_gives_the_shell_back_the_exact_text(
        args in prop::collection::vec(harness::text(16), 1..24),
    ) {
        // A NUL cannot be in an argument at all.
        let args: Vec<String> = args.into_iter().map(|a| a.replace('\0', "")).collect();
        let quoted: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
        let script = format!("printf '%s\\0' {}", quoted.join(" "));
        let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
        prop_assert!(out.status.success(), "{}", script);
        let got: Vec<String> = out
            .stdout
            .split(|&b| b == 0)
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect();
        prop_assert_eq!(&got[..got.len() - 1], &args[..], "{}", script);
    }
}
