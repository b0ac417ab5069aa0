//! The solvers' store: one cell per position (a byte, or two bytes where
//! a distance outgrows a byte), in words that threads update with
//! compare-and-swap, and scans over them a word at a time.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What one position's cell is: `u8`, or `u16` for the solves whose
/// distances do not fit a byte. Scans work on every lane of a word at once
/// (SWAR), so a cell knows its width and the masks of its lanes.
pub(crate) trait Cell: Copy + Eq + Ord + Into<u64> + Send + Sync + std::fmt::Debug + 'static {
    /// Bits in a cell.
    const BITS: u32;
    /// The largest cell.
    const MAX: Self;
    /// Cells in a word.
    const LANES: u64 = 64 / Self::BITS as u64;
    /// The lowest bit of every lane.
    const LOW_BITS: u64;
    /// The highest bit of every lane.
    const HIGH_BITS: u64 = Self::LOW_BITS << (Self::BITS - 1);

    /// The cell holding the low bits of `value`.
    fn truncate(value: u64) -> Self;
}

impl Cell for u8 {
    const BITS: u32 = 8;
    const MAX: u8 = u8::MAX;
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;

    #[inline]
    fn truncate(value: u64) -> u8 {
        value as u8
    }
}

impl Cell for u16 {
    const BITS: u32 = 16;
    const MAX: u16 = u16::MAX;
    const LOW_BITS: u64 = 0x0001_0001_0001_0001;

    #[inline]
    fn truncate(value: u64) -> u16 {
        value as u16
    }
}

/// The cell of position `idx` within its word.
#[inline]
pub(crate) fn cell_of<C: Cell>(word: u64, idx: u64) -> C {
    C::truncate(word >> (u64::from(C::BITS) * (idx % C::LANES)))
}

/// One cell per position, a word holding [`Cell::LANES`] of them.
pub(crate) struct Cells<C> {
    words: Vec<AtomicU64>,
    cell: std::marker::PhantomData<C>,
}

/// One byte per position, eight to a word.
pub(crate) type Bytes = Cells<u8>;

impl<C: Cell> Cells<C> {
    /// `len` zero cells.
    pub(crate) fn zeroed(len: u64) -> Cells<C> {
        Cells::from_words((0..len.div_ceil(C::LANES)).map(|_| AtomicU64::new(0)).collect())
    }

