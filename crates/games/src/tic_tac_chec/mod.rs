//! Tic-Tac-Chec (1998): four-in-a-row on a 4×4 board with chess pieces.
//!
//! Each side owns a pawn, a knight, a bishop and a rook, all in hand at the
//! start. The first six plies (the opening) are placements; after that a
//! turn places a piece from hand or moves one on the board, and a captured
//! piece returns to its owner's hand. Pawns turn round at the far rank.
//! Four of one's own pieces on a rank, file or long diagonal win.
//!
//! Squares are numbered `rank * 4 + file` (a1 = 0, d4 = 15) and sets of
//! squares are `u16` bitboards. This module is the plain, readable
//! reference for the rules; [`bit_moves`] generates the same moves with bit
//! operations and no allocation, for the solver.

mod answers;
pub mod bit_moves;
mod census;
mod claims;
mod front;
mod game;
mod index;
mod notation;
mod play;
mod reference;
mod report;
mod solve;
mod summary;

use std::fmt;

pub use self::census::{Census, census};
pub use self::claims::verify;
pub use self::front::GAME;
pub use self::game::{INFO, ProbeValues, TicTacChec};
pub use self::index::{OPENING_POSITIONS, POST_OPENING_POSITIONS, Run, TicTacChecIndex};
pub use self::notation::{ParseColorError, ParseMoveError, ParsePositionError, square_name};
pub use self::reference::{BothColours, Reference};
pub use self::report::{DrawingLine, NotADraw, ThreatCensus, Transitions, VariantComparison, compare_variants};
pub use self::summary::{PhaseSummary, Summary};

/// A side.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
#[repr(u8)]
pub enum Color {
    /// Moves first; home rank 1.
    White = 0,
    /// Home rank 4.
    Black = 1,
}

impl Color {
    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The direction a pawn of this side starts with: away from home.
    pub fn home_direction(self) -> Direction {
        match self {
            Color::White => Direction::Up,
            Color::Black => Direction::Down,
        }
    }
}

/// A kind of piece.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
#[repr(u8)]
pub enum Role {
    /// Pushes one square in its direction, captures one square diagonally.
    Pawn = 0,
    /// Jumps as in chess.
    Knight = 1,
    /// Slides diagonally.
    Bishop = 2,
    /// Slides orthogonally.
    Rook = 3,
}

impl Role {
    /// `P`, `N`, `B` or `R`, as notation writes White's pieces.
    pub fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
        }
    }
}

/// Every role, in index order.
pub const ROLES: [Role; 4] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook];

/// A piece: a side's role. There is exactly one of each.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Piece {
    /// Whose.
    pub color: Color,
    /// Which.
    pub role: Role,
}

impl Piece {
    /// The piece's slot, `color * 4 + role`, 0 to 7.
    pub fn slot(self) -> usize {
        self.color as usize * 4 + self.role as usize
    }

    /// The piece in slot `slot` (0 to 7).
    pub fn from_slot(slot: usize) -> Piece {
        let color = if slot < 4 { Color::White } else { Color::Black };
        Piece { color, role: ROLES[slot % 4] }
    }
}

/// Which way a pawn travels.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub enum Direction {
    /// Toward rank 4.
    Up,
    /// Toward rank 1.
    Down,
}

impl Direction {
    /// The other way.
    pub fn reversed(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
        }
    }
}

/// Whether captures are open to a pawn travelling back home.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum PawnRule {
    /// Yes, diagonally in its current direction of travel (canonical).
    Travel,
    /// No: a returning pawn only pushes.
    Outbound,
}

impl PawnRule {
    /// `travel` or `outbound`.
    pub fn id(self) -> &'static str {
        match self {
            PawnRule::Travel => "travel",
            PawnRule::Outbound => "outbound",
        }
    }
}

/// Why a pawn rule's name was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ParsePawnRuleError {
    /// Not the name of a pawn rule.
    #[error("unknown pawn rule {text:?}: expected travel or outbound")]
    Unknown {
        /// A short prefix of the text given.
        text: String,
    },
}

impl std::str::FromStr for PawnRule {
    type Err = ParsePawnRuleError;

    fn from_str(text: &str) -> Result<PawnRule, ParsePawnRuleError> {
        match text {
            "travel" => Ok(PawnRule::Travel),
            "outbound" => Ok(PawnRule::Outbound),
            other => Err(ParsePawnRuleError::Unknown { text: crate::params::quote(other) }),
        }
    }
}

/// Where a piece is off the board.
pub const HAND: u8 = 16;

/// The ten winning lines: ranks, files and the two long diagonals.
pub const LINES: [u16; 10] = [
    0x000f, 0x00f0, 0x0f00, 0xf000, // ranks 1 to 4
    0x1111, 0x2222, 0x4444, 0x8888, // files a to d
    0x8421, // a1-b2-c3-d4
    0x1248, // d1-c2-b3-a4
];

