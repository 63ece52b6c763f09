//! The `statespace` binary: the command line ([`statespace_cli`]) with the built-in puzzles
//! ([`statespace_builtins`]).

fn main() -> std::process::ExitCode {
    statespace_cli::run(statespace_builtins::builtins())
}
