//! Solved values, looked up by index, wherever they are kept.

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
