//! The one list of games, through which the command line and the web server
//! reach them.
//!
//! Each game describes itself once, in its own folder, as a [`GameInfo`]:
//! its id, name and one line about it, the [`Field`]s that name one board
//! or variant, and the [`Operation`]s it supports with the fields each one
//! takes. [`GAMES`] lists them; [`Game`] is one of them with its parameters
//! resolved, by the one parser each game has ([`Game::resolve`]), which
//! the command line and the web app both call.

use solved_engine::{Progress, TableKey};

use crate::params::{Field, Kind as FieldKind, ParamError, Params, Rendered};
use crate::tables::{ObtainError, Solvable};
use crate::{dodgem, dots_and_boxes, snakes, tic_tac_chec};

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
    /// One line on what is solved.
    pub about: &'static str,
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

/// The command-line arguments that give `params`, a game's parameters as it
/// renders them, for a command that takes `fields`: `--name value` for a
/// value, `--name` for a flag that is set, the bare value for a positional
/// one, and nothing for a value that is the default. The command line
/// re-invokes itself with them (`bench`), and the web app quotes them in
/// the commands it suggests.
///
/// # Panics
///
/// Panics if a parameter is not among `fields`: games render only their own.
pub fn arguments(fields: &[Field], params: &Rendered) -> Vec<String> {
    let mut arguments = Vec::new();
    for (name, value) in params {
        let field = fields.iter().find(|f| f.name == *name).expect("a game renders only its own parameters");
        if field.default == Some(value.as_str()) {
            continue;
        }
        match field.kind {
            FieldKind::Flag if value == "true" => arguments.push(format!("--{name}")),
            FieldKind::Flag => {}
            FieldKind::Value => arguments.extend([format!("--{name}"), value.clone()]),
            FieldKind::Positional => arguments.push(value.clone()),
        }
    }
    arguments
}

/// The command line that does `operation` for `game`, such as
/// `solved solve dodgem --size 5`, quoted for a shell where need be.
pub fn command_line(operation: Operation, game: &Game) -> String {
    let info = game.info();
    let fields = info.operation(operation).map_or(info.fields, |s| s.fields);
    let mut words = vec!["solved".to_string(), operation.name().into(), info.id.into()];
    words.extend(arguments(fields, &game.to_params()).iter().map(|word| shell_quoted(word)));
    words.join(" ")
}

fn shell_quoted(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_.,:/=@".contains(c));
    if plain { word.to_string() } else { format!("'{}'", word.replace('\'', r"'\''")) }
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

/// Every game, in the order they are listed to users.
pub const GAMES: [&GameInfo; 4] = [&dodgem::INFO, &dots_and_boxes::INFO, &snakes::INFO, &tic_tac_chec::INFO];

impl Kind {
    /// The registry's entry for this game.
    pub fn info(self) -> &'static GameInfo {
        match self {
            Kind::Dodgem => &dodgem::INFO,
            Kind::DotsAndBoxes => &dots_and_boxes::INFO,
            Kind::Snakes => &snakes::INFO,
            Kind::TicTacChec => &tic_tac_chec::INFO,
        }
    }

    /// The game with id `id`.
    pub fn from_id(id: &str) -> Option<Kind> {
        GAMES.iter().find(|g| g.id == id).map(|g| g.kind)
    }
}

/// A game with its board and variant chosen.
#[derive(Clone, Debug)]
pub enum Game {
    /// Dodgem.
    Dodgem(dodgem::Dodgem),
    /// Dots and Boxes.
    DotsAndBoxes(dots_and_boxes::Board),
    /// Snakes and Ladders.
    Snakes(snakes::Board),
    /// Tic-Tac-Chec.
    TicTacChec(tic_tac_chec::TicTacChec),
}

impl Game {
    /// The game of kind `kind` that `params` name, by that game's parser.
    ///
    /// # Errors
    ///
    /// [`ParamError`] saying what is wrong with the parameters.
    pub fn resolve(kind: Kind, params: &Params) -> Result<Game, ParamError> {
        Ok(match kind {
            Kind::Dodgem => Game::Dodgem(dodgem::Dodgem::from_params(params)?),
            Kind::DotsAndBoxes => Game::DotsAndBoxes(dots_and_boxes::Board::from_params(params)?),
            Kind::Snakes => Game::Snakes(snakes::Board::from_params(params)?),
            Kind::TicTacChec => Game::TicTacChec(tic_tac_chec::TicTacChec::from_params(params)?),
        })
    }

    /// Which game this is.
    pub fn kind(&self) -> Kind {
        match self {
            Game::Dodgem(_) => Kind::Dodgem,
            Game::DotsAndBoxes(_) => Kind::DotsAndBoxes,
            Game::Snakes(_) => Kind::Snakes,
            Game::TicTacChec(_) => Kind::TicTacChec,
        }
    }

