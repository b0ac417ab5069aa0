//! A unit solved in passes over the units it reads, for a unit whose
//! dependencies do not fit in memory beside it.
//!
//! Seeding reads a position's moves into earlier units only to fold them
//! into three facts (see `EarlierChildren`), and the facts of two sets
//! of children fold into those of both. So the dependencies are read a
//! group at a time: each pass but the last expands every position and
//! folds its moves into the group into the position's cell, which holds
//! one child's code standing for all seen so far (see `Codes::folded`);
//! the last pass reads the last group and the folded cell as one more
//! child, and solves the unit as usual. Each cell is read by its own
//! position before it is written with its seed, so the fold needs no
//! memory beyond the unit's cells. What the seeds see is what they would
//! see at once, so the values are the same bytes; each pass before the
//! last costs one more expansion of the unit.

use rayon::prelude::*;

use super::alone::{Sharing, UnitAlone, Width, widening};
use super::unit_solve::{Earlier, SEED_BATCH, Scratch, UnitSolve};
use super::{Numbering, SolveError};
use crate::cells::{Cell, Cells};
use crate::game::{Expansion, UnitParts, Units};
use crate::progress::{Interrupted, Progress};
use crate::solution::Solution;

/// A unit to solve as [`UnitAlone`] does, its dependencies read in
/// `passes` groups: `values(pass)` gives the values of one group, which
/// [cover](Earlier::covers) its moves into that group only. Every move out
/// of the unit must be covered by exactly one group.
pub(crate) struct InPasses<'a, G, F> {
    pub game: &'a G,
    pub unit: usize,
    pub len: u64,
    pub numbering: &'a Numbering,
    /// Positions per task (see [`UnitAlone::chunk`]).
    pub chunk: u64,
    pub passes: usize,
    pub values: F,
}

impl<G: Units, E: Earlier, F: Fn(usize) -> Result<E, SolveError>> InPasses<'_, G, F> {
    /// Solves the unit: the values [`UnitAlone::solve`] gives.
    pub(crate) fn solve(
        &self,
        width: Width,
        sharing: Sharing,
        progress: &dyn Progress,
    ) -> Result<Solution, SolveError> {
        widening(width, progress, |wide, progress| match (wide, sharing) {
            (false, Sharing::Threads) => self.solve_in::<u8, true>(progress),
            (false, Sharing::Alone) => self.solve_in::<u8, false>(progress),
            (true, Sharing::Threads) => self.solve_in::<u16, true>(progress),
            (true, Sharing::Alone) => self.solve_in::<u16, false>(progress),
        })
    }

    /// The unit alone, reading `earlier`.
    fn alone<'s>(&'s self, earlier: &'s E) -> UnitAlone<'s, G, E> {
        let InPasses { game, unit, len, numbering, chunk, .. } = *self;
        UnitAlone { game, unit, len, numbering, earlier, chunk }
    }

    /// One try, in cells of `C`.
    fn solve_in<C: Cell, const SHARED: bool>(&self, progress: &dyn Progress) -> Result<Solution, SolveError> {
        let cells = Cells::<C>::zeroed(self.len);
        let last = self.passes.saturating_sub(1);
        for pass in 0..last {
            let earlier = (self.values)(pass)?;
            let alone = self.alone(&earlier);
            let mut solver = alone.solver::<C, SHARED>(&cells, 0..self.len, false);
            solver.folded = pass > 0;
            match self.game.parts(self.unit) {
                Some(parts) => solver.fold_by_parts(&parts, progress)?,
                None => solver.fold(progress)?,
            }
        }
        let earlier = (self.values)(last)?;
        self.alone(&earlier).solve_cells::<C, SHARED>(cells, last > 0, progress)
    }
}

impl<G: Units, E: Earlier, C: Cell, const SHARED: bool> UnitSolve<'_, G, E, C, SHARED> {
    /// The cell a position holds after this pass: what its moves into the
    /// units this pass reads say, and what earlier passes left there.
    #[inline(always)]
    fn folded_cell(&self, idx: u64, expansion: Expansion, children: &[u64]) -> Result<C, SolveError> {
        match expansion {
            // Its seed reads nothing of its moves.
            Expansion::Terminal(_) => Ok(C::truncate(0)),
            Expansion::Moves { .. } => self.codes.folded(&self.earlier_children(idx, children)),
        }
    }

    /// One pass before the last over a unit without parts, a chunk at a time.
    fn fold(&self, progress: &dyn Progress) -> Result<(), SolveError> {
        let chunks = self.chunks().into_par_iter().with_min_len(Self::MIN_CHUNKS_PER_TASK);
        chunks.try_for_each_init(Scratch::<G::Position, C>::default, |scratch, chunk| {
            if progress.should_stop() {
                return Err(SolveError::Interrupted(Interrupted));
            }
            scratch.codes.clear();
            let mut next = chunk.start;
            while next < chunk.end {
                let batch = next..(next + SEED_BATCH as u64).min(chunk.end);
                next = batch.end;
                self.expand_batch(batch, scratch);
                for (idx, expansion, children) in &scratch.positions {
                    let cell = self.folded_cell(*idx, *expansion, &scratch.children[children.clone()])?;
                    scratch.codes.push(cell);
                }
            }
            self.cells.write_cells(chunk.start, &scratch.codes);
            Ok(())
        })
    }

    /// One pass before the last over a unit in parts, a part at a time.
    fn fold_by_parts(&self, parts: &impl UnitParts, progress: &dyn Progress) -> Result<(), SolveError> {
        let fold = |run: &mut CellRun<C>, part: usize| {
            if progress.should_stop() {
                return Err(SolveError::Interrupted(Interrupted));
            }
            let mut failed = None;
            let (numbering, base) = (self.numbering, self.numbering.base());
            parts.expand(
                part,
                |to| numbering.first_number(to),
                |_, idx, expansion, children| {
                    let idx = base + idx;
                    match self.folded_cell(idx, expansion, children) {
                        Ok(cell) => run.push(self.cells, idx, cell),
                        Err(error) => drop(failed.get_or_insert(error)),
                    }
                },
            );
            run.write(self.cells);
            failed.map_or(Ok(()), Err)
        };
        let slots = parts.slot_counts().len();
        if SHARED {
            (0..slots).into_par_iter().try_for_each_init(CellRun::default, fold)
        } else {
            let mut run = CellRun::default();
            (0..slots).try_for_each(|part| fold(&mut run, part))
        }
    }
}

/// Cells of consecutive positions, written together once the next
/// position breaks the run.
struct CellRun<C> {
    first: u64,
    cells: Vec<C>,
}

impl<C> Default for CellRun<C> {
    fn default() -> Self {
        CellRun { first: 0, cells: Vec::new() }
    }
}

impl<C: Cell> CellRun<C> {
    fn push(&mut self, to: &Cells<C>, idx: u64, cell: C) {
        if self.first + self.cells.len() as u64 != idx {
            self.write(to);
            self.first = idx;
        }
        self.cells.push(cell);
    }

    fn write(&mut self, to: &Cells<C>) {
        to.write_cells(self.first, &self.cells);
        self.cells.clear();
    }
}
