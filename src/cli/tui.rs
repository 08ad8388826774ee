//! Starting the interactive review from the command line.

use std::path::PathBuf;
use std::sync::Arc;

use crate::cli::Io;
use crate::cli::args::{ColorChoice, GlobalArgs};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::store::locate_store;
use crate::tui::Ending;
use crate::tui::core_backend::CoreBackend;
use crate::tui::theme::{ColorChoice as ThemeColor, load_theme};

/// goccia-trust's own config directory (themes), never the store's.
fn config_dir(env: &Env) -> Option<PathBuf> {
    if env.xdg_config_home.starts_with('/') {
        Some(PathBuf::from(&env.xdg_config_home).join("goccia-trust"))
    } else if env.home.starts_with('/') {
        Some(PathBuf::from(&env.home).join(".config/goccia-trust"))
    } else {
        None
    }
}

pub fn run(g: &GlobalArgs, path: &str, env: &Env, io: &mut Io<'_>) -> u8 {
    let color = match g.color {
        ColorChoice::Auto => ThemeColor::Auto,
        ColorChoice::Always => ThemeColor::Always,
        ColorChoice::Never => ThemeColor::Never,
    };
    let theme = match load_theme(g.theme.as_deref(), color, config_dir(env).as_deref()) {
        Ok(t) => t,
        Err(e) => {
            io.error(e);
            return exit::USAGE;
        }
    };
    // crossterm drops every colour under NO_COLOR on its own; tell it what
    // --color decided, so `--color=always` means colour as documented.
    match g.color {
        ColorChoice::Always => crossterm::style::force_color_output(true),
        ColorChoice::Never => crossterm::style::force_color_output(false),
        ColorChoice::Auto => {}
    }
    let expanded = crate::core::paths::expand_file_name(path, &env.cwd, &env.home);
    if std::fs::metadata(&expanded).is_err() {
        io.error(format!("path not found: {path}"));
        return exit::FAILURE;
    }
    let store = locate_store(g.trust_store.as_deref(), env).map_err(|e| e.to_string());
    let mut backend = CoreBackend::new(env.clone(), store);
    backend.watching = !g.no_watch;
    match crate::tui::run_tui(path, Arc::new(backend), theme) {
        Ok(Ending::Quit) => exit::SUCCESS,
        // The terminal is restored; exit as a shell reports a signal.
        Ok(Ending::Signal(sig)) => (128 + sig) as u8,
        Err(e) => {
            io.error(format!("the interactive review failed: {e}"));
            exit::FAILURE
        }
    }
}
