//! The one list of games, through which the command line and the web server
//! reach them.

use std::time::Duration;

use solved_engine::retrograde::{self, Checkpointing, SolveError};
use solved_engine::table::Checkpoint;
use solved_engine::{Progress, Table, TableKey, TableStore};

use crate::dodgem::Dodgem;
use crate::dots_and_boxes::Board;
use crate::tables::{ObtainError, Provenance, open_or_solve};
use crate::tic_tac_chec::TicTacChec;

/// How long a checkpointed solve runs between two saves of its state.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(180);

/// What the registry says about a game.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct GameInfo {
    /// The id used on the command line and in table files.
    pub id: &'static str,
    /// The game's name.
    pub name: &'static str,
    /// One line on what is solved.
    pub about: &'static str,
}

/// Every game, in the order they are listed to users.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        id: "dodgem",
        name: "Dodgem",
        about: "n×n Dodgem (2 to 5), normal and misère, by tiered retrograde analysis",
    },
    GameInfo {
        id: "dots-and-boxes",
        name: "Dots and Boxes",
        about: "American, Swedish and Icelandic boards with up to 30 undrawn lines, by one descending sweep",
    },
    GameInfo {
        id: "snakes",
        name: "Snakes and Ladders",
        about: "fewest throws, the exact expected length and the length distribution of any board",
    },
    GameInfo {
        id: "tic-tac-chec",
        name: "Tic-Tac-Chec",
        about: "all 2.46 billion positions after the opening and the 14 million in it, both pawn rules",
    },
];

/// A game with its variant and size chosen.
#[derive(Clone, Debug)]
pub enum Game {
    /// Dodgem.
    Dodgem(Dodgem),
    /// Dots and Boxes.
    DotsAndBoxes(Board),
    /// Tic-Tac-Chec.
    TicTacChec(TicTacChec),
}

impl Game {
    /// The registry's entry for this game.
    pub fn info(&self) -> &'static GameInfo {
        let id = match self {
            Game::Dodgem(_) => "dodgem",
            Game::DotsAndBoxes(_) => "dots-and-boxes",
            Game::TicTacChec(_) => "tic-tac-chec",
        };
        GAMES.iter().find(|g| g.id == id).expect("every game is registered")
    }

    /// What this game's table is called and holds.
    pub fn table_key(&self) -> TableKey {
        match self {
            Game::Dodgem(game) => game.table_key(),
            Game::DotsAndBoxes(board) => board.table_key(),
            Game::TicTacChec(game) => game.table_key(),
        }
    }

    /// Solves every position in memory, saving nothing, and returns how
    /// many table entries that made: what `solved bench` times.
    ///
    /// # Errors
    ///
    /// As for the game's solver.
    pub fn solve_in_memory(&self, progress: &dyn Progress) -> Result<u64, SolveError> {
        match self {
            Game::Dodgem(game) => retrograde::solve(game, progress).map(|s| s.len()),
            Game::DotsAndBoxes(board) => board.solve(progress).map(|s| s.len()),
            Game::TicTacChec(game) => retrograde::solve(game, progress).map(|s| s.len()),
        }
    }

    /// The table from `store`, solving and saving it first if need be.
    ///
    /// # Errors
    ///
    /// As for [`open_or_solve`].
    pub fn table(&self, store: &TableStore, progress: &dyn Progress) -> Result<(Table, Provenance), ObtainError> {
        let key = self.table_key();
        match self {
            Game::Dodgem(game) => {
                open_or_solve(store, &key, || retrograde::solve(game, progress), |values| game.facts(values, progress))
            }
            Game::DotsAndBoxes(board) => open_or_solve(store, &key, || board.solve(progress), |_| Ok(Vec::new())),
            Game::TicTacChec(game) => {
                // Long enough to be interrupted: keep a checkpoint beside
                // the table, and resume from it.
                let checkpoint = Checkpoint::new(store.path(&key).with_extension("checkpoint"), key.clone());
                let checkpointing = Checkpointing { checkpoint: &checkpoint, every: CHECKPOINT_EVERY };
                let result = open_or_solve(
                    store,
                    &key,
                    || retrograde::solve_resumable(game, progress, Some(&checkpointing)),
                    |_| Ok(Vec::new()),
                )?;
                checkpoint.remove()?;
                Ok(result)
            }
        }
    }
}
