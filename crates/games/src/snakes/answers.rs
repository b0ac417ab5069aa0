//! What Snakes and Ladders answers, as JSON and as text: a board's
//! analysis, the built-in boards, the benchmark.

use std::fmt::Write;

use num_rational::BigRational;
use serde::Serialize;

use super::{Analysis, Board, Numbering, TOLERANCE, approximate, decimal, fraction};
use crate::front::Answer;
use crate::text::count;

/// Digits after the decimal point in exact expectations' decimals.
const DIGITS: usize = 12;

/// Without `pmf`, the distribution is given until this much of the chance
/// is covered.
const PMF_COVERAGE: f64 = 0.999;

/// An exact rational with its decimal and its nearest float, or infinity.
#[derive(Debug, Serialize)]
struct ExactJson {
    /// The reduced fraction, when asked for.
    exact: Option<String>,
    decimal: Option<String>,
    approximate: Option<f64>,
    infinite: bool,
}

impl ExactJson {
    /// `value`, with its exact forms if `exact`.
    fn new(value: Option<&BigRational>, exact: bool) -> ExactJson {
        let exactly = |v: &BigRational| exact.then(|| fraction(v));
        ExactJson {
            exact: value.and_then(exactly),
            decimal: value.filter(|_| exact).map(|v| decimal(v, DIGITS)),
            approximate: value.map(approximate),
            infinite: value.is_none(),
        }
    }
}

#[derive(Debug, Serialize)]
struct DistributionJson {
    median: Option<u32>,
    mode: Option<u32>,
    p90: Option<u32>,
    p_min: Option<f64>,
    p_min_exact: Option<String>,
    /// The chance the game is still going after the last turn followed.
    tail: f64,
    /// `pmf[t - 1]`: the chance the game ends on turn `t`, for the turns
    /// asked for, else until 99.9 % of the chance is covered.
    pmf: Vec<f64>,
}

#[derive(Debug, Serialize)]
struct SquareJson {
    square: u32,
    /// Exact where every square's expectation was asked for.
    expected_turns: ExactJson,
    /// Where a throw of 1 to 6 takes a token from here, the board's jumps
    /// and overshoot rule followed (none from the goal): what a page moves
    /// tokens by, without the rules of its own.
    throws: Vec<u32>,
}

#[derive(Debug, Serialize)]
struct PlayerJson {
    player: usize,
    chance: f64,
}

/// What `solve` asks to add to the analysis.
#[derive(Clone, Debug)]
pub(super) struct Extras {
    /// Every square's expectation, exactly.
    pub per_square: bool,
    /// The chance of each turn up to this one.
    pub pmf: Option<usize>,
    /// The chances of winning a race of this many players.
    pub players: Option<u32>,
}

/// A board analysed (`solve`, `GET /api/snakes/analyse`).
#[derive(Debug, Serialize)]
pub(super) struct Analysed {
    board: String,
    goal: u32,
    numbering: &'static str,
    overshoot: &'static str,
    /// Every jump, `[from, to]`.
    jumps: Vec<[u32; 2]>,
    min_throws: Option<usize>,
    rolls: Option<Vec<u32>>,
    squares: Option<Vec<u32>>,
    expected_turns: ExactJson,
    distribution: DistributionJson,
    /// Expected turns from each position (infinite where the goal may
    /// never be reached).
    per_square: Vec<SquareJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    players: Option<Vec<PlayerJson>>,
    seconds: f64,
    #[serde(skip)]
    text: String,
}

