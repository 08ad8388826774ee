//! The process environment, read once. Every variable the program reads
//! (`HOME`, `XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `APPDATA`, `LOCALAPPDATA`,
//! `GOCCIA_TRUST_STATE_DIR`, `NO_COLOR`, `TERM`, `CLICOLOR`,
//! `CLICOLOR_FORCE`, `VISUAL`, `EDITOR`, `GITHUB_REPOSITORY`,
//! `GITHUB_SERVER_URL`) and the working directory are
//! captured here by [`Env::from_process`], so every rule can be tested with a
//! fixed environment without touching the process's own. The per-user
//! directories of goccia-trust itself come from [`Env::user_dir`]; the
//! trust store's location keeps GocciaScript's own rules
//! (`core::store::locate_store`).

use std::path::PathBuf;

/// What the program reads from the environment. Like Free Pascal's
/// `GetEnvironmentVariable`, an unset variable and an empty one are both `""`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Env {
    /// The working directory, as `getcwd` reports it (absolute, links resolved).
    pub cwd: String,
    /// `$HOME`, or `""`.
    pub home: String,
    /// `$XDG_CONFIG_HOME`, or `""`.
    pub xdg_config_home: String,
    /// `$XDG_STATE_HOME`, or `""` (goccia-trust's own state, never the store's).
    pub xdg_state_home: String,
    /// `%APPDATA%` (Windows' roaming per-user directory), or `""`.
    pub appdata: String,
    /// `%LOCALAPPDATA%` (Windows' local per-user directory), or `""`.
    pub local_appdata: String,
    /// `$GOCCIA_TRUST_STATE_DIR`, or `""`: where policy records go.
    pub state_dir: String,
    /// `$NO_COLOR` is set and not empty (no-color.org).
    pub no_color: bool,
    /// `$TERM` is `dumb`: a terminal that takes no escape sequences.
    pub term_dumb: bool,
    /// `$CLICOLOR` is `0`: no colour, even on a terminal
    /// (bixense.com/clicolors).
    pub clicolor_off: bool,
    /// `$CLICOLOR_FORCE` is set, not empty and not `0`: colour even when
    /// the stream is not a terminal.
    pub clicolor_force: bool,
    /// The editor the review's `e` runs: `$VISUAL`, else `$EDITOR` (the
    /// first that is not blank), else `""` (see [`Env::editor`]).
    pub editor: String,
    /// `$GITHUB_REPOSITORY` (`owner/name`, set by GitHub Actions), or
    /// `""`: where `diff --format markdown` links a commit.
    pub github_repository: String,
    /// `$GITHUB_SERVER_URL` (`https://github.com` or an Enterprise
    /// server), or `""`.
    pub github_server_url: String,
}

/// A per-user directory of goccia-trust's own (never the trust store's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserDir {
    /// Settings it reads: the TUI's themes.
    Config,
    /// What it writes for itself: policy decision records.
    State,
}

