//! What `solve` computes about a board: the shortest game, the exact
//! expected length, the distribution of lengths, and races of several
//! players.

use std::collections::VecDeque;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use solved_engine::chain::Chain;

use super::{Board, FACES};

/// One shortest game.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ShortestGame {
    /// The rolls, in order.
    pub rolls: Vec<u32>,
    /// Every square visited: the start, then for each roll the square
    /// landed on and, after a ladder or snake, where it led.
    pub squares: Vec<u32>,
}

/// The expected length of a game.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Expectation {
    /// Turns from the start, exactly; `None` when the goal may never be
    /// reached.
    pub from_start: Option<BigRational>,
    /// Turns from each position (a jump's start shows where it leads).
    pub per_square: Vec<Option<BigRational>>,
}

/// The distribution of the number of turns a game takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// `pmf[t - 1]` is the chance the game ends on turn `t`.
    pub pmf: Vec<f64>,
    /// The chance the game is not over after the last turn of `pmf`.
    pub tail: f64,
    /// The first turn by which the game is over with chance one half or more.
    pub median: Option<u32>,
    /// The most likely turn to end on.
    pub mode: Option<u32>,
    /// The first turn by which the game is over with chance 0.9 or more.
    pub p90: Option<u32>,
    /// The chance of the shortest game, exactly (count over `6^turns`).
    pub p_min: Option<BigRational>,
}

/// Everything about a board.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The shortest game, or `None` if the goal cannot be reached.
    pub shortest: Option<ShortestGame>,
    /// The expected length.
    pub expectation: Expectation,
    /// The length distribution.
    pub distribution: Distribution,
}

/// The turns the distribution is followed for at most.
pub const MAX_TURNS: usize = 100_000;
/// The chance left in play at which the distribution stops.
pub const TOLERANCE: f64 = 1e-12;

/// Analyses `board`.
pub fn analyse(board: &Board) -> Analysis {
    let shortest = shortest_game(board);
    let min = shortest.as_ref().map(|s| s.rolls.len());
    Analysis { shortest, expectation: expected_turns(board), distribution: distribution(board, min) }
}

/// One shortest game, by breadth-first search over positions (rolls tried
/// from 1 up, so the game found is the first in that order).
pub fn shortest_game(board: &Board) -> Option<ShortestGame> {
    let goal = board.goal as usize;
    let mut parent: Vec<Option<(u32, u32)>> = vec![None; goal + 1];
    let mut seen = vec![false; goal + 1];
    seen[0] = true;
    let mut queue = VecDeque::from([0u32]);
    while let Some(at) = queue.pop_front() {
        if at == board.goal {
            break;
        }
        for roll in 1..=FACES {
            let next = board.step(at, roll);
            if !seen[next as usize] {
                seen[next as usize] = true;
                parent[next as usize] = Some((at, roll));
                queue.push_back(next);
            }
        }
    }
    if !seen[goal] {
        return None;
    }
    let mut rolls = Vec::new();
    let mut at = board.goal;
    while let Some((from, roll)) = parent[at as usize] {
        rolls.push(roll);
        at = from;
    }
    rolls.reverse();
    let mut squares = vec![0];
    let mut at = 0;
    for &roll in &rolls {
        let landed = board.land(at, roll);
        squares.push(landed);
        at = board.step(at, roll);
        if at != landed {
            squares.push(at);
        }
    }
    Some(ShortestGame { rolls, squares })
}

/// The exact expected number of turns from every position.
pub fn expected_turns(board: &Board) -> Expectation {
    let moves = (0..=board.goal)
        .map(|at| {
            (at != board.goal).then(|| {
                let mut moves: Vec<(usize, u32)> = Vec::new();
                for roll in 1..=FACES {
                    let next = board.step(at, roll) as usize;
                    match moves.iter_mut().find(|m| m.0 == next) {
                        Some(m) => m.1 += 1,
                        None => moves.push((next, 1)),
                    }
                }
                moves
            })
        })
        .collect();
    let chain = Chain::new(FACES, moves).expect("every position moves with the die's six faces");
    let steps = chain.expected_steps();
    let per_square: Vec<Option<BigRational>> =
        (0..=board.goal).map(|at| steps[board.settle(at) as usize].clone()).collect();
    Expectation { from_start: per_square[0].clone(), per_square }
}

