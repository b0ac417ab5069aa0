//! Solved tables: loaded from the cache, or solved and saved there.

use std::path::PathBuf;

use solved_engine::table::Encoding;
use solved_engine::{Interrupted, Payload, Progress, SolveError, Table, TableError, TableKey, TableStore};

/// Why a table could not be had.
#[derive(Debug, thiserror::Error)]
pub enum ObtainError {
    /// The cached file is unreadable or invalid, or the new one could not be saved.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The retrograde or layered solve failed or was interrupted.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The game is kept as units on disk, never as one table.
    #[error("{0} is kept as unit files, not as one table")]
    KeptAsUnits(String),
    /// A solve by units failed or was interrupted.
    #[error(transparent)]
    Units(#[from] solved_engine::units::UnitSolveError),
    /// Another computation for the table was interrupted.
    #[error("stopped before the table was saved")]
    Stopped(#[from] Interrupted),
}

/// Where a table came from.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Provenance {
    /// It was in the store already.
    Cached,
    /// It was solved just now and saved.
    Solved,
}

/// What solving a table takes, roughly, on two cores of the reference
/// machine (`docs/performance.md`; a test holds the estimates to it).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Cost {
    /// Seconds, writing the table included.
    pub seconds: f64,
    /// Peak memory, in bytes.
    pub bytes: u64,
}

/// A game whose values are one table, solved once and kept in a store.
pub trait Solvable {
    /// How the table stores its values.
    type Encoding: Encoding;
    /// What the solver gives, before it is saved.
    type Solution: Payload<Self::Encoding>;

    /// What the table of this game is called and holds.
    fn table_key(&self) -> TableKey;

    /// What solving it takes, roughly: so that a user can be told before a
    /// long solve starts.
    fn cost(&self) -> Cost;

    /// Solves every position in memory.
    ///
    /// # Errors
    ///
    /// As for the game's solver.
    fn solve(&self, progress: &dyn Progress) -> Result<Self::Solution, ObtainError>;

    /// Solves every position for a table to be saved in `store`. A game
    /// whose solve is long keeps a checkpoint there, and resumes from it.
    ///
    /// # Errors
    ///
    /// As for [`solve`](Self::solve).
    fn solve_for(&self, store: &TableStore, progress: &dyn Progress) -> Result<Self::Solution, ObtainError> {
        let _ = store;
        self.solve(progress)
    }

    /// The figures the table's header keeps about it, computed once from
    /// the fresh solution.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] if `progress` asks to stop.
    fn facts(
        &self,
        solution: &Self::Solution,
        progress: &dyn Progress,
    ) -> Result<Vec<(&'static str, u64)>, Interrupted> {
        let _ = (solution, progress);
        Ok(Vec::new())
    }

    /// The figures a table built for play keeps ([`obtain_for_play`]): by
    /// default all of them; a game whose figures take much longer than its
    /// solve keeps the quick ones, and works out the rest when asked.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] if `progress` asks to stop.
    fn play_facts(
        &self,
        solution: &Self::Solution,
        progress: &dyn Progress,
    ) -> Result<Vec<(&'static str, u64)>, Interrupted> {
        self.facts(solution, progress)
    }

    /// Removes what [`solve_for`](Self::solve_for) left in `store`, once
    /// the table is saved.
    ///
    /// # Errors
    ///
    /// [`TableError::Write`] if it cannot be removed.
    fn saved(&self, store: &TableStore) -> Result<(), TableError> {
        let _ = store;
        Ok(())
    }

    /// Solves in memory and returns how many table entries that made: what
    /// `solved bench` times.
    ///
    /// # Errors
    ///
    /// As for [`solve`](Self::solve).
    fn solve_in_memory(&self, progress: &dyn Progress) -> Result<u64, ObtainError> {
        self.solve(progress)?;
        Ok(self.table_key().positions)
    }
}

/// Where the table of `game` lives in `store`.
pub fn path_of<G: Solvable>(store: &TableStore, game: &G) -> PathBuf {
    store.path::<G::Encoding>(&game.table_key())
}

/// The table of `game` from `store`, or, if the store has none, solved,
/// saved to the store with its facts, and read back.
///
/// A solve holds the store's lock on the table: a second process asking
/// for it meanwhile waits (saying so through `progress`) and then reads
/// what the first saved.
///
/// # Errors
///
/// A cached file that is not a valid table of the game is an error (it is
/// not overwritten); so is a failed solve or save.
pub fn obtain<G: Solvable>(
    game: &G,
    store: &TableStore,
    progress: &dyn Progress,
) -> Result<(Table<G::Encoding>, Provenance), ObtainError> {
    obtain_keeping(game, store, progress, G::facts)
}

/// The same, for a page that waits to play: a table it solves keeps only
/// its [`play_facts`](Solvable::play_facts).
///
/// # Errors
///
/// As for [`obtain`].
pub fn obtain_for_play<G: Solvable>(
    game: &G,
    store: &TableStore,
    progress: &dyn Progress,
) -> Result<(Table<G::Encoding>, Provenance), ObtainError> {
    obtain_keeping(game, store, progress, G::play_facts)
}

/// The figures a solve keeps in its table's header.
type Facts<G> = fn(&G, &<G as Solvable>::Solution, &dyn Progress) -> Result<Vec<(&'static str, u64)>, Interrupted>;

fn obtain_keeping<G: Solvable>(
    game: &G,
    store: &TableStore,
    progress: &dyn Progress,
    facts: Facts<G>,
) -> Result<(Table<G::Encoding>, Provenance), ObtainError> {
    let key = game.table_key();
    if let Some(table) = store.open::<G::Encoding>(&key)? {
        return Ok((table, Provenance::Cached));
    }
    let path = store.path::<G::Encoding>(&key);
    let _lock = store.lock_for_building::<G::Encoding>(&key, || {
        progress.note(&format!("waiting for another process that is building {}", path.display()));
    })?;
    if let Some(table) = store.open::<G::Encoding>(&key)? {
        progress.note(&format!("loaded {}, which the other process built", path.display()));
        return Ok((table, Provenance::Cached));
    }
    let solution = game.solve_for(store, progress)?;
    let facts = facts(game, &solution, progress)?;
    let path = store.save::<G::Encoding>(&key, &facts, &solution)?;
    drop(solution);
    game.saved(store)?;
    Ok((Table::open(&path, &key)?, Provenance::Solved))
}
