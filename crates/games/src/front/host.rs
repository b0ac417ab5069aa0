//! Where a game gets its tables: from the front end that asked, which
//! decides when a table is solved and who waits for it.
//!
//! The command line solves a missing table while the user waits, with a
//! progress bar; the web app loads each table once for every request,
//! builds small ones at once and large ones in the background (answering
//! [`Building`] meanwhile), and leaves the longest to the command line
//! ([`NotBuilt`]). A game says what it wants as a [`Wanted`] and gets it
//! back as the type it asked for.

use std::any::Any;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use solved_engine::{Progress, Table, TableKey, TableStore};

use super::Answer;
use crate::tables::{Cost, Provenance, Solvable, obtain, path_of};

/// What a host keeps loaded, of whatever type the game reads.
pub type Loaded = Arc<dyn Any + Send + Sync>;

/// Reads a wanted table from the store: what it holds and its size in
/// bytes, or `None` if it is not there yet.
pub type Open = Box<dyn Fn(&TableStore) -> anyhow::Result<Option<(Loaded, u64)>> + Send + Sync>;

/// Builds a wanted table and saves it in the store, reporting through the
/// progress; then what it holds, its size in bytes, and whether it was
/// built here or (by another process, meanwhile) found.
pub type Build = Box<dyn FnOnce(&TableStore, &dyn Progress) -> anyhow::Result<((Loaded, u64), Provenance)> + Send>;

/// What a host does to make what a game wants: the words it says of it,
/// and what it does past its budget.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Work {
    /// Solves a table, which is kept in the store: past the budget, its
    /// command builds it and the host reads it then.
    Build,
    /// Searches one position, kept in memory only: the command line prints
    /// what it finds and keeps nothing, so past the budget the host refuses.
    Search,
}

impl Work {
    /// What the host does, after "this server": "builds", "searches".
    pub fn verb(self) -> &'static str {
        match self {
            Work::Build => "builds",
            Work::Search => "searches",
        }
    }

    /// The work as a noun: "build", "search".
    pub fn noun(self) -> &'static str {
        match self {
            Work::Build => "build",
            Work::Search => "search",
        }
    }

    /// How its estimate is put: a search's time is known only within a
    /// range, whose top is the estimate.
    pub fn about(self) -> &'static str {
        match self {
            Work::Build => "about",
            Work::Search => "up to about",
        }
    }
}

/// A table a game wants (or a search of one position), and how to read or
/// make it.
pub struct Wanted {
    /// Where it is kept in the store: a file, or a directory of unit
    /// files. A host keeps what it loaded under this path.
    pub path: PathBuf,
    /// What it is, for messages: "the Dodgem 5x5 (normal) table".
    pub what: String,
    /// Whether it is built or searched.
    pub work: Work,
    /// What the table is called and holds.
    pub key: TableKey,
    /// The positions to report while it is built (what its solver
    /// counts, which may be fewer than the key's).
    pub positions: u64,
    /// The command that builds it on its own.
    pub command: String,
    /// Figures a front end shows beside the progress of a build, by name
    /// (the lines of a Dots and Boxes board, say).
    pub detail: BTreeMap<&'static str, u64>,
    /// Reads it.
    pub open: Open,
    /// Builds it, with what that takes; or, for what only its command
    /// makes (a solve by unit files, which takes hours and resumes), why
    /// it is not there.
    pub build: Result<(Cost, Build), String>,
    /// Whether a server may build it when a request asks for it: `false`
    /// for a table a page can do without until someone builds it.
    pub on_request: bool,
}

impl std::fmt::Debug for Wanted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wanted").field("path", &self.path).field("key", &self.key).finish_non_exhaustive()
    }
}

/// What a front end offers a game: the tables, a way to report progress,
/// and whether someone is waiting on a request.
pub trait Host: Sync {
    /// The store tables are kept in.
    fn store(&self) -> &TableStore;

    /// Where long work reports how far it has got.
    fn progress(&self) -> &dyn Progress;

    /// Whether the work answers a request that someone waits on (the web
    /// app): a game then does at most what a request may cost, and says
    /// so with [`Refused`].
    fn serves_requests(&self) -> bool;

    /// The table `wanted` describes: read, or built if the host builds it
    /// now.
    ///
    /// # Errors
    ///
    /// [`Building`] while it is built in the background, [`NotBuilt`] if
    /// the host leaves it to its command, [`Busy`] if the host is building
    /// another, and whatever reading or building it failed with.
    fn obtain(&self, wanted: Wanted) -> anyhow::Result<(Loaded, Provenance)>;

