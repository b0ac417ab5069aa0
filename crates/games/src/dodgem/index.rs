//! The dense index of Dodgem positions up to symmetry, for the solver and
//! its tables.
//!
//! # Symmetry
//!
//! Reflecting the board in the diagonal through `a1` turns Blue's cars into
//! Red's and back; with the side to move swapped too, the rules are the
//! same, so value and distance are unchanged. Since the reflection always
//! swaps the side to move, every Red-to-move position is the mirror image of
//! exactly one Blue-to-move position. The solver's index therefore covers
//! Blue-to-move positions only (half of all), and a Red-to-move position is
//! looked up through its mirror image. This halves the table and the work.
//!
//! # Layout
//!
//! A *placement* of `b` Blue and `r` Red cars (`k = b + r`) is ranked as
//! `rank(occupied squares) * C(k, b) + rank(Blue's among them)`: the occupied
//! squares as a `k`-subset of the board, which of them are Blue as a
//! `b`-subset of the `k`. Placements are grouped into blocks by `(b, r)`.
//!
//! Cars that leave never come back, so tiers group blocks by how many cars
//! are left, fewest first, and moves off the board lead to lower indices. A
//! Blue-to-move position of `(b, r)` moves to a Red-to-move one of `(b, r)`,
//! whose mirror image is a Blue-to-move position of `(r, b)`; so a tier of
//! the symmetric index holds the blocks `(b, r)` and `(r, b)` together.

use std::ops::Range;
use std::sync::Arc;

use solved_engine::{Subsets, binomial};

use super::mirror::Transpose;
use super::{ByPlayer, MAX_FLAT_SIZE, Player, Position};

/// The most cars a side has (on the largest board).
const MAX_CARS: usize = MAX_FLAT_SIZE as usize - 1;

/// `C(n, k)` for the ranks of Blue's cars among the occupied squares.
const SMALL_BINOMIALS: [[u32; MAX_CARS + 1]; 2 * MAX_CARS + 1] = {
    let mut table = [[0; MAX_CARS + 1]; 2 * MAX_CARS + 1];
    let mut n = 0;
    while n <= 2 * MAX_CARS {
        let mut k = 0;
        while k <= MAX_CARS {
            table[n][k] = binomial(n as u32, k as u32) as u32;
            k += 1;
        }
        n += 1;
    }
    table
};

/// Ranks placements of cars within their block.
///
/// Every block of every size up to 5×5 has fewer than 2^32 placements, so
/// ranks are 32-bit.
#[derive(Clone, Debug)]
struct Placements {
    occupied: Vec<Subsets>,
    /// Every `k`-subset of the board, in rank order, for fast unranking.
    occupied_masks: Vec<Vec<u32>>,
    /// Every `b`-subset of `k` bits, in rank order, at `[k][b]`.
    patterns: Vec<Vec<Vec<u8>>>,
    /// Ways to colour `k` occupied squares with `b` Blue cars, at `[k][b]`.
    colourings: [[u32; MAX_CARS + 1]; 2 * MAX_CARS + 1],
}

impl Placements {
    fn new(size: u8) -> Placements {
        let squares = u32::from(size) * u32::from(size);
        let most = u32::from(size) - 1;
        let occupied: Vec<Subsets> = (0..=2 * most).map(|k| Subsets::new(squares, k)).collect();
        let occupied_masks = occupied.iter().map(|s| s.iter().map(|m| m as u32).collect()).collect();
        let patterns = (0..=2 * most)
            .map(|k| (0..=k.min(most)).map(|b| Subsets::new(k, b).iter().map(|m| m as u8).collect()).collect())
            .collect();
        Placements { occupied, occupied_masks, patterns, colourings: SMALL_BINOMIALS }
    }

    /// The number of placements of `blue` and `red` cars.
    fn count(&self, blue: u32, red: u32) -> u64 {
        self.occupied[(blue + red) as usize].count() * u64::from(self.colourings[(blue + red) as usize][blue as usize])
    }

