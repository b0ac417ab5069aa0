//! What the front ends (the command line, the web app) ask of a game: one
//! table of operations per game, as GamesmanOne's per-game API.
//!
//! A game fills in [`Game`] once, in its own folder, and is listed in
//! [`GAMES`](crate::registry::GAMES). A front end walks that list: it
//! turns what the user gave into [`Params`] by the fields the game
//! describes, asks the game for an [`Answer`] through [`Game::answer`],
//! and prints it as text or JSON (the command line) or sends it as JSON
//! (the web app). Tables come through the front end's [`Host`], which
//! solves them where the user waits (the command line) or builds them in
//! the background and says how far it has got (the web app). Neither
//! front end has a line of its own for any game.

mod answer;
mod host;
mod line;
mod session;

pub use self::answer::{Answer, Claims, Kept, MoveJson, TallyJson, graded, moves_table};
pub use self::host::{Build, Building, Busy, Host, Loaded, NotBuilt, Open, Refused, Wanted, Work, loaded};
pub use self::line::{PerfectLine, perfect_line};
pub use self::session::{Opponent, Playable, PositionOf, Seat, Session, session};

use solved_engine::{Progress, TableKey};

use crate::info::{GameInfo, Operation};
use crate::params::{ParamError, Params, Rendered};

/// One game, as the front ends reach it. Every method takes the parameters
/// the user gave for the operation (checked against its fields) and reads
/// them with the game's one parser.
pub trait Game: Sync + std::fmt::Debug {
    /// What the registry shows of it: its id, name, parameters and
    /// operations.
    fn info(&self) -> &'static GameInfo;

    /// The parameters of the board or variant `params` name, as the game
    /// writes them: what a command line that does the same again needs
    /// (see [`GameInfo::command_line`]).
    ///
    /// # Errors
    ///
    /// [`ParamError`] saying what is wrong.
    fn board(&self, params: &Params) -> Result<Rendered, ParamError>;

    /// Does `operation` (one the game lists, but [`Operation::Play`]) and
    /// answers.
    ///
    /// # Errors
    ///
    /// What went wrong, with its causes; among them, for the front end to
    /// tell apart: [`ParamError`], [`Refused`], [`Building`], [`NotBuilt`],
    /// [`Busy`] and [`Interrupted`](solved_engine::Interrupted).
    fn answer(&self, operation: Operation, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>>;

    /// A game against the perfect player, for [`Operation::Play`].
    ///
    /// # Errors
    ///
    /// As for [`answer`](Self::answer).
    fn session(&self, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Session>> {
        let _ = (params, host);
        anyhow::bail!("{} cannot be played in the terminal", self.info().name)
    }

    /// The solve that `solved bench` times, for a game with a table to
    /// solve; `None` for a game that times something else (it answers
    /// [`Operation::Bench`] itself).
    ///
    /// # Errors
    ///
    /// [`ParamError`] saying what is wrong.
    fn timed_solve(&self, params: &Params) -> Result<Option<TimedSolve>, ParamError> {
        let _ = params;
        Ok(None)
    }
}

/// A solve in memory, nothing saved, for `solved bench` to time.
pub struct TimedSolve {
    /// What the table is called and holds.
    pub key: TableKey,
    /// The solve (making fewer entries than the key's positions for a
    /// table of representatives).
    pub solve: Solve,
}

/// Solves every position in memory and returns how many table entries
/// that made.
pub type Solve = Box<dyn FnOnce(&dyn Progress) -> anyhow::Result<u64>>;

impl std::fmt::Debug for TimedSolve {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TimedSolve").field("key", &self.key).finish_non_exhaustive()
    }
}
