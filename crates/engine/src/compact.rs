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
//! This layout is [`Encoding::Compact`](crate::table::Encoding::Compact)'s;
//! changing it bumps `FORMAT_VERSION`.

use std::io;

use rayon::prelude::*;

use crate::table::{Counts, Payload, Table};
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

/// The payload's length in bytes for `positions` positions, `decisive` of
/// them won or lost.
pub fn payload_len(positions: u64, decisive: u64) -> u64 {
    let bitmap = positions.div_ceil(64);
    8 * (bitmap + bitmap.div_ceil(BLOCK_WORDS as u64) + (6 * decisive).div_ceil(64))
}

/// A compact copy, built from full values.
#[derive(Debug)]
pub struct CompactBuilder {
    counts: Counts,
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
        let blocks: Vec<(Vec<u64>, Vec<u8>, Counts)> = (0..words.div_ceil(BLOCK_WORDS))
            .into_par_iter()
            .map(|block| {
                let mut bitmap = Vec::with_capacity(BLOCK_WORDS);
                let mut distances = Vec::new();
                let mut counts = Counts::default();
                for w in block * BLOCK_WORDS..((block + 1) * BLOCK_WORDS).min(words) {
                    let mut word = 0u64;
                    for idx in (w as u64 * 64)..((w as u64 + 1) * 64).min(n) {
                        let value = values.probe(idx);
                        let Some(Plies(d)) = value.plies() else {
                            counts.draws += 1;
                            continue;
                        };
                        let odd = d % 2 == 1;
                        if odd != matches!(value, Value::Win(_)) {
                            return Err(CompactError::Parity { idx, value });
                        }
                        if d > MAX_PLIES {
                            return Err(CompactError::TooLong { idx, value });
                        }
                        if odd {
                            counts.wins += 1
                        } else {
                            counts.losses += 1
                        }
                        word |= 1 << (idx % 64);
                        distances.push(d as u8);
                    }
                    bitmap.push(word);
                }
                Ok((bitmap, distances, counts))
            })
            .collect::<Result<_, _>>()?;
        let mut counts = Counts::default();
        let mut bitmap = Vec::with_capacity(words);
        let mut directory = Vec::with_capacity(blocks.len());
        let decisive: u64 = blocks.iter().map(|b| b.1.len() as u64).sum();
        let mut distances = vec![0u64; (6 * decisive).div_ceil(64) as usize];
        let mut rank = 0u64;
        for (block_bitmap, block_distances, block_counts) in blocks {
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
            counts.wins += block_counts.wins;
            counts.losses += block_counts.losses;
            counts.draws += block_counts.draws;
        }
        Ok(CompactBuilder { counts, bitmap, directory, distances })
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

impl Payload for CompactBuilder {
    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        for words in [&self.bitmap, &self.directory, &self.distances] {
            for chunk in words.chunks(1 << 16) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
                sink(&bytes)?;
            }
        }
        Ok(())
    }

    fn counts(&self) -> Option<Counts> {
        Some(self.counts)
    }
}

/// The three parts of a compact payload, as words.
pub(crate) struct View<'a, W> {
    pub bitmap: &'a [W],
    pub directory: &'a [W],
    pub distances: &'a [W],
}

/// A word of a compact payload: in memory, or bytes from a file.
pub(crate) trait Word: Copy {
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
    pub(crate) fn probe(&self, idx: u64) -> Value {
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

impl<B: AsRef<[u8]>> Table<B> {
    /// Whether this is a compact copy.
    pub fn is_compact(&self) -> bool {
        self.header().key.encoding == crate::table::Encoding::Compact
    }
}
