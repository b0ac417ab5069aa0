//! Tic-Tac-Chec's commands: census, solve, probe, audit, report.

use std::process::ExitCode;
use std::time::Instant;

use solved_games::tic_tac_chec::{OPENING_POSITIONS, TicTacChec, census as count};

use crate::json::CensusJson;
use crate::progress::Bar;
use crate::text::thousands;

pub fn census(game: &TicTacChec, json: bool) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let census = count(game, &Bar::new())?;
    let seconds = began.elapsed().as_secs_f64();
    if json {
        let report = CensusJson {
            game: "tic-tac-chec",
            pawn: game.rule().id(),
            positions: census.positions,
            edges: census.edges,
            terminal: census.terminal,
            no_move: census.stuck,
            max_moves: census.max_moves,
            opening_positions: OPENING_POSITIONS,
            seconds,
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("Tic-Tac-Chec, pawn rule {}: the post-opening domain (White to move)", game.rule().id());
    println!("positions: {}", thousands(census.positions));
    println!("successor edges: {}", thousands(census.edges));
    println!("terminal positions (a line complete): {}", thousands(census.terminal));
    println!("non-terminal positions with no legal move: {}", thousands(census.stuck));
    println!("most legal moves in one position: {}", census.max_moves);
    println!("opening positions (plies 0 to 5): {}", thousands(OPENING_POSITIONS));
    println!("time: {seconds:.1} s");
    Ok(ExitCode::SUCCESS)
}

pub fn solve(config: &crate::config::Config, game: &TicTacChec, json: bool) -> anyhow::Result<ExitCode> {
    let _ = (config, json);
    let began = Instant::now();
    let positions = solved_games::registry::Game::TicTacChec(game.clone()).solve_in_memory(&Bar::new())?;
    println!("{positions} positions in {:.1} s", began.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