/// The distribution of game lengths, followed turn by turn until the
/// chance left is negligible; `min_turns` is the shortest game's length.
pub fn distribution(board: &Board, min_turns: Option<usize>) -> Distribution {
    let goal = board.goal as usize;
    let mut mass = vec![0.0f64; goal + 1];
    mass[0] = 1.0;
    let mut pmf = Vec::new();
    let mut left = 1.0;
    // A goal that cannot be reached leaves all the chance in play forever.
    while min_turns.is_some() && left > TOLERANCE && pmf.len() < MAX_TURNS {
        let mut next = vec![0.0f64; goal + 1];
        for (at, &m) in mass.iter().enumerate().take(goal) {
            if m > 0.0 {
                for roll in 1..=FACES {
                    next[board.step(at as u32, roll) as usize] += m / f64::from(FACES);
                }
            }
        }
        pmf.push(next[goal]);
        next[goal] = 0.0;
        left = next.iter().sum();
        mass = next;
    }
    let first_reaching = |level: f64| {
        let mut total = 0.0;
        pmf.iter().position(|&p| {
            total += p;
            total >= level
        })
    };
    let turn = |i: usize| (i + 1) as u32;
    let mode = pmf
        .iter()
        .enumerate()
        .filter(|(_, p)| **p > 0.0)
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
        .map(|(i, _)| turn(i));
    Distribution {
        median: first_reaching(0.5).map(turn),
        p90: first_reaching(0.9).map(turn),
        mode,
        tail: left,
        p_min: min_turns.map(|m| exact_finish_chance(board, m)),
        pmf,
    }
}

/// The exact chance that the game ends on turn `turns` (the shortest
/// length, so no earlier ending needs taking out): ways over `6^turns`.
fn exact_finish_chance(board: &Board, turns: usize) -> BigRational {
    let goal = board.goal as usize;
    let mut ways = vec![BigInt::zero(); goal + 1];
    ways[0] = BigInt::from(1);
    for _ in 0..turns {
        let mut next = vec![BigInt::zero(); goal + 1];
        for (at, w) in ways.iter().enumerate().take(goal) {
            if !w.is_zero() {
                for roll in 1..=FACES {
                    next[board.step(at as u32, roll) as usize] += w;
                }
            }
        }
        ways = next;
    }
    BigRational::new(ways[goal].clone(), BigInt::from(FACES).pow(turns as u32))
}

/// Each of `players` players' chance of winning a race in which they roll
/// in turn, player 1 first, each with a token of their own.
pub fn win_chances(distribution: &Distribution, players: u32) -> Vec<f64> {
    let k = players as i32;
    let mut survive = 1.0f64;
    let mut chances = vec![0.0; players as usize];
    for &p in &distribution.pmf {
        let before = survive;
        survive -= p;
        let after = survive.max(0.0);
        for (i, chance) in chances.iter_mut().enumerate() {
            let i = i as i32;
            // Player i ends on this turn; those before them did not end on
            // this turn or earlier, those after them not by the last turn.
            *chance += p * after.powi(i) * before.powi(k - 1 - i);
        }
    }
    chances
}

/// A rational as a decimal with `digits` digits after the point.
pub fn decimal(value: &BigRational, digits: usize) -> String {
    let scale = BigInt::from(10).pow(digits as u32);
    let scaled = (value * BigRational::from_integer(scale)).round().to_integer();
    let text = scaled.to_string();
    let (sign, digits_text) = text.strip_prefix('-').map_or(("", text.as_str()), |t| ("-", t));
    let padded = format!("{digits_text:0>width$}", width = digits + 1);
    let (whole, fraction) = padded.split_at(padded.len() - digits);
    format!("{sign}{whole}.{fraction}")
}

/// A rational written exactly, `numerator/denominator` (the denominator
/// always shown, so that every exact figure reads the same way).
pub fn fraction(value: &BigRational) -> String {
    format!("{}/{}", value.numer(), value.denom())
}

/// A rational as an `f64`, for display.
pub fn approximate(value: &BigRational) -> f64 {
    value.to_f64().unwrap_or(f64::NAN)
}
