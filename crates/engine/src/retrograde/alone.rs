//! One unit solved alone, as a solve by units solves each: its own cells,
//! its moves out looked up elsewhere, no checkpoints.

use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use super::codes::Codes;
use super::pending::Pending;
use super::unit_solve::{Earlier, UnitSolve};
use super::{Numbering, SolveError};
use crate::cells::{Cell, Cells};
use crate::game::Units;
use crate::progress::Progress;
use crate::solution::Solution;

/// A unit to solve alone, as a solve by units solves each: `unit` of
/// `game`, of `len` positions numbered from zero, its moves out of it
/// numbered by `numbering` and looked up in `earlier`. No checkpoints: a
/// caller that needs to resume keeps its units small enough to redo.
pub(crate) struct UnitAlone<'a, G, E> {
    pub game: &'a G,
    pub unit: usize,
    pub len: u64,
    pub numbering: &'a Numbering,
    pub earlier: &'a E,
    /// Positions per task (see [`Solver::with_chunk_size`](super::Solver::with_chunk_size)).
    pub chunk: u64,
}

/// The cells a unit is first solved in.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Width {
    /// A byte a position, and two if a distance does not fit (see the
    /// module docs).
    ByteFirst,
    /// Two bytes a position at once: for a unit that expects long
    /// distances (the units it reads are that wide), which saves the
    /// first try.
    TwoBytes,
}

/// Who solves a [`UnitAlone`].
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Sharing {
    /// Every thread of the pool, updating cells by compare-and-swap.
    Threads,
    /// The calling thread alone, with plain loads and stores: the caller
    /// runs other units on the other threads.
    Alone,
}

/// The progress of one try at a solve, which passes on only the work
/// beyond the first `skip` units (what an earlier try reported), so that
/// a bar counts the positions once however often they are solved.
struct Tried<'a> {
    progress: &'a dyn Progress,
    skip: AtomicU64,
    passed: AtomicU64,
}

impl Progress for Tried<'_> {
    fn stage(&self, name: &str) {
        self.progress.stage(name);
    }

    fn note(&self, message: &str) {
        self.progress.note(message);
    }

    fn advance(&self, units: u64) {
        let skipped = self.skip.fetch_update(Relaxed, Relaxed, |skip| Some(skip.saturating_sub(units)));
        let passed = units.saturating_sub(skipped.expect("the update always gives a value"));
        self.passed.fetch_add(passed, Relaxed);
        self.progress.advance(passed);
    }

    fn should_stop(&self) -> bool {
        self.progress.should_stop()
    }
}

impl<G: Units, E: Earlier> UnitAlone<'_, G, E> {
    /// Solves the unit: one value per position. With [`Sharing::Alone`] it
    /// runs on the calling thread only.
    pub(crate) fn solve(
        &self,
        width: Width,
        sharing: Sharing,
        progress: &dyn Progress,
    ) -> Result<Solution, SolveError> {
        debug_assert_eq!(self.numbering.base(), 0, "a unit solved alone numbers its positions from zero");
        widening(width, progress, |wide, progress| match (wide, sharing) {
            (false, Sharing::Threads) => self.solve_in::<u8, true>(progress),
            (false, Sharing::Alone) => self.solve_in::<u8, false>(progress),
            (true, Sharing::Threads) => self.solve_in::<u16, true>(progress),
            (true, Sharing::Alone) => self.solve_in::<u16, false>(progress),
        })
    }

    /// The solve of the unit's positions numbered in `range`, in `cells`
    /// (of the whole unit), keeping each position's longest earlier win if
    /// `keeps_earlier_wins`.
    pub(super) fn solver<'s, C: Cell, const SHARED: bool>(
        &'s self,
        cells: &'s Cells<C>,
        range: Range<u64>,
        keeps_earlier_wins: bool,
    ) -> UnitSolve<'s, G, E, C, SHARED> {
        UnitSolve {
            game: self.game,
            unit: self.unit,
            numbering: self.numbering,
            cells,
            earlier: self.earlier,
            codes: Codes::new(self.game.max_in_unit_moves()),
            chunk: self.chunk,
            pending: Pending::new(&range, self.chunk),
            range,
            max_plies: AtomicU16::new(0),
            earlier_wins: keeps_earlier_wins.then(|| Cells::zeroed(self.len)),
            step_dense_layers: true,
            folded: false,
        }
    }

    /// One try, in cells of `C`.
    fn solve_in<C: Cell, const SHARED: bool>(&self, progress: &dyn Progress) -> Result<Solution, SolveError> {
        self.solve_cells::<C, SHARED>(Cells::zeroed(self.len), false, progress)
    }

    /// Solves the unit in `cells`, which are zero, or `folded` by earlier
    /// passes (see `passes`).
    pub(super) fn solve_cells<C: Cell, const SHARED: bool>(
        &self,
        cells: Cells<C>,
        folded: bool,
        progress: &dyn Progress,
    ) -> Result<Solution, SolveError> {
        let len = self.len;
        let parts = self.game.parts(self.unit);
        // Parts keep their own earlier wins.
        let mut solver = self.solver::<C, SHARED>(&cells, 0..len, parts.is_none());
        solver.folded = folded;
        match parts {
            Some(parts) => solver.solve_by_parts(&parts, progress)?,
            None => {
                solver.seed(progress)?;
                solver.propagate(progress, 0, &mut |_| Ok(()))?;
            }
        }
        solver.finish(progress);
        Ok(Solution::from_cells(cells, len))
    }
}

/// Runs `solve(wide, progress)` a byte a position unless `width` says two,
/// and again two bytes wide if a distance overflowed a byte, reporting
/// each position's progress once.
pub(super) fn widening<T>(
    width: Width,
    progress: &dyn Progress,
    solve: impl Fn(bool, &dyn Progress) -> Result<T, SolveError>,
) -> Result<T, SolveError> {
    let first = Tried { progress, skip: AtomicU64::new(0), passed: AtomicU64::new(0) };
    if width == Width::ByteFirst {
        match solve(false, &first) {
            Err(SolveError::DistanceOverflow { .. }) => {}
            solved => return solved,
        }
    }
    let second = Tried { progress, skip: first.passed, passed: AtomicU64::new(0) };
    solve(true, &second)
}
