//! The process environment, read once. Every variable the program reads is
//! listed here ([`VARIABLES`], the man page's ENVIRONMENT), and so is every
//! file of its state directory ([`STATE_FILES`], FILES). The variables of
//! the per-user paths, colour, the editor and GitHub, and the working
//! directory, are
//! captured here by [`Env::from_process`], so every rule can be tested with a
//! fixed environment without touching the process's own. The per-user
//! directories of goccia-trust itself come from [`Env::user_dir`]; the
//! trust store's location keeps GocciaScript's own rules
//! (`core::store::locate_store`).

use std::path::PathBuf;

/// An environment variable the program reads, and what it does there. The
/// code reads each by its constant below, and the man page's ENVIRONMENT
/// section is [`VARIABLES`], so neither can name one the other does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variable {
    pub name: &'static str,
    pub meaning: &'static str,
}

const fn var(name: &'static str, meaning: &'static str) -> Variable {
    Variable { name, meaning }
}

pub const NO_COLOR: Variable = var(
    "NO_COLOR",
    "Set and not empty: no colour (the interactive review uses the mono theme), unless --color=always.",
);
pub const CLICOLOR: Variable = var(
    "CLICOLOR",
    "0: no colour under --color=auto, even on a terminal.",
);
pub const CLICOLOR_FORCE: Variable = var(
    "CLICOLOR_FORCE",
    "Set, not empty and not 0: colour under --color=auto even when the output is not a terminal (NO_COLOR still wins).",
);
pub const TERM: Variable = var(
    "TERM",
    "dumb: a terminal that takes no escape sequences, so no colour under --color=auto.",
);
pub const GOCCIA_TRUST_STATE_DIR: Variable = var(
    "GOCCIA_TRUST_STATE_DIR",
    "The state directory: decision records (trust --policy, policy run), run summaries, the ignore list and the review's progress. Also --state-dir.",
);
pub const GOCCIA_TRUST_GIT_TIMEOUT: Variable = var(
    "GOCCIA_TRUST_GIT_TIMEOUT",
    "Seconds each git process of diff and --since may run before it is stopped (default 60).",
);
pub const GOCCIA_TRUST_HOOK_TIME_LIMIT_MS: Variable = var(
    "GOCCIA_TRUST_HOOK_TIME_LIMIT_MS",
    "Milliseconds the git hooks' check may take before it gives up quietly (default 1000).",
);
pub const GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS: Variable = var(
    "GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS",
    "Milliseconds status --prompt may take before it prints that the check took too long (default 300).",
);
pub const XDG_CONFIG_HOME: Variable = var(
    "XDG_CONFIG_HOME",
    "When absolute: the per-user trust store is $XDG_CONFIG_HOME/goccia/trust.json (GocciaScript's rule) and themes are read from $XDG_CONFIG_HOME/goccia-trust/themes.",
);
pub const XDG_STATE_HOME: Variable = var(
    "XDG_STATE_HOME",
    "When absolute and GOCCIA_TRUST_STATE_DIR is not set: the state directory is $XDG_STATE_HOME/goccia-trust.",
);
pub const HOME: Variable = var(
    "HOME",
    "The base of the per-user paths when the XDG variables are not set; ~ in paths.",
);
pub const APPDATA: Variable = var(
    "APPDATA",
    "On Windows: the store's directory (%APPDATA%\\Goccia) and goccia-trust's own settings.",
);
pub const LOCALAPPDATA: Variable = var(
    "LOCALAPPDATA",
    "On Windows: goccia-trust's own state directory.",
);
pub const VISUAL: Variable = var(
    "VISUAL",
    "The editor the interactive review's e opens a config in (when not blank).",
);
pub const EDITOR: Variable = var("EDITOR", "The editor when VISUAL is blank (else vi).");
pub const GITHUB_REPOSITORY: Variable = var(
    "GITHUB_REPOSITORY",
    "owner/name, set by GitHub Actions: where diff --format markdown links each commit.",
);
pub const GITHUB_SERVER_URL: Variable = var(
    "GITHUB_SERVER_URL",
    "The GitHub server of those links (default https://github.com).",
);
pub const LC_ALL: Variable = var(
    "LC_ALL",
    "The locale, over LC_CTYPE and LANG: one without UTF-8 (C, POSIX, en_US.ISO-8859-1) gives the ASCII fallback (as --ascii); none set counts as UTF-8.",
);
pub const LC_CTYPE: Variable = var(
    "LC_CTYPE",
    "The character set's locale when LC_ALL is not set, over LANG.",
);
pub const LANG: Variable = var(
    "LANG",
    "The locale when neither LC_ALL nor LC_CTYPE is set.",
);
pub const COMPLETE: Variable = var(
    "COMPLETE",
    "bash, zsh, fish, elvish or powershell: answer the shell's completion request instead of running (what completions SHELL registers); empty or 0: run.",
);

