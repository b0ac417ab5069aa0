//! The commands: each operation of each game, done by the game through
//! the registry's table and printed here, as text or JSON.

mod bench;
mod play;
mod serve;

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::Context;
use solved_games::front::{Answer, Game};
use solved_games::params::Params;
use solved_games::registry::Operation;

use crate::args::{Command, Invocation};
use crate::config::Config;
use crate::files::CommandLineFiles;
use crate::host::Terminal;
use crate::output;
use crate::progress;

pub fn run(
    invocation: Invocation,
    games: &[&'static dyn Game],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let config = Config::resolve(&invocation)?;
    progress::handle_interrupts();
    match invocation.command {
        Command::Serve { addr, budget, log } => serve::serve(&config, games, addr, budget, log.as_deref()),
        Command::Machine { buffer_bytes, json } => bench::machine(buffer_bytes, json, out),
        Command::BenchRun { game, pairs } => {
            let params = Params::new(pairs, game.info().fields, &CommandLineFiles)?;
            bench::run_once(game, &params, out)
        }
        Command::Game { operation, game, pairs, json } => {
            let supported = game.info().operation(operation).context("the game does not support this operation")?;
            let params = Params::new(pairs, supported.fields, &CommandLineFiles)?;
            if operation == Operation::Play {
                let session = game.session(&params, &Terminal::new(&config.store, operation))?;
                return play::run(session, input, out);
            }
            if operation == Operation::Bench
                && let Some(timed) = game.timed_solve(&params)?
            {
                return bench::bench(game, &params, timed.key, &config, json, out);
            }
            let host = Terminal::new(&config.store, operation);
            let answer = game.answer(operation, &params, &host)?;
            // The progress bar goes before the answer is printed.
            drop(host);
            print(&*answer, json, out)
        }
    }
}

/// Prints `answer` as text or JSON, and turns it into the exit status: 1 if
/// what it checked does not hold.
fn print(answer: &dyn Answer, json: bool, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if answer.says_nothing() {
        return Ok(ExitCode::SUCCESS);
    }
    if json {
        output::json(out, answer)?;
    } else {
        output::print(out, &answer.text())?;
    }
    Ok(if answer.holds() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
