//! Units on disk: one compressed table file per unit, in one directory.
//!
//! Each unit is a table of packed values compressed in blocks (see
//! [`blocks`](crate::table::blocks)), one byte a position or, for a unit
//! with a distance past what a byte holds, two; its header names the game, the
//! variant and `SIZE:UNIT` (so a file renamed to another unit is refused),
//! written atomically: a unit file is there whole or not at all, which is
//! what a solve resumes from. Probing a position reads one block of one
//! unit.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rayon::prelude::*;

use super::{AuditRecord, ReachCheckpoint, UnitStore};
use crate::packed::{PackedValue, WideValue};
use crate::progress::{Interrupted, Progress};
use crate::solution::Solution;
use crate::table::blocks::BLOCK_LEN;
use crate::table::{
    BuildLock, Checkpoint, Encoding, FormatError, Header, Packed, Payload, Table, TableError, TableKey,
    regular_file_exists, remove_temporaries, write,
};
use crate::tally::Tally;
use crate::value::Value;

/// How the temporary file of every unit's name starts (see
/// [`write`]: `.NAME.` for `NAME`); the unit files themselves are
/// `unit-NNNNN.unit.tbl`.
const UNIT_PREFIX: &str = ".unit-";

/// The checkpoint of a walk from the start over the units (see
/// [`reach_by_units`](super::reach_by_units)), which a finished walk leaves
/// its counts in.
const WALK_FILE: &str = "reachable.ckpt";

/// The record of an audit of the units (see
/// [`audit_by_units`](super::audit_by_units)), which a finished audit
/// leaves its result in.
const AUDIT_FILE: &str = "audit.ckpt";

/// One [`PackedValue`] byte per position of a unit, compressed in blocks.
#[derive(Copy, Clone, Debug)]
pub struct UnitValues;

impl Encoding for UnitValues {
    const CODE: u32 = 5;
    const NAME: &'static str = "unit values";
    const SUFFIX: &'static str = ".unit";
    const BLOCKED: bool = true;

    fn payload_len(positions: u64, _: Tally) -> Option<u64> {
        Some(positions)
    }
}

impl Payload<UnitValues> for Solution {
    fn tally(&self) -> Tally {
        Payload::<Packed>::tally(self)
    }

    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()> {
        Payload::<Packed>::write_pieces(self, sink)
    }
}

/// One [`WideValue`] per position of a unit, two bytes little-endian,
/// compressed in blocks: for the units whose values do not all fit
/// [`UnitValues`]. A new encoding beside the others, so the unit files
/// already written stay valid.
#[derive(Copy, Clone, Debug)]
pub struct WideUnitValues;

impl Encoding for WideUnitValues {
    const CODE: u32 = 6;
    const NAME: &'static str = "two-byte unit values";
    const SUFFIX: &'static str = ".unit";
    const BLOCKED: bool = true;

    fn payload_len(positions: u64, _: Tally) -> Option<u64> {
        positions.checked_mul(2)
    }
}

impl Payload<WideUnitValues> for Solution {
    fn tally(&self) -> Tally {
        Payload::<Packed>::tally(self)
    }

    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()> {
        self.write_wide_pieces(sink)
    }
}

/// The table of one unit, of one byte a position or two.
#[derive(Debug)]
pub enum UnitTable {
    /// One [`PackedValue`] byte a position.
    Narrow(Table<UnitValues>),
    /// One [`WideValue`] a position.
    Wide(Table<WideUnitValues>),
}

impl UnitTable {
    /// Its header.
    pub fn header(&self) -> &Header {
        match self {
            UnitTable::Narrow(table) => table.header(),
            UnitTable::Wide(table) => table.header(),
        }
    }

    /// The bytes the file takes on disk.
    pub fn stored_len(&self) -> u64 {
        match self {
            UnitTable::Narrow(table) => table.stored_len(),
            UnitTable::Wide(table) => table.stored_len(),
        }
    }

    /// The value of position `idx`, reading one block.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the block cannot be read or is corrupt, or `idx`
    /// is past the end.
    pub fn value(&self, idx: u64) -> Result<Value, TableError> {
        match self {
            UnitTable::Narrow(table) => {
                let mut byte = [0u8];
                table.read_payload(idx, &mut byte)?;
                Ok(PackedValue::from_byte(byte[0]).unpack())
            }
            UnitTable::Wide(table) => {
                let mut code = [0u8; 2];
                table.read_payload(2 * idx, &mut code)?;
                Ok(WideValue::from_code(u16::from_le_bytes(code)).unpack())
            }
        }
    }

    /// Reads every block, checking each.
    ///
    /// # Errors
    ///
    /// [`TableError`] for the first block that cannot be read or is corrupt.
    pub fn check_all(&self) -> Result<(), TableError> {
        match self {
            UnitTable::Narrow(table) => table.check_all(),
            UnitTable::Wide(table) => table.check_all(),
        }
    }

