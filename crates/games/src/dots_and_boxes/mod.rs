//! Dots and Boxes on boards of r×c boxes: American, Swedish and Icelandic.
//!
//! Lines are named as David Wilson names them: by the row and column of
//! their character in the board drawn as text, `a` at the top and at the
//! left. Dots sit at even rows and columns, horizontal lines at even rows
//! and odd columns, vertical lines at odd rows and even columns; `ab` is the
//! top-left horizontal line and `ba` the top-left vertical one.
//!
//! A position's future depends only on which lines are drawn, so the solver
//! numbers the lines the variant leaves undrawn (the *free* lines, at most
//! 30 for a table of every set, 64 for the search) and scores each set of
//! them; boxes already taken stay with their owner and count only in the
//! score so far.

mod answers;
mod claims;
mod front;
mod game;
mod notation;
mod play;
mod player;
pub mod quiet;
mod scores;
pub mod search;
mod solve;
pub mod wilson;

use std::fmt;
use std::str::FromStr;

pub use self::claims::{SWEPT, verify, verify_against_sweep};
pub use self::front::GAME;
pub use self::game::{INFO, ProbeRequest, probe_request};
pub use self::notation::{LineNameError, MovesError, ParseLineError, ParsePlayerError, parse_moves};
use self::quiet::Quiet;
pub use self::scores::{FirstMove, LineScore, Scorer, Summary};

/// The most undrawn lines a board may have for a table of every position:
/// it takes 2^30 bytes. Larger boards are solved from their quiet positions.
pub const MAX_FREE_LINES: u32 = solved_engine::sweep::MAX_BITS;

/// The most memory a solve of quiet positions may take.
pub const MAX_QUIET_BYTES: u64 = 16 << 30;

/// The most boxes a side: Wilson's letters name at most 26 text rows.
pub const MAX_SIDE: u8 = 12;

/// Which lines are drawn before the game starts. They are nobody's move.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Variant {
    /// None: the usual game.
    American,
    /// The whole outer boundary.
    Swedish,
    /// The left and bottom boundary.
    Icelandic,
}

impl Variant {
    /// `american`, `swedish` or `icelandic`.
    pub fn id(self) -> &'static str {
        match self {
            Variant::American => "american",
            Variant::Swedish => "swedish",
            Variant::Icelandic => "icelandic",
        }
    }
}

/// Why a variant name was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ParseVariantError {
    /// Not the name of a variant.
    #[error("unknown variant {text:?}: expected american, swedish or icelandic")]
    Unknown {
        /// A short prefix of the text given.
        text: String,
    },
}

impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(text: &str) -> Result<Variant, ParseVariantError> {
        match text.to_ascii_lowercase().as_str() {
            "american" => Ok(Variant::American),
            "swedish" => Ok(Variant::Swedish),
            "icelandic" => Ok(Variant::Icelandic),
            _ => Err(ParseVariantError::Unknown { text: crate::params::quote(text) }),
        }
    }
}

/// A player. A moves first.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Player {
    /// Moves first; scores count for A minus B.
    A,
    /// Moves second.
    B,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::A => Player::B,
            Player::B => Player::A,
        }
    }

    /// +1 for A, −1 for B: turns the mover's margin into A − B.
    pub fn sign(self) -> i32 {
        match self {
            Player::A => 1,
            Player::B => -1,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::A => "A",
            Player::B => "B",
        })
    }
}

/// A line, by the row and column of its character in Wilson's text grid.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Line {
    row: u8,
    col: u8,
}

impl Line {
    /// The line at text row `row` and column `col` (from 0); one of them
    /// must be odd and the other even.
    pub fn new(row: u8, col: u8) -> Option<Line> {
        (row % 2 != col % 2).then_some(Line { row, col })
    }

    /// Whether the line is horizontal.
    pub fn is_horizontal(self) -> bool {
        self.row.is_multiple_of(2)
    }

    /// Its text row, from 0 at the top.
    pub fn row(self) -> u8 {
        self.row
    }

    /// Its text column, from 0 at the left.
    pub fn col(self) -> u8 {
        self.col
    }
}

/// A box, by row and column from the top left (from 0).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct BoxAt {
    /// Its row of boxes.
    pub row: u8,
    /// Its column of boxes.
    pub col: u8,
}

impl BoxAt {
    /// Its four sides: top, bottom, left, right.
    pub fn sides(self) -> [Line; 4] {
        let (r, c) = (2 * self.row, 2 * self.col);
        [
            Line { row: r, col: c + 1 },
            Line { row: r + 2, col: c + 1 },
            Line { row: r + 1, col: c },
            Line { row: r + 1, col: c + 2 },
        ]
    }
}

