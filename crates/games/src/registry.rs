//! The one list of games, through which the command line and the web server
//! reach them.

use solved_engine::{Progress, TableKey, TableStore, retrograde};

use crate::dodgem::Dodgem;
use crate::tables::{ObtainError, Provenance, open_or_solve};
use solved_engine::Table;

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
pub const GAMES: &[GameInfo] = &[GameInfo {
    id: "dodgem",
    name: "Dodgem",
    about: "n×n Dodgem (2 to 5), normal and misère, by tiered retrograde analysis",
}];

/// A game with its variant and size chosen.
#[derive(Clone, Debug)]
pub enum Game {
    /// Dodgem.
    Dodgem(Dodgem),
}

impl Game {
    /// The registry's entry for this game.
    pub fn info(&self) -> &'static GameInfo {
        let id = match self {
            Game::Dodgem(_) => "dodgem",
        };
        GAMES.iter().find(|g| g.id == id).expect("every game is registered")
    }

    /// What this game's table is called and holds.
    pub fn table_key(&self) -> TableKey {
        match self {
            Game::Dodgem(game) => game.table_key(),
        }
    }

    /// Solves every position, reporting to `progress`.
    ///
    /// # Errors
    ///
    /// As for [`retrograde::solve`].
    pub fn solve(&self, progress: &dyn Progress) -> Result<retrograde::Solution, retrograde::SolveError> {
        match self {
            Game::Dodgem(game) => retrograde::solve(game, progress),
        }
    }

    /// The table from `store`, solving and saving it first if need be.
    ///
    /// # Errors
    ///
    /// As for [`open_or_solve`].
    pub fn table(&self, store: &TableStore, progress: &dyn Progress) -> Result<(Table, Provenance), ObtainError> {
        match self {
            Game::Dodgem(game) => {
                open_or_solve(store, &self.table_key(), || self.solve(progress), |values| game.facts(values, progress))
            }
        }
    }
}
