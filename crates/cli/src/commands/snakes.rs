//! Snakes and Ladders' commands: solve, verify, bench.

use std::fmt::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use num_rational::BigRational;
use solved_games::params::Params;
use solved_games::registry::{Kind, Operation};
use solved_games::snakes::{
    self, Analysis, Board, MAX_TURNS, Numbering, Overshoot, TOLERANCE, analyse, approximate, decimal, expected_turns,
    fraction, win_chances,
};

use super::{Request, unsupported, verify_report};
use crate::json::{
    ExactJson, SnakesBenchCaseJson, SnakesBenchJson, SnakesDistributionJson, SnakesPlayerJson, SnakesSolveJson,
    SnakesSquareJson,
};
use crate::output;
use crate::text::count;

/// Digits after the decimal point in printed expectations.
const DIGITS: usize = 12;

pub(super) fn run(request: &Request) -> anyhow::Result<ExitCode> {
    match request.operation {
        Operation::Solve => solve(request),
        Operation::Verify => verify_report(request, Kind::Snakes, &snakes::verify(), String::new(), Vec::new()),
        Operation::Bench => bench(request),
        _ => unsupported(request, Kind::Snakes),
    }
}

/// What `solve` is asked to add to the analysis.
struct Extras {
    per_square: bool,
    pmf: Option<usize>,
    players: Option<u32>,
}

impl Extras {
    fn of(params: &Params) -> anyhow::Result<Extras> {
        let players = params.number::<u32>("players")?;
        if let Some(k) = players.filter(|k| !(1..=100).contains(k)) {
            bail!("--players must be 1 to 100, not {k}");
        }
        let pmf = params.number::<usize>("pmf")?;
        if let Some(t) = pmf.filter(|&t| t > MAX_TURNS) {
            bail!("--pmf {t}: the distribution is followed for at most {MAX_TURNS} turns");
        }
        Ok(Extras { per_square: params.flag("per-square")?, pmf, players })
    }
}

fn exact(value: &Option<BigRational>) -> ExactJson {
    ExactJson {
        exact: value.as_ref().map(fraction),
        decimal: value.as_ref().map(|v| decimal(v, DIGITS)),
        infinite: value.is_none(),
    }
}

fn solve(request: &Request) -> anyhow::Result<ExitCode> {
    let board = Board::from_params(request.params)?;
    let extras = Extras::of(request.params)?;
    let began = Instant::now();
    let analysis = analyse(&board);
    let players = extras.players.map(|k| win_chances(&analysis.distribution, k));
    let seconds = began.elapsed().as_secs_f64();
    if request.json {
        print_json(&board, &analysis, &extras, players.as_deref(), seconds)?;
    } else {
        output::print(&text(&board, &analysis, &extras, players.as_deref(), seconds))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_json(
    board: &Board,
    analysis: &Analysis,
    args: &Extras,
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
            pmf: args.pmf.map(|t| d.pmf.iter().take(t).copied().collect()),
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
    output::json(&report)
}

fn text(board: &Board, analysis: &Analysis, args: &Extras, players: Option<&[f64]>, seconds: f64) -> String {
    let mut text = String::new();
    let positions = match board.numbering() {
        Numbering::Squares => format!("squares 1 to {}, the token starting off the board on 0", board.goal()),
        Numbering::Cells => format!("cells 0 to {}, the token starting on cell 0", board.goal()),
    };
    let ladders = board.jumps().iter().filter(|(from, to)| to > from).count();
    let _ = writeln!(
        text,
        "Board {}: {positions}; {}, {}; a roll past the goal: {}",
        board.name(),
        count(ladders as u64, "ladder"),
        count((board.jumps().len() - ladders) as u64, "snake"),
        board.overshoot().id()
    );
    match &analysis.shortest {
        Some(game) => {
            let rolls: Vec<String> = game.rolls.iter().map(u32::to_string).collect();
            let _ = writeln!(text, "fewest throws: {} (rolls {})", game.rolls.len(), rolls.join(", "));
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
            let _ = writeln!(text, "  {path}");
        }
        None => {
            let _ = writeln!(text, "fewest throws: none, the goal cannot be reached");
        }
    }
    match &analysis.expectation.from_start {
        Some(e) => {
            let _ = writeln!(text, "expected turns: {} = {}", decimal(e, DIGITS), fraction(e));
        }
        None => {
            let _ = writeln!(text, "expected turns: infinite (the token can get where the goal is out of reach)");
        }
    }
    let d = &analysis.distribution;
    let show = |t: Option<u32>| t.map_or("never".to_string(), |t| t.to_string());
    let _ = writeln!(text, "length: median {}, mode {}, 90th percentile {}", show(d.median), show(d.mode), show(d.p90));
    if let Some(p) = &d.p_min {
        let _ = writeln!(text, "chance of the shortest game: {:.6e} = {}", approximate(p), fraction(p));
    }
    if let Some(t) = args.pmf {
        for (i, p) in d.pmf.iter().take(t).enumerate() {
            let _ = writeln!(text, "  P(ends on turn {}) = {p:.6e}", i + 1);
        }
        if t > d.pmf.len() {
            let _ = writeln!(text, "  (after turn {}, less than {TOLERANCE:e} of the chance is left)", d.pmf.len());
        }
    }
    if args.per_square {
        for (square, e) in analysis.expectation.per_square.iter().enumerate() {
            let _ = writeln!(text, "  from {square}: {}", e.as_ref().map_or("infinite".into(), |e| decimal(e, 6)));
        }
    }
    if let Some(chances) = players {
        for (i, chance) in chances.iter().enumerate() {
            let _ = writeln!(text, "player {} wins with chance {chance:.6}", i + 1);
        }
    }
    let _ = writeln!(text, "time: {:.3} s", seconds);
    text
}

/// Times the exact expectation of the two benchmark boards.
fn bench(request: &Request) -> anyhow::Result<ExitCode> {
    let runs = request.params.required("runs", request.params.number::<u32>("runs")?)?;
    if !(1..=1000).contains(&runs) {
        bail!("--runs must be 1 to 1000, not {runs}");
    }
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
    if request.json {
        output::json(&SnakesBenchJson { runs, cases: results })?;
    } else {
        let mut text = String::new();
        for r in &results {
            writeln!(
                text,
                "{}: median {:.1} ms, fastest {:.1} ms over {runs} runs; expected turns {} (numerator of {} digits)",
                r.board,
                1e3 * r.median_seconds,
                1e3 * r.fastest_seconds,
                r.expected_turns.as_deref().unwrap_or("infinite"),
                r.numerator_digits
            )?;
        }
        output::print(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}