    /// The cells held by `words`, as a checkpoint gives them back.
    pub(crate) fn from_words(words: Vec<AtomicU64>) -> Cells<C> {
        Cells { words, cell: std::marker::PhantomData }
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
    pub(crate) fn load(&self, idx: u64) -> C {
        cell_of(self.words[(idx / C::LANES) as usize].load(Relaxed), idx)
    }

    /// Asks for the words holding `indices`, so that their cache lines are
    /// on their way in before they are needed (see `BATCH` in the solver).
    #[inline]
    pub(crate) fn touch(&self, indices: impl Iterator<Item = u64>) {
        for idx in indices {
            solved_dispatch::prefetch(&self.words[(idx / C::LANES) as usize]);
        }
    }

    /// Writes `codes` into the cells from `start` on, which no other thread
    /// writes meanwhile. Words the codes fill are stored whole, built a
    /// word's codes at a time: no other thread has a cell in them, so they
    /// need no locked instruction, and a run's write-back costs a few
    /// instructions a cell.
    pub(crate) fn write_cells(&self, start: u64, codes: &[C]) {
        let lanes = C::LANES as usize;
        let lead = ((lanes - (start % C::LANES) as usize) % lanes).min(codes.len());
        let (head, rest) = codes.split_at(lead);
        self.write_within_word(start, head);
        let whole = rest.chunks_exact(lanes);
        let tail = whole.remainder();
        let first_whole = (start + lead as u64) / C::LANES;
        for (word, chunk) in self.words[first_whole as usize..].iter().zip(whole) {
            word.store(chunk.iter().rev().fold(0, |word, &code| word << C::BITS | code.into()), Relaxed);
        }
        self.write_within_word(start + (codes.len() - tail.len()) as u64, tail);
    }

    /// Writes `codes`, which all fall in the word of `start`, into it:
    /// other threads may write the word's other cells meanwhile.
    fn write_within_word(&self, start: u64, codes: &[C]) {
        if codes.is_empty() {
            return;
        }
        let (mask, word) = (start..).zip(codes).fold((0, 0), |(mask, word), (idx, &code)| {
            let shift = u64::from(C::BITS) * (idx % C::LANES);
            (mask | C::MAX.into() << shift, word | code.into() << shift)
        });
        let at = &self.words[(start / C::LANES) as usize];
        at.fetch_and(!mask, Relaxed);
        at.fetch_or(word, Relaxed);
    }

    /// Replaces the cell by `f(cell)` until `f` returns `None` or the swap
    /// succeeds. Returns the cell that was replaced.
    #[inline]
    pub(crate) fn update(&self, idx: u64, mut f: impl FnMut(C) -> Option<C>) -> Option<C> {
        let word = &self.words[(idx / C::LANES) as usize];
        let shift = u64::from(C::BITS) * (idx % C::LANES);
        let mut current = word.load(Relaxed);
        loop {
            let old = C::truncate(current >> shift);
            let new = f(old)?;
            let replaced = (current & !(C::MAX.into() << shift)) | (new.into() << shift);
            match word.compare_exchange_weak(current, replaced, Relaxed, Relaxed) {
                Ok(_) => return Some(old),
                Err(actual) => current = actual,
            }
        }
    }

    /// As [`update`](Self::update), for a caller that no other thread
    /// writes beside: a load and a store, no locked instruction.
    #[inline]
    pub(crate) fn update_alone(&self, idx: u64, f: impl FnOnce(C) -> Option<C>) -> Option<C> {
        let word = &self.words[(idx / C::LANES) as usize];
        let shift = u64::from(C::BITS) * (idx % C::LANES);
        let current = word.load(Relaxed);
        let old = C::truncate(current >> shift);
        let new = f(old)?;
        word.store((current & !(C::MAX.into() << shift)) | (new.into() << shift), Relaxed);
        Some(old)
    }

    /// Calls `f(idx, cell)` for each cell in `range` equal to one of `targets`.
    pub(crate) fn for_each_equal(&self, range: Range<u64>, targets: [C; 2], mut f: impl FnMut(u64, C)) {
        let splats = targets.map(|t| t.into() * C::LOW_BITS);
        // Most words hold no target: pairs of them are passed over on one
        // test, and only a pair with a hit (or at an end of the range,
        // whose cells outside it may match) is looked at word by word.
        let mut words = range.start / C::LANES..range.end.div_ceil(C::LANES);
        while !words.is_empty() {
            while words.start + 2 <= words.end {
                let at = words.start as usize;
                let pair = [self.words[at].load(Relaxed), self.words[at + 1].load(Relaxed)];
                if any_equal::<C>(pair, splats) {
                    break;
                }
                words.start += 2;
            }
            let Some(word_idx) = words.next() else { break };
            let first_idx = word_idx * C::LANES;
            let in_range = Self::in_range(first_idx, &range);
            let word = self.words[word_idx as usize].load(Relaxed);
            let mut hits = (zero_lanes::<C>(word ^ splats[0]) | zero_lanes::<C>(word ^ splats[1])) & in_range;
            while hits != 0 {
                let lane = hits.trailing_zeros() / C::BITS;
                f(first_idx + u64::from(lane), C::truncate(word >> (C::BITS * lane)));
                hits &= hits - 1;
            }
        }
    }

    /// Sets to zero every cell of the words covering `range` that is at
    /// least `floor` (whose high bit is set), and returns how many there
    /// were. The caller makes sure nothing else writes those words
    /// meanwhile and that no cell outside `range` in them is that large.
    pub(crate) fn clear_at_least(&self, range: Range<u64>, floor: C) -> u64 {
        let mut cleared = 0;
        for word_idx in range.start / C::LANES..range.end.div_ceil(C::LANES) {
            let word = &self.words[word_idx as usize];
            let value = word.load(Relaxed);
            let flagged = lanes_at_least::<C>(value, floor);
            if flagged != 0 {
                // Spread each flagged lane's high bit over the whole lane.
                word.store(value & !((flagged >> (C::BITS - 1)) * C::MAX.into()), Relaxed);
                cleared += u64::from(flagged.count_ones());
            }
        }
        cleared
    }

    /// The high bits of the cells in `range` of the word whose first cell
    /// is `first_idx`.
    #[inline]
    fn in_range(first_idx: u64, range: &Range<u64>) -> u64 {
        let bits = u64::from(C::BITS);
        let mut in_range = C::HIGH_BITS;
        if first_idx < range.start {
            in_range &= C::HIGH_BITS << (bits * (range.start - first_idx));
        }
        if first_idx + C::LANES > range.end {
            in_range &= C::HIGH_BITS >> (bits * (first_idx + C::LANES - range.end));
        }
        in_range
    }
}

/// Whether a lane of either word equals that lane of either splat: one
/// comparison of 16 bytes where the processor has one (see
/// [`solved_dispatch::any_lane_equal`]), else lane tricks on each word.
#[inline(always)]
fn any_equal<C: Cell>(words: [u64; 2], splats: [u64; 2]) -> bool {
    solved_dispatch::any_lane_equal(words, splats, C::BITS).unwrap_or_else(|| any_equal_portable::<C>(words, splats))
}

/// [`any_equal`] without vector instructions: what other processors run,
/// and what the tests hold the vector path to.
#[inline(always)]
fn any_equal_portable<C: Cell>(words: [u64; 2], splats: [u64; 2]) -> bool {
    words.iter().any(|&w| splats.iter().any(|&s| zero_lanes::<C>(w ^ s) != 0))
}

/// The high bit of each lane of `word` that is zero, and no other bit.
#[inline]
fn zero_lanes<C: Cell>(word: u64) -> u64 {
    !(((word & !C::HIGH_BITS) + !C::HIGH_BITS) | word | !C::HIGH_BITS)
}

/// The high bit of each lane of `word` that is at least `floor`, whose
/// own high bit is set.
#[inline]
fn lanes_at_least<C: Cell>(word: u64, floor: C) -> u64 {
    let half = 1u64 << (C::BITS - 1);
    debug_assert!(floor.into() >= half);
    let below = (floor.into() - half) * C::LOW_BITS;
    // Lanes with the high bit set, then compare the low bits.
    let low = word & !C::HIGH_BITS;
    ((low | C::HIGH_BITS) - below) & word & C::HIGH_BITS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells holding `values`, set one at a time.
    fn cells<C: Cell>(values: &[C]) -> Cells<C> {
        let cells = Cells::zeroed(values.len() as u64);
        for (idx, &v) in values.iter().enumerate() {
            cells.update(idx as u64, |_| Some(v));
        }
        cells
    }

    fn scans_find_exactly_the_matching_cells<C: Cell>(values: &[C], targets: [C; 2], floors: &[C]) {
        let cells = cells(values);
        let len = values.len() as u64;
        for range in [0..len, 3..len - 3, 8..16, 5..6, 10..10] {
            let mut found = Vec::new();
            cells.for_each_equal(range.clone(), targets, |idx, code| found.push((idx, code)));
            let expected: Vec<_> = range
                .clone()
                .filter(|&i| targets.contains(&values[i as usize]))
                .map(|i| (i, values[i as usize]))
                .collect();
            assert_eq!(found, expected);
            for &floor in floors {
                for word_idx in range.start / C::LANES..range.end / C::LANES {
                    let word = cells.words[word_idx as usize].load(Relaxed);
                    for lane in 0..C::LANES {
                        let flagged = lanes_at_least(word, floor) >> (u64::from(C::BITS) * (lane + 1) - 1) & 1 == 1;
                        let value = values[(word_idx * C::LANES + lane) as usize];
                        assert_eq!(flagged, value >= floor, "floor {floor:?}");
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn scans_find_the_matches_that_pairs_of_words_pass_over(
            codes in proptest::collection::vec(0u8..4, 1..300),
            cut in (0usize..300, 0usize..300),
        ) {
            // Few distinct values: matches in runs, at the ends of ranges
            // and just outside them, and words without any.
            let values: Vec<u8> = codes.iter().map(|&c| [0, 7, 7, 200][usize::from(c)]).collect();
            let wide: Vec<u16> = values.iter().map(|&v| u16::from(v) * 300).collect();
            let len = values.len();
            let range = (cut.0 % len) as u64..(cut.0 % len).max(cut.1 % (len + 1)) as u64;
            let expected: Vec<u64> = range.clone().filter(|&i| matches!(values[i as usize], 7 | 200)).collect();
            let mut found = Vec::new();
            cells(&values).for_each_equal(range.clone(), [7, 200], |idx, _| found.push(idx));
            proptest::prop_assert_eq!(&found, &expected);
            found.clear();
            cells(&wide).for_each_equal(range, [2_100, 60_000], |idx, _| found.push(idx));
            proptest::prop_assert_eq!(&found, &expected);
        }

        #[test]
        fn runs_written_replace_their_cells_and_nothing_else(
            codes in proptest::collection::vec(0u8..=255, 0..40),
            start in 0u64..20,
            before in 0u8..=255,
        ) {
            // Runs that start and end inside a word, cover words whole, or
            // stay within one, over cells already set and beside them.
            let len = start + codes.len() as u64 + 9;
            let values: Vec<u8> = (0..len).map(|i| before.wrapping_add(i as u8)).collect();
            let cells = cells(&values);
            cells.write_cells(start, &codes);
            let mut values = values;
            values[start as usize..][..codes.len()].copy_from_slice(&codes);
            let wide_codes: Vec<u16> = codes.iter().map(|&c| u16::from(c) * 257).collect();
            let wide_values: Vec<u16> = values.iter().map(|&v| u16::from(v) * 3 + 1).collect();
            let wide = self::cells(&wide_values);
            wide.write_cells(start, &wide_codes);
            let mut wide_values = wide_values;
            wide_values[start as usize..][..codes.len()].copy_from_slice(&wide_codes);
            for idx in 0..len {
                proptest::prop_assert_eq!(cells.load(idx), values[idx as usize]);
                proptest::prop_assert_eq!(wide.load(idx), wide_values[idx as usize]);
            }
        }

        #[test]
        fn pairs_of_words_are_tested_alike_with_and_without_vectors(words: [u64; 2], lanes: (u16, u16)) {
            let bytes = [u64::from(lanes.0 as u8) * u8::LOW_BITS, u64::from(lanes.1 as u8) * u8::LOW_BITS];
            let wide = [u64::from(lanes.0) * u16::LOW_BITS, u64::from(lanes.1) * u16::LOW_BITS];
            for (splats, lanes_are_bytes) in [(bytes, true), (wide, false)] {
                // The words as drawn (most often without a match), and
                // with the second splat's lowest lane planted.
                for words in [words, [words[0], (words[1] & !0xffff) | (splats[1] & 0xffff)]] {
                    if lanes_are_bytes {
                        proptest::prop_assert_eq!(any_equal::<u8>(words, splats), any_equal_portable::<u8>(words, splats));
                    } else {
                        proptest::prop_assert_eq!(any_equal::<u16>(words, splats), any_equal_portable::<u16>(words, splats));
                    }
                }
            }
        }
    }

    #[test]
    fn byte_scans_find_exactly_the_matching_bytes() {
        let values: Vec<u8> = (0..200u32).map(|i| (i * 37 % 256) as u8).collect();
        scans_find_exactly_the_matching_cells(&values, [74, 255], &[128, 200, 243, 255]);
    }

    #[test]
    fn wide_scans_find_exactly_the_matching_cells() {
        // Every target at both ends of every range, in part-filled words.
        let values: Vec<u16> = (0..200u32).map(|i| (i % 4 * 20_000) as u16).collect();
        scans_find_exactly_the_matching_cells(&values, [20_000, 60_000], &[32_768, 40_000, 60_000, 65_535]);
    }

    fn clearing_large_cells_leaves_the_others<C: Cell>(values: &[C], floor: C) {
        let cells = cells(values);
        let cleared = cells.clear_at_least(0..values.len() as u64, floor);
        assert_eq!(cleared, values.iter().filter(|&&v| v >= floor).count() as u64);
        for (idx, &v) in values.iter().enumerate() {
            assert_eq!(cells.load(idx as u64), if v >= floor { C::truncate(0) } else { v });
        }
    }

    #[test]
    fn clearing_large_bytes_leaves_the_others() {
        let values: Vec<u8> = (0..64u32).map(|i| (i * 53 % 256) as u8).collect();
        clearing_large_cells_leaves_the_others(&values, 240);
    }

    #[test]
    fn clearing_large_wide_cells_leaves_the_others() {
        let values: Vec<u16> = (0..64u32).map(|i| (i * 40_503 % 65_536) as u16).chain([65_535, 65_530, 3]).collect();
        clearing_large_cells_leaves_the_others(&values, 65_520);
    }
}
