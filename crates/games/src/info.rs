//! How a game describes itself to the registry: what it is, what names
//! one board or variant of it, and what can be done with it.
//!
//! The games' own folders depend on this file, and the registry on them,
//! so that the list of games sits above the games and nothing below it.

use crate::params::{Field, Rendered, arguments};

/// What can be done with a game; each game lists the ones it supports.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Operation {
    /// Solve every position (or load the cached table) and summarise.
    Solve,
    /// What a solved game's table says of it as a whole, built first if
    /// need be.
    Summary,
    /// A position's value and every move's value.
    Probe,
    /// Perfect play from a position to the end.
    Line,
    /// Re-check every published claim.
    Verify,
    /// Play in the terminal against the computer, at a level.
    Play,
    /// Play games between two levels of the computer and count the results.
    Match,
    /// Positions where exactly one move keeps the result.
    Puzzle,
    /// Time the solver.
    Bench,
    /// Re-check every solved value against its children, with the plain rules.
    Audit,
    /// Make the compact copy of the table.
    Compact,
    /// Write the manifest a copy of the table is checked against.
    Manifest,
    /// Reports on the solved game.
    Report,
    /// Count the domain: positions, moves, terminal positions.
    Census,
    /// List the built-in boards.
    Boards,
}

impl Operation {
    /// Every operation, in the order the command line lists them.
    pub const ALL: [Operation; 15] = [
        Operation::Solve,
        Operation::Summary,
        Operation::Probe,
        Operation::Line,
        Operation::Verify,
        Operation::Play,
        Operation::Match,
        Operation::Puzzle,
        Operation::Bench,
        Operation::Audit,
        Operation::Compact,
        Operation::Manifest,
        Operation::Report,
        Operation::Census,
        Operation::Boards,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Solve => "solve",
            Operation::Summary => "summary",
            Operation::Probe => "probe",
            Operation::Line => "line",
            Operation::Verify => "verify",
            Operation::Play => "play",
            Operation::Match => "match",
            Operation::Puzzle => "puzzle",
            Operation::Bench => "bench",
            Operation::Audit => "audit",
            Operation::Compact => "compact",
            Operation::Manifest => "manifest",
            Operation::Report => "report",
            Operation::Census => "census",
            Operation::Boards => "boards",
        }
    }

    /// What it does, in one line.
    pub fn about(self) -> &'static str {
        match self {
            Operation::Solve => "Solve every position of a game (or load the cached table) and summarise",
            Operation::Summary => "Summarise a solved game: positions by result and the start's value",
            Operation::Probe => "Show a position's value and every move's value",
            Operation::Line => "Play perfectly from a position to the end, or until a position comes back",
            Operation::Verify => "Re-check every published claim about a game",
            Operation::Play => "Play a game in the terminal against the computer, perfect or weaker (--level)",
            Operation::Match => "Play games between two levels of the computer and count wins, draws and losses",
            Operation::Puzzle => "Draw puzzles from the solved game: positions where exactly one move keeps the result",
            Operation::Bench => "Time the solver with 1 and more threads, with peak memory",
            Operation::Audit => "Re-check every solved value against its children, with the plain rules",
            Operation::Compact => "Make the compact copy of a game's table and check it entry by entry",
            Operation::Manifest => {
                "Write a manifest beside a solved table (every file's size and SHA-256, the summary), which verify checks a copy against"
            }
            Operation::Report => "Reports on a solved game",
            Operation::Census => "Count a game's domain: positions, moves, terminal positions",
            Operation::Boards => "List a game's built-in boards",
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
    /// Its path under the game's in the web API (`probe` for
    /// `/api/GAME/probe`), if the web app serves it: with the same answer,
    /// and the fields a query may give.
    pub served: Option<&'static str>,
}

/// What the registry says about a game.
#[derive(Copy, Clone, Debug)]
pub struct GameInfo {
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

    /// The command line that does `operation` for the board `board` names
    /// (as [`Game::board`](crate::front::Game::board) gives it), such as
    /// `solved solve dodgem --size 5`, quoted for a shell where need be.
    pub fn command_line(&self, operation: Operation, board: &Rendered) -> String {
        let fields = self.operation(operation).map_or(self.fields, |s| s.fields);
        let mut words = vec!["solved".to_string(), operation.name().into(), self.id.into()];
        words.extend(arguments(fields, board).iter().map(|word| shell_quoted(word)));
        words.join(" ")
    }
}

fn shell_quoted(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_.,:/=@".contains(c));
    if plain { word.to_string() } else { format!("'{}'", word.replace('\'', r"'\''")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_a_shell_would_split_are_quoted() {
        assert_eq!(shell_quoted("B../B../.RR B"), "'B../B../.RR B'");
        assert_eq!(shell_quoted("it's"), r"'it'\''s'");
    }
}
