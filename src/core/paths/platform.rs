//! The rules GocciaScript documents per platform, as pure functions of the
//! platform (docs/src/compatibility.md#the-trust-key, #store-location, #the-untrusted-run-report),
//! so the rules of all three are unit-tested on any host and
//! the running build picks its own with [`Platform::CURRENT`].
//!
//! Not modelled, as in the reference (docs/src/compatibility.md#uncertain-points): Windows drive letters and
//! separators in Free Pascal's path expansion, and case folding beyond
//! ASCII. Where that leaves a choice, the conservative one is taken: keys
//! fold only ASCII case, so two keys that differ in any other way are two
//! entries (a trust never covers a config it was not given for).

use std::borrow::Cow;

/// A platform family whose trust rules differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Linux and the BSDs.
    Unix,
    MacOs,
    Windows,
}

impl Platform {
    /// The platform this build runs on.
    pub const CURRENT: Platform = if cfg!(windows) {
        Platform::Windows
    } else if cfg!(target_os = "macos") {
        Platform::MacOs
    } else {
        Platform::Unix
    };

    /// Keys compare exactly on Linux/BSD and ignoring ASCII case on macOS
    /// and Windows (docs/src/compatibility.md#the-trust-key).
    pub fn folds_case(self) -> bool {
        !matches!(self, Platform::Unix)
    }

    /// The form of a trust key that equal keys share: the key itself, or
    /// its ASCII lower case where keys compare case-insensitively.
    pub fn fold_key(self, key: &str) -> Cow<'_, str> {
        if self.folds_case() && key.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(key.to_ascii_lowercase())
        } else {
            Cow::Borrowed(key)
        }
    }

    /// Whether two trust keys name the same store entry.
    pub fn keys_equal(self, a: &str, b: &str) -> bool {
        if self.folds_case() {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    }

    /// `path` relative to `dir` when it lies strictly under it, compared as
    /// keys are (byte prefix on Linux, ASCII case-insensitive on macOS and
    /// Windows, docs/src/compatibility.md#the-untrusted-run-report); the remainder keeps the path's own spelling.
    pub fn strip_dir<'a>(self, path: &'a str, dir: &str) -> Option<&'a str> {
        let prefix: &str = if dir == "/" { "" } else { dir };
        let head = path.get(..prefix.len())?;
        if !self.keys_equal(head, prefix) {
            return None;
        }
        path[prefix.len()..]
            .strip_prefix('/')
            .filter(|rest| !rest.is_empty())
    }

    /// The per-user default store (docs/src/compatibility.md#store-location), or the problem that names why
    /// there is none: `HOME is not set`, `APPDATA is not set`. Each takes
    /// the environment's values as GocciaScript reads them: an empty
    /// variable counts as unset (docs/src/compatibility.md#blank-paths-and-empty-variables).
    pub fn default_store(self, vars: &StoreVars<'_>) -> Result<String, &'static str> {
        match self {
            Platform::Unix => {
                if vars.xdg_config_home.starts_with('/') {
                    Ok(format!(
                        "{}/goccia/trust.json",
                        trim_trailing(vars.xdg_config_home, &['/'])
                    ))
                } else if !vars.home.is_empty() {
                    Ok(format!(
                        "{}/.config/goccia/trust.json",
                        trim_trailing(vars.home, &['/'])
                    ))
                } else {
                    Err("HOME is not set")
                }
            }
            Platform::MacOs if vars.home.is_empty() => Err("HOME is not set"),
            Platform::MacOs => Ok(format!(
                "{}/Library/Application Support/Goccia/trust.json",
                trim_trailing(vars.home, &['/'])
            )),
            Platform::Windows if vars.appdata.is_empty() => Err("APPDATA is not set"),
            Platform::Windows => Ok(format!(
                "{}\\Goccia\\trust.json",
                trim_trailing(vars.appdata, &['\\', '/'])
            )),
        }
    }
}

/// The environment variables the default store's location depends on.
#[derive(Debug, Clone, Copy, Default)]
pub struct StoreVars<'a> {
    pub home: &'a str,
    pub xdg_config_home: &'a str,
    pub appdata: &'a str,
}

/// GocciaScript trims trailing separators only while more than one
/// character is left, so `XDG_CONFIG_HOME=/` gives `//goccia/trust.json`.
fn trim_trailing<'a>(dir: &'a str, separators: &[char]) -> &'a str {
    let mut end = dir.len();
    while end > 1 && dir[..end].ends_with(separators) {
        end -= 1;
    }
    &dir[..end]
}

#[cfg(test)]
mod tests {
    use super::Platform::{MacOs, Unix, Windows};
    use super::*;

