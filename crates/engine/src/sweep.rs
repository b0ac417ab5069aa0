//! Margins of games where every move sets one bit, by one descending sweep.
//!
//! The game is given as data: `n` bits (in Dots and Boxes, the undrawn
//! lines) and a list of *groups*, each a mask of bits (a box's undrawn
//! sides). Setting a bit that completes `g` groups scores `g` points and the
//! mover moves again; setting one that completes none passes the turn. The
//! *margin* of a state is the best (future points of the mover − future
//! points of the opponent): the maximum over unset bits of
//! [`move_margin`]`(g, margin(child))`. The full state's margin is 0.
//!
//! Setting a bit only makes the state larger, so sweeping from the full
//! state down to the empty one meets every child before its parents: no
//! search, no recursion, no transposition table.
//!
//! # Layout and parallelism
//!
//! States are processed 32 at a time (a *block*: all values of the low five
//! bits). For a bit above the block, the 32 children lie in one contiguous
//! block, so the work is a vector load, a select and a maximum over 32 lanes,
//! which the compiler vectorises. The five bits inside the block are finished
//! by a short scalar pass from the highest lane down.
//!
//! The top bits (up to eight) split the states into *regions*. A child is in
//! the same region or in one whose top bits are a superset, so regions are
//! solved in layers by the number of top bits set, most first, and the
//! regions of one layer in parallel. In memory the regions are stored layer
//! by layer: when a layer is solved, all it reads is a finished prefix and
//! all it writes is the next stretch, split between threads, so the borrow
//! checker can see that no two threads write the same byte. Files are
//! written in plain state order.

use std::io;

use rayon::prelude::*;

use crate::progress::{Interrupted, Progress};
use crate::table::{Margin, Payload};
use crate::tally::Tally;

/// The largest state space the sweep handles: 2^30 states, one gibibyte.
pub const MAX_BITS: u32 = 30;

const LOW_BITS: u32 = 5;
const LANES: usize = 1 << LOW_BITS;
const MAX_REGION_BITS: u32 = 8;

/// The margin of every state, one `i8` each.
#[derive(Debug)]
pub struct Margins {
    bits: u32,
    region_bits: u32,
    /// Where each region is stored, by its top bits.
    slot_of: Vec<usize>,
    bytes: Vec<u8>,
}

impl Margins {
    /// The number of states, `2^bits`.
    pub fn len(&self) -> u64 {
        1 << self.bits
    }

    /// Whether there are no states (never: the empty game has one).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The margin of `state`.
    ///
    /// # Panics
    ///
    /// Panics if `state >= self.len()`.
    pub fn get(&self, state: u64) -> i8 {
        assert!(state < self.len(), "state out of range");
        self.bytes[self.offset(state)] as i8
    }

    fn offset(&self, state: u64) -> usize {
        let region_size = self.bits - self.region_bits;
        (self.slot_of[(state >> region_size) as usize] << region_size) | (state & ((1 << region_size) - 1)) as usize
    }

    /// The margins as bytes (two's complement) in state order, region by
    /// region.
    fn for_each_region(&self, mut f: impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        let region_size = 1usize << (self.bits - self.region_bits);
        for &slot in &self.slot_of {
            f(&self.bytes[slot * region_size..(slot + 1) * region_size])?;
        }
        Ok(())
    }
}

impl Payload<Margin> for Margins {
    fn tally(&self) -> Tally {
        self.bytes
            .par_chunks(1 << 16)
            .map(|piece| {
                let mut tally = Tally::default();
                piece.iter().for_each(|&b| tally.add_margin(b as i8));
                tally
            })
            .reduce(Tally::default, Tally::merge)
    }

    fn write_pieces(&self, sink: &mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        self.for_each_region(sink)
    }
}

/// For each bit, the masks of the other members of each group it belongs to:
/// setting the bit completes a group when its other members are all set.
struct Groups {
    others: Vec<Vec<u64>>,
}

impl Groups {
    fn new(bits: u32, groups: &[u64]) -> Groups {
        let others = (0..bits)
            .map(|bit| groups.iter().filter(|&&g| g >> bit & 1 == 1).map(|&g| g & !(1 << bit)).collect())
            .collect();
        Groups { others }
    }

    /// The points for setting `bit` in `state`.
    #[inline]
    fn reward(&self, state: u64, bit: u32) -> i8 {
        self.others[bit as usize].iter().filter(|&&m| state & m == m).count() as i8
    }
}

