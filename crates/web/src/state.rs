//! What the server keeps: the table store, the tables loaded so far, the
//! one being built in the background, and answers worth keeping.

use std::any::Any;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use solved_engine::{Progress, Silent, Table, TableError, TableStore};
use solved_games::tables::{Solvable, obtain, path_of};

use crate::error::{ApiError, chain};

/// Tables with at most this many positions are built while the request
/// waits (well under a second); larger ones in the background.
const BUILD_AT_ONCE: u64 = 1 << 24;

/// Tables estimated to take longer than this to build (Wilson's 3×5 and
/// 4×4 Dots and Boxes boards, say) are never built on request: that is an
/// hour or more of both cores, which `solved solve` does with a checkpoint.
const BUILD_SECONDS: f64 = 600.0;

/// How many bytes of tables stay loaded. Past it the tables loaded longest
/// ago are let go (a request still using one keeps it until it is done),
/// so that a client walking through board sizes cannot fill the memory.
const CACHE_BYTES: u64 = 6 << 30;

/// How many computed answers are kept (see [`AppState::answer`]).
const ANSWERS: usize = 256;

/// Locks `mutex`, whether or not a thread panicked holding it: everything
/// kept behind these locks is whole between any two statements, so a panic
/// elsewhere leaves nothing half-done to fear.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The server's state, shared by every request.
#[derive(Debug)]
pub struct AppState {
    store: TableStore,
    /// The largest table (in positions) built on request; larger ones are
    /// left to the command line.
    build_limit: u64,
    tables: Mutex<Cache>,
    /// One lock per table, held while that table is read from disk or built
    /// at once, so that requests arriving together load or build it once
    /// and no request waits on a table it does not need.
    loading: Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>,
    /// The table being built in the background. One at a time: each may
    /// take gigabytes and both cores.
    job: Mutex<Option<Arc<Job>>>,
    answers: Mutex<Answers>,
}

/// Whether a table can be used yet.
#[derive(Debug)]
pub(crate) enum Availability<T> {
    /// Here it is.
    Ready(Arc<T>),
    /// Being built: the phase under way and the share of it done.
    Building { phase: String, step: u64, done: f64 },
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

/// Answers computed from a request alone, by what they answer, the oldest
/// let go first.
#[derive(Debug, Default)]
struct Answers {
    entries: HashMap<String, (u64, Loaded)>,
    made: u64,
}

/// A table being built, reporting how far it has got.
#[derive(Debug)]
struct Job {
    path: PathBuf,
    phase: Mutex<String>,
    /// Phases begun so far: the one under way is this one, from 1.
    steps: AtomicU64,
    total: AtomicU64,
    done: AtomicU64,
    failure: Mutex<Option<String>>,
}

impl Job {
    fn new(path: PathBuf) -> Job {
        Job {
            path,
            phase: Mutex::new("starting".into()),
            steps: AtomicU64::new(0),
            total: AtomicU64::new(0),
            done: AtomicU64::new(0),
            failure: Mutex::default(),
        }
    }

    fn availability<T>(&self) -> Availability<T> {
        let phase = lock(&self.phase).clone();
        let done = self.done.load(Relaxed) as f64 / self.total.load(Relaxed).max(1) as f64;
        Availability::Building { phase, step: self.steps.load(Relaxed), done: done.min(1.0) }
    }
}

impl Progress for Job {
    fn start(&self, phase: &str, total: u64) {
        *lock(&self.phase) = phase.to_string();
        self.steps.fetch_add(1, Relaxed);
        self.total.store(total, Relaxed);
        self.done.store(0, Relaxed);
    }

    fn note(&self, message: &str) {
        tracing::info!(table = %self.path.display(), "{message}");
    }

    fn advance(&self, units: u64) {
        self.done.fetch_add(units, Relaxed);
    }
}

impl AppState {
    /// A server working with the tables in `store`, building any on request.
    pub fn new(store: TableStore) -> AppState {
        AppState {
            store,
            build_limit: u64::MAX,
            tables: Mutex::default(),
            loading: Mutex::default(),
            job: Mutex::default(),
            answers: Mutex::default(),
        }
    }

    /// The same, building on request only tables of at most `positions`
    /// positions (none for 0); larger ones are answered with the command
    /// that builds them. For a server others can reach.
    #[must_use]
    pub fn with_build_limit(self, positions: u64) -> AppState {
        AppState { build_limit: positions, ..self }
    }

    /// The store the tables come from.
    pub(crate) fn store(&self) -> &TableStore {
        &self.store
    }

    fn cached<T: Send + Sync + 'static>(&self, path: &PathBuf) -> Option<Arc<T>> {
        lock(&self.tables).get(path)
    }

