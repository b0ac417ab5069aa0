//! Wilson's names of lines (`ab`, `ba`) and lists of moves.

use std::fmt;
use std::str::FromStr;

use super::{Board, Line, PlayError, Player, Position};

/// Why a line name was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ParseLineError {
    /// Not two lowercase letters.
    #[error("{0:?} is not a line: write its text row and column as two letters, like ab")]
    Shape(String),
    /// Both letters even or both odd: a dot or a box's middle.
    #[error("{0:?} is not a line: it names a dot or the middle of a box")]
    NotALine(String),
}

impl FromStr for Line {
    type Err = ParseLineError;

    fn from_str(text: &str) -> Result<Line, ParseLineError> {
        match text.trim().as_bytes() {
            &[row @ b'a'..=b'z', col @ b'a'..=b'z'] => {
                Line::new(row - b'a', col - b'a').ok_or_else(|| ParseLineError::NotALine(text.trim().into()))
            }
            _ => Err(ParseLineError::Shape(text.trim().into())),
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.row), char::from(b'a' + self.col))
    }
}

/// Why a list of moves was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum MovesError {
    /// A move is not a line name.
    #[error("move {number}")]
    Parse {
        /// The move's place in the list, from 1.
        number: usize,
        /// What is wrong with it.
        source: ParseLineError,
    },
    /// A move cannot be played.
    #[error("move {number}")]
    Play {
        /// The move's place in the list, from 1.
        number: usize,
        /// Why not.
        source: PlayError,
    },
}

/// Plays the comma-separated line names of `text` from the start of
/// `board`, in order (so that each taken box has its owner), and returns
/// the position reached. An empty text is the start.
///
/// # Errors
///
/// [`MovesError`] naming the first move that is not a line of the board or
/// is drawn already.
pub fn parse_moves(board: &Board, text: &str) -> Result<Position, MovesError> {
    let mut pos = board.start();
    for (i, name) in text.split(',').map(str::trim).filter(|n| !n.is_empty()).enumerate() {
        let line: Line = name.parse().map_err(|source| MovesError::Parse { number: i + 1, source })?;
        pos = board.play(&pos, line).map_err(|source| MovesError::Play { number: i + 1, source })?;
    }
    Ok(pos)
}

/// Why a player's name was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{text:?} is not a player: expected A or B")]
pub struct ParsePlayerError {
    /// A short prefix of the text given.
    pub text: String,
}

/// Reads `A` or `B`, in either case.
impl FromStr for Player {
    type Err = ParsePlayerError;

    fn from_str(text: &str) -> Result<Player, ParsePlayerError> {
        match text {
            "A" | "a" => Ok(Player::A),
            "B" | "b" => Ok(Player::B),
            _ => Err(ParsePlayerError { text: crate::params::quote(text) }),
        }
    }
}