/// The margin of a move worth `reward` points (the groups it completes)
/// into a child whose margin, for whoever moves there, is `child`: the
/// mover moves again after scoring, and hands the turn over otherwise.
///
/// # Examples
///
/// ```
/// use solved_engine::sweep::move_margin;
/// assert_eq!(move_margin(2, -1), 1, "two boxes taken, then one more lost");
/// assert_eq!(move_margin(0, 3), -3, "the opponent moves and gains three");
/// ```
#[inline]
pub fn move_margin(reward: i8, child: i8) -> i8 {
    if reward > 0 { reward + child } else { -child }
}

/// The margin of every state of the game with `bits` bits and these `groups`.
///
/// # Errors
///
/// [`Interrupted`] if `progress` asks to stop.
///
/// # Panics
///
/// Panics if `bits` exceeds [`MAX_BITS`] or a group has a bit at or above
/// `bits`; callers check board sizes first.
pub fn solve(bits: u32, groups: &[u64], progress: &dyn Progress) -> Result<Margins, Interrupted> {
    assert!(bits <= MAX_BITS, "at most {MAX_BITS} bits");
    assert!(groups.iter().all(|g| g >> bits == 0), "groups use only the game's bits");
    let groups = Groups::new(bits, groups);
    progress.start("sweep", 1 << bits);
    if bits < LOW_BITS {
        let mut bytes = vec![0u8; 1 << bits];
        for state in (0..1u64 << bits).rev() {
            bytes[state as usize] = margin_by_children(bits, &groups, state, |child| bytes[child as usize] as i8) as u8;
        }
        progress.advance(1 << bits);
        return Ok(Margins { bits, region_bits: 0, slot_of: vec![0], bytes });
    }
    let region_bits = (bits - LOW_BITS).min(MAX_REGION_BITS);
    let region_size_bits = bits - region_bits;
    let region_size = 1usize << region_size_bits;
    // Regions ordered by layer (more top bits set first), then by top bits.
    let mut order: Vec<u64> = (0..1u64 << region_bits).collect();
    order.sort_by_key(|&top| (std::cmp::Reverse(top.count_ones()), top));
    let mut slot_of = vec![0; order.len()];
    for (slot, &top) in order.iter().enumerate() {
        slot_of[top as usize] = slot;
    }
    let mut bytes = vec![0u8; 1 << bits];
    let mut done = 0;
    for layer in (0..=region_bits).rev() {
        let count = order.iter().filter(|top| top.count_ones() == layer).count();
        let (finished, rest) = bytes.split_at_mut(done * region_size);
        let finished = &*finished;
        let current = &mut rest[..count * region_size];
        current.par_chunks_mut(region_size).zip(&order[done..done + count]).try_for_each(|(region, &top)| {
            if progress.should_stop() {
                return Err(Interrupted);
            }
            let sweep = RegionSweep { bits, region_size_bits, top, groups: &groups, finished, slot_of: &slot_of };
            sweep.run(region, progress);
            Ok(())
        })?;
        done += count;
    }
    Ok(Margins { bits, region_bits, slot_of, bytes })
}

/// The best move's margin at `state`, given its children's margins.
fn margin_by_children(bits: u32, groups: &Groups, state: u64, child: impl Fn(u64) -> i8) -> i8 {
    let mut best = None;
    for bit in (0..bits).filter(|&b| state >> b & 1 == 0) {
        let margin = move_margin(groups.reward(state, bit), child(state | 1 << bit));
        best = Some(best.map_or(margin, |b: i8| b.max(margin)));
    }
    best.unwrap_or(0)
}

/// One region's sweep: its states all share the top bits `top`.
struct RegionSweep<'a> {
    bits: u32,
    region_size_bits: u32,
    top: u64,
    groups: &'a Groups,
    /// The regions of earlier layers, stored by slot.
    finished: &'a [u8],
    slot_of: &'a [usize],
}

