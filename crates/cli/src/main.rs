//! The `solved` command line, with every game of the registry.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use solved_games::registry::GAMES;

fn main() -> ExitCode {
    solved_cli::main(std::env::args_os(), GAMES, &mut std::io::stdin().lock(), &mut std::io::stdout())
}