/// A position: where each piece is, which way each pawn faces, who moves,
/// and whether the opening is still on.
///
/// Fields are private: positions come from [`Position::empty`], from
/// notation, from playing moves, or from the index, and are always
/// structurally valid (distinct squares, pawn directions the turnaround rule
/// allows, a pawn in hand facing its home direction).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Position {
    /// The square of each piece by slot, or [`HAND`].
    squares: [u8; 8],
    /// Each side's pawn direction.
    directions: [Direction; 2],
    turn: Color,
    opening: bool,
}

/// A move.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub enum Move {
    /// A piece from the mover's hand onto an empty square.
    Place {
        /// The piece's role.
        role: Role,
        /// The square.
        to: u8,
    },
    /// A piece on the board to another square, capturing what is there.
    Step {
        /// Where it stands.
        from: u8,
        /// Where it goes.
        to: u8,
    },
}

/// Whether the squares `occupied` include all four of some line.
#[inline]
pub fn complete_line(occupied: u16) -> bool {
    LINE_SUPERSETS[usize::from(occupied >> 6)] >> (occupied & 63) & 1 == 1
}

/// A bit for every set of squares holding some line: the solver asks of
/// every position it seeds, and one lookup in 8 KiB beats ten comparisons
/// of two colours.
const LINE_SUPERSETS: [u64; 1 << 10] = {
    let mut table = [0u64; 1 << 10];
    let mut l = 0;
    while l < LINES.len() {
        let line = LINES[l];
        // Every set of the twelve other squares, with the line added.
        let others = !line;
        let mut extra: u16 = 0;
        loop {
            let set = (line | extra) as usize;
            table[set >> 6] |= 1 << (set & 63);
            if extra == others {
                break;
            }
            extra = extra.wrapping_sub(others) & others;
        }
        l += 1;
    }
    table
};

/// The squares of a set, lowest first.
pub fn squares(set: u16) -> impl Iterator<Item = u8> {
    solved_engine::bits(set).map(|bit| bit as u8)
}

/// The rank (0 to 3) of a square.
pub fn rank_of(square: u8) -> u8 {
    square / 4
}

/// The file (0 to 3) of a square.
pub fn file_of(square: u8) -> u8 {
    square % 4
}

/// The direction a pawn on `square` must face if it points off the board,
/// otherwise `direction` itself: the turnaround rule.
pub fn turned(square: u8, direction: Direction) -> Direction {
    match (rank_of(square), direction) {
        (3, Direction::Up) => Direction::Down,
        (0, Direction::Down) => Direction::Up,
        _ => direction,
    }
}

