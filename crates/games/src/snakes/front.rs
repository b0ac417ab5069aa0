//! Snakes and Ladders for the front ends: a board analysed, the built-in
//! boards, the benchmark. No tables: every answer is computed from the
//! board alone.

use std::time::Instant;

use super::answers::{Analysed, BenchCaseJson, Boards, Extras};
use super::{BUILT_IN, Board, INFO, MAX_TURNS, Overshoot, analyse, built_in, decimal, expected_turns, generate};
use crate::front::{Answer, Claims, Game, Host, Refused};
use crate::info::{GameInfo, Operation};
use crate::params::{ParamError, Params, Rendered};

/// Snakes and Ladders in the registry.
pub const GAME: &dyn Game = &Snakes;

/// The largest goal analysed on a request someone waits on: keeps it under
/// a second.
const MAX_GOAL_ON_REQUEST: u64 = 400;

#[derive(Debug)]
struct Snakes;

impl Game for Snakes {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn board(&self, params: &Params) -> Result<Rendered, ParamError> {
        Ok(Board::from_params(params)?.to_params())
    }

    fn answer(&self, operation: Operation, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
        Ok(match operation {
            Operation::Solve => solve(params, host)?,
            Operation::Boards => Box::new(Boards(&BUILT_IN)),
            Operation::Verify => Box::new(Claims::new(INFO.id, &super::verify())),
            Operation::Bench => Box::new(bench(params)?),
            _ => anyhow::bail!("Snakes and Ladders has no {} command", operation.name()),
        })
    }
}

impl Extras {
    fn of(params: &Params) -> anyhow::Result<Extras> {
        let players = params.number::<u32>("players")?;
        if let Some(k) = players.filter(|k| !(1..=100).contains(k)) {
            anyhow::bail!("--players must be 1 to 100, not {k}");
        }
        let pmf = params.number::<usize>("pmf")?;
        if let Some(t) = pmf.filter(|&t| t > MAX_TURNS) {
            anyhow::bail!("--pmf {t}: the distribution is followed for at most {MAX_TURNS} turns");
        }
        Ok(Extras { per_square: params.flag("per-square")?, pmf, players })
    }
}

fn solve(params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
    let board = Board::from_params(params)?;
    let extras = Extras::of(params)?;
    if host.serves_requests() && u64::from(board.goal()) > MAX_GOAL_ON_REQUEST {
        anyhow::bail!(Refused(format!(
            "goal {}: the web app analyses boards up to {MAX_GOAL_ON_REQUEST} (the command line goes further)",
            board.goal()
        )));
    }
    // An analysis takes a fifth of a second of both cores; the same board
    // is asked for again and again.
    let key = format!("snakes {:?} {extras:?}", board.to_params());
    host.remember(key, &mut || {
        let began = Instant::now();
        let analysis = analyse(&board);
        let players = extras.players.map(|k| super::win_chances(&analysis.distribution, k));
        let seconds = began.elapsed().as_secs_f64();
        Ok(Box::new(Analysed::new(&board, &analysis, &extras, players.as_deref(), seconds)))
    })
}

/// Times the exact expectation of the two benchmark boards.
fn bench(params: &Params) -> anyhow::Result<super::answers::Bench> {
    let runs = params.required("runs", params.number::<u32>("runs")?)?;
    if !(1..=1000).contains(&runs) {
        anyhow::bail!("--runs must be 1 to 1000, not {runs}");
    }
    let cases = [
        ("milton-bradley (100 squares)", built_in("milton-bradley", Overshoot::Stay).expect("built in")),
        ("generated: 1,000 squares, 150 jumps, seed 1", generate(1000, 150, 1, Overshoot::Stay)),
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
        results.push(BenchCaseJson {
            board: name.to_string(),
            median_seconds: times[times.len() / 2],
            fastest_seconds: times[0],
            numerator_digits: digits,
            expected_turns: expected.as_ref().map(|e| decimal(e, 6)),
        });
    }
    Ok(super::answers::Bench { runs, cases: results })
}
