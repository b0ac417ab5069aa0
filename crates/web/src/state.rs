//! What the server keeps: the table store, the tables loaded so far, and
//! the one being built in the background.

use std::any::Any;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use solved_engine::{Progress, Silent, Table, TableError, TableStore};
use solved_games::tables::{Solvable, obtain, path_of};

use crate::error::{ApiError, chain};

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
pub(crate) enum Availability<T> {
    /// Here it is.
    Ready(Arc<T>),
    /// Being built: the phase under way and the share of it done.
    Building { phase: String, done: f64 },
}

/// Something loaded, of whatever type its game reads.
type Loaded = Arc<dyn Any + Send + Sync>;

/// What is loaded, each with the number of the load that brought it and
/// its size.
#[derive(Debug, Default)]
struct Cache {
    entries: HashMap<PathBuf, (u64, u64, Loaded)>,
    loads: u64,
}

impl Cache {
    fn get<T: Send + Sync + 'static>(&self, path: &PathBuf) -> Option<Arc<T>> {
        self.entries.get(path).and_then(|(_, _, loaded)| loaded.clone().downcast::<T>().ok())
    }

    fn keep(&mut self, path: PathBuf, bytes: u64, loaded: Loaded) {
        self.loads += 1;
        self.entries.insert(path, (self.loads, bytes, loaded));
        while self.entries.len() > 1 && self.entries.values().map(|(_, bytes, _)| bytes).sum::<u64>() > CACHE_BYTES {
            let oldest = self.entries.iter().min_by_key(|(_, (load, _, _))| *load).map(|(path, _)| path.clone());
            self.entries.remove(&oldest.expect("more than one entry is loaded"));
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

    fn availability<T>(&self) -> Availability<T> {
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

    /// The store the tables come from.
    pub(crate) fn store(&self) -> &TableStore {
        &self.store
    }

    fn cached<T: Send + Sync + 'static>(&self, path: &PathBuf) -> Option<Arc<T>> {
        self.tables.lock().expect("no handler panics holding the tables").get(path)
    }

    fn keep<T: Send + Sync + 'static>(&self, path: PathBuf, bytes: u64, loaded: T) -> Arc<T> {
        let loaded = Arc::new(loaded);
        self.tables.lock().expect("no handler panics holding the tables").keep(path, bytes, loaded.clone());
        loaded
    }

    /// What `open` reads from the store, kept under `path` once read: the
    /// same request made again costs nothing. `None` if there is nothing to
    /// read yet. Blocks: call from a blocking thread.
    pub(crate) fn load<T: Send + Sync + 'static>(
        &self,
        path: PathBuf,
        bytes: impl FnOnce(&T) -> u64,
        open: impl FnOnce(&TableStore) -> Result<Option<T>, TableError>,
    ) -> Result<Option<Arc<T>>, ApiError> {
        if let Some(loaded) = self.cached(&path) {
            return Ok(Some(loaded));
        }
        let _loading = self.loading.lock().expect("no handler panics while loading");
        if let Some(loaded) = self.cached(&path) {
            return Ok(Some(loaded));
        }
        match open(&self.store).map_err(|e| ApiError::internal(&e))? {
            Some(loaded) => {
                let size = bytes(&loaded);
                Ok(Some(self.keep(path, size, loaded)))
            }
            None => Ok(None),
        }
    }

    /// The table of `game`: loaded, or built (small ones at once, large ones
    /// in the background, their progress reported until they are ready).
    /// Blocks: call from a blocking thread.
    pub(crate) fn table<G>(self: &Arc<AppState>, game: &G) -> Result<Availability<Table<G::Encoding>>, ApiError>
    where
        G: Solvable + Clone + Send + 'static,
    {
        let key = game.table_key();
        let path = path_of(&self.store, game);
        let existing = self.load(path.clone(), Table::size_in_bytes, |store| store.open::<G::Encoding>(&key))?;
        if let Some(table) = existing {
            return Ok(Availability::Ready(table));
        }
        if key.positions <= BUILD_AT_ONCE {
            let _loading = self.loading.lock().expect("no handler panics while loading");
            if let Some(table) = self.cached(&path) {
                return Ok(Availability::Ready(table));
            }
            let (table, _) = obtain(game, &self.store, &Silent).map_err(|e| ApiError::internal(&e))?;
            return Ok(Availability::Ready(self.keep(path, table.size_in_bytes(), table)));
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
                return Err(ApiError::internal_message(failure));
            }
            return Ok(running.availability());
        }
        let running = Arc::new(Job::new(path.clone()));
        *job = Some(running.clone());
        let (state, game, builder) = (self.clone(), game.clone(), running.clone());
        std::thread::spawn(move || {
            let built = catch_unwind(AssertUnwindSafe(|| obtain(&game, &state.store, &*builder)));
            let mut job = state.job.lock().expect("no handler panics holding the job");
            let failure = match built {
                Ok(Ok((table, _))) => {
                    state.keep(path, table.size_in_bytes(), table);
                    *job = None;
                    return;
                }
                Ok(Err(error)) => chain(&error),
                Err(_) => "building the table failed unexpectedly (see the server's log)".to_string(),
            };
            *builder.failure.lock().expect("no builder panics holding its failure") = Some(failure);
        });
        Ok(running.availability())
    }
}
