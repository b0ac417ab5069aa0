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
//! by five rounds over all 32 lanes (see `finish_block`).
//!
//! The top bits (up to eight) split the states into *regions*. A child is in
//! the same region or in one whose top bits are a superset, so regions are
//! solved in layers by the number of top bits set, most first, and the
//! regions of one layer in parallel. In memory the regions are stored layer
//! by layer: when a layer is solved, all it reads is a finished prefix and
//! all it writes is the next stretch, split between threads, so the borrow
//! checker can see that no two threads write the same byte. Files are
//! written in plain state order.
//!
//! Within a region, the moves into other regions are taken first, one bit
//! at a time over the whole region (one stream from memory each), then the
//! blocks from the highest down with the moves that stay in the region.
//! The region's kernel is compiled for the widest instruction set the
//! processor has (`solved_dispatch`).

use std::io;

use rayon::prelude::*;
use solved_dispatch::{Kernel, Level};

use crate::huge_pages::ZeroedBytes;
use crate::progress::{Interrupted, Progress};
use crate::table::{Margin, Payload};
use crate::tally::Tally;

/// The largest state space the sweep handles: 2^30 states, one gibibyte.
pub const MAX_BITS: u32 = 30;

const LOW_BITS: u32 = 5;
const LANES: usize = 1 << LOW_BITS;
const _: () = assert!(LOW_BITS == 5, "a block's low moves are written out for five bits");
const MAX_REGION_BITS: u32 = 8;

/// The margin of every state, one `i8` each.
#[derive(Debug)]
pub struct Margins {
    bits: u32,
    region_bits: u32,
    /// Where each region is stored, by its top bits.
    slot_of: Vec<usize>,
    bytes: ZeroedBytes,
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

/// The most groups one bit may belong to: a block finds its rewards in a
/// table with an entry for every subset of a bit's groups.
pub const MAX_GROUPS_PER_BIT: usize = 4;

/// The most groups a game may have, so that every margin, and every sum of
/// a margin and a move's points, fits in an `i8`.
pub const MAX_GROUPS: usize = 100;

/// The moves along one bit from the 32 states of a block, as lane vectors
/// that give each lane's margin from its child's in a few operations and
/// no branch: `(child ^ flip) - flip` is the child's margin negated where
/// `flip` is −1 (the move passes the turn) and kept where it is 0 (the
/// move scores), then `add` adds the points scored. A lane that already
/// has the bit set has no such move: its `cap` of −128 brings whatever was
/// computed for it below every real margin.
#[derive(Clone, Debug)]
struct LaneMoves {
    flip: [i8; LANES],
    add: [i8; LANES],
    cap: [i8; LANES],
}

impl LaneMoves {
    /// The lane's margin by this move, for a lane that has it.
    #[inline(always)]
    fn margin(&self, lane: usize, child: i8) -> i8 {
        let flip = self.flip[lane];
        ((child ^ flip).wrapping_sub(flip)).wrapping_add(self.add[lane])
    }

