//! The dense index of Dodgem positions.
//!
//! Positions are grouped into tiers by how many cars each side has left,
//! since cars that leave never come back. Tiers are stored in solving order
//! (fewest cars first), so every move that takes a car off the board leads
//! to a lower index.
//!
//! Within the tier of `b` Blue and `r` Red cars, with `k = b + r`, a
//! position's local index is
//! `(rank(occupied squares) * C(k, b) + rank(Blue among them)) * 2 + turn`:
//! the occupied squares as a `k`-subset of the board, which of them are Blue
//! as a `b`-subset of the `k`, and the side to move in the lowest bit (so
//! the two sides to move of one placement sit next to each other).

use std::ops::Range;

use solved_engine::{Subsets, binomial};

use super::{ByPlayer, Player, Position};

/// The most cars a side has (on the largest board).
const MAX_CARS: usize = super::MAX_SIZE as usize - 1;

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

#[derive(Clone, Debug)]
struct Tier {
    blue: u32,
    red: u32,
    start: u64,
    len: u64,
    /// `C(blue + red, blue)`: the ways to colour one set of occupied squares.
    patterns: u32,
}

/// Ranks and unranks the positions of one board size.
///
/// Every tier of every size up to 5×5 has fewer than 2^32 positions, so
/// local indices use 32-bit arithmetic.
#[derive(Clone, Debug)]
pub struct DodgemIndex {
    size: u8,
    tiers: Vec<Tier>,
    /// The tier of `b` Blue and `r` Red cars is `tiers[slot[b][r]]`.
    slot: [[u8; MAX_CARS + 1]; MAX_CARS + 1],
    occupied: Vec<Subsets>,
    /// Every `k`-subset of the board, in rank order, for fast unranking.
    occupied_masks: Vec<Vec<u32>>,
    /// Every `b`-subset of `k` bits, in rank order, at `[k][b]`.
    patterns: Vec<Vec<Vec<u8>>>,
    count: u64,
}

impl DodgemIndex {
    pub(super) fn new(size: u8) -> DodgemIndex {
        let squares = u32::from(size) * u32::from(size);
        let most = u32::from(size) - 1;
        let mut pairs: Vec<(u32, u32)> = (0..=most).flat_map(|b| (0..=most).map(move |r| (b, r))).collect();
        pairs.sort_by_key(|&(b, r)| (b + r, b));
        let mut tiers = Vec::new();
        let mut slot = [[0; MAX_CARS + 1]; MAX_CARS + 1];
        let mut start = 0;
        for (blue, red) in pairs {
            let k = blue + red;
            let patterns = binomial(k, blue);
            let len = binomial(squares, k) * patterns * 2;
            assert!(len < 1 << 32, "tiers fit 32-bit local indices");
            slot[blue as usize][red as usize] = tiers.len() as u8;
            tiers.push(Tier { blue, red, start, len, patterns: patterns as u32 });
            start += len;
        }
        let occupied: Vec<Subsets> = (0..=2 * most).map(|k| Subsets::new(squares, k)).collect();
        let occupied_masks = occupied.iter().map(|s| s.iter().map(|m| m as u32).collect()).collect();
        let patterns = (0..=2 * most)
            .map(|k| (0..=k.min(most)).map(|b| Subsets::new(k, b).iter().map(|m| m as u8).collect()).collect())
            .collect();
        DodgemIndex { size, tiers, slot, occupied, occupied_masks, patterns, count: start }
    }

    /// The number of positions: every placement of up to n−1 cars a side,
    /// with either side to move.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The tiers' index ranges, fewest cars first.
    pub fn tiers(&self) -> Vec<Range<u64>> {
        self.tiers.iter().map(|t| t.start..t.start + t.len).collect()
    }

    /// The index of `pos`, which must be on this board.
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        debug_assert_eq!(pos.size, self.size);
        let ByPlayer { blue, red } = pos.cars;
        let tier = &self.tiers[usize::from(self.slot[blue.count_ones() as usize][red.count_ones() as usize])];
        let occupied = blue | red;
        let occupied_rank = self.occupied[(tier.blue + tier.red) as usize].rank(u64::from(occupied)) as u32;
        // Blue's cars as a subset of the occupied squares, in a fixed number
        // of steps so that the loop never mispredicts.
        let mut pattern_rank = 0;
        let mut rest = blue;
        for order in 1..=MAX_CARS {
            let lowest = rest & rest.wrapping_neg();
            let below = (occupied & lowest.wrapping_sub(1)).count_ones() as usize;
            pattern_rank += if lowest == 0 { 0 } else { SMALL_BINOMIALS[below][order] };
            rest ^= lowest;
        }
        let local = (occupied_rank * tier.patterns + pattern_rank) * 2 + pos.turn as u32;
        tier.start + u64::from(local)
    }

    /// The position with index `idx < count()`.
    pub fn unindex(&self, idx: u64) -> Position {
        self.unindex_in_tier(self.tiers.partition_point(|t| t.start <= idx) - 1, idx)
    }

    /// The position with index `idx`, which lies in the `tier`-th tier.
    #[inline]
    pub fn unindex_in_tier(&self, tier: usize, idx: u64) -> Position {
        let tier = &self.tiers[tier];
        let local = (idx - tier.start) as u32;
        let turn = if local & 1 == 0 { Player::Blue } else { Player::Red };
        let placement = local >> 1;
        let k = (tier.blue + tier.red) as usize;
        let occupied = self.occupied_masks[k][(placement / tier.patterns) as usize];
        let pattern = self.patterns[k][tier.blue as usize][(placement % tier.patterns) as usize];
        let mut blue = 0;
        let mut rest = occupied;
        for order in 0..2 * MAX_CARS {
            let lowest = rest & rest.wrapping_neg();
            blue |= lowest & 0u32.wrapping_sub(u32::from(pattern >> order) & 1);
            rest ^= lowest;
        }
        Position { size: self.size, cars: ByPlayer { blue, red: occupied & !blue }, turn }
    }
}
