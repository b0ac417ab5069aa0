//! Dots and Boxes as the registry knows it: its parameters, its operations,
//! and the one parser of what a user asks for.

use super::wilson::{Diagram, Loony};
use super::{Board, Line, Player, Position, Variant, parse_moves};
use crate::contest::{GAMES_PLAYED, LEVELS};
use crate::info::{GameInfo, Operation, Supported};
use crate::levels::LEVEL;
use crate::params::{BASELINE, Field, HINTS, ParamError, Params, REPEAT, Rendered, SEED, THREAD_COUNTS};
use crate::puzzles::{COUNT, PUZZLE_SEED};

const ROWS: Field = Field::value("rows", "R", "Rows of boxes").required();
const COLS: Field = Field::value("cols", "C", "Columns of boxes").required();
const VARIANT: Field = Field::value(
    "variant",
    "VARIANT",
    "Lines drawn before the game: american (none), swedish (the outer boundary) or icelandic (the left and bottom boundary)",
)
.with_default("american");
const GAME: [Field; 3] = [ROWS, COLS, VARIANT];

pub(super) const MOVES: Field = Field::positional(
    "moves",
    "MOVES",
    "The lines drawn so far, in order, in Wilson's notation and separated by commas, e.g. \"ab,ba\"; empty for the start",
);
pub(super) const DIAGRAM: Field =
    Field::value("diagram", "FILE", "Read the position from a Wilson diagram instead").command_line_only();
pub(super) const TO_MOVE: Field =
    Field::value("to-move", "PLAYER", "Who is to move in the diagram, A or B (needed once boxes are taken)")
        .command_line_only();
const SIDE: Field = Field::value("as", "PLAYER", "Your side: A moves first").with_default("A").command_line_only();
const EXHAUSTIVE: Field = Field::flag(
    "exhaustive",
    "Also compare the quiet solver with the full sweep on every position of nine boards of at most 30 lines, and the search at the start, every first line and 10,000 random positions of each (several minutes)",
)
.command_line_only();

/// Claim 9 again, by a search of its own: hours, resumable.
pub(super) const SEARCH_AGAIN: Field = Field::flag(
    "search-again",
    "Also search 4x5 American's first lines again from nothing, to test the scores its record in the repository gives them, and so the start's value (hours on two threads; it keeps what it finds beside the tables and goes on from there when run again)",
)
.command_line_only();

/// Only for boards the sweep solves: the one layout a program of its own
/// reads simply, where the quiet table needs its search over captures.
pub(super) const SWEEP: Field = Field::flag(
    "sweep",
    "Also write the full sweep's table (boards of at most 30 undrawn lines): a byte for every set of drawn lines, read simply by other programs (docs/table-format.md)",
)
.command_line_only();

/// Any board of at most 64 undrawn lines, by alpha-beta search: the start
/// and every first line, without a table of every position. Boards too
/// large to table are searched unasked up to 49 lines (4×5's).
pub(super) const SEARCH: Field = Field::flag(
    "search",
    "Find the value of the start and of every first line by alpha-beta search instead of tabling every position (any board of at most 64 undrawn lines; boards too large to table are searched anyway up to 49 lines)",
)
.command_line_only();

/// Where a search keeps the bounds it finds on the first positions, to go
/// on from them after a stop.
pub(super) const RECORD: Field = Field::value(
    "record",
    "FILE",
    "With the search: keep the bounds found on the positions of at most 3 lines in FILE as they are found, and go on from what it holds (default: dots-and-boxes-RxC-VARIANT.search.json beside the tables)",
)
.command_line_only();

/// The memory of the search's table of bounds.
pub(super) const MEMORY: Field = Field::value(
    "memory",
    "GB",
    "With the search: the memory its table of bounds takes, in gigabytes [default: by the lines, up to 2]",
)
.command_line_only();

/// The most lines of a board too large to table that `solve` and `probe`
/// search without being asked: 4×5 American's, the largest board ever
/// solved.
pub(super) const UNASKED_SEARCH_LINES: u32 = 49;

/// The most bytes a diagram file may have: the largest board Wilson's
/// letters name, drawn with three text rows between dot rows, with room
/// for text around it.
const MAX_DIAGRAM_BYTES: u64 = 64 << 10;

