//! The solvers' store: one byte per position, in words that threads update
//! with compare-and-swap, and scans over them a word at a time.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const LOW_BITS: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The byte of position `idx` within its word.
#[inline]
pub(crate) fn byte_of(word: u64, idx: u64) -> u8 {
    (word >> (8 * (idx % 8))) as u8
}

/// One byte per position, eight to a word.
pub(crate) struct Bytes {
    words: Vec<AtomicU64>,
}

impl Bytes {
    /// `len` zero bytes.
    pub(crate) fn zeroed(len: u64) -> Bytes {
        Bytes { words: (0..len.div_ceil(8)).map(|_| AtomicU64::new(0)).collect() }
    }

    /// The bytes held by `words`, as a checkpoint gives them back.
    pub(crate) fn from_words(words: Vec<AtomicU64>) -> Bytes {
        Bytes { words }
    }

    /// The words, as a checkpoint saves them.
    pub(crate) fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// The words, once nothing writes any more.
    pub(crate) fn into_words(self) -> Vec<u64> {
        self.words.into_iter().map(AtomicU64::into_inner).collect()
    }

    #[inline]
    pub(crate) fn load(&self, idx: u64) -> u8 {
        byte_of(self.words[(idx / 8) as usize].load(Relaxed), idx)
    }

    /// Loads the words holding `indices`, so that their cache lines are on
    /// their way in before they are needed (see `BATCH` in the solver).
    #[inline]
    pub(crate) fn touch(&self, indices: impl Iterator<Item = u64>) {
        let mut any = 0;
        for idx in indices {
            any |= self.words[(idx / 8) as usize].load(Relaxed);
        }
        std::hint::black_box(any);
    }

    /// ORs `codes` into the bytes from `start` on, which must be zero.
    pub(crate) fn or_bytes(&self, start: u64, codes: &[u8]) {
        let mut word_idx = start / 8;
        let mut word = 0;
        for (idx, &code) in (start..).zip(codes) {
            if idx / 8 != word_idx {
                self.words[word_idx as usize].fetch_or(word, Relaxed);
                (word_idx, word) = (idx / 8, 0);
            }
            word |= u64::from(code) << (8 * (idx % 8));
        }
        self.words[word_idx as usize].fetch_or(word, Relaxed);
    }

    /// Replaces the byte by `f(byte)` until `f` returns `None` or the swap
    /// succeeds. Returns the byte that was replaced.
    #[inline]
    pub(crate) fn update(&self, idx: u64, mut f: impl FnMut(u8) -> Option<u8>) -> Option<u8> {
        let word = &self.words[(idx / 8) as usize];
        let shift = 8 * (idx % 8);
        let mut current = word.load(Relaxed);
        loop {
            let old = (current >> shift) as u8;
            let new = f(old)?;
            let replaced = (current & !(0xff << shift)) | (u64::from(new) << shift);
            match word.compare_exchange_weak(current, replaced, Relaxed, Relaxed) {
                Ok(_) => return Some(old),
                Err(actual) => current = actual,
            }
        }
    }

    /// Calls `f(idx, byte)` for each byte in `range` equal to one of `targets`.
    pub(crate) fn for_each_equal(&self, range: Range<u64>, targets: [u8; 2], mut f: impl FnMut(u64, u8)) {
        let splats = targets.map(|t| u64::from(t) * LOW_BITS);
        self.for_each_word(range, |first_idx, word, in_range| {
            let mut hits = (zero_bytes(word ^ splats[0]) | zero_bytes(word ^ splats[1])) & in_range;
            while hits != 0 {
                let byte = hits.trailing_zeros() / 8;
                f(first_idx + u64::from(byte), (word >> (8 * byte)) as u8);
                hits &= hits - 1;
            }
        });
    }

