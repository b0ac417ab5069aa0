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

use super::{ByPlayer, Player, Position, bits};

#[derive(Clone, Debug)]
struct Tier {
    blue: u32,
    red: u32,
    start: u64,
    len: u64,
    patterns: u64,
}

/// Ranks and unranks the positions of one board size.
#[derive(Clone, Debug)]
pub struct DodgemIndex {
    size: u8,
    tiers: Vec<Tier>,
    /// The tier of `b` Blue and `r` Red cars is `tiers[slot[b][r]]`.
    slot: Vec<Vec<usize>>,
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
        let mut pairs: Vec<(u32, u32)> = (0..=most)
            .flat_map(|b| (0..=most).map(move |r| (b, r)))
            .collect();
        pairs.sort_by_key(|&(b, r)| (b + r, b));
        let mut tiers = Vec::new();
        let mut slot = vec![vec![0; most as usize + 1]; most as usize + 1];
        let mut start = 0;
        for (blue, red) in pairs {
            let k = blue + red;
            let patterns = binomial(k, blue);
            let len = binomial(squares, k) * patterns * 2;
            slot[blue as usize][red as usize] = tiers.len();
            tiers.push(Tier {
                blue,
                red,
                start,
                len,
                patterns,
            });
            start += len;
        }
        let occupied: Vec<Subsets> = (0..=2 * most).map(|k| Subsets::new(squares, k)).collect();
        let occupied_masks = occupied
            .iter()
            .map(|s| s.iter().map(|m| m as u32).collect())
            .collect();
        let patterns = (0..=2 * most)
            .map(|k| {
                (0..=k.min(most))
                    .map(|b| Subsets::new(k, b).iter().map(|m| m as u8).collect())
                    .collect()
            })
            .collect();
        DodgemIndex {
            size,
            tiers,
            slot,
            occupied,
            occupied_masks,
            patterns,
            count: start,
        }
    }

    /// The number of positions: every placement of up to n−1 cars a side,
    /// with either side to move.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The tiers' index ranges, fewest cars first.
    pub fn tiers(&self) -> Vec<Range<u64>> {
        self.tiers
            .iter()
            .map(|t| t.start..t.start + t.len)
            .collect()
    }

    /// The index of `pos`, which must be on this board.
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        debug_assert_eq!(pos.size, self.size);
        let ByPlayer { blue, red } = pos.cars;
        let tier = &self.tiers[self.slot[blue.count_ones() as usize][red.count_ones() as usize]];
        let occupied = blue | red;
        let occupied_rank =
            self.occupied[(tier.blue + tier.red) as usize].rank(u64::from(occupied));
        let mut pattern_rank = 0;
        for (order, bit) in bits(blue).enumerate() {
            let below = (occupied & ((1 << bit) - 1)).count_ones();
            pattern_rank += binomial(below, order as u32 + 1);
        }
        tier.start + (occupied_rank * tier.patterns + pattern_rank) * 2 + pos.turn as u64
    }

    /// The position with index `idx < count()`.
    #[inline]
    pub fn unindex(&self, idx: u64) -> Position {
        let tier = &self.tiers[self.tiers.partition_point(|t| t.start <= idx) - 1];
        let local = idx - tier.start;
        let turn = if local & 1 == 0 {
            Player::Blue
        } else {
            Player::Red
        };
        let placement = local >> 1;
        let k = (tier.blue + tier.red) as usize;
        let occupied = self.occupied_masks[k][(placement / tier.patterns) as usize];
        let pattern = self.patterns[k][tier.blue as usize][(placement % tier.patterns) as usize];
        let mut blue = 0;
        for (order, bit) in bits(occupied).enumerate() {
            if pattern & (1 << order) != 0 {
                blue |= 1 << bit;
            }
        }
        Position {
            size: self.size,
            cars: ByPlayer {
                blue,
                red: occupied & !blue,
            },
            turn,
        }
    }
}