    /// What `make` answers, which depends on nothing but `key`: a host
    /// asked the same again and again keeps it for the next time.
    ///
    /// # Errors
    ///
    /// What `make` fails with (which is not kept).
    fn remember(
        &self,
        key: String,
        make: &mut dyn FnMut() -> anyhow::Result<Box<dyn Answer>>,
    ) -> anyhow::Result<Box<dyn Answer>> {
        let _ = key;
        make()
    }
}

impl Wanted {
    /// The table of `game` (a board of the game named `name`) in `store`,
    /// solved and saved there by its solver; `command` builds it on its
    /// own.
    pub fn table<G>(store: &TableStore, name: &'static str, game: &G, command: String) -> Wanted
    where
        G: Solvable + Clone + Send + Sync + 'static,
    {
        let key = game.table_key();
        let opened = key.clone();
        let solved = game.clone();
        Wanted {
            path: path_of(store, game),
            what: format!("the {name} {} ({}) table", key.size, key.variant),
            work: Work::Build,
            positions: key.positions,
            key,
            command,
            detail: BTreeMap::new(),
            open: Box::new(move |store| {
                let table = store.open::<G::Encoding>(&opened)?;
                Ok(table.map(|t| loaded(t.size_in_bytes(), t)))
            }),
            build: Ok((
                game.cost(),
                Box::new(move |store, progress| {
                    let (table, provenance) = obtain(&solved, store, progress)?;
                    Ok((loaded(table.size_in_bytes(), table), provenance))
                }),
            )),
            on_request: true,
        }
    }
}

impl dyn Host + '_ {
    /// The table of `game`, as [`Wanted::table`] describes it.
    ///
    /// # Errors
    ///
    /// As for [`Host::obtain`].
    pub fn table<G>(
        &self,
        name: &'static str,
        game: &G,
        command: String,
    ) -> anyhow::Result<(Arc<Table<G::Encoding>>, Provenance)>
    where
        G: Solvable + Clone + Send + Sync + 'static,
    {
        self.typed(Wanted::table(self.store(), name, game, command))
    }

    /// What `wanted` describes, as the type its `open` and `build` give.
    ///
    /// # Errors
    ///
    /// As for [`Host::obtain`].
    ///
    /// # Panics
    ///
    /// If `open` or `build` give another type than `T`.
    pub fn typed<T: Send + Sync + 'static>(&self, wanted: Wanted) -> anyhow::Result<(Arc<T>, Provenance)> {
        let (loaded, provenance) = self.obtain(wanted)?;
        let typed = loaded.downcast::<T>().unwrap_or_else(|_| panic!("a wanted table is read as the type it was made"));
        Ok((typed, provenance))
    }
}

/// `value` as a host keeps it, with its size.
pub fn loaded<T: Send + Sync + 'static>(bytes: u64, value: T) -> (Loaded, u64) {
    (Arc::new(value), bytes)
}

/// A table being built in the background: ask again. The web app answers
/// it with 202 and this body.
#[derive(Clone, Debug, Serialize, thiserror::Error)]
#[error("{what} is under way ({phase}, {:.0} % done)", done * 100.0)]
pub struct Building {
    /// Always `true`: what a client looks for.
    pub building: bool,
    /// Whether a table is built or a position searched.
    pub work: Work,
    /// What is made: "the Dodgem 5x5 (normal) table".
    pub what: String,
    /// The seconds it was estimated to take (for a search, the top of
    /// the estimate's range).
    pub estimate: f64,
    /// The solver's phase under way.
    pub phase: String,
    /// Which phase it is, from 1: a build may have several, each counted
    /// from 0 % again.
    pub step: u64,
    /// The share of the phase done.
    pub done: f64,
    /// The table's positions.
    pub positions: u64,
    /// The command that builds the table from the command line.
    pub command: String,
    /// What else the game shows of the table being built.
    #[serde(flatten)]
    pub detail: BTreeMap<&'static str, u64>,
}

/// A table the host leaves to the command line (too large, too long, or
/// made only by its own command), with that command.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{message}")]
pub struct NotBuilt {
    /// Why it is not there, and what building it takes.
    pub message: String,
    /// The command that builds it.
    pub command: String,
}

/// The host is busy with another table: try again when it is done.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{0}")]
pub struct Busy(pub String);

/// A request for more than this front end does on request, saying how
/// much it does.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);
