//! Snakes and Ladders' commands: solve, verify, bench.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use num_rational::BigRational;
use solved_games::snakes::{
    self, Analysis, Board, BoardError, Numbering, Overshoot, analyse, approximate, decimal, expected_turns, fraction,
    win_chances,
};

use super::verify_report;
use crate::args::SnakesArgs;
use crate::json::{
    ExactJson, SnakesBenchCaseJson, SnakesBenchJson, SnakesDistributionJson, SnakesPlayerJson, SnakesSolveJson,
    SnakesSquareJson,
};

/// Digits after the decimal point in printed expectations.
const DIGITS: usize = 12;

/// The board the arguments name, under their overshoot rule.
pub fn board(args: &SnakesArgs) -> anyhow::Result<Board> {
    let overshoot: Overshoot = args.overshoot.parse()?;
    if let (Some(goal), Some(jumps)) = (args.goal, &args.jumps) {
        let numbering: Numbering = args.numbering.parse()?;
        let jumps = snakes::parse_jumps(jumps).context("invalid --jumps")?;
        return Ok(Board::new("inline", goal, numbering, &jumps, overshoot)?);
    }
    let Some(name) = &args.board else { bail!("give --board NAME|FILE, or an inline board with --goal and --jumps") };
    if let Some(board) = snakes::built_in(name, overshoot) {
        return Ok(board);
    }
    let text = match std::fs::read_to_string(name) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(BoardError::Unknown(name.clone()).into());
        }
        Err(error) => return Err(error).with_context(|| format!("cannot read board file {name}")),
    };
    snakes::parse_board(name, &text, overshoot).with_context(|| format!("board file {name}"))
}

fn exact(value: &Option<BigRational>) -> ExactJson {
    ExactJson {
        exact: value.as_ref().map(fraction),
        decimal: value.as_ref().map(|v| decimal(v, DIGITS)),
        infinite: value.is_none(),
    }
}

