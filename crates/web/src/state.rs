//! What the server keeps: the table store, the tables loaded so far, and
//! the one being built in the background.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use solved_engine::{Progress, Silent, Table, TableKey, TableStore};
use solved_games::registry::Game;

use crate::error::ApiError;

/// Tables with at most this many positions are built while the request
/// waits (well under a second); larger ones in the background.
const BUILD_AT_ONCE: u64 = 1 << 24;

/// How many bytes of tables stay loaded. Past it the tables loaded longest
/// ago are let go (a request still using one keeps it until it is done),
/// so that a client walking through board sizes cannot fill the memory.
const CACHE_BYTES: u64 = 6 << 30;

/// The server's state, shared by every request.
#[derive(Debug)]
pub struct AppState {
    store: TableStore,
    tables: Mutex<Cache>,
    /// Held while a table is read from disk or built at once, so that
    /// requests arriving together load or build it once.
    loading: Mutex<()>,
    /// The table being built in the background. One at a time: each may
    /// take gigabytes and both cores.
    job: Mutex<Option<Arc<Job>>>,
}

/// Whether a table can be used yet.
#[derive(Debug)]
pub(crate) enum Availability {
    /// Here it is.
    Ready(Arc<Table>),
    /// Being built: the phase under way and the share of it done.
    Building { phase: String, done: f64 },
}

/// The tables loaded, each with the number of the load that brought it.
#[derive(Debug, Default)]
struct Cache {
    tables: HashMap<PathBuf, (u64, Arc<Table>)>,
    loads: u64,
}

impl Cache {
    fn get(&self, path: &PathBuf) -> Option<Arc<Table>> {
        self.tables.get(path).map(|(_, table)| table.clone())
    }

    fn keep(&mut self, path: PathBuf, table: Arc<Table>) {
        self.loads += 1;
        self.tables.insert(path, (self.loads, table));
        while self.tables.len() > 1 && self.tables.values().map(|(_, t)| t.size_in_bytes()).sum::<u64>() > CACHE_BYTES {
            let oldest = self.tables.iter().min_by_key(|(_, (load, _))| *load).map(|(path, _)| path.clone());
            self.tables.remove(&oldest.expect("more than one table is loaded"));
        }
    }
}

/// A table being built, reporting how far it has got.
#[derive(Debug)]
struct Job {
    path: PathBuf,
    phase: Mutex<String>,
    total: AtomicU64,
    done: AtomicU64,
    failure: Mutex<Option<String>>,
}

impl Job {
    fn new(path: PathBuf) -> Job {
        Job {
            path,
            phase: Mutex::new("starting".into()),
            total: AtomicU64::new(0),
            done: AtomicU64::new(0),
            failure: Mutex::default(),
        }
    }

    fn availability(&self) -> Availability {
        let phase = self.phase.lock().expect("no builder panics holding its phase").clone();
        let done = self.done.load(Relaxed) as f64 / self.total.load(Relaxed).max(1) as f64;
        Availability::Building { phase, done: done.min(1.0) }
    }
}

impl Progress for Job {
    fn start(&self, phase: &str, total: u64) {
        *self.phase.lock().expect("no builder panics holding its phase") = phase.to_string();
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
        AppState { store, tables: Mutex::default(), loading: Mutex::default(), job: Mutex::default() }
    }

    fn cached(&self, path: &PathBuf) -> Option<Arc<Table>> {
        self.tables.lock().expect("no handler panics holding the tables").get(path)
    }

    fn keep(&self, path: PathBuf, table: Table) -> Arc<Table> {
        let table = Arc::new(table);
        self.tables.lock().expect("no handler panics holding the tables").keep(path, table.clone());
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
            let _loading = self.loading.lock().expect("no handler panics while loading");
            if let Some(table) = self.cached(&path) {
                return Ok(Availability::Ready(table));
            }
            let (table, _) = game.table(&self.store, &Silent).map_err(ApiError::internal)?;
            return Ok(Availability::Ready(self.keep(path, table)));
        }
        let mut job = self.job.lock().expect("no handler panics holding the job");
        // The builder may have finished since the look above.
        if let Some(table) = self.cached(&path) {
            return Ok(Availability::Ready(table));
        }
        if let Some(running) = job.as_ref() {
            if running.path != path {
                return Err(ApiError::busy("another large table is being built; try again when it is done"));
            }
            let failure = running.failure.lock().expect("no builder panics holding its failure").take();
            if let Some(failure) = failure {
                // Said once; the next request tries again.
                *job = None;
                return Err(ApiError::internal(failure));
            }
            return Ok(running.availability());
        }
        let running = Arc::new(Job::new(path.clone()));
        *job = Some(running.clone());
        let (state, game, builder) = (self.clone(), game.clone(), running.clone());
        std::thread::spawn(move || {
            let built = catch_unwind(AssertUnwindSafe(|| game.table(&state.store, &*builder)));
            let mut job = state.job.lock().expect("no handler panics holding the job");
            let failure = match built {
                Ok(Ok((table, _))) => {
                    state.keep(path, table);
                    *job = None;
                    return;
                }
                Ok(Err(error)) => error.to_string(),
                Err(_) => "building the table failed unexpectedly (see the server's log)".to_string(),
            };
            *builder.failure.lock().expect("no builder panics holding its failure") = Some(failure);
        });
        Ok(running.availability())
    }
}
