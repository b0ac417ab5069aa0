//! A directory of cached tables.

use std::io;
use std::path::{Path, PathBuf};

use super::{Encoding, Payload, Table, TableError, TableKey, write};

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
