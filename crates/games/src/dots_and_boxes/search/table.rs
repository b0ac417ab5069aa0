//! The transposition table: bounds on the value of a set of drawn lines,
//! shared by every thread without locks.

use std::sync::atomic::{AtomicU64, Ordering};

/// What is known of a position's value (the mover's margin on the boxes
/// still open): it lies in `lower..=upper`; and the line that gave the
/// bound, to try first next time.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) struct Bounds {
    pub lower: i8,
    pub upper: i8,
    pub best: Option<u32>,
}

/// A fixed number of buckets of two slots, in one cache line: the first
/// keeps the entry of the most lines left met there (its search cost the
/// most, and it is met again high in the tree), the second the last entry
/// stored that the first did not take. A slot is two words, the key XOR
/// the data and the data, so that a slot torn by two threads writing at
/// once almost surely reads as empty (it passes only if the key happens to
/// equal one key XOR both data words); what it could then give is a wrong
/// bound, never a bad line, which `get` refuses.
#[derive(Debug)]
pub(super) struct TranspositionTable {
    buckets: Vec<Bucket>,
}

/// Two slots, each a check word and a data word.
#[derive(Debug)]
#[repr(align(32))]
struct Bucket([AtomicU64; 4]);

/// An empty slot reads as the key of every line drawn, which is never
/// looked up: the search ends there. Its lines left read as none, so any
/// entry takes its place.
const EMPTY: u64 = u64::MAX;

impl TranspositionTable {
    /// A table of about `bytes` (at least one bucket).
    pub(super) fn with_bytes(bytes: usize) -> TranspositionTable {
        let buckets = (bytes / size_of::<Bucket>()).max(1);
        let empty = || Bucket([AtomicU64::new(EMPTY), AtomicU64::new(0), AtomicU64::new(EMPTY), AtomicU64::new(0)]);
        TranspositionTable { buckets: solved_engine::dispatch::vec_in_huge_pages(buckets, empty) }
    }

    fn bucket(&self, key: u64) -> &[AtomicU64; 4] {
        // Multiplying carries every line of a set into the top bits, which
        // then pick the bucket by scaling (so the table may have any
        // number of buckets, and a machine's memory be used whole).
        let hash = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.buckets[((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize].0
    }

    /// The bounds stored for `key`, if its bucket still holds them.
    pub(super) fn get(&self, key: u64) -> Option<Bounds> {
        let bucket = self.bucket(key);
        (0..2).find_map(|slot| {
            let data = bucket[2 * slot + 1].load(Ordering::Relaxed);
            (bucket[2 * slot].load(Ordering::Relaxed) ^ data == key).then_some(Bounds {
                lower: data as u8 as i8,
                upper: (data >> 8) as u8 as i8,
                best: (data >> 24 & 0x7f).checked_sub(1).map(|line| line as u32).filter(|&line| line < 64),
            })
        })
    }

    /// Stores `bounds` for `key`, a position with `lines_left` undrawn
    /// lines: in the first slot if it holds `key` or fewer lines left,
    /// else in the second.
    pub(super) fn put(&self, key: u64, bounds: Bounds, lines_left: u32) {
        let bucket = self.bucket(key);
        let best = bounds.best.map_or(0, |line| u64::from(line) + 1);
        let word = u64::from(bounds.lower as u8)
            | u64::from(bounds.upper as u8) << 8
            | best << 24
            | u64::from(lines_left) << LINES_LEFT_SHIFT;
        let first = bucket[1].load(Ordering::Relaxed);
        let slot =
            if bucket[0].load(Ordering::Relaxed) ^ first == key || first >> LINES_LEFT_SHIFT <= u64::from(lines_left) {
                0
            } else {
                1
            };
        bucket[2 * slot + 1].store(word, Ordering::Relaxed);
        bucket[2 * slot].store(key ^ word, Ordering::Relaxed);
    }
}

/// Where a data word keeps the lines left of its position.
const LINES_LEFT_SHIFT: u32 = 32;
