//! Read and write positions (`B../B../.RR B`) and moves (`a3-b3`, `c2-off`).

use std::fmt;
use std::str::FromStr;

use crate::params::quote;

use super::{ByPlayer, Destination, MAX_SIZE, MIN_SIZE, Move, Player, Position, Square};

/// Why a position string was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ParsePositionError {
    /// No space between the board and the side to move.
    #[error("expected the ranks, a space and the side to move, like \"B../B../.RR B\"")]
    Shape,
    /// The side to move is not `B` or `R`.
    #[error("side to move must be B or R, not {0:?}")]
    Turn(String),
    /// The number of ranks is not a board size.
    #[error("{0} ranks: a board has {MIN_SIZE} to {MAX_SIZE}")]
    Size(usize),
    /// A rank is longer or shorter than the board is tall.
    #[error("rank {rank} has {files} squares, but the board has {size} ranks")]
    NotSquare {
        /// The rank, numbered as in notation.
        rank: usize,
        /// Its number of squares.
        files: usize,
        /// The number of ranks.
        size: usize,
    },
    /// A square is not `B`, `R` or `.`.
    #[error("unexpected {0:?} on the board, expected B, R or .")]
    Char(char),
    /// A side has as many cars as the board is wide, or more.
    #[error("{player} has {cars} cars, at most {max} fit a {size}x{size} board")]
    TooManyCars {
        /// The side.
        player: Player,
        /// Its number of cars.
        cars: u32,
        /// The most it may have.
        max: u8,
        /// The board size.
        size: u8,
    },
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        let (board, turn) = text.trim().split_once(' ').ok_or(ParsePositionError::Shape)?;
        let turn = match turn.trim() {
            "B" => Player::Blue,
            "R" => Player::Red,
            other => return Err(ParsePositionError::Turn(quote(other))),
        };
        let ranks: Vec<&str> = board.split('/').collect();
        let size = ranks.len();
        if !(usize::from(MIN_SIZE)..=usize::from(MAX_SIZE)).contains(&size) {
            return Err(ParsePositionError::Size(size));
        }
        let mut cars = ByPlayer::<u64>::default();
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = size - 1 - row;
            let files = rank_text.chars().count();
            if files != size {
                return Err(ParsePositionError::NotSquare { rank: rank + 1, files, size });
            }
            for (file, c) in rank_text.chars().enumerate() {
                let bit = 1 << (rank * size + file);
                match c {
                    'B' => cars.blue |= bit,
                    'R' => cars.red |= bit,
                    '.' => {}
                    other => return Err(ParsePositionError::Char(other)),
                }
            }
        }
        let size = size as u8;
        for player in [Player::Blue, Player::Red] {
            let count = cars[player].count_ones();
            if count >= u32::from(size) {
                return Err(ParsePositionError::TooManyCars { player, cars: count, max: size - 1, size });
            }
        }
        Ok(Position { size, cars, turn })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..self.size).rev() {
            for file in 0..self.size {
                f.write_str(match self.car_on(Square::new(file, rank)) {
                    Some(Player::Blue) => "B",
                    Some(Player::Red) => "R",
                    None => ".",
                })?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str(match self.turn {
            Player::Blue => " B",
            Player::Red => " R",
        })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file), u32::from(self.rank) + 1)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to {
            Destination::Square(to) => write!(f, "{}-{}", self.from, to),
            Destination::Off => write!(f, "{}-off", self.from),
        }
    }
}

/// Why a move string was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{text:?} is not a move: write it as from-to, like a3-b3 or c2-off")]
pub struct ParseMoveError {
    /// The text given.
    pub text: String,
}

fn parse_square(text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next().filter(char::is_ascii_lowercase)?;
    let rank: u8 = chars.as_str().parse().ok().filter(|r| (1..=26).contains(r))?;
    Some(Square::new(file as u8 - b'a', rank - 1))
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let error = || ParseMoveError { text: quote(text) };
        let (from, to) = text.trim().split_once('-').ok_or_else(error)?;
        let from = parse_square(from).ok_or_else(error)?;
        let to = match to {
            "off" => Destination::Off,
            square => Destination::Square(parse_square(square).ok_or_else(error)?),
        };
        Ok(Move { from, to })
    }
}

/// Why a side's name was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{text:?} is not a side: expected blue or red")]
pub struct ParsePlayerError {
    /// A short prefix of the text given.
    pub text: String,
}

/// Reads `blue` or `red`, in any case.
impl FromStr for Player {
    type Err = ParsePlayerError;

    fn from_str(text: &str) -> Result<Player, ParsePlayerError> {
        match text.to_ascii_lowercase().as_str() {
            "blue" => Ok(Player::Blue),
            "red" => Ok(Player::Red),
            _ => Err(ParsePlayerError { text: quote(text) }),
        }
    }
}
