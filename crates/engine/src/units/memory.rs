//! Units kept in memory, one after another: for games small enough to
//! solve whole, whose units end up as one table.

use std::sync::{Mutex, PoisonError};

use super::UnitStore;
use crate::retrograde::Solution;
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
        let mut words = vec![0u64; len.div_ceil(8) as usize];
        for i in 0..len {
            // The table is of bytes (see `save`), so every code fits one.
            words[(i / 8) as usize] |= u64::from(state.0.code(start + i)) << (8 * (i % 8));
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
        for i in 0..values.len() {
            let at = start + i;
            let shift = 8 * (at % 8);
            let word = &mut words[(at / 8) as usize];
            *word = (*word & !(0xff << shift)) | u64::from(values.code(i)) << shift;
        }
        state.1[unit] = true;
        Ok(())
    }
}
