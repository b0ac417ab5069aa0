//! What the server keeps: the table store, the tables loaded so far, the
//! one being built in the background, and answers worth keeping.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use solved_engine::{Progress, TableStore};
use solved_games::front::{Answer, Game, Kept, Loaded, Open};
use solved_games::registry::GAMES;

use crate::budget::{Budget, DEADLINE, Turns};

/// How many bytes of tables stay loaded. Past it the tables loaded longest
/// ago are let go (a request still using one keeps it until it is done),
/// so that a client walking through board sizes cannot fill the memory.
const CACHE_BYTES: u64 = 6 << 30;

/// How many computed answers are kept (see [`AppState::answer`]).
const ANSWERS: usize = 256;

/// Locks `mutex`, whether or not a thread panicked holding it: everything
/// kept behind these locks is whole between any two statements, so a panic
/// elsewhere leaves nothing half-done to fear.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The server's state, shared by every request.
#[derive(Debug)]
pub struct AppState {
    store: TableStore,
    /// The games served.
    games: Vec<&'static dyn Game>,
    /// What a table built on request may cost; dearer ones are left to
    /// the command line.
    pub(crate) budget: Budget,
    /// Turns to build a table while its request waits.
    pub(crate) turns: Turns,
    /// How long a request may take before it is answered 504.
    deadline: Duration,
    tables: Mutex<Cache>,
    /// One lock per table, held while that table is read from disk or built
    /// at once, so that requests arriving together load or build it once
    /// and no request waits on a table it does not need.
    loading: Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>,
    /// The table being built in the background. One at a time: each may
    /// take gigabytes and both cores.
    pub(crate) job: Mutex<Option<Arc<Job>>>,
    answers: Mutex<Answers>,
}

/// What is loaded, each with the number of the load that brought it and
/// its size.
#[derive(Debug, Default)]
struct Cache {
    entries: HashMap<PathBuf, (u64, u64, Loaded)>,
    loads: u64,
}

impl Cache {
    fn get(&self, path: &PathBuf) -> Option<Loaded> {
        self.entries.get(path).map(|(_, _, loaded)| loaded.clone())
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
#[derive(Default)]
struct Answers {
    entries: HashMap<String, (u64, Arc<dyn Answer>)>,
    made: u64,
}

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answers").field("kept", &self.entries.len()).finish_non_exhaustive()
    }
}

/// A table being built, reporting how far it has got.
#[derive(Debug)]
pub(crate) struct Job {
    pub(crate) path: PathBuf,
    phase: Mutex<String>,
    /// Phases begun so far: the one under way is this one, from 1.
    steps: AtomicU64,
    total: AtomicU64,
    done: AtomicU64,
    pub(crate) failure: Mutex<Option<String>>,
}

impl Job {
    pub(crate) fn new(path: PathBuf) -> Job {
        Job {
            path,
            phase: Mutex::new("starting".into()),
            steps: AtomicU64::new(0),
            total: AtomicU64::new(0),
            done: AtomicU64::new(0),
            failure: Mutex::default(),
        }
    }

