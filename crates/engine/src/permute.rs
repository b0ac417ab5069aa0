//! Permutations of the bits of a mask, applied a byte at a time.
//!
//! A game folds its positions by symmetry by mapping each position's mask
//! through every symmetry and keeping the least image. That runs for every
//! child a solver looks up, so a permutation is precomputed as one table
//! per byte of the mask: applying it is one load and one OR per byte.

use std::fmt;

/// A permutation of the bits `0..n` of a `u64` mask.
#[derive(Clone)]
pub struct BitPermutation {
    /// For byte `c` of the mask and its value `b`, the image of those bits
    /// at `c * 256 + b`.
    bytes: Vec<u64>,
}

impl BitPermutation {
    /// The permutation that sends bit `i` to bit `image[i]`.
    ///
    /// # Panics
    ///
    /// Panics if `image` has more than 64 entries or is not a permutation
    /// of `0..image.len()`.
    #[track_caller]
    pub fn new(image: &[u32]) -> BitPermutation {
        let n = image.len();
        assert!(n <= 64, "BitPermutation: at most 64 bits");
        let mut seen = 0u64;
        for &target in image {
            assert!((target as usize) < n && seen >> target & 1 == 0, "BitPermutation: not a permutation");
            seen |= 1 << target;
        }
        let chunks = n.div_ceil(8);
        let mut bytes = vec![0u64; chunks * 256];
        for chunk in 0..chunks {
            for value in 0..256usize {
                let mut out = 0;
                for bit in 0..8 {
                    let source = chunk * 8 + bit;
                    if value >> bit & 1 == 1 && source < n {
                        out |= 1 << image[source];
                    }
                }
                bytes[chunk * 256 + value] = out;
            }
        }
        BitPermutation { bytes }
    }

    /// The image of `mask`, whose bits must lie in `0..n`.
    ///
    /// # Examples
    ///
    /// ```
    /// use solved_engine::BitPermutation;
    /// let reverse = BitPermutation::new(&[2, 1, 0]);
    /// assert_eq!(reverse.apply(0b011), 0b110);
    /// ```
    #[inline]
    pub fn apply(&self, mask: u64) -> u64 {
        let mut out = 0;
        for (chunk, table) in self.bytes.chunks_exact(256).enumerate() {
            out |= table[(mask >> (8 * chunk)) as usize & 0xff];
        }
        out
    }
}

impl fmt::Debug for BitPermutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BitPermutation").field("bytes", &(self.bytes.len() / 256)).finish()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn by_bits(image: &[u32], mask: u64) -> u64 {
        (0..image.len()).filter(|&i| mask >> i & 1 == 1).fold(0, |out, i| out | 1 << image[i])
    }

    proptest! {
        #[test]
        fn applies_as_moving_each_bit(seed in any::<u64>(), n in 1usize..=64, mask in any::<u64>()) {
            let mut image: Vec<u32> = (0..n as u32).collect();
            // A Fisher-Yates shuffle driven by the seed.
            let mut state = seed | 1;
            for i in (1..n).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                image.swap(i, (state % (i as u64 + 1)) as usize);
            }
            let mask = if n == 64 { mask } else { mask & ((1 << n) - 1) };
            prop_assert_eq!(BitPermutation::new(&image).apply(mask), by_bits(&image, mask));
        }
    }

    #[test]
    #[should_panic(expected = "not a permutation")]
    fn refuses_a_repeated_target() {
        BitPermutation::new(&[0, 0]);
    }
}
