//! Tic-Tac-Chec as the registry knows it: the game under one pawn rule, its
//! parameters, its operations, and the tables a probe reads.

use std::sync::Arc;

use solved_engine::compact::Compact;
use solved_engine::table::Packed;
use solved_engine::{Table, TableError, TableStore, Value, Values};

use super::{PawnRule, TicTacChecIndex};
use crate::contest::{GAMES_PLAYED, LEVELS};
use crate::info::{GameInfo, Operation, Supported};
use crate::levels::LEVEL;
use crate::params::{BASELINE, Field, HINTS, ParamError, Params, REPEAT, Rendered, SEED, THREAD_COUNTS};
use crate::puzzles::{COUNT, PUZZLE_SEED};
use crate::tables::Solvable;

const PAWN: Field = Field::value(
    "pawn",
    "RULE",
    "May a pawn travelling back home capture? travel (yes, the canonical rule) or outbound (no)",
)
.with_default("travel");
const GAME: [Field; 1] = [PAWN];

const POSITION: Field = Field::positional(
    "position",
    "POSITION",
    "The position: ranks 4 to 1, side to move, pawn directions, phase, e.g. \"..../..../..../.... w -- open\" (the web app's default: the empty board)",
)
.required();
const SECTIONS: Field = Field::value(
    "sections",
    "LIST",
    "The parts to report, separated by commas: line (a drawing line from the empty board until it repeats), threats (how often a side can win at once, and the defences), variants (how the two pawn rules differ; needs both tables)",
)
.with_default("line,threats,variants")
.command_line_only();

const SIDE: Field =
    Field::value("as", "SIDE", "Your side: white (moves first) or black").with_default("white").command_line_only();

/// What a probe or a line starts from.
const PROBE: [Field; 2] = [PAWN, POSITION];
/// The same, and the level of the computer's move it names (`choice`).
const PROBE_FOR: [Field; 3] = [PAWN, POSITION, LEVEL];

/// Tic-Tac-Chec in the registry.
pub const INFO: GameInfo = GameInfo {
    id: "tic-tac-chec",
    name: "Tic-Tac-Chec",
    about: "all 2.46 billion positions after the opening and the 14 million in it, both pawn rules",
    pitch: "Tic-tac-toe on a 4×4 board with chess pieces. All 2.46 billion positions are solved: explore any position and see how each move ends with perfect play.",
    fields: &GAME,
    operations: &[
        Supported {
            operation: Operation::Solve,
            about: "Tic-Tac-Chec: every position after the opening and in it",
            fields: &GAME,
            served: None,
        },
        Supported {
            operation: Operation::Summary,
            about: "Tic-Tac-Chec: the table's totals and the empty board's value",
            fields: &GAME,
            served: Some("summary"),
        },
        Supported { operation: Operation::Probe, about: "Tic-Tac-Chec", fields: &PROBE_FOR, served: Some("probe") },
        Supported {
            operation: Operation::Play,
            about: "Tic-Tac-Chec (needs the table)",
            fields: &[PAWN, SIDE, LEVEL, HINTS, SEED],
            served: None,
        },
        Supported {
            operation: Operation::Match,
            about: "Tic-Tac-Chec, from the empty board (needs the table)",
            fields: &[PAWN, LEVELS, GAMES_PLAYED, SEED],
            served: None,
        },
        Supported {
            operation: Operation::Puzzle,
            about: "Tic-Tac-Chec (needs the table)",
            fields: &[PAWN, COUNT, PUZZLE_SEED],
            served: Some("puzzle"),
        },
        Supported { operation: Operation::Line, about: "Tic-Tac-Chec", fields: &PROBE, served: Some("line") },
        Supported {
            operation: Operation::Verify,
            about: "Tic-Tac-Chec (solves the travel table if it is not cached, and counts the domain under both pawn rules)",
            fields: &[],
            served: None,
        },
        Supported {
            operation: Operation::Bench,
            about: "Tic-Tac-Chec: the full solve, post-opening and opening",
            fields: &[PAWN, THREAD_COUNTS.with_default("2"), REPEAT, BASELINE],
            served: None,
        },
        Supported {
            operation: Operation::Audit,
            about: "Tic-Tac-Chec (solves the table first if it is not cached)",
            fields: &GAME,
            served: None,
        },
        Supported {
            operation: Operation::Compact,
            about: "Tic-Tac-Chec (solves the table first if it is not cached)",
            fields: &GAME,
            served: None,
        },
        Supported {
            operation: Operation::Manifest,
            about: "Tic-Tac-Chec: of the table solve writes",
            fields: &[PAWN, crate::manifest::CHECK],
            served: None,
        },
        Supported { operation: Operation::Report, about: "Tic-Tac-Chec", fields: &[PAWN, SECTIONS], served: None },
        Supported {
            operation: Operation::Census,
            about: "Tic-Tac-Chec's post-opening domain",
            fields: &GAME,
            served: None,
        },
    ],
};

