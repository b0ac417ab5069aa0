//! What the server keeps: the table store, the tables loaded so far, and
//! the ones being built in the background.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use solved_engine::{Progress, Table, TableKey, TableStore};
use solved_games::registry::Game;

use crate::error::ApiError;

/// Tables with at most this many positions are built while the request
/// waits (well under a second); larger ones in the background.
const BUILD_AT_ONCE: u64 = 1 << 24;

/// The server's state, shared by every request.
#[derive(Debug)]
pub struct AppState {
    store: TableStore,
    tables: Mutex<HashMap<PathBuf, Arc<Table>>>,
    /// Held while a table is read from disk, so that requests arriving
    /// together load a multi-gigabyte table once.
    loading: Mutex<()>,
    jobs: Mutex<HashMap<PathBuf, Arc<Job>>>,
}

/// Whether a table can be used yet.
#[derive(Debug)]
pub(crate) enum Availability {
    /// Here it is.
    Ready(Arc<Table>),
    /// Being built; this share of the work is done.
    Building(f64),
}

/// A table being built, reporting how far it has got.
#[derive(Debug, Default)]
struct Job {
    total: AtomicU64,
    done: AtomicU64,
    failure: Mutex<Option<String>>,
}

impl Progress for Job {
    fn start(&self, _phase: &str, total: u64) {
        self.total.store(total, Relaxed);
        self.done.store(0, Relaxed);
    }

    fn advance(&self, units: u64) {
        self.done.fetch_add(units, Relaxed);
    }
}

impl AppState {
    /// A server working with the tables in `store`.
    pub fn new(store: TableStore) -> AppState {
        AppState { store, tables: Mutex::default(), loading: Mutex::default(), jobs: Mutex::default() }
    }

    fn cached(&self, path: &PathBuf) -> Option<Arc<Table>> {
        self.tables.lock().expect("no handler panics holding the tables").get(path).cloned()
    }

    fn keep(&self, path: PathBuf, table: Table) -> Arc<Table> {
        let table = Arc::new(table);
        self.tables.lock().expect("no handler panics holding the tables").insert(path, table.clone());
        table
    }

    /// The table of `key` if it has been built, loading it on first use.
    /// Blocks: call from a blocking thread.
    pub(crate) fn existing(&self, key: &TableKey) -> Result<Option<Arc<Table>>, ApiError> {
        let path = self.store.path(key);
        if let Some(table) = self.cached(&path) {
            return Ok(Some(table));
        }
        let _loading = self.loading.lock().expect("no handler panics while loading");
        if let Some(table) = self.cached(&path) {
            return Ok(Some(table));
        }
        match self.store.open(key).map_err(ApiError::internal)? {
            Some(table) => Ok(Some(self.keep(path, table))),
            None => Ok(None),
        }
    }

    /// The table of `game`: loaded, or built (small ones at once, large ones
    /// in the background, their progress reported until they are ready).
    /// Blocks: call from a blocking thread.
    pub(crate) fn table(self: &Arc<AppState>, game: &Game) -> Result<Availability, ApiError> {
        let key = game.table_key();
        if let Some(table) = self.existing(&key)? {
            return Ok(Availability::Ready(table));
        }
        let path = self.store.path(&key);
        if key.positions <= BUILD_AT_ONCE {
            let (table, _) = game.table(&self.store, &Job::default()).map_err(ApiError::internal)?;
            return Ok(Availability::Ready(self.keep(path, table)));
        }
        let mut jobs = self.jobs.lock().expect("no handler panics holding the jobs");
        if let Some(job) = jobs.get(&path) {
            if let Some(failure) = job.failure.lock().expect("no builder panics holding its failure").clone() {
                return Err(ApiError::internal(failure));
            }
            let total = job.total.load(Relaxed).max(1);
            return Ok(Availability::Building(job.done.load(Relaxed) as f64 / total as f64));
        }
        let job = Arc::new(Job::default());
        jobs.insert(path.clone(), job.clone());
        let (state, game) = (self.clone(), game.clone());
        std::thread::spawn(move || match game.table(&state.store, &*job) {
            Ok((table, _)) => {
                state.keep(path.clone(), table);
                state.jobs.lock().expect("no handler panics holding the jobs").remove(&path);
            }
            Err(error) => {
                *job.failure.lock().expect("no builder panics holding its failure") = Some(error.to_string());
            }
        });
        Ok(Availability::Building(0.0))
    }
}
