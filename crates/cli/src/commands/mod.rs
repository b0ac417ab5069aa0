//! The commands, dispatched in one place.

mod bench;
mod dodgem;

use std::process::ExitCode;

use solved_games::dodgem::Dodgem;

use crate::args::{BenchGame, Cli, Command, PlayGame, ProbeGame, SolveGame, VerifyGame};
use crate::config::{self, Config};
use crate::progress;

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let config = Config::resolve(&cli)?;
    progress::handle_interrupts();
    match cli.command {
        Command::Solve { game: SolveGame::Dodgem { game, output } } => {
            dodgem::solve(&config, &config::dodgem(&game)?, output.json)
        }
        Command::Probe { game: ProbeGame::Dodgem { size, misere, position, moves, output } } => {
            let pos = config::dodgem_position(size, position.as_deref(), moves.as_deref())?;
            dodgem::probe(&config, &Dodgem::new(pos.size().into(), config::objective(misere))?, &pos, output.json)
        }
        Command::Verify { game: VerifyGame::Dodgem { output } } => dodgem::verify(&config, output.json),
        Command::Play { game: PlayGame::Dodgem { game, side, hints, seed } } => {
            dodgem::play(&config, &config::dodgem(&game)?, side, hints, seed)
        }
        Command::Bench { game: BenchGame::Dodgem { game, thread_counts, output } } => {
            bench::bench(&config::dodgem(&game)?, &game, &thread_counts, output.json)
        }
        Command::BenchRun { game: SolveGame::Dodgem { game, .. } } => {
            bench::run_once(&config::game(&config::dodgem(&game)?))
        }
    }
}
