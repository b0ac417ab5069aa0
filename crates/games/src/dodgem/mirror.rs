//! The diagonal reflection that turns Blue into Red (see [`DodgemIndex`]'s
//! symmetry).
//!
//! [`DodgemIndex`]: super::DodgemIndex

use super::{ByPlayer, Position};

/// Reflects car masks in the diagonal through `a1`, a byte at a time.
#[derive(Clone, Debug)]
pub(super) struct Transpose {
    chunks: Vec<[u64; 256]>,
    squares: Vec<u64>,
}

impl Transpose {
    pub(super) fn new(size: u8) -> Transpose {
        let n = u32::from(size);
        let chunks = (0..(n * n).div_ceil(8))
            .map(|chunk| {
                std::array::from_fn(|byte| {
                    (0..8).filter(|bit| byte & (1 << bit) != 0).fold(0, |mask, bit| {
                        let square = 8 * chunk + bit;
                        mask | 1 << ((square % n) * n + square / n)
                    })
                })
            })
            .collect();
        let squares = (0..n * n).map(|bit| (bit % n) * n + bit / n).map(|bit| 1 << bit).collect();
        Transpose { chunks, squares }
    }

    /// The reflection of the square with bit number `bit`, as a mask.
    #[inline]
    pub(super) fn square(&self, bit: u32) -> u64 {
        self.squares[bit as usize]
    }

    #[inline]
    pub(super) fn apply(&self, mask: u64) -> u64 {
        self.chunks.iter().enumerate().fold(0, |out, (i, table)| out | table[((mask >> (8 * i)) & 0xff) as usize])
    }

    /// The mirror image of `pos`: reflected in the diagonal through `a1`,
    /// Blue and Red swapped, and the other side to move.
    #[inline]
    pub(super) fn mirror(&self, pos: &Position) -> Position {
        let ByPlayer { blue, red } = pos.cars;
        Position {
            size: pos.size,
            cars: ByPlayer { blue: self.apply(red), red: self.apply(blue) },
            turn: pos.turn.other(),
        }
    }
}
