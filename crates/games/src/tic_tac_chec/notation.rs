//! Read and write positions (`..../..../..../.... w -- open`) and moves
//! (`N@c2`, `a1-b2`).
//!
//! A position lists ranks 4 to 1, files a to d, with `PNBR` for White's
//! pieces, `pnbr` for Black's and `.` for an empty square (pieces not shown
//! are in hand), then the side to move (`w` or `b`), the pawn directions
//! (White's then Black's: `u` toward rank 4, `d` toward rank 1, `-` in
//! hand) and the phase (`open` for plies 0 to 5, `post` after).

use std::fmt;
use std::str::FromStr;

use crate::params::quote;

use super::{Color, Direction, HAND, Move, Piece, Position, Role, turned};

/// Why a position string was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ParsePositionError {
    /// Not four fields.
    #[error(
        "expected the board, the side to move, the pawn directions and the phase, like \"..../..../..../.... w -- open\""
    )]
    Shape,
    /// Not four ranks of four squares.
    #[error("the board must be four ranks of four squares, separated by /")]
    Board,
    /// A character that is no piece.
    #[error("unexpected {0:?} on the board, expected one of PNBRpnbr or .")]
    Char(char),
    /// A piece on two squares.
    #[error("{0:?} stands on the board twice")]
    Twice(char),
    /// The side to move is not `w` or `b`.
    #[error("side to move must be w or b, not {0:?}")]
    Turn(String),
    /// The directions field is not two of `u`, `d`, `-`.
    #[error("pawn directions must be two characters of u, d and -, not {0:?}")]
    Directions(String),
    /// A direction given for a pawn in hand, or none for one on the board.
    #[error("{color}'s pawn is {where_} but its direction is {given:?}")]
    DirectionMismatch {
        /// Whose pawn.
        color: Color,
        /// `on the board` or `in hand`.
        where_: &'static str,
        /// The character given.
        given: char,
    },
    /// A direction the turnaround rule does not allow there.
    #[error("{color}'s pawn on rank {rank} cannot face {direction}")]
    Turnaround {
        /// Whose pawn.
        color: Color,
        /// Its rank, from 1.
        rank: u8,
        /// The direction given.
        direction: &'static str,
    },
    /// The phase is not `open` or `post`.
    #[error("phase must be open or post, not {0:?}")]
    Phase(String),
    /// An opening position no opening reaches.
    #[error("not an opening position: {0}")]
    Opening(&'static str),
}

fn letter(piece: Piece) -> char {
    let c = piece.role.letter();
    if piece.color == Color::White { c } else { c.to_ascii_lowercase() }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, turn, directions, phase] = fields.as_slice() else { return Err(ParsePositionError::Shape) };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 4 || ranks.iter().any(|r| r.chars().count() != 4) {
            return Err(ParsePositionError::Board);
        }
        let mut pos = Position::empty();
        for (row, rank_text) in ranks.iter().enumerate() {
            for (file, c) in rank_text.chars().enumerate() {
                if c == '.' {
                    continue;
                }
                let piece =
                    (0..8).map(Piece::from_slot).find(|&p| letter(p) == c).ok_or(ParsePositionError::Char(c))?;
                if pos.squares[piece.slot()] != HAND {
                    return Err(ParsePositionError::Twice(c));
                }
                pos.squares[piece.slot()] = ((3 - row) * 4 + file) as u8;
            }
        }
        pos.turn = match *turn {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(ParsePositionError::Turn(quote(other))),
        };
        let direction_chars: Vec<char> = directions.chars().collect();
        if direction_chars.len() != 2 || direction_chars.iter().any(|c| !"ud-".contains(*c)) {
            return Err(ParsePositionError::Directions(quote(directions)));
        }
        for color in [Color::White, Color::Black] {
            let given = direction_chars[color as usize];
            let square = pos.squares[color as usize * 4];
            let direction = match (square != HAND, given) {
                (true, 'u') => Direction::Up,
                (true, 'd') => Direction::Down,
                (false, '-') => color.home_direction(),
                (on_board, given) => {
                    let where_ = if on_board { "on the board" } else { "in hand" };
                    return Err(ParsePositionError::DirectionMismatch { color, where_, given });
                }
            };
            if square != HAND && turned(square, direction) != direction {
                let name = if direction == Direction::Up { "up" } else { "down" };
                return Err(ParsePositionError::Turnaround { color, rank: square / 4 + 1, direction: name });
            }
            pos.directions[color as usize] = direction;
        }
        pos.opening = match *phase {
            "open" => true,
            "post" => false,
            other => return Err(ParsePositionError::Phase(quote(other))),
        };
        if pos.opening {
            check_opening(&pos)?;
        }
        Ok(pos)
    }
}