pub const PATH: Variable = var(
    "PATH",
    "Where review sign finds ssh-keygen (absolute entries only; one inside a tree under review is refused, not run); passed on to it.",
);
pub const SSH_AUTH_SOCK: Variable = var(
    "SSH_AUTH_SOCK",
    "The ssh-agent that review sign's ssh-keygen signs through (--key naming a .pub file); passed on to it.",
);

/// Every variable the program reads, in the man page's order.
pub const VARIABLES: &[Variable] = &[
    NO_COLOR,
    CLICOLOR,
    CLICOLOR_FORCE,
    TERM,
    GOCCIA_TRUST_STATE_DIR,
    GOCCIA_TRUST_GIT_TIMEOUT,
    GOCCIA_TRUST_HOOK_TIME_LIMIT_MS,
    GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS,
    XDG_CONFIG_HOME,
    XDG_STATE_HOME,
    HOME,
    APPDATA,
    LOCALAPPDATA,
    VISUAL,
    EDITOR,
    GITHUB_REPOSITORY,
    GITHUB_SERVER_URL,
    LC_ALL,
    LC_CTYPE,
    LANG,
    COMPLETE,
    PATH,
    SSH_AUTH_SOCK,
];

/// A file or directory goccia-trust keeps in its state directory, by the
/// name the code joins to that directory, and what it holds; the man
/// page's FILES lists [`STATE_FILES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateFile {
    pub name: &'static str,
    pub meaning: &'static str,
}

pub const DECISIONS_DIR: StateFile = StateFile {
    name: "decisions",
    meaning: "One JSON record per policy decision (trust --yes --policy, policy run).",
};
pub const RUNS_DIR: StateFile = StateFile {
    name: "runs",
    meaning: "One JSON summary per trust --yes --policy run.",
};
pub const IGNORE_FILE: StateFile = StateFile {
    name: "ignored.json",
    meaning: "The configs ignore set aside, each with the SHA-256 it had (unignore, list --ignored).",
};
pub const PROGRESS_FILE: StateFile = StateFile {
    name: "review-progress.json",
    meaning: "Where each tree's interactive review stopped.",
};

/// Every file of the state directory.
pub const STATE_FILES: &[StateFile] = &[DECISIONS_DIR, RUNS_DIR, IGNORE_FILE, PROGRESS_FILE];

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
    /// The locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`) has no UTF-8:
    /// the ASCII fallback ([`locale_is_ascii`]). Never on Windows.
    pub ascii_locale: bool,
}

impl Variable {
    /// The variable's value in the process environment: `""` when unset,
    /// its lossy text when not Unicode.
    pub fn read(self) -> String {
        std::env::var_os(self.name)
            .map(|v| v.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
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
        Ok(Env {
            cwd: cwd.to_string_lossy().into_owned(),
            home: HOME.read(),
            xdg_config_home: XDG_CONFIG_HOME.read(),
            xdg_state_home: XDG_STATE_HOME.read(),
            appdata: APPDATA.read(),
            local_appdata: LOCALAPPDATA.read(),
            state_dir: GOCCIA_TRUST_STATE_DIR.read(),
            no_color: !NO_COLOR.read().is_empty(),
            term_dumb: TERM.read() == "dumb",
            clicolor_off: CLICOLOR.read() == "0",
            clicolor_force: !matches!(CLICOLOR_FORCE.read().as_str(), "" | "0"),
            editor: [VISUAL, EDITOR]
                .into_iter()
                .map(|v| v.read())
                .find(|e| !e.trim().is_empty())
                .unwrap_or_default(),
            github_repository: GITHUB_REPOSITORY.read(),
            github_server_url: GITHUB_SERVER_URL.read(),
            ascii_locale: !cfg!(windows)
                && locale_is_ascii(&LC_ALL.read(), &LC_CTYPE.read(), &LANG.read()),
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

/// Whether a locale name (`LC_ALL`'s, else `LC_CTYPE`'s, else `LANG`'s:
/// the first that is set and not empty) has no UTF-8: `C`, `POSIX`, or a
/// name without `UTF-8`/`utf8` (`en_US.ISO-8859-1`). No locale variable at
/// all is taken as UTF-8, as terminals are today (and as on Windows). The
/// faces then draw their decorations as ASCII (`style::glyphs`).
pub fn locale_is_ascii(lc_all: &str, lc_ctype: &str, lang: &str) -> bool {
    let Some(locale) = [lc_all, lc_ctype, lang].into_iter().find(|v| !v.is_empty()) else {
        return false;
    };
    let lower = locale.to_ascii_lowercase();
    !(lower.contains("utf-8") || lower.contains("utf8"))
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

    #[cfg(unix)]
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

    #[test]
    fn the_locale_decides_in_posix_order() {
        assert!(locale_is_ascii("C", "", ""));
        assert!(locale_is_ascii("", "", "POSIX"));
        assert!(locale_is_ascii("", "en_US.ISO-8859-1", "en_US.UTF-8"));
        assert!(!locale_is_ascii("", "", "en_US.UTF-8"));
        assert!(!locale_is_ascii("C.utf8", "", "C"));
        assert!(!locale_is_ascii("", "", ""));
    }
}