/// Tic-Tac-Chec under one pawn rule.
#[derive(Clone, Debug)]
pub struct TicTacChec {
    pub(super) rule: PawnRule,
    pub(super) index: Arc<TicTacChecIndex>,
}

impl TicTacChec {
    /// The game under `rule`.
    pub fn new(rule: PawnRule) -> TicTacChec {
        TicTacChec { rule, index: Arc::new(TicTacChecIndex::new()) }
    }

    /// The game `params` name: the `pawn` rule.
    ///
    /// # Errors
    ///
    /// [`ParamError`] for an unknown rule.
    pub fn from_params(params: &Params) -> Result<TicTacChec, ParamError> {
        Ok(TicTacChec::new(params.required(PAWN.name, params.parsed::<PawnRule>(PAWN.name)?)?))
    }

    /// The parameters that name this game.
    pub fn to_params(&self) -> Rendered {
        vec![(PAWN.name, self.rule.id().to_string())]
    }

    /// The pawn rule.
    pub fn rule(&self) -> PawnRule {
        self.rule
    }

    /// The index.
    pub fn positions(&self) -> &TicTacChecIndex {
        &self.index
    }

    /// The values a probe reads from `store`: the compact copy if it has
    /// been made (a fifth of the memory), else the full table, else `None`.
    /// Nothing is solved here.
    ///
    /// # Errors
    ///
    /// A file that exists but is not a valid table of this game.
    pub fn open_for_probing(&self, store: &TableStore) -> Result<Option<ProbeValues>, TableError> {
        let key = self.table_key();
        if let Some(compact) = store.open::<Compact>(&key)? {
            return Ok(Some(ProbeValues::Compact(compact)));
        }
        Ok(store.open::<Packed>(&key)?.map(ProbeValues::Full))
    }
}

/// The values a probe reads: the full table or its compact copy.
#[derive(Debug)]
pub enum ProbeValues {
    /// The table, one byte a position.
    Full(Table<Packed>),
    /// Its lossless compact copy.
    Compact(Table<Compact>),
}

impl ProbeValues {
    /// The bytes it occupies.
    pub fn size_in_bytes(&self) -> u64 {
        match self {
            ProbeValues::Full(table) => table.size_in_bytes(),
            ProbeValues::Compact(table) => table.size_in_bytes(),
        }
    }

    /// The results its header records.
    pub fn tally(&self) -> solved_engine::Tally {
        match self {
            ProbeValues::Full(table) => table.header().tally,
            ProbeValues::Compact(table) => table.header().tally,
        }
    }
}

impl Values for ProbeValues {
    fn len(&self) -> u64 {
        match self {
            ProbeValues::Full(table) => table.len(),
            ProbeValues::Compact(table) => table.len(),
        }
    }

    fn probe(&self, idx: u64) -> Value {
        match self {
            ProbeValues::Full(table) => table.probe(idx),
            ProbeValues::Compact(table) => table.probe(idx),
        }
    }
}
