//! The `solved` command line: parse, run, report.
//!
//! It is built from a list of games (the registry's
//! [`GAMES`](solved_games::registry::GAMES) for the `solved` binary) and
//! has no code of its own for any of them: each game's operations become
//! subcommands, their fields flags, and the game answers.

#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

mod args;
mod commands;
mod config;
mod files;
mod host;
mod output;
mod progress;

use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::process::ExitCode;

use solved_games::front::Game;

/// Runs the command line `args` (the program's name first) over `games`:
/// what a player types is read from `input`, results are written to
/// `output`, errors and progress to stderr.
pub fn main(
    args: impl IntoIterator<Item = OsString>,
    games: &[&'static dyn Game],
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> ExitCode {
    let invocation = match args::parse_from(args, games) {
        Ok(invocation) => invocation,
        Err(err) => return config::report_usage_error(err),
    };
    match commands::run(invocation, games, input, output) {
        Ok(code) => code,
        Err(err) => config::exit(&err),
    }
}
