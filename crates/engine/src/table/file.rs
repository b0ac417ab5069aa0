//! Reading and writing the files of tables and checkpoints.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

use super::{FormatError, TableError};

/// What a file is opened for.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Access {
    /// Reading a file that may be missing.
    Read,
    /// Holding a lock on it, making it if it is missing.
    Lock,
}

/// Opens the regular file at `path` for `access`, with its length: `None`
/// if there is nothing there to read. Every file the tool opens comes
/// through here.
///
/// It never follows a symbolic link at `path` and never waits: a pipe would
/// wait for a writer (or a reader), a device could be read for ever, and a
/// link could lead anywhere, so each is refused with an error that says
/// what is there instead, as is a directory.
///
/// # Errors
///
/// The error of opening or looking at the file, or
/// [`io::ErrorKind::InvalidInput`] for anything but a regular file.
pub fn open_regular(path: &Path, access: Access) -> io::Result<Option<(File, u64)>> {
    use std::os::unix::fs::OpenOptionsExt;
    // Looked at first, so that a device is not even opened; then opened so
    // that what was swapped in meanwhile is refused too.
    if !regular_file_exists(path)? && access == Access::Read {
        return Ok(None);
    }
    let mut options = OpenOptions::new();
    match access {
        Access::Read => options.read(true),
        Access::Lock => options.write(true).create(true).truncate(false),
    };
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    let file = options.open(path).map_err(|error| match std::fs::symlink_metadata(path) {
        Ok(metadata) if !metadata.file_type().is_file() => not_regular(metadata.file_type()),
        _ => error,
    })?;
    let metadata = file.metadata()?;
    if !metadata.file_type().is_file() {
        return Err(not_regular(metadata.file_type()));
    }
    Ok(Some((file, metadata.len())))
}

/// Whether there is a regular file at `path`, as [`open_regular`] would
/// find it: `false` if there is nothing, an error if something else is
/// there.
///
/// # Errors
///
/// As for [`open_regular`].
pub fn regular_file_exists(path: &Path) -> io::Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_file() => Ok(true),
        Ok(metadata) => Err(not_regular(metadata.file_type())),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(error),
    }
}

/// The error of finding something other than a regular file.
fn not_regular(found: std::fs::FileType) -> io::Error {
    use std::os::unix::fs::FileTypeExt;
    let what = if found.is_symlink() {
        " (a symbolic link, which is not followed)"
    } else if found.is_dir() {
        " (a directory)"
    } else if found.is_fifo() {
        " (a named pipe)"
    } else if found.is_socket() {
        " (a socket)"
    } else if found.is_block_device() || found.is_char_device() {
        " (a device)"
    } else {
        ""
    };
    io::Error::new(io::ErrorKind::InvalidInput, format!("not a regular file{what}"))
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
    let Some((mut file, len)) = open_regular(path, Access::Read).map_err(read_error)? else {
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
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), TableError> {
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
