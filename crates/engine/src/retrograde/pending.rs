//! Which distances each chunk of a tier still has to propagate.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// For each chunk of a tier, the distances at which some of its positions
/// were decided: a distance layer scans only the chunks that have it.
///
/// Layers of long distances hold few positions, so most chunks skip most
/// layers. Two words per chunk hold the distances below 128, every one a
/// byte encodes (see `Codes::limit`); a longer distance, from a solve with
/// two bytes a position, is taken as pending in every chunk.
pub(super) struct Pending {
    chunk: u64,
    first_chunk: u64,
    masks: Vec<[AtomicU64; 2]>,
}

impl Pending {
    /// No distance pending, for `tier` cut into chunks of `chunk` positions.
    pub(super) fn new(tier: &Range<u64>, chunk: u64) -> Pending {
        let first_chunk = tier.start / chunk;
        let chunks = if tier.is_empty() { 0 } else { (tier.end - 1) / chunk - first_chunk + 1 };
        Pending { chunk, first_chunk, masks: (0..chunks).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect() }
    }

    /// The masks a checkpoint saved, for the same tier and chunk size; `None`
    /// if there are not as many as the tier has chunks.
    pub(super) fn from_masks(tier: &Range<u64>, chunk: u64, masks: &[[u64; 2]]) -> Option<Pending> {
        let mut pending = Pending::new(tier, chunk);
        if pending.masks.len() != masks.len() {
            return None;
        }
        for (mask, saved) in pending.masks.iter_mut().zip(masks) {
            *mask = saved.map(AtomicU64::new);
        }
        Some(pending)
    }

    /// The masks, for a checkpoint.
    pub(super) fn to_masks(&self) -> Vec<[u64; 2]> {
        self.masks.iter().map(|m| [m[0].load(Relaxed), m[1].load(Relaxed)]).collect()
    }

    /// Notes that the position `idx` was decided at distance `plies`.
    #[inline]
    pub(super) fn mark(&self, idx: u64, plies: u16) {
        if let Some(mask) = self.masks.get((idx / self.chunk - self.first_chunk) as usize) {
            let (word, bit) = (&mask[usize::from(plies / 64) & 1], 1 << (plies % 64));
            // Most marks repeat one already made: a load is cheaper than
            // an atomic update of a shared line.
            if word.load(Relaxed) & bit == 0 && plies < 128 {
                word.fetch_or(bit, Relaxed);
            }
        }
    }

    /// Notes that positions in the chunk of `idx` were decided at each
    /// distance whose bit is set in `distances`.
    pub(super) fn mark_all(&self, idx: u64, distances: u128) {
        let mask = &self.masks[(idx / self.chunk - self.first_chunk) as usize];
        mask[0].fetch_or(distances as u64, Relaxed);
        mask[1].fetch_or((distances >> 64) as u64, Relaxed);
    }

    /// Whether the `chunk`-th chunk may hold positions decided at `plies`.
    pub(super) fn has(&self, chunk: usize, plies: u16) -> bool {
        plies >= 128 || self.masks[chunk][usize::from(plies / 64)].load(Relaxed) & (1 << (plies % 64)) != 0
    }
}
