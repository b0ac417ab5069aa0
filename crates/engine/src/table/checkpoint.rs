//! Checkpoints of a solve in progress, so that an interrupted solve resumes.
//!
//! # Stability
//!
//! A checkpoint only needs to be read by the build that wrote it, but it is
//! still validated like a table: magic `SOLVEDCP`, then a table header for
//! the key (checked field by field), the solver's state as bytes it alone
//! reads, the working bytes as little-endian words, and a CRC-64/XZ of
//! everything before it.

use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::{CRC, FormatError, HEADER_LEN, Header, TableError, TableKey, file};
use crate::tally::Tally;

const MAGIC: [u8; 8] = *b"SOLVEDCP";

/// The encoding code a checkpoint's header gives: a solve's working words,
/// which no table holds.
const WORKING: u32 = 0x100;

/// What a checkpoint holds: the solver's state, as bytes only it reads,
/// and its working words.
#[derive(Debug)]
pub struct Saved {
    /// The solver's state.
    pub state: Vec<u8>,
    /// The working words.
    pub words: Vec<AtomicU64>,
}

/// The working words a caller will take from a checkpoint.
#[derive(Copy, Clone)]
enum Words {
    Any,
    Exactly(u64),
    If(u64),
}

/// The checkpoint file of the solve of one table.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    path: PathBuf,
    key: TableKey,
}

impl Checkpoint {
    /// The checkpoint at `path` of a solve of `key`.
    pub fn new(path: impl Into<PathBuf>, key: TableKey) -> Checkpoint {
        Checkpoint { path: path.into(), key }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Saves the solver's `state` and its working `words` atomically.
    ///
    /// # Errors
    ///
    /// [`TableError::Write`] if the file cannot be written.
    pub fn save(&self, state: &[u8], words: &[AtomicU64]) -> Result<(), TableError> {
        self.save_from(state, words.len() as u64, words.iter())
    }

    /// The same, the `count` working words taken from `words` in order:
    /// for words kept in several pieces.
    ///
    /// # Errors
    ///
    /// [`TableError::Write`] if the file cannot be written.
    pub fn save_from<'a>(
        &self,
        state: &[u8],
        count: u64,
        words: impl Iterator<Item = &'a AtomicU64>,
    ) -> Result<(), TableError> {
        let dir = self.path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|source| TableError::Write { path: self.path.clone(), source })?;
        let header = Header { key: self.key.clone(), encoding: WORKING, tally: Tally::default(), facts: Vec::new() };
        file::write_atomically(&self.path, |out| {
            let mut digest = CRC.digest();
            let mut put = |bytes: &[u8]| -> io::Result<()> {
                digest.update(bytes);
                out.write_all(bytes)
            };
            put(&MAGIC)?;
            put(&header.to_bytes())?;
            put(&(state.len() as u64).to_le_bytes())?;
            put(state)?;
            put(&count.to_le_bytes())?;
            let mut buffer = Vec::with_capacity(1 << 20);
            let mut written = 0;
            for word in words {
                buffer.extend_from_slice(&word.load(Relaxed).to_le_bytes());
                written += 1;
                if buffer.len() == buffer.capacity() {
                    put(&buffer)?;
                    buffer.clear();
                }
            }
            put(&buffer)?;
            assert_eq!(written, count, "as many words as the checkpoint says");
            out.write_all(&digest.finalize().to_le_bytes())
        })
    }

    /// The saved state and `words` working words, or `None` if there is no
    /// checkpoint.
    ///
    /// # Errors
    ///
    /// A checkpoint that cannot be read, is of another key, has another
    /// number of words, or fails its checksum is an error: it is never
    /// silently discarded.
    pub fn load(&self, words: u64) -> Result<Option<Saved>, TableError> {
        self.load_checked(Words::Exactly(words))
    }

    /// The saved state if the checkpoint holds exactly `words` working
    /// words; `None` if there is none or it holds another number, whose
    /// words are then not read (a walk still under way may have
    /// gigabytes of them).
    ///
    /// # Errors
    ///
    /// As for [`load`](Self::load), for a checkpoint of `words` words.
    pub fn load_if(&self, words: u64) -> Result<Option<Saved>, TableError> {
        self.load_checked(Words::If(words))
    }

    /// The saved state and however many working words were saved, or
    /// `None` if there is no checkpoint: for a solver whose state says how
    /// its words are to be read.
    ///
    /// # Errors
    ///
    /// As for [`load`](Self::load).
    pub fn load_any(&self) -> Result<Option<Saved>, TableError> {
        self.load_checked(Words::Any)
    }

    /// The error that refuses this checkpoint for a state its checksum
    /// accepted but its solver cannot use.
    pub fn refuse(&self, reason: &str) -> TableError {
        TableError::Invalid { path: self.path.clone(), source: FormatError::Content { reason: reason.into() } }
    }

    fn load_checked(&self, words: Words) -> Result<Option<Saved>, TableError> {
        let read_error = |source| TableError::Read { path: self.path.clone(), source };
        let invalid = |source| TableError::Invalid { path: self.path.clone(), source };
        let Some((file, file_len)) = file::open_regular(&self.path, file::Access::Read).map_err(read_error)? else {
            return Ok(None);
        };
        let mut input = BufReader::with_capacity(1 << 20, file);
        let mut digest = CRC.digest();
        let mut take = |len: u64| -> Result<Vec<u8>, TableError> {
            if len > file_len {
                return Err(invalid(FormatError::Length { expected: len, found: file_len }));
            }
            let mut bytes = vec![0; len as usize];
            input.read_exact(&mut bytes).map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => invalid(FormatError::TooShort { len: file_len }),
                _ => read_error(e),
            })?;
            digest.update(&bytes);
            Ok(bytes)
        };
        let number = |bytes: Vec<u8>| u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
        if take(8)? != MAGIC {
            return Err(invalid(FormatError::Magic));
        }
        Header::read_coded(&take(HEADER_LEN as u64)?, &self.key, WORKING, "a solve's working words")
            .map_err(invalid)?;
        let state_len = number(take(8)?);
        let state = take(state_len)?;
        let count = number(take(8)?);
        match words {
            Words::Exactly(words) if words != count => {
                return Err(invalid(FormatError::Length { expected: words, found: count }));
            }
            Words::If(words) if words != count => return Ok(None),
            _ => {}
        }
        if count.saturating_mul(8) > file_len {
            return Err(invalid(FormatError::Length { expected: count.saturating_mul(8), found: file_len }));
        }
        let mut loaded = Vec::with_capacity(count as usize);
        let mut left = count;
        while left > 0 {
            let piece = left.min(1 << 17);
            let bytes = take(8 * piece)?;
            loaded.extend(
                bytes.chunks_exact(8).map(|b| AtomicU64::new(u64::from_le_bytes(b.try_into().expect("eight")))),
            );
            left -= piece;
        }
        let computed = digest.finalize();
        let mut trailer = [0; 8];
        input.read_exact(&mut trailer).map_err(read_error)?;
        let stored = u64::from_le_bytes(trailer);
        if stored != computed {
            return Err(invalid(FormatError::Checksum { stored, computed }));
        }
        Ok(Some(Saved { state, words: loaded }))
    }

    /// Removes the checkpoint, if there is one.
    ///
    /// # Errors
    ///
    /// [`TableError::Write`] if it exists and cannot be removed.
    pub fn remove(&self) -> Result<(), TableError> {
        match std::fs::remove_file(&self.path) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => {
                Err(TableError::Write { path: self.path.clone(), source: error })
            }
            _ => Ok(()),
        }
    }
}