    #[inline]
    fn rank(&self, cars: ByPlayer<u32>) -> u32 {
        let ByPlayer { blue, red } = cars;
        let occupied = blue | red;
        let k = occupied.count_ones() as usize;
        let occupied_rank = self.occupied[k].rank(u64::from(occupied)) as u32;
        // Blue's cars as a subset of the occupied squares, in a fixed number
        // of steps so that the loop never mispredicts.
        let mut pattern_rank = 0;
        let mut rest = blue;
        for order in 1..=MAX_CARS {
            let lowest = rest & rest.wrapping_neg();
            let below = (occupied & lowest.wrapping_sub(1)).count_ones();
            pattern_rank += if lowest == 0 { 0 } else { binomial(below, order as u32) as u32 };
            rest ^= lowest;
        }
        occupied_rank * self.colourings[k][blue.count_ones() as usize] + pattern_rank
    }

    /// Calls `f` with the placements of `blue` and `red` cars whose ranks
    /// are in `ranks`, in order, stepping from one to the next.
    fn for_each(&self, blue: u32, red: u32, ranks: Range<u32>, mut f: impl FnMut(ByPlayer<u32>)) {
        if ranks.is_empty() {
            return;
        }
        let k = (blue + red) as usize;
        let colourings = self.colourings[k][blue as usize];
        let masks = &self.occupied_masks[k];
        let patterns = &self.patterns[k][blue as usize];
        let (mut occupied_rank, mut pattern_rank) = (ranks.start / colourings, ranks.start % colourings);
        let mut squares = [0u32; 2 * MAX_CARS];
        let mut occupied = 0;
        for rank in ranks.clone() {
            if rank == ranks.start || pattern_rank == 0 {
                occupied = masks[occupied_rank as usize];
                let mut rest = occupied;
                for square in squares.iter_mut().take(k) {
                    *square = rest & rest.wrapping_neg();
                    rest ^= *square;
                }
            }
            let mut pattern = patterns[pattern_rank as usize];
            let mut cars = 0;
            // The pattern always has `blue` bits: a loop the processor predicts.
            for _ in 0..blue {
                cars |= squares[pattern.trailing_zeros() as usize];
                pattern &= pattern - 1;
            }
            f(ByPlayer { blue: cars, red: occupied & !cars });
            pattern_rank += 1;
            if pattern_rank == colourings {
                (occupied_rank, pattern_rank) = (occupied_rank + 1, 0);
            }
        }
    }

    #[inline]
    fn unrank(&self, blue: u32, red: u32, rank: u32) -> ByPlayer<u32> {
        let k = (blue + red) as usize;
        let colourings = self.colourings[k][blue as usize];
        let occupied = self.occupied_masks[k][(rank / colourings) as usize];
        let pattern = self.patterns[k][blue as usize][(rank % colourings) as usize];
        let mut blue = 0;
        let mut rest = occupied;
        for order in 0..2 * MAX_CARS {
            let lowest = rest & rest.wrapping_neg();
            blue |= lowest & 0u32.wrapping_sub(u32::from(pattern >> order) & 1);
            rest ^= lowest;
        }
        ByPlayer { blue, red: occupied & !blue }
    }
}

/// Where one block of placements sits in an index.
#[derive(Copy, Clone, Debug, Default)]
struct Block {
    start: u64,
    len: u64,
}

/// Blocks `(b, r)` in solving order: fewest cars first, and `(b, r)` next
/// to `(r, b)`.
fn block_order(size: u8) -> Vec<(u32, u32)> {
    let most = u32::from(size) - 1;
    let mut pairs: Vec<(u32, u32)> = (0..=most).flat_map(|b| (0..=most).map(move |r| (b, r))).collect();
    pairs.sort_by_key(|&(b, r)| (b + r, b.max(r), b));
    pairs
}

/// The index of Dodgem positions up to the diagonal reflection: every
/// Blue-to-move position, each standing for itself and its mirror image.
#[derive(Clone, Debug)]
pub struct DodgemIndex {
    size: u8,
    placements: Placements,
    transpose: Arc<Transpose>,
    blocks: [[Block; MAX_CARS + 1]; MAX_CARS + 1],
    tiers: Vec<Range<u64>>,
    /// The cars `(b, r)` of each tier's first block; a second block, if
    /// any, is `(r, b)`.
    tier_cars: Vec<(u32, u32)>,
    count: u64,
}

