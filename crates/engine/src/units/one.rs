//! One unit seen as a game of one tier, for the tiered retrograde solver.

use std::ops::Range;
use std::sync::Arc;

use super::{MAX_UNIT_LEN, UnitParts, Units};
use crate::game::{DenseIndex, Expansion, Rules, TierParts, TieredRetrograde};
use crate::retrograde::{Earlier, IN_THE_CACHES, Solution};
use crate::value::Value;

/// The positions of one unit, numbered as the unit numbers them. A move
/// into the `i`-th unit it depends on, to position `idx` there, is reported
/// to the solver as `(i + 1) * MAX_UNIT_LEN + idx`: never a number of the
/// unit's own.
pub(super) struct OneUnit<'a, G> {
    pub game: &'a G,
    pub unit: usize,
    pub len: u64,
    pub depends_on: &'a [usize],
}

impl<G: Units> OneUnit<'_, G> {
    /// The number the solver knows position 0 of `unit`, a unit this one
    /// depends on, by: position `idx` there is this plus `idx`.
    #[inline]
    fn first_number(&self, unit: usize) -> u64 {
        let slot =
            self.depends_on.iter().position(|&d| d == unit).unwrap_or_else(|| {
                panic!("unit {} has a move into unit {unit}, which it does not depend on", self.unit)
            });
        (slot as u64 + 1) * MAX_UNIT_LEN
    }
}

impl<G: Units> Rules for OneUnit<'_, G> {
    type Position = G::Position;

    fn terminal_value(&self, pos: &G::Position) -> Option<Value> {
        self.game.terminal_value(pos)
    }

    fn for_each_child(&self, pos: &G::Position, f: impl FnMut(G::Position)) {
        self.game.for_each_child(pos, f);
    }
}

impl<G: Units> DenseIndex for OneUnit<'_, G> {
    fn position_count(&self) -> u64 {
        self.len
    }

    fn index(&self, pos: &G::Position) -> u64 {
        let (unit, idx) = self.game.locate(pos);
        debug_assert_eq!(unit, self.unit, "a position of another unit");
        idx
    }

    fn unindex(&self, idx: u64) -> G::Position {
        self.game.unindex_in_unit(self.unit, idx)
    }
}

impl<G: Units> TieredRetrograde for OneUnit<'_, G> {
    #[expect(clippy::single_range_in_vec_init, reason = "the one tier is the whole unit")]
    fn tiers(&self) -> Vec<Range<u64>> {
        vec![0..self.len]
    }

    fn for_each_in_range(&self, _: usize, range: Range<u64>, f: impl FnMut(u64, G::Position)) {
        self.game.for_each_in_unit(self.unit, range, f);
    }

    fn unindex_ascending(&self, _: usize, indices: impl Iterator<Item = u64>, f: impl FnMut(u64, G::Position)) {
        self.game.unindex_ascending_in_unit(self.unit, indices, f);
    }

    fn max_in_tier_moves(&self) -> u8 {
        self.game.max_in_unit_moves()
    }

    fn expand(&self, pos: &G::Position, mut earlier_child: impl FnMut(u64)) -> Expansion {
        self.game.expand(self.unit, pos, |unit, idx| {
            debug_assert!(idx < MAX_UNIT_LEN);
            earlier_child(self.first_number(unit) + idx);
        })
    }

    fn expand_range(&self, _: usize, range: Range<u64>, children: &mut Vec<u64>, f: impl FnMut(u64, Expansion, usize)) {
        self.game.expand_range(self.unit, range, children, |unit| self.first_number(unit), f);
    }

    fn for_each_parent(&self, pos: &G::Position, f: impl FnMut(u64, G::Position)) {
        self.game.for_each_parent(self.unit, pos, f);
    }

    fn for_each_parent_of_each<T: Copy>(
        &self,
        _: usize,
        positions: impl Iterator<Item = (T, G::Position)>,
        f: impl FnMut(T, u64, G::Position),
    ) {
        self.game.for_each_parent_of_each(self.unit, positions, f);
    }

    fn parts(&self, _: usize) -> Option<impl TierParts + '_> {
        self.game.parts(self.unit).map(|parts| PartsOfUnit { parts, unit: self })
    }
}

/// A unit's parts as the solver of one tier sees them: children numbered
/// as [`OneUnit`] numbers them.
struct PartsOfUnit<'a, P, G> {
    parts: P,
    unit: &'a OneUnit<'a, G>,
}

impl<P: UnitParts, G: Units> TierParts for PartsOfUnit<'_, P, G> {
    fn slot_counts(&self) -> Vec<u32> {
        self.parts.slot_counts()
    }

    fn expand(&self, part: usize, f: impl FnMut(u32, u64, Expansion, &[u64])) {
        self.parts.expand(part, |unit| self.unit.first_number(unit), f);
    }

    #[inline]
    fn for_each_parent(&self, part: usize, slot: u32, f: impl FnMut(u32)) {
        self.parts.for_each_parent(part, slot, f);
    }
}

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
    /// (see [`OneUnit`]).
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