    /// The lane's margin by this move, or −128 if it has none.
    #[inline(always)]
    fn margin_if_any(&self, lane: usize, child: i8) -> i8 {
        self.margin(lane, child).min(self.cap[lane])
    }
}

/// The moves of setting each bit in the 32 states of a block, looked up
/// rather than summed per block (the sum, spilled byte by byte, was a
/// tenth of the sweep).
struct BlockRewards {
    /// For each bit, the members of each of its other groups above the
    /// block; the unused entries can never be all set.
    highs: Vec<[u64; MAX_GROUPS_PER_BIT]>,
    /// For each bit and each subset of its groups whose members above the
    /// block are all set, the moves in each lane.
    by_subset: Vec<Vec<LaneMoves>>,
}

impl BlockRewards {
    fn new(groups: &Groups) -> BlockRewards {
        let low = LANES as u64 - 1;
        let highs = groups
            .others
            .iter()
            .map(|masks| std::array::from_fn(|g| masks.get(g).map_or(u64::MAX, |m| m & !low)))
            .collect();
        let by_subset = (0..groups.others.len())
            .map(|bit| {
                let masks = &groups.others[bit];
                (0..1usize << masks.len())
                    .map(|subset| {
                        let reward = |lane: usize| {
                            let complete = masks
                                .iter()
                                .enumerate()
                                .filter(|&(g, &m)| subset >> g & 1 == 1 && lane as u64 & m & low == m & low);
                            complete.count() as i8
                        };
                        let has_move = |lane: usize| bit >= LOW_BITS as usize || lane >> bit & 1 == 0;
                        LaneMoves {
                            flip: std::array::from_fn(|lane| if reward(lane) > 0 { 0 } else { -1 }),
                            add: std::array::from_fn(reward),
                            cap: std::array::from_fn(|lane| if has_move(lane) { i8::MAX } else { i8::MIN }),
                        }
                    })
                    .collect()
            })
            .collect();
        BlockRewards { highs, by_subset }
    }