impl RegionSweep<'_> {
    fn run(&self, region: &mut [u8], progress: &dyn Progress) {
        let base = self.top << self.region_size_bits;
        // Per group of each bit, which lanes of a block have the group's low
        // members set (the rest of the group is checked once per block).
        let lane_masks: Vec<Vec<(u64, [i8; LANES])>> = self
            .groups
            .others
            .iter()
            .map(|masks| {
                masks
                    .iter()
                    .map(|&m| {
                        let low = m & (LANES as u64 - 1);
                        (m & !(LANES as u64 - 1), std::array::from_fn(|lane| i8::from(lane as u64 & low == low)))
                    })
                    .collect()
            })
            .collect();
        let blocks = region.len() / LANES;
        for block in (0..blocks).rev() {
            let offset = block * LANES;
            let state0 = base | offset as u64;
            let (lower, upper) = region.split_at_mut(offset + LANES);
            let mut best = [i8::MIN; LANES];
            let mut low_rewards = [[0i8; LANES]; LOW_BITS as usize];
            for bit in 0..self.bits {
                if bit >= LOW_BITS && state0 >> bit & 1 == 1 {
                    continue;
                }
                let mut reward = [0i8; LANES];
                for (high, lanes) in &lane_masks[bit as usize] {
                    if state0 & high == *high {
                        for (r, l) in reward.iter_mut().zip(lanes) {
                            *r += l;
                        }
                    }
                }
                if bit < LOW_BITS {
                    low_rewards[bit as usize] = reward;
                    continue;
                }
                let children: &[u8] = if bit < self.region_size_bits {
                    &upper[(1 << bit) - LANES..][..LANES]
                } else {
                    let child_top = (state0 | 1 << bit) >> self.region_size_bits;
                    let start = (self.slot_of[child_top as usize] << self.region_size_bits) | offset;
                    &self.finished[start..start + LANES]
                };
                for lane in 0..LANES {
                    best[lane] = best[lane].max(move_margin(reward[lane], children[lane] as i8));
                }
            }
            // The bits inside the block: each lane's children are higher
            // lanes of the same block, so go from the top lane down.
            let block_bytes = &mut lower[offset..];
            for lane in (0..LANES).rev() {
                let mut lane_best = best[lane];
                for bit in 0..LOW_BITS as usize {
                    if lane >> bit & 1 == 0 {
                        let child = block_bytes[lane | 1 << bit] as i8;
                        lane_best = lane_best.max(move_margin(low_rewards[bit][lane], child));
                    }
                }
                // Only the full state has no move at all.
                block_bytes[lane] = if lane_best == i8::MIN { 0 } else { lane_best as u8 };
            }
            if block % 4096 == 0 {
                progress.advance(4096 * LANES as u64);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::Silent;

    /// The margin of `state`, by memoised recursion over the game tree.
    fn by_search(bits: u32, groups: &Groups, state: u64, memo: &mut HashMap<u64, i8>) -> i8 {
        if let Some(&margin) = memo.get(&state) {
            return margin;
        }
        let mut best = None;
        for bit in (0..bits).filter(|&b| state >> b & 1 == 0) {
            let margin = move_margin(groups.reward(state, bit), by_search(bits, groups, state | 1 << bit, memo));
            best = Some(best.map_or(margin, |b: i8| b.max(margin)));
        }
        let margin = best.unwrap_or(0);
        memo.insert(state, margin);
        margin
    }

    #[test]
    fn the_sweep_agrees_with_a_plain_search() {
        let mut rng = StdRng::seed_from_u64(3);
        for bits in [0, 1, 3, 4, 5, 6, 9, 11, 14] {
            for _ in 0..4 {
                let groups: Vec<u64> = (0..rng.random_range(0..=bits as usize))
                    .map(|_| (0..rng.random_range(1..=4)).fold(0, |m, _| m | 1 << rng.random_range(0..bits.max(1))))
                    .filter(|&m| m >> bits == 0)
                    .collect();
                let margins = solve(bits, &groups, &Silent).unwrap();
                let check = Groups::new(bits, &groups);
                let mut memo = HashMap::new();
                let states: Vec<u64> = (0..1 << bits).collect();
                for state in states {
                    let expected = by_search(bits, &check, state, &mut memo);
                    assert_eq!(margins.get(state), expected, "bits {bits} state {state:b} groups {groups:?}");
                }
            }
        }
    }

    #[test]
    fn pieces_come_out_in_state_order() {
        let groups = [0b11, 0b1100_0000_0000, 0b1_0000_0000_0000_0001];
        let margins = solve(17, &groups, &Silent).unwrap();
        let mut bytes = Vec::new();
        margins
            .write_pieces(&mut |piece: &[u8]| {
                bytes.extend_from_slice(piece);
                Ok(())
            })
            .unwrap();
        assert_eq!(bytes.len() as u64, margins.len());
        for state in (0..margins.len()).step_by(97) {
            assert_eq!(bytes[state as usize] as i8, margins.get(state));
        }
        let mut tally = Tally::default();
        bytes.iter().for_each(|&b| tally.add_margin(b as i8));
        assert_eq!(margins.tally(), tally);
    }

    #[test]
    fn margins_are_identical_at_any_thread_count() {
        let mut rng = StdRng::seed_from_u64(5);
        for bits in [13, 15, 18] {
            let groups: Vec<u64> =
                (0..bits).map(|_| (0..4).fold(0, |m, _| m | 1 << rng.random_range(0..bits))).collect();
            let bytes = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let margins = pool.install(|| solve(bits, &groups, &Silent)).unwrap();
                (0..margins.len()).map(|s| margins.get(s)).collect::<Vec<i8>>()
            };
            assert_eq!(bytes(1), bytes(4), "bits {bits}");
        }
    }
}