/// Opening positions hold what the first plies can place: White one piece
/// ahead or level, fewer than six in all, pawns facing as placed.
fn check_opening(pos: &Position) -> Result<(), ParsePositionError> {
    let (white, black) = (pos.on_board(Color::White), pos.on_board(Color::Black));
    let expected_turn = if white == black { Color::White } else { Color::Black };
    if white + black >= 6 {
        return Err(ParsePositionError::Opening("six pieces are on the board, so the opening is over"));
    }
    if !(white == black || white == black + 1) {
        return Err(ParsePositionError::Opening("White places first, so it has as many pieces as Black or one more"));
    }
    if pos.turn != expected_turn {
        return Err(ParsePositionError::Opening("it is the other side's turn to place"));
    }
    for color in [Color::White, Color::Black] {
        let square = pos.squares[color as usize * 4];
        if square != HAND && pos.directions[color as usize] != turned(square, color.home_direction()) {
            return Err(ParsePositionError::Opening("a pawn placed in the opening faces its home direction"));
        }
    }
    Ok(())
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..4u8).rev() {
            for file in 0..4u8 {
                let c = self.piece_on(rank * 4 + file).map_or('.', letter);
                write!(f, "{c}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let turn = if self.turn == Color::White { "w" } else { "b" };
        let direction = |color: Color| match (self.squares[color as usize * 4], self.directions[color as usize]) {
            (HAND, _) => '-',
            (_, Direction::Up) => 'u',
            (_, Direction::Down) => 'd',
        };
        let phase = if self.opening { "open" } else { "post" };
        write!(f, " {turn} {}{} {phase}", direction(Color::White), direction(Color::Black))
    }
}

/// A square's name, from `a1` (0) to `d4` (15).
pub fn square_name(square: u8) -> String {
    format!("{}{}", char::from(b'a' + square % 4), square / 4 + 1)
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place { role, to } => {
                write!(f, "{}@{}", letter(Piece { color: Color::White, role }), square_name(to))
            }
            Move::Step { from, to } => write!(f, "{}-{}", square_name(from), square_name(to)),
        }
    }
}

/// Why a move string was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ParseMoveError {
    /// Neither `P@a1` nor `a1-b2`.
    #[error("{text:?} is not a move: write a placement like N@c2 or a move like a1-b2")]
    Shape {
        /// A short prefix of the text given.
        text: String,
    },
    /// A placement of something that is not a piece.
    #[error("{text:?} is not a piece: place P, N, B or R")]
    Role {
        /// A short prefix of what came before the `@`.
        text: String,
    },
    /// A square off the board.
    #[error("{text:?} is not a square: files a to d, ranks 1 to 4")]
    Square {
        /// A short prefix of the text given for the square.
        text: String,
    },
}

fn parse_square(text: &str) -> Option<u8> {
    match text.as_bytes() {
        &[file @ b'a'..=b'd', rank @ b'1'..=b'4'] => Some((rank - b'1') * 4 + (file - b'a')),
        _ => None,
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let text = text.trim();
        let square = |name: &str| parse_square(name).ok_or_else(|| ParseMoveError::Square { text: quote(name) });
        if let Some((piece, to)) = text.split_once('@') {
            let role = match piece {
                "P" | "p" => Role::Pawn,
                "N" | "n" => Role::Knight,
                "B" | "b" => Role::Bishop,
                "R" | "r" => Role::Rook,
                _ => return Err(ParseMoveError::Role { text: quote(piece) }),
            };
            return Ok(Move::Place { role, to: square(to)? });
        }
        let (from, to) = text.split_once('-').ok_or_else(|| ParseMoveError::Shape { text: quote(text) })?;
        Ok(Move::Step { from: square(from)?, to: square(to)? })
    }
}

/// A side's name that is not one.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{0:?} is not a side: white or black")]
pub struct ParseColorError(String);

impl FromStr for Color {
    type Err = ParseColorError;

    fn from_str(text: &str) -> Result<Color, ParseColorError> {
        match text.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParseColorError(quote(text))),
        }
    }
}