    /// Every value of a unit of `len` positions, read in pieces of whole
    /// blocks in parallel.
    fn load(&self, len: u64) -> Result<Solution, TableError> {
        let wide = matches!(self, UnitTable::Wide(_));
        let bytes_len = if wide { 2 * len } else { len };
        let mut words = vec![0u64; bytes_len.div_ceil(8) as usize];
        let piece = 16 * BLOCK_LEN as usize;
        words.par_chunks_mut(piece / 8).enumerate().try_for_each(|(i, out)| {
            let start = (i * piece) as u64;
            let mut bytes = vec![0u8; (bytes_len - start).min(piece as u64) as usize];
            match self {
                UnitTable::Narrow(table) => table.read_payload(start, &mut bytes)?,
                UnitTable::Wide(table) => table.read_payload(start, &mut bytes)?,
            }
            for (word, eight) in out.iter_mut().zip(bytes.chunks(8)) {
                let mut full = [0u8; 8];
                full[..eight.len()].copy_from_slice(eight);
                *word = u64::from_le_bytes(full);
            }
            Ok::<(), TableError>(())
        })?;
        Ok(if wide { Solution::from_wide_words(words, len) } else { Solution::from_words(words, len) })
    }
}

/// The unit files of one solve, in one directory.
#[derive(Clone, Debug)]
pub struct UnitFiles {
    dir: PathBuf,
    key: TableKey,
    lens: Vec<u64>,
}

impl UnitFiles {
    /// The units of the game `key` names (its `positions` are ignored),
    /// with these lengths, kept in `dir`.
    pub fn new(dir: impl Into<PathBuf>, key: TableKey, lens: Vec<u64>) -> UnitFiles {
        UnitFiles { dir: dir.into(), key, lens }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many units there are.
    pub fn len(&self) -> usize {
        self.lens.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lens.is_empty()
    }

    /// Where `unit` is kept.
    pub fn path(&self, unit: usize) -> PathBuf {
        self.dir.join(format!("{}{unit:05}{}.tbl", &UNIT_PREFIX[1..], UnitValues::SUFFIX))
    }

    fn key_of(&self, unit: usize) -> TableKey {
        TableKey { size: format!("{}:{unit}", self.key.size), positions: self.lens[unit], ..self.key.clone() }
    }

    /// Takes the lock on the directory (made if missing), so that one solve
    /// writes there at a time, calling `waiting` first if another process
    /// holds it; then removes the temporary files of units a solve killed
    /// while writing left behind.
    ///
    /// # Errors
    ///
    /// [`TableError::Write`] if the lock cannot be made or taken, or a
    /// stale file cannot be removed.
    pub fn lock(&self, waiting: impl FnOnce()) -> Result<BuildLock, TableError> {
        let lock = BuildLock::take(&self.dir.join(".lock"), waiting)?;
        remove_temporaries(&self.dir, UNIT_PREFIX)?;
        remove_temporaries(&self.dir, &format!(".{WALK_FILE}."))?;
        remove_temporaries(&self.dir, &format!(".{AUDIT_FILE}."))?;
        Ok(lock)
    }

    /// Where an audit of these units records how far it got, at least
    /// `every` so often.
    pub fn audit_record(&self, every: Duration) -> AuditRecord {
        let key = TableKey { size: format!("{}:AUDIT", self.key.size), ..self.key.clone() };
        AuditRecord { file: Checkpoint::new(self.dir.join(AUDIT_FILE), key), every }
    }

    /// Where a walk from the start over these units saves its progress,
    /// at least `every` so often.
    pub fn walk_checkpoint(&self, every: Duration) -> ReachCheckpoint {
        let key = TableKey { size: format!("{}:REACHABLE", self.key.size), ..self.key.clone() };
        ReachCheckpoint { file: Checkpoint::new(self.dir.join(WALK_FILE), key), every }
    }

    /// How many units are not stored yet: the one answer to whether a unit
    /// is there, as a solve asks it (see [`UnitStore::has`]).
    ///
    /// # Errors
    ///
    /// [`TableError::Read`] if something other than a regular file is where
    /// a unit belongs, or the directory cannot be looked at.
    pub fn missing(&self) -> Result<usize, TableError> {
        (0..self.lens.len()).try_fold(0, |missing, unit| Ok(missing + usize::from(!self.has(unit)?)))
    }

    /// Reads every block of every unit stored, checking each against its
    /// checksum, a unit per thread at a time: the units found damaged, with
    /// what is wrong with each, in order. Units not stored are not asked for.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] if `progress` asked to stop.
    pub fn check_blocks(&self, progress: &dyn Progress) -> Result<Vec<(usize, TableError)>, Interrupted> {
        progress.start("checking every block of the unit files", self.lens.len() as u64);
        let mut damaged: Vec<(usize, TableError)> = (0..self.lens.len())
            .into_par_iter()
            .map(|unit| {
                if progress.should_stop() {
                    return Err(Interrupted);
                }
                let checked = match self.has(unit) {
                    Ok(false) => Ok(()),
                    Ok(true) => self.open(unit).and_then(|table| table.check_all()),
                    Err(error) => Err(error),
                };
                progress.advance(1);
                Ok(checked.err().map(|error| (unit, error)))
            })
            .filter_map(Result::transpose)
            .collect::<Result<_, _>>()?;
        damaged.sort_by_key(|(unit, _)| *unit);
        Ok(damaged)
    }

    /// Every unit, for probing: each checked once now, then opened as it is
    /// read (see [`OpenUnits`]).
    ///
    /// # Errors
    ///
    /// [`TableError`] if a unit is missing, unreadable or not that unit.
    pub fn open_all(&self) -> Result<OpenUnits, TableError> {
        let units = (0..self.lens.len())
            .map(|unit| self.open(unit).map(|table| (table.header().clone(), table.stored_len())))
            .collect::<Result<Vec<_>, _>>()?;
        let (headers, stored) = units.into_iter().unzip();
        Ok(OpenUnits { files: self.clone(), headers, stored, open: Mutex::default() })
    }

    /// The table of `unit`, for probing a block at a time, of whichever
    /// width it was written.
    ///
    /// # Errors
    ///
    /// [`TableError`] if it is missing, unreadable or not that unit.
    pub fn open(&self, unit: usize) -> Result<UnitTable, TableError> {
        let (path, key) = (self.path(unit), self.key_of(unit));
        match Table::open(&path, &key) {
            Err(TableError::Invalid { source: FormatError::Encoding { found: WideUnitValues::CODE, .. }, .. }) => {
                Table::open(&path, &key).map(UnitTable::Wide)
            }
            narrow => narrow.map(UnitTable::Narrow),
        }
    }
}

/// Every unit of a solve, for probing: each file's header checked when they
/// were opened, and at most [`OPEN_FILES`] files held open at once, the
/// ones read last, so that the files held open do not grow with the number
/// of units (3,321 on a 6×6 board, where many systems allow a process
/// 1,024 open files and some 256).
#[derive(Debug)]
pub struct OpenUnits {
    files: UnitFiles,
    headers: Vec<Header>,
    stored: Vec<u64>,
    /// The units open now, the one read last at the back.
    open: Mutex<VecDeque<(usize, Arc<UnitTable>)>>,
}

/// The most unit files [`OpenUnits`] holds open at once.
pub const OPEN_FILES: usize = 64;

impl OpenUnits {
    /// How many units there are.
    pub fn len(&self) -> usize {
        self.headers.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.headers.is_empty()
    }

