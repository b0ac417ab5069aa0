//! Units kept in memory, one after another: for games small enough to
//! solve whole, whose units end up as one table.

use std::sync::{Mutex, PoisonError};

use super::UnitStore;
use crate::solution::Solution;
use crate::table::TableError;

/// A [`UnitStore`] that keeps every unit's values in one table in memory,
/// the units one after another: a saved unit is copied into its place, so
/// the finished table takes no more memory than its values.
#[derive(Debug)]
pub struct UnitsInMemory {
    starts: Vec<u64>,
    state: Mutex<(Solution, Vec<bool>)>,
}

impl UnitsInMemory {
    /// Room for units of these lengths.
    pub fn new(lens: &[u64]) -> UnitsInMemory {
        let starts: Vec<u64> = std::iter::once(0)
            .chain(lens.iter().scan(0, |end, len| {
                *end += len;
                Some(*end)
            }))
            .collect();
        let total = *starts.last().expect("one start more than units");
        let table = Solution::from_words(vec![0; total.div_ceil(8) as usize], total);
        UnitsInMemory { starts, state: Mutex::new((table, vec![false; lens.len()])) }
    }

    /// The values of every unit, one after another, once all are saved.
    pub fn into_solution(self) -> Solution {
        self.state.into_inner().unwrap_or_else(PoisonError::into_inner).0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (Solution, Vec<bool>)> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl UnitStore for UnitsInMemory {
    fn has(&self, unit: usize) -> Result<bool, TableError> {
        Ok(self.lock().1.get(unit).copied().unwrap_or(false))
    }

    fn load(&self, unit: usize, len: u64) -> Result<Solution, TableError> {
        let state = self.lock();
        let start = self.starts[unit];
        if !state.1[unit] || self.starts[unit + 1] - start != len {
            return Err(TableError::Read {
                path: format!("unit {unit} in memory").into(),
                source: std::io::Error::from(std::io::ErrorKind::NotFound),
            });
        }
        let table = state.0.words();
        let mut words: Vec<u64> = (0..len.div_ceil(8)).map(|i| bytes_at(table, start + 8 * i)).collect();
        // Past the unit's end, the next unit's bytes: a solution's are zero.
        if let Some(last) = words.last_mut().filter(|_| !len.is_multiple_of(8)) {
            *last &= u64::MAX >> (64 - 8 * (len % 8));
        }
        Ok(Solution::from_words(words, len))
    }

    /// The table of all units keeps the game's own facts.
    fn keeps_facts(&self) -> bool {
        false
    }

    /// # Errors
    ///
    /// [`TableError::Write`] for a unit of two bytes a position: the one
    /// table in memory is of bytes, as the table file it becomes.
    fn save(&self, unit: usize, values: &Solution, _: &[(&'static str, u64)]) -> Result<(), TableError> {
        if values.is_wide() {
            return Err(TableError::Write {
                path: format!("unit {unit} in memory").into(),
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "a distance past {} plies does not fit one byte per position: solve this game to unit files",
                        crate::PackedValue::MAX_PLIES
                    ),
                ),
            });
        }
        let mut state = self.lock();
        let start = self.starts[unit];
        let words = state.0.words_mut();
        let end = start + values.len();
        // Whole words are written without being read: a read first would
        // map the zero page, and the write after it would cost a fault that
        // interrupts every other thread to flush its TLB.
        for at in start / 8..end.div_ceil(8) {
            let first = (8 * at).max(start);
            let last = (8 * at + 8).min(end);
            let moved = bytes_at(values.words(), first - start) << (8 * (first - 8 * at));
            if last - first == 8 {
                words[at as usize] = moved;
            } else {
                let mask = (u64::MAX >> (64 - 8 * (last - first))) << (8 * (first - 8 * at));
                words[at as usize] = (words[at as usize] & !mask) | (moved & mask);
            }
        }
        state.1[unit] = true;
        Ok(())
    }
}

/// The eight bytes of `words` (eight to a word, the first in the low
/// bits) from byte `offset` on, zero past the end.
fn bytes_at(words: &[u64], offset: u64) -> u64 {
    let (at, shift) = ((offset / 8) as usize, 8 * (offset % 8));
    let low = words.get(at).map_or(0, |w| w >> shift);
    let high = if shift == 0 { 0 } else { words.get(at + 1).map_or(0, |w| w << (64 - shift)) };
    low | high
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `len` values, a byte each, from `first` on.
    fn values(first: u8, len: u64) -> Solution {
        let mut words = vec![0u64; len.div_ceil(8) as usize];
        for i in 0..len {
            words[(i / 8) as usize] |= u64::from(first.wrapping_add(i as u8)) << (8 * (i % 8));
        }
        Solution::from_words(words, len)
    }

    #[test]
    fn units_of_any_length_are_stored_and_read_back_byte_for_byte() {
        let lens = [5, 13, 1, 8, 21, 3, 16];
        let store = UnitsInMemory::new(&lens);
        // Out of order, as a solve saves them.
        for unit in [3, 0, 6, 2, 1, 5, 4] {
            store.save(unit, &values(40 * unit as u8 + 1, lens[unit]), &[]).unwrap();
        }
        for (unit, &len) in lens.iter().enumerate() {
            assert_eq!(store.load(unit, len).unwrap().words(), values(40 * unit as u8 + 1, len).words(), "{unit}");
        }
        let table = store.into_solution();
        let mut at = 0;
        for (unit, &len) in lens.iter().enumerate() {
            for i in 0..len {
                assert_eq!(table.byte(at), (40 * unit as u8 + 1).wrapping_add(i as u8));
                at += 1;
            }
        }
    }
}
