//! Table files: solved values on disk, with a header and a checksum.
//!
//! This is the only module of the engine that touches the file system, and
//! the only one with `unsafe` code (memory mapping). A table is written to a
//! temporary file in its final directory and renamed into place, so readers
//! see either the old file or the complete new one. Its bytes are handed out
//! only after every header field and the CRC-64/XZ checksum have validated.

mod checkpoint;
mod header;
mod store;

use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crc::{CRC_64_XZ, Crc, Table as CrcTable};
use memmap2::Mmap;

pub use self::checkpoint::{Checkpoint, SolverState};
pub use self::header::{Counts, Encoding, FORMAT_VERSION, HEADER_LEN, Header, MAGIC, MAX_FACTS, TRAILER_LEN, TableKey};
pub use self::store::TableStore;
use crate::packed::PackedValue;
use crate::value::Value;

/// Slice-by-16: tables reach a gibibyte, and the checksum is computed on
/// every open.
const CRC: Crc<u64, CrcTable<16>> = Crc::<u64, CrcTable<16>>::new(&CRC_64_XZ);

/// Why a table's bytes cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// Too short to hold a header and a checksum.
    #[error("file is too short to be a table ({len} bytes)")]
    TooShort {
        /// The file's length.
        len: u64,
    },
    /// Not a table file at all.
    #[error("not a table file (wrong magic bytes)")]
    Magic,
    /// Written by a build with another layout.
    #[error("table format version {found}, but this build reads version {supported}")]
    Version {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// A header field is not what the caller asked for.
    #[error("table is for {field} {found:?}, not {expected:?}")]
    Mismatch {
        /// Which field.
        field: &'static str,
        /// The value in the file.
        found: String,
        /// The value asked for.
        expected: String,
    },
    /// More facts than a header holds.
    #[error("header claims {found} facts, at most {MAX_FACTS} fit")]
    FactCount {
        /// The count in the file.
        found: usize,
    },
    /// An encoding this build does not know.
    #[error("unknown value encoding {code}")]
    UnknownEncoding {
        /// The code in the file.
        code: u32,
    },
    /// The file is not as long as its header says.
    #[error("table is {found} bytes long, but its header calls for {expected}")]
    Length {
        /// The length the header implies.
        expected: u64,
        /// The file's length.
        found: u64,
    },
    /// The bytes do not match their checksum.
    #[error("checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is corrupt")]
    Checksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the bytes.
        computed: u64,
    },
}

/// A table file that could not be read, written or trusted.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// Reading failed.
    #[error("cannot read table {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Writing failed; nothing was replaced.
    #[error("cannot write table {path}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The file is not a valid table for what was asked.
    #[error("table {path} cannot be used (delete it to solve again)")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: FormatError,
    },
}

/// A validated table of values, backed by `B` (`Vec<u8>` or a memory map).
pub struct Table<B = Vec<u8>> {
    header: Header,
    bytes: B,
}

impl<B: AsRef<[u8]>> Table<B> {
    /// Validates `bytes` as a table of what `expected` describes.
    ///
    /// # Errors
    ///
    /// The first check that fails: header fields in the order
    /// [`Header::read`] gives, then the length, then the checksum.
    pub fn from_bytes(bytes: B, expected: &TableKey) -> Result<Table<B>, FormatError> {
        let all = bytes.as_ref();
        let len = all.len() as u64;
        let header = Header::read(all, expected)?;
        let payload = header.key.encoding.payload_len(header.key.positions, header.counts);
        let total = payload.and_then(|p| p.checked_add((HEADER_LEN + TRAILER_LEN) as u64));
        if total != Some(len) {
            return Err(FormatError::Length { expected: total.unwrap_or(u64::MAX), found: len });
        }
        let (body, trailer) = all.split_at(all.len() - TRAILER_LEN);
        let stored = u64::from_le_bytes(trailer.try_into().expect("trailer is eight bytes"));
        let computed = CRC.checksum(body);
        if stored != computed {
            return Err(FormatError::Checksum { stored, computed });
        }
        Ok(Table { header, bytes })
    }

    /// The table's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The number of positions.
    pub fn len(&self) -> u64 {
        self.header.key.positions
    }

    /// The bytes the table occupies, header and checksum included.
    pub fn size_in_bytes(&self) -> u64 {
        self.bytes.as_ref().len() as u64
    }

    /// Whether the table has no positions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stored byte of position `idx`.
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    #[inline]
    pub fn probe_packed(&self, idx: u64) -> PackedValue {
        assert!(idx < self.len(), "position index out of range");
        PackedValue::from_byte(self.bytes.as_ref()[HEADER_LEN + idx as usize])
    }

