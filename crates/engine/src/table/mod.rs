//! Table files: solved values on disk, with a header and a checksum.
//!
//! This is the lowest layer of the engine that knows files: bytes, headers,
//! encodings, checksums, checkpoints and the store. It knows no solver; the
//! solvers hand it a [`Payload`] to write. A table is written to a temporary
//! file in its final directory and renamed into place, so readers see
//! either the old file or the complete new one. Its bytes are handed out
//! only after every header field, the file's length and the CRC-64/XZ
//! checksum have validated.

pub mod blocks;
mod checkpoint;
mod encoding;
mod file;
mod header;
mod store;

use std::fmt;
use std::io;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use crc::{CRC_64_XZ, Crc, Table as CrcTable};

pub use self::checkpoint::{Checkpoint, Saved};
pub use self::encoding::{Encoding, Margin, Packed};
pub(crate) use self::file::remove_temporaries;
pub use self::file::{Access, open_regular, regular_file_exists, write_atomically};
pub use self::header::{FORMAT_VERSION, HEADER_LEN, Header, MAGIC, MAX_FACTS, TRAILER_LEN, TableKey};
pub use self::store::{BuildLock, TableStore};
use crate::packed::PackedValue;
use crate::tally::Tally;
use crate::value::Value;

/// Slice-by-16: tables reach gigabytes, and the checksum is computed on
/// every open.
pub(crate) const CRC: Crc<u64, CrcTable<16>> = Crc::<u64, CrcTable<16>>::new(&CRC_64_XZ);

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
    /// A value the table holds that its encoding cannot: a file written
    /// on purpose to pass the checksums.
    #[error("{reason}")]
    Content {
        /// What is wrong.
        reason: String,
    },
    /// A table of blocks whose end is not its block list: cut short, or
    /// overwritten.
    #[error("no block list at the end of the file: it was cut short or overwritten")]
    Footer,
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
    /// The values are stored in another encoding than the one asked for.
    #[error("table holds encoding {found}, not {name} ({expected})")]
    Encoding {
        /// The code in the file.
        found: u32,
        /// The code asked for.
        expected: u32,
        /// What the encoding asked for holds.
        name: &'static str,
    },
    /// The file is not as long as its header says.
    #[error("table is {found} bytes long, but its header calls for {expected}")]
    Length {
        /// The length the header implies.
        expected: u64,
        /// The file's length.
        found: u64,
    },
    /// A compressed block that does not give back its bytes.
    #[error("block {block} is corrupt: {reason}")]
    Block {
        /// The block.
        block: u64,
        /// What is wrong with it.
        reason: String,
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

/// A validated table of values stored in encoding `E`.
pub struct Table<E> {
    header: Header,
    /// Where it was read from, for the errors of later reads.
    path: PathBuf,
    storage: Storage,
    encoding: PhantomData<E>,
}

/// Where a table's values are: the whole file in memory, or compressed
/// blocks read as needed (as the encoding says).
enum Storage {
    Whole(Vec<u8>),
    Blocks(blocks::Blocks),
}

impl<E: Encoding> Table<E> {
    /// Validates `bytes`, read from `path`, as a table of what `expected`
    /// describes: the first check that fails of the header fields in the
    /// order [`Header::read`] gives, the length and the checksum.
    fn from_bytes(path: &Path, bytes: Vec<u8>, expected: &TableKey) -> Result<Table<E>, FormatError> {
        let header = Header::read::<E>(&bytes, expected)?;
        let total = file_len::<E>(&header);
        if total != Some(bytes.len() as u64) {
            return Err(FormatError::Length { expected: total.unwrap_or(u64::MAX), found: bytes.len() as u64 });
        }
        let (body, trailer) = bytes.split_at(bytes.len() - TRAILER_LEN);
        let stored = u64::from_le_bytes(trailer.try_into().expect("the trailer is eight bytes"));
        let computed = CRC.checksum(body);
        if stored != computed {
            return Err(FormatError::Checksum { stored, computed });
        }
        Ok(Table { header, path: path.into(), storage: Storage::Whole(bytes), encoding: PhantomData })
    }

    /// Reads and validates the table at `path`.
    ///
    /// The file must be a regular file whose length is what its header
    /// calls for; that is checked before the values are read, so that a
    /// device, a pipe or a truncated file is refused at once. A table of
    /// blocks reads only its header and block list now.
    ///
    /// # Errors
    ///
    /// [`TableError::Read`] if the file cannot be read, [`TableError::Invalid`]
    /// if it is not a valid table of `expected`.
    pub fn open(path: &Path, expected: &TableKey) -> Result<Table<E>, TableError> {
        let invalid = |source| TableError::Invalid { path: path.into(), source };
        if E::BLOCKED {
            let read_error = |source| TableError::Read { path: path.into(), source };
            let Some((file, len)) = file::open_regular(path, Access::Read).map_err(read_error)? else {
                return Err(TableError::Read { path: path.into(), source: io::Error::from(io::ErrorKind::NotFound) });
            };
            let mut head = vec![0u8; HEADER_LEN.min(len as usize)];
            std::os::unix::fs::FileExt::read_exact_at(&file, &mut head, 0)
                .map_err(|source| TableError::Read { path: path.into(), source })?;
            let header = Header::read::<E>(&head, expected).map_err(invalid)?;
            let blocks = blocks::Blocks::open(path, file, len, &head)?;
            if Some(blocks.payload_len()) != E::payload_len(header.key.positions, header.tally) {
                let expected = E::payload_len(header.key.positions, header.tally).unwrap_or(u64::MAX);
                return Err(invalid(FormatError::Length { expected, found: blocks.payload_len() }));
            }
            return Ok(Table { header, path: path.into(), storage: Storage::Blocks(blocks), encoding: PhantomData });
        }
        let bytes = file::read_sized(path, HEADER_LEN, |header| {
            let header = Header::read::<E>(header, expected).map_err(invalid)?;
            Ok(file_len::<E>(&header).unwrap_or(u64::MAX))
        })?;
        Table::from_bytes(path, bytes, expected).map_err(invalid)
    }

    /// Fills `out` with the payload's bytes from `offset` on, reading the
    /// blocks that hold them.
    ///
    /// # Errors
    ///
    /// [`TableError::Read`] if the file cannot be read or the range is past
    /// the end, [`TableError::Invalid`] if a block is corrupt.
    pub fn read_payload(&self, offset: u64, out: &mut [u8]) -> Result<(), TableError> {
        match &self.storage {
            Storage::Blocks(blocks) => blocks.read(offset, out),
            Storage::Whole(_) => {
                let payload = self.payload();
                let range = usize::try_from(offset).ok().and_then(|start| Some(start..start.checked_add(out.len())?));
                match range.and_then(|range| payload.get(range)) {
                    Some(bytes) => {
                        out.copy_from_slice(bytes);
                        Ok(())
                    }
                    None => Err(TableError::Read {
                        path: self.path.clone(),
                        source: io::Error::new(io::ErrorKind::InvalidInput, "read past the end of the values"),
                    }),
                }
            }
        }
    }

    /// Reads every block of a table of blocks, checking each (a table read
    /// whole was checked when it was opened).
    ///
    /// # Errors
    ///
    /// As for [`read_payload`](Self::read_payload).
    pub fn check_all(&self) -> Result<(), TableError> {
        match &self.storage {
            Storage::Blocks(blocks) => blocks.check_all(),
            Storage::Whole(_) => Ok(()),
        }
    }

    /// The bytes of a table read whole.
    fn bytes(&self) -> &[u8] {
        match &self.storage {
            Storage::Whole(bytes) => bytes,
            Storage::Blocks(_) => unreachable!("only encodings read whole are read as bytes"),
        }
    }

    /// The error that refuses this table for holding what it cannot:
    /// what a reader finds wrong in values its checksums accepted.
    pub fn refuse(&self, reason: String) -> TableError {
        TableError::Invalid { path: self.path.clone(), source: FormatError::Content { reason } }
    }

    /// The table's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The number of positions.
    pub fn len(&self) -> u64 {
        self.header.key.positions
    }

    /// Whether the table has no positions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes the table occupies in memory: the whole file, or a table
    /// of blocks' list of blocks and the blocks it keeps.
    pub fn size_in_bytes(&self) -> u64 {
        match &self.storage {
            Storage::Whole(bytes) => bytes.len() as u64,
            Storage::Blocks(blocks) => blocks.memory_len(),
        }
    }

    /// The bytes the table's file holds, compressed if it is of blocks.
    pub fn stored_len(&self) -> u64 {
        match &self.storage {
            Storage::Whole(bytes) => bytes.len() as u64,
            Storage::Blocks(blocks) => HEADER_LEN as u64 + blocks.stored_len(),
        }
    }

    /// The values, laid out as the encoding says.
    ///
    /// # Panics
    ///
    /// Panics if the encoding keeps its values in blocks: read those with
    /// [`read_payload`](Self::read_payload).
    pub fn payload(&self) -> &[u8] {
        let bytes = self.bytes();
        &bytes[HEADER_LEN..bytes.len() - TRAILER_LEN]
    }
}

impl Table<Packed> {
    /// The stored byte of position `idx`.
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    #[inline]
    pub fn probe_packed(&self, idx: u64) -> PackedValue {
        assert!(idx < self.len(), "position index out of range");
        PackedValue::from_byte(self.bytes()[HEADER_LEN + idx as usize])
    }

    /// The value of position `idx`.
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    #[inline]
    pub fn probe(&self, idx: u64) -> Value {
        self.probe_packed(idx).unpack()
    }
}

impl Table<Margin> {
    /// The margin the side to move can force at position `idx`.
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    #[inline]
    pub fn probe_margin(&self, idx: u64) -> i8 {
        assert!(idx < self.len(), "position index out of range");
        self.bytes()[HEADER_LEN + idx as usize] as i8
    }
}

impl<E> fmt::Debug for Table<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table").field("header", &self.header).finish_non_exhaustive()
    }
}

