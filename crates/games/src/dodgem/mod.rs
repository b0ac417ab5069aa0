//! Dodgem on an n×n board (n = 2 to 6), normal and misère.
//!
//! Blue's n−1 cars start on the left column and move right, up or down; Red's
//! start on the bottom row and move up, left or right. Cars leave only across
//! their forward edge (Blue right, Red top). Blue moves first. Getting all
//! your cars off wins; so does having no legal move on your turn. Misère
//! reverses both.
//!
//! Squares are bits `rank * n + file` of a `u64`, so moves are shifts.

/// `$body` with `$N` a constant equal to the board size `$n`, so that the
/// numbering's hottest loops, compiled once per size, unroll and fold
/// their shifts and strides. The match always goes the same way.
macro_rules! for_size {
    ($n:expr, $N:ident => $body:expr) => {
        for_size!(@sizes $n, $N => $body; 2 3 4 5 6)
    };
    (@sizes $n:expr, $N:ident => $body:expr; $($size:literal)*) => {
        match $n {
            $($size => {
                const $N: usize = $size;
                $body
            })*
            n => unreachable!("a {n}x{n} board was made"),
        }
    };
}

mod answers;
mod claims;
mod front;
mod game;
mod index;
mod mirror;
mod notation;
mod on_disk;
mod play;
mod red_placements;
mod solve;
mod summary;
mod tiers;
mod units;

use std::fmt;
use std::sync::{Arc, OnceLock};

use solved_engine::{Plies, Value, bits};

pub use self::claims::{RecordMove, SolvedUnits, check_size, verify};
pub use self::front::GAME;
pub use self::game::{INFO, MoveError, RequestError, UnitOptions, probe_request, reads_units, unit_options};
pub use self::index::DodgemIndex;
use self::mirror::Transpose;
pub use self::notation::{ParseMoveError, ParsePlayerError, ParsePositionError};
pub use self::on_disk::{DodgemUnits, DodgemValues, Sampled, UnitFigures};
pub use self::solve::{EveryPosition, UnitStages};
pub use self::summary::{MissingFact, Summary};
pub use self::tiers::{ByTiers, same_values};
pub use self::units::UnitIndex;

/// A player.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
#[repr(u8)]
pub enum Player {
    /// Moves first, from the left column towards the right edge.
    Blue = 0,
    /// Moves second, from the bottom row towards the top edge.
    Red = 1,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::Blue => Player::Red,
            Player::Red => Player::Blue,
        }
    }

    /// `Blue` or `Red`.
    pub fn name(self) -> &'static str {
        match self {
            Player::Blue => "Blue",
            Player::Red => "Red",
        }
    }
}

/// A value for each player.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub struct ByPlayer<T> {
    /// Blue's.
    pub blue: T,
    /// Red's.
    pub red: T,
}

impl<T> std::ops::Index<Player> for ByPlayer<T> {
    type Output = T;

    fn index(&self, player: Player) -> &T {
        match player {
            Player::Blue => &self.blue,
            Player::Red => &self.red,
        }
    }
}

impl<T> std::ops::IndexMut<Player> for ByPlayer<T> {
    fn index_mut(&mut self, player: Player) -> &mut T {
        match player {
            Player::Blue => &mut self.blue,
            Player::Red => &mut self.red,
        }
    }
}

/// Whether reaching the goal wins or loses.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Objective {
    /// Getting all cars off, or being left without a move, wins.
    Normal,
    /// Getting all cars off, or being left without a move, loses.
    Misere,
}

impl Objective {
    /// `normal` or `misere`, as in table names.
    pub fn id(self) -> &'static str {
        match self {
            Objective::Normal => "normal",
            Objective::Misere => "misere",
        }
    }
}

/// The smallest board size.
pub const MIN_SIZE: u8 = 2;
/// The largest board size: 36 squares, 188,710,690,706 positions.
pub const MAX_SIZE: u8 = 6;
const _: () = assert!(MIN_SIZE == 2 && MAX_SIZE == 6, "for_size! lists every board size");
/// The largest board whose values are one table in memory (see
/// [`DodgemIndex`]); larger boards are kept as units on disk.
pub const MAX_FLAT_SIZE: u8 = 5;