    /// The moves along `bit` from the block starting at `state0`, and
    /// whether any lane scores.
    #[inline(always)]
    fn of(&self, bit: u32, state0: u64) -> (&LaneMoves, bool) {
        let subset = self.highs[bit as usize]
            .iter()
            .enumerate()
            .fold(0, |subset, (g, &high)| subset | usize::from(state0 & high == high) << g);
        (&self.by_subset[bit as usize][subset], subset != 0)
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
/// Panics if `bits` exceeds [`MAX_BITS`], a group has a bit at or above
/// `bits`, there are more than [`MAX_GROUPS`] groups or a bit is in more
/// than [`MAX_GROUPS_PER_BIT`]; callers check board sizes first (a board
/// of 30 lines has at most 15 boxes, and a line borders at most two).
pub fn solve(bits: u32, groups: &[u64], progress: &dyn Progress) -> Result<Margins, Interrupted> {
    solve_with(solved_dispatch::widest(), bits, groups, progress)
}

/// [`solve`] with its kernels compiled for `level`: the same margins at
/// every level.
///
/// # Errors
///
/// As for [`solve`].
///
/// # Panics
///
/// As for [`solve`], and if the processor does not support `level`.
pub fn solve_with(level: Level, bits: u32, groups: &[u64], progress: &dyn Progress) -> Result<Margins, Interrupted> {
    assert!(bits <= MAX_BITS, "at most {MAX_BITS} bits");
    assert!(groups.iter().all(|g| g >> bits == 0), "groups use only the game's bits");
    assert!(groups.len() <= MAX_GROUPS, "at most {MAX_GROUPS} groups");
    assert!(
        (0..bits).all(|bit| groups.iter().filter(|&&g| g >> bit & 1 == 1).count() <= MAX_GROUPS_PER_BIT),
        "at most {MAX_GROUPS_PER_BIT} groups per bit"
    );
    let groups = Groups::new(bits, groups);
    progress.start("sweep", 1 << bits);
    if bits < LOW_BITS {
        let mut bytes = vec![0u8; 1 << bits];
        for state in (0..1u64 << bits).rev() {
            bytes[state as usize] = margin_by_children(bits, &groups, state, |child| bytes[child as usize] as i8) as u8;
        }
        progress.advance(1 << bits);
        return Ok(Margins { bits, region_bits: 0, slot_of: vec![0], bytes: ZeroedBytes::Heap(bytes) });
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
    let rewards = BlockRewards::new(&groups);
    let mut bytes = ZeroedBytes::new(1 << bits);
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
            let sweep = RegionSweep { bits, region_size_bits, top, rewards: &rewards, finished, slot_of: &slot_of };
            solved_dispatch::run(level, RegionKernel { sweep, region, progress });
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

/// One region's sweep as a kernel to dispatch.
struct RegionKernel<'a, 'b> {
    sweep: RegionSweep<'a>,
    region: &'b mut [u8],
    progress: &'b dyn Progress,
}

impl Kernel for RegionKernel<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        self.sweep.run(self.region, self.progress);
    }
}

/// One region's sweep: its states all share the top bits `top`.
struct RegionSweep<'a> {
    bits: u32,
    region_size_bits: u32,
    top: u64,
    rewards: &'a BlockRewards,
    /// The regions of earlier layers, stored by slot.
    finished: &'a [u8],
    slot_of: &'a [usize],
}

impl RegionSweep<'_> {
    /// Inlined into [`RegionKernel`], so that it is compiled for the level
    /// it is dispatched to.
    #[inline(always)]
    fn run(&self, region: &mut [u8], progress: &dyn Progress) {
        let base = self.top << self.region_size_bits;
        let rewards = self.rewards;
        // Moves into other regions first, one bit at a time over the whole
        // region: each is then one stream from memory that the prefetcher
        // follows, where taking them block by block interleaved as many
        // streams as there are such bits, and waited on each.
        region.fill(i8::MIN as u8);
        for bit in self.region_size_bits..self.bits {
            if base >> bit & 1 == 1 {
                continue;
            }
            let child_top = (base | 1 << bit) >> self.region_size_bits;
            let children = &self.finished[self.slot_of[child_top as usize] << self.region_size_bits..][..region.len()];
            for (block, (best, children)) in
                region.chunks_exact_mut(LANES).zip(children.chunks_exact(LANES)).enumerate()
            {
                let (reward, scores) = rewards.of(bit, base | (block * LANES) as u64);
                let best: &mut [u8; LANES] = best.try_into().expect("a block");
                let mut margins = as_margins(best);
                merge_block(&mut margins, reward, scores, children.try_into().expect("a block"));
                store_margins(best, &margins);
            }
        }
        let full = (1u64 << self.bits) - 1;
        let in_region_above_block = ((1u64 << self.region_size_bits) - 1) & !(LANES as u64 - 1);
        let blocks = region.len() / LANES;
        for block in (0..blocks).rev() {
            let offset = block * LANES;
            let state0 = base | offset as u64;
            let (lower, upper) = region.split_at_mut(offset + LANES);
            let block_bytes: &mut [u8; LANES] = (&mut lower[offset..]).try_into().expect("a block");
            let mut best = as_margins(block_bytes);
            // Written out: `array::from_fn` is not inlined here.
            let low_move = |bit| rewards.of(bit, state0).0;
            let low_moves = [low_move(0), low_move(1), low_move(2), low_move(3), low_move(4)];
            // The bits set vary from block to block: a branch on each would
            // be mispredicted, so only the unset ones are visited.
            let mut unset = !state0 & in_region_above_block;
            while unset != 0 {
                let bit = unset.trailing_zeros();
                unset &= unset - 1;
                let (reward, scores) = rewards.of(bit, state0);
                merge_block(
                    &mut best,
                    reward,
                    scores,
                    upper[(1 << bit) - LANES..][..LANES].try_into().expect("a block"),
                );
            }
            // Only the full state has no move at all.
            if state0 | (LANES as u64 - 1) == full {
                best[LANES - 1] = 0;
            }
            finish_block(&mut best, &low_moves);
            store_margins(block_bytes, &best);
            if block % 4096 == 0 {
                progress.advance(4096 * LANES as u64);
            }
        }
    }
}

/// A block's stored bytes as margins (`array::map` is not inlined here).
#[inline(always)]
fn as_margins(bytes: &[u8; LANES]) -> [i8; LANES] {
    let mut margins = [0; LANES];
    for (margin, &byte) in margins.iter_mut().zip(bytes) {
        *margin = byte as i8;
    }
    margins
}

#[inline(always)]
fn store_margins(bytes: &mut [u8; LANES], margins: &[i8; LANES]) {
    for (byte, &margin) in bytes.iter_mut().zip(margins) {
        *byte = margin as u8;
    }
}

/// Takes into `best` the moves of a block's 32 states along one bit, into
/// `children`.
#[inline(always)]
fn merge_block(best: &mut [i8; LANES], moves: &LaneMoves, scores: bool, children: &[u8; LANES]) {
    // Most moves complete no box: their margin is the child's, negated.
    if scores {
        for lane in 0..LANES {
            best[lane] = best[lane].max(moves.margin(lane, children[lane] as i8));
        }
    } else {
        for lane in 0..LANES {
            best[lane] = best[lane].max((children[lane] as i8).wrapping_neg());
        }
    }
}

/// Gives the lanes of a block the moves inside it, given `best`, each
/// lane's best over the moves that leave the block. A lane's children in
/// the block are the lanes with more of the five low bits set, so a lane
/// with `k` of them set is final once every lane with `k + 1` is: five
/// rounds, each taking every lane's best from the previous round's lanes,
/// make every lane final (the lane with all five set is final from the
/// start). A round is the same few operations on all 32 lanes at once,
/// with no branch and no chain from one lane to the next, which is faster
/// than going lane by lane although it computes more.
#[inline(always)]
fn finish_block(best: &mut [i8; LANES], moves: &[&LaneMoves; LOW_BITS as usize]) {
    let start = *best;
    let mut round = start;
    for _ in 0..LOW_BITS {
        let mut next = start;
        for (bit, moves) in moves.iter().enumerate() {
            for lane in 0..LANES {
                next[lane] = next[lane].max(moves.margin_if_any(lane, round[lane ^ 1 << bit]));
            }
        }
        round = next;
    }
    *best = round;
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::ops::RangeInclusive;

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

    /// Up to `count` groups of `members` random bits each (fewer when
    /// bits repeat), leaving out any that would put a bit in more than
    /// [`MAX_GROUPS_PER_BIT`] groups.
    fn random_groups(rng: &mut StdRng, bits: u32, count: usize, members: RangeInclusive<u32>) -> Vec<u64> {
        let mut groups: Vec<u64> = Vec::new();
        for _ in 0..count {
            let group =
                (0..rng.random_range(members.clone())).fold(0, |m, _| m | 1 << rng.random_range(0..bits.max(1)));
            let crowded = (0..bits).any(|bit| {
                group >> bit & 1 == 1 && groups.iter().filter(|&&g| g >> bit & 1 == 1).count() == MAX_GROUPS_PER_BIT
            });
            if group >> bits == 0 && !crowded {
                groups.push(group);
            }
        }
        groups
    }

    #[test]
    fn the_sweep_agrees_with_a_plain_search() {
        let mut rng = StdRng::seed_from_u64(3);
        for bits in [0, 1, 3, 4, 5, 6, 9, 11, 14] {
            for _ in 0..4 {
                let count = rng.random_range(0..=bits as usize);
                let groups = random_groups(&mut rng, bits, count, 1..=4);
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
    fn every_instruction_set_gives_the_same_margins() {
        let mut rng = StdRng::seed_from_u64(11);
        for bits in [6, 12, 17] {
            let groups = random_groups(&mut rng, bits, bits as usize, 2..=4);
            let margins = |level| {
                let margins = solve_with(level, bits, &groups, &Silent).unwrap();
                (0..margins.len()).map(|s| margins.get(s)).collect::<Vec<i8>>()
            };
            let portable = margins(Level::Portable);
            for level in Level::supported() {
                assert_eq!(margins(level), portable, "bits {bits}, {level:?}");
            }
        }
    }

    #[test]
    fn margins_are_identical_at_any_thread_count() {
        let mut rng = StdRng::seed_from_u64(5);
        for bits in [13, 15, 18] {
            let groups = random_groups(&mut rng, bits, bits as usize, 4..=4);
            let bytes = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let margins = pool.install(|| solve(bits, &groups, &Silent)).unwrap();
                (0..margins.len()).map(|s| margins.get(s)).collect::<Vec<i8>>()
            };
            assert_eq!(bytes(1), bytes(4), "bits {bits}");
        }
    }
}
