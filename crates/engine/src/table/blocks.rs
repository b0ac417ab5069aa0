//! Tables whose values are compressed in blocks, read a block at a time.
//!
//! A table of billions of values that a probe reads only a few of is kept
//! compressed on disk, and never read whole: each block of
//! [`BLOCK_LEN`] payload bytes is compressed on its own with zstd, and a
//! probe reads and decompresses the blocks it needs (a few recent ones are
//! kept).
//!
//! # Layout
//!
//! | part | size |
//! |---|---|
//! | the table header | 296 |
//! | the compressed blocks, one after another | n |
//! | for each block: where it ends (from the end of the header) and the CRC-64/XZ of its bytes | 16 × blocks |
//! | block length, payload length, blocks, where the blocks end | 32 |
//! | CRC-64/XZ of the header, the block list and the four numbers | 8 |
//! | magic `SOLVEDBK` | 8 |
//!
//! Opening reads the header, the block list and the footer, checks their
//! checksum and that the file is exactly as long as they say; a block's
//! checksum and decompressed length are checked when it is read. The list
//! comes after the blocks so that a table is written in one pass.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use super::{CRC, FormatError, HEADER_LEN, TableError};

/// Payload bytes in a block.
pub const BLOCK_LEN: u64 = 1 << 16;

/// Blocks compressed at once while writing, in parallel.
const BATCH: usize = 64;

/// The zstd level: fast to write, and the values are highly repetitive.
const LEVEL: i32 = 3;

const FOOTER_MAGIC: [u8; 8] = *b"SOLVEDBK";
const FOOTER_LEN: u64 = 48;

/// Decompressed blocks kept for the next probes.
const CACHED: usize = 64;

/// Takes the payload's bytes one piece at a time.
pub(super) type Sink<'a> = dyn FnMut(&[u8]) -> io::Result<()> + 'a;

