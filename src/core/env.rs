//! The process environment the core depends on, captured once so that every
//! rule can be tested with a fixed working directory and home.

/// What GocciaScript reads from the environment. Like Free Pascal's
/// `GetEnvironmentVariable`, an unset variable and an empty one are both `""`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Env {
    /// The working directory, as `getcwd` reports it (absolute, links resolved).
    pub cwd: String,
    /// `$HOME`, or `""`.
    pub home: String,
    /// `$XDG_CONFIG_HOME`, or `""`.
    pub xdg_config_home: String,
    /// `$XDG_STATE_HOME`, or `""` (goccia-trust's own state, never the store's).
    pub xdg_state_home: String,
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
        })
    }
}
