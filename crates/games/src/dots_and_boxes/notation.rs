//! Wilson's names of lines (`ab`, `ba`) and lists of moves.

use std::fmt;
use std::str::FromStr;

use crate::params::quote;

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
                Line::new(row - b'a', col - b'a').ok_or_else(|| ParseLineError::NotALine(quote(text.trim())))
            }
            _ => Err(ParseLineError::Shape(quote(text.trim()))),
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.row), char::from(b'a' + self.col))
    }
}

/// Why a name is not one of a board's lines.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum LineNameError {
    /// It is not a line's name at all.
    #[error(transparent)]
    Name(#[from] ParseLineError),
    /// It names a place beyond this board.
    #[error(transparent)]
    Board(#[from] PlayError),
}

impl Board {
    /// The line of this board called `name`. A name beyond the board is
    /// said to be so before anything else: `zz` on a 2×3 board is off the
    /// board, whatever it would name on a larger one.
    ///
    /// # Errors
    ///
    /// [`LineNameError`] saying why `name` is not a line of this board.
    pub fn line_named(&self, name: &str) -> Result<Line, LineNameError> {
        let name = name.trim();
        if let &[row @ b'a'..=b'z', col @ b'a'..=b'z'] = name.as_bytes()
            && (row - b'a' > 2 * self.rows || col - b'a' > 2 * self.cols)
        {
            return Err(PlayError::OffBoard(quote(name)).into());
        }
        Ok(name.parse()?)
    }
}

/// Why a list of moves was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum MovesError {
    /// Nothing between two commas, or after the last.
    #[error("move {number} is empty: give the lines drawn, separated by single commas")]
    Empty {
        /// The move's place in the list, from 1.
        number: usize,
    },
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
/// the position reached. An empty text is the start; an empty name in the
/// list is refused.
///
/// # Errors
///
/// [`MovesError`] naming the first move that is not a line of the board or
/// is drawn already.
pub fn parse_moves(board: &Board, text: &str) -> Result<Position, MovesError> {
    let mut pos = board.start();
    if text.trim().is_empty() {
        return Ok(pos);
    }
    for (i, name) in text.split(',').map(str::trim).enumerate() {
        let number = i + 1;
        if name.is_empty() {
            return Err(MovesError::Empty { number });
        }
        let line = board.line_named(name).map_err(|error| match error {
            LineNameError::Name(source) => MovesError::Parse { number, source },
            LineNameError::Board(source) => MovesError::Play { number, source },
        })?;
        pos = board.play(&pos, line).map_err(|source| MovesError::Play { number, source })?;
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
            _ => Err(ParsePlayerError { text: quote(text) }),
        }
    }
}