/// Writes `header` and then the payload `pieces` give, compressed in
/// blocks; `payload_len` is how many bytes they give.
pub(super) fn write(
    out: &mut dyn Write,
    header: &[u8; HEADER_LEN],
    payload_len: u64,
    pieces: &mut dyn FnMut(&mut Sink<'_>) -> io::Result<()>,
) -> io::Result<()> {
    out.write_all(header)?;
    let mut list = Vec::new();
    let mut end = 0u64;
    let mut pending: Vec<u8> = Vec::with_capacity(BATCH * BLOCK_LEN as usize);
    let mut flush = |pending: &mut Vec<u8>, out: &mut dyn Write, list: &mut Vec<(u64, u64)>| -> io::Result<()> {
        let compressed: Vec<io::Result<Vec<u8>>> =
            pending.par_chunks(BLOCK_LEN as usize).map(|block| zstd::bulk::compress(block, LEVEL)).collect();
        for block in compressed {
            let block = block?;
            out.write_all(&block)?;
            end += block.len() as u64;
            list.push((end, CRC.checksum(&block)));
        }
        pending.clear();
        Ok(())
    };
    let mut written = 0u64;
    pieces(&mut |mut piece: &[u8]| {
        written += piece.len() as u64;
        while !piece.is_empty() {
            let room = pending.capacity() - pending.len();
            let (now, later) = piece.split_at(room.min(piece.len()));
            pending.extend_from_slice(now);
            piece = later;
            if pending.len() == pending.capacity() {
                flush(&mut pending, out, &mut list)?;
            }
        }
        Ok(())
    })?;
    if written != payload_len {
        let message = format!("{written} bytes of values where {payload_len} were expected");
        return Err(io::Error::new(io::ErrorKind::InvalidData, message));
    }
    flush(&mut pending, out, &mut list)?;
    let mut digest = CRC.digest();
    digest.update(header);
    let mut tail = Vec::with_capacity(16 * list.len() + FOOTER_LEN as usize);
    for (block_end, crc) in &list {
        tail.extend_from_slice(&block_end.to_le_bytes());
        tail.extend_from_slice(&crc.to_le_bytes());
    }
    for number in [BLOCK_LEN, payload_len, list.len() as u64, list.last().map_or(0, |&(end, _)| end)] {
        tail.extend_from_slice(&number.to_le_bytes());
    }
    digest.update(&tail);
    tail.extend_from_slice(&digest.finalize().to_le_bytes());
    tail.extend_from_slice(&FOOTER_MAGIC);
    out.write_all(&tail)
}

/// An open table of blocks.
pub(super) struct Blocks {
    path: PathBuf,
    file: File,
    payload_len: u64,
    /// Where each block ends, from the end of the header, and its checksum.
    list: Vec<(u64, u64)>,
    /// The most recently read blocks, newest last.
    cache: Mutex<Vec<(u64, Arc<Vec<u8>>)>>,
}

impl Blocks {
    /// Reads the block list of the table in `file` (of `len` bytes) whose
    /// header is `header`, and checks it.
    pub(super) fn open(path: &Path, file: File, len: u64, header: &[u8]) -> Result<Blocks, TableError> {
        let invalid = |source| TableError::Invalid { path: path.into(), source };
        let read_error = |source| TableError::Read { path: path.into(), source };
        if len < HEADER_LEN as u64 + FOOTER_LEN {
            return Err(invalid(FormatError::TooShort { len }));
        }
        let mut footer = [0u8; FOOTER_LEN as usize];
        file.read_exact_at(&mut footer, len - FOOTER_LEN).map_err(read_error)?;
        if footer[40..48] != FOOTER_MAGIC {
            return Err(invalid(FormatError::Footer));
        }
        let number = |i: usize| u64::from_le_bytes(footer[8 * i..8 * i + 8].try_into().expect("eight bytes"));
        let (block_len, payload_len, blocks, data_len) = (number(0), number(1), number(2), number(3));
        let expected = blocks
            .checked_mul(16)
            .and_then(|list| list.checked_add(data_len))
            .and_then(|n| n.checked_add(HEADER_LEN as u64 + FOOTER_LEN))
            .unwrap_or(u64::MAX);
        if expected != len {
            return Err(invalid(FormatError::Length { expected, found: len }));
        }
        if block_len != BLOCK_LEN || blocks != payload_len.div_ceil(BLOCK_LEN) {
            return Err(invalid(FormatError::Footer));
        }
        let mut raw = vec![0u8; 16 * blocks as usize];
        file.read_exact_at(&mut raw, HEADER_LEN as u64 + data_len).map_err(read_error)?;
        let mut digest = CRC.digest();
        digest.update(header);
        digest.update(&raw);
        digest.update(&footer[..32]);
        let (stored, computed) = (number(4), digest.finalize());
        if stored != computed {
            return Err(invalid(FormatError::Checksum { stored, computed }));
        }
        let list: Vec<(u64, u64)> = raw
            .chunks_exact(16)
            .map(|e| {
                let (end, crc) = e.split_at(8);
                (u64::from_le_bytes(end.try_into().expect("eight")), u64::from_le_bytes(crc.try_into().expect("eight")))
            })
            .collect();
        if list.windows(2).any(|w| w[0].0 > w[1].0) || list.last().map_or(0, |&(end, _)| end) != data_len {
            return Err(invalid(FormatError::Length { expected: data_len, found: list.last().map_or(0, |e| e.0) }));
        }
        // A block is read into memory whole: none may claim more than a
        // compressed block can take.
        let largest = zstd::zstd_safe::compress_bound(BLOCK_LEN as usize) as u64;
        let mut start = 0;
        for (index, &(end, _)) in list.iter().enumerate() {
            if end - start == 0 || end - start > largest {
                let reason = format!("{} bytes compressed, where a block takes 1 to {largest}", end - start);
                return Err(invalid(FormatError::Block { block: index as u64, reason }));
            }
            start = end;
        }
        Ok(Blocks { path: path.into(), file, payload_len, list, cache: Mutex::new(Vec::with_capacity(CACHED)) })
    }

    /// The payload's length.
    pub(super) fn payload_len(&self) -> u64 {
        self.payload_len
    }

    /// The memory the open table takes: its block list and the blocks it
    /// keeps.
    pub(super) fn memory_len(&self) -> u64 {
        16 * self.list.len() as u64 + CACHED as u64 * BLOCK_LEN
    }

    /// The compressed bytes, the block list included.
    pub(super) fn stored_len(&self) -> u64 {
        self.list.last().map_or(0, |&(end, _)| end) + 16 * self.list.len() as u64
    }

    /// Fills `out` with the payload from `offset` on.
    pub(super) fn read(&self, mut offset: u64, mut out: &mut [u8]) -> Result<(), TableError> {
        if offset.checked_add(out.len() as u64).is_none_or(|end| end > self.payload_len) {
            let source = io::Error::new(io::ErrorKind::InvalidInput, "read past the end of the values");
            return Err(TableError::Read { path: self.path.clone(), source });
        }
        while !out.is_empty() {
            let block = self.block(offset / BLOCK_LEN)?;
            let within = (offset % BLOCK_LEN) as usize;
            let take = out.len().min(block.len() - within);
            out[..take].copy_from_slice(&block[within..within + take]);
            out = &mut out[take..];
            offset += take as u64;
        }
        Ok(())
    }

    /// Block `index`, decompressed.
    fn block(&self, index: u64) -> Result<Arc<Vec<u8>>, TableError> {
        {
            let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(at) = cache.iter().position(|&(i, _)| i == index) {
                let entry = cache.remove(at);
                let block = entry.1.clone();
                cache.push(entry);
                return Ok(block);
            }
        }
        let corrupt = |reason: String| TableError::Invalid {
            path: self.path.clone(),
            source: FormatError::Block { block: index, reason },
        };
        let start = if index == 0 { 0 } else { self.list[index as usize - 1].0 };
        let (end, crc) = self.list[index as usize];
        let mut compressed = vec![0u8; (end - start) as usize];
        self.file
            .read_exact_at(&mut compressed, HEADER_LEN as u64 + start)
            .map_err(|source| TableError::Read { path: self.path.clone(), source })?;
        let computed = CRC.checksum(&compressed);
        if computed != crc {
            return Err(corrupt(format!("checksum mismatch (stored {crc:016x}, computed {computed:016x})")));
        }
        let len = BLOCK_LEN.min(self.payload_len - index * BLOCK_LEN) as usize;
        let block = zstd::bulk::decompress(&compressed, len).map_err(|e| corrupt(e.to_string()))?;
        if block.len() != len {
            return Err(corrupt(format!("{} bytes where {len} were expected", block.len())));
        }
        let block = Arc::new(block);
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() == CACHED {
            cache.remove(0);
        }
        cache.push((index, block.clone()));
        Ok(block)
    }

    /// Reads every block, checking each: what a full check of the file
    /// costs.
    pub(super) fn check_all(&self) -> Result<(), TableError> {
        (0..self.list.len() as u64).into_par_iter().try_for_each(|index| self.block(index).map(drop))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Encoding, Payload, Table, TableKey, write};
    use super::*;
    use crate::tally::Tally;

    #[derive(Copy, Clone, Debug)]
    struct Bytes;

    impl Encoding for Bytes {
        const CODE: u32 = 0x7e57;
        const NAME: &'static str = "test bytes";
        const SUFFIX: &'static str = ".test";
        const BLOCKED: bool = true;

        fn payload_len(positions: u64, _: Tally) -> Option<u64> {
            Some(positions)
        }
    }

    struct Values(Vec<u8>);

    impl Payload<Bytes> for Values {
        fn tally(&self) -> Tally {
            Tally::default()
        }

        fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
            self.0.chunks(1000).try_for_each(sink)
        }
    }

    fn key(positions: u64) -> TableKey {
        TableKey { game: "test".into(), variant: "v".into(), size: "1".into(), index_version: 1, positions }
    }

    #[test]
    fn blocks_give_back_every_byte_and_refuse_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tbl");
        let len = 3 * BLOCK_LEN + 12345;
        let values: Vec<u8> = (0..len).map(|i| (i * 7919 % 251) as u8 / 16).collect();
        write::<Bytes>(&path, &key(len), &[], &Values(values.clone())).unwrap();
        let table = Table::<Bytes>::open(&path, &key(len)).unwrap();
        assert!(table.stored_len() < len / 2, "compressed to {} bytes", table.stored_len());
        for (offset, n) in [(0, 10), (BLOCK_LEN - 3, 7), (len - 5, 5), (1, 2 * BLOCK_LEN as usize)] {
            let mut out = vec![0; n];
            table.read_payload(offset, &mut out).unwrap();
            assert_eq!(out, values[offset as usize..offset as usize + n]);
        }
        assert!(table.read_payload(len - 1, &mut [0; 2]).is_err());
        table.check_all().unwrap();
        assert!(Table::<Bytes>::open(&path, &key(len + 1)).is_err(), "another key");
        // A flipped byte in a block is found when that block is read.
        let mut file = std::fs::read(&path).unwrap();
        file[HEADER_LEN + 100] ^= 0x55;
        std::fs::write(&path, &file).unwrap();
        let table = Table::<Bytes>::open(&path, &key(len)).unwrap();
        let error = table.read_payload(0, &mut [0; 1]).unwrap_err().to_string();
        assert!(error.contains("cannot be used"), "{error}");
        assert!(table.check_all().is_err());
        table.read_payload(2 * BLOCK_LEN, &mut [0; 1]).unwrap();
        // A flipped byte in the block list, or a truncated file, at once.
        file[HEADER_LEN + 100] ^= 0x55;
        let list = file.len() - FOOTER_LEN as usize - 20;
        file[list] ^= 1;
        std::fs::write(&path, &file).unwrap();
        assert!(Table::<Bytes>::open(&path, &key(len)).is_err());
        file[list] ^= 1;
        file.truncate(file.len() - 1);
        std::fs::write(&path, &file).unwrap();
        let error = Table::<Bytes>::open(&path, &key(len)).unwrap_err();
        let cause = std::error::Error::source(&error).map(ToString::to_string).unwrap_or_default();
        assert!(cause.contains("no block list at the end of the file"), "{error}: {cause}");
    }
}
