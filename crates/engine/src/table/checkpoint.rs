//! Checkpoints of a solve in progress, so that an interrupted solve resumes.
//!
//! # Stability
//!
//! A checkpoint only needs to be read by the build that wrote it, but it is
//! still validated like a table: magic `SOLVEDCP`, then a table header for
//! the key (checked field by field), the solver's state, the working bytes
//! as little-endian words, and a CRC-64/XZ of everything before it.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::{CRC, FormatError, HEADER_LEN, Header, TableError, TableKey};

const MAGIC: [u8; 8] = *b"SOLVEDCP";

/// Where a solve stood when it was saved: between two distance layers.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct SolverState {
    /// The tier being solved (earlier ones are finished).
    pub tier: u32,
    /// The next distance layer to propagate.
    pub next_layer: u16,
    /// The longest distance given in the tier so far.
    pub max_plies: u16,
    /// The tier's per-chunk masks of pending distances.
    pub pending: Vec<[u64; 2]>,
}

/// The checkpoint file of one table.
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

    /// Saves `state` and the working `words` atomically.
    ///
    /// # Errors
    ///
    /// [`TableError::Write`] if the file cannot be written.
    pub fn save(&self, state: &SolverState, words: &[AtomicU64]) -> Result<(), TableError> {
        let write_error = |source| TableError::Write { path: self.path.clone(), source };
        let dir = self.path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(write_error)?;
        let mut temp = tempfile::Builder::new().suffix(".tmp").tempfile_in(dir).map_err(write_error)?;
        {
            let mut digest = CRC.digest();
            let mut out = BufWriter::with_capacity(1 << 20, temp.as_file_mut());
            let mut put = |bytes: &[u8]| -> io::Result<()> {
                digest.update(bytes);
                out.write_all(bytes)
            };
            let header = Header { key: self.key.clone(), counts: Default::default(), facts: Vec::new() };
            put(&MAGIC).map_err(write_error)?;
            put(&header.to_bytes()).map_err(write_error)?;
            put(&state.tier.to_le_bytes()).map_err(write_error)?;
            put(&state.next_layer.to_le_bytes()).map_err(write_error)?;
            put(&state.max_plies.to_le_bytes()).map_err(write_error)?;
            put(&(state.pending.len() as u64).to_le_bytes()).map_err(write_error)?;
            for mask in &state.pending {
                put(&mask[0].to_le_bytes()).map_err(write_error)?;
                put(&mask[1].to_le_bytes()).map_err(write_error)?;
            }
            put(&(words.len() as u64).to_le_bytes()).map_err(write_error)?;
            let mut buffer = Vec::with_capacity(1 << 20);
            for chunk in words.chunks(1 << 17) {
                buffer.clear();
                for word in chunk {
                    buffer.extend_from_slice(&word.load(Relaxed).to_le_bytes());
                }
                put(&buffer).map_err(write_error)?;
            }
            out.write_all(&digest.finalize().to_le_bytes()).map_err(write_error)?;
            out.flush().map_err(write_error)?;
        }
        temp.as_file().sync_all().map_err(write_error)?;
        temp.persist(&self.path).map_err(|e| write_error(e.error))?;
        Ok(())
    }

    /// The saved state and words, or `None` if there is no checkpoint.
    ///
    /// # Errors
    ///
    /// A checkpoint that cannot be read, is of another key, or fails its
    /// checksum is an error: it is never silently discarded.
    pub fn load(&self) -> Result<Option<(SolverState, Vec<AtomicU64>)>, TableError> {
        let read_error = |source| TableError::Read { path: self.path.clone(), source };
        let invalid = |source| TableError::Invalid { path: self.path.clone(), source };
        let file = match File::open(&self.path) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(read_error(error)),
        };
        let mut input = BufReader::with_capacity(1 << 20, file);
        let mut digest = CRC.digest();
        let mut take = |len: usize| -> Result<Vec<u8>, TableError> {
            let mut bytes = vec![0; len];
            input.read_exact(&mut bytes).map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => invalid(FormatError::TooShort { len: len as u64 }),
                _ => read_error(e),
            })?;
            digest.update(&bytes);
            Ok(bytes)
        };
        if take(8)? != MAGIC {
            return Err(invalid(FormatError::Magic));
        }
        Header::read(&take(HEADER_LEN)?, &self.key).map_err(invalid)?;
        let number = |bytes: Vec<u8>| bytes.iter().rev().fold(0u64, |n, &b| n << 8 | u64::from(b));
        let tier = number(take(4)?) as u32;
        let next_layer = number(take(2)?) as u16;
        let max_plies = number(take(2)?) as u16;
        let chunks = number(take(8)?);
        let limit = |count: u64| {
            (count <= self.key.positions)
                .then_some(count)
                .ok_or(invalid(FormatError::Length { expected: self.key.positions, found: count }))
        };
        let mut pending = Vec::with_capacity(limit(chunks)? as usize);
        for _ in 0..chunks {
            let bytes = take(16)?;
            pending.push([number(bytes[..8].to_vec()), number(bytes[8..].to_vec())]);
        }
        let count = limit(number(take(8)?))?;
        if count != self.key.positions.div_ceil(8) {
            return Err(invalid(FormatError::Length { expected: self.key.positions.div_ceil(8), found: count }));
        }
        let mut words = Vec::with_capacity(count as usize);
        let mut left = count as usize;
        while left > 0 {
            let piece = left.min(1 << 17);
            let bytes = take(piece * 8)?;
            words.extend(bytes.chunks_exact(8).map(|b| AtomicU64::new(number(b.to_vec()))));
            left -= piece;
        }
        let computed = digest.finalize();
        let mut trailer = [0; 8];
        input.read_exact(&mut trailer).map_err(read_error)?;
        let stored = u64::from_le_bytes(trailer);
        if stored != computed {
            return Err(invalid(FormatError::Checksum { stored, computed }));
        }
        Ok(Some((SolverState { tier, next_layer, max_plies, pending }, words)))
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