impl DodgemIndex {
    pub(super) fn new(size: u8, transpose: Arc<Transpose>) -> DodgemIndex {
        let placements = Placements::new(size);
        let mut blocks = [[Block::default(); MAX_CARS + 1]; MAX_CARS + 1];
        let mut tiers: Vec<Range<u64>> = Vec::new();
        let mut tier_cars = Vec::new();
        let mut start = 0;
        for (blue, red) in block_order(size) {
            let len = placements.count(blue, red);
            blocks[blue as usize][red as usize] = Block { start, len };
            if blue > red {
                // The mirror-image block (red, blue) came just before.
                tiers.last_mut().expect("mirror block is listed first").end = start + len;
            } else {
                tiers.push(start..start + len);
                tier_cars.push((blue, red));
            }
            start += len;
        }
        DodgemIndex { size, placements, transpose, blocks, tiers, tier_cars, count: start }
    }

    /// The number of indices: the Blue-to-move positions, which is half of
    /// all positions.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The tiers' index ranges, in solving order.
    pub fn tiers(&self) -> Vec<Range<u64>> {
        self.tiers.clone()
    }

    /// The mirror image of `pos`: reflected in the diagonal through `a1`,
    /// Blue and Red swapped, and the other side to move.
    #[inline]
    pub fn mirror(&self, pos: &Position) -> Position {
        self.transpose.mirror(pos)
    }

    /// The mirror image of the square with bit number `bit`, as a mask.
    #[inline]
    pub(super) fn mirror_square(&self, bit: u32) -> u64 {
        self.transpose.apply(1 << bit)
    }

    /// The index of `pos`, or of its mirror image if Red is to move.
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        match pos.turn {
            Player::Blue => self.index_blue_to_move(pos.cars),
            Player::Red => self.index_blue_to_move(self.mirror(pos).cars),
        }
    }

    /// The index of the position with these cars and Blue to move.
    #[inline]
    pub(super) fn index_blue_to_move(&self, cars: ByPlayer<u64>) -> u64 {
        let block = &self.blocks[cars.blue.count_ones() as usize][cars.red.count_ones() as usize];
        // Boards up to MAX_FLAT_SIZE have at most 25 squares.
        let cars = ByPlayer { blue: cars.blue as u32, red: cars.red as u32 };
        block.start + u64::from(self.placements.rank(cars))
    }

    /// The Blue-to-move position with index `idx < count()`.
    pub fn unindex(&self, idx: u64) -> Position {
        self.unindex_in_tier(self.tier_of(idx), idx)
    }

    /// The tier that index `idx < count()` lies in.
    #[inline]
    pub fn tier_of(&self, idx: u64) -> usize {
        self.tiers.partition_point(|t| t.start <= idx) - 1
    }

    /// The first index of the `tier`-th tier.
    #[inline]
    pub fn tier_start(&self, tier: usize) -> u64 {
        self.tiers[tier].start
    }

    /// The Blue-to-move position with index `idx`, which lies in the
    /// `tier`-th tier.
    #[inline]
    pub fn unindex_in_tier(&self, tier: usize, idx: u64) -> Position {
        let (mut blue, mut red) = self.tier_cars[tier];
        let mut block = &self.blocks[blue as usize][red as usize];
        if idx >= block.start + block.len {
            (blue, red) = (red, blue);
            block = &self.blocks[blue as usize][red as usize];
        }
        let rank = (idx - block.start) as u32;
        let cars = self.placements.unrank(blue, red, rank);
        Position {
            size: self.size,
            cars: ByPlayer { blue: cars.blue.into(), red: cars.red.into() },
            turn: Player::Blue,
        }
    }
}

impl DodgemIndex {
    /// Calls `f(idx, position)` for every index in `range`, which lies in
    /// the `tier`-th tier, in order.
    pub fn for_each_in_range(&self, tier: usize, range: Range<u64>, mut f: impl FnMut(u64, Position)) {
        let (blue, red) = self.tier_cars[tier];
        for (blue, red) in [(blue, red), (red, blue)].into_iter().take(if blue == red { 1 } else { 2 }) {
            let block = &self.blocks[blue as usize][red as usize];
            let start = range.start.clamp(block.start, block.start + block.len);
            let end = range.end.clamp(block.start, block.start + block.len);
            let mut idx = start;
            let ranks = (start - block.start) as u32..(end - block.start) as u32;
            self.placements.for_each(blue, red, ranks, |cars| {
                let cars = ByPlayer { blue: cars.blue.into(), red: cars.red.into() };
                f(idx, Position { size: self.size, cars, turn: Player::Blue });
                idx += 1;
            });
        }
    }
}
