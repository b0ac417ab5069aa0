//! The commands, dispatched in one place.

mod bench;
mod dodgem;
mod dots_and_boxes;
mod serve;
mod snakes;
mod tic_tac_chec;

use std::process::ExitCode;

use anyhow::Context;
use solved_engine::Table;
use solved_games::claims::{ClaimCheck, Verdict};
use solved_games::dodgem::Dodgem;
use solved_games::registry::Game;
use solved_games::tables::Provenance;

use crate::args::{
    AuditGame, BenchGame, CensusGame, Cli, Command, CompactGame, PlayGame, ProbeGame, ReportGame, SolveGame, VerifyGame,
};
use crate::config::{self, Config};
use crate::json::{ClaimJson, RecordMoveJson, VerifyJson};
use crate::progress::{self, Bar};
use crate::text::columns;

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let config = Config::resolve(&cli)?;
    progress::handle_interrupts();
    match cli.command {
        Command::Solve { game: SolveGame::Dodgem { game, output } } => {
            dodgem::solve(&config, &config::dodgem(&game)?, output.json)
        }
        Command::Solve { game: SolveGame::DotsAndBoxes { board, output } } => {
            dots_and_boxes::solve(&config, &config::board(&board)?, output.json)
        }
        Command::Probe { game: ProbeGame::Dodgem { size, misere, position, moves, output } } => {
            let pos = config::dodgem_position(size, position.as_deref(), moves.as_deref())?;
            dodgem::probe(&config, &Dodgem::new(pos.size().into(), config::objective(misere))?, &pos, output.json)
        }
        Command::Probe { game: ProbeGame::DotsAndBoxes { board, moves, diagram, to_move, output } } => {
            let board = config::board(&board)?;
            let to_move = to_move.map(config::boxes_player);
            let (pos, loony) = dots_and_boxes::position(&board, moves.as_deref(), diagram.as_deref(), to_move)?;
            dots_and_boxes::probe(&config, &board, &pos, &loony, output.json)
        }
        Command::Solve { game: SolveGame::Snakes { board, output } } => snakes::solve(&board, output.json),
        Command::Verify { game: VerifyGame::Snakes { output } } => snakes::verify(output.json),
        Command::Bench { game: BenchGame::Snakes { runs, output } } => snakes::bench(runs, output.json),
        Command::BenchRun { game: SolveGame::TicTacChec { rules, .. } } => {
            bench::run_once(&solved_games::registry::Game::TicTacChec(config::chec(&rules)?))
        }
        Command::Bench { game: BenchGame::TicTacChec { rules, thread_counts, output } } => {
            bench::bench(&solved_games::registry::Game::TicTacChec(config::chec(&rules)?), &thread_counts, output.json)
        }
        Command::Solve { game: SolveGame::TicTacChec { rules, output } } => {
            tic_tac_chec::solve(&config, &config::chec(&rules)?, output.json)
        }
        Command::BenchRun { game: SolveGame::Snakes { .. } } => {
            anyhow::bail!("Snakes and Ladders has no table to solve; use bench snakes")
        }
        Command::Census { game: CensusGame::TicTacChec { rules, output } } => {
            tic_tac_chec::census(&config::chec(&rules)?, output.json)
        }
        Command::Probe { game: ProbeGame::TicTacChec { rules, position, output } } => {
            tic_tac_chec::probe(&config, &config::chec(&rules)?, &position, output.json)
        }
        Command::Audit { game: AuditGame::TicTacChec { rules, output } } => {
            tic_tac_chec::audit(&config, &config::chec(&rules)?, output.json)
        }
        Command::Compact { game: CompactGame::TicTacChec { rules, output } } => {
            tic_tac_chec::compact(&config, &config::chec(&rules)?, output.json)
        }
        Command::Report { game: ReportGame::TicTacChec { rules, sections, output } } => {
            tic_tac_chec::report(&config, &config::chec(&rules)?, &sections, output.json)
        }
        Command::Verify { game: VerifyGame::TicTacChec { output } } => tic_tac_chec::verify(&config, output.json),
        Command::Verify { game: VerifyGame::Dodgem { output } } => dodgem::verify(&config, output.json),
        Command::Verify { game: VerifyGame::DotsAndBoxes { output } } => dots_and_boxes::verify(&config, output.json),
        Command::Play { game: PlayGame::Dodgem { game, side, hints, seed } } => {
            dodgem::play(&config, &config::dodgem(&game)?, side, hints, seed)
        }
        Command::Play { game: PlayGame::DotsAndBoxes { board, side, hints, seed } } => {
            dots_and_boxes::play(&config, &config::board(&board)?, config::boxes_player(side), hints, seed)
        }
        Command::Bench { game: BenchGame::Dodgem { game, thread_counts, output } } => {
            bench::bench(&config::game(&config::dodgem(&game)?), &thread_counts, output.json)
        }
        Command::Bench { game: BenchGame::DotsAndBoxes { board, thread_counts, output } } => bench::bench(
            &solved_games::registry::Game::DotsAndBoxes(config::board(&board)?),
            &thread_counts,
            output.json,
        ),
        Command::Serve { addr } => serve::serve(&config, addr),
        Command::BenchRun { game: SolveGame::Dodgem { game, .. } } => {
            bench::run_once(&config::game(&config::dodgem(&game)?))
        }
        Command::BenchRun { game: SolveGame::DotsAndBoxes { board, .. } } => {
            bench::run_once(&solved_games::registry::Game::DotsAndBoxes(config::board(&board)?))
        }
    }
}

