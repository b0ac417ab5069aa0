//! A compact lossless copy of a table, for games where every win has an
//! odd distance and every loss an even one (as when a terminal position is a
//! loss at 0 and the turn always passes).
//!
//! # Layout
//!
//! For `n` positions of which `k` are decisive (won or lost):
//!
//! - a bitmap of the decisive positions: `⌈n/64⌉` little-endian words;
//! - a rank directory: for every block of 8 words (512 positions), the
//!   number of decisive positions before it, one word each;
//! - the decisive positions' distances, 6 bits each, packed into
//!   `⌈6k/64⌉` words, in index order.
//!
//! A lookup reads one bitmap word, one directory word, at most seven more
//! bitmap words and one or two distance words: constant time. Draws take one
//! bit; the distance's parity says win or loss.
//!
//! # Stability
//!
//! This layout is the [`Compact`] encoding's, and this file is the only one
//! that knows it; changing it bumps `FORMAT_VERSION`.

use std::io;

use rayon::prelude::*;

use crate::table::{Encoding, Payload, Table};
use crate::tally::Tally;
use crate::value::{Plies, Value};
use crate::values::Values;

/// The longest distance the compact form holds.
pub const MAX_PLIES: u16 = 63;

const BLOCK_WORDS: usize = 8;

/// Why a table cannot be made compact.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum CompactError {
    /// A distance whose parity does not match its result.
    #[error("position {idx} is a {value}: wins must have odd distances and losses even ones")]
    Parity {
        /// The position.
        idx: u64,
        /// Its value.
        value: Value,
    },
    /// A distance longer than six bits hold.
    #[error("position {idx} is a {value}: distances above {MAX_PLIES} do not fit")]
    TooLong {
        /// The position.
        idx: u64,
        /// Its value.
        value: Value,
    },
    /// The copy does not give back the table.
    #[error("the compact copy gives {copy} for position {idx}, where the table has {table}")]
    Mismatch {
        /// The position.
        idx: u64,
        /// The copy's value.
        copy: Value,
        /// The table's.
        table: Value,
    },
}

/// The compact copy of a table of values, as a table encoding.
#[derive(Copy, Clone, Debug)]
pub struct Compact;

impl Encoding for Compact {
    const CODE: u32 = 3;
    const NAME: &'static str = "compact values";
    const SUFFIX: &'static str = ".compact";

    fn payload_len(positions: u64, tally: Tally) -> Option<u64> {
        let decisive = tally.wins.checked_add(tally.losses).filter(|&d| d <= positions)?;
        let parts = Parts::of(positions, decisive);
        Some(8 * (parts.bitmap + parts.directory + parts.distances) as u64)
    }
}

/// The lengths, in words, of the three parts of a payload.
struct Parts {
    bitmap: usize,
    directory: usize,
    distances: usize,
}

impl Parts {
    fn of(positions: u64, decisive: u64) -> Parts {
        let bitmap = positions.div_ceil(64) as usize;
        Parts { bitmap, directory: bitmap.div_ceil(BLOCK_WORDS), distances: (6 * decisive).div_ceil(64) as usize }
    }
}

/// A compact copy, built from full values.
#[derive(Debug)]
pub struct CompactBuilder {
    tally: Tally,
    bitmap: Vec<u64>,
    directory: Vec<u64>,
    distances: Vec<u64>,
}

impl CompactBuilder {
    /// Builds the compact copy of `values`.
    ///
    /// # Errors
    ///
    /// [`CompactError`] if a value breaks the parity rule or its distance
    /// exceeds six bits.
    pub fn new(values: &(impl Values + ?Sized)) -> Result<CompactBuilder, CompactError> {
        let n = values.len();
        let words = n.div_ceil(64) as usize;
        // The bitmap and each block's decisive distances, in parallel.
        let blocks: Vec<(Vec<u64>, Vec<u8>, Tally)> = (0..words.div_ceil(BLOCK_WORDS))
            .into_par_iter()
            .map(|block| {
                let mut bitmap = Vec::with_capacity(BLOCK_WORDS);
                let mut distances = Vec::new();
                let mut tally = Tally::default();
                for w in block * BLOCK_WORDS..((block + 1) * BLOCK_WORDS).min(words) {
                    let mut word = 0u64;
                    for idx in (w as u64 * 64)..((w as u64 + 1) * 64).min(n) {
                        let value = values.probe(idx);
                        tally.add(value);
                        let Some(Plies(d)) = value.plies() else { continue };
                        let odd = d % 2 == 1;
                        if odd != matches!(value, Value::Win(_)) {
                            return Err(CompactError::Parity { idx, value });
                        }
                        if d > MAX_PLIES {
                            return Err(CompactError::TooLong { idx, value });
                        }
                        word |= 1 << (idx % 64);
                        distances.push(d as u8);
                    }
                    bitmap.push(word);
                }
                Ok((bitmap, distances, tally))
            })
            .collect::<Result<_, _>>()?;
        let mut tally = Tally::default();
        let mut bitmap = Vec::with_capacity(words);
        let mut directory = Vec::with_capacity(blocks.len());
        let decisive: u64 = blocks.iter().map(|b| b.1.len() as u64).sum();
        let mut distances = vec![0u64; (6 * decisive).div_ceil(64) as usize];
        let mut rank = 0u64;
        for (block_bitmap, block_distances, block_tally) in blocks {
            directory.push(rank);
            bitmap.extend(block_bitmap);
            for d in block_distances {
                let bit = 6 * rank;
                let (word, shift) = ((bit / 64) as usize, bit % 64);
                distances[word] |= u64::from(d) << shift;
                if shift > 58 {
                    distances[word + 1] |= u64::from(d) >> (64 - shift);
                }
                rank += 1;
            }
            tally = tally.merge(block_tally);
        }
        Ok(CompactBuilder { tally, bitmap, directory, distances })
    }