pub fn solve(args: &SnakesArgs, json: bool) -> anyhow::Result<ExitCode> {
    let board = board(args)?;
    let began = Instant::now();
    let analysis = analyse(&board);
    let players = args.players.map(|k| win_chances(&analysis.distribution, k));
    let seconds = began.elapsed().as_secs_f64();
    if json {
        print_json(&board, &analysis, args, players.as_deref(), seconds)?;
    } else {
        print_text(&board, &analysis, args, players.as_deref(), seconds);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_json(
    board: &Board,
    analysis: &Analysis,
    args: &SnakesArgs,
    players: Option<&[f64]>,
    seconds: f64,
) -> anyhow::Result<()> {
    let d = &analysis.distribution;
    let report = SnakesSolveJson {
        board: board.name().into(),
        goal: board.goal(),
        numbering: board.numbering().id(),
        overshoot: board.overshoot().id(),
        min_throws: analysis.shortest.as_ref().map(|s| s.rolls.len()),
        rolls: analysis.shortest.as_ref().map(|s| s.rolls.clone()),
        squares: analysis.shortest.as_ref().map(|s| s.squares.clone()),
        expected_turns: exact(&analysis.expectation.from_start),
        distribution: SnakesDistributionJson {
            median: d.median,
            mode: d.mode,
            p90: d.p90,
            p_min: d.p_min.as_ref().map(approximate),
            p_min_exact: d.p_min.as_ref().map(fraction),
            tail: d.tail,
            pmf: args.pmf.map(|t| (0..t).map(|i| d.pmf.get(i).copied().unwrap_or(0.0)).collect()),
        },
        per_square: args.per_square.then(|| {
            analysis
                .expectation
                .per_square
                .iter()
                .enumerate()
                .map(|(square, e)| SnakesSquareJson { square: square as u32, expected_turns: exact(e) })
                .collect()
        }),
        players: players.map(|chances| {
            chances.iter().enumerate().map(|(i, &chance)| SnakesPlayerJson { player: i + 1, chance }).collect()
        }),
        seconds,
    };
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}

fn print_text(board: &Board, analysis: &Analysis, args: &SnakesArgs, players: Option<&[f64]>, seconds: f64) {
    let positions = match board.numbering() {
        Numbering::Squares => format!("squares 1 to {}, the token starting off the board on 0", board.goal()),
        Numbering::Cells => format!("cells 0 to {}, the token starting on cell 0", board.goal()),
    };
    let ladders = board.jumps().iter().filter(|(from, to)| to > from).count();
    println!(
        "Board {}: {positions}; {ladders} ladders, {} snakes; a roll past the goal: {}",
        board.name(),
        board.jumps().len() - ladders,
        board.overshoot().id()
    );
    match &analysis.shortest {
        Some(game) => {
            let rolls: Vec<String> = game.rolls.iter().map(u32::to_string).collect();
            println!("fewest throws: {} (rolls {})", game.rolls.len(), rolls.join(", "));
            let mut path = String::from("0");
            let mut previous = 0;
            for &square in &game.squares[1..] {
                let arrow = match board.jumps().get(&previous) {
                    Some(_) if square > previous => " =ladder=> ",
                    Some(_) => " =snake=> ",
                    None => " -> ",
                };
                path.push_str(&format!("{arrow}{square}"));
                previous = square;
            }
            println!("  {path}");
        }
        None => println!("fewest throws: none, the goal cannot be reached"),
    }
    match &analysis.expectation.from_start {
        Some(e) => println!("expected turns: {} = {}", decimal(e, DIGITS), fraction(e)),
        None => println!("expected turns: infinite (the token can get where the goal is out of reach)"),
    }
    let d = &analysis.distribution;
    let show = |t: Option<u32>| t.map_or("never".to_string(), |t| t.to_string());
    println!("length: median {}, mode {}, 90th percentile {}", show(d.median), show(d.mode), show(d.p90));
    if let Some(p) = &d.p_min {
        println!("chance of the shortest game: {:.6e} = {}", approximate(p), fraction(p));
    }
    if let Some(t) = args.pmf {
        for (i, p) in d.pmf.iter().take(t).enumerate() {
            println!("  P(ends on turn {}) = {p:.6e}", i + 1);
        }
    }
    if args.per_square {
        for (square, e) in analysis.expectation.per_square.iter().enumerate() {
            println!("  from {square}: {}", e.as_ref().map_or("infinite".into(), |e| decimal(e, 6)));
        }
    }
    if let Some(chances) = players {
        for (i, chance) in chances.iter().enumerate() {
            println!("player {} wins with chance {chance:.6}", i + 1);
        }
    }
    println!("time: {:.3} s", seconds);
}

pub fn verify(json: bool) -> anyhow::Result<ExitCode> {
    verify_report("snakes", &snakes::verify(), Vec::new(), json)
}

/// Times the exact expectation of the two benchmark boards.
pub fn bench(runs: u32, json: bool) -> anyhow::Result<ExitCode> {
    let cases = [
        ("milton-bradley (100 squares)", snakes::built_in("milton-bradley", Overshoot::Stay).expect("built in")),
        ("generated: 1,000 squares, 150 jumps, seed 1", snakes::generate(1000, 150, 1, Overshoot::Stay)),
    ];
    let mut results = Vec::new();
    for (name, board) in &cases {
        let mut times: Vec<f64> = (0..runs)
            .map(|_| {
                let began = Instant::now();
                let expected = expected_turns(board);
                std::hint::black_box(&expected);
                began.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let expected = expected_turns(board).from_start;
        let digits = expected.as_ref().map_or(0, |e| e.numer().to_string().len());
        results.push(SnakesBenchCaseJson {
            board: name.to_string(),
            median_seconds: times[times.len() / 2],
            fastest_seconds: times[0],
            numerator_digits: digits,
            expected_turns: expected.as_ref().map(|e| decimal(e, 6)),
        });
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&SnakesBenchJson { runs, cases: results })?);
    } else {
        for r in &results {
            println!(
                "{}: median {:.1} ms, fastest {:.1} ms over {runs} runs; expected turns {} (numerator of {} digits)",
                r.board,
                1e3 * r.median_seconds,
                1e3 * r.fastest_seconds,
                r.expected_turns.as_deref().unwrap_or("infinite"),
                r.numerator_digits
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
