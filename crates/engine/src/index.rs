//! Dense ranking of subsets with the combinatorial number system.
//!
//! A `k`-subset `{s_1 < s_2 < … < s_k}` of `0..n` has rank
//! `C(s_1, 1) + C(s_2, 2) + … + C(s_k, k)`. Ranks are dense in
//! `0..C(n, k)`, and rank order is colexicographic order, which for subsets
//! written as bitmasks is simply numeric order of the masks.

use std::fmt;

/// The largest universe [`Subsets`] handles: subsets are `u64` masks.
pub const MAX_UNIVERSE: u32 = 64;

static BINOMIALS: [[u64; 65]; 65] = {
    let mut table = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            // C(64, 32) still fits in u64; saturate the few that would not.
            table[n][k] = table[n - 1][k - 1].saturating_add(table[n - 1][k]);
            k += 1;
        }
        n += 1;
    }
    table
};

/// The binomial coefficient `C(n, k)`, zero when `k > n`.
///
/// # Panics
///
/// Panics if `n > 64`.
///
/// # Examples
///
/// ```
/// use solved_engine::binomial;
/// assert_eq!(binomial(25, 4), 12_650);
/// assert_eq!(binomial(3, 5), 0);
/// ```
#[inline]
#[track_caller]
pub const fn binomial(n: u32, k: u32) -> u64 {
    assert!(n <= MAX_UNIVERSE, "binomial: n exceeds 64");
    if k > n { 0 } else { BINOMIALS[n as usize][k as usize] }
}

/// Ranks and unranks the `k`-element subsets of `0..n`.
///
/// Ranking reads one precomputed table entry per byte of the mask, so it
/// costs a handful of loads however many elements the subset has; solvers
/// call it for every predecessor they generate. The table holds 32-bit
/// entries whenever every rank fits, which halves its cache footprint.
#[derive(Clone)]
pub struct Subsets {
    n: u32,
    k: u32,
    count: u64,
    /// For byte `c` of the mask, `o` elements below it and byte value `b`:
    /// the contribution of that byte's elements to the rank, at
    /// `(c * (k + 1) + o) * 256 + b`.
    byte_ranks: ByteRanks,
}

#[derive(Clone)]
enum ByteRanks {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Subsets {
    /// Tables for the `k`-subsets of `0..n`.
    ///
    /// # Panics
    ///
    /// Panics if `n > 64` or `k > n`.
    #[track_caller]
    pub fn new(n: u32, k: u32) -> Subsets {
        assert!(n <= MAX_UNIVERSE && k <= n, "Subsets::new: need k <= n <= 64");
        let chunks = n.div_ceil(8);
        let mut byte_ranks = vec![0u64; (chunks * (k + 1) * 256) as usize];
        for chunk in 0..chunks {
            for below in 0..=k {
                for byte in 0..256u32 {
                    let mut rank = 0;
                    let mut order = below;
                    for bit in 0..8 {
                        if byte & (1 << bit) != 0 {
                            order += 1;
                            rank += binomial(8 * chunk + bit, order);
                        }
                    }
                    byte_ranks[((chunk * (k + 1) + below) * 256 + byte) as usize] = rank;
                }
            }
        }
        let count = binomial(n, k);
        let byte_ranks = if count <= u64::from(u32::MAX) {
            ByteRanks::Narrow(byte_ranks.into_iter().map(|r| r as u32).collect())
        } else {
            ByteRanks::Wide(byte_ranks)
        };
        Subsets { n, k, count, byte_ranks }
    }

    /// The number of subsets, `C(n, k)`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The rank of `mask`, which must have exactly `k` bits, all below `n`.
    ///
    /// Other masks give an unspecified rank (checked in debug builds).
    ///
    /// # Examples
    ///
    /// ```
    /// use solved_engine::Subsets;
    /// let pairs = Subsets::new(5, 2);
    /// assert_eq!(pairs.rank(0b00011), 0);
    /// assert_eq!(pairs.rank(0b11000), 9);
    /// assert_eq!(pairs.unrank(9), 0b11000);
    /// ```
    #[inline]
    pub fn rank(&self, mask: u64) -> u64 {
        debug_assert_eq!(mask.count_ones(), self.k, "rank: wrong subset size");
        debug_assert!(self.n == 64 || mask >> self.n == 0, "rank: element out of range");
        match &self.byte_ranks {
            ByteRanks::Narrow(table) => self.rank_with(table, mask),
            ByteRanks::Wide(table) => self.rank_with(table, mask),
        }
    }

