//! What the retrograde solver gives: a final value in a cell a position.

use std::io;

use rayon::prelude::*;

use crate::cells::{Cell, Cells, cell_of};
use crate::packed::{PackedValue, WideValue};
use crate::table::{Packed, Payload};
use crate::tally::Tally;
use crate::value::Value;
use crate::values::Values;

/// The solved values of every position: one [`PackedValue`] byte each, or
/// two bytes each ([`WideValue`]) where some distance does not fit a byte.
#[derive(Debug)]
pub struct Solution {
    words: Vec<u64>,
    len: u64,
    wide: bool,
}

impl Solution {
    /// The number of positions.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the values take two bytes each.
    pub fn is_wide(&self) -> bool {
        self.wide
    }

    /// The bytes the values take in memory.
    pub fn size_in_bytes(&self) -> u64 {
        8 * self.words.len() as u64
    }

    /// The CRC-64/XZ of the values as a table stores them: a byte a
    /// position, or two (little-endian) if wide.
    pub(crate) fn checksum(&self) -> u64 {
        let mut digest = crate::table::CRC.digest();
        let pieces = self.pieces(&mut |piece| {
            digest.update(piece);
            Ok(())
        });
        pieces.expect("adding to a checksum does not fail");
        digest.finalize()
    }

    /// Gives `sink` the values as a table stores them (see
    /// [`checksum`](Self::checksum)), a piece at a time.
    fn pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        const PIECE: usize = 1 << 20;
        let mut buffer = Vec::with_capacity(PIECE);
        let mut remaining = (if self.wide { 2 * self.len } else { self.len }) as usize;
        for word in &self.words {
            let take = remaining.min(8);
            buffer.extend_from_slice(&word.to_le_bytes()[..take]);
            remaining -= take;
            if buffer.len() + 8 > PIECE {
                sink(&buffer)?;
                buffer.clear();
            }
        }
        if !buffer.is_empty() {
            sink(&buffer)?;
        }
        Ok(())
    }

    /// The solution held by `words`, eight positions to a word.
    pub(crate) fn from_words(words: Vec<u64>, len: u64) -> Solution {
        debug_assert_eq!(words.len() as u64, len.div_ceil(8));
        Solution { words, len, wide: false }
    }

    /// The solution held by `words`, four two-byte codes to a word.
    pub(crate) fn from_wide_words(words: Vec<u64>, len: u64) -> Solution {
        debug_assert_eq!(words.len() as u64, len.div_ceil(4));
        Solution { words, len, wide: true }
    }

    /// The solution held by the cells of a solve, one byte each if they fit.
    pub(crate) fn from_cells<C: Cell>(cells: Cells<C>, len: u64) -> Solution {
        let words = cells.into_words();
        if C::BITS == 8 {
            return Solution::from_words(words, len);
        }
        let high_bytes = 0xff00_ff00_ff00_ff00;
        if words.par_iter().any(|word| word & high_bytes != 0) {
            return Solution::from_wide_words(words, len);
        }
        let narrow = words
            .par_chunks(2)
            .map(|pair| {
                let mut word = 0;
                for (i, &wide) in pair.iter().enumerate() {
                    for lane in 0..4 {
                        word |= (wide >> (16 * lane) & 0xff) << (8 * (4 * i + lane));
                    }
                }
                word
            })
            .collect();
        Solution::from_words(narrow, len)
    }

    /// The words of a solution of bytes, eight positions to a word.
    pub(crate) fn words(&self) -> &[u64] {
        assert!(!self.wide, "only a solution of bytes is read word by word");
        &self.words
    }

    /// The words of a solution of bytes, to be written.
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        assert!(!self.wide, "only a solution of bytes is written word by word");
        &mut self.words
    }

    /// The code of position `idx` of a solution of bytes, without asking.
    #[inline]
    pub(crate) fn byte(&self, idx: u64) -> u8 {
        debug_assert!(!self.wide);
        cell_of(self.words[(idx / 8) as usize], idx)
    }

    /// Asks for the line holding position `idx`'s code (see `BATCH`).
    #[inline]
    pub(crate) fn prefetch(&self, idx: u64) {
        solved_dispatch::prefetch(&self.words[(idx / if self.wide { 4 } else { 8 }) as usize]);
    }

    /// The code of position `idx`, as a [`WideValue`] stores it.
    #[inline]
    pub(crate) fn code(&self, idx: u64) -> u16 {
        if self.wide {
            cell_of(self.words[(idx / 4) as usize], idx)
        } else {
            u16::from(cell_of::<u8>(self.words[(idx / 8) as usize], idx))
        }
    }

    /// The value of position `idx`.
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    #[inline]
    pub fn value(&self, idx: u64) -> Value {
        assert!(idx < self.len, "position index out of range");
        WideValue::from_code(self.code(idx)).unpack()
    }

    /// Hands `sink` the values as two-byte little-endian codes, in pieces.
    pub(crate) fn write_wide_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        const PIECE: u64 = 1 << 19;
        let mut buffer = Vec::with_capacity(2 * PIECE as usize);
        for start in (0..self.len).step_by(PIECE as usize) {
            buffer.clear();
            buffer.extend((start..(start + PIECE).min(self.len)).flat_map(|idx| self.code(idx).to_le_bytes()));
            sink(&buffer)?;
        }
        Ok(())
    }
}

impl Values for Solution {
    fn len(&self) -> u64 {
        self.len
    }

    fn probe(&self, idx: u64) -> Value {
        self.value(idx)
    }
}

impl Payload<Packed> for Solution {
    fn tally(&self) -> Tally {
        const PIECE: u64 = 1 << 19;
        (0..self.len.div_ceil(PIECE))
            .into_par_iter()
            .map(|piece| {
                let mut tally = Tally::default();
                for idx in piece * PIECE..((piece + 1) * PIECE).min(self.len) {
                    tally.add(self.value(idx));
                }
                tally
            })
            .reduce(Tally::default, Tally::merge)
    }

    /// # Errors
    ///
    /// [`io::ErrorKind::InvalidData`] for a solution of two bytes a value,
    /// whose distances do not fit the one-byte table.
    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        if self.wide {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a distance past {} plies does not fit one byte per position", PackedValue::MAX_PLIES),
            ));
        }
        self.pieces(sink)
    }
}
