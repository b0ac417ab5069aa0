//! The values of the units a unit solved alone reads, as the solver
//! numbers them.

use std::ops::Deref;
use std::sync::Arc;

use super::MAX_UNIT_LEN;
use crate::retrograde::{Earlier, IN_THE_CACHES};
use crate::solution::Solution;

/// The values of the units one unit depends on, in its order (held in
/// `U`, borrowed or owned); `ANY_WIDE` if some are two bytes a position.
/// (Most units have none: their lookups, the solver's hottest loads, then
/// read a byte without asking its width.) With `ONE_PASS`, only those of
/// one pass of a unit solved in passes: the others are empty and not
/// [covered](Earlier::covers).
pub(super) struct DependencyValues<U, const ANY_WIDE: bool, const ONE_PASS: bool = false> {
    units: U,
    /// With `ONE_PASS`, whether each unit's values are here.
    covered: Vec<bool>,
    /// Whether the values are too many for the caches, so that their
    /// lines are worth touching a batch ahead (see [`Earlier::touch`]).
    touch_ahead: bool,
}

impl<U: Deref<Target = [Arc<Solution>]>, const ANY_WIDE: bool, const ONE_PASS: bool>
    DependencyValues<U, ANY_WIDE, ONE_PASS>
{
    /// The values of `units`, which are two bytes a position only if
    /// `ANY_WIDE`; with `ONE_PASS`, those of the `covered` units only.
    fn with_covered(units: U, covered: Vec<bool>) -> DependencyValues<U, ANY_WIDE, ONE_PASS> {
        assert!(ANY_WIDE || units.iter().all(|u| !u.is_wide()), "a unit of two bytes a position among bytes");
        let bytes: u64 = units.iter().map(|u| u.size_in_bytes()).sum();
        DependencyValues { units, covered, touch_ahead: bytes > IN_THE_CACHES }
    }

    /// Which unit a child number points into (see [`MAX_UNIT_LEN`]).
    #[inline]
    fn unit_number(child: u64) -> usize {
        (child / MAX_UNIT_LEN - 1) as usize
    }

    /// The unit a child number points into, and the child's number there.
    #[inline]
    fn unit_of(&self, child: u64) -> (&Solution, u64) {
        (&self.units[Self::unit_number(child)], child % MAX_UNIT_LEN)
    }
}

impl<'a, const ANY_WIDE: bool> DependencyValues<&'a [Arc<Solution>], ANY_WIDE> {
    /// The values of `units`, which are two bytes a position only if `ANY_WIDE`.
    pub(super) fn new(units: &'a [Arc<Solution>]) -> Self {
        DependencyValues::with_covered(units, Vec::new())
    }
}

impl DependencyValues<Vec<Arc<Solution>>, true, true> {
    /// The values of the `covered` units of `units`, the others empty.
    pub(super) fn one_pass(units: Vec<Arc<Solution>>, covered: Vec<bool>) -> Self {
        DependencyValues::with_covered(units, covered)
    }
}

impl<U, const ANY_WIDE: bool, const ONE_PASS: bool> Earlier for DependencyValues<U, ANY_WIDE, ONE_PASS>
where
    U: Deref<Target = [Arc<Solution>]> + Sync,
{
    fn touch(&self, indices: impl Iterator<Item = u64>) {
        if !self.touch_ahead {
            return;
        }
        for child in indices.filter(|&child| self.covers(child)) {
            let (unit, idx) = self.unit_of(child);
            unit.prefetch(idx);
        }
    }

    fn load(&self, child: u64) -> u16 {
        let (unit, idx) = self.unit_of(child);
        if ANY_WIDE { unit.code(idx) } else { u16::from(unit.byte(idx)) }
    }

    #[inline(always)]
    fn covers(&self, child: u64) -> bool {
        !ONE_PASS || self.covered[Self::unit_number(child)]
    }
}
