//! Dodgem as the registry knows it: its parameters, its operations, and the
//! one parser of what a user asks for.

use super::{Dodgem, Move, Objective, ParseMoveError, PlayError, Position};
use crate::contest::{GAMES_PLAYED, LEVELS};
use crate::info::{GameInfo, Operation, Supported};
use crate::levels::LEVEL;
use crate::params::{BASELINE, Field, HINTS, ParamError, Params, REPEAT, Rendered, SEED, THREAD_COUNTS};
use crate::puzzles::{COUNT, PUZZLE_SEED};

const SIZE: Field = Field::value("size", "N", "Board size (2 to 6)").required();
const MISERE: Field = Field::flag("misere", "Misère: getting all your cars off, or having no move, loses");
const GAME: [Field; 2] = [SIZE, MISERE];

const UNITS: Field =
    Field::flag("units", "Keep the solve as unit files on disk, as boards past 5x5 always are").command_line_only();
const READ_UNITS: Field =
    Field::flag("units", "Read the unit files of a solve --units, as boards past 5x5 always are").command_line_only();
const MEMORY: Field = Field::value(
    "memory",
    "GB",
    "The most memory a solve by units takes at once for its tables, in gigabytes: a unit that would take more reads \
     the units it depends on in passes [default: 4]",
)
.command_line_only();
const SPLIT_FROM: Field = Field::value(
    "split-from",
    "POSITIONS",
    "Under mpirun (a build with --features mpi), units of at least this many positions are solved by every rank at once, each a slice of it",
)
.command_line_only();

const POSITION: Field = Field::positional(
    "position",
    "POSITION",
    "The position, ranks from the top, e.g. \"B../B../.RR B\" [default: the start of a --size board]",
);
const MOVES: Field = Field::value("moves", "MOVES", "Moves to play first, e.g. \"a3-b3 c1-c2\"");
const SIDE: Field =
    Field::value("as", "SIDE", "Your side: blue (moves first) or red").with_default("blue").command_line_only();

/// What a probe or a line starts from.
const PROBE: [Field; 5] =
    [Field::value("size", "N", "Board size (2 to 6) [default: the position's]"), MISERE, POSITION, MOVES, READ_UNITS];
/// The same, and the level of the computer's move it names (`choice`).
const PROBE_FOR: [Field; 6] = [PROBE[0], MISERE, POSITION, MOVES, READ_UNITS, LEVEL];

/// Dodgem in the registry.
pub const INFO: GameInfo = GameInfo {
    id: "dodgem",
    name: "Dodgem",
    about: "n×n Dodgem (2 to 6), normal and misère, solved a unit at a time by retrograde analysis",
    pitch: "Race your cars across the board before the other side does. Every position of the 3×3 to 5×5 boards (and 6×6, solved offline) has a known result: play the perfect opponent and see what each move is worth.",
    fields: &GAME,
    operations: &[
        Supported {
            operation: Operation::Solve,
            about: "Dodgem",
            fields: &[SIZE, MISERE, UNITS, MEMORY, SPLIT_FROM],
            served: None,
        },
        Supported {
            operation: Operation::Summary,
            about: "Dodgem: positions by result, the start's value, the longest games",
            fields: &[SIZE, MISERE, READ_UNITS],
            served: Some("summary"),
        },
        Supported { operation: Operation::Probe, about: "Dodgem", fields: &PROBE_FOR, served: Some("probe") },
        Supported { operation: Operation::Line, about: "Dodgem", fields: &PROBE, served: Some("line") },
        Supported {
            operation: Operation::Verify,
            about: "Dodgem (solves 3x3, 4x4 and 5x5 if they are not cached)",
            fields: &[],
            served: None,
        },
        Supported {
            operation: Operation::Audit,
            about: "Dodgem: every position, either side to move, through its table or unit files",
            fields: &[SIZE, MISERE, READ_UNITS, MEMORY],
            served: None,
        },
        Supported {
            operation: Operation::Manifest,
            about: "Dodgem: of its table, or of its unit directory (--units; always for 6x6)",
            fields: &[SIZE, MISERE, READ_UNITS, crate::manifest::CHECK],
            served: None,
        },
        Supported {
            operation: Operation::Play,
            about: "Dodgem",
            fields: &[SIZE, MISERE, SIDE, LEVEL, HINTS, SEED, READ_UNITS],
            served: None,
        },
        Supported {
            operation: Operation::Match,
            about: "Dodgem, from the start",
            fields: &[SIZE, MISERE, LEVELS, GAMES_PLAYED, SEED, READ_UNITS],
            served: None,
        },
        Supported {
            operation: Operation::Puzzle,
            about: "Dodgem",
            fields: &[
                Field::value("size", "N", "Board size (2 to 6)").with_default("4"),
                MISERE,
                COUNT,
                PUZZLE_SEED,
                READ_UNITS,
            ],
            served: Some("puzzle"),
        },
        Supported {
            operation: Operation::Bench,
            about: "Dodgem",
            fields: &[SIZE, MISERE, THREAD_COUNTS, REPEAT, BASELINE],
            served: None,
        },
    ],
};

/// Why a probe's position cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// A size given beside a position of another size.
    #[error("the position is on a {position}x{position} board, not {asked}x{asked}")]
    SizeMismatch {
        /// The position's board size.
        position: u8,
        /// The size asked for.
        asked: u32,
    },
    /// A move to play first that cannot be.
    #[error("move {number}")]
    Move {
        /// The move's place in the list, from 1.
        number: usize,
        /// What is wrong with it.
        source: MoveError,
    },
}

