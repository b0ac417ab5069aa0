//! A directory of cached tables.

use std::fs::{File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};

use super::{Checkpoint, Encoding, Payload, Table, TableError, TableKey, file, write};

/// The lock on building one table, held until dropped: another process
/// that asks for it waits.
#[derive(Debug)]
pub struct BuildLock {
    _file: File,
}

impl BuildLock {
    /// Takes the lock file at `path` (made, with its directory, if missing),
    /// calling `waiting` first if another process holds it.
    pub(crate) fn take(path: &Path, waiting: impl FnOnce()) -> Result<BuildLock, TableError> {
        let write_error = |source| TableError::Write { path: path.into(), source };
        let dir = file::dir_of(path);
        std::fs::create_dir_all(dir).map_err(|source| TableError::Write { path: dir.into(), source })?;
        let (lock, _) = file::open_regular(path, file::Access::Lock)
            .map_err(write_error)?
            .expect("a lock file is made when missing");
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                waiting();
                lock.lock().map_err(write_error)?;
            }
            Err(TryLockError::Error(error)) => return Err(write_error(error)),
        }
        Ok(BuildLock { _file: lock })
    }
}

/// A directory holding tables, one file per [`TableKey`] and encoding.
#[derive(Clone, Debug)]
pub struct TableStore {
    dir: PathBuf,
}

impl TableStore {
    /// A store in `dir`, created when the first table is saved.
    pub fn new(dir: impl Into<PathBuf>) -> TableStore {
        TableStore { dir: dir.into() }
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the table of `key` in encoding `E` lives.
    pub fn path<E: Encoding>(&self, key: &TableKey) -> PathBuf {
        self.dir.join(format!("{}-{}-{}{}.tbl", key.game, key.variant, key.size, E::SUFFIX))
    }

    /// The checkpoint of a solve of the table of `key` in encoding `E`,
    /// beside the table: `NAME.checkpoint` for `NAME.tbl`.
    pub fn checkpoint<E: Encoding>(&self, key: &TableKey) -> Checkpoint {
        Checkpoint::new(self.path::<E>(key).with_extension("checkpoint"), key.clone())
    }

    /// Takes the lock on building the table of `key` in encoding `E`, so
    /// that two processes asked for the same table build it once: if
    /// another holds it, `waiting` is called and this waits until it is
    /// done (then the table is usually there). Once the lock is had, the
    /// temporary files a build killed before it finished left behind are
    /// removed.
    ///
    /// # Errors
    ///
    /// [`TableError::Write`] if the lock file cannot be made or locked, or
    /// a stale file cannot be removed.
    pub fn lock_for_building<E: Encoding>(
        &self,
        key: &TableKey,
        waiting: impl FnOnce(),
    ) -> Result<BuildLock, TableError> {
        let table = self.path::<E>(key);
        let name = table.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let lock = BuildLock::take(&self.dir.join(format!(".{name}.lock")), waiting)?;
        file::remove_stale(&table)?;
        file::remove_stale(self.checkpoint::<E>(key).path())?;
        Ok(lock)
    }

    /// The table of `key`, or `None` if it has not been saved yet.
    ///
    /// # Errors
    ///
    /// A file that exists but cannot be read or is not a valid table of
    /// `key` is an error, not a miss: it is never silently replaced.
    pub fn open<E: Encoding>(&self, key: &TableKey) -> Result<Option<Table<E>>, TableError> {
        match Table::open(&self.path::<E>(key), key) {
            Err(TableError::Read { source, .. }) if source.kind() == io::ErrorKind::NotFound => Ok(None),
            other => other.map(Some),
        }
    }

    /// Saves the table of `key` with `facts` atomically (see
    /// [`write()`](super::write())) and returns its path.
    ///
    /// # Errors
    ///
    /// [`TableError::Write`] if the directory or the file cannot be written.
    pub fn save<E: Encoding>(
        &self,
        key: &TableKey,
        facts: &[(&str, u64)],
        payload: &(impl Payload<E> + ?Sized),
    ) -> Result<PathBuf, TableError> {
        let path = self.path::<E>(key);
        std::fs::create_dir_all(&self.dir).map_err(|source| TableError::Write { path: self.dir.clone(), source })?;
        write(&path, key, facts, payload)?;
        Ok(path)
    }
}