/// Dots and Boxes in the registry.
pub const INFO: GameInfo = GameInfo {
    id: "dots-and-boxes",
    name: "Dots and Boxes",
    about: "American, Swedish and Icelandic boards: up to 30 undrawn lines by one descending sweep of every position, 3x5 and 4x4 American and the like from their quiet positions, with Wilson's loony marks",
    pitch: "Draw lines, close boxes, and learn when to give boxes away. Every board up to 30 lines is solved, and Wilson's famous 3×5 and 4×4 boards once built: every line shows the final score it leads to.",
    fields: &GAME,
    operations: &[
        Supported {
            operation: Operation::Solve,
            about: "Dots and Boxes",
            fields: &[ROWS, COLS, VARIANT, SWEEP, SEARCH, RECORD, MEMORY],
            served: None,
        },
        Supported {
            operation: Operation::Summary,
            about: "Dots and Boxes: the value of the start and of every first line",
            fields: &GAME,
            served: Some("summary"),
        },
        Supported {
            operation: Operation::Manifest,
            about: "Dots and Boxes: of the board's quiet table, or of its full sweep's",
            fields: &[ROWS, COLS, VARIANT, SWEEP, crate::manifest::CHECK],
            served: None,
        },
        Supported {
            operation: Operation::Probe,
            about: "Dots and Boxes",
            fields: &[ROWS, COLS, VARIANT, MOVES, DIAGRAM, TO_MOVE, LEVEL],
            served: Some("probe"),
        },
        Supported {
            operation: Operation::Verify,
            about: "Dots and Boxes (solves the small claimed boards if they are not cached; checks 3x5 and 4x4 American once built)",
            fields: &[EXHAUSTIVE, SEARCH_AGAIN, MEMORY],
            served: None,
        },
        Supported {
            operation: Operation::Play,
            about: "Dots and Boxes",
            fields: &[ROWS, COLS, VARIANT, SIDE, LEVEL, HINTS, SEED],
            served: None,
        },
        Supported {
            operation: Operation::Match,
            about: "Dots and Boxes, from the start",
            fields: &[ROWS, COLS, VARIANT, LEVELS, GAMES_PLAYED, SEED],
            served: None,
        },
        Supported {
            operation: Operation::Puzzle,
            about: "Dots and Boxes (moves name the position)",
            fields: &[
                Field::value("rows", "R", "Rows of boxes").with_default("3"),
                Field::value("cols", "C", "Columns of boxes").with_default("3"),
                VARIANT,
                COUNT,
                PUZZLE_SEED,
            ],
            served: Some("puzzle"),
        },
        Supported {
            operation: Operation::Bench,
            about: "Dots and Boxes",
            fields: &[ROWS, COLS, VARIANT, THREAD_COUNTS, REPEAT, BASELINE],
            served: None,
        },
    ],
};

impl Board {
    /// The board `params` name: `rows`, `cols` and `variant`.
    ///
    /// # Errors
    ///
    /// [`ParamError`] for a missing or unreadable size or variant, or a
    /// board out of reach.
    pub fn from_params(params: &Params) -> Result<Board, ParamError> {
        let (rows, cols, variant) = board_params(params)?;
        Board::new(rows, cols, variant).map_err(ParamError::game)
    }

    /// The board `params` name for the search alone, which takes boards
    /// too large to table.
    ///
    /// # Errors
    ///
    /// [`ParamError`] for a missing or unreadable size or variant, or a
    /// board of more than 64 undrawn lines.
    pub fn for_search_from_params(params: &Params) -> Result<Board, ParamError> {
        let (rows, cols, variant) = board_params(params)?;
        Board::for_search(rows, cols, variant).map_err(ParamError::game)
    }

    /// The parameters that name this board.
    pub fn to_params(&self) -> Rendered {
        vec![
            (ROWS.name, self.rows.to_string()),
            (COLS.name, self.cols.to_string()),
            (VARIANT.name, self.variant.id().to_string()),
        ]
    }
}

/// The size and variant `params` name.
fn board_params(params: &Params) -> Result<(u8, u8, Variant), ParamError> {
    let rows = params.required(ROWS.name, params.number::<u8>(ROWS.name)?)?;
    let cols = params.required(COLS.name, params.number::<u8>(COLS.name)?)?;
    let variant = params.required(VARIANT.name, params.parsed::<Variant>(VARIANT.name)?)?;
    Ok((rows, cols, variant))
}

/// What a probe asks about.
#[derive(Clone, Debug)]
pub struct ProbeRequest {
    /// The board.
    pub board: Board,
    /// The position.
    pub position: Position,
    /// Wilson's loony marks on the diagram the position came from.
    pub loony: Vec<(Line, Loony)>,
    /// Whether the board is too large to table, so its lines are scored by
    /// search.
    pub searched: bool,
}

/// The board and the position a probe asks about: the lines `moves`, in
/// order, or a Wilson `diagram` (a file) with `to-move`.
///
/// # Errors
///
/// [`ParamError`] saying what is wrong.
pub fn probe_request(params: &Params) -> Result<ProbeRequest, ParamError> {
    // A board too large to table is probed by search up to 4×5's lines.
    let (board, searched) = match Board::from_params(params) {
        Err(too_large) => match Board::for_search_from_params(params) {
            Ok(board) if board.free_line_count() <= UNASKED_SEARCH_LINES => (board, true),
            _ => return Err(too_large),
        },
        board => (board?, false),
    };
    if params.is_given(DIAGRAM.name) && params.is_given(MOVES.name) {
        return Err(ParamError::Combination("give the moves or a diagram, not both"));
    }
    let Some(text) = params.file(DIAGRAM.name, "diagram", MAX_DIAGRAM_BYTES)? else {
        if params.is_given(TO_MOVE.name) {
            return Err(ParamError::Combination("to-move is for a diagram: the moves say who is to move"));
        }
        let position = parse_moves(&board, params.text(MOVES.name).unwrap_or_default()).map_err(ParamError::game)?;
        return Ok(ProbeRequest { board, position, loony: Vec::new(), searched });
    };
    let diagram: Diagram =
        text.parse().map_err(|e| ParamError::Rejected { name: DIAGRAM.name, source: Box::new(e) })?;
    let to_move = params.parsed::<Player>(TO_MOVE.name)?;
    let position = board.position_from(&diagram, to_move).map_err(ParamError::game)?;
    Ok(ProbeRequest { board, position, loony: diagram.loony, searched })
}