impl Env {
    /// Reads the real process environment.
    pub fn from_process() -> std::io::Result<Env> {
        let cwd = std::env::current_dir()?;
        let var = |name: &str| {
            std::env::var_os(name)
                .map(|v| v.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        Ok(Env {
            cwd: cwd.to_string_lossy().into_owned(),
            home: var("HOME"),
            xdg_config_home: var("XDG_CONFIG_HOME"),
            xdg_state_home: var("XDG_STATE_HOME"),
            appdata: var("APPDATA"),
            local_appdata: var("LOCALAPPDATA"),
            state_dir: var("GOCCIA_TRUST_STATE_DIR"),
            no_color: !var("NO_COLOR").is_empty(),
            term_dumb: var("TERM") == "dumb",
            clicolor_off: var("CLICOLOR") == "0",
            clicolor_force: !matches!(var("CLICOLOR_FORCE").as_str(), "" | "0"),
            editor: ["VISUAL", "EDITOR"]
                .into_iter()
                .map(var)
                .find(|e| !e.trim().is_empty())
                .unwrap_or_default(),
            github_repository: var("GITHUB_REPOSITORY"),
            github_server_url: var("GITHUB_SERVER_URL"),
        })
    }

    /// Whether output is coloured under `--color=auto` on a stream that is
    /// (or is not) a terminal: never under `NO_COLOR`, which wins over
    /// everything but `--color=always`; always under `CLICOLOR_FORCE`;
    /// otherwise on a terminal, unless it is `TERM=dumb` or `CLICOLOR=0`
    /// says no.
    pub fn auto_colour(&self, is_terminal: bool) -> bool {
        if self.no_color {
            return false;
        }
        if self.clicolor_force {
            return true;
        }
        is_terminal && !self.term_dumb && !self.clicolor_off
    }

    /// The command the review's `e` runs a config through (with `sh -c`):
    /// `$VISUAL`, else `$EDITOR`, else `vi`, as most terminal tools do.
    pub fn editor(&self) -> &str {
        if self.editor.is_empty() {
            "vi"
        } else {
            &self.editor
        }
    }

    /// A working directory and home, every other variable unset: for tests.
    #[cfg(any(test, feature = "test-support"))]
    pub fn at(cwd: &str, home: &str) -> Env {
        Env {
            cwd: cwd.into(),
            home: home.into(),
            ..Env::default()
        }
    }

    /// goccia-trust's own per-user directory of `kind`, by the platform's
    /// convention, or `None` when the environment names none:
    ///
    /// - Linux and the BSDs (XDG): `$XDG_CONFIG_HOME/goccia-trust` or
    ///   `$XDG_STATE_HOME/goccia-trust` when absolute (a relative one is
    ///   invalid per the XDG spec), else `~/.config/goccia-trust` or
    ///   `~/.local/state/goccia-trust`;
    /// - macOS: the XDG variable when absolute (an explicit choice), else
    ///   `~/Library/Application Support/goccia-trust` (config) and
    ///   `~/Library/Application Support/goccia-trust/state` (state);
    /// - Windows: `%APPDATA%\goccia-trust` (config) and
    ///   `%LOCALAPPDATA%\goccia-trust` (state).
    ///
    /// A `HOME` that is empty or relative counts as unset.
    pub fn user_dir(&self, kind: UserDir) -> Option<PathBuf> {
        if cfg!(windows) {
            let base = match kind {
                UserDir::Config => &self.appdata,
                UserDir::State => &self.local_appdata,
            };
            return (!base.is_empty()).then(|| PathBuf::from(base).join("goccia-trust"));
        }
        let xdg = match kind {
            UserDir::Config => &self.xdg_config_home,
            UserDir::State => &self.xdg_state_home,
        };
        if xdg.starts_with('/') {
            return Some(PathBuf::from(xdg).join("goccia-trust"));
        }
        if !self.home.starts_with('/') {
            return None;
        }
        let home = PathBuf::from(&self.home);
        Some(match (cfg!(target_os = "macos"), kind) {
            (true, UserDir::Config) => home.join("Library/Application Support/goccia-trust"),
            (true, UserDir::State) => home.join("Library/Application Support/goccia-trust/state"),
            (false, UserDir::Config) => home.join(".config/goccia-trust"),
            (false, UserDir::State) => home.join(".local/state/goccia-trust"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The colour conventions (issue 33): NO_COLOR wins over
    /// CLICOLOR_FORCE, which wins over the stream; TERM=dumb and
    /// CLICOLOR=0 turn a terminal's colour off.
    #[test]
    fn auto_colour_follows_the_conventions() {
        let base = Env::default();
        assert!(base.auto_colour(true));
        assert!(!base.auto_colour(false));
        let dumb = Env {
            term_dumb: true,
            ..Env::default()
        };
        assert!(!dumb.auto_colour(true));
        let off = Env {
            clicolor_off: true,
            ..Env::default()
        };
        assert!(!off.auto_colour(true));
        let force = Env {
            clicolor_force: true,
            term_dumb: true,
            clicolor_off: true,
            ..Env::default()
        };
        assert!(force.auto_colour(false) && force.auto_colour(true));
        let none = Env {
            no_color: true,
            ..force
        };
        assert!(!none.auto_colour(true) && !none.auto_colour(false));
    }

    #[test]
    fn the_editor_is_vi_when_neither_visual_nor_editor_names_one() {
        let mut e = Env::at("/w", "/home/u");
        assert_eq!(e.editor(), "vi");
        e.editor = "code --wait".into();
        assert_eq!(e.editor(), "code --wait");
    }

    fn env(home: &str, config: &str, state: &str) -> Env {
        Env {
            xdg_config_home: config.into(),
            xdg_state_home: state.into(),
            ..Env::at("/w", home)
        }
    }

    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn user_dirs_follow_xdg_then_home() {
        let dir = |e: &Env, k| e.user_dir(k).map(|p| p.to_string_lossy().into_owned());
        let e = env("/home/u", "", "");
        assert_eq!(
            dir(&e, UserDir::Config).as_deref(),
            Some("/home/u/.config/goccia-trust")
        );
        assert_eq!(
            dir(&e, UserDir::State).as_deref(),
            Some("/home/u/.local/state/goccia-trust")
        );
        let e = env("/home/u", "/xc", "/xs");
        assert_eq!(
            dir(&e, UserDir::Config).as_deref(),
            Some("/xc/goccia-trust")
        );
        assert_eq!(dir(&e, UserDir::State).as_deref(), Some("/xs/goccia-trust"));
        // Relative XDG values are invalid and ignored; a relative HOME is unset.
        let e = env("/home/u", "xc", "xs");
        assert_eq!(
            dir(&e, UserDir::Config).as_deref(),
            Some("/home/u/.config/goccia-trust")
        );
        assert_eq!(
            dir(&e, UserDir::State).as_deref(),
            Some("/home/u/.local/state/goccia-trust")
        );
        assert_eq!(dir(&env("", "", ""), UserDir::State), None);
        assert_eq!(dir(&env("home", "", ""), UserDir::Config), None);
    }
}