/// The length of the whole file of a table with `header`, if it fits.
fn file_len<E: Encoding>(header: &Header) -> Option<u64> {
    E::payload_len(header.key.positions, header.tally)?.checked_add((HEADER_LEN + TRAILER_LEN) as u64)
}

/// The values a table file of encoding `E` holds, as they come out of a
/// solver. A solver implements it for its result, so that only results of
/// the right kind can be saved as a table of `E`.
pub trait Payload<E: Encoding> {
    /// The results the values hold, as the header records them.
    fn tally(&self) -> Tally;

    /// Calls `sink` with the payload's bytes in order, in pieces.
    ///
    /// # Errors
    ///
    /// Whatever `sink` fails with.
    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()>;
}

impl Payload<Packed> for [PackedValue] {
    fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        self.iter().for_each(|v| tally.add(v.unpack()));
        tally
    }

    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        let bytes: Vec<u8> = self.iter().map(|v| v.to_byte()).collect();
        bytes.chunks(1 << 20).try_for_each(sink)
    }
}

impl Payload<Margin> for [i8] {
    fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        self.iter().for_each(|&m| tally.add_margin(m));
        tally
    }

    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        let bytes: Vec<u8> = self.iter().map(|&m| m as u8).collect();
        bytes.chunks(1 << 20).try_for_each(sink)
    }
}