impl Position {
    /// The empty board, White to place first.
    pub fn empty() -> Position {
        Position { squares: [HAND; 8], directions: [Direction::Up, Direction::Down], turn: Color::White, opening: true }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Whether the opening (plies 0 to 5, placements only) is on.
    pub fn is_opening(&self) -> bool {
        self.opening
    }

    /// The square of `piece`, or `None` if it is in hand.
    pub fn square_of(&self, piece: Piece) -> Option<u8> {
        let square = self.squares[piece.slot()];
        (square != HAND).then_some(square)
    }

    /// The direction of `color`'s pawn.
    pub fn direction(&self, color: Color) -> Direction {
        self.directions[color as usize]
    }

    /// The piece on `square`, if any.
    pub fn piece_on(&self, square: u8) -> Option<Piece> {
        (0..8).find(|&slot| self.squares[slot] == square).map(Piece::from_slot)
    }

    /// The same position with the piece in `slot` on `square` (or in hand).
    ///
    /// Arithmetic on all eight squares at once, not a store of one byte:
    /// the solver reads the position whole right after, and a wide load
    /// of a narrow store waits until the store has left the core.
    #[inline]
    fn with_square(self, slot: usize, square: u8) -> Position {
        let shift = 8 * slot;
        let squares = u64::from_le_bytes(self.squares) & !(0xff << shift) | u64::from(square) << shift;
        Position { squares: squares.to_le_bytes(), ..self }
    }

    /// The same position with `color`'s pawn facing `direction`.
    #[inline]
    fn with_direction(self, color: Color, direction: Direction) -> Position {
        let mut directions = self.directions;
        directions[color as usize] = direction;
        Position { directions, ..self }
    }

    /// The squares `color`'s pieces stand on.
    #[inline]
    pub fn occupied_by(&self, color: Color) -> u16 {
        let first = color as usize * 4;
        // A piece in hand (square 16) sets bit 16, which the cast drops:
        // no branch per piece.
        const _: () = assert!(HAND == 16);
        self.squares[first..first + 4].iter().fold(0u32, |bb, &s| bb | 1 << s) as u16
    }

    /// Every occupied square.
    pub fn occupied(&self) -> u16 {
        self.occupied_by(Color::White) | self.occupied_by(Color::Black)
    }

    /// How many pieces `color` has on the board.
    pub fn on_board(&self, color: Color) -> u32 {
        self.occupied_by(color).count_ones()
    }

    /// Whether `color` has four pieces on a line.
    pub fn has_line(&self, color: Color) -> bool {
        complete_line(self.occupied_by(color))
    }

    /// The squares of a line one colour fills, if any: where the game was
    /// won.
    pub fn winning_line(&self) -> Option<u16> {
        let filled = |color| LINES.into_iter().find(|&line| self.occupied_by(color) & line == line);
        filled(Color::White).or_else(|| filled(Color::Black))
    }

    /// Whether the game is over: some line is complete (either colour, as
    /// the solved domain counts it).
    pub fn is_over(&self) -> bool {
        self.has_line(Color::White) || self.has_line(Color::Black)
    }

    /// The same position with colours swapped and the board turned 180°:
    /// the side to move changes colour, every square `s` becomes `15 − s`
    /// and each pawn direction reverses. Value and distance are unchanged.
    pub fn flipped(&self) -> Position {
        let turn_square = |s: u8| if s == HAND { HAND } else { 15 - s };
        let mut squares = [HAND; 8];
        for slot in 0..8 {
            squares[(slot + 4) % 8] = turn_square(self.squares[slot]);
        }
        Position {
            squares,
            directions: [self.directions[1].reversed(), self.directions[0].reversed()],
            turn: self.turn.other(),
            opening: self.opening,
        }
    }

    /// The legal moves, in a fixed order (none once the game is over),
    /// under `rule`: the plain reference generator.
    pub fn legal_moves(&self, rule: PawnRule) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let mover = self.turn;
        let empty = !self.occupied();
        let mut moves = Vec::new();
        for role in ROLES {
            if self.square_of(Piece { color: mover, role }).is_none() {
                for to in 0..16 {
                    if empty & (1 << to) != 0 {
                        moves.push(Move::Place { role, to });
                    }
                }
            }
        }
        if self.opening {
            return moves;
        }
        let own = self.occupied_by(mover);
        let theirs = self.occupied_by(mover.other());
        for role in ROLES {
            let Some(from) = self.square_of(Piece { color: mover, role }) else { continue };
            let (file, rank) = (file_of(from) as i8, rank_of(from) as i8);
            let at = |f: i8, r: i8| ((0..4).contains(&f) && (0..4).contains(&r)).then(|| (r * 4 + f) as u8);
            let mut targets = Vec::new();
            match role {
                Role::Knight => {
                    for (df, dr) in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)] {
                        targets.extend(at(file + df, rank + dr).filter(|&t| own & (1 << t) == 0));
                    }
                }
                Role::Bishop | Role::Rook => {
                    let rays: &[(i8, i8)] = if role == Role::Bishop {
                        &[(1, 1), (1, -1), (-1, 1), (-1, -1)]
                    } else {
                        &[(1, 0), (-1, 0), (0, 1), (0, -1)]
                    };
                    for &(df, dr) in rays {
                        let (mut f, mut r) = (file + df, rank + dr);
                        while let Some(t) = at(f, r) {
                            if own & (1 << t) != 0 {
                                break;
                            }
                            targets.push(t);
                            if theirs & (1 << t) != 0 {
                                break;
                            }
                            (f, r) = (f + df, r + dr);
                        }
                    }
                }
                Role::Pawn => {
                    let direction = self.direction(mover);
                    let dr = if direction == Direction::Up { 1 } else { -1 };
                    targets.extend(at(file, rank + dr).filter(|&t| empty & (1 << t) != 0));
                    if rule == PawnRule::Travel || direction == mover.home_direction() {
                        for df in [-1, 1] {
                            targets.extend(at(file + df, rank + dr).filter(|&t| theirs & (1 << t) != 0));
                        }
                    }
                }
            }
            moves.extend(targets.into_iter().map(|to| Move::Step { from, to }));
        }
        moves
    }

    /// Plays `m`, which must be legal; the plain reference.
    ///
    /// # Panics
    ///
    /// May panic, or give a meaningless position, if `m` is not legal.
    pub fn play_unchecked(&self, m: Move) -> Position {
        let mover = self.turn;
        let mut child = *self;
        let (slot, to) = match m {
            Move::Place { role, to } => {
                let slot = Piece { color: mover, role }.slot();
                if role == Role::Pawn {
                    child.directions[mover as usize] = mover.home_direction();
                }
                (slot, to)
            }
            Move::Step { from, to } => {
                let slot = (0..8).find(|&s| self.squares[s] == from).expect("a piece stands on the move's square");
                if let Some(captured) = self.piece_on(to) {
                    child.squares[captured.slot()] = HAND;
                    if captured.role == Role::Pawn {
                        child.directions[captured.color as usize] = captured.color.home_direction();
                    }
                }
                (slot, to)
            }
        };
        child.squares[slot] = to;
        if slot % 4 == Role::Pawn as usize {
            child.directions[mover as usize] = turned(to, child.directions[mover as usize]);
        }
        child.turn = mover.other();
        if child.opening && child.on_board(Color::White) >= 3 && child.on_board(Color::Black) >= 3 {
            child.opening = false;
        }
        child
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

#[cfg(test)]
mod tests;
