//! Where the store lives (docs/src/compatibility.md#store-location, #blank-paths-and-empty-variables).

use std::path::Path;

use super::error::StoreError;
use crate::core::env::Env;
use crate::core::paths::expand_file_name;
use crate::core::paths::platform::{Platform, StoreVars};

/// The store file a command works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreLocation {
    /// The absolute path of the store file.
    pub path: String,
    /// The per-user default store, whose directory is ours and is made
    /// private (0700) again on every save. A `--trust-store` directory
    /// belongs to the user and is left as it is.
    pub is_default: bool,
    /// `--trust-store=<path>` exactly as typed, to repeat it in suggested
    /// commands.
    pub as_typed: Option<String>,
}

impl StoreLocation {
    /// `<store>.lock`, the file writers hold an exclusive OS lock on.
    pub fn lock_path(&self) -> String {
        format!("{}.lock", self.path)
    }

    /// The directory holding the store, its lock and its temporary file:
    /// the directory no config may be granted (docs/src/compatibility.md#no-approval-from-the-environment).
    pub fn dir(&self) -> &std::path::Path {
        std::path::Path::new(&self.path)
            .parent()
            .unwrap_or(std::path::Path::new("/"))
    }
}

/// `--trust-store=<path>` (already checked non-empty by the caller) goes
/// through Free Pascal's `ExpandFileName`, so `\` becomes `/` and `~` is
/// expanded; otherwise the per-user default of this platform. No
/// environment variable selects a store: one set by a repository's tooling
/// could point at a store it pre-trusted.
pub fn locate_store(trust_store_arg: Option<&str>, env: &Env) -> Result<StoreLocation, StoreError> {
    let Some(arg) = trust_store_arg else {
        let path = default_store_path(env).map_err(|problem| StoreError::Unlocatable {
            problem: problem.into(),
        })?;
        return Ok(StoreLocation {
            path,
            is_default: true,
            as_typed: None,
        });
    };
    let path = expand_file_name(arg, &env.cwd, &env.home);
    // Refused up front: the trust commands must fail before they list
    // anything or ask for confirmation (docs/src/compatibility.md#store-location).
    if Path::new(&path).is_dir() {
        return Err(StoreError::IsDirectory { path });
    }
    Ok(StoreLocation {
        path,
        is_default: false,
        as_typed: Some(arg.to_string()),
    })
}

/// This platform's per-user default store, or why there is none.
fn default_store_path(env: &Env) -> Result<String, &'static str> {
    Platform::CURRENT.default_store(&StoreVars {
        home: &env.home,
        xdg_config_home: &env.xdg_config_home,
        appdata: &env.appdata,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(home: &str, xdg: &str) -> Env {
        Env {
            cwd: "/work/proj".into(),
            home: home.into(),
            xdg_config_home: xdg.into(),
            xdg_state_home: String::new(),
            ..Env::default()
        }
    }

    fn default_path(home: &str, xdg: &str) -> Result<String, String> {
        locate_store(None, &env(home, xdg))
            .map(|l| {
                assert!(l.is_default && l.as_typed.is_none());
                l.path
            })
            .map_err(|e| e.to_string())
    }

    #[cfg(not(target_os = "macos"))]
    #[test]
    fn default_location_follows_xdg_then_home() {
        assert_eq!(
            default_path("/home/u", ""),
            Ok("/home/u/.config/goccia/trust.json".into())
        );
        assert_eq!(
            default_path("/home/u/", ""),
            Ok("/home/u/.config/goccia/trust.json".into())
        );
        assert_eq!(
            default_path("/home/u", "/xdg//"),
            Ok("/xdg/goccia/trust.json".into())
        );
        assert_eq!(
            default_path("/home/u", "/"),
            Ok("//goccia/trust.json".into())
        );
        assert_eq!(
            default_path("/home/u", "relative"),
            Ok("/home/u/.config/goccia/trust.json".into())
        );
        assert_eq!(
            default_path("", "/xdg"),
            Ok("/xdg/goccia/trust.json".into())
        );
        let none =
            "cannot locate the per-user trust store (HOME is not set); pass --trust-store=<path>";
        assert_eq!(default_path("", ""), Err(none.into()));
        assert_eq!(default_path("", "relative"), Err(none.into()));
    }

    #[cfg(target_os = "macos")]
    #[test]
    fn default_location_is_application_support() {
        assert_eq!(
            default_path("/Users/u", "/xdg"),
            Ok("/Users/u/Library/Application Support/Goccia/trust.json".into())
        );
    }

    #[test]
    fn trust_store_argument_is_expanded_like_free_pascal() {
        let e = env("/home/u", "/xdg");
        let loc = locate_store(Some("~/s.json"), &e).unwrap();
        assert_eq!(loc.path, "/home/u/s.json");
        assert!(!loc.is_default);
        assert_eq!(loc.as_typed.as_deref(), Some("~/s.json"));
        assert_eq!(
            locate_store(Some("a\\b/../t.json"), &e).unwrap().path,
            "/work/proj/a/t.json"
        );
        // Works without HOME: the default is never consulted.
        assert_eq!(
            locate_store(Some("/s/t.json"), &env("", "")).unwrap().path,
            "/s/t.json"
        );
    }

    #[test]
    fn trust_store_argument_naming_a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let arg = dir.path().to_str().unwrap();
        let err = locate_store(Some(arg), &env("/home/u", "")).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("trust store {arg} is a directory; --trust-store needs the path of a file")
        );
    }
}