/// Writes a table of `key` with `facts` to `path` atomically: the file
/// appears at `path` only once it is complete and synced.
///
/// # Errors
///
/// [`TableError::Write`] if the file cannot be written or the payload has
/// the wrong number of bytes; `path` is then left as it was.
pub fn write<E: Encoding>(
    path: &Path,
    key: &TableKey,
    facts: &[(&str, u64)],
    payload: &(impl Payload<E> + ?Sized),
) -> Result<(), TableError> {
    let tally = payload.tally();
    let expected = E::payload_len(key.positions, tally).unwrap_or(u64::MAX);
    let facts = facts.iter().map(|&(name, value)| (name.to_string(), value)).collect();
    let header = Header { key: key.clone(), encoding: E::CODE, tally, facts }.to_bytes();
    if E::BLOCKED {
        return file::write_atomically(path, |out| {
            blocks::write(out, &header, expected, &mut |sink| payload.write_pieces(sink))
        });
    }
    file::write_atomically(path, |out| {
        let mut digest = CRC.digest();
        digest.update(&header);
        out.write_all(&header)?;
        let mut written = 0u64;
        payload.write_pieces(&mut |piece: &[u8]| {
            digest.update(piece);
            written += piece.len() as u64;
            out.write_all(piece)
        })?;
        if written != expected {
            let message = format!("{written} bytes of values where {expected} were expected");
            return Err(io::Error::new(io::ErrorKind::InvalidData, message));
        }
        out.write_all(&digest.finalize().to_le_bytes())
    })
}
