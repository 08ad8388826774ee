fn main() -> std::process::ExitCode {
    goccia_trust::cli::main()
}
