//! What every command is given, passed first: the process's environment,
//! the global options and where to write.

use crate::cli::globals::GlobalArgs;
use crate::cli::io::Io;
use crate::core::env::Env;

/// A command's context: `env` (the working directory, home, the
/// environment variables read once), `globals` (`--trust-store`,
/// `--quiet`, ...) and `io` (stdout and stderr).
pub struct Ctx<'a, 'io> {
    pub env: &'a Env,
    pub globals: &'a GlobalArgs,
    pub io: &'a mut Io<'io>,
}

impl<'a, 'io> Ctx<'a, 'io> {
    pub fn new(env: &'a Env, globals: &'a GlobalArgs, io: &'a mut Io<'io>) -> Self {
        Ctx { env, globals, io }
    }
}