/// The table of `game`, from the cache or solved (and saved) first.
fn open_table(config: &Config, game: Game) -> anyhow::Result<(Table, Provenance)> {
    let key = game.table_key();
    let (table, provenance) = game
        .table(&config.store, &Bar::new())
        .with_context(|| format!("cannot get the table of {} {} ({})", game.info().name, key.size, key.variant))?;
    if provenance == Provenance::Solved {
        eprintln!("solved: saved {}", config.store.path(&key).display());
    }
    Ok((table, provenance))
}

/// How a table was had, for a summary's first line.
fn provenance_words(provenance: Provenance) -> &'static str {
    match provenance {
        Provenance::Cached => "loaded from",
        Provenance::Solved => "solved and saved to",
    }
}

/// Prints checked claims as a table (or JSON) and turns them into the exit
/// status: 1 if one that should agree does not. Errata (published items
/// shown to be wrong) and claims out of reach are reported, not failures.
fn verify_report(
    game: &'static str,
    claims: &[ClaimCheck],
    record: Vec<RecordMoveJson>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let all_agree = !claims.iter().any(|c| c.verdict == Verdict::Disagrees);
    if json {
        let report = VerifyJson { game, claims: claims.iter().map(claim_json).collect(), record, all_agree };
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_claims(claims);
        println!("{}", if all_agree { "All claims agree." } else { "SOME CLAIMS DISAGREE." });
    }
    Ok(if all_agree { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn claim_json(c: &ClaimCheck) -> ClaimJson {
    ClaimJson {
        id: c.id.clone(),
        claim: c.claim.clone(),
        source: c.source.clone(),
        published: c.published.clone(),
        ours: c.ours.clone(),
        agrees: c.verdict == Verdict::Agrees,
        erratum: match &c.verdict {
            Verdict::Erratum(note) => Some(note.clone()),
            _ => None,
        },
    }
}

fn print_claims(claims: &[ClaimCheck]) {
    let mut rows = vec![["#", "claim", "source", "published", "ours", "agrees"].map(String::from).to_vec()];
    for c in claims {
        let agrees = match c.verdict {
            Verdict::Agrees => "yes",
            Verdict::Disagrees => "NO",
            Verdict::Erratum(_) => "no: erratum",
            Verdict::NotYetReachable => "not yet",
        };
        rows.push(vec![
            c.id.clone(),
            c.claim.clone(),
            c.source.clone(),
            c.published.clone(),
            c.ours.clone(),
            agrees.into(),
        ]);
    }
    print!("{}", columns(&rows));
    for c in claims {
        if let Verdict::Erratum(note) = &c.verdict {
            println!("erratum in {} ({}): {note}", c.claim, c.source);
        }
    }
}
