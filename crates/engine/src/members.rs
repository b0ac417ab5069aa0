//! A subset of a large index space, ranked densely.
//!
//! A solver that folds positions by symmetry keeps one representative of
//! each class. The representatives are scattered through the positions'
//! own index, so they are marked in a bitmap, and a representative's place
//! in a dense table is the number of representatives before it.
//!
//! # Layout
//!
//! Blocks of eight words, one cache line: the first word counts the
//! members before the block, the other seven hold the next 448 bits. A rank
//! reads one cache line.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

const WORDS: usize = 8;
const BITS_PER_BLOCK: u64 = 64 * (WORDS as u64 - 1);

/// Marks the members of `0..universe` from many threads at once; then
/// [`finish`](Self::finish) ranks them.
pub struct MembersBuilder {
    universe: u64,
    words: Vec<AtomicU64>,
}

impl MembersBuilder {
    /// No member yet among `0..universe`.
    pub fn new(universe: u64) -> MembersBuilder {
        let blocks = universe.div_ceil(BITS_PER_BLOCK) as usize;
        MembersBuilder { universe, words: (0..blocks * WORDS).map(|_| AtomicU64::new(0)).collect() }
    }

    /// Makes `idx` a member.
    ///
    /// # Panics
    ///
    /// Panics if `idx` is not below the universe.
    #[inline]
    pub fn insert(&self, idx: u64) {
        assert!(idx < self.universe, "member out of range");
        let (word, bit) = place(idx);
        self.words[word].fetch_or(1 << bit, Relaxed);
    }

    /// Counts the members before each block.
    pub fn finish(self) -> Members {
        let counts: Vec<u64> = self
            .words
            .par_chunks(WORDS)
            .map(|block| block[1..].iter().map(|w| u64::from(w.load(Relaxed).count_ones())).sum())
            .collect();
        let mut before = 0;
        for (block, count) in self.words.chunks(WORDS).zip(counts) {
            block[0].store(before, Relaxed);
            before += count;
        }
        Members { universe: self.universe, len: before, words: self.words }
    }
}

impl fmt::Debug for MembersBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MembersBuilder").field("universe", &self.universe).finish_non_exhaustive()
    }
}

/// Which of `0..universe` are members, and the rank of each.
pub struct Members {
    universe: u64,
    len: u64,
    words: Vec<AtomicU64>,
}

impl Members {
    /// The number of members.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there is no member.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `idx` is a member.
    ///
    /// # Panics
    ///
    /// Panics if `idx` is not below the universe.
    #[inline]
    pub fn contains(&self, idx: u64) -> bool {
        assert!(idx < self.universe, "index out of range");
        let (word, bit) = place(idx);
        self.words[word].load(Relaxed) >> bit & 1 == 1
    }

    /// The number of members below `idx`: a member's place among them.
    ///
    /// # Panics
    ///
    /// Panics if `idx` is above the universe.
    #[inline]
    pub fn rank(&self, idx: u64) -> u64 {
        assert!(idx <= self.universe, "index out of range");
        let block = (idx / BITS_PER_BLOCK) as usize;
        if block * WORDS >= self.words.len() {
            return self.len;
        }
        let within = idx % BITS_PER_BLOCK;
        let words = &self.words[block * WORDS..(block + 1) * WORDS];
        let full = (within / 64) as usize;
        let mut rank = words[0].load(Relaxed);
        for word in &words[1..=full] {
            rank += u64::from(word.load(Relaxed).count_ones());
        }
        let partial = within % 64;
        if partial > 0 {
            rank += u64::from((words[1 + full].load(Relaxed) & ((1 << partial) - 1)).count_ones());
        }
        rank
    }
}

impl fmt::Debug for Members {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Members").field("universe", &self.universe).field("len", &self.len).finish_non_exhaustive()
    }
}

/// The word and bit of `idx`: the first word of each block is its count.
#[inline]
fn place(idx: u64) -> (usize, u64) {
    let block = idx / BITS_PER_BLOCK;
    let within = idx % BITS_PER_BLOCK;
    (block as usize * WORDS + 1 + (within / 64) as usize, within % 64)
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;

    #[test]
    fn ranks_count_the_members_before() {
        let mut rng = StdRng::seed_from_u64(11);
        for universe in [0u64, 1, 63, 64, 447, 448, 449, 5000] {
            let builder = MembersBuilder::new(universe);
            let chosen: Vec<bool> = (0..universe).map(|_| rng.random_range(0..3) == 0).collect();
            (0..universe).filter(|&i| chosen[i as usize]).for_each(|i| builder.insert(i));
            let members = builder.finish();
            let mut before = 0;
            for idx in 0..universe {
                assert_eq!(members.rank(idx), before, "universe {universe} index {idx}");
                assert_eq!(members.contains(idx), chosen[idx as usize]);
                before += u64::from(chosen[idx as usize]);
            }
            assert_eq!(members.rank(universe), before);
            assert_eq!(members.len(), before);
        }
    }
}
