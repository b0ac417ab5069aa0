//! Units kept in memory only: for games small enough to solve whole.

use std::sync::{Arc, Mutex, PoisonError};

use super::UnitStore;
use crate::table::TableError;

/// A [`UnitStore`] in memory, for a game whose units all fit: what a solve
/// by units that ends in one table uses.
#[derive(Debug, Default)]
pub struct UnitsInMemory {
    units: Mutex<Vec<Option<Arc<[u8]>>>>,
}

impl UnitsInMemory {
    /// No units yet.
    pub fn new() -> UnitsInMemory {
        UnitsInMemory::default()
    }

    /// Every unit's values, `None` for those not solved.
    pub fn into_units(self) -> Vec<Option<Arc<[u8]>>> {
        self.units.into_inner().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<Arc<[u8]>>>> {
        self.units.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl UnitStore for UnitsInMemory {
    fn has(&self, unit: usize) -> Result<bool, TableError> {
        Ok(self.lock().get(unit).is_some_and(Option::is_some))
    }

    fn load(&self, unit: usize, len: u64) -> Result<Arc<[u8]>, TableError> {
        let values = self.lock().get(unit).cloned().flatten();
        values.filter(|v| v.len() as u64 == len).ok_or_else(|| TableError::Read {
            path: format!("unit {unit} in memory").into(),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        })
    }

    fn save(&self, unit: usize, values: &[u8]) -> Result<(), TableError> {
        let mut units = self.lock();
        if units.len() <= unit {
            units.resize(unit + 1, None);
        }
        units[unit] = Some(values.into());
        Ok(())
    }
}
