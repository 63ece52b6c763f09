//! The `statespace` binary: the command line ([`statespace_cli`]) with the built-in puzzles.

fn main() -> std::process::ExitCode {
    statespace_cli::run(statespace_cli::builtins())
}