/// A square, by file and rank counted from 0 at `a1`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Square {
    file: u8,
    rank: u8,
}

impl Square {
    /// The square on `file` and `rank`, both counted from 0.
    pub fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    /// The file, from 0 for `a`.
    pub fn file(self) -> u8 {
        self.file
    }

    /// The rank, from 0 for `1`.
    pub fn rank(self) -> u8 {
        self.rank
    }

    fn from_bit(bit: u32, size: u8) -> Square {
        Square { file: (bit % u32::from(size)) as u8, rank: (bit / u32::from(size)) as u8 }
    }

    fn bit(self, size: u8) -> u64 {
        1 << (u32::from(self.rank) * u32::from(size) + u32::from(self.file))
    }
}

/// Where a move takes a car.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub enum Destination {
    /// To an empty square.
    Square(Square),
    /// Off the board across the mover's forward edge.
    Off,
}

/// A move: the car on `from` goes to `to`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Move {
    /// The car's square.
    pub from: Square,
    /// Where it goes.
    pub to: Destination,
}

/// A position: where the cars are and whose turn it is.
///
/// Fields are private; positions come from [`Dodgem::start`], from parsing
/// (see [`notation`](self)), or from playing moves, and are always legal
/// placements: disjoint cars on the board, at most n−1 per side.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Position {
    size: u8,
    cars: ByPlayer<u64>,
    turn: Player,
}

impl Position {
    /// The board size n.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The side to move.
    pub fn turn(&self) -> Player {
        self.turn
    }

    /// The squares of `player`'s cars on the board.
    pub fn cars(&self, player: Player) -> impl Iterator<Item = Square> + use<> {
        let size = self.size;
        bits(self.cars[player]).map(move |bit| Square::from_bit(bit, size))
    }

    /// Whether neither side has a car on the board: a placement no game
    /// reaches, since the game ends when the first side's last car leaves.
    pub fn is_empty(&self) -> bool {
        self.cars.blue | self.cars.red == 0
    }

    /// The player whose car is on `square`, if any.
    pub fn car_on(&self, square: Square) -> Option<Player> {
        let bit = square.bit(self.size);
        [Player::Blue, Player::Red].into_iter().find(|&p| self.cars[p] & bit != 0)
    }

    /// The same cars with `turn` to move.
    pub fn with_turn(self, turn: Player) -> Position {
        Position { turn, ..self }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Ending {
    /// This player got its last car off the board.
    AllCarsOff(Player),
    /// This player, to move, has no legal move (which wins, unless misère).
    NoMove(Player),
}

/// The result of a finished game.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Outcome {
    /// Who won.
    pub winner: Player,
    /// How the game ended.
    pub reason: Ending,
}

/// Why a board size is refused.
#[derive(Copy, Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("board size must be {MIN_SIZE} to {MAX_SIZE}, not {0}")]
pub struct SizeError(pub u32);

/// Why a move cannot be played.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{m} is not legal in {position}: {reason}")]
pub struct PlayError {
    /// The move.
    pub m: String,
    /// The position it was tried in, in notation.
    pub position: String,
    /// Why not.
    pub reason: &'static str,
}

/// The game on one board size with one objective.
#[derive(Clone, Debug)]
pub struct Dodgem {
    size: u8,
    objective: Objective,
    board: u64,
    first_file: u64,
    last_file: u64,
    bottom_rank: u64,
    top_rank: u64,
    transpose: Arc<Transpose>,
    /// The index of the solve by tiers, built on first use on boards up to
    /// [`MAX_FLAT_SIZE`].
    index: Arc<OnceLock<DodgemIndex>>,
    units: Arc<OnceLock<UnitIndex>>,
}

/// Destinations of a side's on-board moves, by direction, as masks of the
/// target squares.
struct Steps {
    targets: [u64; 3],
    exits: u64,
}

impl Dodgem {
    /// Dodgem on a `size`×`size` board.
    ///
    /// # Errors
    ///
    /// [`SizeError`] unless `size` is 2 to 6.
    pub fn new(size: u32, objective: Objective) -> Result<Dodgem, SizeError> {
        if !(u32::from(MIN_SIZE)..=u32::from(MAX_SIZE)).contains(&size) {
            return Err(SizeError(size));
        }
        let n = size;
        let board = (1u64 << (n * n)) - 1;
        let first_file = (0..n).fold(0, |m, r| m | 1 << (r * n));
        let transpose = Arc::new(Transpose::new(size as u8));
        Ok(Dodgem {
            size: size as u8,
            objective,
            board,
            first_file,
            last_file: first_file << (n - 1),
            bottom_rank: (1 << n) - 1,
            top_rank: ((1 << n) - 1) << (n * (n - 1)),
            transpose,
            index: Arc::new(OnceLock::new()),
            units: Arc::new(OnceLock::new()),
        })
    }

