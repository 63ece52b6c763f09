//! The `statespace` binary: parse arguments, call the library, print, map outcomes to exit codes.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
