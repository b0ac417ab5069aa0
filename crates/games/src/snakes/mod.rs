//! Snakes and Ladders (Chutes and Ladders): a one-player race on a board of
//! squares with jumps, analysed exactly.
//!
//! A board has positions `0..=goal`; the token starts on 0 and each turn
//! rolls a fair die and moves that many squares. Landing on the foot of a
//! ladder or the head of a snake moves it to the jump's other end (and on,
//! if that square starts another jump). How a roll past the goal is played
//! is a rule of its own ([`Overshoot`]).

mod answers;
mod boards;
mod claims;
mod front;
mod game;
mod solve;

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::params::quote;

pub use self::boards::{BUILT_IN, built_in, generate};
pub use self::claims::verify;
pub use self::front::GAME;
pub use self::game::INFO;
pub use self::solve::{
    Analysis, Distribution, Expectation, MAX_TURNS, ShortestGame, TOLERANCE, analyse, approximate, decimal,
    distribution, expected_turns, fraction, shortest_game, win_chances,
};

/// The faces of the die.
pub const FACES: u32 = 6;

/// The largest goal a board may have.
pub const MAX_GOAL: u32 = 100_000;

/// What happens to a roll that would take the token past the goal.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub enum Overshoot {
    /// The token does not move (the standard rule).
    #[default]
    Stay,
    /// The token moves to the goal and back the remaining squares.
    Bounce,
    /// The token finishes anyway.
    Pass,
}

impl FromStr for Overshoot {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Overshoot, BoardError> {
        match text {
            "stay" => Ok(Overshoot::Stay),
            "bounce" => Ok(Overshoot::Bounce),
            "pass" => Ok(Overshoot::Pass),
            other => Err(BoardError::Overshoot(quote(other))),
        }
    }
}

impl Overshoot {
    /// `stay`, `bounce` or `pass`.
    pub fn id(self) -> &'static str {
        match self {
            Overshoot::Stay => "stay",
            Overshoot::Bounce => "bounce",
            Overshoot::Pass => "pass",
        }
    }
}

/// How a board's positions are numbered.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Numbering {
    /// Position 0 is the board's first cell, where the token starts.
    Cells,
    /// Squares are numbered from 1; position 0 is off the board, where the
    /// token starts.
    Squares,
}

impl FromStr for Numbering {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Numbering, BoardError> {
        match text {
            "cells" => Ok(Numbering::Cells),
            "squares" => Ok(Numbering::Squares),
            other => Err(BoardError::Numbering(quote(other))),
        }
    }
}

impl Numbering {
    /// `cells` or `squares`.
    pub fn id(self) -> &'static str {
        match self {
            Numbering::Cells => "cells",
            Numbering::Squares => "squares",
        }
    }
}

/// Why a board was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum BoardError {
    /// The goal is 0 or too large.
    #[error("the goal must be 1 to {MAX_GOAL}, not {0}")]
    Goal(u64),
    /// A jump from or to a position off the board.
    #[error("jump {from}->{to} leaves the board (positions 0 to {goal})")]
    OffBoard {
        /// Its start.
        from: u64,
        /// Its end.
        to: u64,
        /// The goal.
        goal: u32,
    },
    /// Two jumps from one square.
    #[error("two jumps start on {0}")]
    TwoJumps(u32),
    /// A jump from the start or the goal.
    #[error("jump {from}->{to} starts on the {place}, where no jump may start")]
    Endpoint {
        /// Its start.
        from: u32,
        /// Its end.
        to: u32,
        /// `start` or `goal`.
        place: &'static str,
    },
    /// A jump to its own square, or jumps that lead round in a circle.
    #[error("the jumps from {0} lead round in a circle")]
    Cycle(u32),
    /// A ladder that goes down or a snake that goes up.
    #[error("{kind} {from}->{to} goes the wrong way")]
    Direction {
        /// `ladder` or `snake`.
        kind: &'static str,
        /// Its start.
        from: u32,
        /// Its end.
        to: u32,
    },
    /// An overshoot rule that does not exist.
    #[error("unknown overshoot rule {0:?}: expected stay, bounce or pass")]
    Overshoot(String),
    /// A numbering that does not exist.
    #[error("unknown numbering {0:?}: expected squares or cells")]
    Numbering(String),
    /// A line of a board file that cannot be read.
    #[error("line {line}: {problem}")]
    Syntax {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// A board name that is neither built in nor a file.
    #[error("no built-in board {0:?} (built in: example-30, milton-bradley, milton-bradley-47) and no such file")]
    Unknown(String),
}

/// A board: its goal, numbering and jumps, and the overshoot rule.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Board {
    name: String,
    goal: u32,
    numbering: Numbering,
    jumps: BTreeMap<u32, u32>,
    overshoot: Overshoot,
}