    /// Checks every entry of the copy against `values`.
    ///
    /// # Errors
    ///
    /// [`CompactError::Mismatch`] for the first entry that differs.
    pub fn verify(&self, values: &(impl Values + ?Sized)) -> Result<(), CompactError> {
        let view = View { bitmap: &self.bitmap, directory: &self.directory, distances: &self.distances };
        (0..values.len()).into_par_iter().try_for_each(|idx| {
            let (copy, table) = (view.probe(idx), values.probe(idx));
            if copy == table { Ok(()) } else { Err(CompactError::Mismatch { idx, copy, table }) }
        })
    }

    /// The copy's size in bytes.
    pub fn len(&self) -> u64 {
        8 * (self.bitmap.len() + self.directory.len() + self.distances.len()) as u64
    }

    /// Whether the copy is empty.
    pub fn is_empty(&self) -> bool {
        self.bitmap.is_empty()
    }
}

impl Payload<Compact> for CompactBuilder {
    fn tally(&self) -> Tally {
        self.tally
    }

    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        for words in [&self.bitmap, &self.directory, &self.distances] {
            for chunk in words.chunks(1 << 16) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
                sink(&bytes)?;
            }
        }
        Ok(())
    }
}

/// The three parts of a compact payload, as words.
struct View<'a, W> {
    bitmap: &'a [W],
    directory: &'a [W],
    distances: &'a [W],
}

/// A word of a compact payload: in memory, or bytes from a file.
trait Word: Copy {
    fn get(self) -> u64;
}

impl Word for u64 {
    fn get(self) -> u64 {
        self
    }
}

impl Word for [u8; 8] {
    fn get(self) -> u64 {
        u64::from_le_bytes(self)
    }
}

impl<W: Word> View<'_, W> {
    #[inline]
    fn probe(&self, idx: u64) -> Value {
        let w = (idx / 64) as usize;
        let word = self.bitmap[w].get();
        if word >> (idx % 64) & 1 == 0 {
            return Value::Draw;
        }
        let block = w / BLOCK_WORDS;
        let mut rank = self.directory[block].get();
        for earlier in &self.bitmap[block * BLOCK_WORDS..w] {
            rank += u64::from(earlier.get().count_ones());
        }
        rank += u64::from((word & ((1u64 << (idx % 64)) - 1)).count_ones());
        let bit = 6 * rank;
        let (i, shift) = ((bit / 64) as usize, bit % 64);
        let mut d = self.distances[i].get() >> shift;
        if shift > 58 {
            d |= self.distances[i + 1].get() << (64 - shift);
        }
        let d = (d & 0x3f) as u16;
        if d % 2 == 1 { Value::Win(Plies(d)) } else { Value::Loss(Plies(d)) }
    }
}

impl Table<Compact> {
    /// The value of position `idx`.
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    #[inline]
    pub fn probe(&self, idx: u64) -> Value {
        assert!(idx < self.len(), "position index out of range");
        let (words, _) = self.payload().as_chunks::<8>();
        let tally = self.header().tally;
        let parts = Parts::of(self.len(), tally.wins + tally.losses);
        let (bitmap, rest) = words.split_at(parts.bitmap);
        let (directory, distances) = rest.split_at(parts.directory);
        View { bitmap, directory, distances }.probe(idx)
    }
}

impl Values for Table<Compact> {
    fn len(&self) -> u64 {
        Table::len(self)
    }

    fn probe(&self, idx: u64) -> Value {
        Table::<Compact>::probe(self, idx)
    }
}
