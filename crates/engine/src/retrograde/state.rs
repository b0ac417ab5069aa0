//! Where a solve stood when it saved a checkpoint, as bytes.
//!
//! # Stability
//!
//! Read only by the build that wrote it (see
//! [`Checkpoint`](crate::table::Checkpoint)): little-endian fields in the
//! order of [`SolverState`], the masks as pairs of words.

/// Where a solve stood between two distance layers.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub(super) struct SolverState {
    /// The chunk size the solve used (the masks are per chunk).
    pub chunk: u64,
    /// The unit being solved (earlier ones are finished).
    pub unit: u32,
    /// The next distance layer to propagate.
    pub next_layer: u16,
    /// The longest distance given in the unit so far.
    pub max_plies: u16,
    /// The unit's per-chunk masks of pending distances.
    pub pending: Vec<[u64; 2]>,
}

impl SolverState {
    pub(super) fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(24 + 16 * self.pending.len());
        bytes.extend_from_slice(&self.chunk.to_le_bytes());
        bytes.extend_from_slice(&self.unit.to_le_bytes());
        bytes.extend_from_slice(&self.next_layer.to_le_bytes());
        bytes.extend_from_slice(&self.max_plies.to_le_bytes());
        bytes.extend_from_slice(&(self.pending.len() as u64).to_le_bytes());
        for mask in &self.pending {
            bytes.extend_from_slice(&mask[0].to_le_bytes());
            bytes.extend_from_slice(&mask[1].to_le_bytes());
        }
        bytes
    }

    /// The state `bytes` hold, or `None` if they are not one.
    pub(super) fn from_bytes(bytes: &[u8]) -> Option<SolverState> {
        let mut rest = bytes;
        let mut take = |len: usize| -> Option<&[u8]> {
            let (taken, left) = rest.split_at_checked(len)?;
            rest = left;
            Some(taken)
        };
        let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("eight bytes"));
        let chunk = u64_of(take(8)?);
        let unit = u32::from_le_bytes(take(4)?.try_into().expect("four bytes"));
        let next_layer = u16::from_le_bytes(take(2)?.try_into().expect("two bytes"));
        let max_plies = u16::from_le_bytes(take(2)?.try_into().expect("two bytes"));
        let count = usize::try_from(u64_of(take(8)?)).ok()?;
        let masks = take(count.checked_mul(16)?)?;
        if !rest.is_empty() {
            return None;
        }
        let pending = masks.chunks_exact(16).map(|m| [u64_of(&m[..8]), u64_of(&m[8..])]).collect();
        Some(SolverState { chunk, unit, next_layer, max_plies, pending })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_round_trips_and_a_cut_one_is_refused() {
        let state =
            SolverState { chunk: 64, unit: 3, next_layer: 17, max_plies: 40, pending: vec![[1, 2], [3, 1 << 63]] };
        let bytes = state.to_bytes();
        assert_eq!(SolverState::from_bytes(&bytes), Some(state));
        for len in 0..bytes.len() {
            assert_eq!(SolverState::from_bytes(&bytes[..len]), None, "cut to {len}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(SolverState::from_bytes(&longer), None);
    }
}
