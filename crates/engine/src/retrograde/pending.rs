//! Which distances each chunk of a unit still has to propagate.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Distances a chunk's mask holds, one bit each; a longer distance is
/// taken as pending in every chunk.
pub(super) const MASKED: u16 = 256;

/// Words in a chunk's mask.
const WORDS: usize = MASKED as usize / 64;

/// Words of a mask a checkpoint keeps: a solve that saves checkpoints is of
/// bytes, whose distances stay below 128 (see `Codes::limit`).
const SAVED_WORDS: usize = 2;

/// The bits of the distances below [`MASKED`], a word per 64.
pub(super) type Distances = [u64; WORDS];

/// For each chunk of a unit, the distances at which some of its positions
/// were decided: a distance layer scans only the chunks that have it.
///
/// Layers of long distances hold few positions, so most chunks skip most
/// layers. Four words per chunk hold the distances below 256: all that a
/// byte encodes, and as many as Dodgem's longest games reach with two
/// bytes a position.
pub(super) struct Pending {
    chunk: u64,
    first_chunk: u64,
    masks: Vec<[AtomicU64; WORDS]>,
}

impl Pending {
    /// No distance pending, for `unit` cut into chunks of `chunk` positions.
    pub(super) fn new(unit: &Range<u64>, chunk: u64) -> Pending {
        let first_chunk = unit.start / chunk;
        let chunks = if unit.is_empty() { 0 } else { (unit.end - 1) / chunk - first_chunk + 1 };
        Pending { chunk, first_chunk, masks: (0..chunks).map(|_| std::array::from_fn(|_| AtomicU64::new(0))).collect() }
    }

    /// The masks a checkpoint saved, for the same unit and chunk size; `None`
    /// if there are not as many as the unit has chunks.
    pub(super) fn from_masks(unit: &Range<u64>, chunk: u64, masks: &[[u64; SAVED_WORDS]]) -> Option<Pending> {
        let pending = Pending::new(unit, chunk);
        if pending.masks.len() != masks.len() {
            return None;
        }
        for (mask, saved) in pending.masks.iter().zip(masks) {
            for (word, &bits) in mask.iter().zip(saved) {
                word.store(bits, Relaxed);
            }
        }
        Some(pending)
    }

    /// The masks, for a checkpoint.
    pub(super) fn to_masks(&self) -> Vec<[u64; SAVED_WORDS]> {
        self.masks
            .iter()
            .map(|m| {
                debug_assert!(m[SAVED_WORDS..].iter().all(|w| w.load(Relaxed) == 0), "a distance past 127 plies");
                std::array::from_fn(|i| m[i].load(Relaxed))
            })
            .collect()
    }

    /// Notes that the position `idx` was decided at distance `plies`.
    #[inline]
    pub(super) fn mark(&self, idx: u64, plies: u16) {
        if let Some(mask) = self.masks.get((idx / self.chunk - self.first_chunk) as usize) {
            let (word, bit) = (&mask[usize::from(plies / 64) % WORDS], 1 << (plies % 64));
            // Most marks repeat one already made: a load is cheaper than
            // an atomic update of a shared line.
            if word.load(Relaxed) & bit == 0 && plies < MASKED {
                word.fetch_or(bit, Relaxed);
            }
        }
    }

    /// Notes that positions in the chunk of `idx` were decided at each
    /// distance whose bit is set in `distances`.
    pub(super) fn mark_all(&self, idx: u64, distances: &Distances) {
        let mask = &self.masks[(idx / self.chunk - self.first_chunk) as usize];
        for (word, &bits) in mask.iter().zip(distances) {
            if bits != 0 {
                word.fetch_or(bits, Relaxed);
            }
        }
    }

    /// Whether the `chunk`-th chunk may hold positions decided at `plies`.
    pub(super) fn has(&self, chunk: usize, plies: u16) -> bool {
        plies >= MASKED || self.masks[chunk][usize::from(plies / 64)].load(Relaxed) & (1 << (plies % 64)) != 0
    }
}