    /// The board size n.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Normal or misère.
    pub fn objective(&self) -> Objective {
        self.objective
    }

    /// The index the solve by tiers used, kept to check the solve by
    /// units; `None` past [`MAX_FLAT_SIZE`].
    pub fn positions(&self) -> Option<&DodgemIndex> {
        (self.size <= MAX_FLAT_SIZE)
            .then(|| self.index.get_or_init(|| DodgemIndex::new(self.size, self.transpose.clone())))
    }

    /// The index of this board's units, built on first use.
    pub fn unit_index(&self) -> &UnitIndex {
        self.units.get_or_init(|| UnitIndex::new(self.size, self.transpose.clone()))
    }

    /// The mirror image of `pos`: reflected in the diagonal through `a1`,
    /// which swaps Blue and Red, with the other side to move. It has the
    /// same value and distance.
    pub fn mirror(&self, pos: &Position) -> Position {
        self.transpose.mirror(pos)
    }

    /// The starting position: Blue on `a2…an`, Red on `b1…n1`, Blue to move.
    pub fn start(&self) -> Position {
        Position {
            size: self.size,
            cars: ByPlayer { blue: self.first_file & !self.bottom_rank, red: self.bottom_rank & !self.first_file },
            turn: Player::Blue,
        }
    }

    /// Checks that `pos` is on this game's board.
    ///
    /// # Errors
    ///
    /// [`SizeError`] with the position's size if it differs.
    pub fn check(&self, pos: &Position) -> Result<(), SizeError> {
        if pos.size == self.size { Ok(()) } else { Err(SizeError(pos.size.into())) }
    }

    fn steps(&self, pos: &Position, player: Player) -> Steps {
        let n = u32::from(self.size);
        let cars = pos.cars[player];
        let empty = self.board & !(pos.cars.blue | pos.cars.red);
        let right = ((cars & !self.last_file) << 1) & empty;
        let up = (cars << n) & empty;
        match player {
            Player::Blue => Steps { targets: [right, up, (cars >> n) & empty], exits: cars & self.last_file },
            Player::Red => {
                Steps { targets: [up, ((cars & !self.first_file) >> 1) & empty, right], exits: cars & self.top_rank }
            }
        }
    }

    /// The number of legal moves on the board (not counting cars leaving).
    fn on_board_moves(&self, pos: &Position) -> u32 {
        self.steps(pos, pos.turn).targets.iter().map(|t| t.count_ones()).sum()
    }

    /// How the game ended at `pos`, or `None` while it goes on: the mover's
    /// opponent just got its last car off, or the mover has no legal move.
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        let last = pos.turn.other();
        let reason = if pos.cars[last] == 0 {
            Ending::AllCarsOff(last)
        } else {
            let steps = self.steps(pos, pos.turn);
            let stuck = steps.exits == 0 && steps.targets.iter().all(|&t| t == 0);
            if !stuck {
                return None;
            }
            Ending::NoMove(pos.turn)
        };
        // Getting all one's cars off wins, and so does being left without a
        // move (a player must always leave the other one); misère turns both
        // round.
        let (Ending::AllCarsOff(achiever) | Ending::NoMove(achiever)) = reason;
        let winner = match self.objective {
            Objective::Normal => achiever,
            Objective::Misere => achiever.other(),
        };
        Some(Outcome { winner, reason })
    }