    /// The phase under way, which one it is (from 1) and the share of it
    /// done.
    pub(crate) fn progress(&self) -> (String, u64, f64) {
        let phase = lock(&self.phase).clone();
        let done = self.done.load(Relaxed) as f64 / self.total.load(Relaxed).max(1) as f64;
        (phase, self.steps.load(Relaxed), done.min(1.0))
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
            games: GAMES.to_vec(),
            budget: Budget::default(),
            turns: Turns::default(),
            deadline: DEADLINE,
            tables: Mutex::default(),
            loading: Mutex::default(),
            job: Mutex::default(),
            answers: Mutex::default(),
        }
    }

    /// The same, building on request only tables within `budget`; dearer
    /// ones are answered with the command that builds them.
    #[must_use]
    pub fn with_budget(self, budget: Budget) -> AppState {
        AppState { budget, ..self }
    }

    /// What a table built on request may cost.
    pub(crate) fn budget(&self) -> Budget {
        self.budget
    }

    /// The same, answering a request that takes longer than `deadline`
    /// with 504 (see [`DEADLINE`]).
    #[must_use]
    pub fn with_deadline(self, deadline: Duration) -> AppState {
        AppState { deadline, ..self }
    }

    /// How long a request may take.
    pub(crate) fn deadline(&self) -> Duration {
        self.deadline
    }

    /// The same, serving `games` rather than every game of the registry.
    #[must_use]
    pub fn with_games(self, games: &[&'static dyn Game]) -> AppState {
        AppState { games: games.to_vec(), ..self }
    }

    /// The games served.
    pub(crate) fn games(&self) -> &[&'static dyn Game] {
        &self.games
    }

    /// The store the tables come from.
    pub(crate) fn store(&self) -> &TableStore {
        &self.store
    }

    pub(crate) fn cached(&self, path: &PathBuf) -> Option<Loaded> {
        lock(&self.tables).get(path)
    }

    pub(crate) fn keep(&self, path: PathBuf, bytes: u64, loaded: Loaded) -> Loaded {
        lock(&self.tables).keep(path, bytes, loaded.clone());
        loaded
    }

    /// The lock of the table at `path` (see `loading`).
    pub(crate) fn loading(&self, path: &Path) -> Arc<Mutex<()>> {
        lock(&self.loading).entry(path.to_path_buf()).or_default().clone()
    }

    /// What `open` reads from the store, kept under `path` once read: the
    /// same request made again costs nothing. `None` if there is nothing to
    /// read yet. Blocks: call from a blocking thread.
    pub(crate) fn load(&self, path: PathBuf, open: &Open) -> anyhow::Result<Option<Loaded>> {
        if let Some(loaded) = self.cached(&path) {
            return Ok(Some(loaded));
        }
        let loading = self.loading(&path);
        let _loading = lock(&loading);
        if let Some(loaded) = self.cached(&path) {
            return Ok(Some(loaded));
        }
        match open(&self.store)? {
            Some((loaded, size)) => {
                tracing::info!(table = %path.display(), bytes = size, "loaded");
                Ok(Some(self.keep(path, size, loaded)))
            }
            None => Ok(None),
        }
    }

    /// The answer to a request that depends on nothing but `key` (an
    /// analysis, say), computed by `make` the first time and kept for the
    /// next. Blocks: call from a blocking thread.
    pub(crate) fn answer(
        &self,
        key: String,
        make: impl FnOnce() -> anyhow::Result<Box<dyn Answer>>,
    ) -> anyhow::Result<Box<dyn Answer>> {
        if let Some((_, kept)) = lock(&self.answers).entries.get(&key) {
            return Ok(Box::new(Kept(kept.clone())));
        }
        let made: Arc<dyn Answer> = Arc::from(make()?);
        let mut answers = lock(&self.answers);
        answers.made += 1;
        let number = answers.made;
        answers.entries.insert(key, (number, made.clone()));
        if answers.entries.len() > ANSWERS {
            let oldest = answers.entries.iter().min_by_key(|(_, (n, _))| *n).map(|(key, _)| key.clone());
            answers.entries.remove(&oldest.expect("more than one answer is kept"));
        }
        Ok(Box::new(Kept(made)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer that says a number.
    #[derive(serde::Serialize)]
    struct Number(u32);

    impl Answer for Number {
        fn text(&self) -> String {
            self.0.to_string()
        }
    }

    #[test]
    fn an_answer_is_made_once_and_the_oldest_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let state = AppState::new(TableStore::new(dir.path()));
        let made = std::cell::Cell::new(0);
        let make = |n: u32| {
            made.set(made.get() + 1);
            Ok(Box::new(Number(n)) as Box<dyn Answer>)
        };
        let said = |answer: anyhow::Result<Box<dyn Answer>>| answer.unwrap().text();
        assert_eq!(said(state.answer("a".into(), || make(1))), "1");
        assert_eq!(said(state.answer("a".into(), || make(2))), "1", "kept, not made again");
        assert_eq!(made.get(), 1);
        for i in 0..ANSWERS {
            said(state.answer(format!("other {i}"), || make(0)));
        }
        assert_eq!(said(state.answer("a".into(), || make(3))), "3", "the oldest was let go");
    }
}
