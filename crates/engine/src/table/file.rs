//! Reading and writing the files of tables and checkpoints.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

use super::{FormatError, TableError};

/// Opens `path` for reading, if it is a regular file, with its length.
/// `None` if there is nothing at `path`.
///
/// Whether it is a regular file is asked before opening it: opening a pipe
/// would wait for a writer, and a device could be read for ever.
pub(super) fn open_regular(path: &Path) -> Result<Option<(File, u64)>, TableError> {
    let read_error = |source| TableError::Read { path: path.into(), source };
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(read_error(error)),
    };
    if !metadata.is_file() {
        return Err(read_error(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")));
    }
    let file = File::open(path).map_err(read_error)?;
    Ok(Some((file, metadata.len())))
}

/// The bytes of the regular file at `path`, whose length `len_of` decides
/// from its first `head` bytes: a file of another length is refused before
/// the rest is read. A file shorter than `head` is read whole.
pub(super) fn read_sized(
    path: &Path,
    head: usize,
    len_of: impl FnOnce(&[u8]) -> Result<u64, TableError>,
) -> Result<Vec<u8>, TableError> {
    let read_error = |source| TableError::Read { path: path.into(), source };
    let Some((mut file, len)) = open_regular(path)? else {
        return Err(read_error(io::Error::from(io::ErrorKind::NotFound)));
    };
    if len < head as u64 {
        let mut bytes = Vec::with_capacity(len as usize);
        file.read_to_end(&mut bytes).map_err(read_error)?;
        return Ok(bytes);
    }
    let mut bytes = vec![0; head];
    file.read_exact(&mut bytes).map_err(read_error)?;
    let expected = len_of(&bytes)?;
    if expected != len {
        return Err(TableError::Invalid { path: path.into(), source: FormatError::Length { expected, found: len } });
    }
    bytes.resize(len as usize, 0);
    file.read_exact(&mut bytes[head..]).map_err(read_error)?;
    Ok(bytes)
}

/// The start of the names of `path`'s temporary files, which end in `.tmp`:
/// `.NAME.` for a file called `NAME`, so that what a killed process left
/// behind can be told apart and removed (see [`remove_stale`]).
fn temporary_prefix(path: &Path) -> String {
    format!(".{}.", path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default())
}

/// The directory `path` is in.
pub(crate) fn dir_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Removes the temporary files of `path` that a process killed while
/// writing it left behind. The caller holds the lock that keeps other
/// writers of `path` away.
pub(super) fn remove_stale(path: &Path) -> Result<(), TableError> {
    remove_temporaries(dir_of(path), &temporary_prefix(path))
}

/// Removes the temporary files in `dir` whose names start with `prefix`
/// (see [`temporary_prefix`]).
pub(crate) fn remove_temporaries(dir: &Path, prefix: &str) -> Result<(), TableError> {
    let write_error = |source| TableError::Write { path: dir.into(), source };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(write_error(error)),
    };
    for entry in entries {
        let entry = entry.map_err(write_error)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(prefix) && name.ends_with(".tmp") {
            match std::fs::remove_file(entry.path()) {
                Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(write_error(error)),
                _ => {}
            }
        }
    }
    Ok(())
}

/// Writes the file at `path` with `write`, atomically: the bytes go to a
/// temporary file beside it, which is synced and renamed into place only
/// once `write` has succeeded. On failure `path` is left as it was and the
/// temporary file is removed.
pub(super) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), TableError> {
    let write_error = |source| TableError::Write { path: path.into(), source };
    let prefix = temporary_prefix(path);
    let mut temp =
        tempfile::Builder::new().prefix(&prefix).suffix(".tmp").tempfile_in(dir_of(path)).map_err(write_error)?;
    {
        let mut out = BufWriter::with_capacity(1 << 20, temp.as_file_mut());
        write(&mut out).map_err(write_error)?;
        out.flush().map_err(write_error)?;
    }
    // Temporary files are private to their owner; a table is not.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file().set_permissions(std::fs::Permissions::from_mode(0o644)).map_err(write_error)?;
    }
    temp.as_file().sync_all().map_err(write_error)?;
    temp.persist(path).map_err(|e| write_error(e.error))?;
    Ok(())
}