    /// Whether the game is over at `pos`.
    pub fn is_over(&self, pos: &Position) -> bool {
        self.outcome(pos).is_some()
    }

    /// The value of `pos` for the side to move if the game is over there.
    pub fn terminal_value(&self, pos: &Position) -> Option<Value> {
        self.outcome(pos).map(|o| if o.winner == pos.turn { Value::Win(Plies(0)) } else { Value::Loss(Plies(0)) })
    }

    /// Calls `f(from, to)` for each car move of the side to move, as bit
    /// numbers of squares, `to` being `None` for a car leaving the board.
    /// Ignores whether the game is over.
    fn for_each_step(&self, pos: &Position, mut f: impl FnMut(u32, Option<u32>)) {
        let n = u32::from(self.size);
        let steps = self.steps(pos, pos.turn);
        // The square each direction's target came from.
        let sources: [fn(u32, u32) -> u32; 3] = match pos.turn {
            Player::Blue => [|t, _| t - 1, |t, n| t - n, |t, n| t + n],
            Player::Red => [|t, n| t - n, |t, _| t + 1, |t, _| t - 1],
        };
        for (targets, source) in steps.targets.into_iter().zip(sources) {
            for target in bits(targets) {
                f(source(target, n), Some(target));
            }
        }
        for exit in bits(steps.exits) {
            f(exit, None);
        }
    }

    /// Calls `f` with the position after each legal move, without building
    /// [`Move`]s. Ignores whether the game is over.
    pub(crate) fn for_each_child_unchecked(&self, pos: &Position, mut f: impl FnMut(Position)) {
        self.for_each_step(pos, |from, to| {
            let mut child = *pos;
            child.cars[pos.turn] = (pos.cars[pos.turn] & !(1 << from)) | to.map_or(0, |t| 1 << t);
            child.turn = pos.turn.other();
            f(child);
        });
    }

    /// The legal moves at `pos`, sorted; none once the game is over.
    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        if self.is_over(pos) {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.for_each_step(pos, |from, to| {
            let to = to.map_or(Destination::Off, |t| Destination::Square(Square::from_bit(t, self.size)));
            moves.push(Move { from: Square::from_bit(from, self.size), to });
        });
        moves.sort();
        moves
    }

    /// Plays `m`, which must be legal at `pos`.
    ///
    /// # Panics
    ///
    /// May panic or give a meaningless position if `m` is not legal.
    pub fn play_unchecked(&self, pos: &Position, m: Move) -> Position {
        let mut child = *pos;
        let cars = &mut child.cars[pos.turn];
        *cars &= !m.from.bit(self.size);
        if let Destination::Square(to) = m.to {
            *cars |= to.bit(self.size);
        }
        child.turn = pos.turn.other();
        child
    }

    /// Plays `m` at `pos` if it is legal.
    ///
    /// # Errors
    ///
    /// [`PlayError`] saying why the move is not legal.
    pub fn play(&self, pos: &Position, m: Move) -> Result<Position, PlayError> {
        if self.legal_moves(pos).contains(&m) {
            return Ok(self.play_unchecked(pos, m));
        }
        let error = |reason| PlayError { m: m.to_string(), position: pos.to_string(), reason };
        if self.is_over(pos) {
            return Err(error("the game is over"));
        }
        let on_board = |s: Square| s.file < self.size && s.rank < self.size;
        if !on_board(m.from) {
            return Err(error("that square is not on the board"));
        }
        match pos.car_on(m.from) {
            None => return Err(error("there is no car on that square")),
            Some(p) if p != pos.turn => {
                return Err(error("that car belongs to the side not on move"));
            }
            Some(_) => {}
        }
        Err(error(match m.to {
            Destination::Off => match pos.turn {
                Player::Blue => "Blue cars leave only from the rightmost file",
                Player::Red => "Red cars leave only from the top rank",
            },
            Destination::Square(to) if on_board(to) && pos.car_on(to).is_some() => "the target square is occupied",
            Destination::Square(_) => match pos.turn {
                Player::Blue => "Blue cars move one square right, up or down",
                Player::Red => "Red cars move one square up, left or right",
            },
        }))
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;