    fn store(p: Platform, home: &str, xdg: &str, appdata: &str) -> Result<String, &'static str> {
        p.default_store(&StoreVars {
            home,
            xdg_config_home: xdg,
            appdata,
        })
    }

    #[test]
    fn the_current_platform_is_the_build_target() {
        #[cfg(all(unix, not(target_os = "macos")))]
        assert_eq!(Platform::CURRENT, Unix);
        #[cfg(target_os = "macos")]
        assert_eq!(Platform::CURRENT, MacOs);
        #[cfg(windows)]
        assert_eq!(Platform::CURRENT, Windows);
    }

    #[test]
    fn unix_store_follows_xdg_then_home() {
        let at = |home, xdg| store(Unix, home, xdg, "C:\\ignored");
        assert_eq!(
            at("/home/u", ""),
            Ok("/home/u/.config/goccia/trust.json".into())
        );
        assert_eq!(
            at("/home/u/", ""),
            Ok("/home/u/.config/goccia/trust.json".into())
        );
        assert_eq!(at("/home/u", "/xdg//"), Ok("/xdg/goccia/trust.json".into()));
        assert_eq!(at("/home/u", "/"), Ok("//goccia/trust.json".into()));
        assert_eq!(
            at("/home/u", "relative"),
            Ok("/home/u/.config/goccia/trust.json".into())
        );
        assert_eq!(at("", "/xdg"), Ok("/xdg/goccia/trust.json".into()));
        assert_eq!(at("", ""), Err("HOME is not set"));
        assert_eq!(at("", "relative"), Err("HOME is not set"));
    }

    #[test]
    fn macos_store_is_in_application_support_and_ignores_xdg() {
        let at = |home, xdg| store(MacOs, home, xdg, "");
        assert_eq!(
            at("/Users/u", "/xdg"),
            Ok("/Users/u/Library/Application Support/Goccia/trust.json".into())
        );
        assert_eq!(
            at("/Users/u/", ""),
            Ok("/Users/u/Library/Application Support/Goccia/trust.json".into())
        );
        assert_eq!(at("", "/xdg"), Err("HOME is not set"));
    }

    #[test]
    fn windows_store_is_under_appdata_and_ignores_home() {
        let at = |home, appdata| store(Windows, home, "/xdg", appdata);
        assert_eq!(
            at("C:\\Users\\u", "C:\\Users\\u\\AppData\\Roaming"),
            Ok("C:\\Users\\u\\AppData\\Roaming\\Goccia\\trust.json".into())
        );
        assert_eq!(
            at("", "C:\\Users\\u\\AppData\\Roaming\\"),
            Ok("C:\\Users\\u\\AppData\\Roaming\\Goccia\\trust.json".into())
        );
        assert_eq!(at("C:\\Users\\u", ""), Err("APPDATA is not set"));
    }

    #[test]
    fn keys_fold_ascii_case_on_macos_and_windows_only() {
        let (a, b) = ("/Users/u/App/goccia.json", "/users/U/app/GOCCIA.json");
        assert!(!Unix.keys_equal(a, b));
        assert!(MacOs.keys_equal(a, b));
        assert!(Windows.keys_equal(a, b));
        assert_eq!(Unix.fold_key(a), a);
        assert_eq!(MacOs.fold_key(a), MacOs.fold_key(b));
        assert_eq!(Windows.fold_key(a), "/users/u/app/goccia.json");
        // Only ASCII folds: É and é stay two keys everywhere.
        assert!(!MacOs.keys_equal("/x/É", "/x/é"));
        assert!(!Windows.keys_equal("/x/É", "/x/é"));
        // Nothing to fold: borrowed, no allocation per lookup.
        assert!(matches!(MacOs.fold_key("/lower/case"), Cow::Borrowed(_)));
    }

    #[test]
    fn display_prefix_compares_as_keys_do() {
        for p in [Unix, MacOs, Windows] {
            assert_eq!(p.strip_dir("/w/a/goccia.json", "/w"), Some("a/goccia.json"));
            assert_eq!(p.strip_dir("/w", "/w"), None);
            assert_eq!(p.strip_dir("/w/", "/w"), None);
            assert_eq!(p.strip_dir("/wx/a", "/w"), None);
            assert_eq!(p.strip_dir("/a/b", "/"), Some("a/b"));
        }
        assert_eq!(Unix.strip_dir("/Work/A/goccia.json", "/work"), None);
        assert_eq!(
            MacOs.strip_dir("/Work/A/goccia.json", "/work"),
            Some("A/goccia.json")
        );
        assert_eq!(
            Windows.strip_dir("/Work/A/goccia.json", "/work"),
            Some("A/goccia.json")
        );
        // A prefix that would split a multi-byte character is no prefix.
        assert_eq!(MacOs.strip_dir("/éa", "/a"), None);
    }
}