/// Why a board was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum BoardError {
    /// A side of zero boxes, or too many to name.
    #[error("a board needs 1 to {MAX_SIDE} boxes a side (Wilson's letters name 26 text rows), not {rows}x{cols}")]
    Size {
        /// Boxes down.
        rows: u8,
        /// Boxes across.
        cols: u8,
    },
    /// More undrawn lines than a table of every position holds, and more
    /// quiet positions than the quiet solver may take memory for.
    #[error(
        "a {rows}x{cols} {variant} board has {lines} undrawn lines: more than a table of every position holds (at most {MAX_FREE_LINES}, one byte for each of 2^{lines}), and {why}"
    )]
    TooManyLines {
        /// Boxes down.
        rows: u8,
        /// Boxes across.
        cols: u8,
        /// The variant's id.
        variant: &'static str,
        /// Undrawn lines.
        lines: u32,
        /// Why the quiet solver cannot take it either.
        why: String,
    },
    /// More undrawn lines than a position of the search holds.
    #[error("a {rows}x{cols} {variant} board has {lines} undrawn lines: the search takes at most 64")]
    TooManyToSearch {
        /// Boxes down.
        rows: u8,
        /// Boxes across.
        cols: u8,
        /// The variant's id.
        variant: &'static str,
        /// Undrawn lines.
        lines: u32,
    },
}

/// A board: its size in boxes and its variant.
#[derive(Clone, Debug)]
pub struct Board {
    rows: u8,
    cols: u8,
    variant: Variant,
    /// The lines the variant leaves undrawn, in Wilson order; a line's
    /// place here is its bit in a set of drawn lines.
    free: Vec<Line>,
    /// For each text cell (`row * width + col`), the free line's bit.
    bit_at: Vec<Option<u8>>,
}

/// Why a line cannot be drawn.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum PlayError {
    /// Not a line of this board.
    #[error("{0} is not a line of this board")]
    OffBoard(String),
    /// Drawn already (by a player or by the variant).
    #[error("{0} is drawn already")]
    Drawn(String),
}

/// A position: which lines are drawn, who owns the taken boxes, who moves.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct Position {
    /// The drawn free lines, as bits.
    drawn: u64,
    /// The owner of each box, row by row; `None` while it is open (or if
    /// the variant drew all four sides).
    owners: Vec<Option<Player>>,
    turn: Player,
    last: Option<Line>,
}

impl Position {
    /// The drawn free lines, as bits: the index of the position in a table.
    pub fn drawn(&self) -> u64 {
        self.drawn
    }

    /// The player to move.
    pub fn turn(&self) -> Player {
        self.turn
    }

    /// The last line drawn, if known.
    pub fn last(&self) -> Option<Line> {
        self.last
    }

    /// The owner of each box, row by row.
    pub fn owners(&self) -> &[Option<Player>] {
        &self.owners
    }

    /// A's boxes minus B's so far.
    pub fn score_so_far(&self) -> i32 {
        self.owners.iter().flatten().map(|p| p.sign()).sum()
    }
}

impl Board {
    /// The `rows`×`cols` board (in boxes) of `variant`.
    ///
    /// # Errors
    ///
    /// [`BoardError::Size`] for a side outside 1 to 12, and
    /// [`BoardError::TooManyLines`] for a board of more than 30 undrawn
    /// lines whose quiet positions are too many to solve.
    pub fn new(rows: u8, cols: u8, variant: Variant) -> Result<Board, BoardError> {
        let board = Board::laid_out(rows, cols, variant)?;
        let lines = board.free_line_count();
        if lines > MAX_FREE_LINES {
            let too_large = |why: String| BoardError::TooManyLines { rows, cols, variant: variant.id(), lines, why };
            let quiet = Quiet::new(&board).map_err(|e| too_large(e.to_string()))?;
            let bytes = quiet.estimated_bytes();
            if bytes > MAX_QUIET_BYTES {
                return Err(too_large(format!(
                    "its {} quiet positions would take about {} GiB to solve, more than the {} GiB allowed",
                    quiet.count(),
                    bytes >> 30,
                    MAX_QUIET_BYTES >> 30
                )));
            }
        }
        Ok(board)
    }

    /// The `rows`×`cols` board of `variant` for the search alone, which
    /// takes boards too large to table (4×5 American).
    ///
    /// # Errors
    ///
    /// [`BoardError::Size`] for a side outside 1 to 12, and
    /// [`BoardError::TooManyToSearch`] for more than 64 undrawn lines.
    pub fn for_search(rows: u8, cols: u8, variant: Variant) -> Result<Board, BoardError> {
        let board = Board::laid_out(rows, cols, variant)?;
        let lines = board.free_line_count();
        if lines > search::MAX_SEARCH_LINES {
            return Err(BoardError::TooManyToSearch { rows, cols, variant: variant.id(), lines });
        }
        Ok(board)
    }

