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

/// A fixed number of slots, each the last entry stored there. A slot is
/// two words, the key XOR the data and the data, so that a slot torn by two
/// threads writing at once almost surely reads as empty (it passes only if
/// the key happens to equal one key XOR both data words); what it could
/// then give is a wrong bound, never a bad line, which `get` refuses.
#[derive(Debug)]
pub(super) struct TranspositionTable {
    slots: Vec<[AtomicU64; 2]>,
}

/// An empty slot reads as the key of every line drawn, which is never
/// looked up: the search ends there.
const EMPTY: u64 = u64::MAX;

impl TranspositionTable {
    /// A table of about `bytes` (at least one slot).
    pub(super) fn with_bytes(bytes: usize) -> TranspositionTable {
        let slots = (bytes / 16).max(1);
        TranspositionTable { slots: (0..slots).map(|_| [AtomicU64::new(EMPTY), AtomicU64::new(0)]).collect() }
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        // Multiplying carries every line of a set into the top bits, which
        // then pick the slot by scaling (so the table may have any number
        // of slots, and a machine's memory be used whole).
        let hash = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.slots[((u128::from(hash) * self.slots.len() as u128) >> 64) as usize]
    }

    /// The bounds stored for `key`, if its slot still holds them.
    pub(super) fn get(&self, key: u64) -> Option<Bounds> {
        let [check, data] = self.slot(key);
        let data = data.load(Ordering::Relaxed);
        (check.load(Ordering::Relaxed) ^ data == key).then_some(Bounds {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 24 & 0x7f).checked_sub(1).map(|line| line as u32).filter(|&line| line < 64),
        })
    }

    /// Stores `bounds` for `key`, in place of whatever the slot held.
    pub(super) fn put(&self, key: u64, bounds: Bounds) {
        let [check, data] = self.slot(key);
        let best = bounds.best.map_or(0, |line| u64::from(line) + 1);
        let word = u64::from(bounds.lower as u8) | u64::from(bounds.upper as u8) << 8 | best << 24;
        data.store(word, Ordering::Relaxed);
        check.store(key ^ word, Ordering::Relaxed);
    }
}
