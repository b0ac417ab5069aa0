//! The numbers the solver knows positions by while it solves one unit.

/// The numbers of the positions a unit's solve touches: its own from
/// `base` on, and those of each unit it reads from that unit's first number
/// on. In one table for the whole game, a number is a position's index; a
/// unit solved alone numbers its own from zero and those of the `i`-th unit
/// it depends on from `(i + 1) * MAX_UNIT_LEN` (see
/// [`units`](crate::units)).
#[derive(Clone, Debug)]
pub(crate) struct Numbering {
    unit: usize,
    base: u64,
    /// By unit: the number of its position 0, or [`NOT_READ`].
    first: Vec<u64>,
}

/// The first number of a unit the one being solved does not read.
const NOT_READ: u64 = u64::MAX;

impl Numbering {
    /// `unit`'s own positions from `base` on, among `units` units, of which
    /// it reads those `reads` gives with their first numbers.
    pub(crate) fn new(unit: usize, base: u64, units: usize, reads: impl Iterator<Item = (usize, u64)>) -> Numbering {
        let mut first = vec![NOT_READ; units];
        for (read, number) in reads {
            first[read] = number;
        }
        Numbering { unit, base, first }
    }

    /// The number of the unit's own position 0.
    #[inline]
    pub(crate) fn base(&self) -> u64 {
        self.base
    }

    /// The number of position 0 of unit `to`, which the unit being solved
    /// reads: position `idx` there is this plus `idx`.
    ///
    /// # Panics
    ///
    /// Panics if the unit being solved does not depend on `to`: the game
    /// reported a move its units do not allow.
    #[inline]
    pub(crate) fn first_number(&self, to: usize) -> u64 {
        match self.first.get(to) {
            Some(&number) if number != NOT_READ => number,
            _ => self.not_read(to),
        }
    }

    #[cold]
    #[inline(never)]
    fn not_read(&self, to: usize) -> ! {
        panic!("unit {} has a move into unit {to}, which it does not depend on", self.unit)
    }
}