    fn laid_out(rows: u8, cols: u8, variant: Variant) -> Result<Board, BoardError> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(BoardError::Size { rows, cols });
        }
        let (height, width) = (2 * rows + 1, 2 * cols + 1);
        let predrawn = |line: Line| match variant {
            Variant::American => false,
            Variant::Swedish => line.row == 0 || line.row == height - 1 || line.col == 0 || line.col == width - 1,
            Variant::Icelandic => line.row == height - 1 || line.col == 0,
        };
        let free: Vec<Line> = (0..height)
            .flat_map(|row| (0..width).filter_map(move |col| Line::new(row, col)))
            .filter(|&line| !predrawn(line))
            .collect();
        let mut bit_at = vec![None; usize::from(height) * usize::from(width)];
        for (bit, line) in free.iter().enumerate() {
            // Past 255 lines (boards refused anyway), no bit is kept.
            bit_at[usize::from(line.row) * usize::from(width) + usize::from(line.col)] = u8::try_from(bit).ok();
        }
        Ok(Board { rows, cols, variant, free, bit_at })
    }

    /// Boxes down.
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// Boxes across.
    pub fn cols(&self) -> u8 {
        self.cols
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The lines the variant leaves undrawn, in Wilson order (bit order).
    pub fn free_lines(&self) -> &[Line] {
        &self.free
    }

    /// Every box, row by row.
    pub fn boxes(&self) -> impl Iterator<Item = BoxAt> + use<> {
        let cols = self.cols;
        (0..self.rows).flat_map(move |row| (0..cols).map(move |col| BoxAt { row, col }))
    }

    /// Whether `line` is on this board.
    pub fn contains(&self, line: Line) -> bool {
        line.row <= 2 * self.rows && line.col <= 2 * self.cols
    }

    /// The bit of a free line, or `None` for one the variant draws (or one
    /// off the board).
    pub fn bit(&self, line: Line) -> Option<u32> {
        if !self.contains(line) {
            return None;
        }
        self.bit_at[usize::from(line.row) * usize::from(2 * self.cols + 1) + usize::from(line.col)].map(u32::from)
    }

    /// Whether `line` is drawn when the free lines `drawn` are.
    pub fn is_drawn(&self, drawn: u64, line: Line) -> bool {
        match self.bit(line) {
            Some(bit) => drawn >> bit & 1 == 1,
            None => self.contains(line),
        }
    }

    /// The boxes that drawing `line` completes, given the free lines `drawn`.
    pub fn completed_by(&self, drawn: u64, line: Line) -> Vec<BoxAt> {
        let after = drawn | self.bit(line).map_or(0, |bit| 1 << bit);
        self.boxes_of(line).into_iter().filter(|b| b.sides().iter().all(|&side| self.is_drawn(after, side))).collect()
    }

    /// The one or two boxes `line` is a side of.
    fn boxes_of(&self, line: Line) -> Vec<BoxAt> {
        let (r, c) = (line.row, line.col);
        let candidates = if line.is_horizontal() {
            [(r.checked_sub(1).map(|r| r / 2), c / 2), (Some(r / 2), c / 2)]
        } else {
            [(Some(r / 2), (c / 2).checked_sub(1).unwrap_or(u8::MAX)), (Some(r / 2), c / 2)]
        };
        candidates
            .into_iter()
            .filter_map(|(row, col)| row.map(|row| BoxAt { row, col }))
            .filter(|b| b.row < self.rows && b.col < self.cols)
            .collect()
    }

    /// The starting position: the variant's lines drawn, A to move.
    pub fn start(&self) -> Position {
        // A box the variant closes (only on 1×1 Swedish) is nobody's.
        let owners = vec![None; usize::from(self.rows) * usize::from(self.cols)];
        Position { drawn: 0, owners, turn: Player::A, last: None }
    }

    /// Draws `line` for the player to move; a line that completes a box
    /// gives it to the mover, who moves again.
    ///
    /// # Errors
    ///
    /// [`PlayError`] if the line is not on the board or is drawn already.
    pub fn play(&self, pos: &Position, line: Line) -> Result<Position, PlayError> {
        let bit = match self.bit(line) {
            Some(bit) if pos.drawn >> bit & 1 == 0 => bit,
            Some(_) => return Err(PlayError::Drawn(line.to_string())),
            None if self.contains(line) => return Err(PlayError::Drawn(line.to_string())),
            None => return Err(PlayError::OffBoard(line.to_string())),
        };
        let completed = self.completed_by(pos.drawn, line);
        let mut child = pos.clone();
        child.drawn |= 1 << bit;
        child.last = Some(line);
        for b in &completed {
            child.owners[usize::from(b.row) * usize::from(self.cols) + usize::from(b.col)] = Some(pos.turn);
        }
        if completed.is_empty() {
            child.turn = pos.turn.other();
        }
        Ok(child)
    }

    /// The lines still undrawn at `pos`, in Wilson order.
    pub fn undrawn(&self, pos: &Position) -> impl Iterator<Item = Line> + '_ {
        let drawn = pos.drawn;
        self.free.iter().enumerate().filter(move |(bit, _)| drawn >> bit & 1 == 0).map(|(_, &line)| line)
    }

    /// Whether the game is over at `pos`: every line is drawn.
    pub fn is_over(&self, pos: &Position) -> bool {
        self.undrawn(pos).next().is_none()
    }

    /// The player who has more boxes at `pos`, or `None` for a tie so far:
    /// at the end of the game, the winner.
    pub fn winner(&self, pos: &Position) -> Option<Player> {
        match pos.score_so_far().signum() {
            1 => Some(Player::A),
            -1 => Some(Player::B),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
