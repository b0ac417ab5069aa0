//! The values of the units a unit solved alone reads, as the solver
//! numbers them.

use std::sync::Arc;

use super::MAX_UNIT_LEN;
use crate::retrograde::{Earlier, IN_THE_CACHES};
use crate::solution::Solution;

/// The values of the units one unit depends on, in its order; `ANY_WIDE`
/// if some are two bytes a position. (Most units have none: their lookups,
/// the solver's hottest loads, then read a byte without asking its width.)
pub(super) struct DependencyValues<'a, const ANY_WIDE: bool> {
    units: &'a [Arc<Solution>],
    /// Whether the values are too many for the caches, so that their
    /// lines are worth touching a batch ahead (see [`Earlier::touch`]).
    touch_ahead: bool,
}

impl<'a, const ANY_WIDE: bool> DependencyValues<'a, ANY_WIDE> {
    /// The values of `units`, which are two bytes a position only if `ANY_WIDE`.
    pub(super) fn new(units: &'a [Arc<Solution>]) -> DependencyValues<'a, ANY_WIDE> {
        assert!(ANY_WIDE || units.iter().all(|u| !u.is_wide()), "a unit of two bytes a position among bytes");
        let bytes: u64 = units.iter().map(|u| u.size_in_bytes()).sum();
        DependencyValues { units, touch_ahead: bytes > IN_THE_CACHES }
    }

    /// The unit a child number points into, and the child's number there
    /// (see [`MAX_UNIT_LEN`]).
    #[inline]
    fn unit_of(&self, child: u64) -> (&Solution, u64) {
        (&self.units[(child / MAX_UNIT_LEN - 1) as usize], child % MAX_UNIT_LEN)
    }
}

impl<const ANY_WIDE: bool> Earlier for DependencyValues<'_, ANY_WIDE> {
    fn touch(&self, indices: impl Iterator<Item = u64>) {
        if !self.touch_ahead {
            return;
        }
        for child in indices {
            let (unit, idx) = self.unit_of(child);
            unit.prefetch(idx);
        }
    }

    fn load(&self, child: u64) -> u16 {
        let (unit, idx) = self.unit_of(child);
        if ANY_WIDE { unit.code(idx) } else { u16::from(unit.byte(idx)) }
    }
}
