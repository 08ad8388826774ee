//! The live demo: README's first command.
//!
//!   cargo run --features demo --bin goccia-trust-demo [-- DIR]
//!
//! A binary target (Cargo.toml), so `cargo run` builds the crate and its
//! dependencies only, none of the dev-dependencies an example needs.
//!
//! Writes `target/demo/` (or DIR) again from the template `examples/demo/`
//! (`goccia_trust::demo`: a tree, a store recorded for this checkout's
//! location by the real `trust`, then changes on disk, a policy) and opens
//! the interactive review on it, as
//!
//!   cd target/demo && GOCCIA_TRUST_STATE_DIR=state \
//!     goccia-trust --trust-store=store/trust.json --policy policy.json tree
//!
//! runs it: the same command line, through the same code, in this process.
//! Piped, it prints what `scan --policy` prints, as the binary does.

use std::path::PathBuf;
use std::process::ExitCode;

use goccia_trust::cli::app::run;
use goccia_trust::cli::io::Io;
use goccia_trust::cli::terminal;
use goccia_trust::core::env::Env;
use goccia_trust::demo::build;

fn main() -> ExitCode {
    let dir = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/demo"),
        PathBuf::from,
    );
    // The directory's name is shown as config text is: escaped (README
    // "What is escaped").
    let escaping = terminal::Escaping::detect();
    let shown = |s: &str| terminal::Values.text(s).into_owned();
    let base = match Env::from_process() {
        Ok(env) => env,
        Err(e) => {
            eprintln!("Error: cannot read the working directory: {e}");
            return ExitCode::from(1);
        }
    };
    let demo = match build(&dir, &base) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("Error: the demo could not be built: {}", shown(&e));
            return ExitCode::from(1);
        }
    };
    // Process and environment agree on the working directory (an editor
    // started with `e`, for one, runs in it).
    if let Err(e) = std::env::set_current_dir(&demo.dir) {
        eprintln!(
            "Error: cannot enter {}: {e}",
            shown(&demo.dir.to_string_lossy())
        );
        return ExitCode::from(1);
    }
    let env = demo.env(&base);
    let code = {
        let (stdout, stderr) = (std::io::stdout(), std::io::stderr());
        let mut out = terminal::SafeWriter::stdout(stdout.lock(), &escaping, None);
        let mut err = terminal::SafeWriter::stderr(stderr.lock(), None);
        let mut io = Io {
            out: &mut out,
            err: &mut err,
            escaping: &escaping,
        };
        run(demo.args(), &env, &mut io)
    };
    eprintln!(
        "The demo is in {}; `cargo run --features demo --bin goccia-trust-demo` writes it again.",
        shown(&demo.dir.to_string_lossy())
    );
    ExitCode::from(code)
}
