//! Starting the TUI from the command line.

use crate::cli::Io;
use crate::cli::args::GlobalArgs;
use crate::core::env::Env;

pub fn run(_g: &GlobalArgs, _path: &str, _env: &Env, io: &mut Io<'_>) -> u8 {
    io.error("the interactive review is not wired in yet");
    crate::core::exit::FAILURE
}
