//! The one list of games, through which the command line and the web server
//! reach them.
//!
//! Each game describes itself once, in its own folder, as a [`Game`]: its
//! [`GameInfo`] (id, name, the [`Field`](crate::params::Field)s that name one board or variant,
//! the [`Operation`]s it supports with the fields each takes) and the
//! operations themselves. [`GAMES`] lists them; the command line and the
//! web app walk that list and nothing else.

pub use crate::front::Game;
pub use crate::info::{GameInfo, Operation, Supported};

/// Every game, in the order they are listed to users.
pub const GAMES: &[&dyn Game] =
    &[crate::dodgem::GAME, crate::dots_and_boxes::GAME, crate::snakes::GAME, crate::tic_tac_chec::GAME];

/// The game with id `id` among `games`.
pub fn find(games: &[&'static dyn Game], id: &str) -> Option<&'static dyn Game> {
    games.iter().copied().find(|g| g.info().id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{NoFiles, Params};

    #[test]
    fn every_game_is_listed_once_and_finds_itself() {
        for (i, game) in GAMES.iter().enumerate() {
            let info = game.info();
            assert_eq!(find(GAMES, info.id).map(|g| g.info().id), Some(info.id));
            assert!(GAMES[..i].iter().all(|other| other.info().id != info.id));
            for (j, op) in info.operations.iter().enumerate() {
                assert!(info.operations[..j].iter().all(|o| o.operation != op.operation), "{} {:?}", info.id, op);
                for (k, field) in op.fields.iter().enumerate() {
                    assert!(op.fields[..k].iter().all(|f| f.name != field.name), "{} {:?}", info.id, field);
                }
            }
            let served: Vec<&str> = info.operations.iter().filter_map(|op| op.served).collect();
            for (j, path) in served.iter().enumerate() {
                assert!(!served[..j].contains(path), "{} serves {path} twice", info.id);
            }
        }
    }

    #[test]
    fn rendered_parameters_resolve_to_the_same_game() {
        let cases: [(&str, &[(&str, &str)]); 6] = [
            ("dodgem", &[("size", "4"), ("misere", "true")]),
            ("dodgem", &[("size", "2")]),
            ("dots-and-boxes", &[("rows", "3"), ("cols", "5"), ("variant", "icelandic")]),
            ("snakes", &[("board", "milton-bradley"), ("overshoot", "bounce")]),
            ("snakes", &[("goal", "30"), ("jumps", "2:21,26:0"), ("numbering", "cells")]),
            ("tic-tac-chec", &[("pawn", "outbound")]),
        ];
        for (id, pairs) in cases {
            let game = find(GAMES, id).unwrap();
            let fields = game.info().fields;
            let pairs = pairs.iter().map(|(n, v)| (n.to_string(), v.to_string()));
            let rendered = game.board(&Params::new(pairs, fields, &NoFiles).unwrap()).unwrap();
            let pairs = rendered.iter().map(|(n, v)| (n.to_string(), v.clone()));
            let again = game.board(&Params::new(pairs, fields, &NoFiles).unwrap()).unwrap();
            assert_eq!(again, rendered, "{id}");
        }
    }

    #[test]
    fn suggested_commands_name_the_game_and_its_parameters() {
        let game = crate::dodgem::Dodgem::new(5, crate::dodgem::Objective::Misere).unwrap();
        assert_eq!(
            crate::dodgem::INFO.command_line(Operation::Solve, &game.to_params()),
            "solved solve dodgem --size 5 --misere"
        );
    }
}