    /// The registry's entry for this game.
    pub fn info(&self) -> &'static GameInfo {
        self.kind().info()
    }

    /// The parameters that name this game, which [`resolve`](Self::resolve)
    /// takes back.
    pub fn to_params(&self) -> Rendered {
        match self {
            Game::Dodgem(game) => game.to_params(),
            Game::DotsAndBoxes(board) => board.to_params(),
            Game::Snakes(board) => board.to_params(),
            Game::TicTacChec(game) => game.to_params(),
        }
    }

    /// A short description of the board and variant, such as `4x4 (misere)`.
    pub fn describe(&self) -> String {
        match self {
            Game::Dodgem(game) => game.describe(),
            Game::DotsAndBoxes(board) => board.describe(),
            Game::Snakes(board) => board.name().to_string(),
            Game::TicTacChec(game) => game.describe(),
        }
    }

    /// What the game's table is called and holds, or `None` for a game
    /// without a table.
    pub fn table_key(&self) -> Option<TableKey> {
        Some(match self {
            Game::Dodgem(game) => game.table_key(),
            Game::DotsAndBoxes(board) => board.table_key(),
            Game::TicTacChec(game) => game.table_key(),
            Game::Snakes(_) => return None,
        })
    }

    /// Solves every position in memory, saving nothing, and returns how
    /// many table entries that made: what `solved bench` times. `None` for
    /// a game without a table.
    ///
    /// # Errors
    ///
    /// As for the game's solver.
    pub fn solve_in_memory(&self, progress: &dyn Progress) -> Option<Result<u64, ObtainError>> {
        Some(match self {
            Game::Dodgem(game) => game.solve_in_memory(progress),
            Game::DotsAndBoxes(board) => board.solve_in_memory(progress),
            Game::TicTacChec(game) => game.solve_in_memory(progress),
            Game::Snakes(_) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::NoFiles;

    #[test]
    fn every_game_is_listed_once_and_finds_itself() {
        for (i, game) in GAMES.iter().enumerate() {
            assert_eq!(Kind::from_id(game.id), Some(game.kind));
            assert_eq!(game.kind.info().id, game.id);
            assert!(GAMES[..i].iter().all(|other| other.id != game.id && other.kind != game.kind));
            for (j, op) in game.operations.iter().enumerate() {
                assert!(game.operations[..j].iter().all(|o| o.operation != op.operation), "{} {:?}", game.id, op);
                for (k, field) in op.fields.iter().enumerate() {
                    assert!(op.fields[..k].iter().all(|f| f.name != field.name), "{} {:?}", game.id, field);
                }
            }
        }
    }

    #[test]
    fn rendered_parameters_resolve_to_the_same_game() {
        let named = |kind: Kind, pairs: &[(&str, &str)]| {
            let pairs = pairs.iter().map(|(n, v)| (n.to_string(), v.to_string()));
            Game::resolve(kind, &Params::new(pairs, kind.info().fields, &NoFiles).unwrap()).unwrap()
        };
        let games = [
            named(Kind::Dodgem, &[("size", "4"), ("misere", "true")]),
            named(Kind::Dodgem, &[("size", "2")]),
            named(Kind::DotsAndBoxes, &[("rows", "3"), ("cols", "5"), ("variant", "icelandic")]),
            named(Kind::Snakes, &[("board", "milton-bradley"), ("overshoot", "bounce")]),
            named(Kind::Snakes, &[("goal", "30"), ("jumps", "2:21,26:0"), ("numbering", "cells")]),
            named(Kind::TicTacChec, &[("pawn", "outbound")]),
        ];
        for game in games {
            let rendered = game.to_params();
            let pairs = rendered.iter().map(|(n, v)| (n.to_string(), v.clone()));
            let again = Game::resolve(game.kind(), &Params::new(pairs, game.info().fields, &NoFiles).unwrap()).unwrap();
            assert_eq!(again.to_params(), rendered, "{game:?}");
            assert_eq!(again.describe(), game.describe());
        }
    }

    #[test]
    fn suggested_commands_name_the_game_and_its_parameters() {
        let game = Game::Dodgem(crate::dodgem::Dodgem::new(5, crate::dodgem::Objective::Misere).unwrap());
        assert_eq!(command_line(Operation::Solve, &game), "solved solve dodgem --size 5 --misere");
        assert_eq!(shell_quoted("B../B../.RR B"), "'B../B../.RR B'");
        assert_eq!(shell_quoted("it's"), r"'it'\''s'");
    }
}