impl Analysed {
    pub(super) fn new(
        board: &Board,
        analysis: &Analysis,
        extras: &Extras,
        players: Option<&[f64]>,
        seconds: f64,
    ) -> Analysed {
        let d = &analysis.distribution;
        let pmf = match extras.pmf {
            Some(turns) => d.pmf.iter().take(turns).copied().collect(),
            None => {
                let mut covered = 0.0;
                d.pmf
                    .iter()
                    .copied()
                    .take_while(|&p| {
                        let more = covered < PMF_COVERAGE;
                        covered += p;
                        more
                    })
                    .collect()
            }
        };
        Analysed {
            board: board.name().into(),
            goal: board.goal(),
            numbering: board.numbering().id(),
            overshoot: board.overshoot().id(),
            jumps: board.jumps().iter().map(|(&from, &to)| [from, to]).collect(),
            min_throws: analysis.shortest.as_ref().map(|s| s.rolls.len()),
            rolls: analysis.shortest.as_ref().map(|s| s.rolls.clone()),
            squares: analysis.shortest.as_ref().map(|s| s.squares.clone()),
            expected_turns: ExactJson::new(analysis.expectation.from_start.as_ref(), true),
            distribution: DistributionJson {
                median: d.median,
                mode: d.mode,
                p90: d.p90,
                p_min: d.p_min.as_ref().map(approximate),
                p_min_exact: d.p_min.as_ref().map(fraction),
                tail: d.tail,
                pmf,
            },
            per_square: analysis
                .expectation
                .per_square
                .iter()
                .enumerate()
                .map(|(square, e)| {
                    let square = square as u32;
                    let throws = match square == board.goal() {
                        true => Vec::new(),
                        false => (1..=6).map(|roll| board.step(square, roll)).collect(),
                    };
                    SquareJson { square, expected_turns: ExactJson::new(e.as_ref(), extras.per_square), throws }
                })
                .collect(),
            players: players.map(|chances| {
                chances.iter().enumerate().map(|(i, &chance)| PlayerJson { player: i + 1, chance }).collect()
            }),
            seconds,
            text: text(board, analysis, extras, players, seconds),
        }
    }
}

impl Answer for Analysed {
    fn text(&self) -> String {
        self.text.clone()
    }
}

fn text(board: &Board, analysis: &Analysis, extras: &Extras, players: Option<&[f64]>, seconds: f64) -> String {
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
    if let Some(t) = extras.pmf {
        for (i, p) in d.pmf.iter().take(t).enumerate() {
            let _ = writeln!(text, "  P(ends on turn {}) = {p:.6e}", i + 1);
        }
        if t > d.pmf.len() {
            let _ = writeln!(text, "  (after turn {}, less than {TOLERANCE:e} of the chance is left)", d.pmf.len());
        }
    }
    if extras.per_square {
        for (square, e) in analysis.expectation.per_square.iter().enumerate() {
            let _ = writeln!(text, "  from {square}: {}", e.as_ref().map_or("infinite".into(), |e| decimal(e, 6)));
        }
    }
    if let Some(chances) = players {
        for (i, chance) in chances.iter().enumerate() {
            let _ = writeln!(text, "player {} wins with chance {chance:.6}", i + 1);
        }
    }
    let _ = writeln!(text, "time: {seconds:.3} s");
    text
}

/// The built-in boards' names (`boards`, `GET /api/snakes/boards`).
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub(super) struct Boards(pub &'static [&'static str]);

impl Answer for Boards {
    fn text(&self) -> String {
        self.0.iter().map(|name| format!("{name}\n")).collect()
    }
}

/// One board timed.
#[derive(Debug, Serialize)]
pub(super) struct BenchCaseJson {
    pub board: String,
    pub median_seconds: f64,
    pub fastest_seconds: f64,
    pub numerator_digits: usize,
    pub expected_turns: Option<String>,
}

/// The exact expectation of the benchmark boards, timed (`bench`).
#[derive(Debug, Serialize)]
pub(super) struct Bench {
    pub runs: u32,
    pub cases: Vec<BenchCaseJson>,
}

impl Answer for Bench {
    fn text(&self) -> String {
        let mut text = String::new();
        for r in &self.cases {
            let _ = writeln!(
                text,
                "{}: median {:.1} ms, fastest {:.1} ms over {} runs; expected turns {} (numerator of {} digits)",
                r.board,
                1e3 * r.median_seconds,
                1e3 * r.fastest_seconds,
                self.runs,
                r.expected_turns.as_deref().unwrap_or("infinite"),
                r.numerator_digits
            );
        }
        text
    }
}