    /// The value of position `idx`, in a table of [`Encoding::PackedValue`]
    /// or [`Encoding::Compact`].
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`, or for a table of scores.
    #[inline]
    pub fn probe(&self, idx: u64) -> Value {
        match self.header.key.encoding {
            Encoding::PackedValue => self.probe_packed(idx).unpack(),
            Encoding::Compact => {
                assert!(idx < self.len(), "position index out of range");
                let all = self.bytes.as_ref();
                let (words, _) = all[HEADER_LEN..all.len() - TRAILER_LEN].as_chunks::<8>();
                let bitmap = self.len().div_ceil(64) as usize;
                let directory = bitmap.div_ceil(8);
                let view = crate::compact::View {
                    bitmap: &words[..bitmap],
                    directory: &words[bitmap..bitmap + directory],
                    distances: &words[bitmap + directory..],
                };
                view.probe(idx)
            }
            Encoding::Score => panic!("a table of scores holds no win/loss values: use probe_score"),
        }
    }

    /// The score of position `idx`, in a table of [`Encoding::Score`].
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    #[inline]
    pub fn probe_score(&self, idx: u64) -> i8 {
        self.probe_packed(idx).to_byte() as i8
    }
}

impl Table<Vec<u8>> {
    /// Reads and validates the table at `path`.
    ///
    /// # Errors
    ///
    /// [`TableError::Read`] if the file cannot be read, [`TableError::Invalid`]
    /// if it is not a valid table of `expected`.
    pub fn open(path: &Path, expected: &TableKey) -> Result<Table<Vec<u8>>, TableError> {
        let bytes = std::fs::read(path).map_err(|source| TableError::Read { path: path.into(), source })?;
        Table::from_bytes(bytes, expected).map_err(|source| TableError::Invalid { path: path.into(), source })
    }
}

impl Table<Mmap> {
    /// Maps and validates the table at `path` without copying it.
    ///
    /// # Safety
    ///
    /// The file must not be modified or truncated while the table is alive.
    /// Tables written by [`write()`] are never modified in place (a new table
    /// replaces the old file by rename, which leaves a mapping of the old
    /// file intact), so this holds unless another program edits the file.
    ///
    /// # Errors
    ///
    /// As for [`Table::open`].
    pub unsafe fn open_mmap(path: &Path, expected: &TableKey) -> Result<Table<Mmap>, TableError> {
        let read_error = |source| TableError::Read { path: path.into(), source };
        let file = File::open(path).map_err(read_error)?;
        // SAFETY: the caller guarantees the file is not modified while mapped.
        let map = unsafe { Mmap::map(&file) }.map_err(read_error)?;
        Table::from_bytes(map, expected).map_err(|source| TableError::Invalid { path: path.into(), source })
    }
}

impl<B> fmt::Debug for Table<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table").field("header", &self.header).finish_non_exhaustive()
    }
}

/// The values a table file holds, as they come out of a solver.
pub trait Payload {
    /// Calls `sink` with the values as bytes, in index order, in pieces.
    ///
    /// # Errors
    ///
    /// Whatever `sink` fails with.
    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()>;

    /// The results the values hold, when they cannot be counted byte by
    /// byte (a compact copy); `None` to count them from the bytes.
    fn counts(&self) -> Option<Counts> {
        None
    }
}

impl Payload for [u8] {
    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        self.chunks(1 << 20).try_for_each(sink)
    }
}

impl Payload for crate::retrograde::Solution {
    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        self.for_each_piece(1 << 20, sink)
    }
}

impl Payload for crate::sweep::Scores {
    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        self.for_each_piece(sink)
    }
}

/// Writes a table of `key` with `facts` to `path` atomically: the file
/// appears at `path` only once it is complete and synced.
///
/// The payload is read twice, in index order: once
/// to count results for the header, once to write. (The checksum covers the
/// header, which comes first in the file, so the counts must be known before
/// any value is written.)
///
/// # Errors
///
/// [`TableError::Write`] if the file cannot be written or the payload has
/// the wrong number of bytes; `path` is then left as it was.
pub fn write(
    path: &Path,
    key: &TableKey,
    facts: &[(&str, u64)],
    payload: &(impl Payload + ?Sized),
) -> Result<(), TableError> {
    let write_error = |source| TableError::Write { path: path.into(), source };
    let mut counted = Counts::default();
    let mut written = 0u64;
    payload
        .write_pieces(&mut |piece: &[u8]| {
            count_values(key.encoding, piece, &mut counted);
            written += piece.len() as u64;
            Ok(())
        })
        .map_err(write_error)?;
    let counts = payload.counts().unwrap_or(counted);
    let expected = key.encoding.payload_len(key.positions, counts).unwrap_or(u64::MAX);
    if written != expected {
        let message = format!("{written} bytes of values where {expected} were expected");
        return Err(write_error(io::Error::new(io::ErrorKind::InvalidData, message)));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut temp = tempfile::Builder::new().suffix(".tmp").tempfile_in(dir).map_err(write_error)?;
    {
        let mut out = BufWriter::with_capacity(1 << 20, temp.as_file_mut());
        let facts = facts.iter().map(|&(name, value)| (name.to_string(), value)).collect();
        let header = Header { key: key.clone(), counts, facts }.to_bytes();
        let mut digest = CRC.digest();
        digest.update(&header);
        out.write_all(&header).map_err(write_error)?;
        payload
            .write_pieces(&mut |piece: &[u8]| {
                digest.update(piece);
                out.write_all(piece)
            })
            .map_err(write_error)?;
        out.write_all(&digest.finalize().to_le_bytes()).map_err(write_error)?;
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

fn count_values(encoding: Encoding, piece: &[u8], counts: &mut Counts) {
    match encoding {
        Encoding::PackedValue => {
            for &byte in piece {
                match byte {
                    0 => counts.draws += 1,
                    b if b % 2 == 1 => counts.wins += 1,
                    _ => counts.losses += 1,
                }
            }
        }
        Encoding::Compact => {}
        Encoding::Score => {
            for &byte in piece {
                match (byte as i8).signum() {
                    0 => counts.draws += 1,
                    1 => counts.wins += 1,
                    _ => counts.losses += 1,
                }
            }
        }
    }
}
