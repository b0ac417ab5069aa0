//! How a game describes itself to the registry: what it is, what names
//! one board or variant of it, and what can be done with it.
//!
//! The games' own folders depend on this file, and the registry on them,
//! so that the list of games sits above the games and nothing below it.

use crate::params::Field;

/// What can be done with a game; each game lists the ones it supports.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Operation {
    /// Solve every position (or load the cached table) and summarise.
    Solve,
    /// A position's value and every move's value.
    Probe,
    /// Re-check every published claim.
    Verify,
    /// Play in the terminal against the perfect player.
    Play,
    /// Time the solver.
    Bench,
    /// Re-check every solved value against its children, with the plain rules.
    Audit,
    /// Make the compact copy of the table.
    Compact,
    /// Reports on the solved game.
    Report,
    /// Count the domain: positions, moves, terminal positions.
    Census,
}

impl Operation {
    /// Every operation, in the order the command line lists them.
    pub const ALL: [Operation; 9] = [
        Operation::Solve,
        Operation::Probe,
        Operation::Verify,
        Operation::Play,
        Operation::Bench,
        Operation::Audit,
        Operation::Compact,
        Operation::Report,
        Operation::Census,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Solve => "solve",
            Operation::Probe => "probe",
            Operation::Verify => "verify",
            Operation::Play => "play",
            Operation::Bench => "bench",
            Operation::Audit => "audit",
            Operation::Compact => "compact",
            Operation::Report => "report",
            Operation::Census => "census",
        }
    }

    /// What it does, in one line.
    pub fn about(self) -> &'static str {
        match self {
            Operation::Solve => "Solve every position of a game (or load the cached table) and summarise",
            Operation::Probe => "Show a position's value and every move's value",
            Operation::Verify => "Re-check every published claim about a game",
            Operation::Play => "Play a game in the terminal against the perfect player",
            Operation::Bench => "Time the solver with 1 and more threads, with peak memory",
            Operation::Audit => "Re-check every solved value against its children, with the plain rules",
            Operation::Compact => "Make the compact copy of a game's table and check it entry by entry",
            Operation::Report => "Reports on a solved game",
            Operation::Census => "Count a game's domain: positions, moves, terminal positions",
        }
    }
}

/// One operation a game supports: what it does for this game, and the
/// parameters it takes (the game's own among them, where it needs them).
#[derive(Copy, Clone, Debug)]
pub struct Supported {
    /// The operation.
    pub operation: Operation,
    /// What it does for this game, in one line.
    pub about: &'static str,
    /// Every parameter it takes.
    pub fields: &'static [Field],
}

/// What the registry says about a game.
#[derive(Copy, Clone, Debug)]
pub struct GameInfo {
    /// Which game.
    pub kind: Kind,
    /// The id used on the command line, in URLs and in table files.
    pub id: &'static str,
    /// The game's name.
    pub name: &'static str,
    /// One line on what is solved, for the command line.
    pub about: &'static str,
    /// A sentence or two for someone who has never heard of the game: what
    /// it is and what the tool shows about it, for the web app.
    pub pitch: &'static str,
    /// The parameters that name one board or variant of it.
    pub fields: &'static [Field],
    /// What can be done with it.
    pub operations: &'static [Supported],
}

impl GameInfo {
    /// The operation `operation`, if the game supports it.
    pub fn operation(&self, operation: Operation) -> Option<&'static Supported> {
        self.operations.iter().find(|s| s.operation == operation)
    }
}

/// Which game: the registry's own names for its entries.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Kind {
    /// Dodgem.
    Dodgem,
    /// Dots and Boxes.
    DotsAndBoxes,
    /// Snakes and Ladders.
    Snakes,
    /// Tic-Tac-Chec.
    TicTacChec,
}