    #[inline]
    fn rank_with<T: Copy + Into<u64>>(&self, table: &[T], mask: u64) -> u64 {
        let stride = self.k as usize + 1;
        let mut rank = 0;
        let mut below = 0usize;
        // A fixed number of steps: a loop that stopped at the highest set
        // bit would mispredict its exit on every call.
        for chunk in 0..self.n.div_ceil(8) as usize {
            let byte = ((mask >> (8 * chunk)) & 0xff) as usize;
            rank += table[(chunk * stride + below.min(stride - 1)) * 256 + byte].into();
            below += byte.count_ones() as usize;
        }
        rank
    }

    /// The subset of rank `rank`, which must be below [`count`](Self::count).
    #[inline]
    pub fn unrank(&self, rank: u64) -> u64 {
        debug_assert!(rank < self.count, "unrank: rank out of range");
        let mut rest = rank;
        let mut mask = 0;
        let mut candidate = self.n;
        for order in (1..=self.k).rev() {
            candidate -= 1;
            while binomial(candidate, order) > rest {
                candidate -= 1;
            }
            rest -= binomial(candidate, order);
            mask |= 1 << candidate;
        }
        mask
    }

    /// Every subset, in rank order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + use<> {
        let n = self.n;
        let first = if self.k == 0 { 0 } else { u64::MAX >> (64 - self.k) };
        let mut next = Some(first);
        std::iter::from_fn(move || {
            let current = next?;
            next = next_colex(current).filter(|&m| n == 64 || m >> n == 0);
            Some(current)
        })
    }
}

/// The set bits of a mask, lowest first.
///
/// # Examples
///
/// ```
/// use solved_engine::bits;
/// assert_eq!(bits(0b1010_0001u16).collect::<Vec<_>>(), [0, 5, 7]);
/// ```
pub fn bits(mask: impl Into<u64>) -> Bits {
    Bits(mask.into())
}

/// The iterator of [`bits`].
#[derive(Copy, Clone, Debug)]
pub struct Bits(u64);

impl Iterator for Bits {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        (self.0 != 0).then(|| {
            let bit = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            bit
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.0.count_ones() as usize;
        (count, Some(count))
    }
}

impl ExactSizeIterator for Bits {}

/// The next mask with the same number of bits (Gosper's hack).
fn next_colex(mask: u64) -> Option<u64> {
    if mask == 0 {
        return None;
    }
    let lowest = mask & mask.wrapping_neg();
    let ripple = mask.checked_add(lowest)?;
    Some(ripple | (((mask ^ ripple) >> 2) / lowest))
}

impl fmt::Debug for Subsets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subsets").field("n", &self.n).field("k", &self.k).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_match_pascal() {
        assert_eq!(binomial(0, 0), 1);
        assert_eq!(binomial(25, 8), 1_081_575);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
        for n in 1..30 {
            for k in 1..n {
                assert_eq!(binomial(n, k), binomial(n - 1, k - 1) + binomial(n - 1, k));
            }
        }
    }

    #[test]
    fn rank_order_is_numeric_order_and_dense() {
        for n in [0, 1, 5, 9, 16, 17] {
            for k in 0..=n {
                let subsets = Subsets::new(n, k);
                let masks: Vec<u64> = subsets.iter().collect();
                assert_eq!(masks.len() as u64, subsets.count(), "n={n} k={k}");
                assert!(masks.windows(2).all(|w| w[0] < w[1]));
                for (rank, &mask) in masks.iter().enumerate() {
                    assert_eq!(mask.count_ones(), k);
                    assert_eq!(subsets.rank(mask), rank as u64);
                    assert_eq!(subsets.unrank(rank as u64), mask);
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_subset_ranks_below_the_count_and_unranks_back(n in 1u32..=64, picks in proptest::collection::vec(0u32..64, 0..=64)) {
            let mask = picks.iter().filter(|&&bit| bit < n).fold(0u64, |m, &bit| m | 1 << bit);
            let subsets = Subsets::new(n, mask.count_ones());
            let rank = subsets.rank(mask);
            proptest::prop_assert!(rank < subsets.count());
            proptest::prop_assert_eq!(subsets.unrank(rank), mask);
            proptest::prop_assert_eq!(bits(mask).fold(0u64, |m, bit| m | 1 << bit), mask);
        }
    }

    #[test]
    fn full_width_universe_round_trips() {
        let subsets = Subsets::new(64, 3);
        let top = (1 << 63) | (1 << 62) | (1 << 61);
        assert_eq!(subsets.rank(top), subsets.count() - 1);
        assert_eq!(subsets.unrank(subsets.count() - 1), top);
        assert_eq!(subsets.iter().last(), Some(top));
    }
}
