//! Snakes and Ladders as the registry knows it: its parameters, its
//! operations, and the one parser of the board a user names.

use std::io;

use super::{Board, BoardError, Numbering, Overshoot, built_in, parse_board, parse_jumps};
use crate::info::{GameInfo, Operation, Supported};
use crate::params::{Field, ParamError, Params, Rendered};

const BOARD: Field = Field::value(
    "board",
    "NAME|FILE",
    "A built-in board (example-30, milton-bradley, milton-bradley-47) or a board file",
);
const GOAL: Field = Field::value("goal", "G", "The goal of an inline board (positions 0 to G)");
const JUMPS: Field = Field::value("jumps", "LIST", "The jumps of an inline board: FROM:TO,FROM:TO,...");
const NUMBERING: Field = Field::value(
    "numbering",
    "NUMBERING",
    "How an inline board is numbered: squares (0 is off the board) or cells (0 is the first cell)",
)
.with_default("squares");
const OVERSHOOT: Field =
    Field::value("overshoot", "RULE", "What a roll past the goal does: stay, bounce or pass").with_default("stay");
const GAME: [Field; 5] = [BOARD, GOAL, JUMPS, NUMBERING, OVERSHOOT];

const PER_SQUARE: Field =
    Field::flag("per-square", "Also give the expected turns from every square exactly").command_line_only();
const PMF: Field = Field::value("pmf", "T", "Also give P(the game ends on turn t) for t = 1 to T").command_line_only();
const PLAYERS: Field = Field::value("players", "K", "Also give each of K players' chance of winning a race (1 to 100)")
    .command_line_only();
const RUNS: Field = Field::value("runs", "N", "Timed runs of each case, the median reported (1 to 1000)")
    .with_default("5")
    .command_line_only();

/// The name of a board given inline, by its goal and jumps.
const CUSTOM: &str = "custom";

/// The most bytes a board file may have: a board of the largest goal with
/// a jump on every square, written out.
const MAX_BOARD_FILE_BYTES: u64 = 4 << 20;

/// Snakes and Ladders in the registry.
pub const INFO: GameInfo = GameInfo {
    id: "snakes",
    name: "Snakes and Ladders",
    about: "fewest throws, the exact expected length and the length distribution of any board",
    pitch: "No choices here, only dice: how many throws a board takes at best, on average, and how likely every length of game is, for the classic boards or your own.",
    fields: &GAME,
    operations: &[
        Supported {
            operation: Operation::Solve,
            about: "Snakes and Ladders: fewest throws, exact expected length, distribution of lengths",
            fields: &[BOARD, GOAL, JUMPS, NUMBERING, OVERSHOOT, PER_SQUARE, PMF, PLAYERS],
            served: Some("analyse"),
        },
        Supported {
            operation: Operation::Boards,
            about: "Snakes and Ladders: the built-in boards' names",
            fields: &[],
            served: Some("boards"),
        },
        Supported { operation: Operation::Verify, about: "Snakes and Ladders", fields: &[], served: None },
        Supported {
            operation: Operation::Bench,
            about: "Snakes and Ladders: the exact expectation of the 100-square board and of a generated 1,000-square board with 150 jumps",
            fields: &[RUNS],
            served: None,
        },
    ],
};

impl Board {
    /// The board `params` name: a built-in board or a board file by
    /// `board`, or one given inline by `goal`, `jumps` and `numbering`;
    /// played under the `overshoot` rule.
    ///
    /// # Errors
    ///
    /// [`ParamError`] saying what is wrong with the parameters or the board.
    pub fn from_params(params: &Params) -> Result<Board, ParamError> {
        let overshoot = params.required(OVERSHOOT.name, params.parsed::<Overshoot>(OVERSHOOT.name)?)?;
        let inline = params.is_given(GOAL.name) || params.is_given(JUMPS.name);
        let Some(name) = params.text(BOARD.name) else {
            if !inline {
                return Err(ParamError::Combination(
                    "give --board NAME|FILE, or an inline board with --goal and --jumps",
                ));
            }
            let goal = params.number::<u64>(GOAL.name)?;
            let goal = goal.ok_or(ParamError::Combination("an inline board needs its goal as well as its jumps"))?;
            let numbering = params.required(NUMBERING.name, params.parsed::<Numbering>(NUMBERING.name)?)?;
            let jumps = parse_jumps(params.text(JUMPS.name).unwrap_or_default())
                .map_err(|e| ParamError::Rejected { name: JUMPS.name, source: Box::new(e) })?;
            return Board::new(CUSTOM, goal, numbering, &jumps, overshoot).map_err(ParamError::game);
        };
        if inline {
            return Err(ParamError::Combination("give either board or goal and jumps, not both"));
        }
        if let Some(board) = built_in(name, overshoot) {
            return Ok(board);
        }
        let text = match params.read_file(name, MAX_BOARD_FILE_BYTES) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(ParamError::game(BoardError::Unknown(crate::params::quote(name))));
            }
            Err(source) => {
                return Err(ParamError::File { what: "board file", path: crate::params::quote(name), source });
            }
        };
        parse_board(name, &text, overshoot).map_err(|e| ParamError::Rejected { name: BOARD.name, source: Box::new(e) })
    }

    /// The parameters that name this board: by name, or inline.
    pub fn to_params(&self) -> Rendered {
        let mut params = if self.name == CUSTOM {
            let jumps: Vec<String> = self.jumps.iter().map(|(from, to)| format!("{from}:{to}")).collect();
            vec![
                (GOAL.name, self.goal.to_string()),
                (JUMPS.name, jumps.join(",")),
                (NUMBERING.name, self.numbering.id().to_string()),
            ]
        } else {
            vec![(BOARD.name, self.name.clone())]
        };
        params.push((OVERSHOOT.name, self.overshoot.id().to_string()));
        params
    }
}