    fn keep<T: Send + Sync + 'static>(&self, path: PathBuf, bytes: u64, loaded: T) -> Arc<T> {
        let loaded = Arc::new(loaded);
        lock(&self.tables).keep(path, bytes, loaded.clone());
        loaded
    }

    /// The lock of the table at `path` (see `loading`).
    fn loading(&self, path: &Path) -> Arc<Mutex<()>> {
        lock(&self.loading).entry(path.to_path_buf()).or_default().clone()
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
        let loading = self.loading(&path);
        let _loading = lock(&loading);
        if let Some(loaded) = self.cached(&path) {
            return Ok(Some(loaded));
        }
        match open(&self.store).map_err(|e| ApiError::internal(&e))? {
            Some(loaded) => {
                let size = bytes(&loaded);
                tracing::info!(table = %path.display(), bytes = size, "loaded");
                Ok(Some(self.keep(path, size, loaded)))
            }
            None => Ok(None),
        }
    }

    /// The answer to a request that depends on nothing but `key` (an
    /// analysis, say), computed by `make` the first time and kept for the
    /// next. Blocks: call from a blocking thread.
    pub(crate) fn answer<T: Send + Sync + 'static>(&self, key: String, make: impl FnOnce() -> T) -> Arc<T> {
        if let Some(kept) = lock(&self.answers).entries.get(&key).and_then(|(_, a)| a.clone().downcast::<T>().ok()) {
            return kept;
        }
        let made = Arc::new(make());
        let mut answers = lock(&self.answers);
        answers.made += 1;
        let number = answers.made;
        answers.entries.insert(key, (number, made.clone()));
        if answers.entries.len() > ANSWERS {
            let oldest = answers.entries.iter().min_by_key(|(_, (n, _))| *n).map(|(key, _)| key.clone());
            answers.entries.remove(&oldest.expect("more than one answer is kept"));
        }
        made
    }

    /// The table of `game`: loaded, or built (small ones at once, large ones
    /// in the background, their progress reported until they are ready).
    /// Blocks: call from a blocking thread.
    ///
    /// # Errors
    ///
    /// [`ApiError`] 503 with the command that builds it for a table over the
    /// server's build limit or [`BUILD_SECONDS`]; 503 while another large
    /// table is built; 500
    /// for a table that cannot be read or built, saying why.
    pub(crate) fn table<G>(
        self: &Arc<AppState>,
        game: &G,
        command: impl FnOnce() -> String,
    ) -> Result<Availability<Table<G::Encoding>>, ApiError>
    where
        G: Solvable + Clone + Send + 'static,
    {
        let key = game.table_key();
        let path = path_of(&self.store, game);
        let existing = self.load(path.clone(), Table::size_in_bytes, |store| store.open::<G::Encoding>(&key))?;
        if let Some(table) = existing {
            return Ok(Availability::Ready(table));
        }
        if key.positions > self.build_limit {
            return Err(ApiError::not_built(
                format!(
                    "the {} {} ({}) table has not been built, and this server builds tables of at most {} positions",
                    key.game, key.size, key.variant, self.build_limit
                ),
                command(),
            ));
        }
        let cost = game.cost();
        if cost.seconds > BUILD_SECONDS {
            return Err(ApiError::not_built(
                format!(
                    "the {} {} ({}) table has not been built; it takes about {:.0} minutes, too long to build on request",
                    key.game,
                    key.size,
                    key.variant,
                    cost.seconds / 60.0
                ),
                command(),
            ));
        }
        if key.positions <= BUILD_AT_ONCE {
            let loading = self.loading(&path);
            let _loading = lock(&loading);
            if let Some(table) = self.cached(&path) {
                return Ok(Availability::Ready(table));
            }
            let (table, _) = obtain(game, &self.store, &Silent).map_err(|e| ApiError::internal(&e))?;
            return Ok(Availability::Ready(self.keep(path, table.size_in_bytes(), table)));
        }
        let mut job = lock(&self.job);
        // The builder may have finished since the look above.
        if let Some(table) = self.cached(&path) {
            return Ok(Availability::Ready(table));
        }
        if let Some(running) = job.as_ref() {
            if running.path != path {
                return Err(ApiError::busy("another large table is being built; try again when it is done"));
            }
            let failure = lock(&running.failure).take();
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
        tracing::info!(table = %path.display(), positions = key.positions, "building");
        std::thread::spawn(move || {
            let began = Instant::now();
            let built = catch_unwind(AssertUnwindSafe(|| obtain(&game, &state.store, &*builder)));
            let mut job = lock(&state.job);
            let seconds = began.elapsed().as_secs_f64();
            let failure = match built {
                Ok(Ok((table, _))) => {
                    tracing::info!(table = %path.display(), seconds, bytes = table.size_in_bytes(), "built");
                    state.keep(path, table.size_in_bytes(), table);
                    *job = None;
                    return;
                }
                Ok(Err(error)) => chain(&error),
                Err(_) => "building the table failed unexpectedly (see the server's log)".to_string(),
            };
            tracing::warn!(table = %path.display(), seconds, "building failed: {failure}");
            *lock(&builder.failure) = Some(failure);
        });
        Ok(running.availability())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_made_once_and_the_oldest_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let state = AppState::new(TableStore::new(dir.path()));
        let made = std::cell::Cell::new(0);
        let make = |n: u32| {
            made.set(made.get() + 1);
            n
        };
        assert_eq!(*state.answer("a".into(), || make(1)), 1);
        assert_eq!(*state.answer("a".into(), || make(2)), 1, "kept, not made again");
        assert_eq!(made.get(), 1);
        for i in 0..ANSWERS {
            state.answer(format!("other {i}"), || make(0));
        }
        assert_eq!(*state.answer("a".into(), || make(3)), 3, "the oldest was let go");
    }
}
