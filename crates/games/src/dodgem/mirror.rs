//! The diagonal reflection that turns Blue into Red (see [`DodgemIndex`]'s
//! symmetry).
//!
//! [`DodgemIndex`]: super::DodgemIndex

use super::{ByPlayer, Position};

/// Bytes of a mask of the largest board's squares.
const CHUNKS: usize = (super::MAX_SIZE as usize * super::MAX_SIZE as usize).div_ceil(8);

/// Reflects car masks in the diagonal through `a1`, a byte at a time.
#[derive(Clone, Debug)]
pub(super) struct Transpose {
    /// For each byte of a mask, its reflection; zero past the board.
    chunks: Box<[[u64; 256]; CHUNKS]>,
    squares: Vec<u64>,
}

impl Transpose {
    pub(super) fn new(size: u8) -> Transpose {
        let n = u32::from(size);
        let chunks = Box::new(std::array::from_fn(|chunk| {
            std::array::from_fn(|byte| {
                (0..8).filter(|bit| byte & (1 << bit) != 0).fold(0, |mask, bit| {
                    let square = 8 * chunk as u32 + bit;
                    if square < n * n { mask | 1 << ((square % n) * n + square / n) } else { mask }
                })
            })
        }));
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

    /// [`apply`](Self::apply) on an `N`×`N` board, its bytes unrolled: the
    /// solver reflects every position it expands and every one whose
    /// parents it numbers.
    #[inline(always)]
    pub(super) fn apply_on<const N: usize>(&self, mask: u64) -> u64 {
        let used = const { (N * N).div_ceil(8) };
        (0..used).fold(0, |out, i| out | self.chunks[i % CHUNKS][((mask >> (8 * i)) & 0xff) as usize])
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

    /// [`mirror`](Self::mirror) on an `N`×`N` board.
    #[inline(always)]
    pub(super) fn mirror_on<const N: usize>(&self, pos: &Position) -> Position {
        let ByPlayer { blue, red } = pos.cars;
        Position {
            size: pos.size,
            cars: ByPlayer { blue: self.apply_on::<N>(red), red: self.apply_on::<N>(blue) },
            turn: pos.turn.other(),
        }
    }
}