impl Board {
    /// A board with positions `0..=goal` and these jumps `(from, to)`.
    ///
    /// # Errors
    ///
    /// [`BoardError`] for a goal of 0 or over [`MAX_GOAL`], a jump off the
    /// board, two jumps from one square, a jump from the start or the
    /// goal, or jumps that lead round in a circle.
    pub fn new(
        name: &str,
        goal: u64,
        numbering: Numbering,
        jumps: &[(u64, u64)],
        overshoot: Overshoot,
    ) -> Result<Board, BoardError> {
        if goal == 0 || goal > u64::from(MAX_GOAL) {
            return Err(BoardError::Goal(goal));
        }
        let goal = goal as u32;
        let mut map = BTreeMap::new();
        for &(from, to) in jumps {
            if from > u64::from(goal) || to > u64::from(goal) {
                return Err(BoardError::OffBoard { from, to, goal });
            }
            let (from, to) = (from as u32, to as u32);
            for (place, at) in [("start", 0), ("goal", goal)] {
                if from == at {
                    return Err(BoardError::Endpoint { from, to, place });
                }
            }
            if map.insert(from, to).is_some() {
                return Err(BoardError::TwoJumps(from));
            }
        }
        for &from in map.keys() {
            let mut at = from;
            for _ in 0..=map.len() {
                match map.get(&at) {
                    Some(&next) => at = next,
                    None => break,
                }
            }
            if map.contains_key(&at) {
                return Err(BoardError::Cycle(from));
            }
        }
        Ok(Board { name: name.into(), goal, numbering, jumps: map, overshoot })
    }

    /// The board's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The last position.
    pub fn goal(&self) -> u32 {
        self.goal
    }

    /// How positions are numbered.
    pub fn numbering(&self) -> Numbering {
        self.numbering
    }

    /// The overshoot rule.
    pub fn overshoot(&self) -> Overshoot {
        self.overshoot
    }

    /// The jumps, by their start.
    pub fn jumps(&self) -> &BTreeMap<u32, u32> {
        &self.jumps
    }

    /// Where a token that lands on `square` ends up, following jumps.
    pub fn settle(&self, square: u32) -> u32 {
        let mut at = square;
        while let Some(&next) = self.jumps.get(&at) {
            at = next;
        }
        at
    }

    /// The square a roll of `roll` from `from` lands on, before any jump.
    pub fn land(&self, from: u32, roll: u32) -> u32 {
        let target = from + roll;
        if target <= self.goal {
            return target;
        }
        match self.overshoot {
            Overshoot::Stay => from,
            Overshoot::Bounce => (2 * self.goal).saturating_sub(target),
            Overshoot::Pass => self.goal,
        }
    }

    /// Where a roll of `roll` from `from` takes the token, jumps followed.
    pub fn step(&self, from: u32, roll: u32) -> u32 {
        let landed = self.land(from, roll);
        if landed == from { from } else { self.settle(landed) }
    }
}

impl fmt::Display for Board {
    /// The board in its file format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "goal {}", self.goal)?;
        writeln!(f, "numbering {}", self.numbering.id())?;
        for (from, to) in &self.jumps {
            writeln!(f, "{} {from} {to}", if to > from { "ladder" } else { "snake" })?;
        }
        Ok(())
    }
}

/// Reads a board file: lines `goal N`, `numbering cells|squares`, `ladder
/// FROM TO`, `snake FROM TO` and `jump FROM TO` (either way), with blank
/// lines and `#` comments ignored.
///
/// # Errors
///
/// [`BoardError::Syntax`] naming the first line that cannot be read, or the
/// errors of [`Board::new`].
pub fn parse_board(name: &str, text: &str, overshoot: Overshoot) -> Result<Board, BoardError> {
    let mut goal = None;
    let mut numbering = Numbering::Squares;
    let mut jumps = Vec::new();
    // The lines that may come once, and did.
    let mut said: Vec<&str> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let syntax = |problem: String| BoardError::Syntax { line: i + 1, problem };
        let line = raw.split('#').next().unwrap_or_default().trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let number = |word: &str| word.parse::<u64>().map_err(|_| syntax(format!("{:?} is not a number", quote(word))));
        match words.as_slice() {
            [] => {}
            ["goal", _] | ["numbering", _] if said.contains(&words[0]) => {
                return Err(syntax(format!("a second {} line: a board has one", words[0])));
            }
            ["goal", n] => {
                goal = Some(number(n)?);
                said.push("goal");
            }
            ["numbering", which @ ("cells" | "squares")] => {
                numbering = if *which == "cells" { Numbering::Cells } else { Numbering::Squares };
                said.push("numbering");
            }
            [kind @ ("ladder" | "snake" | "jump" | "chute"), from, to] => {
                let (from, to) = (number(from)?, number(to)?);
                let wrong = match *kind {
                    "ladder" => to <= from,
                    "snake" | "chute" => to >= from,
                    _ => false,
                };
                if wrong {
                    let kind = if *kind == "ladder" { "ladder" } else { "snake" };
                    return Err(BoardError::Direction { kind, from: from as u32, to: to as u32 });
                }
                jumps.push((from, to));
            }
            _ => return Err(syntax(format!("expected goal, numbering, ladder, snake or jump, not {:?}", quote(line)))),
        }
    }
    let goal = goal.ok_or(BoardError::Syntax { line: 0, problem: "the board has no goal line".into() })?;
    Board::new(name, goal, numbering, &jumps, overshoot)
}

/// Reads `FROM:TO,FROM:TO,…` as jumps.
///
/// # Errors
///
/// [`BoardError::Syntax`] if a jump is not two numbers joined by `:`.
pub fn parse_jumps(text: &str) -> Result<Vec<(u64, u64)>, BoardError> {
    text.split(',')
        .map(str::trim)
        .filter(|j| !j.is_empty())
        .enumerate()
        .map(|(i, jump)| {
            let bad = || BoardError::Syntax { line: i + 1, problem: format!("jump {:?} is not FROM:TO", quote(jump)) };
            let (from, to) = jump.split_once(':').ok_or_else(bad)?;
            Ok((from.trim().parse().map_err(|_| bad())?, to.trim().parse().map_err(|_| bad())?))
        })
        .collect()
}

#[cfg(test)]
mod tests;
