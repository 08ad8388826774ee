mod cli;
mod tui_entry;

fn main() -> std::process::ExitCode {
    cli::main()
}
