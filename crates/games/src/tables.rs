//! Solved tables: loaded from the cache, or solved and saved there.

use solved_engine::retrograde::SolveError;
use solved_engine::{Interrupted, Payload, Table, TableError, TableKey, TableStore};

/// Why a table could not be had.
#[derive(Debug, thiserror::Error)]
pub enum ObtainError {
    /// The cached file is unreadable or invalid, or the new one could not be saved.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The solve failed or was interrupted.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Computing the table's facts was interrupted.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
}

/// Where a table came from.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Provenance {
    /// It was in the store already.
    Cached,
    /// It was solved just now and saved.
    Solved,
}

/// The table of `key` from `store`, or, if the store has none, the result
/// of `solve`, saved to the store first with the `facts` computed from it.
///
/// # Errors
///
/// A cached file that is not a valid table of `key` is an error (it is not
/// overwritten); so is a failed solve or save.
pub fn open_or_solve<S: Payload>(
    store: &TableStore,
    key: &TableKey,
    solve: impl FnOnce() -> Result<S, SolveError>,
    facts: impl FnOnce(&S) -> Result<Vec<(&'static str, u64)>, Interrupted>,
) -> Result<(Table, Provenance), ObtainError> {
    if let Some(table) = store.open(key)? {
        return Ok((table, Provenance::Cached));
    }
    let solution = solve()?;
    let facts = facts(&solution)?;
    let path = store.save(key, &facts, &solution)?;
    drop(solution);
    Ok((Table::open(&path, key)?, Provenance::Solved))
}
