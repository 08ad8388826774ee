//! The global options every command takes (`--trust-store`, `--color`,
//! `--quiet`, ...), below every command module so that a command's
//! context ([`crate::cli::ctx::Ctx`]) carries them without importing the
//! parser of every command's arguments.

use clap::{ArgAction, Args, ValueEnum};

#[derive(Debug, Clone, Default, Args)]
pub struct GlobalArgs {
    /// Use this store file instead of the per-user one.
    #[arg(
        long = "trust-store",
        global = true,
        hide = true,
        value_name = "PATH",
        value_hint = clap::ValueHint::FilePath
    )]
    pub trust_store: Option<String>,
    /// When to colour output: states, `+`/`-`/`~` lines and verdicts, and
    /// the interactive review (`never` gives the mono theme). `auto`: on a
    /// terminal unless TERM=dumb or CLICOLOR=0, anywhere under
    /// CLICOLOR_FORCE, never under NO_COLOR.
    #[arg(long, global = true, hide = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// TUI theme: a built-in name (default, light, high-contrast, mono) or a TOML file.
    #[arg(long, global = true, hide = true, value_name = "NAME|PATH")]
    pub theme: Option<String>,
    /// Draw with ASCII only (separators, markers, box lines): the default
    /// where the locale has no UTF-8 (`LC_ALL=C`).
    #[arg(long, global = true, hide = true, action = ArgAction::SetTrue)]
    pub ascii: bool,
    /// Interactive review: do not refresh when configs change on disk.
    #[arg(long = "no-watch", global = true, hide = true, action = ArgAction::SetTrue)]
    pub no_watch: bool,
    /// Print nothing on stdout but the listing a prompt asks about and what
    /// `trust --yes` records; errors and warnings still go to stderr, and
    /// the exit code is the same.
    #[arg(long, short = 'q', global = true, hide = true, action = ArgAction::SetTrue)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}
