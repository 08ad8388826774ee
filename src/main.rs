fn main() -> std::process::ExitCode {
    goccia_trust::main()
}
