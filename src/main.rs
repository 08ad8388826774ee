// Temporary entry point for the policy gate's own testing; the lead's real
// CLI replaces it and keeps `goccia-trust policy ...` dispatching to
// `cli::policy::run`.
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use goccia_trust::cli::policy::{self, PolicyArgs};
use goccia_trust::core::env::Env;

#[derive(Parser)]
#[command(name = "goccia-trust", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The policy gate (spec/policy-gate.md).
    Policy(PolicyArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let env = match Env::from_process() {
        Ok(env) => env,
        Err(e) => {
            eprintln!("Error: cannot read the working directory: {e}");
            return ExitCode::from(1);
        }
    };
    match cli.command {
        Command::Policy(args) => ExitCode::from(policy::run(&args, &env)),
    }
}