/// What is wrong with a move given as text.
#[derive(Debug, thiserror::Error)]
pub enum MoveError {
    /// It is not a move.
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    /// It cannot be played.
    #[error(transparent)]
    Play(#[from] PlayError),
}

fn objective(params: &Params) -> Result<Objective, ParamError> {
    Ok(if params.flag(MISERE.name)? { Objective::Misere } else { Objective::Normal })
}

impl Dodgem {
    /// The game `params` name: `size` and `misere`.
    ///
    /// # Errors
    ///
    /// [`ParamError`] for a missing or unreadable size, or a size without a
    /// board.
    pub fn from_params(params: &Params) -> Result<Dodgem, ParamError> {
        let size = params.required(SIZE.name, params.number::<u32>(SIZE.name)?)?;
        Dodgem::new(size, objective(params)?).map_err(ParamError::game)
    }

    /// The parameters that name this game.
    pub fn to_params(&self) -> Rendered {
        let mut params = vec![(SIZE.name, self.size.to_string())];
        if self.objective == Objective::Misere {
            params.push((MISERE.name, "true".into()));
        }
        params
    }

    /// The parameters of a solve that keeps this board as unit files.
    pub fn to_unit_params(&self) -> Rendered {
        let mut params = self.to_params();
        if self.size <= super::MAX_FLAT_SIZE {
            params.push((UNITS.name, "true".into()));
        }
        params
    }
}

/// How a solve keeps its units.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct UnitOptions {
    /// As unit files on disk rather than one table.
    pub on_disk: bool,
    /// Bytes of tables a solve by units holds at once (see
    /// [`UnitSolver::within`](solved_engine::units::UnitSolver::within)),
    /// a quarter of them for finished units kept for the units that read them.
    pub memory: u64,
    /// The fewest positions of a unit solved by every rank of an `mpirun`
    /// at once, if any is.
    pub split_from: Option<u64>,
}

/// Memory for a solve by units unless `--memory` says otherwise: 6×6 in
/// 4 GiB, its largest units reading their dependencies in passes (the
/// largest with everything it reads would take 6.1 GB at once).
const DEFAULT_MEMORY_GB: f64 = 4.0;

/// What `--units` and `--memory` ask of a solve of `game`: boards past
/// [`MAX_FLAT_SIZE`](super::MAX_FLAT_SIZE) are always on disk.
///
/// # Errors
///
/// [`ParamError`] for a memory that is not a positive number.
pub fn unit_options(game: &Dodgem, params: &Params) -> Result<UnitOptions, ParamError> {
    let gigabytes = params.number::<f64>(MEMORY.name)?.unwrap_or(DEFAULT_MEMORY_GB);
    if !(gigabytes.is_finite() && gigabytes >= 0.0) {
        return Err(ParamError::Combination("--memory is a number of gigabytes, 0 or more"));
    }
    let on_disk = params.flag(UNITS.name)? || game.size > super::MAX_FLAT_SIZE;
    if params.is_given(MEMORY.name) && !on_disk {
        return Err(ParamError::Combination("--memory is for a solve by units: give --units too"));
    }
    let split_from = params.number::<u64>(SPLIT_FROM.name)?;
    if split_from.is_some() && !on_disk {
        return Err(ParamError::Combination("--split-from is for a solve by units: give --units too"));
    }
    Ok(UnitOptions { on_disk, memory: (gigabytes * 1e9) as u64, split_from })
}

/// Whether a probe or a game of `game` reads unit files rather than one
/// table: boards past [`MAX_FLAT_SIZE`](super::MAX_FLAT_SIZE) always do.
///
/// # Errors
///
/// [`ParamError`] for a `--units` that is not a flag.
pub fn reads_units(game: &Dodgem, params: &Params) -> Result<bool, ParamError> {
    Ok(params.flag(READ_UNITS.name)? || game.size > super::MAX_FLAT_SIZE)
}

/// The game and the position a probe asks about: `position` (or the start
/// of a `size` board) after `moves`, each checked; the game is of the
/// position's size.
///
/// # Errors
///
/// [`ParamError`] saying what is wrong.
pub fn probe_request(params: &Params) -> Result<(Dodgem, Position), ParamError> {
    let given = params.parsed::<Position>(POSITION.name)?;
    let size = params.number::<u32>(SIZE.name)?;
    let mut pos = match (given, size) {
        (Some(pos), Some(asked)) if asked != u32::from(pos.size()) => {
            return Err(ParamError::game(RequestError::SizeMismatch { position: pos.size(), asked }));
        }
        (Some(pos), _) => pos,
        (None, Some(size)) => Dodgem::new(size, Objective::Normal).map_err(ParamError::game)?.start(),
        (None, None) => return Err(ParamError::Combination("give a position, or a size for the starting position")),
    };
    if pos.is_empty() {
        return Err(ParamError::Combination(
            "the position has no car on the board: a game is over when a side's last car leaves",
        ));
    }
    let game = Dodgem::new(pos.size().into(), objective(params)?).map_err(ParamError::game)?;
    let moves = params.text(MOVES.name).unwrap_or_default();
    for (i, text) in moves.split([' ', ',']).filter(|m| !m.is_empty()).enumerate() {
        let error = |source: MoveError| ParamError::game(RequestError::Move { number: i + 1, source });
        let m = text.parse::<Move>().map_err(|e| error(e.into()))?;
        pos = game.play(&pos, m).map_err(|e| error(e.into()))?;
    }
    Ok((game, pos))
}