    /// Sets to zero every byte of the words covering `range` that is at
    /// least `floor` (≥ 128), and returns how many there were. The caller
    /// makes sure nothing else writes those words meanwhile and that no
    /// byte outside `range` in them is that large.
    pub(crate) fn clear_at_least(&self, range: Range<u64>, floor: u8) -> u64 {
        let mut cleared = 0;
        for word_idx in range.start / 8..range.end.div_ceil(8) {
            let word = &self.words[word_idx as usize];
            let value = word.load(Relaxed);
            let flagged = bytes_at_least(value, floor);
            if flagged != 0 {
                // Spread each flagged byte's high bit over the whole byte.
                word.store(value & !((flagged >> 7) * 0xff), Relaxed);
                cleared += u64::from(flagged.count_ones());
            }
        }
        cleared
    }

    /// Calls `f(index of the word's first byte, word, high bits of the bytes in range)`.
    #[inline]
    fn for_each_word(&self, range: Range<u64>, mut f: impl FnMut(u64, u64, u64)) {
        if range.is_empty() {
            return;
        }
        for word_idx in range.start / 8..range.end.div_ceil(8) {
            let first_idx = word_idx * 8;
            let mut in_range = HIGH_BITS;
            if first_idx < range.start {
                in_range &= HIGH_BITS << (8 * (range.start - first_idx));
            }
            if first_idx + 8 > range.end {
                in_range &= HIGH_BITS >> (8 * (first_idx + 8 - range.end));
            }
            f(first_idx, self.words[word_idx as usize].load(Relaxed), in_range);
        }
    }
}

/// The high bit of each byte of `word` that is zero, and no other bit.
#[inline]
fn zero_bytes(word: u64) -> u64 {
    !(((word & !HIGH_BITS) + !HIGH_BITS) | word | !HIGH_BITS)
}

/// The high bit of each byte of `word` that is at least `floor` (≥ 128).
#[inline]
fn bytes_at_least(word: u64, floor: u8) -> u64 {
    debug_assert!(floor >= 128);
    let below = u64::from(floor - 128) * LOW_BITS;
    // Bytes with the high bit set, then compare the low seven bits.
    let low = word & !HIGH_BITS;
    ((low | HIGH_BITS) - below) & word & HIGH_BITS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_scans_find_exactly_the_matching_bytes() {
        let values: Vec<u8> = (0..200u32).map(|i| (i * 37 % 256) as u8).collect();
        let bytes = Bytes::zeroed(values.len() as u64);
        for (idx, &v) in values.iter().enumerate() {
            bytes.update(idx as u64, |_| Some(v));
        }
        for range in [0..200, 3..197, 8..16, 5..6, 10..10] {
            let mut found = Vec::new();
            bytes.for_each_equal(range.clone(), [74, 255], |idx, code| found.push((idx, code)));
            let expected: Vec<_> = range
                .clone()
                .filter(|&i| [74, 255].contains(&values[i as usize]))
                .map(|i| (i, values[i as usize]))
                .collect();
            assert_eq!(found, expected);
            for floor in [128, 200, 243, 255] {
                for word_idx in range.start / 8..range.end / 8 {
                    let word = bytes.words[word_idx as usize].load(Relaxed);
                    for byte in 0..8 {
                        let flagged = bytes_at_least(word, floor) >> (8 * byte + 7) & 1 == 1;
                        assert_eq!(flagged, values[(word_idx * 8 + byte) as usize] >= floor, "floor {floor}");
                    }
                }
            }
        }
    }

    #[test]
    fn clearing_large_bytes_leaves_the_others() {
        let values: Vec<u8> = (0..64u32).map(|i| (i * 53 % 256) as u8).collect();
        let bytes = Bytes::zeroed(values.len() as u64);
        for (idx, &v) in values.iter().enumerate() {
            bytes.update(idx as u64, |_| Some(v));
        }
        let cleared = bytes.clear_at_least(0..64, 240);
        assert_eq!(cleared, values.iter().filter(|&&v| v >= 240).count() as u64);
        for (idx, &v) in values.iter().enumerate() {
            assert_eq!(bytes.load(idx as u64), if v >= 240 { 0 } else { v });
        }
    }
}
