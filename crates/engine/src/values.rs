//! Solved values, looked up by index, wherever they are kept.

use crate::distances::{DistanceCounter, Distances};
use crate::table::{Packed, Table};
use crate::value::Value;

/// Values that can be looked up by position index: a table on disk (full
/// or compact), a solution still in memory, or a plain slice in tests.
pub trait Values: Sync {
    /// The number of positions.
    fn len(&self) -> u64;

    /// Whether there are no positions.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of position `idx < len()`.
    fn probe(&self, idx: u64) -> Value;

    /// Every value counted by result and distance, on every thread.
    fn distances(&self) -> Distances {
        use rayon::prelude::*;
        const PIECE: u64 = 1 << 18;
        (0..self.len().div_ceil(PIECE))
            .into_par_iter()
            .map(|piece| {
                let mut counter = DistanceCounter::default();
                for idx in piece * PIECE..((piece + 1) * PIECE).min(self.len()) {
                    counter.add(self.probe(idx), 1);
                }
                counter
            })
            .reduce(DistanceCounter::default, DistanceCounter::merge)
            .finish()
    }
}

impl Values for Table<Packed> {
    fn len(&self) -> u64 {
        Table::len(self)
    }

    fn probe(&self, idx: u64) -> Value {
        Table::<Packed>::probe(self, idx)
    }
}

impl Values for [Value] {
    fn len(&self) -> u64 {
        <[Value]>::len(self) as u64
    }

    fn probe(&self, idx: u64) -> Value {
        self[idx as usize]
    }
}
