//! The one list of games, through which the command line and the web server
//! reach them.
//!
//! Each game describes itself once, in its own folder, as a [`GameInfo`]
//! (see [`info`](crate::info)):
//! its id, name and one line about it, the [`Field`]s that name one board
//! or variant, and the [`Operation`]s it supports with the fields each one
//! takes. [`GAMES`] lists them; [`Game`] is one of them with its parameters
//! resolved, by the one parser each game has ([`Game::resolve`]), which
//! the command line and the web app both call.

use solved_engine::{Progress, TableKey};

pub use crate::info::{GameInfo, Kind, Operation, Supported};
use crate::params::{Field, ParamError, Params, Rendered, Shape};
use crate::tables::{ObtainError, Solvable};
use crate::{dodgem, dots_and_boxes, snakes, tic_tac_chec};

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
        match field.shape {
            Shape::Flag if value == "true" => arguments.push(format!("--{name}")),
            Shape::Flag => {}
            Shape::Value => arguments.extend([format!("--{name}"), value.clone()]),
            Shape::Positional => arguments.push(value.clone()),
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

    /// What the game's table is called and holds, or `None` for a game
    /// without a table.
    pub fn table_key(&self) -> Option<TableKey> {
        Some(match self {
            Game::Dodgem(game) => game.table_key(),
            Game::DotsAndBoxes(board) => board.bench_key(),
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
            Game::DotsAndBoxes(board) => board.bench_solve(progress),
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