    /// The header of `unit`.
    pub fn header(&self, unit: usize) -> &Header {
        &self.headers[unit]
    }

    /// The bytes the file of `unit` takes on disk.
    pub fn stored_len(&self, unit: usize) -> u64 {
        self.stored[unit]
    }

    /// The value of position `idx` of `unit`, reading one block, the unit's
    /// file opened again (and checked again) if it was closed.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the file cannot be opened or read, is no longer
    /// that unit, or `idx` is past the end.
    pub fn value(&self, unit: usize, idx: u64) -> Result<Value, TableError> {
        self.table(unit)?.value(idx)
    }

    fn table(&self, unit: usize) -> Result<Arc<UnitTable>, TableError> {
        let open = |open: &mut VecDeque<(usize, Arc<UnitTable>)>| {
            let at = open.iter().position(|(u, _)| *u == unit)?;
            let entry = open.remove(at).expect("a position found is in the list");
            open.push_back(entry.clone());
            Some(entry.1)
        };
        if let Some(table) = open(&mut self.open.lock().unwrap_or_else(PoisonError::into_inner)) {
            return Ok(table);
        }
        // Opened without the lock held: other readers go on meanwhile.
        let table = Arc::new(self.files.open(unit)?);
        let mut held = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(table) = open(&mut held) {
            return Ok(table);
        }
        if held.len() == OPEN_FILES {
            held.pop_front();
        }
        held.push_back((unit, table.clone()));
        Ok(table)
    }
}

impl UnitStore for UnitFiles {
    fn has(&self, unit: usize) -> Result<bool, TableError> {
        let path = self.path(unit);
        regular_file_exists(&path).map_err(|source| TableError::Read { path, source })
    }

    fn load(&self, unit: usize, len: u64) -> Result<Solution, TableError> {
        self.open(unit)?.load(len)
    }

    fn keeps_facts(&self) -> bool {
        true
    }

    fn save(&self, unit: usize, values: &Solution, facts: &[(&'static str, u64)]) -> Result<(), TableError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| TableError::Write { path: self.dir.clone(), source })?;
        if values.is_wide() {
            write::<WideUnitValues>(&self.path(unit), &self.key_of(unit), facts, values)
        } else {
            write::<UnitValues>(&self.path(unit), &self.key_of(unit), facts, values)
        }
    }
}
